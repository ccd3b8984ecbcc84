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
var ttSkipped = []string{"tt.get_program_id", "tt.get_num_programs", "ttg.local_dealloc", "gpu.barrier", "tt.assert", "tt.print", "ttng.fence_async_shared"}

func init() {
	ttHandlers = map[string]func(b *ttBuilder, op *ir.Op){
		"tt.load":             (*ttBuilder).ttLoad,
		"tt.store":            (*ttBuilder).ttStore,
		"tt.dot":              (*ttBuilder).ttDot,
		"ttng.warp_group_dot": (*ttBuilder).ttDot,
		"tt.dot_scaled":       (*ttBuilder).ttDotScaled,
		"tt.reduce":           (*ttBuilder).ttReduce,
		"tt.expand_dims":      (*ttBuilder).ShapeCast,
		"tt.reshape":          (*ttBuilder).ShapeCast,
		"tt.broadcast":        (*ttBuilder).Broadcast,
		"tt.trans":            (*ttBuilder).ttTrans,
		"tt.fp_to_fp":         (*ttBuilder).ttFpToFp,
		"ttg.fp4_to_fp":       (*ttBuilder).fp4ToFp,
		"tt.bitcast":          func(b *ttBuilder, op *ir.Op) { b.ElementwiseAs(op, reader.CastAs("bitcast")) },
		"ttg.convert_layout":  (*ttBuilder).ttConvert,
		"ttg.local_alloc":     (*ttBuilder).localAlloc,
		"ttg.local_load":      (*ttBuilder).localLoad,
		"ttg.local_store":     (*ttBuilder).localStore,
		"ttg.memdesc_trans":   (*ttBuilder).memdescTrans,
		"scf.if":              (*ttBuilder).ttIf,
		"tt.gather":           (*ttBuilder).gather,
		"tt.join":             (*ttBuilder).join,
		"tt.split":            (*ttBuilder).split,
		"tt.descriptor_load":  (*ttBuilder).descriptorLoad,
		"tt.descriptor_store": (*ttBuilder).descriptorStore,
		"tt.return":           (*ttBuilder).ttReturn,
	}
	for name, fn := range ttElementwise {
		ttHandlers[name] = func(b *ttBuilder, op *ir.Op) { b.ElementwiseAs(op, fn) }
	}
	for _, name := range ttSkipped {
		ttHandlers[name] = func(b *ttBuilder, op *ir.Op) {}
	}
}

