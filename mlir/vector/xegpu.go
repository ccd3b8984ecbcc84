package vector

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

type tdesc struct {
	typ *ir.TensorDescType
	// surface is the memref the descriptor describes a block of, as
	// Intel's 2D block messages see it (nil: not known).
	surface   *model.Surface
	elemBytes int
}

// accessSurface is the surface a load_nd or store_nd of descriptor d
// reads or writes: d's, moved by the op's own offsets where it has any
// (its operands from first on give their dynamic entries); nil when an
// offset is not a constant.
func (b *builder) accessSurface(d *tdesc, op *ir.Op, first int) *model.Surface {
	if d.surface == nil {
		return nil
	}
	if _, ok := op.Attr("const_offsets"); !ok {
		return d.surface
	}
	col, ok := b.columnOffset(op, first)
	if !ok {
		return nil
	}
	s := *d.surface
	s.X = leastAligned(s.X, col*d.elemBytes)
	return &s
}

// leastAligned is whichever of two byte offsets is aligned to the smaller
// power of two (0 is aligned to any).
func leastAligned(a, b int) int {
	switch {
	case a == 0:
		return b
	case b == 0 || a&-a <= b&-b:
		return a
	}
	return b
}

// createNdDesc records the descriptor create_nd_tdesc makes: a block of
// global memory.
func (b *builder) createNdDesc(op *ir.Op) {
	b.xegpu = true
	res := op.Results[0]
	t, ok := res.Type.(*ir.TensorDescType)
	if !ok {
		b.Fail(op, model.CodeBadValue, "xegpu.create_nd_tdesc gives %s, not a !xegpu.tensor_desc<...>", res.Type)
		return
	}
	src := op.Operands[0]
	if _, isMem := src.Value.Type.(*ir.MemRefType); isMem { // else a pointer (ui64), global memory
		m := b.mem(src)
		if m == nil {
			b.Failed[res] = true
			return
		}
		if m.space != "global" {
			b.Fail(op, model.CodeBadValue, "xegpu.create_nd_tdesc describes a block of %s in shared memory: the planner reads XeGPU's block loads and stores of global memory (shared memory through vector.transfer_read and transfer_write)", src.Value)
			return
		}
	}
	if len(t.Shape) != 2 && len(t.Shape) != 1 {
		b.Fail(op, model.CodeRankMismatch, "%s describes a block of rank %d: XeGPU's block loads move blocks of rank 1 or 2", t, len(t.Shape))
		return
	}
	d := &tdesc{typ: t}
	if mt, ok := src.Value.Type.(*ir.MemRefType); ok && src.Value.Def == nil {
		d.surface = b.surfaceOf(mt, t, op, 1)
		if dt, ok := ir.DType(mt.Elem); ok {
			d.elemBytes = dt.Bits / 8
		}
	}
	b.tdescs[res] = d
}

// argAlignment is the alignment of a kernel argument's memory: OpenCL's
// CL_DEVICE_MEM_BASE_ADDR_ALIGN is at least the size of the largest
// built-in type, long16, 128 bytes (OpenCL 3.0 API specification, table
// "OpenCL Device Queries" of clGetDeviceInfo, the FULL profile's minimum).
const argAlignment = 128

// surfaceOf is the surface a descriptor of a kernel argument's memref mt
// reads through 2D block messages: its rows of its last dimension, at its
// static offsets (op's operands from first on give its dynamic ones); nil
// unless the memref is two-dimensional, static and row-major and every
// offset a constant.
func (b *builder) surfaceOf(mt *ir.MemRefType, t *ir.TensorDescType, op *ir.Op, first int) *model.Surface {
	dt, ok := ir.DType(mt.Elem)
	if !ok || len(mt.Shape) != 2 || len(t.Shape) != 2 || mt.Layout != nil || mt.Shape[0] < 1 || mt.Shape[1] < 1 || dt.Bits%8 != 0 {
		return nil
	}
	col, ok := b.columnOffset(op, first)
	if !ok {
		return nil
	}
	row := mt.Shape[1] * dt.Bits / 8
	return &model.Surface{Width: row, Height: mt.Shape[0], Pitch: row, BaseAlignment: argAlignment, X: col * dt.Bits / 8}
}

