package model

import (
	"math/bits"
)

// Frame is what a layout is written for: the tensor's shape and the
// hardware's lanes per subgroup, subgroups per block and blocks.
type Frame struct {
	Shape        []int
	SubgroupSize int
	Subgroups    int
	Blocks       int // 0 means 1
}

// BlockCount is the blocks the frame spans: Blocks, or 1 when Blocks is 0.
func (f Frame) BlockCount() int {
	if f.Blocks == 0 {
		return 1
	}
	return f.Blocks
}

// FrameOf returns the frame a layout is written for.
func FrameOf(l *Layout) Frame {
	return Frame{Shape: l.Shape(), SubgroupSize: l.Size(Lane), Subgroups: l.Size(Subgroup), Blocks: l.Size(Block)}
}

// Check validates the frame on its own.
func (f Frame) Check() error {
	if len(f.Shape) == 0 {
		return errorf(CodeBadValue, "shape", "the shape is empty: a layout needs at least one dimension")
	}
	if len(f.Shape) > MaxRank {
		return errorf(CodeTooLarge, "shape", "rank %d is more than the %d dimensions the planner handles", len(f.Shape), MaxRank)
	}
	n := 1
	for i, s := range f.Shape {
		if s < 1 {
			return errorAt(CodeBadValue, "shape", i, "extent %d is not positive", s)
		}
		n *= s
		if n > MaxElements {
			return errorf(CodeTooLarge, "shape", "the tensor %v has more than %d elements", f.Shape, MaxElements)
		}
	}
	if f.SubgroupSize < 1 || f.SubgroupSize > 1024 {
		return errorf(CodeBadValue, "subgroup_size", "%d lanes per subgroup is outside 1..1024", f.SubgroupSize)
	}
	if !isPow2(f.SubgroupSize) {
		return errorf(CodeNotPowerOfTwo, "subgroup_size", "%d lanes per subgroup is not a power of two: lane ids are read bit by bit", f.SubgroupSize)
	}
	if f.Subgroups < 1 || f.Subgroups > 1024 {
		return errorf(CodeBadValue, "subgroups", "%d subgroups is outside 1..1024", f.Subgroups)
	}
	if f.Blocks < 0 || f.Blocks > 1024 {
		return errorf(CodeBadValue, "blocks", "%d blocks is outside 1..1024", f.Blocks)
	}
	return nil
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// Notation is a way users write a distributed layout: the attributes of
// IREE, XeGPU and Triton, explicit bases, CuTe's thread-value layouts, or
// an explicit table. Each is a view of the canonical Layout: Layout builds
// it, and package notation, where every notation is written, recovers one
// from a Layout (notation.Express) or says what stands in the way. Graphs
// and records hold a Notation by this interface.
type Notation interface {
	// Kind is the notation's name in layout files: "nested", "xegpu",
	// "blocked", "linear", "cute", "table" or "triton".
	Kind() string
	// Layout builds the canonical layout for a frame.
	Layout(f Frame) (*Layout, error)
	// Attr prints the notation in its compiler's attribute syntax.
	Attr() string
	// Fields lists the notation's keys and values in the order a layout
	// file writes them.
	Fields() []Field
}

// Field is one key of a notation with its value: an int list, a list of int
// lists, or nothing when the key is omitted.
type Field struct {
	Key   string
	Ints  []int
	Lists [][]int
	// IsList marks a list-of-lists value (Lists may be empty).
	IsList bool
	// Text is a string value (a Triton encoding attribute) when not "".
	Text string
}