// ttElementwise are Triton's own element-wise ops on tensors and the
// graph's functions they are read as: the high half of an unsigned
// product (tt.mulhiui) costs a multiply, the IEEE-rounded division and
// square root (tt.precise_divf, tt.precise_sqrt) a division and a square
// root (include/triton/Dialect/Triton/IR/TritonOps.td: TT_MulhiUIOp,
// TT_PreciseDivFOp, TT_PreciseSqrtOp, all Elementwise and
// SameOperandsAndResultType).
var ttElementwise = map[string]reader.Fn{
	"tt.mulhiui": reader.Func("mul"), "tt.precise_divf": reader.Func("div"), "tt.precise_sqrt": reader.Func("sqrt"),
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
	names = append(names, "tt.addptr", "tt.int_to_ptr", "tt.ptr_to_int", "scf.for", "scf.while", "arith.constant")
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
	"tt.mulhiui": true, "tt.precise_divf": true, "tt.precise_sqrt": true,
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
					if o.Name == "scf.while" {
						for _, r := range o.Regions {
							for _, blk := range r.Blocks {
								for _, a := range blk.Args {
									free[a] = isTensor(a.Type)
								}
							}
						}
					}
					collect(o)
				}
			}
		}
	}
	collect(fn)
	for _, a := range fn.Regions[0].Blocks[0].Args {
		free[a] = isPtrTensor(a.Type) // a pointer argument: its loads and stores keep its encoding (ptrArgs)
	}
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
			case name == "scf.while" && len(op.Regions) == 2 && len(op.Regions[0].Blocks) == 1 && len(op.Regions[1].Blocks) == 1:
				// The before region's arguments are carried from the
				// inits and the after region's scf.yield; the after
				// region's arguments and the results are what
				// scf.condition passes on.
				before, after := op.Regions[0].Blocks[0], op.Regions[1].Blocks[0]
				for i, a := range before.Args {
					if i < len(op.Operands) {
						set(a, free[a] && free[op.Operands[i].Value] && yieldFree(op.Regions[1], i))
					}
				}
				var cond *ir.Op
				if n := len(before.Ops); n > 0 && before.Ops[n-1].Name == "scf.condition" {
					cond = before.Ops[n-1]
				}
				for i, a := range after.Args {
					f := cond != nil && i+1 < len(cond.Operands) && free[cond.Operands[i+1].Value]
					set(a, f)
					if i < len(op.Results) {
						set(op.Results[i], f)
					}
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
			case name == "ttg.convert_layout" && b.Opt.InputLayouts && len(op.Results) == 1 && !isPtrTensor(op.Results[0].Type) && !hasAddressUse(op.Results[0]):
				// The input's own layouts as Triton compiles them: a
				// conversion of a constant's data goes through its
				// scratch like any other (the SASS of
				// examples/ttgir/chained_dots_sm80 stores the zero
				// accumulator, STS.128 [R161], RZ, and loads it back
				// in the mma's layout before the first HMMA).
				set(op.Results[0], false)
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

// hasAddressUse reports whether v is read as addresses or with them
// (addressUse).
func hasAddressUse(v *ir.Value) bool {
	_, ok := addressUse(v)
	return ok
}

func isTensor(t ir.Type) bool {
	_, ok := t.(*ir.TensorType)
	return ok
}

// ttRefused are the Triton ops the reader knows and does not plan, each
// with why: what the graph has no op for.
var ttRefused = map[string]string{}

// ReadOp reads one op of a TTGIR kernel.
func (b *ttBuilder) ReadOp(op *ir.Op) {
	name := ir.TTName(op.Name)
	if why, ok := ttRefused[name]; ok {
		b.Fail(op, model.CodeUnknownName, "%s is not planned: %s", op.Name, why)
		return
	}
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
	if msg := shapeMismatch(op); msg != "" {
		b.Fail(op, model.CodeShapeMismatch, "%s", msg)
		return
	}
	if len(op.Results) > 0 && name != "scf.for" && name != "scf.while" && name != "scf.if" && !slices.ContainsFunc(op.Results, func(r *ir.Value) bool { return !b.freeTensors[r] }) {
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
	if name == "scf.while" && len(op.Regions) == 2 && len(op.Regions[0].Blocks) == 1 {
		for _, a := range op.Regions[0].Blocks[0].Args {
			b.pinResult(a, false)
		}
	}
}

// arguments reads the function's tensor and memory descriptor arguments,
// whose types its caller fixed: a tensor arrives in registers in the
// encoding its type gives (an argument op pinned to it, the layout the
// plan starts from), a !ttg.memdesc is a shared-memory buffer the caller
// placed as its shared encoding says (model.Buffer.Fixed), a tensor of
// pointers addresses in its encoding, which the loads and stores through
// it keep (ptrArgs; pointerUse says what may read it). A tensor read as
// addresses or a mask is refused (addressUse).
func (b *ttBuilder) arguments(blk *ir.Block) {
	for _, a := range blk.Args {
		switch t := a.Type.(type) {
		case *ir.TensorType:
			if isPtrTensor(t) {
				if u, ok := pointerUse(a, map[*ir.Value]bool{}); !ok {
					b.Errorf(a.Pos, model.CodeBadValue, "argument %s, a tensor of pointers, is read by %s at %s: the planner follows a pointer argument only through tt.addptr and loops into the tt.load and tt.store that keep its encoding", a, u.Op.Name, u.Op.Pos)
					b.Failed[a] = true
				} else if pin := b.ttPin(t, a.Pos); pin != nil {
					b.ptrArgs[a] = pin
				}
				continue
			}
			shape, dt, ok := b.Vector(t, a.Pos, "argument "+a.String())
			if !ok {
				b.Failed[a] = true
				continue
			}
			if u, ok := addressUse(a); ok {
				// Pointer arithmetic is made again in the layout its load or
				// store needs (freeThrough), which would read the argument
				// through a conversion the graph does not price.
				b.Errorf(a.Pos, model.CodeBadValue, "argument %s is read as addresses or a mask (by %s at %s): the planner reads a tensor argument as a value in registers, not as what a load or store reads in the layout of its data", a, u.Op.Name, u.Op.Pos)
				b.Failed[a] = true
				continue
			}
			pin := b.ttPin(t, a.Pos)
			if pin == nil {
				b.Failed[a] = true // its encoding's mistake is reported
				continue
			}
			if v := b.Add(&model.Op{Kind: model.OpArgument, Pos: a.Pos}, &model.OpArgs{Shape: shape, DType: dt}, a, a.Name, a.Pos); v != nil {
				v.Pin = pin
			}
		case *ir.OpaqueType:
			if !memdescRE.MatchString(t.Text) {
				continue
			}
			d := b.buffer(a, a.Pos, "argument "+a.String()+" is", "argument "+a.String()+"'s buffer", true)
			if d == nil {
				continue
			}
			d.buf.Fixed, d.given = true, true
			b.G.Buffers = append(b.G.Buffers, d.buf)
			b.descs[a] = d
		}
	}
}

// pointerUse checks the uses of a pointer argument's tensor v (or of
// what tt.addptr and loops make of it, each value once): each an offset added
// to it (tt.addptr's pointer), a loop's init or yield, or the pointers of
// a tt.load or tt.store, which then keep its encoding. It gives the first
// other use and false.
func pointerUse(v *ir.Value, seen map[*ir.Value]bool) (ir.Use, bool) {
	if seen[v] {
		return ir.Use{}, true
	}
	seen[v] = true
	for _, u := range v.Uses {
		switch name := ir.TTName(u.Op.Name); {
		case (name == "tt.load" || name == "tt.store") && u.Index == 0, name == "scf.yield":
		case name == "tt.addptr" && u.Index == 0 && len(u.Op.Results) == 1 && shapeEqual(v.Type, u.Op.Results[0].Type):
			if w, ok := pointerUse(u.Op.Results[0], seen); !ok {
				return w, false
			}
		case name == "scf.for" && u.Index >= 3 && len(u.Op.Regions) == 1 && len(u.Op.Regions[0].Blocks) == 1 && u.Index-2 < len(u.Op.Regions[0].Blocks[0].Args):
			if w, ok := pointerUse(u.Op.Regions[0].Blocks[0].Args[u.Index-2], seen); !ok {
				return w, false
			}
		default:
			return u, false
		}
	}
	return ir.Use{}, true
}

// shapeEqual reports whether two tensor types have one shape.
func shapeEqual(a, b ir.Type) bool {
	x, ok1 := a.(*ir.TensorType)
	y, ok2 := b.(*ir.TensorType)
	return ok1 && ok2 && slices.Equal(x.Shape, y.Shape)
}

// pointerArg is the pointer argument whose tensor the pointers v are, by
// tt.addptr and loops (pointerUse); nil for none.
func (b *ttBuilder) pointerArg(v *ir.Value) *ir.Value {
	for depth := 0; v != nil && depth < 64; depth++ {
		if b.ptrArgs[v] != nil {
			return v
		}
		switch {
		case v.Def != nil && ir.TTName(v.Def.Name) == "tt.addptr" && len(v.Def.Operands) == 2:
			v = v.Def.Operands[0].Value
		case v.Def == nil && v.Block != nil && v.Block.Region != nil && v.Block.Region.Parent != nil &&
			ir.TTName(v.Block.Region.Parent.Name) == "scf.for" && v.Index > 0 && 2+v.Index < len(v.Block.Region.Parent.Operands):
			v = v.Block.Region.Parent.Operands[2+v.Index].Value
		default:
			return nil
		}
	}
	return nil
}

// addressUse is a use of v, or of a ttg.convert_layout of it (which the
// writer removes), as addresses or what goes with them: by an op that
// makes a tensor of pointers from it (tt.addptr's offset, tt.int_to_ptr),
// or as a tt.load's mask or other or a tt.store's mask, which are in the
// layout of the value loaded or stored; false for none.
func addressUse(v *ir.Value) (ir.Use, bool) {
	for _, u := range v.Uses {
		name := ir.TTName(u.Op.Name)
		if slices.ContainsFunc(u.Op.Results, func(r *ir.Value) bool { return isPtrTensor(r.Type) }) || name == "tt.load" && u.Index > 0 || name == "tt.store" && u.Index > 1 {
			return u, true
		}
		if ir.TTName(u.Op.Name) == "ttg.convert_layout" && len(u.Op.Results) == 1 {
			if w, ok := addressUse(u.Op.Results[0]); ok {
				return w, true
			}
		}
	}
	return ir.Use{}, false
}

// ttReturn reads tt.return of tensors: each returned in the encoding the
// function's type declares for it, the operand's type as written (a view
// of the value pinned to it, so that the plan converts it there where it
// computes it in another layout).
func (b *ttBuilder) ttReturn(op *ir.Op) {
	for i, o := range op.Operands {
		if !isTensor(o.Value.Type) || b.freeTensors[o.Value] {
			continue
		}
		v := b.Value(o)
		if v == nil {
			continue
		}
		pin := b.ttPin(o.Value.Type, o.Pos)
		if pin == nil {
			continue
		}
		b.anchored(v, pin, op.Pos, fmt.Sprintf("return@%d", i))
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
	mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: b.contiguousOf(op.Operands[0].Value, op.Pos), Mask: b.accessMask(op, 1)}
	v := b.Add(mop, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
	if a := b.pointerArg(op.Operands[0].Value); a != nil && v != nil {
		// Through a pointer argument's tensor: loaded in its encoding
		// (Triton's loads keep their pointers' encoding), the caller's.
		v.Pin = b.ptrArgs[a]
	}
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
	mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: b.contiguousOf(op.Operands[0].Value, op.Pos), Mask: b.accessMask(op, 2), Name: name}
	if a := b.pointerArg(op.Operands[0].Value); a != nil {
		mop.Layout = b.ptrArgs[a] // stored in a pointer argument's encoding, as a load through it
	} else if b.Opt.KeepAnchors || b.Opt.InputLayouts {
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
	if r := len(shapeOf(op.Operands[0].Value.Type)); r > 3 {
		b.Fail(op, model.CodeRankMismatch, "%s multiplies %d-dimensional tensors: the graph's mma multiplies matrices, or a batch of them (rank 3, the batch first)", op.Name, r)
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
		if i < 2 && b.Opt.KeepAnchors && !b.Opt.InputLayouts && !b.decomposes(op) {
			in[i] = b.anchored(in[i], b.ttPin(op.Operands[i].Value.Type, op.Operands[i].Pos), op.Pos, fmt.Sprintf("%s@%c", res.Name, 'a'+i))
		}
	}
	// A ttng.warp_group_dot's result must be a version 3 #ttg.nvidia_mma
	// (model.Op.Warpgroup).
	d := b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: in[:], Warpgroup: ir.TTName(op.Name) == "ttng.warp_group_dot"}, &model.OpArgs{}, res, res.Name, res.Pos)
	b.pinResult(res, !b.decomposes(op))
	if d != nil && len(in[0].Shape) == 2 && b.blockedResult(res) && b.matrixRecordTakes(in[0], in[1], in[2], d) {
		// An FMA dot of types a matrix instruction takes: Triton's
		// AccelerateMatmul (BlockedToMMA in
		// lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp) moves
		// it onto that instruction, converting A, B and C into its
		// layouts and the result back, so that Triton's own kernel has
		// those conversions.
		n := 1
		for _, o := range op.Operands[:3] {
			if !b.freeTensors[o.Value] {
				n++
			}
		}
		b.accelerated = append(b.accelerated, n)
	}
}

// blockedResult reports whether a tt.dot's result is a #ttg.blocked
// tensor: the input runs the dot as FMAs (Triton's FMA dot, its operands
// the #ttg.dot_op of that parent), as Triton writes a dot before
// AccelerateMatmul and keeps one no matrix instruction takes.
func (b *ttBuilder) blockedResult(res *ir.Value) bool {
	t, ok := res.Type.(*ir.TensorType)
	if !ok {
		return false
	}
	e := b.encoding(t, res.Pos)
	if e.err || e.enc == nil {
		return false
	}
	_, blocked := e.enc.Enc.(*notation.TritonBlocked)
	return blocked
}

// matrixRecordTakes reports whether the target offers a plain matrix
// instruction (an mma record, not block-scaled) of a product's types.
func (b *ttBuilder) matrixRecordTakes(a, bv, c, d *model.Value) bool {
	if b.Target == nil || b.Opt.Offered == nil {
		return false
	}
	recs, err := b.Opt.Offered(b.Target)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(recs, func(r *model.Record) bool {
		ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
		return r.Kind == model.RecordMMA && !r.Scaled() && r.Unplanned() == "" && ra != nil && rb != nil && rc != nil && rd != nil &&
			ra.DType.Name == a.DType.Name && rb.DType.Name == bv.DType.Name && rc.DType.Name == c.DType.Name && rd.DType.Name == d.DType.Name
	})
}

// scaledFormats are the element formats of tt.dot_scaled's lhs and rhs
// that the reader reads: e4m3 and e5m2 one element of the tensor each,
// e2m1 packed two to an i8 along K (Triton's DotScaledOp::verify: the
// tensor's K is half the product's), read through an unpack (model.OpUnpack)
// into the f4e2m1 elements of the records' fragments.
var scaledFormats = []string{"e4m3", "e5m2", "e2m1"}

// packedFormats are the formats of scaledFormats packed two to a byte
// along K, and the element type they unpack to.
var packedFormats = map[string]string{"e2m1": "f4e2m1"}

// ttDotScaled reads tt.dot_scaled as a block-scaled mma (model.OpMMAScaled):
// A is M×K, B K×N, A's scale M×(K/block), and B's scale, which Triton
// writes N×(K/block), is read through its transpose, (K/block)×N, as the
// graph's scale_b (a view: each element stays in its lane and register).
func (b *ttBuilder) ttDotScaled(op *ir.Op) {
	res := op.Results[0]
	if len(op.Operands) != 5 {
		b.Fail(op, model.CodeUnknownName, "%s with %d operands: the planner reads a block-scaled product whose A and B both have scales (a, a_scale, b, b_scale, c)", op.Name, len(op.Operands))
		return
	}
	for side, attr := range map[string]string{"lhs": "a_elem_type", "rhs": "b_elem_type"} {
		if f := elemFormat(op, attr); !slices.Contains(scaledFormats, f) {
			b.Fail(op, model.CodeUnknownName, "%s with %s = %s is not planned: the planner reads the formats %s", op.Name, side, f, strings.Join(scaledFormats, ", "))
			return
		}
	}
	if r := len(shapeOf(op.Operands[0].Value.Type)); r != 2 {
		b.Fail(op, model.CodeRankMismatch, "%s multiplies %d-dimensional tensors: the planner reads a block-scaled product of matrices", op.Name, r)
		return
	}
	if b.decomposesScaled() {
		// Read as its decomposition (decompose.go) unless it cannot be.
		b.Fail(op, model.CodeUnknownName, "%s is not planned: %s, and it is not decomposed as Triton does where none is: %s", op.Name, b.noScaledRecord(), notDecomposed(op))
		return
	}
	if why := b.noScaledRecord(); why != "" {
		b.Fail(op, model.CodeUnknownName, "%s is not planned: %s", op.Name, why)
		return
	}
	if why := b.noPackedRecord(op); why != "" {
		b.Fail(op, model.CodeUnknownName, "%s is not planned: %s", op.Name, why)
		return
	}
	var in [5]*model.Value
	for k, i := range []int{0, 2, 4, 1, 3} { // a, b, c, a_scale, b_scale
		if in[k] = b.Value(op.Operands[i]); in[k] == nil {
			b.Failed[res] = true
			return
		}
	}
	// An e2m1 side is an i8 tensor of two elements a byte along K (A's
	// dimension 1, B's 0), read as its elements; the mma reads those as
	// they are, since the kernel written back converts the i8 tensor and
	// has no tensor of the 4-bit elements to convert.
	noConvert := make([]bool, len(in))
	// B's scale is read through a transpose the kernel has no op for: a
	// conversion of it is one of the N×K/32 tensor Triton holds, before
	// the transpose, where the kernel written back can convert it.
	noConvert[4] = true
	for k, side := range []struct {
		attr  string
		axis  int
		label string
	}{{"a_elem_type", 1, "a"}, {"b_elem_type", 0, "b"}} {
		elem, packed := packedFormats[elemFormat(op, side.attr)]
		if !packed {
			continue
		}
		dt, _ := model.ParseDType(elem)
		pos := op.Operands[[]int{0, 2}[k]].Pos
		if in[k] = b.Add(&model.Op{Kind: model.OpUnpack, Pos: pos, Operands: []*model.Value{in[k]}, Axis: side.axis},
			&model.OpArgs{Axis: side.axis, DType: dt}, nil, res.Name+"@unpack_"+side.label, pos); in[k] == nil {
			b.Failed[res] = true
			return
		}
		noConvert[k] = true
	}
	in[4] = b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Operands[3].Pos, Operands: []*model.Value{in[4]}, Perm: []int{1, 0}},
		&model.OpArgs{Perm: []int{1, 0}}, nil, res.Name+"@scale_b", op.Operands[3].Pos)
	if in[4] == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpMMAScaled, Pos: op.Pos, Operands: in[:], NoConvert: noConvert}, &model.OpArgs{}, res, res.Name, res.Pos)
	b.pinResult(res, true)
}

