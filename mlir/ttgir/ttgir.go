package ttgir

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// TTGIR is Triton's GPU dialect: a module whose attributes name
// ttg.num-warps (or the older triton_gpu.num-warps) and whose kernel is a
// tt.func, on tensors whose types carry Triton's layout encodings
// (docs/triton.md). The reader reads such a module's tensors as it reads
// a vector-dialect kernel's vectors.

// Is reports whether a parsed module is TTGIR: it holds a tt.func, or
// its module carries ttg. (or triton_gpu.) attributes.
func Is(m *ir.Module) bool {
	found := false
	ir.Visit(m.Ops, func(op *ir.Op) bool {
		found = found || op.Name == "tt.func" || op.Name == "builtin.module" && slices.ContainsFunc(op.Attrs, func(a *ir.NamedAttr) bool {
			return strings.HasPrefix(a.Name, "ttg.") || strings.HasPrefix(a.Name, "triton_gpu.")
		})
		return !found
	})
	return found
}

// ttHandlers are the TTGIR ops the reader maps, by name (the older
// triton_gpu. names read as ttg.); arith, math, scf.for and
// arith.constant are read as every front end reads them (SharedOps).
var ttHandlers map[string]func(b *ttBuilder, op *ir.Op)

// ttSkipped are TTGIR ops on scalars, program ids and buffers' lifetimes:
// read and passed over.
var ttSkipped = []string{"tt.return", "tt.get_program_id", "tt.get_num_programs", "ttg.local_dealloc", "gpu.barrier", "tt.assert", "tt.print", "ttng.fence_async_shared"}

func init() {
	ttHandlers = map[string]func(b *ttBuilder, op *ir.Op){
		"tt.load":             (*ttBuilder).ttLoad,
		"tt.store":            (*ttBuilder).ttStore,
		"tt.dot":              (*ttBuilder).ttDot,
		"ttng.warp_group_dot": (*ttBuilder).ttDot,
		"tt.reduce":           (*ttBuilder).ttReduce,
		"tt.expand_dims":      (*ttBuilder).ShapeCast,
		"tt.reshape":          (*ttBuilder).ShapeCast,
		"tt.broadcast":        (*ttBuilder).Broadcast,
		"tt.trans":            (*ttBuilder).ttTrans,
		"tt.fp_to_fp":         (*ttBuilder).ttFpToFp,
		"ttg.convert_layout":  (*ttBuilder).ttConvert,
		"ttg.local_alloc":     (*ttBuilder).localAlloc,
		"ttg.local_load":      (*ttBuilder).localLoad,
		"ttg.local_store":     (*ttBuilder).localStore,
		"ttg.memdesc_trans":   (*ttBuilder).memdescTrans,
		"scf.if":              (*ttBuilder).ttIf,
	}
	for _, name := range ttSkipped {
		ttHandlers[name] = func(b *ttBuilder, op *ir.Op) {}
	}
}

