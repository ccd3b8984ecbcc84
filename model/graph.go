package model

import (
	"fmt"
	"slices"
)

// Value is a tensor of a kernel graph: a result of an op, a loop's carried
// value (an iter arg), or a loop's result.
type Value struct {
	Name  string
	Shape []int
	DType DType
	Pos   Pos // where it is defined
	Def   *Op // the op producing it (the loop, for loop results); nil for iter args
	Arg   *Loop
	Pin   *Pin
	Uses  []Use
}

func (v *Value) String() string { return fmt.Sprintf("%%%s: %v x %s", v.Name, v.Shape, v.DType.Name) }

// Elements is the number of elements of v.
func (v *Value) Elements() int {
	n := 1
	for _, s := range v.Shape {
		n *= s
	}
	return n
}

// Use is one operand slot that reads a value: operand Index of Op, or, for
// a loop, its init (Index < len(Inits)) or yield (Yield set).
type Use struct {
	Op    *Op
	Index int
	Yield bool
}

// Pin fixes a value's layout (an anchor), written in some notation.
type Pin struct {
	Layout   *Layout // nil when Unrealisable
	Notation Notation
	Pos      Pos
	// Unrealisable is set, and Layout nil, when the pin is a well-formed
	// layout for another subgroup count or subgroup size than the graph's
	// subgroups and the target's lanes: one sentence saying what the pin
	// needs and what the graph has, e.g. "the layout spreads over 4
	// subgroups, but the graph has subgroups = 2". No plan can meet such
	// a pin; the graph is still read, so that the solver can explain why.
	Unrealisable string
}

// Buffer is a shared-memory buffer.
type Buffer struct {
	Name  string
	Shape []int
	DType DType
	// Layout is where a two-dimensional buffer's elements lie (dense row
	// major unless the graph pads or swizzles it); nil for other ranks.
	Layout *SharedLayout
	// Described is set when the kernel reads the buffer through a matrix
	// descriptor whatever record its op runs on (a memory descriptor
	// operand of Triton's ttng.warp_group_dot, which Triton lowers to
	// wgmma): its placement must then be one a descriptor describes
	// (SharedLayout.CanonicalMode).
	Described bool
	// Fixed is set when the kernel fixes the placement, Layout, whatever
	// the plan prefers: the shared encoding of a Triton tensor descriptor,
	// which the TMA unit writes and reads the block in, or of a !ttg.memdesc
	// function argument, which the caller placed; a plan written back
	// keeps it. The placement is then the only one considered, dense row
	// major included.
	Fixed bool
	// Allocated is the shape the kernel allocates, where it differs from
	// the tile its accesses touch (Shape), which is what the plan prices:
	// an MLIR memref.alloc larger than the one tile read and written.
	Allocated []int
	Pos       Pos
}

// Bytes is the buffer's size, padding included.
func (b *Buffer) Bytes() int {
	if b.Layout != nil {
		return b.Layout.Bytes()
	}
	n := (b.DType.Bits + 7) / 8
	for _, s := range b.Shape {
		n *= s
	}
	return n
}

// AccessMask is the mask of a masked load or store: one boolean per
// element of the tensor accessed, saying whether that element is read or
// written. Constancy says, per dimension of the tensor, over how many
// consecutive elements (aligned blocks of that many) the mask is
// certainly the same, 0 where it is the same along the whole dimension:
// a comparison of an index range with a run-time bound differs from one
// element to the next (1), with a bound known to be a multiple of 16 only
// between blocks of 16, and a row's mask broadcast along the columns not
// at all (0). EachTrip is set where the mask is computed inside the loop
// body of its access, so that its predicates are formed again every trip
// from the lane's coordinates (a GEMM's K bound, k < K - k0).
type AccessMask struct {
	Constancy []int
	EachTrip  bool
}

// Op is one operation. Which fields matter depends on Kind.
type Op struct {
	Name       string
	Kind       OpKind
	Fn         string // element-wise function, reduce combiner, cast kind
	Operands   []*Value
	Result     *Value // nil for store, copy_to_shared and loops
	Buffer     *Buffer
	Axis       int   // reduce
	Perm       []int // transpose
	Dims       []int // broadcast: the new dimensions of the result
	Contiguous int   // load, store: the dimension contiguous in memory
	// Mask is a load's or store's mask, when the access is masked: which
	// dimensions it may vary along. Accesses that read one mask share one
	// *AccessMask. nil: unmasked, or not known.
	Mask *AccessMask
	// Surface is the two-dimensional region of global memory a load or
	// store accesses when the input says (an XeGPU descriptor of a
	// memref): what a global block record's memory rule is checked
	// against. nil: not known, and no block record runs the access.
	Surface *Surface
	// Layout is the layout a store or copy runs in when the graph states
	// it (the access pattern a compiler already chose), read as a pin of
	// the access; nil leaves it to the solver.
	Layout *Pin
	// Intrinsic names the record the op must use: an mma record for an
	// mma, a load_shared record (ldmatrix, wmma_load...) for a
	// load_shared; "" leaves the choice to the solver.
	Intrinsic    string
	IntrinsicPos Pos // where the intrinsic key is written; zero when absent
	// Variant is how an mma must run when the graph states it (k_width,
	// transposed); nil leaves it to the solver.
	Variant *MMAVariant
	// Warpgroup marks an mma whose result Triton types as a warpgroup
	// mma's accumulator (Hopper's ttng.warp_group_dot, whose result must
	// be a version 3 #ttg.nvidia_mma): it runs only in the arrangements
	// whose accumulator that encoding writes, where it has any.
	Warpgroup    bool
	NoConvert    []bool // per operand: the edge may not convert
	NoConvertPos Pos    // where the no_convert key is written; zero when absent
	Pos          Pos
	In           *Loop // the loop whose body holds the op; nil at top level
	Body         *Loop // for OpLoop
}