// elemFormat is the format tt.dot_scaled names for a side (its
// a_elem_type or b_elem_type: ident in the custom form, #tt<scaleDotElemType
// e4m3> in the generic form).
func elemFormat(op *ir.Op, name string) string {
	a, ok := op.Attr(name)
	if !ok || a == nil {
		return ""
	}
	if s, ok := a.Value.(*ir.StringAttr); ok {
		return s.Value
	}
	t := a.Value.String()
	t = strings.TrimSuffix(strings.TrimPrefix(t, "#tt<scaleDotElemType"), ">")
	return strings.TrimSpace(t)
}

// noScaledRecord says why the target has no block-scaled mma to run a
// tt.dot_scaled on, "" when it has one: Triton keeps tt.dot_scaled in
// TTGIR for the targets whose hardware scales (sm_120's mma.sync
// block_scale, gfx950's scaled MFMA) and sm_100's tcgen05, and decomposes
// it into an upcast and a tt.dot for the others.
func (b *ttBuilder) noScaledRecord() string {
	if b.Target == nil || b.Opt.Offered == nil {
		return ""
	}
	recs, err := b.Opt.Offered(b.Target)
	if err != nil {
		return ""
	}
	if slices.ContainsFunc(recs, func(r *model.Record) bool { return r.Scaled() && r.Unplanned() == "" }) {
		return ""
	}
	if b.Target.ScaledDot == model.ScaledDotDecompose {
		return b.Target.ScaledDotWhy
	}
	return fmt.Sprintf("target %s offers no block-scaled mma record (the planner has them for sm_120's mma.sync block_scale and gfx950's scaled MFMA); Triton decomposes tt.dot_scaled into an upcast and a tt.dot before TTGIR on such targets", b.Target.Name)
}

