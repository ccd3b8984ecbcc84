package mlir

import "planner/mlir/ir"

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/model"
	"planner/notation"
)

// combiners map vector.kind to the graph's reduce combiners.
var combiners = map[string]string{
	"add": "add", "mul": "mul", "maximumf": "max", "maxnumf": "max", "maxsi": "max", "maxui": "max",
	"minimumf": "min", "minnumf": "min", "minsi": "min", "minui": "min",
}

// reductionKind is the body of an op's #vector.kind<...>.
func reductionKind(op *ir.Op) string {
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
func intsAttr(op *ir.Op, name string) ([]int, bool) {
	na, ok := op.Attr(name)
	if !ok || na == nil {
		return nil, false
	}
	return intsOf(na.Value)
}

func intsOf(a ir.Attr) ([]int, bool) {
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

// contract reads vector.contract as an mma: its indexing maps must be a
// matrix product's, any operand transposition read as a transpose before
// the mma (whose B is K×N).
func (b *builder) contract(op *ir.Op) {
	res := op.Results[0]
	if !isVector(res) {
		b.fail(op, model.CodeBadValue, "vector.contract gives the scalar %s: the planner reads contractions into a matrix", res.Type)
		return
	}
	if k := reductionKind(op); k != "" && k != "add" {
		b.fail(op, model.CodeBadValue, "vector.contract combines with <%s>: the planner reads matrix products (kind add)", k)
		return
	}
	it, _ := op.Attr("iterator_types")
	maps, _ := op.Attr("indexing_maps")
	if it == nil || maps == nil {
		b.fail(op, model.CodeMissingKey, "vector.contract needs indexing_maps and iterator_types")
		return
	}
	iters, ok := it.Value.(*ir.ArrayAttr)
	if !ok {
		b.fail(op, model.CodeBadValue, "vector.contract's iterator_types is %s, not a list", it.Value)
		return
	}
	red := -1
	var kinds []string
	for i, e := range iters.Elems {
		var s string
		switch v := e.(type) {
		case *ir.StringAttr:
			s = v.Value
		case *ir.DialectAttr:
			s = v.Body
		}
		kinds = append(kinds, s)
		if s == "reduction" {
			if red >= 0 {
				red = -2
			} else if red == -1 {
				red = i
			}
		}
	}
	if len(kinds) != 3 || red < 0 {
		b.errorf(it.ValuePos, model.CodeBadValue, "vector.contract iterates %v: the planner reads matrix products, two parallel iterators and one reduction (a batched or multi-reduction contraction is not read)", kinds)
		b.failed[res] = true
		return
	}
	ma, ok := maps.Value.(*ir.ArrayAttr)
	var dims [3][]int
	if ok && len(ma.Elems) == 3 {
		for i, e := range ma.Elems {
			am, isMap := e.(*ir.AffineMapAttr)
			if !isMap || len(am.Map.Dims) != 3 || len(am.Map.Results) != 2 {
				ok = false
				break
			}
			d, plain := am.Map.ResultDims()
			if !plain || slices.Contains(d, -1) || d[0] == d[1] {
				ok = false
				break
			}
			dims[i] = d
		}
	} else {
		ok = false
	}
	bad := func(why string) {
		b.errorf(maps.ValuePos, model.CodeBadValue, "vector.contract's indexing_maps %s are not a matrix product's: %s", maps.Value, why)
		b.failed[res] = true
	}
	if !ok {
		bad("each of the three maps takes the three iterators to two of them")
		return
	}
	m, n := dims[2][0], dims[2][1]
	if m == red || n == red {
		bad("the accumulator's map must name the two parallel iterators")
		return
	}
	transposedA, transposedB := false, false
	switch {
	case dims[0][0] == m && dims[0][1] == red:
	case dims[0][0] == red && dims[0][1] == m:
		transposedA = true
	default:
		bad("A must be M×K or K×M")
		return
	}
	switch {
	case dims[1][0] == red && dims[1][1] == n:
	case dims[1][0] == n && dims[1][1] == red:
		transposedB = true
	default:
		bad("B must be K×N or N×K")
		return
	}
	operand := func(i int, transposed bool, role string) *model.Value {
		v := b.value(op.Operands[i])
		if v == nil || !transposed {
			return v
		}
		perm := []int{1, 0}
		return b.add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{v}, Perm: perm}, &model.OpArgs{Perm: perm}, nil, res.Name+"@"+role, op.Pos)
	}
	a := operand(0, transposedA, "a")
	bb := operand(1, transposedB, "b")
	c := b.value(op.Operands[2])
	if a == nil || bb == nil || c == nil {
		b.failed[res] = true
		return
	}
	b.add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: []*model.Value{a, bb, c}}, &model.OpArgs{}, res, res.Name, res.Pos)
}

