package model

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
	// Transposed: the record runs on (Bᵀ, Aᵀ) and computes Dᵀ, so the
	// accumulator is the record's transposed (Triton's isTransposed).
	Transposed bool
	// KWidth: consecutive K elements of A and B in each lane's register
	// group when more than the record's own (Triton's dot_op kWidth); 0
	// for the record's own.
	KWidth int
	// The layout a reduce, store or copy_to_shared runs in.
	Exec *Layout
	// How a load or load_shared moves data, in words ("ldmatrix_x4 × 8",
	// "16-byte vectors").
	Method string
	// Every way the op could have run, for the plan to show what the
	// chosen one was picked from.
	Considered []string
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
