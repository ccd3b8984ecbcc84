package model

import "fmt"

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
	GlobalSector    int64 // one 32-byte global-memory sector, fetched from L2
	L1Sector        int64 // one such sector read again after another subgroup of the block read it, from L1 (ReusedSectorCost); GlobalSector where a target gives none
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
	RecordPos    []Pos // where each entry of Records is written
	// RecordKinds gives the kind of each record of Records, once the
	// loader has read them all (nil before), so that a graph naming a
	// record of the wrong kind for its op is bad input.
	RecordKinds map[string]RecordKind
	// TensorMemoryLanes and TensorMemoryColumns are the tensor memory an
	// SM gives a block (NVIDIA sm_100: 128 lanes of 512 32-bit columns),
	// 0 where the target has none.
	TensorMemoryLanes   int
	TensorMemoryColumns int
	// ScaledDot says how a block-scaled product (Triton's tt.dot_scaled)
	// that no record of the target runs is read: ScaledDotDecompose, as
	// an upcast of each side with its scales multiplied in and a plain
	// dot, as Triton's DecomposeScaledBlocked rewrites it; "" where it is
	// refused. ScaledDotWhy says why the target's hardware scales none
	// the planner plans, as the plan and its refusals tell it.
	ScaledDot    string
	ScaledDotWhy string
	// Registers is the most 32-bit registers one lane may hold (NVIDIA:
	// 255 per thread); RegisterFile, where the target gives it, is the
	// 32-bit registers the subgroups of one block share (NVIDIA: 64K per
	// block), so that many subgroups leave each lane fewer. 0: not given,
	// and then no register budget is checked (RegisterBudget).
	Registers    int
	RegisterFile int
	RegistersPos Pos // where registers (or, without it, register_file) is written
	// AddressRegisters and IndexRegisters are the 32-bit registers one
	// lane spends on a global address and on an index or loop counter
	// (model/held.go: what the compiled code holds besides the values);
	// 0 where the target declares none, and then none is counted.
	AddressRegisters int
	IndexRegisters   int
	// PredicateRegisters is the masks of its accesses a lane keeps in
	// predicate registers (NVIDIA: 5 of P0 to P6, measured on ptxas's
	// SASS, model/held.go); the masks a lane holds beyond them take a
	// 32-bit register each. ThreadRegisters is the
	// 32-bit registers every kernel holds from its start to its end (on
	// NVIDIA the stack pointer and the thread's index). ReservedRegisters
	// is the registers the compiler counts against a kernel's registers
	// but never names (NVIDIA: ptxas -v's count is two more than the
	// general registers its SASS uses). 0 where the target declares none,
	// and then none is counted (model/held.go).
	PredicateRegisters int
	ThreadRegisters    int
	ReservedRegisters  int
	// ShuffleTranspositions is the most register digits of its source a
	// conversion within a subgroup may move into lane digits and still be
	// lowered with shuffles by the compiler the target's plans are written
	// for; one that moves more goes through shared memory
	// (LowerShuffles). 0: no limit.
	ShuffleTranspositions int
	// ScratchRows are the row-pointer load_shared and store_shared
	// records (ldmatrix, stmatrix) the target offers, which a
	// conversion's round trip through shared memory may use; the
	// intrinsics library fills it in from the records it has parsed.
	ScratchRows []*Record
	// Extends names the target this one is based on: what it does not
	// give comes from there, and its records add to the base's.
	Extends    string
	ExtendsPos Pos
	Given      []string // the keys the target's file gives
	Source     string
	Pos        Pos
}

// ScaledDotDecompose is the one value of Target.ScaledDot.
const ScaledDotDecompose = "decompose"

// RecordKind says what an intrinsic record describes.
type RecordKind string

const (
	RecordMMA         RecordKind = "mma"          // a matrix multiply-accumulate: operands a, b, c, d
	RecordLoadShared  RecordKind = "load_shared"  // a load from shared memory into a register fragment
	RecordStoreShared RecordKind = "store_shared" // a store of a register fragment to shared memory
	RecordLoadGlobal  RecordKind = "load_global"  // a block load from global memory (Intel 2D block)
	RecordStoreGlobal RecordKind = "store_global" // a block store to global memory
	// A move between tensor memory and registers (NVIDIA tcgen05.ld and
	// tcgen05.st): its fragment is the register layout one warp gets,
	// over the TMEM lanes and 32-bit columns one access covers.
	RecordLoadTensorMemory  RecordKind = "load_tensor_memory"
	RecordStoreTensorMemory RecordKind = "store_tensor_memory"
	// RecordFMA is a scalar fused multiply-add that every lane runs on its
	// own elements: a dot with no matrix instruction (docs/records.md).
	RecordFMA RecordKind = "fma"
)

// RecordKinds lists the kinds a record may have.
var RecordKinds = []RecordKind{RecordMMA, RecordLoadShared, RecordStoreShared, RecordLoadGlobal, RecordStoreGlobal,
	RecordLoadTensorMemory, RecordStoreTensorMemory, RecordFMA}

