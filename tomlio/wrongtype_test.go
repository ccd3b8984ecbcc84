package tomlio

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planner/model"
)

// keyLine is a `key = value` line of a TOML file.
var keyLine = regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(.*)$`)

// wrongType gives a value of another TOML type than the one written.
func wrongType(value string) string {
	switch {
	case strings.HasPrefix(value, `"`):
		return "7"
	case strings.HasPrefix(value, "[") || strings.HasPrefix(value, "{"):
		return `"x"`
	case value == "true" || value == "false":
		return "[1]"
	}
	return `"seven"`
}

// mutateTypes calls check once per `key = value` line of every file of
// glob, with that value replaced by one of another type.
func mutateTypes(t *testing.T, glob string, check func(t *testing.T, file string, line int, key string, data []byte)) {
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no files %s", glob)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			m := keyLine.FindStringSubmatch(l)
			if m == nil || strings.HasSuffix(strings.TrimSpace(m[4]), "[") { // multi-line arrays stay
				continue
			}
			value := strings.TrimSpace(strings.SplitN(m[4], "#", 2)[0])
			mutated := slicesWith(lines, i, m[1]+m[2]+m[3]+wrongType(value))
			check(t, filepath.Base(path), i+1, m[2], []byte(strings.Join(mutated, "\n")))
		}
	}
}

func slicesWith(lines []string, i int, l string) []string {
	out := append([]string(nil), lines...)
	out[i] = l
	return out
}

// oneTypeError fails unless err is exactly one error, on line, naming key.
func oneTypeError(t *testing.T, what string, line int, key string, err error) {
	t.Helper()
	if err == nil || key == "trips" {
		return // keys that take either type: a count or "dyn", a constant's value
	}
	list, ok := model.Errors(err)
	if !ok {
		t.Errorf("%s: %T without a position: %v", what, err, err)
		return
	}
	if len(list) != 1 || list[0].Pos.Line != line || !strings.Contains(list[0].Msg, key) {
		t.Errorf("%s: want one error on line %d naming %s, got:\n%v", what, line, key, err)
	}
}

// A key of the wrong TOML type in a graph is one error, on its line,
// naming the key and the type it takes; nothing else is reported because
// of it.
func TestWrongTypeGraphs(t *testing.T) {
	targets := maps.Clone(testTargets)
	targets["gfx1100"] = &model.Target{Name: "gfx1100", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 65536}
	mutateTypes(t, "../testdata/graphs/*.toml", func(t *testing.T, file string, line int, key string, data []byte) {
		_, err := ParseGraph(file, data, targets)
		oneTypeError(t, file+":"+key, line, key, err)
	})
}

// The same in a layout file.
func TestWrongTypeLayouts(t *testing.T) {
	mutateTypes(t, "../examples/layouts/*.toml", func(t *testing.T, file string, line int, key string, data []byte) {
		_, err := ParseLayoutFile(file, data)
		oneTypeError(t, file+":"+key, line, key, err)
	})
}
