package planner_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
)

// kOrderRecord is a built-in record's fragment of operand op.
func kOrderRecord(t *testing.T, name, op string) *model.Layout {
	t.Helper()
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	r := lib.Records[name]
	if r == nil || r.Operands[op] == nil || r.Operands[op].Layout == nil {
		t.Fatalf("no operand %s of record %s", op, name)
	}
	return r.Operands[op].Layout
}

// holdsTable checks that layout l holds at value v of lane lane the
// element want(lane, v) gives, for every lane and value.
func holdsTable(t *testing.T, what string, l *model.Layout, want func(lane, v int) []int) {
	t.Helper()
	for lane := range l.Size(model.Lane) {
		for v := range l.Size(model.Register) {
			if got := l.Index(model.HwPoint{Lane: lane, Value: v}); !slices.Equal(got, want(lane, v)) {
				t.Fatalf("%s: lane %d value %d holds %v, want %v", what, lane, v, got, want(lane, v))
			}
		}
	}
}

// K renumbered on the records of each family, against the operand tables
// of the compilers that renumber it:
//   - RDNA4 WMMA (gfx12): IREE's WMMAR4 operands (getSingleSubgroupLayout
//     in compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/IREEGPUAttrs.cpp
//     of iree-org/iree: Lhs thread [16, 2], strides [1, 16], element
//     [1, 8]; Rhs thread [2, 16], strides [16, 1], element [8, 1]) give
//     lane l the row (column) l % 16 and k = 8·⌊l/16⌋ + v. AMD's table (the
//     record) gives k 0-3 and 8-11 to lanes 0-15: the two differ by the
//     order k bits 0 1 3 2, which is the lane-contiguous order the solver
//     offers, derived alike from either operand;
//   - CDNA3 MFMA 16x16x16 f16: IREE's mfmaLhs16xK(16) (thread [16, 4],
//     strides [1, 16], element [1, 4]: lane l holds row l % 16, k =
//     4·⌊l/16⌋ + v) is the record's own, so no order is offered;
//   - mma.sync m16n8k16: A's registers hold k 0-1 and 8-9 with rows 0-7
//     and 8-15 between them (PTX ISA, "Matrix Fragments for
//     mma.m16n8k16 with floating point type": a0,a1 row g, k 2t+{0,1};
//     a2,a3 row g+8; a4..a7 k+8), so no renumbering makes a lane's
//     registers one run of k, and none is offered.
func TestKOrderTables(t *testing.T) {
	a := kOrderRecord(t, "wmma_f32_16x16x16_f16_gfx12", "a")
	b := kOrderRecord(t, "wmma_f32_16x16x16_f16_gfx12", "b")
	ireeA := func(lane, v int) []int { return []int{lane % 16, 8*(lane/16) + v} }
	ireeB := func(lane, v int) []int { return []int{8*(lane/16) + v, lane % 16} }
	want := model.KOrder{0, 1, 3, 2}
	oa, runA, okA := model.LaneContiguousK(a, 1, 16)
	ob, runB, okB := model.LaneContiguousK(b, 0, 16)
	if !okA || !okB || !slices.Equal(oa, want) || !slices.Equal(ob, want) || runA != 8 || runB != 8 {
		t.Fatalf("RDNA4 lane-contiguous orders %v (%v, runs of %d), %v (%v, runs of %d), want %v for both, runs of 8", oa, okA, runA, ob, okB, runB, want)
	}
	ra, err := model.RenumberK(a, 1, want)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := model.RenumberK(b, 0, want)
	if err != nil {
		t.Fatal(err)
	}
	holdsTable(t, "RDNA4 A renumbered", ra, ireeA)
	holdsTable(t, "RDNA4 B renumbered", rb, ireeB)
	if o, ok := model.DeriveKOrder(a, ra, 1); !ok || !slices.Equal(o, want) {
		t.Errorf("the order derived from IREE's A is %v (%v), want %v", o, ok, want)
	}
	if o, ok := model.DeriveKOrder(b, rb, 0); !ok || !slices.Equal(o, want) {
		t.Errorf("the order derived from IREE's B is %v (%v), want %v", o, ok, want)
	}
	if _, ok := model.DeriveKOrder(a, rb, 1); ok {
		t.Error("B's layout taken for a renumbering of A's")
	}
	if w := want.Words(); w != "the record's K positions 0-3 hold k 0-3, 4-7 hold k 8-11, 8-11 hold k 4-7, 12-15 hold k 12-15" {
		t.Errorf("words: %s", w)
	}
	for k := range 64 {
		if p := want.Position(k); want.Index(p) != k {
			t.Errorf("k %d: position %d goes back to %d", k, p, want.Index(p))
		}
	}
	mfma := kOrderRecord(t, "mfma_f32_16x16x16_f16", "a")
	holdsTable(t, "MFMA A", mfma, func(lane, v int) []int { return []int{lane % 16, 4*(lane/16) + v} })
	if o, _, ok := model.LaneContiguousK(mfma, 1, 16); ok {
		t.Errorf("MFMA 16x16x16 (K already lane-contiguous) offered order %v", o)
	}
	if o, _, ok := model.LaneContiguousK(kOrderRecord(t, "mma_m16n8k16_f32_f16", "a"), 1, 16); ok {
		t.Errorf("mma.sync A (K registers split by rows) offered order %v", o)
	}
}

