package vector

import (
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// handler reads one op the reader understands into the graph.
type handler func(b *builder, op *ir.Op)

// handlers are the ops the reader understands, by name; ops not listed
// are skipped when they touch no vector, and refused when they do.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"vector.transfer_read":             (*builder).read,
		"vector.load":                      (*builder).read,
		"vector.transfer_write":            (*builder).write,
		"vector.store":                     (*builder).write,
		"vector.contract":                  (*builder).contract,
		"vector.multi_reduction":           (*builder).multiReduction,
		"vector.reduction":                 (*builder).reduction,
		"vector.broadcast":                 (*builder).Broadcast,
		"vector.splat":                     (*builder).Broadcast,
		"vector.transpose":                 (*builder).transpose,
		"vector.shape_cast":                (*builder).ShapeCast,
		"vector.extract":                   (*builder).extract,
		"iree_vector_ext.transfer_gather":  (*builder).gather,
		"vector.create_mask":               (*builder).madeByLanes,
		"vector.constant_mask":             (*builder).madeByLanes,
		"vector.step":                      (*builder).madeByLanes,
		"vector.insert":                    (*builder).insert,
		"memref.alloc":                     (*builder).alloc,
		"memref.alloca":                    (*builder).alloc,
		"iree_vector_ext.to_layout":        (*builder).toLayout,
		"xegpu.create_nd_tdesc":            (*builder).createNdDesc,
		"xegpu.update_nd_offset":           (*builder).updateNdOffset,
		"xegpu.load_nd":                    (*builder).loadNd,
		"xegpu.store_nd":                   (*builder).storeNd,
		"xegpu.dpas":                       (*builder).dpas,
		"xegpu.convert_layout":             (*builder).convertLayout,
		"gpu.subgroup_mma_load_matrix":     (*builder).wmmaLoad,
		"gpu.subgroup_mma_store_matrix":    (*builder).wmmaStore,
		"gpu.subgroup_mma_compute":         (*builder).wmmaCompute,
		"gpu.subgroup_mma_constant_matrix": (*builder).wmmaConstant,
		"gpu.subgroup_mma_elementwise":     (*builder).wmmaElementwise,
		"nvgpu.ldmatrix":                   (*builder).ldmatrix,
		"nvgpu.mma.sync":                   (*builder).laneMMAOp,
		"amdgpu.mfma":                      (*builder).laneMMAOp,
	}
	for name, h := range reader.SharedOps {
		handlers[name] = func(b *builder, op *ir.Op) { h(b.Builder, op) }
	}
	handlers["xegpu.prefetch_nd"] = func(b *builder, op *ir.Op) {} // a hint on memory
	// arith.index_cast of a vector<...xindex> is a cast (of a scalar, index
	// arithmetic the graph has no part of).
	handlers["arith.index_cast"] = func(b *builder, op *ir.Op) { b.ElementwiseAs(op, reader.CastAs("cast")) }
	handlers["arith.index_castui"] = handlers["arith.index_cast"]
}

// madeByLanes reads an op whose vector each lane makes for itself from
// its elements' positions alone (vector.create_mask, constant_mask: an i1
// mask of the elements below given bounds; vector.step: each element's
// position) as a constant: made at each use in the layout that use
// needs, as a splat constant is, at no cost.
func (b *builder) madeByLanes(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// mask is the i1 vector operand of a masked vector.transfer_read or
// transfer_write (its last operand, after the indices); nil without one.
func mask(op *ir.Op) *ir.Operand {
	if len(op.Operands) < 2 {
		return nil
	}
	o := op.Operands[len(op.Operands)-1]
	if vt, ok := o.Value.Type.(*ir.VectorType); ok && o != op.Operands[0] {
		if it, ok := vt.Elem.(*ir.IntType); ok && it.Width == 1 {
			return o
		}
	}
	return nil
}

// masked reads the mask of a masked access of vector v (its shape and
// type): nil where there is none, or where it is made at each use (a
// constant, create_mask, constant_mask: in the access's layout, at no
// cost); else the graph value of the mask, which the access reads in the
// layout of the data it masks. ok is false when the mask is refused
// (reported).
func (b *builder) masked(op *ir.Op) (*model.Value, bool) {
	o := mask(op)
	if o == nil {
		return nil, true
	}
	m := b.Value(o)
	if m == nil {
		return nil, false
	}
	if m.Def != nil && m.Def.Info().AtUse {
		b.madeAtAccess[o] = true
		return nil, true
	}
	return m, true
}

// selectMasked is v where mask m holds, and a constant elsewhere: a
// select (named name) that lays the mask out as the data, which is how
// the graph reads a masked access by a mask the kernel computes.
func (b *builder) selectMasked(op *ir.Op, m, v *model.Value, res *ir.Value, name string, at model.Pos) *model.Value {
	other := b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: slices.Clone(v.Shape), DType: v.DType}, nil, name+"@pad", op.Pos)
	if other == nil {
		return nil
	}
	sel := &model.Op{Kind: model.OpElementwise, Fn: "select", Pos: op.Pos, Operands: []*model.Value{m, v, other}}
	return b.Add(sel, &model.OpArgs{Spelling: "select", DType: v.DType, Shape: slices.Clone(v.Shape)}, res, name, at)
}

