package model

import (
	"fmt"
	"slices"
	"strconv"
)

// OpInfo is one row of the op table: everything the reader, the solver,
// the greedy baseline, the plan and the verifier need to know about an op
// kind. Code outside this table asks the row (Op.Info, OpInfoOf) rather
// than comparing kinds. The table is checked when the package loads.
type OpInfo struct {
	Kind OpKind
	// Spellings are the words a graph file writes as an op's kind for
	// this row. Empty for element-wise ops, which are spelled by their
	// function (ElementwiseFuncs).
	Spellings []string
	// ByFunction is set when the kind written in the file is the op's
	// function (element-wise ops and casts): the op is named by it.
	ByFunction bool
	// QualifiedByFunction is set when plans name the op by its kind and
	// its function ("reduce add").
	QualifiedByFunction bool

	// Operands is set when the op reads an "operands" array.
	Operands bool
	// Roles name the operand slots, in order, as plans and facts name
	// them ("a", "init"); a slot without a name is "operand i". A role
	// with Key set may be written under its own key: every role of an op
	// with ByRole when the op has no "operands" array (mma's a, b, c),
	// or an Optional role after the operands (reduce's init).
	Roles  []Role
	ByRole bool
	// Arity is the number of operands the reader requires before typing;
	// 0 leaves the count to the typing rule.
	Arity int
	// Result is set when the op defines a result value (the loop defines
	// its results itself).
	Result bool
	// Keys are the op table's other keys the op reads, in reading order.
	Keys []OpKey
	// Type computes the result's shape and element type from the
	// operands and keys, or says what is wrong. No type and no error
	// defines no result (a key already reported); an op without a
	// result is only checked.
	Type func(a *OpArgs) (*ValueType, []TypeError)

	// Flow says how the layouts of the operands, the result and the
	// op's own execution layout are tied.
	Flow Flow
	// Forward gives the result's layout from operand 0's (or the
	// execution layout's); Backward gives operand 0's layout from the
	// result's. nil where the layouts are equal or unrelated.
	Forward, Backward *Transfer
	// Combines is set when the op combines the partial results of the
	// lanes and subgroups that share a result element (reduce), through
	// shared memory when subgroups share one.
	Combines bool
	// Memory is the memory the op accesses; Writes is set when it writes
	// it (store, copy_to_shared) rather than reading it.
	Memory Memory
	Writes bool
	// Records is the kind of record the op can run as ("" none): an mma
	// record for an mma, a load or store record for a shared access.
	Records RecordKind
	// ResultCost is set when the op's cost depends only on its result's
	// layout (load, element-wise, cast).
	ResultCost bool
	// Explicit is set when the op needs the layouts of its operands and
	// result spelled out element by element: none may be an opaque
	// fragment.
	Explicit bool
	// Given is set when the result arrives in a layout the graph states
	// (a pin), at no cost: a kernel argument already in registers.
	Given bool
	// Widens reports whether the result holds more per element than
	// operand 0 (a broadcast, a widening cast); nil for never.
	Widens func(op *Op) bool
	// Remat is how the greedy baseline prices making the result again.
	Remat Remat
	// AtUse is set when the result is made where each use reads it (a
	// constant, written into registers at no cost): it holds registers
	// only there, not from the op to its last use (Live).
	AtUse bool
	// Cost prices the op under its choices (see OpCost); nil is free.
	Cost func(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error)
	// Needs says, for facts, what the op needs of the value of operand i
	// ("reduces %a along dimension 1 in the layout %a has"); nil for
	// "needs %a in its result's layout".
	Needs func(op *Op, i int, value string) string
	// Makes says, for facts, how an op that runs in a layout of its own
	// leaves its result in the layout Forward gives ("leaves %r in the
	// slice of the layout it reduces in").
	Makes func(op *Op) string
	// Because says, for plans, why the op needs the layout it does of
	// the value of use u.
	Because func(u Use, a *Assignment) string
}

