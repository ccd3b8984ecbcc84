package solver

import (
	"testing"

	"planner/model"
)

// A buffer the kernel reads through a matrix descriptor is offered only
// the placements a descriptor describes, and the graph's own where it
// states one; where none is, every placement, as for any other buffer.
// Rows wider than a swizzle are offered in column blocks of each mode's
// span (atoms side by side), and the buffer stored column major (the
// operand's other major) in each mode, only to a buffer a descriptor may
// read.
func TestDescribedPlacements(t *testing.T) {
	dense := func(rows, cols, bits int) *model.SharedLayout {
		return &model.SharedLayout{Rows: rows, Cols: cols, ElemBits: bits, Swizzle: "none"}
	}
	padded := dense(64, 64, 16)
	padded.Stride = 72
	for _, tc := range []struct {
		name string
		own  *model.SharedLayout
		want []string // the placements offered, described
	}{
		{"64x64 f16", dense(64, 64, 16), []string{"swizzle 128B", "column blocks of 16, swizzle 32B", "column blocks of 32, swizzle 64B", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
		{"64x16 f16", dense(64, 16, 16), []string{"swizzle 32B", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
		{"64x8 f16", dense(64, 8, 16), []string{"dense row major", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
		{"64x64 f16 placed padded", padded, []string{"rows padded to 72 elements", "swizzle 128B", "column blocks of 16, swizzle 32B", "column blocks of 32, swizzle 64B", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
		{"64x128 f16", dense(64, 128, 16), []string{"column blocks of 16, swizzle 32B", "column blocks of 32, swizzle 64B", "column blocks of 64, swizzle 128B", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
		{"64x256 f16", dense(64, 256, 16), []string{"column blocks of 16, swizzle 32B", "column blocks of 32, swizzle 64B", "column blocks of 64, swizzle 128B", "column major, column blocks of 16, swizzle 32B", "column major, column blocks of 32, swizzle 64B", "column major, swizzle 128B"}},
	} {
		b := &model.Buffer{Name: "b", Shape: []int{tc.own.Rows, tc.own.Cols}, DType: model.DType{Name: "f16", Bits: 16}, Layout: tc.own}
		all := placements(b, false)
		for _, s := range all {
			if s.ColumnBlocks() > 1 {
				t.Errorf("%s: offered %s to a buffer no descriptor reads", tc.name, s)
			}
		}
		b.Described = true
		var got []string
		for _, s := range placements(b, true) {
			got = append(got, s.Describe())
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: offered %q, want %q (of %d placements)", tc.name, got, tc.want, len(all))
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: offered %q, want %q", tc.name, got, tc.want)
				break
			}
		}
	}
	// Blocks of 4 rows are no whole atoms: none is offered.
	for _, s := range placements(&model.Buffer{Layout: dense(4, 128, 16)}, true) {
		if s.ColumnBlocks() > 1 {
			t.Errorf("4x128 f16: offered %s", s)
		}
	}
	// Rows of 24 bytes: no descriptor mode describes any placement.
	b := &model.Buffer{Name: "b", Shape: []int{64, 12}, DType: model.DType{Name: "f16", Bits: 16}, Layout: dense(64, 12, 16), Described: true}
	if got, want := len(placements(b, true)), len(placements(&model.Buffer{Layout: dense(64, 12, 16)}, false)); got != want {
		t.Errorf("rows of 24 bytes: %d placements offered, want all %d", got, want)
	}
}