// Understood lists the ops the reader understands, for messages.
func Understood() string {
	var vec, other []string
	arith, math := 0, 0
	for name := range handlers {
		switch {
		case strings.HasPrefix(name, "arith.") && name != "arith.constant":
			arith++
		case strings.HasPrefix(name, "math."):
			math++
		case strings.HasPrefix(name, "vector."):
			vec = append(vec, name)
		default:
			other = append(other, name)
		}
	}
	slices.Sort(vec)
	slices.Sort(other)
	var fns []string
	for name, fn := range reader.Elementwise {
		if strings.HasPrefix(name, "arith.") || strings.HasPrefix(name, "math.") {
			fns = append(fns, strings.SplitN(name, ".", 2)[1]+"→"+fn.Name)
		}
	}
	slices.Sort(fns)
	return strings.Join(vec, ", ") + "; " + strings.Join(other, ", ") + "; and arith/math element-wise ops (" + strings.Join(fns, ", ") + ")"
}

// arguments reads a function's arguments: memrefs as memory, XeGPU's
// tensor descriptors as blocks of it, vectors as values arriving in
// registers (an argument op, in the layout an anchor pins, else free).
func (b *builder) arguments(blk *ir.Block) {
	for _, a := range blk.Args {
		switch t := a.Type.(type) {
		case *ir.MemRefType:
			b.memref(a, t, a.Pos)
		case *ir.VectorType:
			shape, dt, ok := b.Vector(a.Type, a.Pos, "argument "+a.String())
			if !ok {
				b.Failed[a] = true
				continue
			}
			if tile, ok := b.laneArgument(a); ok {
				if tile == nil {
					continue
				}
				shape = tile
			}
			op := &model.Op{Kind: model.OpArgument, Pos: a.Pos}
			b.Add(op, &model.OpArgs{Shape: shape, DType: dt}, a, a.Name, a.Pos)
		case *ir.TensorDescType:
			b.descriptorArgument(a, t)
		case *ir.TensorType:
			b.Errorf(a.Pos, model.CodeBadValue, "argument %s is a %s: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", a, t)
			b.Failed[a] = true
		}
	}
}

// ReadOp reads one op.
func (b *builder) ReadOp(op *ir.Op) {
	if op.Opaque {
		for _, m := range op.Mentions {
			if strings.HasPrefix(m, "tensor") {
				b.Fail(op, model.CodeBadValue, "%s works on tensors: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", op.Name)
				return
			}
		}
		if strings.HasPrefix(op.Name, "xegpu.") && !slices.Contains(xegpuSync, op.Name) {
			b.Fail(op, model.CodeUnknownName, "%s", xegpuUnknown(op))
			return
		}
		if len(op.Mentions) > 0 {
			b.Fail(op, model.CodeUnknownName, "%s is not understood, and it touches vectors (%s): the reader understands %s", op.Name, strings.Join(op.Mentions, ", "), Understood())
		}
		return
	}
	if reader.Touches[*ir.TensorType](op) {
		b.Fail(op, model.CodeBadValue, "%s works on tensors: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", op.Name)
		return
	}
	h, ok := handlers[op.Name]
	if !ok {
		if reader.TouchesVectors(op) {
			b.Fail(op, model.CodeUnknownName, "%s is not understood, and it touches vectors: the reader understands %s", op.Name, Understood())
			return
		}
		if inner := b.vectorInside(op); inner != nil {
			b.Fail(op, model.CodeUnknownName, "%s at %s works on vectors inside the region of %s: the reader follows the regions of func.func and scf.for only", inner.Name, inner.Pos, op.Name)
		}
		return
	}
	if !b.Ready(op, op.Name) {
		return
	}
	if !b.operandLayouts(op) {
		for _, r := range op.Results {
			b.Failed[r] = true
		}
		return
	}
	h(b, op)
	b.resultLayouts(op)
}