// ttUnderstood lists the TTGIR ops the reader maps, for messages.
func ttUnderstood() string {
	var names []string
	for name := range ttHandlers {
		names = append(names, name)
	}
	for _, name := range freeProducers {
		names = append(names, name)
	}
	names = append(names, "tt.addptr", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int", "scf.for", "arith.constant")
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ") + " and arith/math element-wise ops"
}

// freeProducers make tensors the planner does not lay out: index ranges,
// splats of scalars, constants. Created in whatever layout their consumer
// needs at no cost, as Triton rematerialises them
// (lib/Dialect/TritonGPU/Transforms/RemoveLayoutConversions.cpp).
var freeProducers = []string{"tt.make_range", "tt.splat", "arith.constant", "tt.get_program_id", "tt.get_num_programs"}

// freeThrough are the ops whose result is free when every tensor they
// read is: pointer and index arithmetic and the shape ops around it.
var freeThrough = map[string]bool{
	"tt.addptr": true, "tt.expand_dims": true, "tt.broadcast": true, "tt.trans": true, "tt.reshape": true,
	"tt.fp_to_fp": true, "tt.bitcast": true, "tt.int_to_ptr": true, "tt.ptr_to_int": true, "ttg.convert_layout": true,
}

// isPtrTensor reports whether t is a tensor of pointers.
func isPtrTensor(t ir.Type) bool {
	tt, ok := t.(*ir.TensorType)
	if !ok {
		return false
	}
	o, ok := tt.Elem.(*ir.OpaqueType)
	return ok && strings.HasPrefix(o.Text, "!tt.ptr")
}

// markFree finds the free tensors of the function: those made by a free
// producer, or by pointer, index or element-wise arithmetic on free
// tensors only, or carried by a loop (or given by an scf.if) whose every
// incoming value is free. It is the greatest such set: loop-carried
// values start free and lose it when a value that is not flows in.
func (b *ttBuilder) markFree(fn *ir.Op) {
	free := b.freeTensors
	var ops []*ir.Op
	var collect func(op *ir.Op)
	collect = func(op *ir.Op) {
		for _, r := range op.Regions {
			for _, blk := range r.Blocks {
				for _, o := range blk.Ops {
					ops = append(ops, o)
					for _, r := range o.Results {
						free[r] = isTensor(r.Type) // optimistic: the iteration below only takes freedom away
					}
					if o.Name == "scf.for" && len(o.Regions) == 1 && len(o.Regions[0].Blocks) == 1 {
						for _, a := range o.Regions[0].Blocks[0].Args[1:] {
							free[a] = isTensor(a.Type)
						}
					}
					collect(o)
				}
			}
		}
	}
	collect(fn)
	tensorsFree := func(op *ir.Op) bool {
		for _, o := range op.Operands {
			if isTensor(o.Value.Type) && !free[o.Value] {
				return false
			}
		}
		return true
	}
	yieldFree := func(r *ir.Region, i int) bool {
		if len(r.Blocks) != 1 {
			return false
		}
		blk := r.Blocks[0]
		if n := len(blk.Ops); n > 0 && blk.Ops[n-1].Name == "scf.yield" && i < len(blk.Ops[n-1].Operands) {
			return free[blk.Ops[n-1].Operands[i].Value]
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		set := func(v *ir.Value, f bool) {
			f = f && isTensor(v.Type)
			if free[v] != f {
				free[v] = f
				changed = true
			}
		}
		for _, op := range ops {
			name := ir.TTName(op.Name)
			switch {
			case name == "scf.for" && len(op.Regions) == 1 && len(op.Regions[0].Blocks) == 1:
				args := op.Regions[0].Blocks[0].Args
				for i, r := range op.Results {
					if i+1 >= len(args) || 3+i >= len(op.Operands) {
						continue
					}
					a := args[i+1]
					f := free[a] && free[op.Operands[3+i].Value] && yieldFree(op.Regions[0], i)
					set(a, f)
					set(r, f)
				}
			case name == "scf.if":
				for i, r := range op.Results {
					f := len(op.Regions) == 2
					for _, reg := range op.Regions {
						f = f && yieldFree(reg, i)
					}
					set(r, f)
				}
			case slices.Contains(freeProducers, name):
				for _, r := range op.Results {
					set(r, true)
				}
			case freeThrough[name] || strings.HasPrefix(name, "arith.") || strings.HasPrefix(name, "math."):
				f := tensorsFree(op)
				for _, r := range op.Results {
					set(r, f || isPtrTensor(r.Type))
				}
			default:
				for _, r := range op.Results {
					set(r, isPtrTensor(r.Type))
				}
			}
		}
	}
}

func isTensor(t ir.Type) bool {
	_, ok := t.(*ir.TensorType)
	return ok
}

// ReadOp reads one op of a TTGIR kernel.
func (b *ttBuilder) ReadOp(op *ir.Op) {
	name := ir.TTName(op.Name)
	if op.Opaque {
		if len(op.Mentions) > 0 {
			b.Fail(op, model.CodeUnknownName, "%s is not understood, and it touches tensors (%s): the reader understands %s", op.Name, strings.Join(op.Mentions, ", "), ttUnderstood())
		}
		return
	}
	for _, r := range op.Results {
		if isTensor(r.Type) {
			b.encoding(r.Type.(*ir.TensorType), r.Pos)
		}
	}
	if len(op.Results) > 0 && name != "scf.for" && name != "scf.if" && !slices.ContainsFunc(op.Results, func(r *ir.Value) bool { return !b.freeTensors[r] }) {
		return // a free tensor: made at each use
	}
	if name == "tt.addptr" && !reader.Touches[*ir.TensorType](op) {
		return // a scalar pointer's arithmetic
	}
	h, ok := ttHandlers[name]
	if sh, shared := reader.SharedOps[name]; !ok && shared {
		h, ok = func(b *ttBuilder, op *ir.Op) { sh(b.Builder, op) }, true
	}
	if !ok || strings.HasPrefix(name, "vector.") || name == "iree_vector_ext.to_layout" {
		if strings.HasPrefix(name, "tt.") || strings.HasPrefix(name, "ttg.") || reader.Touches[*ir.TensorType](op) {
			b.Fail(op, model.CodeUnknownName, "%s is not understood in TTGIR: the reader understands %s", op.Name, ttUnderstood())
		}
		return
	}
	if !b.Ready(op, name) {
		return
	}
	outer := b.Cur
	b.Cur = op
	h(b, op)
	b.Cur = outer
	for _, r := range op.Results {
		b.pinResult(r, false)
	}
	if name == "scf.for" && len(op.Regions) == 1 && len(op.Regions[0].Blocks) == 1 {
		for _, a := range op.Regions[0].Blocks[0].Args {
			b.pinResult(a, false)
		}
	}
}

// freeConstant is the graph value a use of a free tensor reads: a
// constant made for that use alone, so that each consumer has it in the
// layout it needs at no cost.
func (b *ttBuilder) freeConstant(o *ir.Operand) *model.Value {
	if v := b.freeUse[o]; v != nil {
		return v
	}
	shape, dt, ok := b.Vector(o.Value.Type, o.Pos, o.Value.String())
	if !ok {
		b.Failed[o.Value] = true
		return nil
	}
	v := b.Add(&model.Op{Kind: model.OpConstant, Pos: o.Pos}, &model.OpArgs{Shape: shape, DType: dt}, nil, o.Value.Name, o.Pos)
	b.freeUse[o] = v
	return v
}

// encInfo is a tensor type's encoding, read once per spelling.
type encInfo struct {
	enc    *notation.Triton
	layout *model.Layout
	err    bool
}

// encodingPos is where an encoding is written: its alias's definition
// when it is one, else where the value of that type is defined.
func (b *ttBuilder) encodingPos(a ir.Attr, at model.Pos) model.Pos {
	for name, v := range b.Mod.AttrAliases {
		if v == a {
			return b.Mod.AliasPos[name]
		}
	}
	return at
}

// encoding reads a tensor type's encoding as a Triton layout for the
// tensor's shape, reporting a bad one once: a mistake in the encoding's
// text at the field it is about, one in what it gives for the shape where
// the encoding is written.
func (b *ttBuilder) encoding(t *ir.TensorType, at model.Pos) *encInfo {
	if t.Encoding == nil {
		return &encInfo{err: true}
	}
	n, nerr := notation.EncodingNode(t.Encoding, at)
	text := t.Encoding.String()
	if n != nil {
		text = n.String()
	}
	key := text + "|" + fmt.Sprint(t.Shape)
	if e, ok := b.encs[key]; ok {
		return e
	}
	e := &encInfo{}
	b.encs[key] = e
	if strings.Contains(text, "_shared") || strings.Contains(text, "shared_memory") {
		e.err = true
		return e
	}
	pos := b.encodingPos(t.Encoding, at)
	var err error
	if nerr != nil {
		err, pos = nerr, nerr.Pos
	} else if enc, cerr := notation.TritonEncodingOf(n); cerr != nil {
		err, pos = cerr, cerr.Pos
	} else {
		if b.Target == nil {
			e.err = true
			return e
		}
		e.enc = &notation.Triton{Enc: enc}
		f := model.Frame{Shape: t.Shape, SubgroupSize: b.Target.SubgroupSize, Subgroups: b.G.Subgroups}
		e.layout, err = e.enc.Layout(f)
	}
	if err != nil {
		msg := err.Error()
		if me, ok := err.(*model.Error); ok {
			msg = me.Msg
		}
		e.err = true
		if b.encErrs[msg] {
			return e // the same mistake, in a parent already reported
		}
		b.encErrs[msg] = true
		var what ir.Attr = t.Encoding
		if apos, parent, ok := b.parentAt(t, n, msg); ok {
			what = parent
			if nerr == nil && pos == b.encodingPos(t.Encoding, at) {
				pos = apos
			}
		}
		b.Errorf(pos, model.CodeBadValue, "the encoding %s of a %s tensor: %s", what, shapeText(t.Shape), msg)
	}
	return e
}

// parentAt finds, for an encoding that names an alias (a dot_op's or a
// slice's parent), the alias whose own encoding is what is wrong: the
// alias alone, on the same shape, fails with the same message.
func (b *ttBuilder) parentAt(t *ir.TensorType, n *ir.AttrNode, msg string) (model.Pos, ir.Attr, bool) {
	if n == nil || b.Target == nil {
		return model.Pos{}, nil, false
	}
	for _, name := range aliasUses(n) {
		a := b.Mod.AttrAliases[name]
		if a == t.Encoding {
			continue
		}
		var err error
		if an, nerr := notation.EncodingNode(a, b.Mod.AliasPos[name]); nerr != nil {
			err = nerr
		} else if enc, cerr := notation.TritonEncodingOf(an); cerr != nil {
			err = cerr
		} else {
			_, err = (&notation.Triton{Enc: enc}).Layout(model.Frame{Shape: t.Shape, SubgroupSize: b.Target.SubgroupSize, Subgroups: b.G.Subgroups})
		}
		if me, ok := err.(*model.Error); ok && me.Msg == msg {
			return b.Mod.AliasPos[name], a, true
		}
	}
	return model.Pos{}, nil, false
}

// shapeText writes a shape as MLIR does, 64x64.
func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, "x")
}