// Role is one named operand slot.
type Role struct {
	Name     string
	Key      bool // may be written under the key Name
	Optional bool // an extra operand under its key, after the "operands" array
}

// OpKey is a key of an op table that a row reads besides its operands.
type OpKey struct {
	Name string
	When KeyWhen
	Gate KeyGate
}

// KeyGate says whether a key must read well for the op to be typed, and
// whether that is checked before or after the result's name.
type KeyGate int

const (
	GateNone KeyGate = iota
	GateBeforeResult
	GateAfterResult
)

// KeyWhen is when the reader reads a key of an op table.
type KeyWhen int

const (
	// KeyFirst keys are read with the operands, before anything is
	// checked; their errors stop the op from being typed.
	KeyFirst KeyWhen = iota
	// KeyLate keys are read only once the operands and the result's name
	// are known to be good, just before typing.
	KeyLate
	// KeyLast keys are read after typing, whatever it found.
	KeyLast
)

// OpArgs is what the reader hands a typing rule: the operands and the
// values of the keys the row reads.
type OpArgs struct {
	Spelling string // the kind as written in the file
	Operands []*Value
	Shape    []int
	DType    DType
	Axis     int
	Perm     []int
	Dims     []int
	Buffer   *Buffer
}

// ValueType is the shape and element type of a value.
type ValueType struct {
	Shape []int
	DType DType
}

// TypeError is what a typing rule finds wrong: the key of the op table it
// is about, the index in that key's array (-1: the key itself), the code
// and the message.
type TypeError struct {
	Key   string
	Index int
	Code  Code
	Msg   string
}

func typeErr(key string, code Code, format string, args ...any) []TypeError {
	return []TypeError{{Key: key, Index: -1, Code: code, Msg: fmt.Sprintf(format, args...)}}
}

// Flow is how an op ties the layouts of its operands and its result.
type Flow int

const (
	// FlowFree: the result's layout is the op's to choose (load,
	// load_shared, constant).
	FlowFree Flow = iota
	// FlowSame: every operand is in the result's layout (element-wise,
	// cast: a cast packs the same elements at a new width).
	FlowSame
	// FlowRelabel: operand 0 is in Backward of the result's layout, each
	// element staying in its lane and register (transpose, broadcast,
	// shape_cast).
	FlowRelabel
	// FlowExec: the op runs in an execution layout of its own, which
	// operand 0 takes; the result is Forward of it, and further operands
	// are in the result's layout (reduce, store, copy_to_shared).
	FlowExec
	// FlowRecord: operands and result are in the fragments of the record
	// the op runs as, one per role, the result in "d" (mma).
	FlowRecord
	// FlowCarry: a loop carries each value in one layout, from its init
	// through its yields to its result.
	FlowCarry
)

// Memory is the memory an op accesses.
type Memory int

const (
	MemoryNone Memory = iota
	MemoryGlobal
	MemoryShared
)

// Remat is how the greedy baseline prices making an op's result again
// instead of converting it.
type Remat int

const (
	RematNone    Remat = iota
	RematLoad          // read the buffer again
	RematCompute       // compute again, 8 times dearer on the special function unit
	RematCombine       // combine again, through shared memory where subgroups share a result
)

// Transfer maps a layout across an op: Apply gives the layout (nil where
// none follows) and Key names the map, so that derived layouts can be
// cached by it.
type Transfer struct {
	Key   func(op *Op) string
	Apply func(op *Op, l *Layout) *Layout
}

// ElementwiseFunc is one element-wise function a graph may use.
type ElementwiseFunc struct {
	Name  string
	Arity int  // 0: any number of operands
	SFU   bool // runs on the special function unit
	// Cond is set when the function's first operand is a condition,
	// which may be of another type than the values it selects.
	Cond bool
	// Bool is set when the result is a mask, i1, one boolean per element
	// (a comparison, as MLIR's arith.cmpf and arith.cmpi).
	Bool bool
	// Accumulates is set for the function an mma's accumulator folds
	// (FoldedAdd): an add of the mma's result into another value.
	Accumulates bool
}