// vectorInside finds an op touching vectors in op's regions.
func (b *builder) vectorInside(op *ir.Op) *ir.Op {
	for _, r := range op.Regions {
		for _, blk := range r.Blocks {
			for _, a := range blk.Args {
				if _, ok := a.Type.(*ir.VectorType); ok {
					return op
				}
			}
			for _, in := range blk.Ops {
				if len(in.Mentions) > 0 || reader.TouchesVectors(in) {
					return in
				}
				if x := b.vectorInside(in); x != nil {
					return x
				}
			}
		}
	}
	return nil
}

// memref records a memref value: its memory space, and for shared memory
// that its shape is static.
func (b *builder) memref(v *ir.Value, t *ir.MemRefType, pos model.Pos) {
	space, ok := memorySpace(t.MemSpace)
	if !ok {
		b.Errorf(pos, model.CodeUnknownName, "%s is in memory space %s, which the planner does not know: it reads global memory (no memory space, #gpu.address_space<global>, 1) and shared memory (#gpu.address_space<workgroup>, 3)", v, t.MemSpace)
		b.Failed[v] = true
		return
	}
	if space == "shared" {
		if t.Unranked || slices.Contains(t.Shape, ir.Dynamic) {
			b.Errorf(pos, model.CodeBadValue, "the shared-memory buffer %s has the shape of %s, which is not constant: the planner places buffers of known size", v, t)
			b.Failed[v] = true
			return
		}
	}
	b.mems[v] = &memInfo{space: space, typ: t}
}

// memorySpace names a memref's memory space: "global" or "shared"; false
// for one the planner does not read (private memory, an unknown space).
func memorySpace(a ir.Attr) (string, bool) {
	switch s := a.(type) {
	case nil:
		return "global", true
	case *ir.IntAttr:
		switch s.Text {
		case "0", "1":
			return "global", true
		case "3":
			return "shared", true
		}
	case *ir.DialectAttr:
		switch s.Name + "<" + s.Body + ">" {
		case "gpu.address_space<global>", "amdgpu.address_space<fat_raw_buffer>", "amdgpu.address_space<buffer_rsrc>":
			return "global", true
		case "gpu.address_space<workgroup>":
			return "shared", true
		}
	}
	return "", false
}

func (b *builder) alloc(op *ir.Op) {
	res := op.Results[0]
	t, ok := res.Type.(*ir.MemRefType)
	if !ok {
		return
	}
	b.memref(res, t, op.Pos)
}

// mem gives what is known of the memref an access reads or writes.
func (b *builder) mem(o *ir.Operand) *memInfo {
	v := o.Value
	if m := b.mems[v]; m != nil {
		return m
	}
	if b.Failed[v] {
		return nil
	}
	t, ok := v.Type.(*ir.MemRefType)
	if !ok {
		if _, tensor := v.Type.(*ir.TensorType); tensor {
			b.Errorf(o.Pos, model.CodeBadValue, "%s is a %s, not a memref: the planner reads kernels in the vector dialect after bufferization", v, v.Type)
		} else {
			b.Errorf(o.Pos, model.CodeBadValue, "%s is %v, not a memref", v, v.Type)
		}
		b.Failed[v] = true
		return nil
	}
	// A memref some op the reader skips made (a subview, a cast): its
	// type says where it lives.
	b.memref(v, t, v.Pos)
	return b.mems[v]
}