// ttPin is the pin of a value of IR type t to its encoding, or nil.
func (b *ttBuilder) ttPin(t ir.Type, at model.Pos) *model.Pin {
	tt, ok := t.(*ir.TensorType)
	if !ok {
		return nil
	}
	e := b.encoding(tt, at)
	if e.err || e.layout == nil {
		return nil
	}
	return &model.Pin{Layout: e.layout, Notation: e.enc, Pos: at}
}

// pinResult pins the graph value of an IR result to its encoding when the
// reader keeps the input's layouts (every value, or the anchors' with
// KeepAnchors).
func (b *ttBuilder) pinResult(res *ir.Value, anchor bool) {
	if !(b.Opt.InputLayouts || anchor && b.Opt.KeepAnchors) {
		return
	}
	if v := b.Vals[res]; v != nil && v.Pin == nil {
		v.Pin = b.ttPin(res.Type, res.Pos)
	}
}

// contiguousOf is the dimension a load or store through the pointers
// ptr runs along in memory: the last dimension along which the pointers
// step by one element, as Triton's axis analysis finds it
// (lib/Analysis/AxisInfo.cpp, contiguity); where the pointer arithmetic
// shows none, a blocked encoding's fastest dimension, order[0], which
// Triton's coalescing pass sets from that contiguity
// (lib/Dialect/TritonGPU/Transforms/Coalesce.cpp); else the last.
func (b *ttBuilder) contiguousOf(ptr *ir.Value, at model.Pos) int {
	tt, ok := ptr.Type.(*ir.TensorType)
	if !ok || len(tt.Shape) == 0 {
		return 0
	}
	unit := b.unitStride(ptr, 0)
	for d := len(unit) - 1; d >= 0; d-- {
		if unit[d] {
			return d
		}
	}
	if e := b.encoding(tt, at); e.enc != nil {
		if bl, ok := e.enc.Enc.(*notation.TritonBlocked); ok && len(bl.Order) > 0 {
			return bl.Order[0]
		}
	}
	return len(tt.Shape) - 1
}

// unitStride says, for each dimension of an integer or pointer tensor,
// whether it steps by one along that dimension: a make_range does, and
// what expand_dims, broadcast, trans, casts, sums and addptr make of it;
// a product, a splat or a constant does not.
func (b *ttBuilder) unitStride(v *ir.Value, depth int) []bool {
	tt, ok := v.Type.(*ir.TensorType)
	if !ok {
		return nil
	}
	out := make([]bool, len(tt.Shape))
	op := v.Def
	if depth > 64 {
		return out
	}
	if op == nil {
		// A loop-carried tensor steps as its init does.
		if blk := v.Block; blk != nil && blk.Region != nil && blk.Region.Parent != nil && ir.TTName(blk.Region.Parent.Name) == "scf.for" && v.Index > 0 && 2+v.Index < len(blk.Region.Parent.Operands) {
			return b.unitStride(blk.Region.Parent.Operands[2+v.Index].Value, depth+1)
		}
		return out
	}
	arg := func(i int) []bool {
		if i >= len(op.Operands) {
			return nil
		}
		return b.unitStride(op.Operands[i].Value, depth+1)
	}
	switch name := ir.TTName(op.Name); name {
	case "tt.make_range":
		for i := range out {
			out[i] = true
		}
	case "tt.expand_dims":
		src, k := arg(0), 0
		for d := range out {
			if d != axisOf(op) && k < len(src) {
				out[d] = src[k]
				k++
			}
		}
	case "tt.broadcast", "ttg.convert_layout", "arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast":
		src := arg(0)
		for d := range out {
			out[d] = d < len(src) && src[d] && (name != "tt.broadcast" || shapeOf(op.Operands[0].Value.Type)[d] == tt.Shape[d])
		}
	case "tt.trans":
		src := arg(0)
		if oa, ok := op.Attr("order"); ok {
			if order, ok := reader.IntsOf(oa.Value); ok && len(order) == len(out) {
				for d, o := range order {
					out[d] = o < len(src) && src[o]
				}
			}
		}
	case "arith.addi", "arith.subi", "tt.addptr":
		for i := range 2 {
			for d, u := range arg(i) {
				if d < len(out) {
					out[d] = out[d] || u
				}
			}
		}
	}
	return out
}

