package tomlio_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"planner/gen"
	"planner/intrinsics"
	"planner/tomlio"
)

// Every graph of the repository, good or bad, and every gen family read
// streamed (ParseGraph) to what reading the whole document gives: the
// same graph, or the same errors; the good ones are read streamed.
func TestStreamedReadIsTheWholeRead(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string][]byte{}
	for _, pattern := range []string{"../testdata/graphs/*.toml", "../testdata/unsat/*.toml", "../testdata/bad/*.toml", "../testdata/bad/*/*.toml", "../cmd/planner/testdata/*.toml"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts[f] = data
		}
	}
	if len(texts) < 100 {
		t.Fatalf("found %d graphs", len(texts))
	}
	for _, family := range gen.Families {
		text, err := gen.Graph(family, 1000, 1)
		if err != nil {
			t.Fatal(err)
		}
		texts["gen "+family] = []byte(text)
	}
	streamed := 0
	for name, data := range texts {
		got, gotErr := tomlio.ParseGraph(name, data, lib.Targets)
		want, wantErr := tomlio.ParseWhole(name, data, lib.Targets)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: streamed read says\n%v\nthe whole read\n%v", name, gotErr, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the streamed read's graph differs from the whole read's", name)
		}
		if tomlio.ReadStreamed(name, data, lib.Targets) {
			streamed++
		} else if wantErr == nil && filepath.Dir(name) == "../testdata/graphs" || name[:4] == "gen " {
			t.Errorf("%s: read whole, not streamed", name)
		}
	}
	if streamed < 40 {
		t.Errorf("only %d graphs read streamed", streamed)
	}
}

// Edited graphs (a byte replaced, inserted or deleted, as
// TestFastParseAgreesOnEdits makes them) read streamed to what the whole
// read gives, the edits inside an op's table, which the streamed reading
// lexes without reading until the op's turn, included.
func TestStreamedReadAgreesOnEdits(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	streamed := 0
	for _, f := range []string{"../testdata/graphs/flash_attention_2warps.toml", "../testdata/graphs/loop_pins_and_select.toml", "../testdata/graphs/seed002_ldmatrix_swizzle.toml"} {
		base, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			data := tomlio.Edit(r, base, 1)
			got, gotErr := tomlio.ParseGraph(f, data, lib.Targets)
			want, wantErr := tomlio.ParseWhole(f, data, lib.Targets)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s edited: streamed read says %v, whole read %v\n%s", f, gotErr, wantErr, data)
			}
			if tomlio.ReadStreamed(f, data, lib.Targets) {
				streamed++
			}
		}
	}
	if streamed < 100 {
		t.Errorf("only %d edited graphs read streamed: the edits test little", streamed)
	}
}
