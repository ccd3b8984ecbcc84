package planner_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/model"
	"planner/plans"
)

// valueOf is the value of the graph a solve read, by name.
func valueOf(t *testing.T, g *model.Graph, name string) *model.Value {
	t.Helper()
	for _, v := range g.Values {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no value %s in the graph", name)
	return nil
}

// A GEMM on gfx1100 runs on the RDNA3 WMMA, whose A and B are held twice
// in a wave (lanes 16-31 repeat lanes 0-15): the layouts the mma reads
// hold every element of A and B in two lanes of a wave.
func TestGfx1100GEMMUsesWMMA(t *testing.T) {
	for _, c := range []struct {
		graph, record string
		copies        int // lanes of a wave holding each element of A and B
	}{
		{"testdata/graphs/gfx1100_wmma_gemm.toml", "wmma_f32_16x16x16_f16", 2},
		// wave64: lanes 16, 32 and 48 apart hold the same element.
		{"testdata/graphs/gfx1100_wave64_wmma_gemm.toml", "wmma_f32_16x16x16_f16_wave64", 4},
	} {
		wmmaCopies(t, c.graph, c.record, c.copies)
	}
}

// wmmaCopies solves graph and checks that its mma d runs on record and
// that each element of its A and B is held by copies lanes of a wave.
func wmmaCopies(t *testing.T, graph, record string, copies int) {
	t.Helper()
	p, res := solveResult(t, graph)
	if d := opPlan(t, p, "d"); d.Intrinsic != record {
		t.Fatalf("%s: mma d runs on %q, want %s", graph, d.Intrinsic, record)
	}
	for _, name := range []string{"a", "b"} {
		l := res.Assignment.Layouts[valueOf(t, res.Problem.Graph, name)]
		for _, h := range [][]int{{0, 0}, {5, 7}} {
			lanes := map[int]bool{}
			for _, pt := range l.Holders(h) {
				if pt.Subgroup == l.Holders(h)[0].Subgroup {
					lanes[pt.Lane] = true
				}
			}
			if len(lanes) != copies {
				t.Errorf("%s: %%%s element %v is held by lanes %v of a wave, want %d", graph, name, h, lanes, copies)
			}
		}
	}
}

// M = 4 fits no MFMA of gfx942 but the 16-block 4x4x4 one with its blocks
// along N; every block holds all of A, so each element of the Q tile the
// mma reads is in 16 lanes of a wave.
func TestSmallMRunsOnMFMA4x4Blocks(t *testing.T) {
	p, res := solveResult(t, "testdata/graphs/gfx942_mfma4x4_small_m.toml")
	s := opPlan(t, p, "s")
	if s.Intrinsic != "mfma_f32_4x4x4_16b_f16" || s.BlocksAlong != model.BlocksAlongN || !strings.Contains(s.Warps, "16 blocks along N") {
		t.Fatalf("mma s runs on %q, blocks along %q (%s)", s.Intrinsic, s.BlocksAlong, s.Warps)
	}
	var mma *model.Op
	res.Problem.Graph.Walk(func(op *model.Op) {
		if op.Name == "s" {
			mma = op
		}
	})
	l := res.Assignment.Required[model.Use{Op: mma, Index: 0}]
	inWave := 0
	for _, pt := range l.Holders([]int{3, 17}) {
		if pt.Subgroup == 0 {
			inWave++
		}
	}
	if inWave != 16 {
		t.Errorf("element [3 17] of Q is in %d lanes of wave 0 as the mma reads it, want one per block, 16", inWave)
	}
}

// The verifier checks every copy of a duplicated operand: a WMMA A whose
// lanes 16-31 hold the other half of K instead of lanes 0-15's (each lane
// still in the record's lane set for what it holds) is refused.
func TestVerifyNeedsEveryCopyOfADuplicatedOperand(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/gfx1100_wmma_gemm.toml")
	g, a := res.Problem.Graph, res.Assignment
	v := valueOf(t, g, "a")
	l := a.Layouts[v]
	// Lane digit 4 (the copy) takes over register digit 3 (k bit 3),
	// which then selects nothing.
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	for h := range model.NumHwDims {
		hw[h] = l.Radices(h)
		for d := range hw[h] {
			images[h] = append(images[h], l.Image(h, d))
		}
	}
	if len(images[model.Lane]) != 5 || len(images[model.Lane][4]) != 0 || len(images[model.Register]) < 4 {
		t.Fatalf("%%a is not held twice in a wave: %v", l)
	}
	images[model.Lane][4], images[model.Register][3] = images[model.Register][3], nil
	var dims []model.Radices
	for d := range l.Rank() {
		dims = append(dims, l.DimRadices(d))
	}
	bad, err := model.NewLayout(hw, dims, images)
	if err != nil {
		t.Fatal(err)
	}
	a.Layouts[v] = bad
	for u := range a.Required {
		if model.UseValue(u) == v {
			a.Required[u] = bad
		}
	}
	err = plans.Verify(g, a, plan)
	var ve *plans.VerifyError
	if !errors.As(err, &ve) || ve.Value != "a" || !strings.Contains(err.Error(), "lacks it") {
		t.Fatalf("an A with one copy of half its elements verified, or the error does not say so: %v", err)
	}
	t.Log(err)
}

// N = 4 fits the 16-block MFMA 4x4x4 only with its blocks along M ("64x4"
// in Triton's terms): every block holds all of B, and the plan verifies.
func TestSmallNRunsOnMFMA4x4BlocksAlongM(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small_n.toml")
	graph := `target = "gfx942"
subgroups = 1

[[op]]
kind = "load"
result = "a"
shape = [64, 16]
dtype = "f16"

[[op]]
kind = "load"
result = "b"
shape = [16, 4]
dtype = "f16"

[[op]]
kind = "constant"
result = "c"
shape = [64, 4]
dtype = "f32"

[[op]]
kind = "mma"
a = "a"
b = "b"
c = "c"
result = "d"

[[op]]
kind = "store"
operands = ["d"]
`
	if err := os.WriteFile(path, []byte(graph), 0o644); err != nil {
		t.Fatal(err)
	}
	p, res := solveResult(t, path)
	d := opPlan(t, p, "d")
	if d.Intrinsic != "mfma_f32_4x4x4_16b_f16" || d.BlocksAlong != model.BlocksAlongM || !strings.Contains(d.Warps, "each holding all of B") || !strings.Contains(d.Method, "× 4 per warp") {
		t.Fatalf("mma d runs %s, blocks along %q (%s)", d.Method, d.BlocksAlong, d.Warps)
	}
	var mma *model.Op
	res.Problem.Graph.Walk(func(op *model.Op) {
		if op.Name == "d" {
			mma = op
		}
	})
	if n := len(res.Assignment.Required[model.Use{Op: mma, Index: 1}].Holders([]int{5, 2})); n != 16 {
		t.Errorf("element [5 2] of B is held by %d lanes as the mma reads it, want one per block, 16", n)
	}
}