// ttLoad reads tt.load of a tensor of pointers as a load from global
// memory; its mask and other are free (or ignored: the load's layout is
// the one priced).
func (b *ttBuilder) ttLoad(op *ir.Op) {
	res := op.Results[0]
	if !isTensor(res.Type) {
		return // a scalar load
	}
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: b.contiguousOf(op.Operands[0].Value, op.Pos)}
	b.Add(mop, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
	b.pinResult(res, true)
}

// ttStore reads tt.store of a tensor as a store to global memory.
func (b *ttBuilder) ttStore(op *ir.Op) {
	if len(op.Operands) < 2 || !isTensor(op.Operands[1].Value.Type) {
		return
	}
	src := b.Value(op.Operands[1])
	if src == nil {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: b.contiguousOf(op.Operands[0].Value, op.Pos), Name: name}
	if b.Opt.KeepAnchors || b.Opt.InputLayouts {
		mop.Layout = b.ttPin(op.Operands[0].Value.Type, op.Pos)
	}
	b.Add(mop, &model.OpArgs{}, nil, name, op.Pos)
}

// ttDot reads tt.dot as an mma: A is M×K, B is K×N.
func (b *ttBuilder) ttDot(op *ir.Op) {
	res := op.Results[0]
	if n := len(op.Operands); n != 3 && (op.Name != "ttng.warp_group_dot" || n != 4) {
		b.Fail(op, model.CodeRankMismatch, "%s has %d operands: it reads a, b and c", op.Name, len(op.Operands))
		return
	}
	var in [3]*model.Value
	for i := range in {
		if i < 2 && b.descs[op.Operands[i].Value] != nil {
			// Hopper's warpgroup dot reads A or B from shared memory
			// through a matrix descriptor (Triton
			// include/triton/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.td,
			// WarpGroupDotOp: "$a, $b" of TT_MemDescType): the buffer read
			// by the mma, which the planner may leave in place.
			if in[i] = b.descOperand(op, op.Operands[i], fmt.Sprintf("%s@%c", res.Name, 'a'+i)); in[i] == nil {
				b.Failed[res] = true
				return
			}
			// Whatever record the plan runs the dot on, the kernel
			// written back keeps the op, which Triton lowers to wgmma
			// reading this operand through a matrix descriptor
			// (WarpGroupDotOp::verify in
			// lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp wants its memory
			// descriptor operands in #ttg.nvmma_shared): the buffer's
			// placement must be one a descriptor describes.
			b.descs[op.Operands[i].Value].buf.Described = true
			continue
		}
		if in[i] = b.Value(op.Operands[i]); in[i] == nil {
			b.Failed[res] = true
			return
		}
		if i < 2 && b.Opt.KeepAnchors && !b.Opt.InputLayouts {
			in[i] = b.anchored(in[i], b.ttPin(op.Operands[i].Value.Type, op.Operands[i].Pos), op.Pos, fmt.Sprintf("%s@%c", res.Name, 'a'+i))
		}
	}
	// A ttng.warp_group_dot's result must be a version 3 #ttg.nvidia_mma
	// (model.Op.Warpgroup).
	b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: in[:], Warpgroup: ir.TTName(op.Name) == "ttng.warp_group_dot"}, &model.OpArgs{}, res, res.Name, res.Pos)
	b.pinResult(res, true)
}

// anchored is v in the layout pin gives: a view of v of the same shape
// (a shape_cast, so that a conversion to it stays possible) pinned to it;
// v itself without a pin.
func (b *ttBuilder) anchored(v *model.Value, pin *model.Pin, at model.Pos, name string) *model.Value {
	if pin == nil || v == nil {
		return v
	}
	w := b.Add(&model.Op{Kind: model.OpShapeCast, Pos: at, Operands: []*model.Value{v}}, &model.OpArgs{Shape: slices.Clone(v.Shape)}, nil, name, at)
	if w != nil {
		w.Pin = pin
	}
	return w
}

// ttConvert reads ttg.convert_layout as a plain use of its operand:
// whether a conversion remains is the planner's choice. Reading the
// input's own layouts, it is a view of the operand pinned to its result's
// encoding, so that the conversion it makes is priced.
func (b *ttBuilder) ttConvert(op *ir.Op) {
	res := op.Results[0]
	// Triton's verifier requires a convert_layout to keep its operand's
	// shape and element type (triton-lang/triton
	// include/triton/Dialect/TritonGPU/IR/TritonGPUOps.td,
	// TTG_ConvertLayoutOp: SameOperandsAndResultShape,
	// SameOperandsAndResultElementType).
	if in, ok := op.Operands[0].Value.Type.(*ir.TensorType); ok {
		if out, ok := res.Type.(*ir.TensorType); ok && (!slices.Equal(in.Shape, out.Shape) || in.Elem.String() != out.Elem.String()) {
			b.Fail(op, model.CodeShapeMismatch, "ttg.convert_layout changes only the layout: expected a result of shape %v and element type %s, as its operand %s, found %s",
				in.Shape, in.Elem, op.Operands[0].Value, out)
			return
		}
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	b.converts++
	if !b.Opt.InputLayouts {
		b.Folded[res] = src
		return
	}
	v := b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: slices.Clone(src.Shape)}, res, res.Name, res.Pos)
	if v != nil {
		v.Pin = b.ttPin(res.Type, res.Pos)
	}
}

