package reader

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/model"
)

// combiners map vector.kind to the graph's reduce combiners.
var combiners = map[string]string{
	"add": "add", "mul": "mul", "maximumf": "max", "maxnumf": "max", "maxsi": "max", "maxui": "max",
	"minimumf": "min", "minnumf": "min", "minsi": "min", "minui": "min",
}

// ReductionKind is the body of an op's #vector.kind<...>.
func ReductionKind(op *ir.Op) string {
	a, ok := op.Attr("kind")
	if !ok {
		return ""
	}
	if d, ok := a.Value.(*ir.DialectAttr); ok && (d.Name == "vector.kind" || d.Name == "vector") {
		return strings.TrimPrefix(d.Body, "kind<")
	}
	return a.Value.String()
}

// intsOf reads an integer list attribute (an array of integers or a
// dense array).
// intsAttr is an op's attribute name as a list of integers; false when
// the op has none or it is no such list.
func IntsAttr(op *ir.Op, name string) ([]int, bool) {
	na, ok := op.Attr(name)
	if !ok || na == nil {
		return nil, false
	}
	return IntsOf(na.Value)
}

func IntsOf(a ir.Attr) ([]int, bool) {
	switch v := a.(type) {
	case *ir.DenseArrayAttr:
		return v.Ints()
	case *ir.ArrayAttr:
		out := make([]int, len(v.Elems))
		for i, e := range v.Elems {
			ia, ok := e.(*ir.IntAttr)
			if !ok {
				return nil, false
			}
			n, ok := ia.Int64()
			if !ok || n < math.MinInt32 || n > math.MaxInt32 {
				return nil, false
			}
			out[i] = int(n)
		}
		return out, true
	}
	return nil, false
}

// Combiner is the graph's combiner for an op's kind, or "" (reported).
func (b *Builder) Combiner(op *ir.Op) string {
	k := ReductionKind(op)
	if k == "" {
		b.Fail(op, model.CodeBadValue, "%s has no kind attribute: it names its combiner as #vector.kind<add>, <mul>, <maxnumf>, <minnumf> or the like", op.Name)
		return ""
	}
	c, ok := combiners[k]
	if !ok {
		b.Fail(op, model.CodeBadValue, "%s combines with <%s>: the planner's reductions add, multiply, take the maximum or the minimum", op.Name, k)
		return ""
	}
	return c
}

// ToScalar reduces a one-dimensional vector to a scalar, which the graph
// holds as a value of shape [1]: the vector viewed as one row, reduced
// along it.
func (b *Builder) ToScalar(op *ir.Op, src *model.Value, fn string, init *model.Value, res *ir.Value) {
	row := []int{1, src.Shape[0]}
	rv := b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: row}, nil, res.Name+"@row", op.Pos)
	if rv == nil {
		b.Failed[res] = true
		return
	}
	mop := &model.Op{Kind: model.OpReduce, Fn: fn, Axis: 1, Pos: op.Pos, Operands: []*model.Value{rv}}
	if init != nil && len(init.Shape) == 1 && init.Shape[0] == 1 {
		mop.Operands = append(mop.Operands, init)
	}
	if v := b.Add(mop, &model.OpArgs{Axis: 1}, res, res.Name, res.Pos); v != nil {
		b.Scalars[v] = true
	}
}

// ScalarValue is the graph value standing for a scalar, or nil.
func (b *Builder) ScalarValue(v *ir.Value) *model.Value {
	if mv := b.Folded[v]; mv != nil && b.Scalars[mv] {
		return mv
	}
	if mv := b.Vals[v]; mv != nil && b.Scalars[mv] {
		return mv
	}
	return nil
}