func (o *Op) String() string { return o.Name }

// Loop is a loop region: Trips iterations of Ops. Args are the carried
// values inside the body, initialised from Inits and updated from Yields;
// Results are the carried values after the loop.
type Loop struct {
	Name  string
	Trips int
	// Dynamic is set when the trip count is known only at run time
	// (trips = "dyn"); Trips is then the count the graph assumes for
	// pricing, and plans say so.
	Dynamic bool
	Args    []*Value
	Inits   []*Value
	Yields  []*Value
	Results []*Value
	Ops     []*Op
	Parent  *Loop
	Op      *Op
	Pos     Pos
}

// Graph is a kernel's dataflow graph: ops in program order (loops hold
// theirs), the values they define, the shared-memory buffers, the target
// and the subgroup count, and the user's constraints.
type Graph struct {
	File         string
	Target       string
	TargetPos    Pos
	Subgroups    int
	SubgroupsPos Pos
	// HasBudget is true when the graph gives shared_memory: SharedBudget
	// bytes (0: no shared memory may be used at all) bound buffers plus
	// conversion scratch. Without it the bound is the target's capacity
	// and SharedBudget is 0.
	HasBudget    bool
	SharedBudget int
	BudgetPos    Pos
	// SpillRegisters is set when the graph says registers = "spill": a
	// plan may hold more registers per lane than the target's budget
	// (Target.RegisterBudget) and says by how much; by default no plan
	// does.
	SpillRegisters bool
	RegistersPos   Pos
	NoConversions  bool
	NoConvPos      Pos
	// HasMaxConversions is true when the graph bounds how often a plan
	// converts: no plan has more than MaxConversions conversions (uses
	// that read a value in another layout than its own, each counted
	// once, as plans list them). MaxConversionsFrom says what set the
	// bound, for plans and messages ("the graph's max_conversions", "the
	// input's 2 ttg.convert_layout ops").
	HasMaxConversions  bool
	MaxConversions     int
	MaxConversionsPos  Pos
	MaxConversionsFrom string
	Notation           string // the notation plans print layouts in, unless asked otherwise
	// Provenance says, for a graph a front end read from other text than
	// a graph file (MLIR), where its target and subgroup count came from
	// ("target sm_80 from --target", "subgroups 2 from translation_info's
	// workgroup_size [64, 1, 1] at k.mlir:4:3 ..."); plans repeat it.
	Provenance []string
	// Hard names the facts an explanation must never offer to relax, as
	// `planner explain` prints them in brackets ("pin:a",
	// "no_convert:a->d", "intrinsic:d", "shared_memory", "buffer:A"). The
	// reader checks only that each is a non-empty word; the solver checks
	// that it names a fact of the graph.
	Hard []HardMark
	// Named are layouts the input names without pinning a value to them
	// (a TTGIR kernel's encodings, read with the planner choosing the
	// layouts): the solver offers each to every value of its shape.
	Named   []*Layout
	Ops     []*Op
	Values  []*Value
	Buffers []*Buffer
}

// HardMark is one entry of a graph's hard list: the name of a fact that
// is never offered for relaxation, and where the entry is written.
type HardMark struct {
	Name string
	Pos  Pos
}

// Trips is how many times an op inside loops l (innermost) runs per
// kernel: the product of the trip counts of l and its parents.
func Trips(l *Loop) int64 {
	n := int64(1)
	for ; l != nil; l = l.Parent {
		n *= int64(l.Trips)
	}
	return n
}

// ValueTrips is how many times v is produced: the trips of the loop
// around its definition (iter args count as defined in their loop).
func ValueTrips(v *Value) int64 {
	switch {
	case v.Arg != nil:
		return Trips(v.Arg)
	case v.Def != nil:
		return Trips(v.Def.In) // a loop's results count as defined where the loop is
	}
	return 1
}

// Walk calls fn for every op of the graph in program order, loops before
// their bodies.
func (g *Graph) Walk(fn func(*Op)) {
	var walk func(ops []*Op)
	walk = func(ops []*Op) {
		for _, op := range ops {
			fn(op)
			if op.Body != nil {
				walk(op.Body.Ops)
			}
		}
	}
	walk(g.Ops)
}

// OpCount is how many ops Walk visits.
func (g *Graph) OpCount() int {
	n := 0
	g.Walk(func(*Op) { n++ })
	return n
}

// Value looks a value up by name.
func (g *Graph) Value(name string) *Value {
	i := slices.IndexFunc(g.Values, func(v *Value) bool { return v.Name == name })
	if i < 0 {
		return nil
	}
	return g.Values[i]
}
