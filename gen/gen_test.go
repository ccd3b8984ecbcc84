package gen

import (
	"os"
	"path/filepath"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/tomlio"
)

// Every family writes a graph the reader accepts, of about the size
// asked, the same for the same seed and different for another.
func TestFamilies(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, fam := range Families {
		for _, n := range []int{20, 300} {
			text, err := Graph(fam, n, 7)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Graph(fam, n, 7)
			other, _ := Graph(fam, n, 8)
			if text != again {
				t.Errorf("%s %d: two runs with one seed differ", fam, n)
			}
			if text == other {
				t.Errorf("%s %d: seeds 7 and 8 give the same graph", fam, n)
			}
			path := filepath.Join(dir, fam+".toml")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := tomlio.ReadGraph(path, lib.Targets)
			if err != nil {
				t.Fatalf("%s %d: %v\n%s", fam, n, err, text)
			}
			ops := 0
			g.Walk(func(*model.Op) { ops++ })
			if ops < n/2 || ops > n+20 {
				t.Errorf("%s: asked %d ops, got %d", fam, n, ops)
			}
		}
	}
	if _, err := Graph("mesh", 10, 1); err == nil {
		t.Error("an unknown family is accepted")
	}
}