// Broadcast reads vector.broadcast and vector.splat. A scalar the graph
// does not hold broadcast is the same in every element: a constant. A
// vector broadcast adds leading dimensions and grows dimensions of extent
// 1: one graph broadcast for each.
func (b *Builder) Broadcast(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	o := op.Operands[0]
	var src *model.Value
	if !IsVector(o.Value) {
		if src = b.ScalarValue(o.Value); src == nil {
			b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
			return
		}
	} else if u := b.unsq[o.Value]; u != nil {
		if b.broadcastUnsqueezed(op, u, shape, res) {
			return
		}
		src = b.emitUnsqueeze(o.Value, u)
	} else {
		src = b.Value(o)
	}
	if src == nil {
		b.Failed[res] = true
		return
	}
	lead := len(shape) - len(src.Shape)
	if lead < 0 {
		b.Fail(op, model.CodeRankMismatch, "%s of %v to %v lowers the rank", op.Name, src.Shape, shape)
		return
	}
	var grow []int
	for d := lead; d < len(shape); d++ {
		s := src.Shape[d-lead]
		switch {
		case s == shape[d]:
		case s == 1:
			grow = append(grow, d)
		default:
			b.Fail(op, model.CodeShapeMismatch, "%s of %v to %v: dimension %d has extent %d, neither %d nor 1", op.Name, src.Shape, shape, d-lead, s, shape[d])
			return
		}
	}
	if lead == 0 && len(grow) == 0 {
		b.Folded[res] = src // the same vector
		return
	}
	if lead > 0 {
		added := make([]int, lead)
		for i := range added {
			added[i] = i
		}
		mid := append(slices.Clone(shape[:lead]), src.Shape...)
		name, at := res.Name, res.Pos
		var r *ir.Value = res
		if len(grow) > 0 {
			name, r, at = res.Name+"@lead", nil, op.Pos
		}
		src = b.Add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{src}, Dims: added}, &model.OpArgs{Shape: mid, Dims: added}, r, name, at)
		if src == nil || len(grow) == 0 {
			if src == nil {
				b.Failed[res] = true
			}
			return
		}
	}
	b.Add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{src}, Dims: grow}, &model.OpArgs{Shape: shape, Dims: grow}, res, res.Name, res.Pos)
}

// broadcastUnsqueezed reads a broadcast of a shape_cast that put
// dimensions of extent 1 into a vector as one broadcast of that vector
// along new dimensions, when it grows none of the vector's own; false
// when it does.
func (b *Builder) broadcastUnsqueezed(op *ir.Op, u *unsqueeze, shape []int, res *ir.Value) bool {
	castRank := len(u.src.Shape) + len(u.inserted)
	lead := len(shape) - castRank
	if lead < 0 {
		return false
	}
	var dims []int
	for d := range lead {
		dims = append(dims, d)
	}
	k := 0
	for j := 0; j < castRank; j++ {
		if slices.Contains(u.inserted, j) {
			dims = append(dims, lead+j)
			continue
		}
		if u.src.Shape[k] != shape[lead+j] {
			return false
		}
		k++
	}
	b.Add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{u.src}, Dims: dims}, &model.OpArgs{Shape: shape, Dims: dims}, res, res.Name, res.Pos)
	return true
}

// emitUnsqueeze writes a deferred shape_cast after all.
func (b *Builder) emitUnsqueeze(v *ir.Value, u *unsqueeze) *model.Value {
	vt, _ := b.AsVector(v.Type)
	shape := vt.Shape
	delete(b.unsq, v)
	return b.Add(&model.Op{Kind: model.OpShapeCast, Pos: v.Def.Pos, Operands: []*model.Value{u.src}}, &model.OpArgs{Shape: slices.Clone(shape)}, v, v.Name, v.Pos)
}

// inserted finds the dimensions of extent 1 that to has and from lacks,
// when to is from with such dimensions put in; false otherwise.
func insertedOnes(from, to []int) ([]int, bool) {
	if len(to) <= len(from) {
		return nil, false
	}
	var ins []int
	i := 0
	for j, d := range to {
		switch {
		case i < len(from) && d == from[i]:
			i++
		case d == 1:
			ins = append(ins, j)
		default:
			return nil, false
		}
	}
	return ins, i == len(from)
}

// ShapeCast reads vector.shape_cast; one that only puts dimensions of
// extent 1 into a vector for a broadcast to grow is read into that
// broadcast.
func (b *Builder) ShapeCast(op *ir.Op) {
	res := op.Results[0]
	shape, _, ok := b.ResultVector(res)
	if !ok {
		return
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	if ins, ok := insertedOnes(src.Shape, shape); ok && len(res.Uses) == 1 && (res.Uses[0].Op.Name == "vector.broadcast" || res.Uses[0].Op.Name == "tt.broadcast") {
		b.unsq[res] = &unsqueeze{src: src, inserted: ins}
		return
	}
	b.Reshape(op, src, shape, res)
}

// Reshape views src in shape as res: a shape_cast, or src itself when the
// shape is its own.
func (b *Builder) Reshape(op *ir.Op, src *model.Value, shape []int, res *ir.Value) {
	if slices.Equal(src.Shape, shape) {
		b.Folded[res] = src
		return
	}
	b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: slices.Clone(shape)}, res, res.Name, res.Pos)
}

