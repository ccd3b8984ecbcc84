package reader

import (
	"fmt"
	"slices"
	"strings"

	"planner/mlir/ir"
	"planner/model"
)

// Options say how to read a kernel graph from MLIR.
type Options struct {
	// Func names the func.func to read (without @); "" reads the only one.
	Func string
	// Target and Subgroups give the target and the subgroup count where
	// the IR states none, or override what it states (0, "": take the
	// IR's).
	Target    string
	Subgroups int
	// Trips is the trip count assumed for a loop whose bounds are not
	// constants (0: such a loop is an error); plans say it was assumed.
	Trips int
	// Targets are the targets the planner knows.
	Targets map[string]*model.Target
	// KeepAnchors pins, in TTGIR, the results of tt.load and tt.dot, the
	// operands of tt.dot and the access of tt.store to the encodings the
	// IR gives them; without it the planner chooses them.
	KeepAnchors bool
	// InputLayouts pins, in TTGIR, every tensor to the encoding the IR
	// gives it, each ttg.convert_layout a conversion between its
	// operand's encoding and its result's: the input's own layout
	// choice, to be priced (planner solve --compare input).
	InputLayouts bool
	// Offered lists the records a target offers, which the matrix ops
	// of the gpu, nvgpu and amdgpu dialects are matched against (their
	// intrinsic); nil where the kernel is read without them.
	Offered func(t *model.Target) ([]*model.Record, error)
}

// Errorf reports an error at pos.
func (b *Builder) Errorf(pos model.Pos, code model.Code, format string, args ...any) *model.Error {
	e := &model.Error{Pos: pos, Code: code, Index: -1, Msg: fmt.Sprintf(format, args...)}
	b.Errs = append(b.Errs, e)
	return e
}

// Fail reports an error at op and marks its results failed.
func (b *Builder) Fail(op *ir.Op, code model.Code, format string, args ...any) *model.Error {
	for _, r := range op.Results {
		b.Failed[r] = true
	}
	return b.Errorf(op.Pos, code, format, args...)
}

// Stated is something the IR states, where it states it.
type Stated struct {
	Value string
	Pos   model.Pos
	What  string // the attribute that states it
}

// Holders are the function and every op around it, innermost first:
// the ops whose attributes say what the kernel runs on.
func (b *Builder) Holders() []*ir.Op {
	var out []*ir.Op
	for op := b.Fn; op != nil; {
		out = append(out, op)
		if op.Parent == nil || op.Parent.Region == nil {
			break
		}
		op = op.Parent.Region.Parent
	}
	return out
}

// KnownTargets lists the targets the planner knows, for messages.
func (b *Builder) KnownTargets() string {
	var ks []string
	for k := range b.Opt.Targets {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ", ")
}

// LookupTarget sets the builder's target to the graph's; nil (reported)
// when the planner does not know it.
func (b *Builder) LookupTarget() *model.Target {
	g := b.G
	t, ok := b.Opt.Targets[g.Target]
	if !ok {
		at := g.TargetPos
		if at.Line == 0 {
			at = b.Fn.Pos
		}
		b.Errorf(at, model.CodeUnknownName, "unknown target %q (known: %s)", g.Target, b.KnownTargets())
		return nil
	}
	b.Target = t
	return t
}

// CheckSubgroups checks the graph's subgroup count: a power of two within
// the target's limit.
func (b *Builder) CheckSubgroups() {
	g, t := b.G, b.Target
	at := g.SubgroupsPos
	if at.Line == 0 {
		at = b.Fn.Pos
	}
	switch n := g.Subgroups; {
	case n&(n-1) != 0:
		b.Errorf(at, model.CodeNotPowerOfTwo, "%d subgroups is not a power of two: a layout gives each bit of the subgroup id a basis, so a block has 1, 2, 4, 8, ... subgroups", n)
	case n > t.MaxSubgroups:
		b.Errorf(at, model.CodeBadValue, "%s allows at most %d subgroups per block, found %d", t.Name, t.MaxSubgroups, n)
	}
}

// unsqueeze is a shape_cast that only puts dimensions of extent 1 into
// a value, read into the broadcast that grows them.
type unsqueeze struct {
	src      *model.Value
	inserted []int // the new dimensions of extent 1, in the cast's shape
}

// Choose is the function opt.Func names, or the module's only one; an
// error at the file's start, or at the second function, when there is no
// such function, or when the module has several and opt names none.
func Choose(m *ir.Module, opt Options) (*ir.Op, error) {
	funcs := ir.Funcs(m)
	top := model.Pos{File: m.File, Line: 1, Col: 1}
	var names []string
	for _, f := range funcs {
		names = append(names, "@"+ir.FuncName(f))
	}
	var fn *ir.Op
	switch {
	case len(funcs) == 0:
		return nil, &model.Error{Pos: top, Code: model.CodeMissingKey, Index: -1, Msg: "the file has no func.func: the planner reads a kernel written as a function"}
	case opt.Func != "":
		for _, f := range funcs {
			if ir.FuncName(f) == strings.TrimPrefix(opt.Func, "@") {
				fn = f
			}
		}
		if fn == nil {
			return nil, &model.Error{Pos: top, Code: model.CodeUnknownName, Index: -1,
				Msg: fmt.Sprintf("the file has no function @%s (its functions: %s)", strings.TrimPrefix(opt.Func, "@"), strings.Join(names, ", "))}
		}
	case len(funcs) > 1:
		return nil, &model.Error{Pos: funcs[1].Pos, Code: model.CodeBadValue, Index: -1,
			Msg: fmt.Sprintf("the file has %d functions (%s): name the kernel with --func NAME (planner solve without it plans each)", len(funcs), strings.Join(names, ", "))}
	default:
		fn = funcs[0]
	}
	if len(fn.Regions) == 0 || len(fn.Regions[0].Blocks) == 0 {
		return nil, &model.Error{Pos: fn.Pos, Code: model.CodeMissingKey, Index: -1, Msg: fmt.Sprintf("@%s is a declaration: the planner reads a function with a body", ir.FuncName(fn))}
	}
	return fn, nil
}