// recordKindWords say what a record of each kind is, for messages.
var recordKindWords = map[RecordKind]string{
	RecordMMA:               "an mma record",
	RecordLoadShared:        "a shared-memory load record",
	RecordStoreShared:       "a shared-memory store record",
	RecordLoadGlobal:        "a global-memory block load record",
	RecordStoreGlobal:       "a global-memory block store record",
	RecordLoadTensorMemory:  "a tensor-memory load record",
	RecordStoreTensorMemory: "a tensor-memory store record",
	RecordFMA:               "an fma record (a scalar fused multiply-add)",
}

// Words says what a record of kind k is ("a shared-memory load record").
func (k RecordKind) Words() string {
	if w, ok := recordKindWords[k]; ok {
		return w
	}
	return "a " + string(k) + " record"
}

// TensorMemory reports whether the kind moves data between tensor memory
// and registers.
func (k RecordKind) TensorMemory() bool {
	return k == RecordLoadTensorMemory || k == RecordStoreTensorMemory
}

// Serves reports whether a record of kind k can run an op whose op-table
// row names records of kind want: a record of that kind, or an fma record
// for an mma (a dot with no matrix instruction).
func (k RecordKind) Serves(want RecordKind) bool {
	return k == want || k == RecordFMA && want == RecordMMA
}

// Moves reports whether the kind moves data between memory and registers.
func (k RecordKind) Moves() bool { return k != RecordMMA && k != RecordFMA && k != "" }

// Operand is one operand of an intrinsic: its element type and the
// fragment layout the instruction needs or produces, over the operand's
// shape (M×K for a, K×N for b, M×N for c and d).
type Operand struct {
	Name     string
	DType    DType
	Shape    []int
	Layout   *Layout
	Notation Notation
	// Registers is the 32-bit registers one lane uses, 0 when the record
	// does not say.
	Registers int
	// Duplicated: several hardware points may hold one element.
	Duplicated bool
	// Shared: the operand is read from shared memory through a descriptor
	// (wgmma's B), so it has no register layout.
	Shared bool
	// TensorMemory: the operand lives in tensor memory (tcgen05.mma's
	// accumulator, and its A when read from there), so it has no register
	// layout; tcgen05.ld and tcgen05.st move it to and from registers.
	TensorMemory bool
	// Unspecified: the architecture leaves the layout unspecified (WMMA);
	// the planner reaches the operand only through the record's own loads
	// and stores.
	Unspecified bool
	Pos         Pos
}

// MemoryRule is what a load or store intrinsic needs of memory: a
// constraint on addresses, not a list of layouts (docs/records.md).
type MemoryRule struct {
	// Rule is "row_pointers" (each lane gives the address of one
	// RowBytes-byte row aligned to Alignment: ldmatrix), "constant_stride"
	// (one leading stride for the tile, a multiple of StrideMultiple
	// elements, the base aligned to Alignment: wmma.load), "swizzle" (a
	// descriptor names one of Modes: wgmma), "vector" (each lane moves
	// Bytes contiguous bytes aligned to Alignment: ds_read_b128) or
	// "block_2d" (an Intel 2D block message on a surface) or
	// "tensor_memory" (a warp reaches only the WarpLanes TMEM lanes of its
	// sub-partition: tcgen05.ld, tcgen05.st).
	Rule           string
	RowBytes       int
	Alignment      int
	StrideMultiple int
	Modes          []string
	// Majors: for "swizzle", the orders a descriptor reads its operand
	// in: "k" (K contiguous, the default) and "mn" (M or N contiguous,
	// through the instruction's transpose); absent means "k" alone.
	Majors    []string
	Bytes     int
	Block2D   Block2DRule
	WarpLanes int
	Pos       Pos
}

// Block2DRule is what an Intel 2D block message needs of its surface, in
// bytes (widths, pitch, alignments) and rows (heights).
type Block2DRule struct {
	BaseAlignment   int
	PitchMin        int
	PitchMax        int
	PitchMultiple   int
	WidthMin        int
	WidthMax        int
	WidthMultiple   int
	HeightMax       int
	XAlignment      int
	BlockWidthBytes int
	BlockHeight     int
	ArrayLength     int
}

// SwizzleModes are the swizzle modes a "swizzle" memory rule may name.
var SwizzleModes = []string{"none", "32B", "64B", "128B"}

// Record is one intrinsic, as a TOML file describes it.
type Record struct {
	Name         string
	Kind         RecordKind
	Vendor       string
	Instruction  string
	SubgroupSize int
	SubgroupPos  Pos
	Subgroups    int // subgroups executing it together (a wgmma warpgroup: 4)
	M, N, K      int // mma: the instruction's tile
	Blocks       int // mma: independent products computed at once (MFMA 4x4x4 16-block)
	// BlocksAlong is "M" or "N" for a two-dimensional view of a
	// multi-block mma (BlockViews): its blocks laid along that dimension
	// of a tile Blocks times as large; Base is the record it views.
	BlocksAlong string
	Base        *Record
	Cost        int64
	// ScaleVec is a block-scaled mma's scale factors per row of A (and per
	// column of B), the PTX ISA's .scale_vec::NX; 0 for an mma without
	// scale operands.
	ScaleVec int
	// An mma's operands a, b, c and d (and a block-scaled mma's scale_a
	// and scale_b); a load's fragment, the register
	// layout of one matrix that Matrices such matrices repeat.
	Operands  map[string]*Operand
	Fragment  *Operand
	Matrices  int
	Trans     bool
	Transform string // none, transpose or vnni (2D block loads)
	Memory    MemoryRule
	Notes     string
	Source    string
	File      string
	Pos       Pos
}

