package model

import (
	"fmt"
	"strings"
)

// Assignment is what a solver decides for a graph: the layout of every
// value, the layout every operand use requires (a conversion sits on each
// use whose required layout differs from its value's), and for every op
// the intrinsic, warp arrangement or execution layout chosen.
type Assignment struct {
	Layouts  map[*Value]*Layout
	Required map[Use]*Layout
	Ops      map[*Op]*OpChoice
	// Buffers is where each two-dimensional buffer's elements lie.
	Buffers map[*Buffer]*SharedLayout
}

// OpChoice is what was chosen for one op.
type OpChoice struct {
	Record *Record // the mma, or the shared-memory load intrinsic (nil: plain vector loads)
	// For an mma: warps along M and along N, and whether warp ids run
	// along N first.
	WarpsM, WarpsN int
	NFirst         bool
	Outer          bool // the warps split the tile outermost
	// The layout a reduce, store or copy_to_shared runs in.
	Exec *Layout
	// How a load or load_shared moves data, in words ("ldmatrix_x4 × 8",
	// "16-byte vectors").
	Method string
	// Every way an mma could have run, for the plan to show what the
	// chosen one was picked from.
	Considered []Arrangement
	// Records the op could not use, each with the reason (a load record
	// whose memory rule rejects the buffer's placement).
	Rejected []string
	// Buffer is the placement of the buffer a copy_to_shared or
	// load_shared accesses (nil: counted as conflict free).
	Buffer *SharedLayout
}

// NewAssignment returns an empty assignment.
func NewAssignment() *Assignment {
	return &Assignment{Layouts: map[*Value]*Layout{}, Required: map[Use]*Layout{}, Ops: map[*Op]*OpChoice{}, Buffers: map[*Buffer]*SharedLayout{}}
}

// Arrangement is one way an mma can run: a record, a multi-block
// record's view of its blocks, and how the warps lie over the output.
type Arrangement struct {
	Record         string // the record's name
	Blocking       string // a multi-block record's view ("16 blocks along M"), or ""
	WarpsM, WarpsN int
	NFirst, Outer  bool
}

// String names the arrangement as plans and explanations write it:
// "mma_m16n8k16_f32_f16, 2×2 warps (warp ids along N first)".
func (a Arrangement) String() string {
	s := a.Record
	if a.Blocking != "" {
		s += ", " + a.Blocking
	}
	return s + ", " + WarpArrangement(a.WarpsM, a.WarpsN, a.NFirst, a.Outer)
}

// WarpArrangement says in words how an mma's warps lie over its output,
// the one wording plans and explanations use: "2×2 warps (warp ids along
// N first; each warp one contiguous block)". The order of the warp ids is
// named only where both dimensions have several warps, since otherwise
// both orders give the same layouts; notes are added to the parenthesis.
func WarpArrangement(warpsM, warpsN int, nFirst, outer bool, notes ...string) string {
	var all []string
	if warpsM > 1 && warpsN > 1 {
		order := "M"
		if nFirst {
			order = "N"
		}
		all = append(all, "warp ids along "+order+" first")
	}
	if outer {
		all = append(all, "each warp one contiguous block")
	}
	all = append(all, notes...)
	s := fmt.Sprintf("%d×%d warps", warpsM, warpsN)
	if len(all) > 0 {
		s += " (" + strings.Join(all, "; ") + ")"
	}
	return s
}
