package planner_test

import (
	"slices"
	"strings"
	"testing"

	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/solver"
)

// mmaChoicesOf lists the choices the problem gave mma op name.
func mmaChoicesOf(t *testing.T, res *solver.Result, name string) []*solver.MMAChoice {
	t.Helper()
	for _, n := range res.Problem.Nodes {
		if n.Kind == solver.NodeMMA && n.Op.Name == name {
			return n.MMA
		}
	}
	t.Fatalf("no mma %s", name)
	return nil
}

// opNamed finds an op of the graph by name.
func opNamed(t *testing.T, g *model.Graph, name string) *model.Op {
	t.Helper()
	var found *model.Op
	g.Walk(func(op *model.Op) {
		if op.Name == name {
			found = op
		}
	})
	if found == nil {
		t.Fatalf("no op %s", name)
	}
	return found
}

// Two chained dots on gfx942: run transposed, the first MFMA's accumulator
// is the second's A operand as it stands, and nothing converts (with the
// record's own accumulator the plan costs 1496 and shuffles %s). The
// transposed accumulator is Triton's #ttg.amd_mfma<{instrShape = [32, 32],
// isTransposed = true}> for one warp, typed here from
// AMDMfmaEncodingAttr::toLinearLayout (LinearLayoutConversions.cpp): 4
// registers along N, 32 lanes along M, the lane bit 5 along N (+4), then
// registers along N (+8, +16). Claiming the record's own accumulator for
// the same layouts is refused by the verifier.
func TestTransposedAccumulatorChain(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/mfma_transposed_chain.toml")
	if plan.Cost != 1448 || len(plan.Conv) != 0 {
		t.Fatalf("cost %d with %d conversions, want 1448 with none", plan.Cost, len(plan.Conv))
	}
	for _, name := range []string{"s", "o"} {
		if o := opPlan(t, plan, name); !o.Transposed || !strings.Contains(o.Warps, "transposed accumulator") {
			t.Errorf("mma %s: transposed %v (%s), want the transposed accumulator", name, o.Transposed, o.Warps)
		}
	}
	triton := "#ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp = [], block = []}>"
	if s := valuePlan(t, plan, "s"); s.Layout != triton {
		t.Errorf("%%s is %s, want Triton's transposed MFMA accumulator %s", s.Layout, triton)
	}
	g, a := res.Problem.Graph, res.Assignment
	a.Ops[opNamed(t, g, "o")].Transposed = false
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "mfma_f32_32x32x8_f16 operand") {
		t.Errorf("the transposed run claimed as the record's own verified: %v", err)
	}
}

// An A operand pinned to Triton's dot_op kWidth = 8 layout (the graph
// types it from nvidiaDotToLinearLayout) runs mma.sync with kWidth 8 and
// no conversion (with the record's own kWidth 2 the plan costs 252 and
// shuffles both operands). The verifier checks that A and B interleave K
// alike: B in the kWidth-4 or the record's own layout under a kWidth-8 A
// holds K in another order than A and is refused, and so is a kWidth the
// operands do not have.
func TestKWidthOperandsPairUp(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/mma_dot_op_kwidth8.toml")
	if plan.Cost != 212 || len(plan.Conv) != 0 {
		t.Fatalf("cost %d with %d conversions, want 212 with none", plan.Cost, len(plan.Conv))
	}
	if d := opPlan(t, plan, "d"); d.KWidth != 8 || !strings.Contains(d.Warps, "kWidth 8") {
		t.Fatalf("mma d: kWidth %d (%s), want 8", d.KWidth, d.Warps)
	}
	g, a := res.Problem.Graph, res.Assignment
	d := opNamed(t, g, "d")
	chosen := a.Ops[d]
	byWidth := map[int]*solver.MMAChoice{}
	for _, ch := range mmaChoicesOf(t, res, "d") {
		if ch.Record == chosen.Record && ch.WarpsM == chosen.WarpsM && ch.WarpsN == chosen.WarpsN && !ch.Transposed {
			byWidth[ch.KWidth] = ch
		}
	}
	if byWidth[0] == nil || byWidth[4] == nil || byWidth[8] == nil {
		t.Fatalf("choices of kWidths %v, want the record's own, 4 and 8", slices.Sorted(func(yield func(int) bool) {
			for w := range byWidth {
				if !yield(w) {
					return
				}
			}
		}))
	}
	useB := model.Use{Op: d, Index: 1}
	b := g.Value("b")
	keepB, keepReq := a.Layouts[b], a.Required[useB]
	for _, w := range []int{0, 4} {
		a.Layouts[b], a.Required[useB] = byWidth[w].B, byWidth[w].B
		if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "so A and B must hold K in one order: operand a %a holds k = ") {
			t.Errorf("B at kWidth %d under a kWidth-8 A verified: %v", w, err)
		}
	}
	a.Layouts[b], a.Required[useB] = keepB, keepReq
	chosen.KWidth = 4
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "at kWidth 4") {
		t.Errorf("kWidth-8 operands claimed as kWidth 4 verified: %v", err)
	}
	chosen.KWidth = 8
	if err := plans.Verify(g, a, plan); err != nil {
		t.Errorf("the plan restored does not verify: %v", err)
	}
}