// NewBuilder starts reading fn of m into a graph, front reading the ops of
// its dialects (set by the front end that embeds the builder).
func NewBuilder(m *ir.Module, fn *ir.Op, opt Options) *Builder {
	return &Builder{
		Mod: m, Fn: fn, Opt: opt,
		G:       &model.Graph{File: m.File},
		Vals:    map[*ir.Value]*model.Value{},
		ints:    map[*ir.Value]int64{},
		Folded:  map[*ir.Value]*model.Value{},
		unsq:    map[*ir.Value]*unsqueeze{},
		Scalars: map[*model.Value]bool{},
		Failed:  map[*ir.Value]bool{},
		Names:   map[string]bool{},
		OpNames: map[string]bool{},
		Made:    map[*ir.Op][]*model.Op{},
	}
}

// Err is the errors found so far, sorted by position; nil for none.
func (b *Builder) Err() error {
	if len(b.Errs) == 0 {
		return nil
	}
	b.Errs.Sort()
	return b.Errs
}

// Graph is the graph read.
func (b *Builder) Graph() *model.Graph { return b.G }

// Module is the module the function is read from.
func (b *Builder) Module() *ir.Module { return b.Mod }

// Builder is what every front end's reading of a function shares: the
// module and the function read, the options, the graph built and the
// graph value each IR value reads as, the loop being read and the errors
// found. A front end embeds it and reads the ops of its dialects
// (Front); the ops every dialect's kernel has (arith, math,
// arith.constant, scf.for, shape casts) are read here.
type Builder struct {
	Mod    *ir.Module
	Fn     *ir.Op
	Opt    Options
	G      *model.Graph
	Target *model.Target
	// front reads the ops of its dialects.
	Front Front
	// Tensors is set when ranked tensors play the part of vectors (TTGIR).
	Tensors bool
	// FreeArguments is set when an argument no anchor pins is a value
	// the plan lays out (the vector dialect's), not an error.
	FreeArguments bool
	// DefaultTrips is the trip count assumed for a loop whose bounds are
	// not constants where Opt.Trips gives none (0: such a loop is an
	// error).
	DefaultTrips int
	// vals maps each vector value to the graph's value; ints the integer
	// constants (for loop bounds).
	Vals map[*ir.Value]*model.Value
	ints map[*ir.Value]int64
	// folded are values the graph reads as another: an extf an mma
	// widens itself, a vector constant only a reduction's identity init
	// uses (nil), a to_layout's result.
	Folded map[*ir.Value]*model.Value
	unsq   map[*ir.Value]*unsqueeze
	// scalars are graph values of shape [1] that stand for a scalar (a
	// vector.reduction's result).
	Scalars map[*model.Value]bool
	// failed are the values whose op's error is reported: their uses are
	// not reported again.
	Failed  map[*ir.Value]bool
	Errs    model.ErrorList
	Names   map[string]bool // every graph value's name
	OpNames map[string]bool
	Loop    *model.Loop
	depth   int
	// cur is the op being read; made the graph ops each op was read into.
	Cur  *ir.Op
	Made map[*ir.Op][]*model.Op
}

// Front is a front end's part in reading a function: the ops of its
// dialects, and the values it gives some operands in place of their own.
type Front interface {
	// ReadOp reads one op into the graph.
	ReadOp(op *ir.Op)
	// Operand is the graph value operand o reads in place of its value's
	// own, where the front end gives it one (ok; nil when that value is
	// refused, reported).
	Operand(o *ir.Operand) (v *model.Value, ok bool)
	// Free reports whether v is made at each use, not laid out.
	Free(v *ir.Value) bool
	// Carry is told that a loop carries in, as its iter_arg arg and its
	// result res.
	Carry(in, arg, res *ir.Value)
	// LaneShare reports whether v is each lane's share of a subgroup's
	// tile, which the graph holds as the whole tile.
	LaneShare(v *ir.Value) bool
	// LaneConstant reads an arith.constant whose result is a lane's
	// share; false when it is none.
	LaneConstant(op *ir.Op, res *ir.Value) bool
	// LaneOperand is the subgroup tile an element-wise op on lanes'
	// shares works on (its result res then a lane's share); nil when it
	// works on none.
	LaneOperand(op *ir.Op, res *ir.Value) []int
}