// combiner is the graph's combiner for an op's kind, or "" (reported).
func (b *builder) combiner(op *ir.Op) string {
	k := reductionKind(op)
	if k == "" {
		b.fail(op, model.CodeBadValue, "%s has no kind attribute: it names its combiner as #vector.kind<add>, <mul>, <maxnumf>, <minnumf> or the like", op.Name)
		return ""
	}
	c, ok := combiners[k]
	if !ok {
		b.fail(op, model.CodeBadValue, "%s combines with <%s>: the planner's reductions add, multiply, take the maximum or the minimum", op.Name, k)
		return ""
	}
	return c
}

// multiReduction reads vector.multi_reduction over one dimension as a
// reduce; an accumulator that is the kind's identity is no init.
func (b *builder) multiReduction(op *ir.Op) {
	res := op.Results[0]
	fn := b.combiner(op)
	if fn == "" {
		return
	}
	dims, ok := intsAttr(op, "reduction_dims")
	if !ok {
		b.fail(op, model.CodeBadValue, "vector.multi_reduction's reduction_dims is not a list of dimensions")
		return
	}
	src := b.source(op, res)
	if src == nil {
		return
	}
	if len(dims) != 1 {
		b.fail(op, model.CodeBadValue, "vector.multi_reduction reduces dimensions %v at once: the planner's reduce takes one dimension (write one multi_reduction per dimension)", dims)
		return
	}
	var init *model.Value
	if !b.identityInit(ir.Use{Op: op, Index: 1}) {
		if init = b.value(op.Operands[1]); init == nil {
			b.failed[res] = true
			return
		}
	}
	axis := dims[0]
	if len(src.Shape) == 1 && axis == 0 {
		b.toScalar(op, src, fn, init, res)
		return
	}
	mop := &model.Op{Kind: model.OpReduce, Fn: fn, Axis: axis, Pos: op.Pos, Operands: []*model.Value{src}}
	if init != nil {
		mop.Operands = append(mop.Operands, init)
	}
	b.add(mop, &model.OpArgs{Axis: axis}, res, res.Name, res.Pos)
}

// toScalar reduces a one-dimensional vector to a scalar, which the graph
// holds as a value of shape [1]: the vector viewed as one row, reduced
// along it.
func (b *builder) toScalar(op *ir.Op, src *model.Value, fn string, init *model.Value, res *ir.Value) {
	row := []int{1, src.Shape[0]}
	rv := b.add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: row}, nil, res.Name+"@row", op.Pos)
	if rv == nil {
		b.failed[res] = true
		return
	}
	mop := &model.Op{Kind: model.OpReduce, Fn: fn, Axis: 1, Pos: op.Pos, Operands: []*model.Value{rv}}
	if init != nil && len(init.Shape) == 1 && init.Shape[0] == 1 {
		mop.Operands = append(mop.Operands, init)
	}
	if v := b.add(mop, &model.OpArgs{Axis: 1}, res, res.Name, res.Pos); v != nil {
		b.scalars[v] = true
	}
}

// reduction reads vector.reduction (a one-dimensional vector to a
// scalar). An accumulator the graph holds (another reduction's scalar)
// is the init; a scalar it does not hold (computed by scalar code) adds
// no layout and is left out.
func (b *builder) reduction(op *ir.Op) {
	res := op.Results[0]
	fn := b.combiner(op)
	if fn == "" {
		return
	}
	src := b.source(op, res)
	if src == nil {
		return
	}
	if len(src.Shape) != 1 {
		b.fail(op, model.CodeRankMismatch, "vector.reduction reduces a one-dimensional vector, found %v", src.Shape)
		return
	}
	var init *model.Value
	if len(op.Operands) > 1 {
		if mv := b.vals[op.Operands[1].Value]; mv != nil && b.scalars[mv] {
			init = mv
		}
	}
	b.toScalar(op, src, fn, init, res)
}