// columnOffset is the last of op's offsets (const_offsets, its dynamic
// entries op's operands from first on), when every entry is a constant.
func (b *builder) columnOffset(op *ir.Op, first int) (int, bool) {
	a, ok := op.Attr("const_offsets")
	if !ok {
		return 0, len(op.Operands) == first
	}
	arr, ok := a.Value.(*ir.DenseArrayAttr)
	if !ok || len(arr.Values) == 0 {
		return 0, false
	}
	offs := make([]int64, len(arr.Values))
	next := first
	for i, lit := range arr.Values {
		o, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return 0, false
		}
		if o != math.MinInt64 { // a static entry; dynamic ones are marked so
			offs[i] = o
			continue
		}
		if next >= len(op.Operands) {
			return 0, false
		}
		n, ok := b.Int(op.Operands[next].Value)
		if !ok {
			return 0, false
		}
		offs[i], next = n, next+1
	}
	return int(offs[len(offs)-1]), true
}

// descriptorArgument records a tensor_desc argument of the function: a
// block of global memory its caller describes, as create_nd_tdesc's
// (refused, at the argument, where it describes shared memory or a block
// of other than rank 1 or 2).
func (b *builder) descriptorArgument(a *ir.Value, t *ir.TensorDescType) {
	b.xegpu = true
	for _, e := range t.Encoding {
		if da, ok := e.(*ir.DialectAttr); ok && strings.Contains(da.Body, "memory_space = slm") {
			// XeGPUAttrs.td, BlockTensorDescAttr: memory_space global or slm.
			b.Errorf(a.Pos, model.CodeBadValue, "the tensor_desc %s describes a block of shared memory (memory_space = slm): the planner reads XeGPU's block loads and stores of global memory", a)
			b.Failed[a] = true
			return
		}
	}
	if len(t.Shape) != 2 && len(t.Shape) != 1 {
		b.Errorf(a.Pos, model.CodeRankMismatch, "%s describes a block of rank %d: XeGPU's block loads move blocks of rank 1 or 2", t, len(t.Shape))
		b.Failed[a] = true
		return
	}
	b.tdescs[a] = &tdesc{typ: t}
}

// updateNdOffset moves a descriptor: the same block, elsewhere.
func (b *builder) updateNdOffset(op *ir.Op) {
	if d := b.descriptor(op, op.Operands[0]); d != nil {
		if s := d.surface; s != nil {
			// The moved block starts as aligned as the least aligned of
			// its start and the move (a loop adds the move every trip, and
			// the loop's descriptor is this one: one surface, changed in
			// place); a move not known is taken as unaligned.
			col, ok := b.columnOffset(op, 1)
			if !ok {
				s.X = 1
			} else {
				s.X = leastAligned(s.X, col*d.elemBytes)
			}
		}
		b.tdescs[op.Results[0]] = d
	}
}

// descriptor is the descriptor an operand reads; nil (reported) when the
// reader does not know where it comes from.
func (b *builder) descriptor(op *ir.Op, o *ir.Operand) *tdesc {
	if d := b.tdescs[o.Value]; d != nil {
		return d
	}
	if !b.Failed[o.Value] {
		b.Errorf(o.Pos, model.CodeUnknownName, "%s reads the tensor_desc %s, which no xegpu.create_nd_tdesc in the function makes: the planner reads descriptors made where it can see the memory they describe", op.Name, o.Value)
		b.Failed[o.Value] = true
	}
	for _, r := range op.Results {
		b.Failed[r] = true
	}
	return nil
}

// descLayout is the pin the layout of a descriptor's type makes for the
// values moved through it (nil: it has none, or it is reported).
func (b *builder) descLayout(d *tdesc, what string) (*model.Pin, bool) {
	if d.typ.Layout == nil {
		return nil, true
	}
	na := &ir.NamedAttr{Name: "layout", Pos: d.typ.LayoutPos, ValuePos: d.typ.LayoutPos, Value: d.typ.Layout}
	return b.layoutPin(what, na, d.typ.Shape, d.typ.LayoutPos)
}

