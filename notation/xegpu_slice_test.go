package notation

import (
	"testing"

	"planner/model"
)

// A slice is its parent's layout over the shape with the sliced
// dimensions put back, those dimensions then taken out; a slice of a
// slice takes out the dimensions of each in turn.
func TestXeGPUSliceIsParentSliced(t *testing.T) {
	parent := &XeGPU{SgLayout: []int{4, 1}, SgData: []int{16, 64}, LaneLayout: []int{1, 16}, LaneData: []int{1, 1}}
	frame := model.Frame{Shape: []int{64, 64}, SubgroupSize: 16, Subgroups: 4}
	full, err := parent.Layout(frame)
	if err != nil {
		t.Fatal(err)
	}
	for _, dim := range []int{0, 1} {
		want := model.SliceDims(full, []int{dim})
		got, err := (&XeGPUSlice{Parent: parent, Dims: []int{dim}}).Layout(model.Frame{Shape: []int{64}, SubgroupSize: 16, Subgroups: 4})
		if err != nil || !got.Equal(want) {
			t.Errorf("slice dims = [%d]: %v (err %v), want %v", dim, got, err, want)
		}
	}
	p3 := &XeGPU{SgLayout: []int{4, 1, 1}, SgData: []int{16, 8, 4}, LaneLayout: []int{1, 4, 4}, LaneData: []int{1, 1, 1}}
	f3, err := p3.Layout(model.Frame{Shape: []int{64, 8, 4}, SubgroupSize: 16, Subgroups: 4})
	if err != nil {
		t.Fatal(err)
	}
	nested := &XeGPUSlice{Parent: &XeGPUSlice{Parent: p3, Dims: []int{2}}, Dims: []int{1}}
	got, err := nested.Layout(model.Frame{Shape: []int{64}, SubgroupSize: 16, Subgroups: 4})
	if want := model.SliceDims(f3, []int{1, 2}); err != nil || !got.Equal(want) {
		t.Errorf("a slice of a slice: %v (err %v), want %v", got, err, want)
	}
	if a := nested.Attr(); a != "#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [4, 1, 1], sg_data = [16, 8, 4], lane_layout = [1, 4, 4], lane_data = [1, 1, 1]>, dims = [2]>, dims = [1]>" {
		t.Errorf("written as %s", a)
	}
	if _, err := (&XeGPUSlice{Parent: parent, Dims: []int{2}}).Layout(model.Frame{Shape: []int{64}, SubgroupSize: 16, Subgroups: 4}); err == nil {
		t.Error("dims beyond the parent's rank read")
	}
}

// lane_data is written as XeGPU writes it where that is the same layout:
// a 16x16 DPAS B of 16-bit elements over 16 lanes along N holds a column
// of K per lane, which lane_data [2, 1] writes as [16, 1] does; a lane_data
// that moves elements is not taken.
func TestXeGPUWithLaneData(t *testing.T) {
	frame := model.Frame{Shape: []int{16, 16}, SubgroupSize: 16, Subgroups: 1}
	l, err := (&XeGPU{LaneLayout: []int{1, 16}, LaneData: []int{16, 1}}).Layout(frame)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ExpressXeGPU(l)
	if err != nil {
		t.Fatal(err)
	}
	y := x.WithLaneData(l, []int{2, 1})
	if back, err := y.Layout(frame); err != nil || !back.Equal(l) || y.LaneData[0] != 2 {
		t.Errorf("with lane_data [2, 1]: %s (err %v)", y.Attr(), err)
	}
	if z := x.WithLaneData(l, []int{1, 2}); z != x {
		t.Errorf("lane_data [1, 2], another layout, taken: %s", z.Attr())
	}
}