// ElementwiseFuncs are the element-wise functions a graph may use, each
// written as an op's kind.
var ElementwiseFuncs = []ElementwiseFunc{
	{Name: "add", Accumulates: true}, {Name: "sub", Arity: 2}, {Name: "mul"}, {Name: "div", Arity: 2, SFU: true},
	{Name: "max"}, {Name: "min"}, {Name: "neg", Arity: 1}, {Name: "abs", Arity: 1},
	{Name: "exp", Arity: 1, SFU: true}, {Name: "exp2", Arity: 1, SFU: true}, {Name: "log", Arity: 1, SFU: true},
	{Name: "log2", Arity: 1, SFU: true}, {Name: "sqrt", Arity: 1, SFU: true}, {Name: "rsqrt", Arity: 1, SFU: true},
	{Name: "recip", Arity: 1, SFU: true}, {Name: "tanh", Arity: 1, SFU: true}, {Name: "sigmoid", Arity: 1, SFU: true},
	{Name: "relu", Arity: 1}, {Name: "select", Arity: 3, Cond: true}, {Name: "fma", Arity: 3},
	{Name: "sin", Arity: 1, SFU: true}, {Name: "cos", Arity: 1, SFU: true},
	{Name: "cmp", Arity: 2, Bool: true},
	// The integer and bit functions of MLIR's arith dialect (andi, ori,
	// xori, shli, shrsi and shrui, remsi, remui and remf).
	{Name: "and", Arity: 2}, {Name: "or", Arity: 2}, {Name: "xor", Arity: 2},
	{Name: "shl", Arity: 2}, {Name: "shr", Arity: 2}, {Name: "rem", Arity: 2},
}

// ElementwiseFuncOf looks an element-wise function up by name.
func ElementwiseFuncOf(name string) (ElementwiseFunc, bool) {
	f, ok := funcByName[name]
	return f, ok
}

// ElementwiseIsSFU reports whether fn runs on the special function unit
// (transcendentals, division).
func ElementwiseIsSFU(fn string) bool { return funcByName[fn].SFU }

// OpKeys are every key an op table may hold, for the reader.
var OpKeys = []string{"kind", "name", "result", "operands", "shape", "dtype", "contiguous", "mask", "surface", "buffer", "intrinsic",
	"axis", "combiner", "init", "perm", "dims", "value", "no_convert", "layout", "k_width", "transposed", "trips", "assume_trips", "iter_args", "inits", "yields", "results", "body", "a", "b", "c", "scale_a", "scale_b"}

// ReduceCombiners are the combiners a reduce may name ("" leaves it
// unsaid).
var ReduceCombiners = []string{"add", "max", "min", "mul", ""}

// IsPermutation reports whether perm lists each of 0..n-1 once.
func IsPermutation(perm []int, n int) bool { return isPermutation(perm, n) }

var (
	opTable    = map[OpKind]*OpInfo{}
	bySpelling = map[string]*OpInfo{}
	funcByName = map[string]ElementwiseFunc{}
)

func init() {
	for _, f := range ElementwiseFuncs {
		if _, dup := funcByName[f.Name]; dup {
			panic("model: element-wise function " + f.Name + " is listed twice")
		}
		funcByName[f.Name] = f
	}
	for _, info := range opRows {
		if err := checkRow(info); err != nil {
			panic("model: op table: " + err.Error())
		}
		opTable[info.Kind] = info
		for _, s := range info.spellings() {
			if prev, dup := bySpelling[s]; dup {
				panic(fmt.Sprintf("model: op table: %q spells both %s and %s", s, prev.Kind, info.Kind))
			}
			bySpelling[s] = info
		}
	}
}