// scaledElems are the element types of the records' A and B for the
// formats of scaledFormats.
var scaledElems = map[string]string{"e4m3": "f8e4m3", "e5m2": "f8e5m2", "e2m1": "f4e2m1"}

// noPackedRecord says why the target has no block-scaled mma of a
// tt.dot_scaled's formats where one side is e2m1, "" when it has one
// (or the op packs neither side): a record multiplies the elements its A
// and B name, and the planner has e2m1 × e2m1 records for sm_120
// (mma.sync kind::mxf4) and gfx950 (the scaled MFMA with fp4 operands),
// none for a product of e2m1 by another format.
func (b *ttBuilder) noPackedRecord(op *ir.Op) string {
	lhs, rhs := elemFormat(op, "a_elem_type"), elemFormat(op, "b_elem_type")
	_, pl := packedFormats[lhs]
	_, pr := packedFormats[rhs]
	if !pl && !pr || b.Target == nil || b.Opt.Offered == nil {
		return ""
	}
	recs, err := b.Opt.Offered(b.Target)
	if err != nil {
		return ""
	}
	a, bb := scaledElems[lhs], scaledElems[rhs]
	if slices.ContainsFunc(recs, func(r *model.Record) bool {
		ra, rb := r.Operands["a"], r.Operands["b"]
		return r.Scaled() && r.Unplanned() == "" && ra != nil && rb != nil && ra.DType.Name == a && rb.DType.Name == bb
	}) {
		return ""
	}
	return fmt.Sprintf("target %s offers no block-scaled mma record of %s A and %s B (lhs = %s, rhs = %s; the planner has e2m1 × e2m1 alone, on sm_120's mma.sync kind::mxf4 and gfx950's scaled MFMA)", b.Target.Name, a, bb, lhs, rhs)
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
	if from, to := b.ttPin(op.Operands[0].Value.Type, op.Pos), b.ttPin(res.Type, res.Pos); from == nil || to == nil || !from.Layout.Equal(to.Layout) {
		// One between two names of one layout (an mma's result renamed
		// a #ttg.dot_op, a slice renamed for a function's result type,
		// as the writer writes them) moves nothing: it is no conversion
		// of the input's.
		b.converts++
	}
	if !b.Opt.InputLayouts {
		b.Folded[res] = src
		return
	}
	if b.freeTensors[op.Operands[0].Value] && src.Def != nil && src.Def.Info().AtUse {
		src.Pin = b.ttPin(op.Operands[0].Value.Type, op.Operands[0].Pos) // the constant as the input lays it out
	}
	v := b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{Shape: slices.Clone(src.Shape)}, res, res.Name, res.Pos)
	if v != nil {
		v.Pin = b.ttPin(res.Type, res.Pos)
	}
}