// OperandShape is the shape of an mma operand: a is M×K, b K×N, c and d
// M×N, a block-scaled mma's scale_a M×ScaleVec and scale_b ScaleVec×N (PTX
// ISA, "Block Scaling for mma.sync", table "Shapes for scale matrices").
// With Blocks > 1 every shape gains a leading block dimension.
func (r *Record) OperandShape(name string) []int {
	var s []int
	switch name {
	case "a":
		s = []int{r.M, r.K}
	case "b":
		s = []int{r.K, r.N}
	case "scale_a":
		s = []int{r.M, r.ScaleVec}
	case "scale_b":
		s = []int{r.ScaleVec, r.N}
	default:
		s = []int{r.M, r.N}
	}
	if r.Blocks > 1 {
		s = append([]int{r.Blocks}, s...)
	}
	return s
}

// Unplanned says why the planner describes, draws and checks a record but
// never plans with it, "" when it may: an operand in tensor memory (a
// graph's values live in registers and shared memory).
func (r *Record) Unplanned() string {
	for _, n := range []string{"a", "b", "c", "d"} {
		if op := r.Operands[n]; op != nil && op.TensorMemory {
			return "operand " + n + " lives in tensor memory"
		}
	}
	return ""
}

// Scaled reports whether r is a block-scaled mma: one with scale operands.
func (r *Record) Scaled() bool {
	return r.ScaleVec > 0 || r.Operands["scale_a"] != nil || r.Operands["scale_b"] != nil
}

// ScaleBlock is the number of consecutive K a block-scaled mma's scale
// factor covers (K / scale_vec: 32 for the MX formats); 0 for an mma
// without scales.
func (r *Record) ScaleBlock() int {
	if r.ScaleVec <= 0 {
		return 0
	}
	return r.K / r.ScaleVec
}

// ScaleMisfit says why r cannot run op for their scales, "" when it can:
// a block-scaled record runs exactly the block-scaled products (an
// mma_scaled) whose blocks of K are its own, and a plain record the plain
// ones.
func ScaleMisfit(op *Op, r *Record) string {
	scaled := op.Scaled()
	switch {
	case r.Scaled() && !scaled:
		return "a block-scaled mma, which multiplies A and B by scale operands this product has not"
	case !r.Scaled() && scaled:
		return "it takes no scale operands, and this product scales A and B"
	case scaled && (r.Operands["scale_a"] == nil || r.Operands["scale_b"] == nil || r.Operands["scale_a"].Layout == nil || r.Operands["scale_b"].Layout == nil):
		return "its scale operands' fragments are not stated"
	case scaled && op.Operands[0].Shape[1] != op.Operands[3].Shape[1]*r.ScaleBlock():
		return fmt.Sprintf("its scale factors cover blocks of %d along K, and this product's blocks of %d", r.ScaleBlock(), op.Operands[0].Shape[1]/op.Operands[3].Shape[1])
	}
	return ""
}

// TensorMemoryAccess is the register layout one warp gets (or gives) for
// a whole tcgen05.ld or tcgen05.st: the record's fragment is one
// repetition, and its Matrices (.num) repetitions lie side by side along
// the TMEM columns, repetition j in the j-th group of the fragment's
// registers (PTX ISA, "Matrix fragments for tcgen05.ld/st": each lane moves
// (size * .num) bits).
func TensorMemoryAccess(r *Record) (*Layout, error) {
	f := r.Fragment
	if !r.Kind.TensorMemory() || f == nil || f.Layout == nil || len(f.Shape) != 2 {
		return nil, errorf(CodeBadValue, "kind", "record %s is not a tensor-memory load or store with a two-dimensional fragment", r.Name)
	}
	n := max(r.Matrices, 1)
	return Tile(f.Layout, []int{f.Shape[0], f.Shape[1] * n}, []TileFactor{{Dim: 1, Count: n, Hw: Register}})
}

// RegisterBudget is the most 32-bit registers one lane of a block of
// subgroups subgroups may hold on t: the target's registers per lane,
// and no more than the register file shared among the block's lanes
// gives each. 0 when the target states no register budget.
func (t *Target) RegisterBudget(subgroups int) int {
	b := t.Registers
	if t.RegisterFile > 0 && subgroups > 0 && t.SubgroupSize > 0 {
		share := t.RegisterFile / (subgroups * t.SubgroupSize)
		if b == 0 || share < b {
			b = share
		}
	}
	return b
}

// KStep is the K one instruction of an mma record consumes: its K, or 1
// for a scalar FMA record (K unset), which multiplies one element of A by
// one of B.
func (r *Record) KStep() int {
	if r.K > 0 {
		return r.K
	}
	return 1
}