// checkRow checks that a row has every rule its properties call for.
func checkRow(info *OpInfo) error {
	switch {
	case info.Kind == "":
		return fmt.Errorf("a row has no kind")
	case opTable[info.Kind] != nil:
		return fmt.Errorf("%s has two rows", info.Kind)
	case len(info.spellings()) == 0:
		return fmt.Errorf("%s has no spelling", info.Kind)
	case info.Result && info.Type == nil:
		return fmt.Errorf("%s defines a result but has no typing rule", info.Kind)
	case info.Given && (!info.Result || info.Cost != nil || info.Memory != MemoryNone):
		return fmt.Errorf("%s is given in registers but is not a free result", info.Kind)
	case info.Flow == FlowRelabel && (info.Forward == nil || info.Backward == nil):
		return fmt.Errorf("%s relabels layouts but lacks a transfer", info.Kind)
	case info.Flow == FlowExec && info.Result && (info.Forward == nil || info.Makes == nil):
		return fmt.Errorf("%s runs in a layout of its own but cannot give its result's", info.Kind)
	case info.Flow == FlowRecord && (info.Records == "" || len(info.Roles) == 0):
		return fmt.Errorf("%s takes its fragments from a record but names no record kind or roles", info.Kind)
	case info.ByRole && len(info.Roles) != info.Arity:
		return fmt.Errorf("%s has %d roles for %d operands", info.Kind, len(info.Roles), info.Arity)
	case info.Remat == RematCompute && !info.ResultCost, info.Remat == RematCombine && !info.Combines:
		return fmt.Errorf("%s is made again in a way its row does not allow", info.Kind)
	case info.Because == nil && info.Flow != FlowFree:
		return fmt.Errorf("%s reads operands but says nothing of why", info.Kind)
	}
	for _, k := range info.Keys {
		if !slices.Contains(OpKeys, k.Name) {
			return fmt.Errorf("%s reads key %q, which no op table may hold", info.Kind, k.Name)
		}
	}
	for _, r := range info.Roles {
		if r.Key && !slices.Contains(OpKeys, r.Name) {
			return fmt.Errorf("%s names operand %q by a key no op table may hold", info.Kind, r.Name)
		}
	}
	return nil
}

func (info *OpInfo) spellings() []string {
	if info.Spellings != nil {
		return info.Spellings
	}
	var out []string
	for _, f := range ElementwiseFuncs {
		out = append(out, f.Name)
	}
	return out
}

// OpInfoOf is the row of an op kind, nil for a kind the table lacks.
func OpInfoOf(kind OpKind) *OpInfo { return opTable[kind] }

// OpBySpelling is the row a graph file's kind word names, nil if none.
func OpBySpelling(word string) *OpInfo { return bySpelling[word] }

// OpRows are the rows of the table, in order.
func OpRows() []*OpInfo { return slices.Clone(opRows) }

// Info is the row of the op's kind. An op of a kind the table lacks is a
// program error.
func (o *Op) Info() *OpInfo {
	info := opTable[o.Kind]
	if info == nil {
		panic(fmt.Sprintf("model: op %s has kind %q, which the op table lacks", o.Name, o.Kind))
	}
	return info
}

// KnownOpKinds lists the words a graph may write as an op's kind, for
// messages: the structural kinds, the casts, then the element-wise
// functions, sorted.
func KnownOpKinds() ([]string, []string) {
	var kinds []string
	for _, info := range opRows {
		if info.Spellings != nil {
			kinds = append(kinds, info.Spellings...)
		}
	}
	var fns []string
	for _, f := range ElementwiseFuncs {
		fns = append(fns, f.Name)
	}
	slices.Sort(fns)
	return kinds, fns
}

// OperandKeys are the keys that name operands in any op table, in the
// table's order: "operands", then the role keys.
func OperandKeys() []string {
	keys := []string{"operands"}
	for _, info := range opRows {
		for _, r := range info.Roles {
			if r.Key && !slices.Contains(keys, r.Name) {
				keys = append(keys, r.Name)
			}
		}
	}
	return keys
}