// ttTrans reads tt.trans as a transpose by its order (result dimension i
// is the operand's dimension order[i], as vector.transpose's permutation).
func (b *ttBuilder) ttTrans(op *ir.Op) {
	res := op.Results[0]
	src := b.Source(op, res)
	if src == nil {
		return
	}
	perm, ok := reader.IntsAttr(op, "order")
	if !ok {
		b.Fail(op, model.CodeBadValue, "tt.trans's order is not a list of dimensions")
		return
	}
	b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// ttFpToFp reads tt.fp_to_fp as a cast that widens or narrows.
func (b *ttBuilder) ttFpToFp(op *ir.Op) {
	res := op.Results[0]
	from, _, ok1 := b.VectorQuiet(op.Operands[0].Value.Type)
	_, to, ok2 := b.VectorQuiet(res.Type)
	_, fdt, _ := b.VectorQuiet(op.Operands[0].Value.Type)
	fn := reader.CastAs("cast")
	switch {
	case !ok1 || !ok2 || from == nil:
	case to.Bits > fdt.Bits:
		fn = reader.CastAs("extf")
	case to.Bits < fdt.Bits:
		fn = reader.CastAs("truncf")
	}
	b.ElementwiseAs(op, fn)
}

// reduceCombiners are the combiners a tt.reduce region's one op may be.
var reduceCombiners = map[string]string{
	"arith.addf": "add", "arith.addi": "add", "arith.mulf": "mul", "arith.muli": "mul",
	"arith.maxnumf": "max", "arith.maximumf": "max", "arith.maxsi": "max", "arith.maxui": "max",
	"arith.minnumf": "min", "arith.minimumf": "min", "arith.minsi": "min", "arith.minui": "min",
}

// reduceCombiner recognises a tt.reduce's combiner region: one block of
// two arguments, one op of reduceCombiners on them, and tt.reduce.return
// of its result; "" (reported) otherwise.
func (b *ttBuilder) reduceCombiner(op *ir.Op) string {
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		b.Fail(op, model.CodeBadValue, "tt.reduce has no combiner region of one block")
		return ""
	}
	r := op.Regions[0]
	blk := r.Blocks[0]
	bad := func(why string) string {
		b.Fail(op, model.CodeBadValue, "tt.reduce's combiner region at %s %s: the planner's reductions add, multiply, take the maximum or the minimum (arith.addf, mulf, maxnumf, minnumf and their kin)", r.Pos, why)
		return ""
	}
	if len(blk.Args) != 2 || len(blk.Ops) != 2 || (blk.Ops[1].Name != "tt.reduce.return") {
		return bad("is not one combining op and tt.reduce.return")
	}
	c := blk.Ops[0]
	fn, ok := reduceCombiners[c.Name]
	if !ok {
		return bad("combines with " + c.Name)
	}
	if len(c.Operands) != 2 || len(c.Results) != 1 || len(blk.Ops[1].Operands) != 1 || blk.Ops[1].Operands[0].Value != c.Results[0] {
		return bad("does not return its combining op's result")
	}
	args := []*ir.Value{c.Operands[0].Value, c.Operands[1].Value}
	if !(args[0] == blk.Args[0] && args[1] == blk.Args[1] || args[0] == blk.Args[1] && args[1] == blk.Args[0]) {
		return bad("does not combine its two arguments")
	}
	return fn
}