// loadNd reads xegpu.load_nd as a load of the descriptor's block
// (contiguous along its last dimension), then a transpose where its
// transpose attribute permutes it; the descriptor's layout pins the block
// as loaded.
func (b *builder) loadNd(op *ir.Op) {
	res := op.Results[0]
	d := b.descriptor(op, op.Operands[0])
	if d == nil {
		return
	}
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	if _, packed := op.Attr("packed"); packed {
		b.Fail(op, model.CodeBadValue, "xegpu.load_nd packs its block for VNNI (packed): the planner reads a block as it lies in memory, and lays out the DPAS operands itself")
		return
	}
	var perm []int
	if ta, ok := op.Attr("transpose"); ok {
		if perm, ok = reader.IntsOf(ta.Value); !ok || !isPerm(perm, len(d.typ.Shape)) {
			b.Errorf(ta.ValuePos, model.CodeBadValue, "xegpu.load_nd's transpose is %s, not a permutation of the block's %d dimensions", ta.Value, len(d.typ.Shape))
			b.Failed[res] = true
			return
		}
		if isIdentityPerm(perm) {
			perm = nil
		}
	}
	block := slices.Clone(d.typ.Shape)
	want := block
	if perm != nil {
		want = make([]int, len(perm))
		for i, p := range perm {
			want[i] = block[p]
		}
	}
	if !slices.Equal(shape, want) {
		b.Fail(op, model.CodeShapeMismatch, "xegpu.load_nd gives %s from a block of %v: the planner reads XeGPU at workgroup or subgroup level, where load_nd gives the whole block (not a lane's fragment of it)", res.Type, block)
		return
	}
	if edt, ok := ir.DType(d.typ.Elem); !ok || edt.Name != dt.Name {
		b.Fail(op, model.CodeShapeMismatch, "xegpu.load_nd reads %s elements from a block of %s elements", dt.Name, d.typ.Elem)
		return
	}
	pin, ok := b.descLayout(d, op.Name)
	if !ok {
		b.Failed[res] = true
		return
	}
	mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: len(block) - 1, Surface: b.accessSurface(d, op, 1)}
	if perm == nil {
		if v := b.Add(mop, &model.OpArgs{Shape: block, DType: dt}, res, res.Name, res.Pos); v != nil {
			v.Pin, b.moved[op] = pin, v
		}
		return
	}
	v := b.Add(mop, &model.OpArgs{Shape: block, DType: dt}, nil, res.Name+"@mem", res.Pos)
	if v == nil {
		b.Failed[res] = true
		return
	}
	v.Pin, b.moved[op] = pin, v
	b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{v}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
}

func isPerm(p []int, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, x := range p {
		if x < 0 || x >= n || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func isIdentityPerm(p []int) bool {
	for i, x := range p {
		if i != x {
			return false
		}
	}
	return true
}

// storeNd reads xegpu.store_nd as a store of the block (contiguous along
// its last dimension); the descriptor's layout is the layout the stored
// value must be in.
func (b *builder) storeNd(op *ir.Op) {
	d := b.descriptor(op, op.Operands[1])
	if d == nil {
		return
	}
	pin, ok := b.descLayout(d, op.Name)
	if !ok {
		return
	}
	if pin != nil && !b.require(op, op.Operands[0], pin) {
		return
	}
	src := b.Value(op.Operands[0])
	if src == nil {
		return
	}
	if !slices.Equal(src.Shape, d.typ.Shape) {
		b.Fail(op, model.CodeShapeMismatch, "xegpu.store_nd writes a %v value to a block of %v: the planner reads XeGPU at workgroup or subgroup level, where store_nd writes the whole block", src.Shape, d.typ.Shape)
		return
	}
	if edt, ok := ir.DType(d.typ.Elem); !ok || edt.Name != src.DType.Name {
		b.Fail(op, model.CodeShapeMismatch, "xegpu.store_nd writes %s elements to a block of %s elements", src.DType.Name, d.typ.Elem)
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: len(src.Shape) - 1, Name: name, Surface: b.accessSurface(d, op, 2)}
	b.Add(mop, &model.OpArgs{}, nil, name, op.Pos)
	b.moved[op] = src
}

// dpas reads xegpu.dpas as an mma: A is M×K, B K×N, the accumulator (a
// zero constant when it has none) and result M×N.
func (b *builder) dpas(op *ir.Op) {
	b.xegpu = true
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	var ops []*model.Value
	for _, o := range op.Operands {
		v := b.Value(o)
		if v == nil {
			b.Failed[res] = true
			return
		}
		if len(v.Shape) != 2 {
			b.Fail(op, model.CodeRankMismatch, "xegpu.dpas reads %s of rank %d: the planner reads DPAS on matrices (a VNNI-packed operand of rank 3 is not read)", o.Value, len(v.Shape))
			return
		}
		ops = append(ops, v)
	}
	if len(ops) == 2 {
		c := b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, nil, res.Name+"@acc", op.Pos)
		if c == nil {
			b.Failed[res] = true
			return
		}
		ops = append(ops, c)
	}
	b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: ops}, &model.OpArgs{}, res, res.Name, res.Pos)
}

