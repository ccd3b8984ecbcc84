package notation

import (
	"slices"

	"planner/model"
)

// XeGPUSlice is MLIR's #xegpu.slice<PARENT, dims = [..]>: the layout
// PARENT (an XeGPU layout or another slice) of a value with the dimensions
// Dims more, those dimensions taken out as a reduction along them takes
// them out (llvm-project mlir/include/mlir/Dialect/XeGPU/IR/XeGPUAttrs.td,
// XeGPU_SliceAttr: the lanes and subgroups that ran along a sliced
// dimension hold the same values).
type XeGPUSlice struct {
	Parent model.Notation // *XeGPU or *XeGPUSlice
	Dims   []int
}

func (s *XeGPUSlice) Kind() string { return "xegpu" }

// Fields are the parent's, then dims.
func (s *XeGPUSlice) Fields() []model.Field {
	return append(s.Parent.Fields(), model.Field{Key: "dims", Ints: s.Dims})
}

// Attr prints the slice as XeGPU writes it.
func (s *XeGPUSlice) Attr() string {
	return "#xegpu.slice<" + s.Parent.Attr() + ", dims = " + intsString(s.Dims) + ">"
}

// Layout builds the parent's layout over the frame's shape with the
// sliced dimensions put back, each as long as one distribution unit of
// the parent along it (its extent only repeats values the slice drops),
// then takes them out.
func (s *XeGPUSlice) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	rank := len(f.Shape) + len(s.Dims)
	dims := slices.Clone(s.Dims)
	slices.Sort(dims)
	for i, d := range dims {
		if d < 0 || d >= rank || i > 0 && dims[i-1] == d {
			return nil, errorAt(model.CodeBadValue, "dims", i, "dims %v are not distinct dimensions of the parent's %d", s.Dims, rank)
		}
	}
	full := make([]int, 0, rank)
	rest := f.Shape
	for d := range rank {
		if slices.Contains(dims, d) {
			full = append(full, unitExtent(s.Parent, d))
			continue
		}
		full = append(full, rest[0])
		rest = rest[1:]
	}
	pf := f
	pf.Shape = full
	l, err := s.Parent.Layout(pf)
	if err != nil {
		return nil, err
	}
	if l = model.SliceDims(l, dims); l == nil {
		return nil, errorf(model.CodeBadValue, "dims", "the slice of dimensions %v builds no layout", s.Dims)
	}
	return l, nil
}

// unitExtent is how long one distribution unit of layout n is along
// dimension d: its subgroups times the block each takes, as the fields
// say (sg_data, else inst_data, else lane_layout × lane_data); 1 where
// none is given.
func unitExtent(n model.Notation, d int) int {
	at := func(v []int) int {
		if d < len(v) && v[d] > 0 {
			return v[d]
		}
		return 1
	}
	switch x := n.(type) {
	case *XeGPU:
		block := at(x.LaneLayout) * at(x.LaneData)
		switch {
		case x.SgData != nil:
			block = at(x.SgData)
		case x.InstData != nil:
			block = at(x.InstData)
		}
		return at(x.SgLayout) * block
	case *XeGPUSlice:
		// A dimension of the inner slice: count it among the parent's.
		inner := slices.Clone(x.Dims)
		slices.Sort(inner)
		pd := d
		for _, id := range inner {
			if id <= pd {
				pd++
			}
		}
		return unitExtent(x.Parent, pd)
	}
	return 1
}