// access works out how an access of vector shape vshape touches a memref
// of rank rank: the memref dimension each vector dimension runs along, -1
// for one the permutation_map broadcasts (a result 0), where bcast allows
// it.
func (b *builder) access(op *ir.Op, vshape []int, memT *ir.MemRefType, bcast bool) ([]int, bool) {
	rank := len(memT.Shape)
	if memT.Unranked {
		b.Fail(op, model.CodeBadValue, "%s accesses an unranked memref: the planner needs its rank", op.Name)
		return nil, false
	}
	pm, mapped := op.Attr("permutation_map")
	if len(vshape) > rank && !mapped {
		b.Fail(op, model.CodeRankMismatch, "%s accesses a rank-%d vector in a rank-%d memref", op.Name, len(vshape), rank)
		return nil, false
	}
	dims := make([]int, len(vshape))
	for i := range dims {
		dims[i] = rank - len(vshape) + i // the minor identity
	}
	if mapped {
		am, isMap := pm.Value.(*ir.AffineMapAttr)
		if !isMap {
			b.Fail(op, model.CodeBadValue, "%s's permutation_map is %s, not an affine map", op.Name, pm.Value)
			return nil, false
		}
		m := am.Map
		rd, plain := m.ResultDims()
		switch {
		case len(m.Dims) != rank || len(m.Results) != len(vshape):
			b.Errorf(pm.ValuePos, model.CodeRankMismatch, "permutation_map %s maps %d memref dimension(s) to %d vector dimension(s), but the memref has rank %d and the vector %d", am, len(m.Dims), len(m.Results), rank, len(vshape))
			return nil, false
		case !plain:
			b.Errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s is not a permutation of the memref's dimensions (each result a dimension)", am)
			return nil, false
		case slices.Contains(rd, -1) && !bcast:
			b.Errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s broadcasts (a result 0): the planner reads a broadcast only from global memory, each vector element of shared memory from its own place", am)
			return nil, false
		}
		for i, d := range rd {
			if d >= 0 && slices.Contains(rd[:i], d) {
				b.Errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s names dimension %s twice", am, m.Dims[d])
				return nil, false
			}
		}
		dims = rd
	}
	return dims, true
}

// memoryOrder gives the tile an access touches in memory order (the
// vector's dimensions sorted by the memref dimension they run along) and
// the permutation from that tile to the vector (nil when none).
func memoryOrder(vshape, dims []int) ([]int, []int) {
	order := make([]int, len(dims)) // order[j]: the vector dimension j-th in memory
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return dims[x] - dims[y] })
	tile := make([]int, len(vshape))
	transposed := false
	for j, k := range order {
		tile[j] = vshape[k]
		transposed = transposed || j != k
	}
	if !transposed {
		return tile, nil
	}
	// perm[k] is the tile dimension that vector dimension k is.
	perm := make([]int, len(order))
	for j, k := range order {
		perm[k] = j
	}
	return tile, perm
}

// buffer is the shared-memory buffer a memref's accesses make: the tile
// they touch, one for all of them.
func (b *builder) buffer(op *ir.Op, o *ir.Operand, m *memInfo, tile []int, dt model.DType) *model.Buffer {
	v := o.Value
	if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
		b.Fail(op, model.CodeShapeMismatch, "%s moves %s elements through %s of %s elements", op.Name, dt.Name, v, m.typ.Elem)
		return nil
	}
	if buf := b.bufs[v]; buf != nil {
		if !slices.Equal(buf.Shape, tile) {
			e := b.Fail(op, model.CodeShapeMismatch, "%s touches a %v tile of %s, but an access at %s touched %v: the planner reads a shared-memory buffer as the one tile its accesses touch", op.Name, tile, v, buf.Pos, buf.Shape)
			e.Related = []model.Pos{buf.Pos}
			return nil
		}
		return buf
	}
	pos := v.Pos
	if v.Def != nil {
		pos = v.Def.Pos
	}
	buf := &model.Buffer{Name: v.Name, Shape: slices.Clone(tile), DType: dt, Pos: pos}
	if !slices.Equal(m.typ.Shape, tile) {
		buf.Allocated = slices.Clone(m.typ.Shape)
	}
	if len(tile) == 2 {
		buf.Layout = &model.SharedLayout{Rows: tile[0], Cols: tile[1], ElemBits: dt.Bits, Swizzle: "none"}
		if s, ok := m.typ.Layout.(*ir.StridedAttr); ok && len(s.Strides) == len(m.typ.Shape) && s.Strides[len(s.Strides)-1] == 1 {
			if row := s.Strides[len(s.Strides)-2]; row != ir.Dynamic && row > tile[1] {
				buf.Layout.Stride = row
			}
		}
	}
	b.bufs[v] = buf
	b.G.Buffers = append(b.G.Buffers, buf)
	return buf
}