// scalarValue is the graph value standing for a scalar, or nil.
func (b *builder) scalarValue(v *ir.Value) *model.Value {
	if mv := b.folded[v]; mv != nil && b.scalars[mv] {
		return mv
	}
	if mv := b.vals[v]; mv != nil && b.scalars[mv] {
		return mv
	}
	return nil
}

// broadcast reads vector.broadcast and vector.splat. A scalar the graph
// does not hold broadcast is the same in every element: a constant. A
// vector broadcast adds leading dimensions and grows dimensions of extent
// 1: one graph broadcast for each.
func (b *builder) broadcast(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	o := op.Operands[0]
	var src *model.Value
	if !isVector(o.Value) {
		if src = b.scalarValue(o.Value); src == nil {
			b.add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
			return
		}
	} else if u := b.unsq[o.Value]; u != nil {
		if b.broadcastUnsqueezed(op, u, shape, res) {
			return
		}
		src = b.emitUnsqueeze(o.Value, u)
	} else {
		src = b.value(o)
	}
	if src == nil {
		b.failed[res] = true
		return
	}
	lead := len(shape) - len(src.Shape)
	if lead < 0 {
		b.fail(op, model.CodeRankMismatch, "%s of %v to %v lowers the rank", op.Name, src.Shape, shape)
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
			b.fail(op, model.CodeShapeMismatch, "%s of %v to %v: dimension %d has extent %d, neither %d nor 1", op.Name, src.Shape, shape, d-lead, s, shape[d])
			return
		}
	}
	if lead == 0 && len(grow) == 0 {
		b.folded[res] = src // the same vector
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
		src = b.add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{src}, Dims: added}, &model.OpArgs{Shape: mid, Dims: added}, r, name, at)
		if src == nil || len(grow) == 0 {
			if src == nil {
				b.failed[res] = true
			}
			return
		}
	}
	b.add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{src}, Dims: grow}, &model.OpArgs{Shape: shape, Dims: grow}, res, res.Name, res.Pos)
}

// broadcastUnsqueezed reads a broadcast of a shape_cast that put
// dimensions of extent 1 into a vector as one broadcast of that vector
// along new dimensions, when it grows none of the vector's own; false
// when it does.
func (b *builder) broadcastUnsqueezed(op *ir.Op, u *unsqueeze, shape []int, res *ir.Value) bool {
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
	b.add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{u.src}, Dims: dims}, &model.OpArgs{Shape: shape, Dims: dims}, res, res.Name, res.Pos)
	return true
}

// emitUnsqueeze writes a deferred shape_cast after all.
func (b *builder) emitUnsqueeze(v *ir.Value, u *unsqueeze) *model.Value {
	vt, _ := b.asVector(v.Type)
	shape := vt.Shape
	delete(b.unsq, v)
	return b.add(&model.Op{Kind: model.OpShapeCast, Pos: v.Def.Pos, Operands: []*model.Value{u.src}}, &model.OpArgs{Shape: slices.Clone(shape)}, v, v.Name, v.Pos)
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

func (b *builder) transpose(op *ir.Op) {
	res := op.Results[0]
	src := b.source(op, res)
	if src == nil {
		return
	}
	perm, ok := intsAttr(op, "permutation")
	if !ok {
		b.fail(op, model.CodeBadValue, "vector.transpose's permutation is not a list of dimensions")
		return
	}
	b.add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
}

// shapeCast reads vector.shape_cast; one that only puts dimensions of
// extent 1 into a vector for a broadcast to grow is read into that
// broadcast.
func (b *builder) shapeCast(op *ir.Op) {
	res := op.Results[0]
	shape, _, ok := b.resultVector(res)
	if !ok {
		return
	}
	src := b.source(op, res)
	if src == nil {
		return
	}
	if ins, ok := insertedOnes(src.Shape, shape); ok && len(res.Uses) == 1 && (res.Uses[0].Op.Name == "vector.broadcast" || res.Uses[0].Op.Name == "tt.broadcast") {
		b.unsq[res] = &unsqueeze{src: src, inserted: ins}
		return
	}
	b.reshape(op, src, shape, res)
}

// reshape views src in shape as res: a shape_cast, or src itself when the
// shape is its own.
func (b *builder) reshape(op *ir.Op, src *model.Value, shape []int, res *ir.Value) {
	if slices.Equal(src.Shape, shape) {
		b.folded[res] = src
		return
	}
	b.add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: slices.Clone(shape)}, res, res.Name, res.Pos)
}

