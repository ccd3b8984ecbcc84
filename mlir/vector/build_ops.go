package vector

import (
	"math"
	"slices"
	"strconv"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// contract reads vector.contract as an mma: its indexing maps must be a
// matrix product's, any operand transposition read as a transpose before
// the mma (whose B is K×N).
func (b *builder) contract(op *ir.Op) {
	res := op.Results[0]
	if !reader.IsVector(res) {
		b.Fail(op, model.CodeBadValue, "vector.contract gives the scalar %s: the planner reads contractions into a matrix", res.Type)
		return
	}
	if k := reader.ReductionKind(op); k != "" && k != "add" {
		b.Fail(op, model.CodeBadValue, "vector.contract combines with <%s>: the planner reads matrix products (kind add)", k)
		return
	}
	it, _ := op.Attr("iterator_types")
	maps, _ := op.Attr("indexing_maps")
	if it == nil || maps == nil {
		b.Fail(op, model.CodeMissingKey, "vector.contract needs indexing_maps and iterator_types")
		return
	}
	iters, ok := it.Value.(*ir.ArrayAttr)
	if !ok {
		b.Fail(op, model.CodeBadValue, "vector.contract's iterator_types is %s, not a list", it.Value)
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
		b.Errorf(it.ValuePos, model.CodeBadValue, "vector.contract iterates %v: the planner reads matrix products, two parallel iterators and one reduction (a batched or multi-reduction contraction is not read)", kinds)
		b.Failed[res] = true
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
		b.Errorf(maps.ValuePos, model.CodeBadValue, "vector.contract's indexing_maps %s are not a matrix product's: %s", maps.Value, why)
		b.Failed[res] = true
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
		v := b.Value(op.Operands[i])
		if v == nil || !transposed {
			return v
		}
		perm := []int{1, 0}
		return b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{v}, Perm: perm}, &model.OpArgs{Perm: perm}, nil, res.Name+"@"+role, op.Pos)
	}
	a := operand(0, transposedA, "a")
	bb := operand(1, transposedB, "b")
	c := b.Value(op.Operands[2])
	if a == nil || bb == nil || c == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: []*model.Value{a, bb, c}}, &model.OpArgs{}, res, res.Name, res.Pos)
}

