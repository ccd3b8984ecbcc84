package solver

import (
	"os"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/tomlio"
)

// TestUnofferedMMAPins: an mma pinned to a matrix encoding whose warps
// repeat a tile is offered that arrangement and plans; without the
// arrangements an input names (the candidates before they were offered),
// the problem has no plan and UnofferedMMAPins, and explain's Outside,
// say which mma, which encoding and that its warps repeat a tile, where
// the search alone would blame the graph's constraints.
func TestUnofferedMMAPins(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	path := "../testdata/pinned/repeated_tile_gfx942.toml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tomlio.ParseGraph(path, data, lib.Targets)
	if err != nil {
		t.Fatal(err)
	}
	tg := lib.Targets[g.Target]
	var recs []*model.Record
	for _, n := range tg.Records {
		recs = append(recs, lib.Records[n])
	}
	want := "the mma d (../testdata/pinned/repeated_tile_gfx942.toml:42:1) computes its result in #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>, which is not among the planner's arrangements of the mma: its warps repeat a tile (each element held by 2 warps: a warp bit that selects no tile), and no arrangement of its records that repeats tiles computes it"
	for _, c := range []struct {
		offer  bool
		status Status
		said   string
	}{
		{true, StatusOptimal, ""},
		{false, StatusInfeasible, want},
	} {
		offerNamedRepeats = c.offer
		p, err := Build(g, tg, recs)
		offerNamedRepeats = true
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.UnofferedMMAPins(), "\n"); got != c.said {
			t.Errorf("offered %v: UnofferedMMAPins\n\t%s\nwant\n\t%s", c.offer, got, c.said)
		}
		res := Solve(p, Options{})
		if res.Status != c.status {
			t.Fatalf("offered %v: status %v, want %v", c.offer, res.Status, c.status)
		}
		if res.Status != StatusInfeasible {
			continue
		}
		e, err := Explain(p, recs, 1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(e.Outside, "\n"); got != c.said {
			t.Errorf("explain's Outside\n\t%s\nwant\n\t%s", got, c.said)
		}
	}
}