// position reads vector.extract's or vector.insert's static position; a
// dynamic entry is refused.
func (b *builder) position(op *ir.Op) ([]int, bool) {
	pa, _ := op.Attr("static_position")
	if pa == nil {
		b.fail(op, model.CodeMissingKey, "%s has no static_position", op.Name)
		return nil, false
	}
	da, ok := pa.Value.(*ir.DenseArrayAttr)
	if !ok {
		b.fail(op, model.CodeBadValue, "%s's static_position is %s, not array<i64: ...>", op.Name, pa.Value)
		return nil, false
	}
	pos := make([]int, len(da.Values))
	for i, s := range da.Values {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n == math.MinInt64 {
			b.fail(op, model.CodeBadValue, "%s at a position computed at run time: the planner reads sub-vectors at constant positions", op.Name)
			return nil, false
		}
		pos[i] = int(n)
	}
	return pos, true
}

// wholeLeading reports whether the leading dimensions a position indexes
// all have extent 1, so that the sub-vector is the whole vector.
func wholeLeading(shape []int, n int) bool {
	if n > len(shape) {
		return false
	}
	for _, d := range shape[:n] {
		if d != 1 {
			return false
		}
	}
	return true
}

// extract reads vector.extract of the whole vector (its leading indexed
// dimensions of extent 1) as a shape_cast; any other extract takes a part
// of a vector, which no op of the graph does.
func (b *builder) extract(op *ir.Op) {
	res := op.Results[0]
	src := b.source(op, res)
	if src == nil {
		return
	}
	pos, ok := b.position(op)
	if !ok {
		return
	}
	if !wholeLeading(src.Shape, len(pos)) {
		b.fail(op, model.CodeBadValue, "vector.extract takes position %v of %v, a part of the vector: the planner reads an extract only from dimensions of extent 1 (a shape_cast), as its graphs have no op that slices a vector", pos, src.Shape)
		return
	}
	shape := []int{1}
	if isVector(res) {
		var vok bool
		if shape, _, vok = b.vector(res.Type, res.Pos, res.String()); !vok {
			b.failed[res] = true
			return
		}
	}
	b.reshape(op, src, shape, res)
	if !isVector(res) {
		if mv := b.vals[res]; mv != nil {
			b.scalars[mv] = true
		} else if mv := b.folded[res]; mv != nil {
			b.scalars[mv] = true
		}
	}
}

// insert reads vector.insert into the whole of its destination (the
// leading indexed dimensions of extent 1) as the inserted value viewed
// in the destination's shape.
func (b *builder) insert(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	pos, ok := b.position(op)
	if !ok {
		return
	}
	if !wholeLeading(shape, len(pos)) {
		b.fail(op, model.CodeBadValue, "vector.insert writes position %v of %v, a part of the vector: the planner reads an insert only into dimensions of extent 1 (the value replaces the whole vector), as its graphs have no op that updates part of a vector", pos, shape)
		return
	}
	o := op.Operands[0]
	var src *model.Value
	if isVector(o.Value) {
		src = b.value(o)
	} else if src = b.scalarValue(o.Value); src == nil {
		b.add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
		return
	}
	if src == nil {
		b.failed[res] = true
		return
	}
	b.reshape(op, src, shape, res)
}

