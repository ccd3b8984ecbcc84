package mlir

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

// want is one expected error: a `// want code: text` comment on the line
// the error must be reported at.
type want struct {
	line       int
	code, text string
}

var wantRE = regexp.MustCompile(`//\s*want\s+([a-z-]+):\s*(.*)$`)

func readWants(t *testing.T, data []byte) []want {
	t.Helper()
	var ws []want
	for i, line := range strings.Split(string(data), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			ws = append(ws, want{i + 1, m[1], strings.TrimSpace(m[2])})
		}
	}
	if len(ws) == 0 {
		t.Fatal("the file has no // want comment")
	}
	return ws
}

// checkWants matches reported errors against the wanted ones: every error
// must be wanted and every want met, on its line, with its code and text.
func checkWants(t *testing.T, err error, ws []want) {
	t.Helper()
	if err == nil {
		t.Fatal("no error reported")
	}
	list, ok := ErrorOf(err)
	if !ok {
		t.Fatalf("error %v is not a model.Error", err)
	}
	met := make([]bool, len(ws))
	for _, e := range list {
		found := false
		for i, w := range ws {
			if !met[i] && e.Pos.Line == w.line && e.Code.String() == w.code && strings.Contains(e.Msg, w.text) {
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
			t.Errorf("line %d: want %s: %q, not reported; got:\n%v", w.line, w.code, w.text, err)
		}
	}
}

// TestBadMLIRFiles reads every file of testdata/bad/mlir: each must fail
// with exactly the errors its // want comments name, on their lines, every
// error at a file:line:col, and the full text must match
// testdata/bad/mlir.golden.
func TestBadMLIRFiles(t *testing.T) {
	files, err := filepath.Glob("../testdata/bad/mlir/*.mlir")
	if err != nil || len(files) < 20 {
		t.Fatalf("%d malformed MLIR files, want at least 20: %v", len(files), err)
	}
	var golden strings.Builder
	for _, path := range files {
		name := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, rerr := ReadGraph(name, data, Options{Targets: testTargets})
			checkWants(t, rerr, readWants(t, data))
			if list, ok := ErrorOf(rerr); ok {
				for _, e := range list {
					if e.Pos.File != name || e.Pos.Line < 1 || e.Pos.Col < 1 {
						t.Errorf("error without a file:line:col: %#v", e)
					}
				}
			}
			fmt.Fprintf(&golden, "%v\n", rerr)
		})
	}
	compareGolden(t, "../testdata/bad/mlir.golden", golden.String())
}

func compareGolden(t *testing.T, path, got string) {
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
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s differs at line %d (run go test -update to accept):\n- %s\n+ %s", path, i+1, w, g)
			return
		}
	}
}

var _ = model.CodeNone