// The K-renumbered plan of the gfx1200 GEMM with IREE's anchors: the
// loads keep IREE's layouts and the verifier replays them; made to hold K in
// two orders (A back in the record's), or claimed in the record's order,
// the plan is refused with the K index the operands disagree on. Solved
// without the anchors, the GEMM costs no more.
func TestKOrderAnchoredGEMM(t *testing.T) {
	plan, res := solveResult(t, "testdata/want/gfx1200_gemm_iree_anchors.toml")
	free := solveFile(t, "testdata/want/gfx1200_gemm_k16.toml")
	if len(plan.Conv) != 0 || free.Cost > plan.Cost {
		t.Fatalf("anchored: cost %d with %d conversions; free: cost %d: want no conversion and free no dearer", plan.Cost, len(plan.Conv), free.Cost)
	}
	g, a := res.Problem.Graph, res.Assignment
	op := opNamed(t, g, "acc_next")
	ch := a.Ops[op]
	if !slices.Equal(ch.KOrder, model.KOrder{0, 1, 3, 2}) {
		t.Fatalf("k order %v, want k bits 0 1 3 2", ch.KOrder)
	}
	for _, v := range []string{"a", "bt"} {
		if pin := g.Value(v).Pin.Layout; !a.Layouts[g.Value(v)].Equal(pin) {
			t.Errorf("%%%s is not in its pinned layout", v)
		}
	}
	useA := model.Use{Op: op, Index: 0}
	keep := a.Required[useA]
	own, _ := model.RenumberK(keep, 1, model.KOrder{0, 1, 3, 2}) // the order is its own inverse
	a.Required[useA] = own
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "must hold K in one order: operand a %a holds k = 4 at the record's K position 4") {
		t.Errorf("A and B in different K orders verified: %v", err)
	}
	a.Required[useA] = keep
	ch.KOrder = nil
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "but the plan says the record's own K order") {
		t.Errorf("renumbered operands claimed in the record's order verified: %v", err)
	}
	ch.KOrder = model.KOrder{0, 1, 3, 2}
	if err := plans.Verify(g, a, plan); err != nil {
		t.Errorf("the plan restored does not verify: %v", err)
	}
}

// A pin that holds K in an order no compiler's table gives (lanes 16-31
// hold k 2-3 of each run of four, AMD's table k 4-7: k bits 0 2 1 3) is
// still met without a conversion: the dot runs with the order the pin
// holds K in, derived from it, and the other operand, unpinned, takes the
// same order. A pin on %bt, the load %b is the transpose of, counts as a
// pin on B.
func TestKOrderFromPin(t *testing.T) {
	graph, err := os.ReadFile("testdata/want/gfx1200_gemm_k16.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, pin string }{
		{"a", `
[pins.a]
notation = "linear"
register = [[0, 1], [0, 4], [0, 8], [32, 0]]
lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]
warp = [[0, 0], [16, 0]]
`},
		{"bt", `
[pins.bt]
notation = "linear"
register = [[0, 1], [0, 4], [0, 8], [32, 0]]
lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]
warp = [[16, 0], [0, 0]]
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "pinned.toml")
			if err := os.WriteFile(path, append(slices.Clone(graph), c.pin...), 0o644); err != nil {
				t.Fatal(err)
			}
			plan, res := solveResult(t, path)
			if len(plan.Conv) != 0 {
				t.Fatalf("%d conversions, want none", len(plan.Conv))
			}
			ch := res.Assignment.Ops[opNamed(t, res.Problem.Graph, "acc_next")]
			if !slices.Equal(ch.KOrder, model.KOrder{0, 2, 1, 3}) {
				t.Fatalf("k order %v, want k bits 0 2 1 3", ch.KOrder)
			}
			if o := opPlan(t, plan, "acc_next"); !strings.Contains(o.Warps, "K renumbered (k bits 0 2 1 3)") {
				t.Errorf("the plan does not say the order: %s", o.Warps)
			}
			var js bytes.Buffer
			if err := plan.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(js.String(), `"k_order": [`) {
				t.Errorf("the JSON plan has no k_order")
			}
			if msg := compileSchemas(t).Check("plan", js.Bytes()); msg != "" {
				t.Errorf("the JSON plan breaks schema/plan.schema.json:\n%s", msg)
			}
		})
	}
}

// A graph that states Triton's kWidth 8 for the gfx1200 GEMM with one WMMA
// along K is met by K renumbered (k bits 0 1 3 2 gives each lane 8
// consecutive k, as Triton's kWidth 8 does), without a conversion.
func TestKOrderStatedKWidth(t *testing.T) {
	graph, err := os.ReadFile("testdata/want/gfx1200_gemm_k16.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(graph), "  result = \"acc_next\"\n", "  result = \"acc_next\"\n  k_width = 8\n", 1)
	path := filepath.Join(t.TempDir(), "kwidth8.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, res := solveResult(t, path)
	ch := res.Assignment.Ops[opNamed(t, res.Problem.Graph, "acc_next")]
	if len(plan.Conv) != 0 || ch.OperandKWidth() != 8 || !slices.Equal(ch.KOrder, model.KOrder{0, 1, 3, 2}) {
		t.Fatalf("%d conversions, operands of kWidth %d, k order %v: want none, 8 and k bits 0 1 3 2", len(plan.Conv), ch.OperandKWidth(), ch.KOrder)
	}
}
