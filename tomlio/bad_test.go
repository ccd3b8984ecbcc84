package tomlio

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

// want is one expected error: a `# want code: text` comment on the line
// the error must be reported at.
type want struct {
	line int
	code string
	text string
}

var wantRE = regexp.MustCompile(`#\s*want\s+([a-z-]+):\s*(.*)$`)

func readWants(t *testing.T, data []byte) []want {
	var ws []want
	for i, line := range strings.Split(string(data), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			ws = append(ws, want{i + 1, m[1], strings.TrimSpace(m[2])})
		}
	}
	if len(ws) == 0 {
		t.Fatal("the file has no # want comment")
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
	var list model.ErrorList
	switch e := err.(type) {
	case model.ErrorList:
		list = e
	case *model.Error:
		list = model.ErrorList{e}
	default:
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

// TestBadLayoutFiles runs every file of testdata/bad/layouts and compares
// the full error text with testdata/bad/layouts.golden.
func TestBadLayoutFiles(t *testing.T) {
	files, err := filepath.Glob("../testdata/bad/layouts/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad layout files: %v", err)
	}
	var golden strings.Builder
	for _, path := range files {
		name := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := ParseLayoutFile(name, data)
			checkWants(t, perr, readWants(t, data))
			fmt.Fprintf(&golden, "%v\n", perr)
		})
	}
	compareGolden(t, "../testdata/bad/layouts.golden", golden.String())
}

// compareGolden compares got with a golden file; with -update it rewrites
// the file when they differ.
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
	t.Errorf("%s differs (run go test -update to accept):\n%s", path, lineDiff(string(want), got))
}

// lineDiff lists the lines that differ between two texts.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n- %s\n+ %s\n", i+1, x, y)
		}
	}
	return out.String()
}