// Spelling is the op's kind as a graph writes it: its function for
// element-wise ops and casts, else the kind.
func (o *Op) Spelling() string {
	if o.Info().ByFunction && o.Fn != "" {
		return o.Fn
	}
	return string(o.Kind)
}

// Func is the element-wise function an op computes; the zero function
// for ops of other kinds.
func (o *Op) Func() ElementwiseFunc {
	if o.Info().Kind != OpElementwise {
		return ElementwiseFunc{}
	}
	return funcByName[o.Fn]
}

// KindName names the op's kind as plans print it: "exp", "reduce max",
// "transpose".
func (o *Op) KindName() string {
	info := o.Info()
	if info.QualifiedByFunction {
		return string(o.Kind) + " " + o.Fn
	}
	return o.Spelling()
}

// ReadsShared reports whether the op reads a shared-memory buffer into
// registers (load_shared).
func (o *Op) ReadsShared() bool {
	info := o.Info()
	return info.Memory == MemoryShared && !info.Writes
}

// WritesShared reports whether the op writes registers into a
// shared-memory buffer (copy_to_shared).
func (o *Op) WritesShared() bool {
	info := o.Info()
	return info.Memory == MemoryShared && info.Writes
}

// VectorDim is the dimension a memory op's vectors run along: the
// contiguous one of global memory, the last one of a shared buffer.
func (o *Op) VectorDim(v *Value) int {
	if o.Info().Memory == MemoryGlobal {
		return o.Contiguous
	}
	return len(v.Shape) - 1
}

// UseValue is the value a use reads.
func UseValue(u Use) *Value {
	if u.Op.Info().Flow == FlowCarry {
		if u.Yield {
			return u.Op.Body.Yields[u.Index]
		}
		return u.Op.Body.Inits[u.Index]
	}
	return u.Op.Operands[u.Index]
}

// OpUses lists an op's uses in plan order: its operands, and for a loop
// each carried value's init and yield.
func OpUses(op *Op) []Use {
	uses := []Use{}
	for i := range op.Operands {
		uses = append(uses, Use{Op: op, Index: i})
	}
	if op.Info().Flow == FlowCarry {
		for i := range op.Body.Args {
			uses = append(uses, Use{Op: op, Index: i}, Use{Op: op, Index: i, Yield: true})
		}
	}
	return uses
}

// Scaled reports whether o is a block-scaled product: its row names the
// scale operands (mma_scaled's scale_a and scale_b).
func (o *Op) Scaled() bool {
	return slices.ContainsFunc(o.Info().Roles, func(r Role) bool { return r.Name == "scale_a" })
}

// RoleName is the name of operand slot i of op ("a", "init"), "" when the
// slot has none.
func RoleName(op *Op, i int) string {
	roles := op.Info().Roles
	if i < len(roles) {
		return roles[i].Name
	}
	return ""
}

// OperandName names the operand slot a use reads: "a" of an mma, "init of
// acc" of a loop, "operand 1" of an element-wise op.
func OperandName(u Use) string {
	if u.Op.Info().Flow == FlowCarry {
		if u.Yield {
			return "yield of " + u.Op.Body.Args[u.Index].Name
		}
		return "init of " + u.Op.Body.Args[u.Index].Name
	}
	if r := RoleName(u.Op, u.Index); r != "" {
		return r
	}
	return "operand " + strconv.Itoa(u.Index)
}

// SharesResultLayout reports whether operand i is read in the result's
// layout: every operand of an element-wise op or a cast, and the
// operands after the first of an op that runs in its own layout (a
// reduction's init).
func SharesResultLayout(op *Op, i int) bool {
	switch op.Info().Flow {
	case FlowSame:
		return true
	case FlowExec:
		return i > 0 && op.Result != nil
	}
	return false
}