// forLoop reads scf.for as a loop: its vector iter_args are the values it
// carries; constant bounds give its trip count, else --trips.
func (b *Builder) forLoop(op *ir.Op) {
	if len(op.Operands) < 3 || len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		b.Fail(op, model.CodeBadValue, "scf.for needs a lower bound, an upper bound, a step and one body block")
		return
	}
	inits := op.Operands[3:]
	blk := op.Regions[0].Blocks[0]
	if len(blk.Args) != 1+len(inits) {
		b.Fail(op, model.CodeRankMismatch, "scf.for has %d init(s) but its body takes %d iter_arg(s) after the induction variable", len(inits), len(blk.Args)-1)
		return
	}
	if len(op.Results) != len(inits) {
		b.Fail(op, model.CodeRankMismatch, "scf.for has %d iter_arg(s) but %d result(s): it gives each iter_arg's last value as a result", len(inits), len(op.Results))
		return
	}
	var yield *ir.Op
	if n := len(blk.Ops); n > 0 && blk.Ops[n-1].Name == "scf.yield" {
		yield = blk.Ops[n-1]
	}
	switch {
	case yield == nil && len(inits) > 0:
		b.Fail(op, model.CodeMissingKey, "scf.for carries %d iter_arg(s) but its body ends without an scf.yield", len(inits))
		return
	case yield != nil && len(yield.Operands) != len(inits):
		b.Fail(op, model.CodeRankMismatch, "scf.yield at %s yields %d value(s) but the loop carries %d iter_arg(s)", yield.Pos, len(yield.Operands), len(inits))
		return
	}
	for i, in := range inits {
		arg, r := blk.Args[i+1], op.Results[i]
		at := in.Value.Type.String()
		switch {
		case arg.Type.String() != at:
			b.Fail(op, model.CodeShapeMismatch, "iter_arg %s is %s but its init %s is %s", arg, arg.Type, in.Value, at)
			return
		case r.Type.String() != at:
			b.Fail(op, model.CodeShapeMismatch, "result %s is %s but iter_arg %s is %s", r, r.Type, arg, at)
			return
		case yield != nil && yield.Operands[i].Value.Type.String() != at:
			y := yield.Operands[i]
			b.Fail(op, model.CodeShapeMismatch, "scf.yield at %s yields %s, a %s, for iter_arg %s, a %s", y.Pos, y.Value, y.Value.Type, arg, at)
			return
		}
	}
	trips, dynamic, ok := b.trips(op)
	if !ok {
		return
	}
	if b.depth >= 8 {
		b.Fail(op, model.CodeTooLarge, "loops nest more than 8 deep")
		return
	}
	name := "scf.for@" + strconv.Itoa(op.Pos.Line)
	if len(op.Results) > 0 {
		name, _, _ = strings.Cut(op.Results[0].Name, "#")
	}
	mop := &model.Op{Kind: model.OpLoop, Pos: op.Pos, Name: Unique(b.OpNames, name)}
	l := &model.Loop{Name: mop.Name, Trips: trips, Dynamic: dynamic, Parent: b.Loop, Op: mop, Pos: op.Pos}
	mop.Body = l
	var carried []int
	for i, in := range inits {
		if IsVector(blk.Args[i+1]) && !b.Front.Free(blk.Args[i+1]) {
			carried = append(carried, i)
		}
		b.Front.Carry(in.Value, blk.Args[i+1], op.Results[i])
	}
	if !b.carryInits(op, mop, l, inits, carried, func(i int) []*ir.Value { return []*ir.Value{blk.Args[i+1]} }) {
		return
	}
	outer := b.Loop
	b.Loop = l
	b.depth++
	for _, o := range blk.Ops {
		if o != yield {
			b.Front.ReadOp(o)
		}
	}
	b.depth--
	b.Loop = outer
	b.closeLoop(op, mop, l, yield, carried)
}