// forLoop reads scf.for as a loop: its vector iter_args are the values it
// carries; constant bounds give its trip count, else --trips.
func (b *builder) forLoop(op *ir.Op) {
	if len(op.Operands) < 3 || len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		b.fail(op, model.CodeBadValue, "scf.for needs a lower bound, an upper bound, a step and one body block")
		return
	}
	inits := op.Operands[3:]
	blk := op.Regions[0].Blocks[0]
	if len(blk.Args) != 1+len(inits) {
		b.fail(op, model.CodeRankMismatch, "scf.for has %d init(s) but its body takes %d iter_arg(s) after the induction variable", len(inits), len(blk.Args)-1)
		return
	}
	if len(op.Results) != len(inits) {
		b.fail(op, model.CodeRankMismatch, "scf.for has %d iter_arg(s) but %d result(s): it gives each iter_arg's last value as a result", len(inits), len(op.Results))
		return
	}
	var yield *ir.Op
	if n := len(blk.Ops); n > 0 && blk.Ops[n-1].Name == "scf.yield" {
		yield = blk.Ops[n-1]
	}
	switch {
	case yield == nil && len(inits) > 0:
		b.fail(op, model.CodeMissingKey, "scf.for carries %d iter_arg(s) but its body ends without an scf.yield", len(inits))
		return
	case yield != nil && len(yield.Operands) != len(inits):
		b.fail(op, model.CodeRankMismatch, "scf.yield at %s yields %d value(s) but the loop carries %d iter_arg(s)", yield.Pos, len(yield.Operands), len(inits))
		return
	}
	for i, in := range inits {
		arg, r := blk.Args[i+1], op.Results[i]
		at := in.Value.Type.String()
		switch {
		case arg.Type.String() != at:
			b.fail(op, model.CodeShapeMismatch, "iter_arg %s is %s but its init %s is %s", arg, arg.Type, in.Value, at)
			return
		case r.Type.String() != at:
			b.fail(op, model.CodeShapeMismatch, "result %s is %s but iter_arg %s is %s", r, r.Type, arg, at)
			return
		case yield != nil && yield.Operands[i].Value.Type.String() != at:
			y := yield.Operands[i]
			b.fail(op, model.CodeShapeMismatch, "scf.yield at %s yields %s, a %s, for iter_arg %s, a %s", y.Pos, y.Value, y.Value.Type, arg, at)
			return
		}
	}
	trips, dynamic, ok := b.trips(op)
	if !ok {
		return
	}
	if b.depth >= 8 {
		b.fail(op, model.CodeTooLarge, "loops nest more than 8 deep")
		return
	}
	name := "scf.for@" + strconv.Itoa(op.Pos.Line)
	if len(op.Results) > 0 {
		name, _, _ = strings.Cut(op.Results[0].Name, "#")
	}
	mop := &model.Op{Kind: model.OpLoop, Pos: op.Pos, Name: unique(b.opNames, name)}
	l := &model.Loop{Name: mop.Name, Trips: trips, Dynamic: dynamic, Parent: b.loop, Op: mop, Pos: op.Pos}
	mop.Body = l
	var carried []int
	for i, in := range inits {
		if isVector(blk.Args[i+1]) && !b.free[blk.Args[i+1]] {
			carried = append(carried, i)
		}
		if b.lane[in.Value] {
			b.lane[blk.Args[i+1]], b.lane[op.Results[i]] = true, true
		}
		if d := b.tdescs[in.Value]; d != nil {
			// A tensor descriptor the loop carries (moved on by
			// update_nd_offset): the same block on every trip.
			b.tdescs[blk.Args[i+1]], b.tdescs[op.Results[i]] = d, d
		}
	}
	for k, i := range carried {
		v := b.value(inits[i])
		if v == nil {
			b.fail(op, model.CodeUnknownName, "scf.for's init %s is not read", inits[i].Value)
			return
		}
		l.Inits = append(l.Inits, v)
		v.Uses = append(v.Uses, model.Use{Op: mop, Index: k})
	}
	for k, i := range carried {
		arg := blk.Args[i+1]
		init := l.Inits[k]
		v := &model.Value{Name: unique(b.names, arg.Name), Shape: slices.Clone(init.Shape), DType: init.DType, Pos: arg.Pos, Arg: l}
		b.g.Values = append(b.g.Values, v)
		b.vals[arg] = v
		l.Args = append(l.Args, v)
	}
	outer := b.loop
	b.loop = l
	b.depth++
	for _, o := range blk.Ops {
		if o != yield {
			b.op(o)
		}
	}
	b.depth--
	b.loop = outer
	for k, i := range carried {
		y := b.value(yield.Operands[i])
		if y == nil {
			b.fail(op, model.CodeUnknownName, "scf.yield's %s is not read", yield.Operands[i].Value)
			return
		}
		l.Yields = append(l.Yields, y)
		y.Uses = append(y.Uses, model.Use{Op: mop, Index: k, Yield: true})
	}
	for k, i := range carried {
		r := op.Results[i]
		arg := l.Args[k]
		v := &model.Value{Name: unique(b.names, r.Name), Shape: slices.Clone(arg.Shape), DType: arg.DType, Pos: r.Pos, Def: mop}
		b.g.Values = append(b.g.Values, v)
		b.vals[r] = v
		l.Results = append(l.Results, v)
	}
	b.emit(mop)
}

