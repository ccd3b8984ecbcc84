package model

// Weights are a target's cost model: the relative cost of one warp-wide
// instruction of each kind, in the target's units (an ALU instruction is
// 1). Every cost in a plan is a count of instructions or memory
// transactions times one of these.
type Weights struct {
	ALU             int64 // an arithmetic or logic instruction (prmt, mov, fadd, max)
	SFU             int64 // a transcendental on the special function unit (ex2, rcp, rsqrt)
	Move            int64 // a register move or byte permute during a conversion
	Shuffle         int64 // one warp shuffle round (shfl.sync, ds_bpermute)
	SharedWavefront int64 // one shared-memory wavefront (a conflict-free 128-byte access)
	Barrier         int64 // one block-wide barrier
	GlobalSector    int64 // one 32-byte global-memory sector
	Issue           int64 // issuing one memory instruction (a load, a store, an ldmatrix)
}

// Target is a GPU: its subgroups, shared memory, bank geometry, cost
// weights and the intrinsic records it offers.
type Target struct {
	Name         string
	Vendor       string
	SubgroupSize int
	MaxSubgroups int
	SharedMemory int // bytes a block may use
	Banks        int
	BankBytes    int
	Weights      Weights
	Records      []string
	Source       string
	Pos          Pos
}

// RecordKind says what an intrinsic record describes.
type RecordKind string

const (
	RecordMMA        RecordKind = "mma"         // a matrix multiply-accumulate: operands a, b, c, d
	RecordLoadShared RecordKind = "load_shared" // a load from shared memory into a register fragment
)

// Operand is one operand of an intrinsic: its element type and the
// fragment layout the instruction needs or produces, over the operand's
// shape (M×K for a, K×N for b, M×N for c and d).
type Operand struct {
	Name     string
	DType    DType
	Shape    []int
	Layout   *Layout
	Notation Notation
	Pos      Pos
}

// MemoryRule is what a load intrinsic needs of a shared-memory buffer:
// "row_pointers" (each lane supplies the address of one RowBytes-byte row,
// aligned to Alignment: ldmatrix), "constant_stride" (one leading stride
// for the whole tile, a multiple of StrideMultiple elements: wmma.load).
type MemoryRule struct {
	Rule           string
	RowBytes       int
	Alignment      int
	StrideMultiple int
	Pos            Pos
}

// Record is one intrinsic, as a TOML file describes it.
type Record struct {
	Name         string
	Kind         RecordKind
	Vendor       string
	Instruction  string
	SubgroupSize int
	M, N, K      int // mma: the instruction's tile
	Cost         int64
	// An mma's operands a, b, c and d; a load's fragment, the register
	// layout of one matrix that Matrices such matrices repeat.
	Operands map[string]*Operand
	Fragment *Operand
	Matrices int
	Trans    bool
	Memory   MemoryRule
	Source   string
	File     string
	Pos      Pos
}

// OperandShape is the shape of an mma operand: a is M×K, b K×N, c and d
// M×N.
func (r *Record) OperandShape(name string) []int {
	switch name {
	case "a":
		return []int{r.M, r.K}
	case "b":
		return []int{r.K, r.N}
	}
	return []int{r.M, r.N}
}