// closeLoop ends reading a loop op (scf.for, scf.while) whose body has
// been read: the carried values' yields, from its yield's operands, and
// its results, one for each carried value, and then the loop op itself.
func (b *Builder) closeLoop(op *ir.Op, mop *model.Op, l *model.Loop, yield *ir.Op, carried []int) {
	for k, i := range carried {
		y := b.Value(yield.Operands[i])
		if y == nil {
			b.Fail(op, model.CodeUnknownName, "scf.yield's %s is not read", yield.Operands[i].Value)
			return
		}
		l.Yields = append(l.Yields, y)
		y.Uses = append(y.Uses, model.Use{Op: mop, Index: k, Yield: true})
	}
	for k, i := range carried {
		r := op.Results[i]
		arg := l.Args[k]
		v := &model.Value{Name: Unique(b.Names, r.Name), Shape: slices.Clone(arg.Shape), DType: arg.DType, Pos: r.Pos, Def: mop}
		b.G.Values = append(b.G.Values, v)
		b.Vals[r] = v
		l.Results = append(l.Results, v)
	}
	b.Emit(mop)
}

// AssumedTrips is the trip count a loop whose bounds are not known is
// priced at when --trips gives none: every scf.while, which states no
// bounds, and in a TTGIR kernel an scf.for whose bounds are known only at
// run time (that front end's Builder.DefaultTrips), as Triton's loops
// over cdiv(K, BLOCK_K) are. The plan says so at the loop
// (model.Loop.Dynamic). 16 is the count the repository's Triton kernels
// are planned at (docs/triton.md).
const AssumedTrips = 16

// whileLoop reads scf.while as a loop of AssumedTrips (or --trips)
// iterations: its before region's tensor arguments are the values it
// carries, from its inits, yielded by the after region's scf.yield. The
// planner reads the form whose scf.condition passes the before region's
// arguments on unchanged, in order (the form Triton and MLIR's
// scf.for-to-while lowering write; a conversion the front end folds may
// stand between), so that the after region's arguments and the loop's
// results are the carried values themselves
// (mlir/include/mlir/Dialect/SCF/IR/SCFOps.td, WhileOp: the condition's
// operands are passed to the after region, and are the op's results when
// the condition is false).
func (b *Builder) whileLoop(op *ir.Op) {
	if len(op.Regions) != 2 || len(op.Regions[0].Blocks) != 1 || len(op.Regions[1].Blocks) != 1 {
		b.Fail(op, model.CodeBadValue, "scf.while needs a before and an after region of one block each")
		return
	}
	inits := op.Operands
	before, after := op.Regions[0].Blocks[0], op.Regions[1].Blocks[0]
	last := func(blk *ir.Block, name string) *ir.Op {
		if n := len(blk.Ops); n > 0 && blk.Ops[n-1].Name == name {
			return blk.Ops[n-1]
		}
		return nil
	}
	cond, yield := last(before, "scf.condition"), last(after, "scf.yield")
	switch {
	case cond == nil:
		b.Fail(op, model.CodeMissingKey, "scf.while's before region at %s ends without an scf.condition", op.Regions[0].Pos)
		return
	case yield == nil:
		b.Fail(op, model.CodeMissingKey, "scf.while's after region at %s ends without an scf.yield", op.Regions[1].Pos)
		return
	case len(before.Args) != len(inits) || len(yield.Operands) != len(inits):
		b.Fail(op, model.CodeRankMismatch, "scf.while has %d init(s), its before region %d argument(s) and its scf.yield at %s %d value(s): each is one per carried value", len(inits), len(before.Args), yield.Pos, len(yield.Operands))
		return
	case len(cond.Operands)-1 != len(after.Args) || len(op.Results) != len(after.Args):
		b.Fail(op, model.CodeRankMismatch, "scf.condition at %s passes %d value(s), but scf.while's after region takes %d and the op gives %d", cond.Pos, len(cond.Operands)-1, len(after.Args), len(op.Results))
		return
	}
	var carried []int
	for i, in := range inits {
		arg := before.Args[i]
		if !IsVector(arg) || b.Front.Free(arg) {
			continue
		}
		y := yield.Operands[i].Value
		if arg.Type.String() != in.Value.Type.String() || y.Type.String() != in.Value.Type.String() {
			b.Fail(op, model.CodeShapeMismatch, "scf.while carries %s as %s from the init %s, a %s, and its scf.yield gives %s, a %s", arg, arg.Type, in.Value, in.Value.Type, y, y.Type)
			return
		}
		carried = append(carried, i)
	}
	if b.depth >= 8 {
		b.Fail(op, model.CodeTooLarge, "loops nest more than 8 deep")
		return
	}
	trips := AssumedTrips
	if b.Opt.Trips > 0 {
		trips = b.Opt.Trips
	}
	name := "scf.while@" + strconv.Itoa(op.Pos.Line)
	if len(op.Results) > 0 {
		name, _, _ = strings.Cut(op.Results[0].Name, "#")
	}
	mop := &model.Op{Kind: model.OpLoop, Pos: op.Pos, Name: Unique(b.OpNames, name)}
	l := &model.Loop{Name: mop.Name, Trips: trips, Dynamic: true, Parent: b.Loop, Op: mop, Pos: op.Pos}
	mop.Body = l
	for i, in := range inits {
		b.Front.Carry(in.Value, before.Args[i], op.Results[i])
	}
	// An after region's argument is its before region's, passed on
	// unchanged by scf.condition: one value for both.
	if !b.carryInits(op, mop, l, inits, carried, func(i int) []*ir.Value { return []*ir.Value{before.Args[i], after.Args[i]} }) {
		return
	}
	outer := b.Loop
	b.Loop = l
	b.depth++
	for _, blk := range []*ir.Block{before, after} {
		for _, o := range blk.Ops {
			if o != cond && o != yield {
				b.Front.ReadOp(o)
			}
		}
		if blk == before && !b.passesOn(op, cond, carried, l) {
			b.depth--
			b.Loop = outer
			return
		}
	}
	b.depth--
	b.Loop = outer
	b.closeLoop(op, mop, l, yield, carried)
}