// convertLayout reads xegpu.convert_layout: its operand must be in
// input_layout, its result is a new value in target_layout (or, for an
// anchor whose two layouts are one, the operand pinned, as to_layout).
func (b *builder) convertLayout(op *ir.Op) {
	b.xegpu = true
	res := op.Results[0]
	in, _ := op.Attr("input_layout")
	if in == nil {
		in, _ = op.Attr("srcMap")
	}
	target, _ := op.Attr("target_layout")
	if target == nil {
		target, _ = op.Attr("resMap")
	}
	if target == nil {
		b.Fail(op, model.CodeMissingKey, "xegpu.convert_layout has no target_layout (or resMap)")
		return
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	pin, ok := b.layoutPin(op.Name, target, src.Shape, op.Pos)
	if !ok {
		b.Failed[res] = true
		return
	}
	if pin == nil || in != nil && in.Value.String() == target.Value.String() {
		if pin == nil {
			b.Folded[res] = src // the target leaves the mapping open
		} else {
			b.anchor(op, src, op.Operands[0].Value, res, pin)
		}
		return
	}
	if in != nil {
		inPin, ok := b.layoutPin(op.Name, in, src.Shape, op.Pos)
		if !ok || inPin != nil && !b.require(op, op.Operands[0], inPin) {
			b.Failed[res] = true
			return
		}
		src = b.Value(op.Operands[0])
	}
	b.pinnedCopy(op, src, res, res.Name, res.Pos, pin)
}

// require makes op's operand o read its value in the pinned layout: the
// value itself is pinned where nothing else uses it and nothing pins it
// yet, or where it is a function's argument nothing pins yet (XeGPU
// anchors an argument so, on the ops that read it: the first anchor
// pins it); it is read as it is where its pin is that layout already; else the
// operand reads a new value in the layout (a shape_cast to the same
// shape), so that a conversion to it stays possible. false when the value
// is not read (reported).
func (b *builder) require(op *ir.Op, o *ir.Operand, pin *model.Pin) bool {
	v := b.Value(o)
	if v == nil {
		return false
	}
	switch {
	case v.Pin == nil && (len(o.Value.Uses) == 1 || slices.Contains(b.Fn.Regions[0].Blocks[0].Args, o.Value)):
		v.Pin = pin
	case v.Pin != nil && v.Pin.Layout != nil && pin.Layout != nil && v.Pin.Layout.Equal(pin.Layout):
	default:
		name := strings.TrimPrefix(o.Value.String(), "%") + "@" + op.Name[strings.IndexByte(op.Name, '.')+1:]
		nv := b.pinnedCopy(op, v, nil, name, op.Pos, pin)
		if nv == nil {
			return false
		}
		b.over[o] = nv
	}
	return true
}

// layoutAttrIndex reads the N of a layout_result_N or layout_operand_N
// attribute (XeGPU's anchors: llvm-project
// mlir/lib/Dialect/XeGPU/Utils/XeGPUUtils.cpp, getLayoutName); false for
// any other attribute.
func layoutAttrIndex(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0 && strconv.Itoa(n) == rest
}

// opAnchors are the layout attributes some XeGPU ops carry under names
// of their own, for the result (or operand) a layout_result_N (or
// layout_operand_N) would name: load_nd's and store_nd's layout (the
// loaded value's, the stored value's) and dpas's layout_a, layout_b
// (its operands) and layout_cd (its result). llvm-project
// mlir/test/Dialect/XeGPU/xegpu-wg-to-sg-unify-ops.mlir writes them so
// ("xegpu.load_nd %tdesc[0, 0] {layout = #xegpu.layout<...>}", "xegpu.dpas
// %a, %b {layout_a = ..., layout_b = ..., layout_cd = ...}").
var opAnchors = map[string]map[string]string{
	"xegpu.load_nd":  {"layout": "layout_result_0"},
	"xegpu.store_nd": {"layout": "layout_operand_0"},
	"xegpu.dpas":     {"layout_a": "layout_operand_0", "layout_b": "layout_operand_1", "layout_cd": "layout_result_0"},
}

// anchorIndex reads the N an attribute of op names with prefix
// ("layout_result_" or "layout_operand_"), itself or through the op's own
// name for it (opAnchors); false for any other attribute.
func anchorIndex(op *ir.Op, na *ir.NamedAttr, prefix string) (int, bool) {
	name := na.Name
	if alias, ok := opAnchors[op.Name][name]; ok {
		name = alias
	}
	return layoutAttrIndex(name, prefix)
}

// anchorAttrs are the attributes of op that may be anchors: its
// {attributes} and its <{properties}>.
func anchorAttrs(op *ir.Op) []*ir.NamedAttr {
	return append(slices.Clip(op.Attrs), op.Props...)
}

// operandLayouts reads an op's layout_operand_N attributes: operand N is
// read in that layout. false when one is refused (reported).
func (b *builder) operandLayouts(op *ir.Op) bool {
	for _, na := range anchorAttrs(op) {
		i, ok := anchorIndex(op, na, "layout_operand_")
		if !ok {
			continue
		}
		if i >= len(op.Operands) {
			b.Errorf(na.Pos, model.CodeRankMismatch, "%s names operand %d, but %s has %d operand(s)", na.Name, i, op.Name, len(op.Operands))
			return false
		}
		o := op.Operands[i]
		if !reader.IsVector(o.Value) {
			continue // a descriptor's layout is its type's
		}
		shape, _, ok := b.VectorQuiet(o.Value.Type)
		if !ok {
			continue
		}
		pin, ok := b.layoutPin(op.Name, na, shape, op.Pos)
		if !ok || pin != nil && !b.require(op, o, pin) {
			return false
		}
	}
	return true
}

// resultLayouts reads an op's layout_result_N attributes: result N is
// pinned to that layout (a new value in it, where the value the graph
// holds for the result is pinned to another already).
func (b *builder) resultLayouts(op *ir.Op) {
	for _, na := range anchorAttrs(op) {
		i, ok := anchorIndex(op, na, "layout_result_")
		if !ok {
			continue
		}
		if i >= len(op.Results) {
			b.Errorf(na.Pos, model.CodeRankMismatch, "%s names result %d, but %s has %d result(s)", na.Name, i, op.Name, len(op.Results))
			continue
		}
		r := op.Results[i]
		if b.Failed[r] || !reader.IsVector(r) {
			continue
		}
		gv := b.Folded[r]
		if gv == nil {
			gv = b.Vals[r]
		}
		if gv == nil {
			continue // a value the graph does not hold (a reduction's identity)
		}
		pin, ok := b.layoutPin(op.Name, na, gv.Shape, op.Pos)
		switch {
		case !ok:
			b.Failed[r] = true
		case pin == nil: // the mapping left open
		case gv.Pin == nil:
			gv.Pin = pin
		case gv.Pin.Layout != nil && pin.Layout != nil && gv.Pin.Layout.Equal(pin.Layout):
		default:
			nv := b.pinnedCopy(op, gv, nil, r.Name+"@"+na.Name, op.Pos, pin)
			if nv == nil {
				b.Failed[r] = true
				continue
			}
			b.Folded[r] = nv
		}
	}
}

// xegpuSync are XeGPU's ops that only synchronise (XeGPUOps.td): read and
// skipped, as gpu.barrier is.
var xegpuSync = []string{"xegpu.fence", "xegpu.alloc_nbarrier", "xegpu.init_nbarrier", "xegpu.nbarrier_arrive", "xegpu.nbarrier_wait"}

// xegpuUnknown says that op is an XeGPU op the reader does not read.
func xegpuUnknown(op *ir.Op) string {
	return fmt.Sprintf("%s is an XeGPU op the planner does not read: it reads xegpu.create_nd_tdesc, update_nd_offset, load_nd, store_nd, prefetch_nd (skipped), dpas and convert_layout", op.Name)
}
