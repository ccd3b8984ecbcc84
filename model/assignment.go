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
	// WarpsB: a batched mma's warps along its batch dimension, above
	// those along M and N (0 or 1: none; BatchLayout).
	WarpsB int
	// Transposed: the record runs on (Bᵀ, Aᵀ) and computes Dᵀ, so the
	// accumulator is the record's transposed (Triton's isTransposed).
	Transposed bool
	// KWidth: consecutive K elements of A and B in each lane's register
	// group when more than the record's own (Triton's dot_op kWidth); 0
	// for the record's own.
	KWidth int
	// KOrder: A and B hold K renumbered alike (k_order.go); nil for
	// the record's own order. Never with a KWidth.
	KOrder KOrder
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
	// load_shared accesses (nil: counted as conflict free), or, for an
	// mma, of the buffer its record reads an operand from through a
	// descriptor (wgmma's B).
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
	// Group: the warps that execute one instruction together (a wgmma
	// warpgroup: 4); WarpsM and WarpsN then count groups. 0 or 1: single
	// warps.
	Group         int
	NFirst, Outer bool
	// Variant: how the record runs when not on its own fragments
	// (", transposed accumulator", ", kWidth 8"), or "".
	Variant string
}

// String names the arrangement as plans and explanations write it:
// "mma_m16n8k16_f32_f16, 2×2 warps (warp ids along N first)".
func (a Arrangement) String() string {
	s := a.Record
	if a.Blocking != "" {
		s += ", " + a.Blocking
	}
	return s + ", " + GroupArrangement(a.WarpsM, a.WarpsN, a.Group, a.NFirst, a.Outer) + a.Variant
}

// WarpArrangement says in words how an mma's warps lie over its output,
// the one wording plans and explanations use: "2×2 warps (warp ids along
// N first; each warp one contiguous block)". The order of the warp ids is
// named only where both dimensions have several warps, since otherwise
// both orders give the same layouts; notes are added to the parenthesis.
func WarpArrangement(warpsM, warpsN int, nFirst, outer bool, notes ...string) string {
	return GroupArrangement(warpsM, warpsN, 1, nFirst, outer, notes...)
}

// GroupArrangement is WarpArrangement for a record that group warps
// execute together (a wgmma warpgroup: "1×1 groups of 4 warps"); a group
// of 0 or 1 is single warps.
func GroupArrangement(warpsM, warpsN, group int, nFirst, outer bool, notes ...string) string {
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
	if group > 1 {
		s = fmt.Sprintf("%d×%d groups of %d warps", warpsM, warpsN, group)
	}
	if len(all) > 0 {
		s += " (" + strings.Join(all, "; ") + ")"
	}
	return s
}