// passesOn reports whether a while loop's scf.condition passes on each
// carried value as it came into the before region (that value itself, or
// what reads as it: a conversion of it the front end folds), as the
// reader needs; it reports the first that it does not.
func (b *Builder) passesOn(op, cond *ir.Op, carried []int, l *model.Loop) bool {
	for k, i := range carried {
		var got *model.Value
		if i+1 < len(cond.Operands) {
			v := cond.Operands[i+1].Value
			if got = b.Folded[v]; got == nil {
				got = b.Vals[v]
			}
		}
		if got != l.Args[k] {
			for _, r := range op.Results {
				b.Failed[r] = true
			}
			b.Fail(cond, model.CodeBadValue, "scf.condition passes %s on in place of scf.while's carried %s: the planner reads a while loop whose condition passes its before region's arguments on unchanged, in order", condValue(cond, i), op.Regions[0].Blocks[0].Args[i])
			return false
		}
	}
	return true
}

// condValue names what scf.condition passes on for carried value i.
func condValue(cond *ir.Op, i int) string {
	if i+1 < len(cond.Operands) {
		return cond.Operands[i+1].Value.String()
	}
	return "nothing"
}

// trips is a loop's trip count from its constant bounds, else the one
// --trips assumes, else the front end's default (DefaultTrips, said in the
// graph's provenance).
func (b *Builder) trips(op *ir.Op) (int, bool, bool) {
	lb, ok1 := b.ints[op.Operands[0].Value]
	ub, ok2 := b.ints[op.Operands[1].Value]
	step, ok3 := b.ints[op.Operands[2].Value]
	if !(ok1 && ok2 && ok3) {
		if b.Opt.Trips > 0 {
			return b.Opt.Trips, true, true
		}
		if b.DefaultTrips > 0 {
			b.G.Provenance = append(b.G.Provenance, fmt.Sprintf("trips %d for the scf.for at %s, whose bounds are known only at run time: the reader's default (--trips N gives another)", b.DefaultTrips, op.Pos))
			return b.DefaultTrips, true, true
		}
		var which []string
		for i, ok := range []bool{ok1, ok2, ok3} {
			if !ok {
				which = append(which, fmt.Sprintf("%s (%s)", op.Operands[i].Value, []string{"lower bound", "upper bound", "step"}[i]))
			}
		}
		b.Fail(op, model.CodeMissingKey, "the trip count of scf.for is known only at run time: %s is not an arith.constant; give --trips N, the count to price its body at", strings.Join(which, " and "))
		return 0, false, false
	}
	if step <= 0 {
		b.Fail(op, model.CodeBadValue, "scf.for steps by %d: a loop steps forward", step)
		return 0, false, false
	}
	if ub <= lb {
		b.Fail(op, model.CodeBadValue, "scf.for from %d to %d runs no iteration: a loop runs at least once", lb, ub)
		return 0, false, false
	}
	n := (ub - lb + step - 1) / step
	if n > 1<<30 || ub-lb < 0 {
		b.Fail(op, model.CodeTooLarge, "scf.for runs more than %d iterations", 1<<30)
		return 0, false, false
	}
	return int(n), false, true
}