// ttTrans reads tt.trans as a transpose by its order (result dimension i
// is the operand's dimension order[i], as vector.transpose's permutation).
func (b *ttBuilder) ttTrans(op *ir.Op) {
	b.Transpose(op, "order")
	b.pinResult(op.Results[0], false)
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

// fp4ToFp reads ttg.fp4_to_fp, an i8 tensor of two e2m1 elements a byte
// along axis upcast to bf16 or f16 (TTG_Fp4ToFpOp in
// include/triton/Dialect/TritonGPU/IR/TritonGPUOps.td; Fp4ToFpOp::verify
// in lib/Dialect/TritonGPU/IR/Ops.cpp: the result's axis twice the
// source's, the other dimensions equal, bf16 or f16), as an unpack of
// the bytes into their f4e2m1 elements (model.OpUnpack: the byte's pair
// in a new lowest register, which is the layout Triton infers for the
// result, inferFp4ToFpOpEncoding) and an extf of those to the result's
// type, which reads the unpack's layout without conversion. The extf is
// priced as the graph prices every cast, one ALU operation a result
// element: an average of Triton's lowering, eight elements at a time
// (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/Fp4ToFpOpToLLVM.cpp),
// four cvt.rn.bf16x2.e2m1x2 on sm_100 with PTX 9.2 or later, else 17
// and, shr, prmt and or.
func (b *ttBuilder) fp4ToFp(op *ir.Op) {
	res := op.Results[0]
	axis, ok := intAttr(op, "axis")
	src, _ := op.Operands[0].Value.Type.(*ir.TensorType)
	dst, _ := res.Type.(*ir.TensorType)
	switch {
	case !ok:
		b.Fail(op, model.CodeBadValue, "%s has no integer axis", op.Name)
		return
	case src == nil || dst == nil || src.Elem.String() != "i8":
		b.Fail(op, model.CodeBadValue, "%s reads an i8 tensor of two e2m1 elements a byte, found %s", op.Name, op.Operands[0].Value.Type)
		return
	case axis < 0 || axis >= len(src.Shape):
		b.Fail(op, model.CodeBadValue, "%s's axis %d is out of range for %s", op.Name, axis, src)
		return
	case dst.Elem.String() != "bf16" && dst.Elem.String() != "f16":
		b.Fail(op, model.CodeBadValue, "%s gives bf16 or f16 (Triton's Fp4ToFpOp::verify), found %s", op.Name, dst.Elem)
		return
	}
	if from, to := b.ttPin(src, op.Pos), b.ttPin(dst, res.Pos); from != nil && to != nil {
		if want := model.UnpackPairs(from.Layout, axis); want == nil || !want.Equal(to.Layout) {
			b.Fail(op, model.CodeShapeMismatch, "%s gives %s, which is not its source's layout unpacked along %d, each byte's pair in a new lowest register (Triton's Fp4ToFpOp::verify: \"Src and Dst encodings are not compatible\")", op.Name, dst, axis)
			return
		}
	}
	in := b.Source(op, res)
	if in == nil {
		return
	}
	f4, _ := model.ParseDType("f4e2m1")
	u := b.Add(&model.Op{Kind: model.OpUnpack, Pos: op.Pos, Operands: []*model.Value{in}, Axis: axis},
		&model.OpArgs{Axis: axis, DType: f4}, nil, res.Name+"@unpack", op.Pos)
	if u == nil {
		b.Failed[res] = true
		return
	}
	_, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	// One op of the kernel: no tensor of the 4-bit elements is written,
	// so the extf reads the unpack's layout as it is.
	b.Add(&model.Op{Kind: model.OpCast, Fn: "extf", Pos: op.Pos, Operands: []*model.Value{u}, NoConvert: []bool{true}}, &model.OpArgs{Spelling: "extf", DType: dt}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// intAttr is op's integer attribute name.
func intAttr(op *ir.Op, name string) (int, bool) {
	a, ok := op.Attr(name)
	if !ok || a == nil {
		return 0, false
	}
	ia, ok := a.Value.(*ir.IntAttr)
	if !ok {
		return 0, false
	}
	n, ok := ia.Int64()
	return int(n), ok
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
	if len(op.Operands) != len(op.Results) || len(op.Operands) == 0 {
		b.Fail(op, model.CodeBadValue, "tt.reduce has %d operand(s) and %d result(s): it gives one result per tensor it reduces", len(op.Operands), len(op.Results))
		return
	}
	if len(op.Operands) > 1 {
		b.ttReduceTogether(op)
		return
	}
	res := op.Results[0]
	fn := b.reduceCombiner(op)
	if fn == "" {
		return
	}
	axis := axisAttr(op)
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

// axisAttr is a tt.reduce's axis, -1 when it has none that can be one.
func axisAttr(op *ir.Op) int {
	aa, _ := op.Attr("axis")
	if aa == nil {
		return -1
	}
	if ia, ok := aa.Value.(*ir.IntAttr); ok {
		if n, ok := ia.Int64(); ok && n >= 0 && n < model.MaxRank {
			return int(n)
		}
	}
	return -1
}

// togetherCombiner is the reduction a tt.reduce of several tensors is
// priced as: its combiner region takes an element and a partial result
// of each tensor (2n arguments) and returns n values (Triton's
// verifyRegionsImpl in lib/Dialect/Triton/IR/Ops.cpp); an argmax or argmin
// compares the first tensor's values (arith.cmpf or cmpi, greater: max,
// less: min) and selects, a region of one known combining op per tensor
// combines as it does. "" (reported) otherwise.
func (b *ttBuilder) togetherCombiner(op *ir.Op) string {
	n := len(op.Operands)
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		b.Fail(op, model.CodeBadValue, "tt.reduce has no combiner region of one block")
		return ""
	}
	r := op.Regions[0]
	blk := r.Blocks[0]
	if len(blk.Args) != 2*n || len(blk.Ops) == 0 || blk.Ops[len(blk.Ops)-1].Name != "tt.reduce.return" || len(blk.Ops[len(blk.Ops)-1].Operands) != n {
		b.Fail(op, model.CodeBadValue, "tt.reduce's combiner region at %s does not take two values of each of its %d tensors and return one of each", r.Pos, n)
		return ""
	}
	for _, c := range blk.Ops[:len(blk.Ops)-1] {
		if fn, ok := reduceCombiners[c.Name]; ok {
			return fn
		}
		if c.Name != "arith.cmpf" && c.Name != "arith.cmpi" {
			continue
		}
		pa, _ := c.Attr("predicate")
		if pa == nil {
			continue
		}
		pred := strings.Trim(pa.Value.String(), "\"")
		switch {
		case strings.Contains(pred, "gt") || strings.Contains(pred, "ge"):
			return "max"
		case strings.Contains(pred, "lt") || strings.Contains(pred, "le"):
			return "min"
		}
	}
	b.Fail(op, model.CodeBadValue, "tt.reduce's combiner region at %s neither compares (arith.cmpf, cmpi) nor combines with a known op (arith.addf, mulf, maxnumf, minnumf and their kin): the planner prices a reduction of several tensors as one of those", r.Pos)
	return ""
}

// ttReduceTogether reads tt.reduce of several tensors along one axis (an
// argmax: values and their indices). Triton reduces them in one layout:
// the op's operands share their encoding (TT_ReduceOp's
// SameOperandsEncoding in include/triton/Dialect/Triton/IR/TritonOps.td),
// each result in its slice. The graph's reduce takes one tensor, so each
// tensor is its own reduce, running where a view of the tensor is (the
// tensor converted into it where it must be), and the views are tied to
// one layout by the element-wise combination of them that the first
// reduce reads (the others cast to the first's element type): priced once
// per element, as the combiner's comparison, besides the reductions.
func (b *ttBuilder) ttReduceTogether(op *ir.Op) {
	fn := b.togetherCombiner(op)
	if fn == "" {
		return
	}
	axis := axisAttr(op)
	srcs := make([]*model.Value, len(op.Operands))
	for i, o := range op.Operands {
		if srcs[i] = b.Value(o); srcs[i] == nil {
			for _, r := range op.Results {
				b.Failed[r] = true
			}
			return
		}
	}
	first := srcs[0]
	switch {
	case axis < 0 || axis >= len(first.Shape):
		b.Fail(op, model.CodeBadValue, "tt.reduce's axis is not a dimension of its %d-dimensional operands", len(first.Shape))
		return
	case len(first.Shape) == 1:
		b.Fail(op, model.CodeBadValue, "tt.reduce reduces %d one-dimensional tensors together to scalars: the planner reads a reduction of several tensors that keeps a dimension", len(srcs))
		return
	}
	for i, v := range srcs[1:] {
		if !slices.Equal(v.Shape, first.Shape) {
			b.Fail(op, model.CodeShapeMismatch, "tt.reduce's operands %s and %s have the shapes %v and %v: the tensors reduced together have one shape", op.Operands[0].Value, op.Operands[i+1].Value, first.Shape, v.Shape)
			return
		}
	}
	res0 := op.Results[0]
	// Each tensor as the reduction reads it: a view of the same shape,
	// into which it may be converted (as Triton converts an operand
	// before the op), the reduce then running where the view is.
	views := make([]*model.Value, len(srcs))
	for i, v := range srcs {
		if views[i] = b.Add(&model.Op{Kind: model.OpShapeCast, Pos: op.Pos, Operands: []*model.Value{v}}, &model.OpArgs{Shape: slices.Clone(v.Shape)}, nil, fmt.Sprintf("%s@in%d", res0.Name, i), op.Pos); views[i] == nil {
			b.Failed[res0] = true
			return
		}
	}
	tied := []*model.Value{views[0]}
	for i, v := range views[1:] {
		if v.DType.Name != first.DType.Name {
			v = b.Add(&model.Op{Kind: model.OpCast, Fn: "cast", Pos: op.Pos, Operands: []*model.Value{v}, NoConvert: []bool{true}}, &model.OpArgs{DType: first.DType}, nil, fmt.Sprintf("%s@%d", res0.Name, i+1), op.Pos)
			if v == nil {
				b.Failed[res0] = true
				return
			}
		}
		tied = append(tied, v)
	}
	together := b.Add(&model.Op{Kind: model.OpElementwise, Fn: fn, Pos: op.Pos, Operands: tied, NoConvert: slices.Repeat([]bool{true}, len(tied))}, &model.OpArgs{}, nil, res0.Name+"@together", op.Pos)
	if together == nil {
		b.Failed[res0] = true
		return
	}
	for i, r := range op.Results {
		src := views[i]
		if i == 0 {
			src = together
		}
		b.Add(&model.Op{Kind: model.OpReduce, Fn: fn, Axis: axis, Pos: op.Pos, Operands: []*model.Value{src}, NoConvert: []bool{true}}, &model.OpArgs{Axis: axis}, r, r.Name, r.Pos)
		b.pinResult(r, false)
	}
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
	// given is set for a function argument's buffer and the views of it:
	// its type is the caller's, written back as it is.
	given bool
}

// memdescRE reads !ttg.memdesc<64x64xf16, #shared, #smem, mutable>.
var memdescRE = regexp.MustCompile(`^!(?:ttg|triton_gpu)\.memdesc<((?:\d+x)+)([A-Za-z0-9_]+)\s*(?:,\s*([^,>]+(?:<.*>)?))?`)

// localAlloc reads ttg.local_alloc: a shared-memory buffer of the
// descriptor's shape, and a copy_to_shared of its operand when it has one.
func (b *ttBuilder) localAlloc(op *ir.Op) {
	res := op.Results[0]
	d := b.buffer(res, op.Pos, op.Name+" gives", op.Name+"'s buffer", b.Opt.KeepAnchors || b.Opt.InputLayouts)
	if d == nil {
		return
	}
	b.G.Buffers = append(b.G.Buffers, d.buf)
	b.descs[res] = d
	if len(op.Operands) == 1 {
		b.storeLocal(op, op.Operands[0], d)
	}
}

// buffer reads the shared-memory buffer a !ttg.memdesc value res views
// (made at pos; gives and holder name it in messages): its shape and
// element type, placed as its shared encoding says where pinned (else
// dense row major, which the planner may place otherwise). nil (reported,
// res marked failed) when res is no memory descriptor the reader follows.
func (b *ttBuilder) buffer(res *ir.Value, at model.Pos, gives, holder string, pinned bool) *memDesc {
	var m []string
	if t, ok := res.Type.(*ir.OpaqueType); ok {
		m = memdescRE.FindStringSubmatch(t.Text)
	}
	if m == nil {
		b.Errorf(at, model.CodeBadValue, "%s %s, not a !ttg.memdesc<shape x type, encoding, ...>", gives, res.Type)
		b.Failed[res] = true
		return nil
	}
	var shape []int
	for _, d := range strings.Split(strings.TrimSuffix(m[1], "x"), "x") {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > model.MaxElements {
			b.Errorf(at, model.CodeBadValue, "%s has extent %s", holder, d)
			b.Failed[res] = true
			return nil
		}
		shape = append(shape, n)
	}
	dt, ok := ir.DType(ir.ScalarType(m[2]))
	if !ok {
		b.Errorf(at, model.CodeUnknownName, "%s holds %s, which the planner does not know", holder, m[2])
		b.Failed[res] = true
		return nil
	}
	ot, _ := res.Type.(*ir.OpaqueType)
	var enc ir.Attr
	if ot != nil {
		enc = ot.Encoding
	}
	pinned = pinned && (enc != nil || ot != nil && ot.EncodingErr != nil) && len(shape) == 2
	var se *notation.TritonSharedEncoding
	var perm []int
	if pinned {
		var err *model.Error
		if ot.EncodingErr != nil {
			err = ot.EncodingErr
		} else if n, nerr := notation.EncodingNode(enc, at); nerr != nil {
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
			return nil
		}
		if col, ok := columnMajor(se); ok {
			// A column-major encoding holds the tile's transpose row
			// major: the buffer is the transpose, written and read
			// through a transpose, as a ttg.memdesc_trans view is.
			se, perm, shape = col, []int{1, 0}, []int{shape[1], shape[0]}
		}
	}
	buf := &model.Buffer{Name: res.Name, Shape: shape, DType: dt, Pos: at}
	if len(shape) == 2 {
		buf.Layout = &model.SharedLayout{Rows: shape[0], Cols: shape[1], ElemBits: dt.Bits, Swizzle: "none"}
		if pinned {
			l, err := se.Placement(shape[0], shape[1], dt.Bits)
			if err != nil {
				msg := err.Error()
				if me, ok := err.(*model.Error); ok {
					msg = me.Msg
				}
				b.Errorf(b.encodingPos(enc, at), model.CodeBadValue, "the shared encoding %s of %s: %s", enc, res, msg)
				b.Failed[res] = true
				return nil
			}
			buf.Layout = l
		}
	}
	return &memDesc{buf: buf, enc: enc, perm: perm}
}

// desc is the descriptor an operand reads; nil (reported) when unknown.
func (b *ttBuilder) desc(op *ir.Op, o *ir.Operand) *memDesc {
	if d := b.descs[o.Value]; d != nil {
		return d
	}
	if !b.Failed[o.Value] {
		b.Fail(op, model.CodeBadValue, "%s reads %s, which no ttg.local_alloc, ttg.memdesc_trans or function argument the reader follows gives", op.Name, o.Value)
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
	b.descs[res] = &memDesc{buf: d.buf, perm: perm, enc: d.enc, given: d.given}
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

// join reads tt.join as the graph's join: its two tensors side by side
// along a new last dimension of 2, held in each lane's lowest register
// (model.OpJoin).
func (b *ttBuilder) join(op *ir.Op) {
	res := op.Results[0]
	x, y := b.Value(op.Operands[0]), b.Value(op.Operands[1])
	if x == nil || y == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpJoin, Pos: op.Pos, Operands: []*model.Value{x, y}}, &model.OpArgs{}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// split reads tt.split as two of the graph's splits of its tensor, one
// per half (model.OpSplit): each takes the last dimension, of 2, out of
// each lane's lowest register.
func (b *ttBuilder) split(op *ir.Op) {
	src := b.Value(op.Operands[0])
	if src == nil {
		for _, r := range op.Results {
			b.Failed[r] = true
		}
		return
	}
	for _, r := range op.Results {
		b.Add(&model.Op{Kind: model.OpSplit, Pos: op.Pos, Operands: []*model.Value{src}}, &model.OpArgs{}, r, r.Name, r.Pos)
		b.pinResult(r, false)
	}
}

// gather reads tt.gather as Triton lowers it where the gathered axis
// crosses warps (GatherOpConversion::emitGatherInShared in
// lib/Conversion/TritonGPUToLLVM/GatherOpToLLVM.cpp): the source stored
// into a scratch buffer, dense row major and fixed (the compiler's, not
// written back), and each element of the result read from it at the
// address its index gives, in the indices' layout, which the result
// shares (GatherOp::verify in lib/Dialect/Triton/IR/Ops.cpp: "indices and
// output encodings must match"). The reads, at addresses the data
// decides, are priced as one element-wise op of the result (a cast of the
// indices); the warp-local gather through shuffles that Triton uses where
// the layouts allow is not priced apart.
func (b *ttBuilder) gather(op *ir.Op) {
	res := op.Results[0]
	if len(op.Operands) != 2 {
		b.Fail(op, model.CodeRankMismatch, "tt.gather has %d operands: it reads a source and indices", len(op.Operands))
		return
	}
	src, idx := b.Value(op.Operands[0]), b.Value(op.Operands[1])
	if src == nil || idx == nil {
		b.Failed[res] = true
		return
	}
	if len(src.Shape) != 2 {
		b.Fail(op, model.CodeRankMismatch, "tt.gather from a %d-dimensional source: the planner reads a gather from a matrix, whose scratch buffer it places", len(src.Shape))
		return
	}
	name := res.Name + "@gather"
	buf := &model.Buffer{Name: name, Shape: slices.Clone(src.Shape), DType: src.DType, Fixed: true, Pos: op.Pos,
		Layout: &model.SharedLayout{Rows: src.Shape[0], Cols: src.Shape[1], ElemBits: src.DType.Bits, Swizzle: "none"}}
	b.G.Buffers = append(b.G.Buffers, buf)
	b.Add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
	b.Add(&model.Op{Kind: model.OpCast, Fn: "cast", Pos: op.Pos, Operands: []*model.Value{idx}}, &model.OpArgs{DType: src.DType}, res, res.Name, res.Pos)
	b.pinResult(res, false)
}

// tmaBuffer is the shared-memory buffer a tensor descriptor's block is
// moved through: Triton lowers tt.descriptor_load to a TMA copy into a
// buffer in the descriptor's shared encoding and a ttg.local_load of it,
// and tt.descriptor_store to a ttg.local_alloc in that encoding and a
// TMA copy out (lib/Dialect/TritonNvidiaGPU/Transforms/TMALowering.cpp),
// the block's encoding being the one the descriptor's type gives
// (TT_TensorDescType's blockType, include/triton/Dialect/Triton/IR/
// TritonTypes.td). Its placement is that encoding's, fixed: the plan
// chooses the registers' layout on the other side of it. nil (reported)
// when the descriptor's type gives no two-dimensional block in a shared
// encoding the planner places.
func (b *ttBuilder) tmaBuffer(op *ir.Op, o *ir.Operand, name string) *model.Buffer {
	ot, _ := o.Value.Type.(*ir.OpaqueType)
	if ot == nil || ot.Block == nil {
		if ot != nil && ot.EncodingErr != nil {
			b.Errorf(ot.EncodingErr.Pos, model.CodeBadValue, "the block type of %s: %s", o.Value, ot.EncodingErr.Msg)
			return nil
		}
		b.Fail(op, model.CodeBadValue, "%s reads %s, a %s, not a !tt.tensordesc<tensor<shape x type, #shared>>", op.Name, o.Value, o.Value.Type)
		return nil
	}
	blk := ot.Block
	dt, ok := ir.DType(blk.Elem)
	switch {
	case !ok:
		b.Fail(op, model.CodeUnknownName, "%s's descriptor holds %s, which the planner does not know", op.Name, blk.Elem)
		return nil
	case len(blk.Shape) != 2 || blk.Encoding == nil:
		b.Fail(op, model.CodeBadValue, "%s's descriptor %s: the planner reads a descriptor of a two-dimensional block in a shared encoding", op.Name, ot)
		return nil
	}
	n, nerr := notation.EncodingNode(blk.Encoding, o.Pos)
	var se *notation.TritonSharedEncoding
	err := nerr
	if err == nil {
		se, err = notation.SharedEncoding(n)
	}
	if err != nil {
		b.Errorf(err.Pos, model.CodeBadValue, "the shared encoding %s of %s: %s", blk.Encoding, o.Value, err.Msg)
		return nil
	}
	if _, col := columnMajor(se); col || se.Name == "nvmma_shared" && se.Transposed {
		b.Fail(op, model.CodeBadValue, "%s's descriptor lays its block out column major (%s): the planner reads a descriptor whose block is row major", op.Name, blk.Encoding)
		return nil
	}
	l, perr := se.Placement(blk.Shape[0], blk.Shape[1], dt.Bits)
	if perr != nil {
		msg := perr.Error()
		if me, ok := perr.(*model.Error); ok {
			msg = me.Msg
		}
		b.Errorf(b.encodingPos(blk.Encoding, o.Pos), model.CodeBadValue, "the shared encoding %s of %s: %s", blk.Encoding, o.Value, msg)
		return nil
	}
	buf := &model.Buffer{Name: name, Shape: slices.Clone(blk.Shape), DType: dt, Layout: l, Fixed: true, Pos: op.Pos}
	b.G.Buffers = append(b.G.Buffers, buf)
	return buf
}

// descriptorLoad reads tt.descriptor_load as a load_shared of the block
// the TMA unit brings into a buffer in the descriptor's shared encoding
// (tmaBuffer), into registers in the layout the plan chooses; the copy
// from global memory is the TMA unit's whatever the layout, and unpriced.
func (b *ttBuilder) descriptorLoad(op *ir.Op) {
	res := op.Results[0]
	shape, _, ok := b.ResultVector(res)
	if !ok {
		return
	}
	buf := b.tmaBuffer(op, op.Operands[0], res.Name+"@tma")
	if buf == nil {
		b.Failed[res] = true
		return
	}
	if !slices.Equal(shape, buf.Shape) {
		b.Fail(op, model.CodeShapeMismatch, "tt.descriptor_load gives %s, of shape %v, from a descriptor of blocks of %v", res, shape, buf.Shape)
		return
	}
	b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, res, res.Name, res.Pos)
	b.pinResult(res, true)
}

// descriptorStore reads tt.descriptor_store as a copy_to_shared of its
// tensor into a buffer in the descriptor's shared encoding (tmaBuffer),
// which the TMA unit writes out.
func (b *ttBuilder) descriptorStore(op *ir.Op) {
	if len(op.Operands) < 2 {
		b.Fail(op, model.CodeRankMismatch, "tt.descriptor_store has %d operands: it writes a tensor through a descriptor", len(op.Operands))
		return
	}
	src := b.Value(op.Operands[1])
	if src == nil {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	buf := b.tmaBuffer(op, op.Operands[0], name)
	if buf == nil {
		return
	}
	b.Add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
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

// refusedTargets are ttg.target values of no target the planner (or
// Triton 3.9) compiles for, each with why and what to write instead,
// keyed by backend and architecture (feature flags dropped).
var refusedTargets = map[string]string{
	// Triton's own lit tests name compute capability 0 for a module tied
	// to no particular GPU.
	"cuda:0": "names compute capability 0, a placeholder of Triton's own tests for no particular GPU: name the GPU (\"cuda:80\", \"cuda:90\", ...) or give --target",
	// LLVM's AMDGPU processor table (AMDGPUUsage) listed gfx940 and
	// gfx941 as GFX9.4 (CDNA3) beside gfx942, then dropped them as no
	// longer supported (llvm/llvm-project #126762, #126887, February
	// 2025); Triton 3.9's AMD backend refuses them ("unsupported
	// target").
	"hip:gfx940": earlyCDNA3,
	"hip:gfx941": earlyCDNA3,
}

// earlyCDNA3 is why gfx940 and gfx941 are refused.
const earlyCDNA3 = "is an early CDNA3 (MI300) processor of gfx942's instruction set that LLVM no longer supports and Triton 3.9 refuses (\"unsupported target\"): write \"hip:gfx942\" or give --target gfx942"

// targetArch is a ttg.target's backend and architecture, its feature
// flags dropped: "hip:gfx942" of "hip:gfx942:sramecc+:xnack-".
func targetArch(s string) string {
	parts := strings.SplitN(s, ":", 3)
	return strings.Join(parts[:min(len(parts), 2)], ":")
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
		if why, ok := refusedTargets[targetArch(s.Value)]; ok {
			b.Errorf(tgt.ValuePos, model.CodeUnknownName, "%s = %q %s", tgt.Name, s.Value, why)
			return
		}
		g.Target, g.TargetPos = ttTarget(s.Value, lanes), tgt.ValuePos
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from %s = %q at %s", g.Target, tgt.Name, s.Value, tgt.ValuePos))
	default:
		inf, err := b.inferTarget(lanes)
		if err != "" {
			b.Errorf(b.Fn.Pos, model.CodeMissingKey, "the module names no ttg.target (\"cuda:80\", \"hip:gfx942\") and %s: give --target NAME (known: %s)", err, b.KnownTargets())
			return
		}
		g.Target, g.TargetPos = inf.target, inf.pos
		g.Provenance = append(g.Provenance, fmt.Sprintf("target inferred from %s's %s = %d: %s (at %s; the module names no ttg.target, and %s)", inf.name, inf.field, inf.version, inf.target, inf.pos, inf.why))
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
	b := newBuilder(m, fn, opt)
	b.ttContext()
	if b.Err() == nil {
		text, ds, err := b.decomposeScaled(m.Text())
		if err != nil {
			return nil, err
		}
		if len(ds) > 0 {
			if b, err = readDecomposed(m.File, text, ds, opt); err != nil {
				return nil, err
			}
			fn = b.Fn
		}
	}
	b.markFree(fn)
	if err := b.Err(); err != nil {
		return nil, err
	}
	b.arguments(fn.Regions[0].Blocks[0])
	b.Body(fn.Regions[0].Blocks[0])
	b.finish()
	if err := b.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// newBuilder prepares to read fn of m.
func newBuilder(m *ir.Module, fn *ir.Op, opt reader.Options) *ttBuilder {
	b := &ttBuilder{
		Builder:     reader.NewBuilder(m, fn, opt),
		freeTensors: map[*ir.Value]bool{},
		freeUse:     map[*ir.Operand]*model.Value{},
		encs:        map[string]*encInfo{},
		encErrs:     map[string]bool{},
		descs:       map[*ir.Value]*memDesc{},
		ptrArgs:     map[*ir.Value]*model.Pin{},
	}
	b.Front = b
	b.Tensors = true
	b.DefaultTrips = reader.AssumedTrips // a loop over a run-time bound, as Triton writes them
	return b
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
		if n := len(b.accelerated); n > 0 {
			more := 0
			for _, c := range b.accelerated {
				more += c
			}
			g.MaxConversions += more
			dots := "dot"
			if n > 1 {
				dots = "dots"
			}
			g.MaxConversionsFrom += fmt.Sprintf(" and the %d that Triton's AccelerateMatmul writes to move its %d FMA %s (#ttg.blocked) onto a matrix instruction", more, n, dots)
		}
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
	// accelerated are, for each FMA dot a matrix instruction takes, the
	// conversions Triton's AccelerateMatmul writes for it, which bound
	// the plan's besides the input's own.
	accelerated []int
	descs       map[*ir.Value]*memDesc
	// ptrArgs are the function's tensor-of-pointers arguments, each with
	// the pin of its encoding, which the loads and stores through it keep.
	ptrArgs map[*ir.Value]*model.Pin
	// text is the kernel's text with each tt.dot_scaled the target runs
	// as its decomposition written as one (decomposed), which the
	// module was parsed from and the writer writes back into; "" when
	// there is none.
	text       string
	decomposed []*scaledDecomposition
	// masks are the access masks read, by the mask value, which the
	// accesses that read one share.
	masks map[*ir.Value]*model.AccessMask
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

// columnMajor reads a two-dimensional #ttg.swizzled_shared of order
// [0, 1], which lays the tile out column major (Triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
// swizzledSharedToLinearLayout transposes the tile for it), as the same
// encoding of the transpose, row major. A transposed #ttg.nvmma_shared
// is a placement of its own (model.SharedLayout.ColumnMajor: a K-major
// wgmma operand the descriptor reads as it lies).
func columnMajor(e *notation.TritonSharedEncoding) (*notation.TritonSharedEncoding, bool) {
	col := *e
	switch {
	case e.Name == "swizzled_shared" && slices.Equal(e.Order, []int{0, 1}):
		col.Order = []int{1, 0}
		return &col, true
	}
	return nil, false
}

// shapeMismatch says what is wrong with the shapes of a tt.broadcast or a
// tt.expand_dims, "" when nothing is: checked for every such op, a free
// tensor's too (an index or pointer tensor is made again at each use and
// never built as a graph op). Triton's BroadcastOp::verify wants equal
// ranks and each extent equal or 1 in the operand; ExpandDimsOp's result
// is its operand with a 1 inserted at axis (lib/Dialect/Triton/IR/Ops.cpp).
func shapeMismatch(op *ir.Op) string {
	if len(op.Operands) != 1 || len(op.Results) != 1 {
		return ""
	}
	src, dst := shapeOf(op.Operands[0].Value.Type), shapeOf(op.Results[0].Type)
	if src == nil || dst == nil {
		return ""
	}
	switch ir.TTName(op.Name) {
	case "tt.broadcast":
		if len(src) != len(dst) {
			return fmt.Sprintf("%s of %v to %v changes the rank: expected a result of rank %d", op.Name, src, dst, len(src))
		}
		for d := range src {
			if src[d] != dst[d] && src[d] != 1 {
				return fmt.Sprintf("%s of %v to %v: dimension %d has extent %d in the operand, expected %d or 1", op.Name, src, dst, d, src[d], dst[d])
			}
		}
	case "tt.expand_dims":
		a := axisOf(op)
		if a < 0 || a > len(src) {
			return fmt.Sprintf("%s of %v: axis %d is outside 0..%d", op.Name, src, a, len(src))
		}
		want := append(append(slices.Clone(src[:a]), 1), src[a:]...)
		if !slices.Equal(want, dst) {
			return fmt.Sprintf("%s of %v at axis %d: expected a result of shape %v, found %v", op.Name, src, a, want, dst)
		}
	}
	return ""
}