// multiReduction reads vector.multi_reduction over one dimension as a
// reduce; an accumulator that is the kind's identity is no init.
func (b *builder) multiReduction(op *ir.Op) {
	res := op.Results[0]
	fn := b.Combiner(op)
	if fn == "" {
		return
	}
	dims, ok := reader.IntsAttr(op, "reduction_dims")
	if !ok {
		b.Fail(op, model.CodeBadValue, "vector.multi_reduction's reduction_dims is not a list of dimensions")
		return
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	// Several dimensions at once are reduced one after another, the
	// highest first (so that the lower ones keep their numbers), each but
	// the last a reduce of its own (%r@dN) without the accumulator.
	order := slices.Clone(dims)
	slices.Sort(order)
	for i, d := range order {
		if d < 0 || d >= len(src.Shape) || i > 0 && order[i-1] == d {
			b.Fail(op, model.CodeBadValue, "vector.multi_reduction's reduction_dims %v are not distinct dimensions of %v", dims, src.Shape)
			return
		}
	}
	for i := len(order) - 1; i > 0; i-- {
		d := order[i]
		mop := &model.Op{Kind: model.OpReduce, Fn: fn, Axis: d, Pos: op.Pos, Operands: []*model.Value{src}}
		if src = b.Add(mop, &model.OpArgs{Axis: d}, nil, res.Name+"@d"+strconv.Itoa(d), op.Pos); src == nil {
			b.Failed[res] = true
			return
		}
	}
	var init *model.Value
	switch {
	case b.IdentityInit(ir.Use{Op: op, Index: 1}):
	case !reader.IsVector(op.Operands[1].Value):
		// A scalar accumulator: the graph's scalar, or one scalar code
		// computes, which adds no layout (as vector.reduction's).
		init = b.ScalarValue(op.Operands[1].Value)
	default:
		if init = b.Value(op.Operands[1]); init == nil {
			b.Failed[res] = true
			return
		}
	}
	axis := order[0]
	if len(src.Shape) == 1 && axis == 0 {
		b.ToScalar(op, src, fn, init, res)
		return
	}
	mop := &model.Op{Kind: model.OpReduce, Fn: fn, Axis: axis, Pos: op.Pos, Operands: []*model.Value{src}}
	if init != nil {
		mop.Operands = append(mop.Operands, init)
	}
	b.Add(mop, &model.OpArgs{Axis: axis}, res, res.Name, res.Pos)
}

// reduction reads vector.reduction (a one-dimensional vector to a
// scalar). An accumulator the graph holds (another reduction's scalar)
// is the init; a scalar it does not hold (computed by scalar code) adds
// no layout and is left out.
func (b *builder) reduction(op *ir.Op) {
	res := op.Results[0]
	fn := b.Combiner(op)
	if fn == "" {
		return
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	if len(src.Shape) != 1 {
		b.Fail(op, model.CodeRankMismatch, "vector.reduction reduces a one-dimensional vector, found %v", src.Shape)
		return
	}
	var init *model.Value
	if len(op.Operands) > 1 {
		if mv := b.Vals[op.Operands[1].Value]; mv != nil && b.Scalars[mv] {
			init = mv
		}
	}
	b.ToScalar(op, src, fn, init, res)
}

func (b *builder) transpose(op *ir.Op) { b.Transpose(op, "permutation") }

// position reads vector.extract's or vector.insert's static position; a
// dynamic entry is refused.
func (b *builder) position(op *ir.Op) ([]int, bool) {
	pa, _ := op.Attr("static_position")
	if pa == nil {
		b.Fail(op, model.CodeMissingKey, "%s has no static_position", op.Name)
		return nil, false
	}
	da, ok := pa.Value.(*ir.DenseArrayAttr)
	if !ok {
		b.Fail(op, model.CodeBadValue, "%s's static_position is %s, not array<i64: ...>", op.Name, pa.Value)
		return nil, false
	}
	pos := make([]int, len(da.Values))
	for i, s := range da.Values {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n == math.MinInt64 {
			b.Fail(op, model.CodeBadValue, "%s at a position computed at run time: the planner reads sub-vectors at constant positions", op.Name)
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
	src := b.Source(op, res)
	if src == nil {
		return
	}
	pos, ok := b.position(op)
	if !ok {
		return
	}
	if !wholeLeading(src.Shape, len(pos)) {
		b.Fail(op, model.CodeBadValue, "vector.extract takes position %v of %v, a part of the vector: the planner reads an extract only from dimensions of extent 1 (a shape_cast), as its graphs have no op that slices a vector", pos, src.Shape)
		return
	}
	shape := []int{1}
	if reader.IsVector(res) {
		var vok bool
		if shape, _, vok = b.Vector(res.Type, res.Pos, res.String()); !vok {
			b.Failed[res] = true
			return
		}
	}
	b.Reshape(op, src, shape, res)
	if !reader.IsVector(res) {
		if mv := b.Vals[res]; mv != nil {
			b.Scalars[mv] = true
		} else if mv := b.Folded[res]; mv != nil {
			b.Scalars[mv] = true
		}
	}
}

// insert reads vector.insert into the whole of its destination (the
// leading indexed dimensions of extent 1) as the inserted value viewed
// in the destination's shape.
func (b *builder) insert(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	pos, ok := b.position(op)
	if !ok {
		return
	}
	if !wholeLeading(shape, len(pos)) {
		b.Fail(op, model.CodeBadValue, "vector.insert writes position %v of %v, a part of the vector: the planner reads an insert only into dimensions of extent 1 (the value replaces the whole vector), as its graphs have no op that updates part of a vector", pos, shape)
		return
	}
	o := op.Operands[0]
	var src *model.Value
	if reader.IsVector(o.Value) {
		src = b.Value(o)
	} else if src = b.ScalarValue(o.Value); src == nil {
		b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
		return
	}
	if src == nil {
		b.Failed[res] = true
		return
	}
	b.Reshape(op, src, shape, res)
}

// xegpuNotation reads an XeGPU layout or slice attribute; open when it
// leaves the lanes and subgroups open (it gives only inst_data, or is a
// slice of such a layout); ok false when it is refused (reported).
func (b *builder) xegpuNotation(da *ir.DialectAttr, at model.Pos) (n model.Notation, fields map[string]ir.FieldPos, open, ok bool) {
	if da.Name != ir.SliceAttr {
		xl, f := b.xegpuLayout(da, at)
		if xl == nil {
			return nil, nil, false, false
		}
		if xl.SgLayout == nil && xl.SgData == nil && xl.LaneLayout == nil && xl.LaneData == nil {
			return nil, nil, true, true
		}
		return xl, f, false, true
	}
	parent, pat, dims, dimsAt, err := ir.SliceParts(b.Mod, da)
	if err != nil {
		b.Errs = append(b.Errs, err)
		return nil, nil, false, false
	}
	pn, f, open, ok := b.xegpuNotation(parent, pat)
	if !ok || open {
		return nil, nil, open, ok
	}
	fields = map[string]ir.FieldPos{"dims": dimsAt}
	for k, v := range f {
		fields[k] = v
	}
	return &notation.XeGPUSlice{Parent: pn, Dims: dims}, fields, false, true
}

// toLayout reads iree_vector_ext.to_layout as a pin: the value it anchors
// is pinned to the layout, or, when the value is used elsewhere too (or
// pinned already), a new value in that layout (anchor).
func (b *builder) toLayout(op *ir.Op) {
	res := op.Results[0]
	src := b.Source(op, res)
	if src == nil {
		return
	}
	la, _ := op.Attr("layout")
	if la == nil {
		b.Fail(op, model.CodeMissingKey, "iree_vector_ext.to_layout has no layout")
		return
	}
	pin, ok := b.layoutPin(op.Name, la, src.Shape, op.Pos)
	switch {
	case !ok:
		b.Failed[res] = true
	case pin == nil:
		b.Folded[res] = src // a layout that leaves the mapping open: no anchor
	default:
		b.anchor(op, src, op.Operands[0].Value, res, pin)
	}
}

// layoutPin reads the layout attribute na (a nested_layout, an XeGPU
// layout, a #planner.linear) as a pin for a value of the given shape; ok
// is false when it is no layout the reader reads or builds none
// (reported, at the field or entry at fault). An XeGPU layout that gives
// only inst_data (and perhaps order) pins nothing (nil, ok): it says how a
// subgroup's block is cut into instructions, and leaves which subgroup
// and lane holds which element open (XeGPUAttrs.td, LayoutAttr: the
// lane_layout and lane_data that map lanes are optional, and
// mlir/test/Dialect/XeGPU/propagate-layout-inst-data.mlir writes such
// layouts before the lanes are chosen).
func (b *builder) layoutPin(opName string, na *ir.NamedAttr, shape []int, pos model.Pos) (*model.Pin, bool) {
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
	case slices.Contains(ir.LayoutAttrs, da.Name) || da.Name == ir.SliceAttr:
		b.xegpu = true
		xn, f, open, ok := b.xegpuNotation(da, na.ValuePos)
		switch {
		case !ok:
			return nil, false
		case open:
			return nil, true
		}
		n, fields = xn, f
	default:
		da = nil
	}
	if da == nil {
		b.Errorf(na.ValuePos, model.CodeBadValue, "%s's %s is %s: the reader reads layouts written as #iree_vector_ext.nested_layout<...>, #xegpu.layout<...> (or its earlier spellings #xegpu.sg_map, #xegpu.wg_map) and #%s<...>", opName, na.Name, na.Value, ir.LinearAttr)
	}
	if n == nil {
		return nil, false
	}
	f := model.Frame{Shape: shape, SubgroupSize: b.Target.SubgroupSize, Subgroups: b.G.Subgroups}
	l, why, err := notation.PinLayout(n, f, b.Target.Name)
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
		b.Errorf(at, model.CodeBadValue, "%s", msg)
		return nil, false
	}
	return &model.Pin{Layout: l, Notation: n, Pos: pos, Unrealisable: why}, true
}

// anchor gives the IR value res (which op defines from srcIR, read as
// src) the pinned layout: src itself is pinned when nothing else uses it
// and nothing pins it yet; otherwise res is a new value in that layout (a
// shape_cast to the same shape), so that a conversion between the two
// stays possible.
func (b *builder) anchor(op *ir.Op, src *model.Value, srcIR *ir.Value, res *ir.Value, pin *model.Pin) {
	if src.Pin == nil && len(srcIR.Uses) == 1 {
		src.Pin = pin
		b.Folded[res] = src
		return
	}
	b.pinnedCopy(op, src, res, res.Name, res.Pos, pin)
}

// pinnedCopy adds a value that is v in the pinned layout: a shape_cast to
// v's own shape, named name at at (res: the IR value it stands for, nil
// for none); nil when it is refused (reported).
func (b *builder) pinnedCopy(op *ir.Op, v *model.Value, res *ir.Value, name string, at model.Pos, pin *model.Pin) *model.Value {
	nv := b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{v}}, &model.OpArgs{Shape: slices.Clone(v.Shape)}, res, name, at)
	if nv != nil {
		nv.Pin = pin
	}
	return nv
}

// finish checks what only the whole graph shows, and names the
// notation plans write layouts in: XeGPU's, IREE's nested or the linear
// one, where no pin names one.
func (b *builder) finish() {
	b.spreadLanePins()
	notation := "linear"
	switch {
	case b.xegpu:
		notation = "xegpu" // XeGPU's own
	case b.iree:
		notation = "nested" // IREE's own
	}
	b.Finish(notation)
}
