package intrinsics

import (
	"fmt"
	"slices"
	"testing"

	"planner/model"
)

// Fragment tables typed in from the vendor documents, one function per
// figure: for a lane and a value index, the (row, column) it holds. They
// are written from the documents' formulas, never from the records.

// PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type".
// groupID = laneid >> 2, threadID_in_group = laneid % 4.
func ptxM16N8K16A(lane, i int) [2]int { // a0..a7 over 16x16 (M x K)
	g, t := lane>>2, lane%4
	row := g
	if i == 2 || i == 3 || i == 6 || i == 7 {
		row = g + 8
	}
	col := t*2 + i&1
	if i >= 4 {
		col += 8
	}
	return [2]int{row, col}
}

func ptxM16N8K16B(lane, i int) [2]int { // b0..b3 over 16x8 (K x N)
	g, t := lane>>2, lane%4
	row := t*2 + i&1
	if i >= 2 {
		row += 8
	}
	return [2]int{row, g}
}

func ptxM16N8K16C(lane, i int) [2]int { // c0..c3 over 16x8 (M x N)
	g, t := lane>>2, lane%4
	row := g
	if i >= 2 {
		row = g + 8
	}
	return [2]int{row, t*2 + i&1}
}

// PTX ISA, "Warp Level Matrix Load Instruction: ldmatrix", Figure
// "ldmatrix fragment layout for one 8x8 Matrix with 16-bit elements": a
// group of four consecutive threads loads a row; thread 0 receives the
// first fragment (two 16-bit elements in one register).
func ptxLdmatrix(lane, i int) [2]int { return [2]int{lane / 4, 2*(lane%4) + i} }

// With .trans the matrix arrives transposed.
func ptxLdmatrixTrans(lane, i int) [2]int { return [2]int{2*(lane%4) + i, lane / 4} }

func checkFragment(t *testing.T, what string, l *model.Layout, values int, want func(lane, i int) [2]int) {
	t.Helper()
	checkTable(t, what, l, values, 32, 1, func(lane, i int) []int { w := want(lane, i); return w[:] })
}

// checkTable compares a layout with a vendor table over `threads` threads
// (lane + subgroup size × subgroup, for instructions that several
// subgroups execute together) and `values` values per thread: want gives
// the element's coordinates, as many as the operand has dimensions.
func checkTable(t *testing.T, what string, l *model.Layout, values, lanes, subgroups int, want func(thread, i int) []int) {
	t.Helper()
	if l == nil {
		t.Fatalf("%s: no layout", what)
	}
	if l.Size(model.Register) != values || l.Size(model.Lane) != lanes || l.Size(model.Subgroup) != subgroups {
		t.Fatalf("%s: %d values, %d lanes, %d subgroups; the table has %d values, %d lanes, %d subgroups",
			what, l.Size(model.Register), l.Size(model.Lane), l.Size(model.Subgroup), values, lanes, subgroups)
	}
	for thread := range lanes * subgroups {
		for i := range values {
			w := want(thread, i)
			p := model.HwPoint{Value: i, Lane: thread % lanes, Subgroup: thread / lanes}
			if got := l.Index(p); !slices.Equal(got, w) {
				t.Fatalf("%s: thread %d value %d holds %v, the vendor table says %v", what, thread, i, got, w)
			}
		}
	}
}

func TestNvidiaFragmentsAgainstPTX(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mma_m16n8k16_f32_f16", "mma_m16n8k16_f16_f16", "mma_m16n8k16_f32_bf16"} {
		r := lib.Records[name]
		checkFragment(t, name+" a", r.Operands["a"].Layout, 8, ptxM16N8K16A)
		checkFragment(t, name+" b", r.Operands["b"].Layout, 4, ptxM16N8K16B)
		checkFragment(t, name+" c", r.Operands["c"].Layout, 4, ptxM16N8K16C)
		checkFragment(t, name+" d", r.Operands["d"].Layout, 4, ptxM16N8K16C)
	}
	for _, n := range []int{1, 2, 4} {
		for _, trans := range []bool{false, true} {
			name := fmt.Sprintf("ldmatrix_x%d", n)
			want := ptxLdmatrix
			if trans {
				name += "_trans"
				want = ptxLdmatrixTrans
			}
			r := lib.Records[name]
			if r.Matrices != n || r.Trans != trans {
				t.Fatalf("%s: matrices %d trans %v", name, r.Matrices, r.Trans)
			}
			checkFragment(t, name, r.Fragment.Layout, 2, want)
		}
	}
}

// Facts planners rely on, from the same tables: ldmatrix x4 with matrices
// 0..3 at rows 0-7/8-15 and columns 0-7/8-15 (column block outer) is
// exactly the mma A fragment; two adjacent m16n8k16 accumulators (the
// second n-tile in values 4..7) hold exactly the next mma's A fragment.
func TestNvidiaFragmentFacts(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	a := lib.Records["mma_m16n8k16_f32_f16"].Operands["a"].Layout
	x1 := lib.Records["ldmatrix_x4"].Fragment.Layout
	x4, err := model.Tile(x1, []int{16, 16}, []model.TileFactor{{Dim: 0, Count: 2, Hw: model.Register}, {Dim: 1, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !x4.Equal(a) {
		t.Fatalf("ldmatrix x4 does not give the A fragment:\n%v\n%v", x4, a)
	}
	if n, ok := model.MatchFragment(a, x1); !ok || n != 4 {
		t.Fatalf("the A fragment is %d ldmatrix fragments (ok %v), want 4", n, ok)
	}
	c := lib.Records["mma_m16n8k16_f32_f16"].Operands["c"].Layout
	two, err := model.Tile(c, []int{16, 16}, []model.TileFactor{{Dim: 1, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !two.Equal(a) {
		t.Fatal("two accumulators do not hold the A fragment")
	}
	// The accumulator is not the B fragment of a transposed product: B
	// needs two consecutive k (rows) in one lane.
	b := lib.Records["mma_m16n8k16_f32_f16"].Operands["b"].Layout
	if _, ok := model.MatchFragment(b, x1); ok {
		t.Fatal("B matched the non-transposed ldmatrix fragment")
	}
	if _, ok := model.MatchFragment(b, lib.Records["ldmatrix_x2_trans"].Fragment.Layout); !ok {
		t.Fatal("B should be the transposed ldmatrix fragment (two matrices along k)")
	}
}