// read reads vector.transfer_read and vector.load: a load from global
// memory, or a load_shared of a shared buffer (and a transpose when the
// permutation_map transposes).
func (b *builder) read(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	if b.laneRead(op, res, dt) {
		return
	}
	m := b.mem(op.Operands[0])
	if m == nil {
		b.Failed[res] = true
		return
	}
	dims, ok := b.access(op, shape, m.typ, m.space == "global")
	if !ok {
		b.Failed[res] = true
		return
	}
	mask, ok := b.masked(op)
	if !ok {
		b.Failed[res] = true
		return
	}
	// A masked read is the read, then a select of its elements where the
	// mask holds (%x@unmasked the value read).
	out, name := res, res.Name
	if mask != nil {
		out, name = nil, res.Name+"@unmasked"
	}
	var v *model.Value
	if m.space == "global" {
		if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
			b.Fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
			return
		}
		mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: contiguous(dims)}
		if grow := broadcastDims(dims); grow != nil {
			// A permutation_map that broadcasts (a result 0) reads the
			// tile with those dimensions of extent 1 (%x@mem) and
			// broadcasts it along them.
			tile := slices.Clone(shape)
			for _, d := range grow {
				tile[d] = 1
			}
			if v = b.Add(mop, &model.OpArgs{Shape: tile, DType: dt}, nil, res.Name+"@mem", res.Pos); v != nil {
				v = b.Add(&model.Op{Kind: model.OpBroadcast, Pos: op.Pos, Operands: []*model.Value{v}, Dims: grow}, &model.OpArgs{Shape: shape, Dims: grow}, out, name, res.Pos)
			}
		} else {
			v = b.Add(mop, &model.OpArgs{Shape: shape, DType: dt}, out, name, res.Pos)
		}
	} else {
		tile, perm := memoryOrder(shape, dims)
		buf := b.buffer(op, op.Operands[0], m, tile, dt)
		if buf == nil {
			return
		}
		if perm == nil {
			v = b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, out, name, res.Pos)
		} else {
			tv := b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, nil, res.Name+"@mem", res.Pos)
			if tv == nil {
				b.Failed[res] = true
				return
			}
			v = b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{tv}, Perm: perm}, &model.OpArgs{Perm: perm}, out, name, res.Pos)
		}
	}
	if mask == nil {
		return
	}
	if v == nil || b.selectMasked(op, mask, v, res, res.Name, res.Pos) == nil {
		b.Failed[res] = true
	}
}

// broadcastDims are the vector dimensions an access broadcasts (dims
// -1); nil for none.
func broadcastDims(dims []int) []int {
	var out []int
	for i, d := range dims {
		if d < 0 {
			out = append(out, i)
		}
	}
	return out
}

// contiguous is the vector dimension that runs along the innermost memref
// dimension the access touches.
func contiguous(dims []int) int {
	best := 0
	for i, d := range dims {
		if d > dims[best] {
			best = i
		}
	}
	return best
}