// ttReduce reads tt.reduce of one tensor along its axis as a reduce; to
// a scalar when the tensor has one dimension.
func (b *ttBuilder) ttReduce(op *ir.Op) {
	if len(op.Operands) != 1 || len(op.Results) != 1 {
		b.Fail(op, model.CodeBadValue, "tt.reduce reduces %d tensor(s) together: the planner reads a reduction of one tensor", len(op.Operands))
		return
	}
	res := op.Results[0]
	fn := b.reduceCombiner(op)
	if fn == "" {
		return
	}
	aa, _ := op.Attr("axis")
	axis := -1
	if aa != nil {
		if ia, ok := aa.Value.(*ir.IntAttr); ok {
			if n, ok := ia.Int64(); ok && n >= 0 && n < model.MaxRank {
				axis = int(n)
			}
		}
	}
	src := b.Source(op, res)
	if src == nil {
		return
	}
	if axis < 0 || axis >= len(src.Shape) {
		b.Fail(op, model.CodeBadValue, "tt.reduce's axis is not a dimension of its %d-dimensional operand", len(src.Shape))
		return
	}
	if len(src.Shape) == 1 {
		b.ToScalar(op, src, fn, nil, res)
		return
	}
	b.Add(&model.Op{Kind: model.OpReduce, Fn: fn, Axis: axis, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Axis: axis}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// ttIf reads scf.if: the ops of both branches (priced as if both ran),
// and the tensors it gives as the results of a loop of one trip that
// starts from the then-branch's values and yields the else-branch's, so
// that each branch's value is converted to the result's layout where it
// differs, and at no other cost.
func (b *ttBuilder) ttIf(op *ir.Op) {
	var yields []*ir.Op
	for _, r := range op.Regions {
		if len(r.Blocks) != 1 {
			b.Fail(op, model.CodeBadValue, "scf.if's branch at %s is not one block", r.Pos)
			return
		}
		blk := r.Blocks[0]
		for _, o := range blk.Ops {
			if o.Name != "scf.yield" {
				b.ReadOp(o)
			} else {
				yields = append(yields, o)
			}
		}
	}
	var results []*ir.Value
	for _, res := range op.Results {
		if !b.freeTensors[res] && isTensor(res.Type) {
			results = append(results, res)
		}
	}
	if len(results) == 0 {
		return
	}
	if len(yields) != 2 {
		b.Fail(op, model.CodeBadValue, "scf.if gives %s without an else branch that yields it", results[0])
		return
	}
	name := reader.Unique(b.OpNames, strings.SplitN(results[0].Name, "#", 2)[0]+"@if")
	mop := &model.Op{Kind: model.OpLoop, Pos: op.Pos, Name: name}
	l := &model.Loop{Name: name, Trips: 1, Parent: b.Loop, Op: mop, Pos: op.Pos}
	mop.Body = l
	for _, res := range results {
		i := res.Index
		if i >= len(yields[0].Operands) || i >= len(yields[1].Operands) {
			b.Fail(op, model.CodeBadValue, "scf.if gives %s without an scf.yield of it in both branches", res)
			return
		}
		x, y := b.Value(yields[0].Operands[i]), b.Value(yields[1].Operands[i])
		if x == nil || y == nil {
			b.Failed[res] = true
			return
		}
		k := len(l.Inits)
		arg := &model.Value{Name: reader.Unique(b.Names, res.Name+"@if"), Shape: slices.Clone(x.Shape), DType: x.DType, Pos: res.Pos, Arg: l}
		r := &model.Value{Name: reader.Unique(b.Names, res.Name), Shape: slices.Clone(x.Shape), DType: x.DType, Pos: res.Pos, Def: mop}
		b.G.Values = append(b.G.Values, arg, r)
		l.Inits, l.Args, l.Yields, l.Results = append(l.Inits, x), append(l.Args, arg), append(l.Yields, y), append(l.Results, r)
		x.Uses = append(x.Uses, model.Use{Op: mop, Index: k})
		y.Uses = append(y.Uses, model.Use{Op: mop, Index: k, Yield: true})
		b.Vals[res] = r
	}
	b.Emit(mop)
}

// memDesc is what the reader knows of a !ttg.memdesc value: the buffer it
// views and the permutation from the buffer's dimensions to the view's
// (nil: none).
type memDesc struct {
	buf  *model.Buffer
	perm []int
	enc  ir.Attr // the shared encoding, as written
}

// memdescRE reads !ttg.memdesc<64x64xf16, #shared, #smem, mutable>.
var memdescRE = regexp.MustCompile(`^!(?:ttg|triton_gpu)\.memdesc<((?:\d+x)+)([A-Za-z0-9_]+)\s*(?:,\s*([^,>]+(?:<.*>)?))?`)

// localAlloc reads ttg.local_alloc: a shared-memory buffer of the
// descriptor's shape, and a copy_to_shared of its operand when it has one.
func (b *ttBuilder) localAlloc(op *ir.Op) {
	res := op.Results[0]
	var m []string
	if t, ok := res.Type.(*ir.OpaqueType); ok {
		m = memdescRE.FindStringSubmatch(t.Text)
	}
	if m == nil {
		b.Fail(op, model.CodeBadValue, "%s gives %s, not a !ttg.memdesc<shape x type, encoding, ...>", op.Name, res.Type)
		return
	}
	var shape []int
	for _, d := range strings.Split(strings.TrimSuffix(m[1], "x"), "x") {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > model.MaxElements {
			b.Fail(op, model.CodeBadValue, "%s's buffer has extent %s", op.Name, d)
			return
		}
		shape = append(shape, n)
	}
	dt, ok := ir.DType(ir.ScalarType(m[2]))
	if !ok {
		b.Fail(op, model.CodeUnknownName, "%s's buffer holds %s, which the planner does not know", op.Name, m[2])
		return
	}
	ot, _ := res.Type.(*ir.OpaqueType)
	var enc ir.Attr
	if ot != nil {
		enc = ot.Encoding
	}
	pinned := (enc != nil || ot != nil && ot.EncodingErr != nil) && (b.Opt.KeepAnchors || b.Opt.InputLayouts) && len(shape) == 2
	var se *notation.TritonSharedEncoding
	var perm []int
	if pinned {
		var err *model.Error
		if ot.EncodingErr != nil {
			err = ot.EncodingErr
		} else if n, nerr := notation.EncodingNode(enc, op.Pos); nerr != nil {
			err = nerr
		} else {
			se, err = notation.SharedEncoding(n)
		}
		if err != nil {
			what := "the shared encoding"
			if enc != nil {
				what += " " + enc.String()
			}
			b.Errorf(err.Pos, model.CodeBadValue, "%s of %s: %s", what, res, err.Msg)
			b.Failed[res] = true
			return
		}
		if col, ok := columnMajor(se); ok {
			// A column-major encoding holds the tile's transpose row
			// major: the buffer is the transpose, written and read
			// through a transpose, as a ttg.memdesc_trans view is.
			se, perm, shape = col, []int{1, 0}, []int{shape[1], shape[0]}
		}
	}
	buf := &model.Buffer{Name: res.Name, Shape: shape, DType: dt, Pos: op.Pos}
	if len(shape) == 2 {
		buf.Layout = &model.SharedLayout{Rows: shape[0], Cols: shape[1], ElemBits: dt.Bits, Swizzle: "none"}
		if pinned {
			l, err := se.Placement(shape[0], shape[1], dt.Bits)
			if err != nil {
				msg := err.Error()
				if me, ok := err.(*model.Error); ok {
					msg = me.Msg
				}
				b.Errorf(b.encodingPos(enc, op.Pos), model.CodeBadValue, "the shared encoding %s of %s: %s", enc, res, msg)
				b.Failed[res] = true
				return
			}
			buf.Layout = l
		}
	}
	b.G.Buffers = append(b.G.Buffers, buf)
	b.descs[res] = &memDesc{buf: buf, enc: enc, perm: perm}
	if len(op.Operands) == 1 {
		b.storeLocal(op, op.Operands[0], b.descs[res])
	}
}

// desc is the descriptor an operand reads; nil (reported) when unknown.
func (b *ttBuilder) desc(op *ir.Op, o *ir.Operand) *memDesc {
	if d := b.descs[o.Value]; d != nil {
		return d
	}
	if !b.Failed[o.Value] {
		b.Fail(op, model.CodeBadValue, "%s reads %s, which no ttg.local_alloc or ttg.memdesc_trans the reader follows made", op.Name, o.Value)
	}
	return nil
}

// memdescTrans reads ttg.memdesc_trans: the same buffer, viewed
// transposed by its order.
func (b *ttBuilder) memdescTrans(op *ir.Op) {
	res := op.Results[0]
	d := b.desc(op, op.Operands[0])
	if d == nil {
		b.Failed[res] = true
		return
	}
	order, ok := reader.IntsAttr(op, "order")
	if !ok || len(order) != len(d.buf.Shape) {
		b.Fail(op, model.CodeBadValue, "ttg.memdesc_trans's order is not a permutation of the buffer's %d dimensions", len(d.buf.Shape))
		return
	}
	perm := order
	if d.perm != nil {
		perm = make([]int, len(order))
		for i, o := range order {
			perm[i] = d.perm[o]
		}
	}
	b.descs[res] = &memDesc{buf: d.buf, perm: perm, enc: d.enc}
}

// localLoad reads ttg.local_load as a load_shared of the buffer, and a
// transpose when it reads a transposed view.
func (b *ttBuilder) localLoad(op *ir.Op) {
	res := op.Results[0]
	d := b.desc(op, op.Operands[0])
	if d == nil {
		b.Failed[res] = true
		return
	}
	if _, _, ok := b.ResultVector(res); !ok {
		return
	}
	if d.perm == nil {
		b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: d.buf}, &model.OpArgs{Buffer: d.buf}, res, res.Name, res.Pos)
		b.pinResult(res, false)
		return
	}
	tv := b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: d.buf}, &model.OpArgs{Buffer: d.buf}, nil, res.Name+"@mem", res.Pos)
	if tv == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{tv}, Perm: d.perm}, &model.OpArgs{Perm: d.perm}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// descOperand is the tile a dot reads from a shared-memory descriptor:
