package model_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"planner/internal/golden"
	. "planner/model"
	"planner/model/modeltest"
)

// randomPlacement draws a placement of a rows x cols buffer: dense,
// padded (every so many rows), with a wider row stride, swizzled by a
// named mode or by any XOR, and elements of 4 to 64 bits.
func randomPlacement(r *rand.Rand, rows, cols int) *SharedLayout {
	s := &SharedLayout{Rows: rows, Cols: cols, ElemBits: []int{16, 16, 8, 32, 64, 4}[r.IntN(6)]}
	switch r.IntN(6) {
	case 0: // dense
	case 1:
		s.Stride = cols + 1 + r.IntN(16)
	case 2:
		s.Pad, s.PadEvery = 1+r.IntN(16), []int{1, 2, 4, 8, 3, 16}[r.IntN(6)]
	case 3:
		s.Stride = 2 * cols
		s.Swizzle = []string{"32B", "64B", "128B"}[r.IntN(3)]
	case 4:
		s.XOR = Swizzle{Bits: 1 + r.IntN(3), Base: r.IntN(7), Shift: 1 + r.IntN(4)}
	case 5:
		s.Swizzle = []string{"32B", "64B", "128B"}[r.IntN(3)]
		if r.IntN(2) == 0 {
			s.Pad, s.PadEvery = 8, 8
		}
	}
	return s
}

var bankShapes = []*Target{
	{Banks: 32, BankBytes: 4}, // NVIDIA (CUDA C++ Programming Guide, "Shared Memory")
	{Banks: 64, BankBytes: 4}, // CDNA3 LDS (AMD Instinct MI300 ISA, "Local Data Share")
	{Banks: 16, BankBytes: 8}, // a geometry no target has, to vary the arithmetic
	{Banks: 32, BankBytes: 4},
}

// Every access counted from the layout's bases equals the same access
// walked element by element, on random layouts of every notation against
// random placements, bank geometries, vector widths and row blocks; and
// every form is exercised, so that a form that stopped applying would be
// seen. The short run draws 1500 pairs, PLANNER_LONG_TESTS=1 10000 (each
// form on at least a fiftieth of them).
func TestAccessCountsFromBasesEqualTheWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	forms := map[string]int{}
	pairs, want := 0, golden.Count(1500, 10000)
	for i := 0; pairs < want; i++ {
		shape := []int{1 << uint(r.IntN(7)), 1 << uint(r.IntN(7))}
		if i%4 == 0 {
			shape[r.IntN(2)] *= 3
		}
		f := Frame{Shape: shape, SubgroupSize: []int{32, 64, 16, 8}[r.IntN(4)], Subgroups: []int{1, 2, 4}[r.IntN(3)]}
		l, src := modeltest.Layout(r, f)
		if l == nil {
			continue
		}
		s := randomPlacement(r, shape[0], shape[1])
		tg := bankShapes[r.IntN(len(bankShapes))]
		vector := 1 << uint(r.IntN(5))
		what := fmt.Sprintf("layout %s on %dx%d, placement %s (%d-bit), %d banks of %d bytes", src, shape[0], shape[1], s, s.ElemBits, tg.Banks, tg.BankBytes)
		got, want := s.AccessVectors(l, vector, tg), s.AccessVectorsByElements(l, vector, tg)
		if got != want {
			t.Fatalf("%s, vector %d:\nfrom bases %+v\nwalked     %+v", what, vector, got, want)
		}
		rowBytes := []int{16, 16, 8, 32}[r.IntN(4)]
		rows := max(1, tg.Banks*tg.BankBytes/rowBytes)
		if r.IntN(3) == 0 {
			rows = 8
		}
		if got, want := s.AccessRows(l, rows, rowBytes, tg), s.AccessRowsByElements(l, rows, rowBytes, tg); got != want {
			t.Fatalf("%s, blocks of %d rows of %d bytes:\nfrom bases %+v\nwalked     %+v", what, rows, rowBytes, got, want)
		}
		order := []int{1, 0}
		if r.IntN(2) == 0 {
			order = []int{0, 1}
		}
		pad := []int{0, 0, 8, 4}[r.IntN(4)]
		if got, want := ScratchAccess(l, vector, s.ElemBits, order, pad, tg, false), ScratchAccess(l, vector, s.ElemBits, order, pad, tg, true); got != want {
			t.Fatalf("%s, scratch order %v padded by %d, vector %d:\nfrom bases %+v\nwalked     %+v", what, order, pad, vector, got, want)
		}
		v, rw := s.AccessForms(l, rows, rowBytes)
		forms["vectors "+v]++
		forms["rows "+rw]++
		pairs++
	}
	for _, k := range []string{"vectors xor", "vectors additive", "vectors walk", "rows xor", "rows additive", "rows walk"} {
		if forms[k] < want/50 {
			t.Errorf("only %d of %d pairs counted as %s", forms[k], pairs, k)
		}
	}
	t.Logf("%d pairs: %v", pairs, forms)
}

// A swizzled buffer's footprint, found from the elements in its last
// swizzle block, is the footprint over every element.
func TestSwizzledBytesAreTheLastElements(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	for range 3000 {
		s := randomPlacement(r, 1+r.IntN(130), 1+r.IntN(130))
		if r.IntN(2) == 0 {
			s.XOR = Swizzle{Bits: 1 + r.IntN(3), Base: r.IntN(7), Shift: 1 + r.IntN(4)}
		}
		last := 0
		for i := range s.Rows {
			for j := range s.Cols {
				last = max(last, s.Offset(i, j)+1)
			}
		}
		if got, want := s.Bytes(), last*s.ElemBits/8; got != want {
			t.Fatalf("%s (%d-bit): Bytes %d, every element's last byte %d", s, s.ElemBits, got, want)
		}
	}
}
