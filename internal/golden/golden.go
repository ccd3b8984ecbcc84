// Package golden holds the tests' two harnesses over files: a comparison
// of output with a golden file, rewritten by `go test -update` where it
// differs, and the check of a catalogue of bad inputs, each file naming on
// its own lines the errors a reader must report there.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planner/model"
)

var update = flag.Bool("update", false, "rewrite golden files that differ")

// Update says whether the test was run with -update, for tests that write
// their goldens in their own way.
func Update() bool { return *update }

// Compare compares got with the golden file at path; with -update it
// rewrites the file where they differ, and only there.
func Compare(t testing.TB, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if err == nil && string(want) == got {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
		return
	}
	if err != nil {
		t.Errorf("%v (run go test -update to create it)", err)
		return
	}
	t.Errorf("%s differs (run go test -update to accept):\n%s", path, Diff(string(want), got))
}

// Want is one expected error: a `want code: text` comment on the line the
// error must be reported at.
type Want struct {
	Line       int
	Code, Text string
}

// Wants reads the want comments of a file whose comments open with
// comment (`//`, `#`); a file without one fails the test.
func Wants(t testing.TB, data []byte, comment string) []Want {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(comment) + `\s*want\s+([a-z-]+):\s*(.*)$`)
	var ws []Want
	for i, line := range strings.Split(string(data), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			ws = append(ws, Want{i + 1, m[1], strings.TrimSpace(m[2])})
		}
	}
	if len(ws) == 0 {
		t.Fatalf("the file has no %s want comment", comment)
	}
	return ws
}

// CheckWants matches reported errors against the wanted ones: every error
// must be wanted and every want met, on its line, with its code and text.
func CheckWants(t testing.TB, err error, ws []Want) {
	t.Helper()
	if err == nil {
		t.Fatal("no error reported")
	}
	list, ok := model.Errors(err)
	if !ok {
		t.Fatalf("error %v is not a model.Error", err)
	}
	met := make([]bool, len(ws))
	for _, e := range list {
		found := false
		for i, w := range ws {
			if !met[i] && e.Pos.Line == w.Line && e.Code.String() == w.Code && strings.Contains(e.Msg, w.Text) {
				met[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("unexpected error %s (code %s)", e, e.Code)
		}
	}
	for i, w := range ws {
		if !met[i] {
			t.Errorf("line %d: want %s: %q, not reported; got:\n%v", w.Line, w.Code, w.Text, err)
		}
	}
}

// Catalogue is a folder of bad inputs and the golden file of their errors.
type Catalogue struct {
	Glob    string // the files, e.g. ../testdata/bad/mlir/*.mlir
	Least   int    // how many files there must be at least
	Comment string // what opens a comment in them: "//" or "#"
	Golden  string // the golden file of every file's error text, in order
}

// Run reads each file of the catalogue in a subtest of its own and gives
// it to read, under its name relative to the repository (../ cut off): the
// error read returns must be the one its want comments name, and the
// errors' texts together must match the golden file.
func (c Catalogue) Run(t *testing.T, read func(t *testing.T, name string, data []byte) error) {
	t.Helper()
	files, err := filepath.Glob(c.Glob)
	if err != nil || len(files) < max(c.Least, 1) {
		t.Fatalf("%d files match %s, want at least %d: %v", len(files), c.Glob, max(c.Least, 1), err)
	}
	var golden strings.Builder
	done := 0
	for _, path := range files {
		name := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rerr := read(t, name, data)
			fmt.Fprintf(&golden, "%v\n", rerr)
			done++
			CheckWants(t, rerr, Wants(t, data, c.Comment))
		})
	}
	// The golden file holds every file's errors: compared (or rewritten
	// by -update) only when every file was read, not under a -run that
	// picks some of them.
	if done == len(files) {
		Compare(t, c.Golden, golden.String())
	}
}
