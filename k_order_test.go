package planner_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/notation"
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

// withStatedKWidth is the graph file path with the mma acc_next stated to
// run at kWidth w, written to a file of its own: stated at the record's
// own kWidth, it holds the dot to the record's K order.
func withStatedKWidth(t *testing.T, path string, w int) string {
	t.Helper()
	graph, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const key = "  result = \"acc_next\"\n"
	if !bytes.Contains(graph, []byte(key)) {
		t.Fatalf("%s has no mma acc_next", path)
	}
	text := strings.Replace(string(graph), key, key+fmt.Sprintf("  k_width = %d\n", w), 1)
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// linearOver is the layout Triton's linear bases give over shape, for
// lanes lanes and the bases' warps.
func linearOver(t *testing.T, shape []int, lanes int, l notation.Linear) *model.Layout {
	t.Helper()
	out, err := l.Layout(model.Frame{Shape: shape, SubgroupSize: lanes, Subgroups: 1 << len(l.Warp)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A GEMM per family whose dot Triton or IREE runs with K in another order
// than the record's: planned with K orders free, it runs in that order and
// costs strictly less than held to the record's order (a k_width stated
// at the record's own), and its A and B are the layouts the compiler gives
// them; the verifier refuses the plan with A's K renumbered alone, or
// claimed in the record's order. The Triton layouts are Triton 3.9's own
// for the encodings it emits for these tiles (toLinearLayout, read
// through Gluon's to_linear_layout):
//   - MFMA (gfx942, testdata/want/gfx942_gemm_kpack2.toml):
//     tritonamdgpu-accelerate-matmul with kpack = 2 gives a 128x32 by
//     32x32 f16 dot on 4 warps #ttg.amd_mfma<{version = 3, warpsPerCTA =
//     [4, 1], instrShape = [32, 32, 8], isTransposed = true}> and operands
//     of kWidth 8 = kBase · kPack (AccelerateAMDMatmul.cpp in
//     third_party/amd/lib/TritonAMDGPUTransforms of triton-lang/triton);
//     its dot_op kWidth 8 puts 8 consecutive k in registers, lanes 32-63
//     the next 8, and the second 16 of K in a register above;
//   - mma.sync (sm_80, testdata/want/sm80_int8_upcast_gemm.toml):
//     tritonnvidiagpu's accelerate-matmul gives a 128x32 int8 A widened to
//     f16 times a 32x32 f16 B on 4 warps #ttg.nvidia_mma<{versionMajor =
//     2, warpsPerCTA = [4, 1], instrShape = [16, 8]}> and operands of
//     kWidth 4, 32 bits of the int8 A was loaded as (computeOrigBitWidth in
//     lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp); its dot_op
//     kWidth 4 puts 4 consecutive k in registers and 4 lanes along K, where
//     mma.m16n8k16's fragment holds k 2t, 2t+1 and 2t+8, 2t+9 (PTX ISA,
//     "Matrix Fragments for mma.m16n8k16 with floating point type");
//   - RDNA4 WMMA (gfx1200, testdata/want/gfx1200_gemm_k16.toml): one
//     instruction along K, K renumbered (k bits 0 1 3 2) to IREE's WMMAR4
//     operands over 2x2 subgroups, two batches along M (A) and N (B), as
//     gfx1200_gemm_iree_anchors.toml pins them (getSingleSubgroupLayout in
//     compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/IREEGPUAttrs.cpp
//     of iree-org/iree: element [1, 8], thread [16, 2], strides [1, 16]).
func TestKOrderCheaperThanRecordOrder(t *testing.T) {
	for _, c := range []struct {
		file, record       string
		own, kWidth, lanes int
		kOrder             model.KOrder
		cost, recordCost   int64
		a, b               notation.Linear
	}{
		{
			file: "testdata/want/gfx942_gemm_kpack2.toml", record: "mfma_f32_32x32x8_f16", own: 4, kWidth: 8, lanes: 64,
			cost: 4084, recordCost: 4180,
			a: notation.Linear{
				Register: [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 16}},
				Lane:     [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 8}},
				Warp:     [][]int{{32, 0}, {64, 0}}},
			b: notation.Linear{
				Register: [][]int{{1, 0}, {2, 0}, {4, 0}, {16, 0}},
				Lane:     [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {8, 0}},
				Warp:     [][]int{{0, 0}, {0, 0}}},
		},
		{
			file: "testdata/want/gfx1200_gemm_k16.toml", record: "wmma_f32_16x16x16_f16_gfx12", own: 4, lanes: 32,
			kOrder: model.KOrder{0, 1, 3, 2}, cost: 4512, recordCost: 4608,
			a: notation.Linear{
				Register: [][]int{{0, 1}, {0, 2}, {0, 4}, {32, 0}},
				Lane:     [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}},
				Warp:     [][]int{{0, 0}, {16, 0}}},
			b: notation.Linear{
				Register: [][]int{{1, 0}, {2, 0}, {4, 0}, {0, 32}},
				Lane:     [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}},
				Warp:     [][]int{{0, 16}, {0, 0}}},
		},
		{
			file: "testdata/want/sm80_int8_upcast_gemm.toml", record: "mma_m16n8k16_f32_f16", own: 2, kWidth: 4, lanes: 32,
			cost: 3600, recordCost: 3744,
			a: notation.Linear{
				Register: [][]int{{0, 1}, {0, 2}, {8, 0}, {0, 16}, {64, 0}},
				Lane:     [][]int{{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
				Warp:     [][]int{{16, 0}, {32, 0}}},
			b: notation.Linear{
				Register: [][]int{{1, 0}, {2, 0}, {16, 0}, {0, 8}, {0, 16}},
				Lane:     [][]int{{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}},
				Warp:     [][]int{{0, 0}, {0, 0}}},
		},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			plan, res := solveResult(t, c.file)
			held, heldRes := solveResult(t, withStatedKWidth(t, c.file, c.own))
			if plan.Cost != c.cost || held.Cost != c.recordCost || plan.Cost >= held.Cost {
				t.Fatalf("cost %d with K orders free, %d in the record's order: want %d < %d", plan.Cost, held.Cost, c.cost, c.recordCost)
			}
			g, a := res.Problem.Graph, res.Assignment
			op := opNamed(t, g, "acc_next")
			ch := a.Ops[op]
			if ch.Record.Name != c.record || ch.KWidth != c.kWidth || !slices.Equal(ch.KOrder, c.kOrder) {
				t.Fatalf("runs %s at kWidth %d, k order %v: want %s at kWidth %d, k order %v", ch.Record.Name, ch.KWidth, ch.KOrder, c.record, c.kWidth, c.kOrder)
			}
			if hc := heldRes.Assignment.Ops[opNamed(t, heldRes.Problem.Graph, "acc_next")]; hc.Record.Name != c.record || hc.KWidth != 0 || hc.KOrder != nil || hc.OperandKWidth() != c.own {
				t.Fatalf("held to the record's order, runs %s at kWidth %d, k order %v", hc.Record.Name, hc.KWidth, hc.KOrder)
			}
			useA, useB := model.Use{Op: op, Index: 0}, model.Use{Op: op, Index: 1}
			for _, o := range []struct {
				name string
				got  *model.Layout
				want notation.Linear
				v    *model.Value
			}{{"A", a.Required[useA], c.a, op.Operands[0]}, {"B", a.Required[useB], c.b, op.Operands[1]}} {
				if want := linearOver(t, o.v.Shape, c.lanes, o.want); !o.got.Equal(want) {
					t.Errorf("%s is %v, want Triton's %v", o.name, o.got, want)
				}
			}
			// A with two K bits exchanged, B kept: the instruction would
			// multiply A's k 1 by B's k 2.
			keep := a.Required[useA]
			swapped, err := model.RenumberK(keep, 1, model.KOrder{1, 0})
			if err != nil {
				t.Fatal(err)
			}
			a.Required[useA] = swapped
			if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "so A and B must hold K in one order") {
				t.Errorf("A and B in different K orders verified: %v", err)
			}
			a.Required[useA] = keep
			// Claimed in the record's order, the operands are refused: as
			// renumbered K (MFMA's kWidth 8 keeps the record's registers in
			// place, as RDNA4's renumbering does), or as not the record's
			// tiling (mma.sync's kWidth 4 puts its registers innermost).
			ch.KWidth, ch.KOrder = 0, nil
			if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "%a") {
				t.Errorf("operands of kWidth %d, k order %v claimed in the record's order verified: %v", c.kWidth, c.kOrder, err)
			}
			ch.KWidth, ch.KOrder = c.kWidth, c.kOrder
			if err := plans.Verify(g, a, plan); err != nil {
				t.Errorf("the plan restored does not verify: %v", err)
			}
		})
	}
}

