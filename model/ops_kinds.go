package model

// OpKind names what an op of a kernel graph does. Everything else about a
// kind (how it is written, typed, laid out and priced) is its row of the
// op table (ops_rows.go), which Op.Info returns.
//
// Each row has one constant here, and each constant names a row
// (TestOpKindConstants). A front end names the kind of an op it builds by
// its constant (model.OpTranspose), so that a misspelt kind does not
// compile; only a reader of user text looks a kind up by the word written
// (OpBySpelling). Code outside the op table's files never switches on,
// compares or keys a map by a kind: it reads the row (TestNoOpKindSwitches
// in architecture_test.go).
type OpKind string

const (
	OpLoad         OpKind = "load"           // global memory -> registers
	OpStore        OpKind = "store"          // registers -> global memory
	OpCopyToShared OpKind = "copy_to_shared" // registers -> a shared-memory buffer
	OpLoadShared   OpKind = "load_shared"    // a shared-memory buffer -> registers
	OpMMA          OpKind = "mma"            // D = A·B + C
	OpMMAScaled    OpKind = "mma_scaled"     // D = (A·scale_a)(B·scale_b) + C, the scales per block of K
	OpElementwise  OpKind = "elementwise"    // any arity; operands and result share a layout
	OpCast         OpKind = "cast"           // extf, truncf, bitcast: same elements, new width
	OpReduce       OpKind = "reduce"         // along one axis, optionally combined with an init
	OpBroadcast    OpKind = "broadcast"      // new dimensions
	OpTranspose    OpKind = "transpose"
	OpShapeCast    OpKind = "shape_cast"
	OpJoin         OpKind = "join"   // two values side by side along a new last dimension of 2, held in registers
	OpSplit        OpKind = "split"  // a half of a last dimension of 2 held in registers
	OpUnpack       OpKind = "unpack" // bytes of two 4-bit elements along an axis, read as those elements
	OpConstant     OpKind = "constant"
	OpArgument     OpKind = "argument" // a kernel argument in registers, in a pinned layout
	OpLoop         OpKind = "loop"
)
