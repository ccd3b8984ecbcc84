package tomlio

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/model"
	"planner/tomlio/tomltest"
)

// mutateTypes calls check once per wrong-typed key of every file of glob.
func mutateTypes(t *testing.T, glob string, check func(file string, m tomltest.Mutation)) {
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no files %s", glob)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tomltest.WrongTypes(string(data)) {
			check(filepath.Base(path), m)
		}
	}
}

// oneTypeError fails unless err is exactly one error, on the mutated
// line, naming the key.
func oneTypeError(t *testing.T, file string, m tomltest.Mutation, err error) {
	t.Helper()
	if err == nil || m.Key == "trips" {
		return // keys that take either type: a count or "dyn", a constant's value
	}
	list, ok := model.Errors(err)
	if !ok {
		t.Errorf("%s:%s: %T without a position: %v", file, m.Key, err, err)
		return
	}
	if len(list) != 1 || list[0].Pos.Line != m.Line || !strings.Contains(list[0].Msg, m.Key) {
		t.Errorf("%s:%s: want one error on line %d naming %s, got:\n%v", file, m.Key, m.Line, m.Key, err)
	}
}

// A key of the wrong TOML type in a graph is one error, on its line,
// naming the key and the type it takes; nothing else is reported because
// of it.
func TestWrongTypeGraphs(t *testing.T) {
	targets := maps.Clone(testTargets)
	targets["gfx1100"] = &model.Target{Name: "gfx1100", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 65536}
	targets["gfx1100_wave64"] = &model.Target{Name: "gfx1100_wave64", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 65536}
	targets["bmg"] = &model.Target{Name: "bmg", SubgroupSize: 16, MaxSubgroups: 64, SharedMemory: 131072} // as intrinsics/targets/bmg.toml
	mutateTypes(t, "../testdata/graphs/*.toml", func(file string, m tomltest.Mutation) {
		_, err := ParseGraph(file, m.Text, targets)
		oneTypeError(t, file, m, err)
	})
}

// The same in a layout file.
func TestWrongTypeLayouts(t *testing.T) {
	mutateTypes(t, "../examples/layouts/*.toml", func(file string, m tomltest.Mutation) {
		_, err := ParseLayoutFile(file, m.Text)
		oneTypeError(t, file, m, err)
	})
}
