package planner_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
)

// TestRepeatedTileArrangements: a dot whose matrix encoding names more
// warps along a dimension than it has tiles there (warps that repeat a
// tile, each computing a copy) is offered that arrangement: the input's
// own layouts are priced (they found no plan while the planner split
// the tiles among the warps alone), the plan costs no more than they do,
// and with the input's anchors kept the dot runs on the input's
// arrangement, is written back in the encoding the input names and reads
// back at the same cost.
func TestRepeatedTileArrangements(t *testing.T) {
	pl := testPlanner(t)
	for _, c := range []struct {
		path  string
		trips int
		op    string // the dot whose encoding repeats a tile
		warps string // its arrangement, the input's anchors kept
		enc   string // its accumulator's encoding, written back
		input int64  // the input's own layouts, priced
	}{
		{"testdata/triton/flash_attention_gfx942.ttgir", tritonTrips, "qk_66", "4×1 warps (fewer tiles than warps: each tile held by 2 warps",
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>", 32074},
		{"testdata/want/dot_repeated_tile_sm80.ttgir", 0, "acc", "2×2 warps (warp ids along N first; fewer tiles than warps: each tile held by 2 warps)",
			"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>", 936},
	} {
		t.Run(c.path, func(t *testing.T) {
			data, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			in := planner.Input{Trips: c.trips}
			res, err := pl.SolveText(context.Background(), c.path, data, planner.Options{Input: in, CompareInput: true})
			if err != nil || res.Plan == nil {
				t.Fatalf("no plan: %v %s", err, res.Why)
			}
			switch cmp := res.Plan.Compare; {
			case cmp == nil:
				t.Fatal("no comparison with the input's layouts")
			case cmp.NoPlan != "":
				t.Errorf("the input's own layouts find no plan: %s", cmp.NoPlan)
			case cmp.BaselineCost != c.input:
				t.Errorf("the input's own layouts cost %d, want %d", cmp.BaselineCost, c.input)
			case cmp.Cost > cmp.BaselineCost:
				t.Errorf("the plan costs %d, more than the input's %d", cmp.Cost, cmp.BaselineCost)
			}

			keep := in
			keep.KeepAnchors = true
			anchored, err := pl.SolveText(context.Background(), c.path, data, planner.Options{Input: keep})
			if err != nil || anchored.Plan == nil {
				t.Fatalf("no plan with the anchors kept: %v %s", err, anchored.Why)
			}
			found := false
			for _, op := range anchored.Plan.Ops {
				if op.Name == c.op {
					found = true
					if !strings.Contains(op.Warps, c.warps) {
						t.Errorf("%s runs on %q, want %q", c.op, op.Warps, c.warps)
					}
				}
			}
			if !found {
				t.Fatalf("the plan has no op %s", c.op)
			}
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, c.path, data, keep, anchored); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), c.enc) {
				t.Errorf("written back, no %s:\n%s", c.enc, out.String())
			}
			again, err := pl.SolveText(context.Background(), c.path, out.Bytes(), planner.Options{Input: keep})
			if err != nil || again.Plan == nil {
				t.Fatalf("written back, no plan: %v", err)
			}
			if again.Plan.Cost != anchored.Plan.Cost {
				t.Errorf("read back, the plan costs %d, first %d", again.Plan.Cost, anchored.Plan.Cost)
			}
		})
	}
}

// pinnedGEMM is testdata/pinned/repeated_tile_gfx942.toml, a 64x64x64
// f16 GEMM on gfx942, 4 subgroups, its result pinned to pin in place of
// the file's own encoding.
func pinnedGEMM(t *testing.T, pin string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/pinned/repeated_tile_gfx942.toml")
	if err != nil {
		t.Fatal(err)
	}
	const own = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>"
	return golden.ReplaceOnce(t, string(data), `encoding = "`+own+`"`, `encoding = "`+pin+`"`)
}

// TestPinnedRepeatedTile: a graph file's mma pinned to a matrix encoding
// whose warps repeat a tile plans on that arrangement (it had no plan,
// "no plan satisfies the graph's constraints"); a pin no mma computes (a
// blocked layout) is still the graph's constraint, said so, with nothing
// outside the candidates (solver's TestUnofferedMMAPins: an arrangement
// outside them is named with its op and encoding).
func TestPinnedRepeatedTile(t *testing.T) {
	pl := testPlanner(t)
	for _, c := range []struct {
		pin   string
		warps string // the mma's arrangement; "" for no plan
		cost  int64
	}{
		{"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>", "4×1 warps (fewer tiles than warps: each tile held by 2 warps; transposed accumulator", 1584},
		{"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>", "", 0},
	} {
		t.Run(c.pin, func(t *testing.T) {
			g, err := pl.ParseGraph("pinned.toml", []byte(pinnedGEMM(t, c.pin)), planner.Input{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := pl.Solve(context.Background(), g, planner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.warps == "" {
				if res.Outcome != planner.Infeasible || !strings.HasSuffix(res.Why, "no plan satisfies the graph's constraints on gfx942") {
					t.Errorf("outcome %v, %s; want no plan, the graph's constraints blamed", res.Outcome, res.Why)
				}
				return
			}
			if res.Plan == nil {
				t.Fatalf("no plan: %s", res.Why)
			}
			if res.Plan.Cost != c.cost {
				t.Errorf("the plan costs %d, want %d", res.Plan.Cost, c.cost)
			}
			for _, op := range res.Plan.Ops {
				if op.Name == "d" && !strings.Contains(op.Warps, c.warps) {
					t.Errorf("d runs on %q, want %q", op.Warps, c.warps)
				}
			}
		})
	}
}