// write reads vector.transfer_write and vector.store: a store to global
// memory, or a copy_to_shared (after a transpose when the
// permutation_map transposes).
func (b *builder) write(op *ir.Op) {
	vi, mi := 0, 1 // the vector, then the memref, in both ops' operands
	src := b.Value(op.Operands[vi])
	if src == nil {
		return
	}
	m := b.mem(op.Operands[mi])
	if m == nil {
		return
	}
	dims, ok := b.access(op, src.Shape, m.typ, false)
	if !ok {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	// A masked write writes the select of its elements where the mask
	// holds (%v@mask).
	if mask, ok := b.masked(op); !ok {
		return
	} else if mask != nil {
		if src = b.selectMasked(op, mask, src, nil, src.Name+"@mask", op.Pos); src == nil {
			return
		}
	}
	if m.space == "global" {
		if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != src.DType.Name {
			b.Fail(op, model.CodeShapeMismatch, "%s writes %s elements to %s of %s elements", op.Name, src.DType.Name, op.Operands[mi].Value, m.typ.Elem)
			return
		}
		mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: contiguous(dims), Name: name}
		b.Add(mop, &model.OpArgs{}, nil, name, op.Pos)
		return
	}
	tile, perm := memoryOrder(src.Shape, dims)
	buf := b.buffer(op, op.Operands[mi], m, tile, src.DType)
	if buf == nil {
		return
	}
	if perm != nil {
		inv := model.InversePermutation(perm)
		src = b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: inv}, &model.OpArgs{Perm: inv}, nil, src.Name+"@mem", op.Pos)
		if src == nil {
			return
		}
	}
	b.Add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
}

// gather reads IREE's iree_vector_ext.transfer_gather (VectorExtOps.td,
// TransferGatherOp) as a load of the vector from global memory, priced as
// one whose innermost dimension is the vector dimension its source map
// sends to the source's innermost dimension: the gathered dimensions take
// their positions from index vectors, a row (or column) at a time, and the
// innermost one must not be gathered. An index vector the lanes make
// (vector.step, a constant) is made in the load's layout; one the kernel
// computes is read where it lies, as the addresses of a TTGIR load are:
// the graph does not tie its layout to the load's. A mask is read as for
// vector.transfer_read.
func (b *builder) gather(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	m := b.mem(op.Operands[0])
	if m == nil {
		b.Failed[res] = true
		return
	}
	if m.space != "global" {
		b.Fail(op, model.CodeBadValue, "iree_vector_ext.transfer_gather gathers from %s in shared memory: the planner reads gathers from global memory", op.Operands[0].Value)
		return
	}
	if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
		b.Fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
		return
	}
	maps, _ := op.Attr("indexing_maps")
	if maps == nil {
		b.Fail(op, model.CodeMissingKey, "iree_vector_ext.transfer_gather has no indexing_maps")
		return
	}
	arr, _ := maps.Value.(*ir.ArrayAttr)
	var src *ir.AffineMapAttr
	if arr != nil && len(arr.Elems) > 0 {
		src, _ = arr.Elems[0].(*ir.AffineMapAttr)
	}
	if src == nil || len(src.Map.Dims) != len(shape) || len(src.Map.Results) == 0 {
		b.Fail(op, model.CodeBadValue, "iree_vector_ext.transfer_gather's indexing_maps do not begin with a source map from the vector's %d dimensions", len(shape))
		return
	}
	last := src.Map.Results[len(src.Map.Results)-1]
	if last.Kind != ir.ExprDim {
		b.Errorf(maps.ValuePos, model.CodeBadValue, "iree_vector_ext.transfer_gather's source map %s gathers along the source's innermost dimension: the planner reads gathers of rows whose innermost dimension is contiguous, running along a dimension of the vector", src)
		b.Failed[res] = true
		return
	}
	sizes, _ := reader.IntsAttr(op, "operandSegmentSizes")
	total := 0
	for _, n := range sizes {
		total += max(n, 0)
	}
	if len(sizes) == 5 && total == len(op.Operands) && min(sizes[1], sizes[2]) >= 0 {
		for _, o := range op.Operands[1+sizes[1] : 1+sizes[1]+sizes[2]] {
			v := b.Value(o)
			if v == nil {
				b.Failed[res] = true
				return
			}
			if v.Def != nil && v.Def.Info().AtUse {
				b.madeAtAccess[o] = true // made where the load needs it: no anchor
			}
		}
	}
	mask, ok := b.masked(op)
	if !ok {
		b.Failed[res] = true
		return
	}
	out, name := res, res.Name
	if mask != nil {
		out, name = nil, res.Name+"@unmasked"
	}
	v := b.Add(&model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: last.Pos}, &model.OpArgs{Shape: shape, DType: dt}, out, name, res.Pos)
	if mask == nil {
		return
	}
	if v == nil || b.selectMasked(op, mask, v, res, res.Name, res.Pos) == nil {
		b.Failed[res] = true
	}
}