// trips is a loop's trip count from its constant bounds, else the one
// --trips assumes.
func (b *builder) trips(op *ir.Op) (int, bool, bool) {
	lb, ok1 := b.ints[op.Operands[0].Value]
	ub, ok2 := b.ints[op.Operands[1].Value]
	step, ok3 := b.ints[op.Operands[2].Value]
	if !(ok1 && ok2 && ok3) {
		if b.opt.Trips > 0 {
			return b.opt.Trips, true, true
		}
		var which []string
		for i, ok := range []bool{ok1, ok2, ok3} {
			if !ok {
				which = append(which, fmt.Sprintf("%s (%s)", op.Operands[i].Value, []string{"lower bound", "upper bound", "step"}[i]))
			}
		}
		b.fail(op, model.CodeMissingKey, "the trip count of scf.for is known only at run time: %s is not an arith.constant; give --trips N, the count to price its body at", strings.Join(which, " and "))
		return 0, false, false
	}
	if step <= 0 {
		b.fail(op, model.CodeBadValue, "scf.for steps by %d: a loop steps forward", step)
		return 0, false, false
	}
	if ub <= lb {
		b.fail(op, model.CodeBadValue, "scf.for from %d to %d runs no iteration: a loop runs at least once", lb, ub)
		return 0, false, false
	}
	n := (ub - lb + step - 1) / step
	if n > 1<<30 || ub-lb < 0 {
		b.fail(op, model.CodeTooLarge, "scf.for runs more than %d iterations", 1<<30)
		return 0, false, false
	}
	return int(n), false, true
}

// toLayout reads iree_vector_ext.to_layout as a pin: the value it anchors
// is pinned to the layout, or, when the value is used elsewhere too (or
// pinned already), a new value in that layout (anchor).
func (b *builder) toLayout(op *ir.Op) {
	res := op.Results[0]
	src := b.source(op, res)
	if src == nil {
		return
	}
	la, _ := op.Attr("layout")
	if la == nil {
		b.fail(op, model.CodeMissingKey, "iree_vector_ext.to_layout has no layout")
		return
	}
	pin := b.layoutPin(op.Name, la, src.Shape, op.Pos)
	if pin == nil {
		b.failed[res] = true
		return
	}
	b.anchor(op, src, op.Operands[0].Value, res, pin)
}

// layoutPin reads the layout attribute na (a nested_layout, an XeGPU
// layout, a #planner.linear) as a pin for a value of the given shape;
// nil when it is no layout the reader reads or builds none (reported, at
// the field or entry at fault).
func (b *builder) layoutPin(opName string, na *ir.NamedAttr, shape []int, pos model.Pos) *model.Pin {
	da, _ := na.Value.(*ir.DialectAttr)
	var n model.Notation
	var fields map[string]ir.FieldPos
	switch {
	case da == nil:
	case da.Name == ir.LinearAttr:
		if ll, f := b.linearLayout(da, na.ValuePos); ll != nil {
			n, fields = ll, f
		}
	case da.Name == "iree_vector_ext.nested_layout":
		if nl, f := b.nestedLayout(da, na.ValuePos); nl != nil {
			n, fields = nl, f
		}
	case slices.Contains(ir.LayoutAttrs, da.Name):
		b.xegpu = true
		if xl, f := b.xegpuLayout(da, na.ValuePos); xl != nil {
			n, fields = xl, f
		}
	default:
		da = nil
	}
	if da == nil {
		b.errorf(na.ValuePos, model.CodeBadValue, "%s's %s is %s: the reader reads layouts written as #iree_vector_ext.nested_layout<...>, #xegpu.layout<...> (or its earlier spellings #xegpu.sg_map, #xegpu.wg_map) and #%s<...>", opName, na.Name, na.Value, ir.LinearAttr)
	}
	if n == nil {
		return nil
	}
	f := model.Frame{Shape: shape, SubgroupSize: b.target.SubgroupSize, Subgroups: b.g.Subgroups}
	l, why, err := notation.PinLayout(n, f, b.target.Name)
	if err != nil {
		at := na.ValuePos
		msg := err.Error()
		if e, ok := err.(*model.Error); ok {
			msg = e.Msg
			if fp, ok := fields[e.Field]; ok {
				at = fp.Pos
				if e.Index >= 0 && e.Index < len(fp.Elems) {
					at = fp.Elems[e.Index]
				}
			}
		}
		b.errorf(at, model.CodeBadValue, "%s", msg)
		return nil
	}
	return &model.Pin{Layout: l, Notation: n, Pos: pos, Unrealisable: why}
}