// a load_shared of its buffer (transposed where the descriptor is a
// transposed view), named name.
func (b *ttBuilder) descOperand(op *ir.Op, o *ir.Operand, name string) *model.Value {
	d := b.desc(op, o)
	if d == nil {
		return nil
	}
	if d.perm == nil {
		return b.Add(&model.Op{Kind: model.OpLoadShared, Pos: o.Pos, Buffer: d.buf}, &model.OpArgs{Buffer: d.buf}, nil, name, o.Pos)
	}
	tv := b.Add(&model.Op{Kind: model.OpLoadShared, Pos: o.Pos, Buffer: d.buf}, &model.OpArgs{Buffer: d.buf}, nil, name+"@mem", o.Pos)
	if tv == nil {
		return nil
	}
	return b.Add(&model.Op{Kind: model.OpTranspose, Pos: o.Pos, Operands: []*model.Value{tv}, Perm: d.perm}, &model.OpArgs{Perm: d.perm}, nil, name, o.Pos)
}

// localStore reads ttg.local_store as a copy_to_shared.
func (b *ttBuilder) localStore(op *ir.Op) {
	if len(op.Operands) != 2 {
		b.Fail(op, model.CodeRankMismatch, "ttg.local_store has %d operands: it writes a tensor into a descriptor", len(op.Operands))
		return
	}
	if d := b.desc(op, op.Operands[1]); d != nil {
		b.storeLocal(op, op.Operands[0], d)
	}
}

// storeLocal writes the tensor o reads into d's buffer (after a transpose
// when d is a transposed view).
func (b *ttBuilder) storeLocal(op *ir.Op, o *ir.Operand, d *memDesc) {
	src := b.Value(o)
	if src == nil {
		return
	}
	if d.perm != nil {
		inv := model.InversePermutation(d.perm)
		src = b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: inv}, &model.OpArgs{Perm: inv}, nil, src.Name+"@mem", op.Pos)
		if src == nil {
			return
		}
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	b.Add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: d.buf, Name: name}, &model.OpArgs{Buffer: d.buf}, nil, name, op.Pos)
}

// ttTargets maps ttg.target's backend prefix to the planner's targets.
func ttTarget(s string, lanes int) string {
	switch {
	case strings.HasPrefix(s, "cuda:"):
		return "sm_" + strings.TrimPrefix(s, "cuda:")
	case strings.HasPrefix(s, "hip:"):
		name := strings.TrimPrefix(s, "hip:")
		if i := strings.IndexByte(name, ':'); i >= 0 {
			name = name[:i] // feature flags (gfx942:sramecc+)
		}
		if lanes == 64 && (strings.HasPrefix(name, "gfx11") || strings.HasPrefix(name, "gfx12")) {
			name += "_wave64"
		}
		return name
	}
	return s
}

// ttContext sets the target and the warps from the module's attributes
// (ttg.target, "ttg.num-warps", "ttg.threads-per-warp", "ttg.num-ctas",
// as Triton's TritonGPUDialect.td names them), or from the flags.
func (b *ttBuilder) ttContext() {
	g := b.G
	holders := b.Holders()
	attr := func(key string) *ir.NamedAttr {
		for _, h := range holders {
			for _, prefix := range []string{"ttg.", "triton_gpu."} {
				if a, ok := h.Attr(prefix + key); ok {
					return a
				}
			}
		}
		return nil
	}
	intAttr := func(key string) (int, *ir.NamedAttr, bool) {
		a := attr(key)
		if a == nil {
			return 0, nil, true
		}
		ia, ok := a.Value.(*ir.IntAttr)
		n, ok2 := int64(0), false
		if ok {
			n, ok2 = ia.Int64()
		}
		if !ok2 || n < 1 || n > 1<<16 {
			b.Errorf(a.ValuePos, model.CodeBadValue, "%s is %s, not a positive integer", a.Name, a.Value)
			return 0, a, false
		}
		return int(n), a, true
	}
	lanes, lanesAt, ok1 := intAttr("threads-per-warp")
	warps, warpsAt, ok2 := intAttr("num-warps")
	ctas, ctasAt, ok3 := intAttr("num-ctas")
	if !ok1 || !ok2 || !ok3 {
		return
	}
	if ctas > 1 {
		b.Errorf(ctasAt.ValuePos, model.CodeBadValue, "%s = %d: the planner lays out one CTA", ctasAt.Name, ctas)
		return
	}
	tgt := attr("target")
	switch {
	case b.Opt.Target != "":
		g.Target = b.Opt.Target
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from --target", g.Target))
	case tgt != nil:
		s, ok := tgt.Value.(*ir.StringAttr)
		if !ok {
			b.Errorf(tgt.ValuePos, model.CodeBadValue, "%s is %s, not a string such as \"cuda:80\" or \"hip:gfx942\"", tgt.Name, tgt.Value)
			return
		}
		g.Target, g.TargetPos = ttTarget(s.Value, lanes), tgt.ValuePos
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from %s = %q at %s", g.Target, tgt.Name, s.Value, tgt.ValuePos))
	default:
		b.Errorf(b.Fn.Pos, model.CodeMissingKey, "the module names no ttg.target (\"cuda:80\", \"hip:gfx942\"): give --target NAME (known: %s)", b.KnownTargets())
		return
	}
	t := b.LookupTarget()
	if t == nil {
		return
	}
	if lanesAt != nil && lanes != t.SubgroupSize {
		b.Errorf(lanesAt.ValuePos, model.CodeIncompatible, "%s = %d, but %s's warps have %d lanes", lanesAt.Name, lanes, t.Name, t.SubgroupSize)
		return
	}
	switch {
	case b.Opt.Subgroups > 0:
		g.Subgroups = b.Opt.Subgroups
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d from --subgroups", g.Subgroups))
	case warpsAt != nil:
		g.Subgroups, g.SubgroupsPos = warps, warpsAt.ValuePos
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d from %s at %s", warps, warpsAt.Name, warpsAt.ValuePos))
	default:
		b.Errorf(b.Fn.Pos, model.CodeMissingKey, "the module states no \"ttg.num-warps\": give --subgroups N")
		return
	}
	b.CheckSubgroups()
}