// Finish checks what only the whole graph shows, and names the notation
// its plans write layouts in: the one its pins are written in, else
// notation. A graph with no op (a kernel on scalars alone) is no error: its
// plan is empty and says so.
func (b *Builder) Finish(notation string) {
	g := b.G
	g.Walk(func(op *model.Op) {
		if op.Info().Given && op.Result != nil && op.Result.Pin == nil && !b.FreeArguments {
			b.Errorf(op.Pos, model.CodeMissingKey, "%%%s arrives in registers in the layout its caller chose: anchor it with iree_vector_ext.to_layout", op.Result.Name)
		}
	})
	for _, v := range g.Values {
		if v.Pin != nil {
			g.Notation = v.Pin.Notation.Kind()
			break
		}
	}
	if g.Notation == "" {
		g.Notation = notation
	}
	slices.SortStableFunc(g.Buffers, func(x, y *model.Buffer) int {
		if x.Pos.Line != y.Pos.Line {
			return x.Pos.Line - y.Pos.Line
		}
		return x.Pos.Col - y.Pos.Col
	})
}

// Unsqueezed reports whether v is a shape_cast's (or expand_dims's) result
// that only puts dimensions of extent 1 into a value, read into the
// broadcast that grows them: the graph has no value for v.
func (b *Builder) Unsqueezed(v *ir.Value) bool {
	_, ok := b.unsq[v]
	return ok
}

// Transpose reads op as a transpose of its first operand by the list of
// dimensions in its attribute attr (vector.transpose's permutation,
// tt.trans's order: result dimension i is the operand's dimension
// perm[i]); nil where the operand is not read or the list is not one.
func (b *Builder) Transpose(op *ir.Op, attr string) *model.Value {
	res := op.Results[0]
	src := b.Source(op, res)
	if src == nil {
		return nil
	}
	perm, ok := IntsAttr(op, attr)
	if !ok {
		b.Fail(op, model.CodeBadValue, "%s's %s is not a list of dimensions", op.Name, attr)
		return nil
	}
	return b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
}

// carryInits reads the inits of a loop's carried values (carried indexes
// inits) as the loop op's operands, and makes each one's value inside the
// loop, which every block argument args(i) gives names to (the first
// names it); false after a failure, reported at op.
func (b *Builder) carryInits(op *ir.Op, mop *model.Op, l *model.Loop, inits []*ir.Operand, carried []int, args func(i int) []*ir.Value) bool {
	for k, i := range carried {
		v := b.Value(inits[i])
		if v == nil {
			b.Fail(op, model.CodeUnknownName, "%s's init %s is not read", op.Name, inits[i].Value)
			return false
		}
		l.Inits = append(l.Inits, v)
		v.Uses = append(v.Uses, model.Use{Op: mop, Index: k})
	}
	for k, i := range carried {
		as := args(i)
		init := l.Inits[k]
		v := &model.Value{Name: Unique(b.Names, as[0].Name), Shape: slices.Clone(init.Shape), DType: init.DType, Pos: as[0].Pos, Arg: l}
		b.G.Values = append(b.G.Values, v)
		for _, a := range as {
			b.Vals[a] = v
		}
		l.Args = append(l.Args, v)
	}
	return true
}