// anchor gives the IR value res (which op defines from srcIR, read as
// src) the pinned layout: src itself is pinned when nothing else uses it
// and nothing pins it yet; otherwise res is a new value in that layout (a
// shape_cast to the same shape), so that a conversion between the two
// stays possible.
func (b *builder) anchor(op *ir.Op, src *model.Value, srcIR *ir.Value, res *ir.Value, pin *model.Pin) {
	if src.Pin == nil && len(srcIR.Uses) == 1 {
		src.Pin = pin
		b.folded[res] = src
		return
	}
	b.pinnedCopy(op, src, res, res.Name, res.Pos, pin)
}

// pinnedCopy adds a value that is v in the pinned layout: a shape_cast to
// v's own shape, named name at at (res: the IR value it stands for, nil
// for none); nil when it is refused (reported).
func (b *builder) pinnedCopy(op *ir.Op, v *model.Value, res *ir.Value, name string, at model.Pos, pin *model.Pin) *model.Value {
	nv := b.add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{v}}, &model.OpArgs{Shape: slices.Clone(v.Shape)}, res, name, at)
	if nv != nil {
		nv.Pin = pin
	}
	return nv
}

// finish checks what only the whole graph shows.
func (b *builder) finish() {
	g := b.g
	b.spreadLanePins()
	g.Walk(func(op *model.Op) {
		if op.Info().Given && op.Result != nil && op.Result.Pin == nil {
			b.errorf(op.Pos, model.CodeMissingKey, "%%%s arrives in registers in the layout its caller chose: anchor it with iree_vector_ext.to_layout", op.Result.Name)
		}
	})
	for _, v := range g.Values {
		if v.Pin != nil {
			g.Notation = v.Pin.Notation.Kind()
			break
		}
	}
	switch {
	case g.Notation != "":
	case b.xegpu:
		g.Notation = "xegpu" // XeGPU's own
	case b.tt:
		g.Notation = "triton"
	case b.iree:
		g.Notation = "nested" // IREE's own
	default:
		g.Notation = "linear"
	}
	if b.tt && !b.opt.InputLayouts {
		// Never more conversions than the kernel came with (Triton's
		// own layout choice is always within the bound); planner solve
		// --max-conversions none lifts it.
		g.HasMaxConversions, g.MaxConversions, g.MaxConversionsPos = true, b.converts, b.fn.Pos
		ops := "ttg.convert_layout ops"
		if b.converts == 1 {
			ops = "ttg.convert_layout op"
		}
		g.MaxConversionsFrom = fmt.Sprintf("the input's %d %s", b.converts, ops)
		all := 0
		ir.Visit(b.fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
			if ir.TTName(op.Name) == "ttg.convert_layout" {
				all++
			}
			return true
		})
		if free := all - b.converts; free > 0 {
			// Constants, ranges and index arithmetic are made in
			// whatever layout each use needs: converting them converts
			// nothing.
			g.MaxConversionsFrom += fmt.Sprintf(" of computed values; %d more convert constants or indices, made in any layout at no cost", free)
		}
	}
	slices.SortStableFunc(g.Buffers, func(x, y *model.Buffer) int {
		if x.Pos.Line != y.Pos.Line {
			return x.Pos.Line - y.Pos.Line
		}
		return x.Pos.Col - y.Pos.Col
	})
	if len(g.Ops) == 0 && len(b.errs) == 0 {
		what := "vectors"
		if b.tt {
			what = "tensors"
		}
		b.errorf(b.fn.Pos, model.CodeMissingKey, "@%s has no op on %s: nothing to plan", ir.FuncName(b.fn), what)
	}
}
