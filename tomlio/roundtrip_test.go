package tomlio

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"planner/internal/golden"
	"planner/model"
	"planner/model/modeltest"
	"planner/tomlio/tomltest"
)

// Printing a layout file in any notation that can express the layout and
// parsing it back gives the same layout. The short run draws 150 layouts,
// PLANNER_LONG_TESTS=1 400 (each notation on at least 30 in 400).
func TestPrintParseEveryNotation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	dt, _ := model.ParseDType("f16")
	counts := map[string]int{}
	draws := golden.Count(150, 400)
	for i := range draws {
		f := modeltest.Frame(r, i%3 == 0)
		l, src := modeltest.Layout(r, f)
		if l == nil {
			continue
		}
		for _, kind := range model.Kinds {
			n, err := model.Express(kind, l)
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if err := WriteLayoutFile(&b, f, dt, n); err != nil {
				t.Fatal(err)
			}
			lf, err := ParseLayoutFile("roundtrip.toml", b.Bytes())
			if err != nil {
				t.Fatalf("%s from %s: the printed file does not parse: %v\n%s", kind, src, err, b.String())
			}
			if !lf.Layout.Equal(l) {
				t.Fatalf("%s from %s: the printed file gives another layout:\n%s", kind, src, b.String())
			}
			counts[kind]++
		}
	}
	for _, kind := range model.Kinds {
		if counts[kind] < 30*draws/400 {
			t.Errorf("only %d round trips through %s", counts[kind], kind)
		}
	}
}

// Every example and test layout file parses, and prints back to itself.
func TestGoodLayoutFiles(t *testing.T) {
	files, _ := filepath.Glob("../examples/layouts/*.toml")
	more, _ := filepath.Glob("../testdata/layouts/*.toml")
	files = append(files, more...)
	if len(files) < 5 {
		t.Fatalf("only %d layout files found", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := ParseLayoutFile(path, data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var b bytes.Buffer
		if err := WriteLayoutFile(&b, lf.Frame, lf.DType, lf.Notation); err != nil {
			t.Fatal(err)
		}
		again, err := ParseLayoutFile(path, b.Bytes())
		if err != nil || !again.Layout.Equal(lf.Layout) {
			t.Fatalf("%s: printing and parsing changes it (%v)", path, err)
		}
	}
}

// FuzzParseLayoutFile: any input gives either positioned errors or a valid
// layout that prints and parses back to itself; nothing panics.
func FuzzParseLayoutFile(f *testing.F) {
	for _, data := range tomltest.Hostile("shape = [16, 16]\nsubgroup_size = 32\nsubgroups = 1\n") {
		f.Add(data)
	}
	for _, glob := range []string{"../examples/layouts/*.toml", "../testdata/layouts/*.toml", "../testdata/bad/layouts/*.toml"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lf, err := ParseLayoutFile("fuzz.toml", data)
		if err != nil {
			checkPositioned(t, err, "fuzz.toml")
			return
		}
		if lf.Layout == nil || lf.Notation == nil {
			t.Fatal("no error and no layout")
		}
		if lf.Layout.Elements() > 1<<14 {
			return // keep each run fast
		}
		for _, kind := range model.Kinds {
			n, err := model.Express(kind, lf.Layout)
			if err != nil {
				continue
			}
			back, err := n.Layout(lf.Frame)
			if err != nil || !back.Equal(lf.Layout) {
				t.Fatalf("%s does not round-trip: %v", kind, err)
			}
		}
	})
}