// Build reads fn of m, a TTGIR kernel, into its graph, kept with what
// writes a plan back into its text.
func Build(m *ir.Module, fn *ir.Op, opt reader.Options) (reader.Kernel, error) {
	b, err := build(m, fn, opt)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// build reads fn of m into its graph.
func build(m *ir.Module, fn *ir.Op, opt reader.Options) (*ttBuilder, error) {
	b := &ttBuilder{
		Builder:     reader.NewBuilder(m, fn, opt),
		freeTensors: map[*ir.Value]bool{},
		freeUse:     map[*ir.Operand]*model.Value{},
		encs:        map[string]*encInfo{},
		encErrs:     map[string]bool{},
		descs:       map[*ir.Value]*memDesc{},
	}
	b.Front = b
	b.Tensors = true
	b.ttContext()
	b.markFree(fn)
	if err := b.Err(); err != nil {
		return nil, err
	}
	b.Body(fn.Regions[0].Blocks[0])
	b.finish()
	if err := b.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// Operand reads each use of a free tensor as a constant of its own.
func (b *ttBuilder) Operand(o *ir.Operand) (*model.Value, bool) {
	if b.freeTensors[o.Value] {
		return b.freeConstant(o), true
	}
	return nil, false
}

// Free reports whether v is a free tensor: made at each use.
func (b *ttBuilder) Free(v *ir.Value) bool { return b.freeTensors[v] }

// Carry: a TTGIR loop carries nothing the reader follows besides values.
func (b *ttBuilder) Carry(in, arg, res *ir.Value) {}

// LaneShare reports false: TTGIR has no lane-level values.
func (b *ttBuilder) LaneShare(v *ir.Value) bool { return false }

// LaneConstant reports false: TTGIR has no lane-level values.
func (b *ttBuilder) LaneConstant(op *ir.Op, res *ir.Value) bool { return false }

// LaneOperand is nil: TTGIR has no lane-level values.
func (b *ttBuilder) LaneOperand(op *ir.Op, res *ir.Value) []int { return nil }

// finish checks what only the whole graph shows, and bounds the plan's
// conversions by the input's own.
func (b *ttBuilder) finish() {
	b.Finish("triton")
	g := b.G
	if !b.Opt.InputLayouts {
		// Never more conversions than the kernel came with (Triton's
		// own layout choice is always within the bound); planner solve
		// --max-conversions none lifts it.
		g.HasMaxConversions, g.MaxConversions, g.MaxConversionsPos = true, b.converts, b.Fn.Pos
		ops := "ttg.convert_layout ops"
		if b.converts == 1 {
			ops = "ttg.convert_layout op"
		}
		g.MaxConversionsFrom = fmt.Sprintf("the input's %d %s", b.converts, ops)
		all := 0
		ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
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
}

// ttBuilder reads a TTGIR kernel: tensors play the part of vectors.
type ttBuilder struct {
	*reader.Builder
	// free are its tensors made at each use (index and pointer
	// arithmetic, splats, constants), freeUse the constant each use of
	// one reads; encs the encodings read, by spelling and shape; descs
	// the shared-memory descriptors.
	freeTensors map[*ir.Value]bool
	freeUse     map[*ir.Operand]*model.Value
	encs        map[string]*encInfo
	encErrs     map[string]bool // the encodings' mistakes reported
	// converts counts the ttg.convert_layout ops of computed tensors
	// read: the input's own conversions, which bound the plan's by
	// default.
	converts int
	descs    map[*ir.Value]*memDesc
}

// aliasUses lists the aliases n's values name, at any depth, each once.
func aliasUses(n *ir.AttrNode) []string {
	var out []string
	var walk func(v *ir.AttrValue)
	walk = func(v *ir.AttrValue) {
		switch v.Kind {
		case ir.AttrAlias:
			if !slices.Contains(out, v.Str) {
				out = append(out, v.Str)
			}
		case ir.AttrNested:
			for _, e := range v.Node.Entries {
				walk(e.Value)
			}
		case ir.AttrList:
			for _, x := range v.List {
				walk(x)
			}
		}
	}
	for _, e := range n.Entries {
		walk(e.Value)
	}
	return out
}

// columnMajor reads a two-dimensional shared encoding that lays the tile
// out column major (a transposed #ttg.nvmma_shared, a #ttg.swizzled_shared
// of order [0, 1]: Triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
// nvmmaSharedToLinearLayout and swizzledSharedToLinearLayout, which
// transpose the tile for them) as the same encoding of the transpose, row
// major.
func columnMajor(e *notation.TritonSharedEncoding) (*notation.TritonSharedEncoding, bool) {
	col := *e
	switch {
	case e.Name == "nvmma_shared" && e.Transposed:
		col.Transposed = false
		return &col, true
	case e.Name == "swizzled_shared" && slices.Equal(e.Order, []int{0, 1}):
		col.Order = []int{1, 0}
		return &col, true
	}
	return nil, false
}
