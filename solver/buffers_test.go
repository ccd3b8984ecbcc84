package solver

import (
	"testing"

	"planner/model"
)

// A buffer the kernel reads through a matrix descriptor is offered only
// the placements a descriptor describes, and the graph's own where it
// states one; where none is, every placement, as for any other buffer.
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
		{"64x64 f16", dense(64, 64, 16), []string{"swizzle 128B"}},
		{"64x16 f16", dense(64, 16, 16), []string{"swizzle 32B"}},
		{"64x8 f16", dense(64, 8, 16), []string{"dense row major"}},
		{"64x64 f16 placed padded", padded, []string{"rows padded to 72 elements", "swizzle 128B"}},
	} {
		b := &model.Buffer{Name: "b", Shape: []int{tc.own.Rows, tc.own.Cols}, DType: model.DType{Name: "f16", Bits: 16}, Layout: tc.own}
		all := placements(b)
		b.Described = true
		var got []string
		for _, s := range placements(b) {
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
	// Rows of 24 bytes: no descriptor mode describes any placement.
	b := &model.Buffer{Name: "b", Shape: []int{64, 12}, DType: model.DType{Name: "f16", Bits: 16}, Layout: dense(64, 12, 16), Described: true}
	if got, want := len(placements(b)), len(placements(&model.Buffer{Layout: dense(64, 12, 16)})); got != want {
		t.Errorf("rows of 24 bytes: %d placements offered, want all %d", got, want)
	}
}