// DPAS with packed (VNNI) B has no K order to choose: the record gives
// each lane of A one k per row (Khronos
// cl_intel_subgroup_matrix_multiply_accumulate, short8 a on a subgroup of
// 16) and each lane of B its whole column of K, in pairs per 32 bits, so
// renumbering K moves A's lanes and B's registers alike and lengthens no
// lane's run of K. Neither compiler renumbers it: Intel's Triton gives A
// kWidth opsPerChan / 2 and B kWidth opsPerChan, the instruction's own
// packing (third_party/intel/lib/TritonIntelGPUTransforms/AccelerateMatmul.cpp
// of intel/intel-xpu-backend-for-triton), and XeGPU's layout propagation
// lane_data [1, 1] for a 16-bit A and [32 / bits, 1] for B
// (getSIMTLayoutInfoForDPASOperand in
// mlir/lib/Dialect/XeGPU/Transforms/XeGPUPropagateLayout.cpp of
// llvm/llvm-project). So no DPAS record is offered a K order or a kWidth,
// the VNNI GEMM runs in the record's order, and the verifier refuses its
// plan with A's K renumbered alone.
func TestKOrderDPASRecordOrder(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"dpas_m8n16k16_f32_f16", "dpas_m8n16k16_f32_bf16", "dpas_m8n8k16_f32_f16", "dpas_m8n8k32_i32_i8"} {
		r := lib.Records[name]
		if r == nil {
			t.Fatalf("no record %s", name)
		}
		if w := r.OwnKWidth(); w != 0 {
			t.Errorf("%s: A and B hold runs of K of one length, %d", name, w)
		}
		if o, _, ok := model.LaneContiguousK(r.Operands["a"].Layout, 1, r.K); ok {
			t.Errorf("%s: A offered K order %v", name, o)
		}
		if o, _, ok := model.LaneContiguousK(r.Operands["b"].Layout, 0, r.K); ok {
			t.Errorf("%s: B offered K order %v", name, o)
		}
	}
	plan, res := solveResult(t, "testdata/want/xegpu_block_gemm_vnni.mlir")
	for _, ch := range mmaChoicesOf(t, res, "d") {
		if ch.KWidth != 0 || ch.KOrder != nil {
			t.Errorf("choice %s renumbers K", ch)
		}
	}
	g, a := res.Problem.Graph, res.Assignment
	op := opNamed(t, g, "d")
	if ch := a.Ops[op]; ch.Record.Name != "dpas_m8n16k16_f32_bf16" || ch.KWidth != 0 || ch.KOrder != nil {
		t.Fatalf("runs %s at kWidth %d, k order %v: want the record's own order", ch.Record.Name, ch.KWidth, ch.KOrder)
	}
	useA := model.Use{Op: op, Index: 0}
	keep := a.Required[useA]
	swapped, err := model.RenumberK(keep, 1, model.KOrder{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	a.Required[useA] = swapped
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "so A and B must hold K in one order") {
		t.Errorf("A and B in different K orders verified: %v", err)
	}
	a.Required[useA] = keep
	if err := plans.Verify(g, a, plan); err != nil {
		t.Errorf("the plan restored does not verify: %v", err)
	}
}