// An f32 dot has no mma.sync record (tf32 rounds its operands), so it
// runs as FMAs on a blocked accumulator, as Triton lowers an IEEE-precision
// f32 dot; before FMA dots the graph had no plan. The verifier refuses the
// plan when a lane lacks a row of A that its accumulator elements need.
func TestFMADot(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/fma_dot_f32.toml")
	d := opPlan(t, plan, "d")
	if d.Intrinsic != "fma_rn_f32" || !strings.Contains(d.Warps, "no matrix instruction") || !strings.HasPrefix(d.Method, "fma_rn_f32 × 128 per warp") {
		t.Fatalf("mma d runs %s (%s, %s), want FMAs", d.Intrinsic, d.Method, d.Warps)
	}
	if plan.Cost != 508 {
		t.Errorf("cost %d, want 508", plan.Cost) // 568 before loads were priced with the reuse of A and B, which every warp reads whole
	}
	// %a read by the dot in a blocked layout whose lanes each hold one
	// element of a row of A, not its whole row.
	g, a := res.Problem.Graph, res.Assignment
	av := g.Value("a")
	spread, err := (&notation.Blocked{SizePerThread: []int{1, 1}, ThreadsPerWarp: []int{2, 16}, WarpsPerCTA: []int{4, 1}, Order: []int{1, 0}}).Layout(
		model.Frame{Shape: av.Shape, SubgroupSize: 32, Subgroups: g.Subgroups})
	if err != nil {
		t.Fatal(err)
	}
	a.Layouts[av], a.Required[model.Use{Op: opNamed(t, g, "d"), Index: 0}] = spread, spread
	plan.Conv = slices.DeleteFunc(plan.Conv, func(c plans.ConvPlan) bool { return c.Value == "a" })
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "the FMA dot d accumulates element") {
		t.Errorf("an FMA dot whose lanes lack rows of A verified: %v", err)
	}
}

// An mma whose graph states its variant (k_width, transposed, as Triton's
// IR carries kWidth and isTransposed) runs so even where another costs
// less (1202 against 1110 unstated: as stated, A reaches the mfma through
// shared memory, its conversion moving two register digits into lanes,
// more than gfx942's compiler shuffles), and the statement is a relaxable
// fact: no record running it as stated is an unsat answer naming it
// (testdata/unsat/mma_stated_kwidth_too_wide.toml).
func TestStatedVariant(t *testing.T) {
	plan := solveFile(t, "testdata/graphs/mfma_stated_variant.toml")
	d := opPlan(t, plan, "d")
	if !d.Transposed || d.KWidth != 0 || d.Intrinsic != "mfma_f32_32x32x8_f16" || plan.Cost != 1202 {
		t.Errorf("mma d: %s transposed %v kWidth %d, cost %d; want mfma_f32_32x32x8_f16 transposed at its own kWidth 4, 1202", d.Intrinsic, d.Transposed, d.KWidth, plan.Cost)
	}
}
