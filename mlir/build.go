package mlir

import "planner/mlir/ir"

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// arity is, for the ops the reader maps, the operands each needs at
// least and the results it gives, which the generic form may get wrong.
var arity = map[string][2]int{
	"arith.constant": {0, 1}, "vector.transfer_read": {1, 1}, "vector.load": {1, 1},
	"vector.transfer_write": {2, 0}, "vector.store": {2, 0}, "vector.contract": {3, 1},
	"vector.multi_reduction": {2, 1}, "vector.reduction": {1, 1}, "vector.broadcast": {1, 1},
	"vector.splat": {1, 1}, "vector.transpose": {1, 1}, "vector.shape_cast": {1, 1},
	"vector.extract": {1, 1}, "vector.insert": {2, 1}, "memref.alloc": {0, 1}, "memref.alloca": {0, 1},
	"iree_vector_ext.to_layout": {1, 1}, "xegpu.create_nd_tdesc": {1, 1}, "xegpu.update_nd_offset": {1, 1},
	"xegpu.load_nd": {1, 1}, "xegpu.store_nd": {2, 0}, "xegpu.dpas": {2, 1}, "xegpu.convert_layout": {1, 1},
	"gpu.subgroup_mma_load_matrix": {1, 1}, "gpu.subgroup_mma_store_matrix": {2, 0}, "gpu.subgroup_mma_compute": {3, 1},
	"gpu.subgroup_mma_constant_matrix": {1, 1}, "gpu.subgroup_mma_elementwise": {1, 1},
	"nvgpu.ldmatrix": {1, 1}, "nvgpu.mma.sync": {3, 1}, "amdgpu.mfma": {3, 1},
}

func init() {
	for name := range elementwise {
		arity[name] = [2]int{1, 1}
	}
}

// handler reads one op the reader understands into the graph.
type handler func(b *builder, op *ir.Op)

// handlers are the ops the reader understands, by name; ops not listed
// are skipped when they touch no vector, and refused when they do.
var handlers map[string]handler

// elementwise maps arith's and math's element-wise ops to the graph's
// functions (model.ElementwiseFuncs), casts to the graph's cast kinds.
var elementwise = map[string]string{
	"arith.addf": "add", "arith.addi": "add", "arith.subf": "sub", "arith.subi": "sub",
	"arith.mulf": "mul", "arith.muli": "mul", "arith.divf": "div", "arith.divsi": "div", "arith.divui": "div",
	"arith.maximumf": "max", "arith.maxnumf": "max", "arith.maxsi": "max", "arith.maxui": "max",
	"arith.minimumf": "min", "arith.minnumf": "min", "arith.minsi": "min", "arith.minui": "min",
	"arith.negf": "neg", "arith.select": "select", "arith.cmpf": "cmp", "arith.cmpi": "cmp",
	"math.exp": "exp", "math.exp2": "exp2", "math.log": "log", "math.log2": "log2", "math.sqrt": "sqrt",
	"math.rsqrt": "rsqrt", "math.tanh": "tanh", "math.sin": "sin", "math.cos": "cos",
	"math.absf": "abs", "math.absi": "abs", "math.fma": "fma", "vector.fma": "fma",
	"arith.extf": "extf", "arith.truncf": "truncf", "arith.bitcast": "bitcast",
	"arith.extsi": "cast", "arith.extui": "cast", "arith.trunci": "cast", "arith.sitofp": "cast",
	"arith.uitofp": "cast", "arith.fptosi": "cast", "arith.fptoui": "cast",
}

// skipped are ops on scalars, indices and memory the graph has no part
// of; read and passed over.
var skipped = []string{"func.return", "gpu.return", "xegpu.prefetch_nd", "gpu.barrier", "gpu.thread_id", "gpu.block_id", "gpu.block_dim",
	"affine.apply", "memref.dealloc", "arith.index_cast", "arith.index_castui"}

func init() {
	handlers = map[string]handler{
		"arith.constant":                   (*builder).constant,
		"vector.transfer_read":             (*builder).read,
		"vector.load":                      (*builder).read,
		"vector.transfer_write":            (*builder).write,
		"vector.store":                     (*builder).write,
		"vector.contract":                  (*builder).contract,
		"vector.multi_reduction":           (*builder).multiReduction,
		"vector.reduction":                 (*builder).reduction,
		"vector.broadcast":                 (*builder).broadcast,
		"vector.splat":                     (*builder).broadcast,
		"vector.transpose":                 (*builder).transpose,
		"vector.shape_cast":                (*builder).shapeCast,
		"vector.extract":                   (*builder).extract,
		"vector.insert":                    (*builder).insert,
		"memref.alloc":                     (*builder).alloc,
		"memref.alloca":                    (*builder).alloc,
		"scf.for":                          (*builder).forLoop,
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
	for name := range elementwise {
		handlers[name] = (*builder).elementwise
	}
	for _, name := range skipped {
		handlers[name] = func(b *builder, op *ir.Op) {}
	}
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
	for name, fn := range elementwise {
		if strings.HasPrefix(name, "arith.") || strings.HasPrefix(name, "math.") {
			fns = append(fns, strings.SplitN(name, ".", 2)[1]+"→"+fn)
		}
	}
	slices.Sort(fns)
	return strings.Join(vec, ", ") + "; " + strings.Join(other, ", ") + "; and arith/math element-wise ops (" + strings.Join(fns, ", ") + ")"
}

// body reads a block's ops in order.
func (b *builder) body(blk *ir.Block) {
	if len(blk.Args) > 0 && b.loop == nil && !b.tt {
		b.arguments(blk)
	}
	for _, op := range blk.Ops {
		b.op(op)
	}
}

// arguments reads a function's arguments: memrefs as memory, vectors as
// values arriving in registers (an argument op, which a to_layout must pin).
func (b *builder) arguments(blk *ir.Block) {
	for _, a := range blk.Args {
		switch t := a.Type.(type) {
		case *ir.MemRefType:
			b.memref(a, t, a.Pos)
		case *ir.VectorType:
			shape, dt, ok := b.vector(a.Type, a.Pos, "argument "+a.String())
			if !ok {
				b.failed[a] = true
				continue
			}
			if tile, ok := b.laneArgument(a); ok {
				if tile == nil {
					continue
				}
				shape = tile
			}
			op := &model.Op{Kind: model.OpArgument, Pos: a.Pos}
			b.add(op, &model.OpArgs{Shape: shape, DType: dt}, a, a.Name, a.Pos)
		case *ir.TensorType:
			b.errorf(a.Pos, model.CodeBadValue, "argument %s is a %s: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", a, t)
			b.failed[a] = true
		}
	}
}

// op reads one op.
func (b *builder) op(op *ir.Op) {
	if b.tt {
		b.ttOp(op)
		return
	}
	if op.Opaque {
		for _, m := range op.Mentions {
			if strings.HasPrefix(m, "tensor") {
				b.fail(op, model.CodeBadValue, "%s works on tensors: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", op.Name)
				return
			}
		}
		if strings.HasPrefix(op.Name, "xegpu.") && !slices.Contains(xegpuSync, op.Name) {
			b.fail(op, model.CodeUnknownName, "%s", xegpuUnknown(op))
			return
		}
		if len(op.Mentions) > 0 {
			b.fail(op, model.CodeUnknownName, "%s is not understood, and it touches vectors (%s): the reader understands %s", op.Name, strings.Join(op.Mentions, ", "), Understood())
		}
		return
	}
	if touches[*ir.TensorType](op) {
		b.fail(op, model.CodeBadValue, "%s works on tensors: the planner reads kernels in the vector dialect, on memrefs and vectors, after bufferization", op.Name)
		return
	}
	h, ok := handlers[op.Name]
	if !ok {
		if touchesVectors(op) {
			b.fail(op, model.CodeUnknownName, "%s is not understood, and it touches vectors: the reader understands %s", op.Name, Understood())
			return
		}
		if inner := b.vectorInside(op); inner != nil {
			b.fail(op, model.CodeUnknownName, "%s at %s works on vectors inside the region of %s: the reader follows the regions of func.func and scf.for only", inner.Name, inner.Pos, op.Name)
		}
		return
	}
	if !b.ready(op, op.Name) {
		return
	}
	if !b.operandLayouts(op) {
		for _, r := range op.Results {
			b.failed[r] = true
		}
		return
	}
	h(b, op)
	b.resultLayouts(op)
}

// ready reports whether an op the reader maps (named name) has the
// operands and results it needs, none of them failed before; it reports
// a wrong count.
func (b *builder) ready(op *ir.Op, name string) bool {
	if a, ok := arity[name]; ok && (len(op.Operands) < a[0] || len(op.Results) != a[1]) {
		b.fail(op, model.CodeRankMismatch, "%s has %d operand(s) and %d result(s): it takes at least %d and gives %d", op.Name, len(op.Operands), len(op.Results), a[0], a[1])
		return false
	}
	for _, o := range op.Operands {
		if b.failed[o.Value] {
			for _, r := range op.Results {
				b.failed[r] = true
			}
			return false
		}
	}
	return true
}

// touches says whether an operand or a result of op is of type T.
func touches[T ir.Type](op *ir.Op) bool {
	for _, o := range op.Operands {
		if _, ok := o.Value.Type.(T); ok {
			return true
		}
	}
	for _, r := range op.Results {
		if _, ok := r.Type.(T); ok {
			return true
		}
	}
	return false
}

// touchesVectors says whether an operand or a result of op is a vector
// or a WMMA fragment (!gpu.mma_matrix).
func touchesVectors(op *ir.Op) bool {
	if touches[*ir.VectorType](op) {
		return true
	}
	for _, o := range op.Operands {
		if _, _, ok := ir.MMAMatrixOf(o.Value.Type); ok {
			return true
		}
	}
	for _, r := range op.Results {
		if _, _, ok := ir.MMAMatrixOf(r.Type); ok {
			return true
		}
	}
	return false
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
				if len(in.Mentions) > 0 || touchesVectors(in) {
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

// resultVector is vector of an op's result; a result the graph cannot
// hold is marked failed.
func (b *builder) resultVector(res *ir.Value) ([]int, model.DType, bool) {
	shape, dt, ok := b.vector(res.Type, res.Pos, res.String())
	if !ok {
		b.failed[res] = true
	}
	return shape, dt, ok
}

// source is the graph value of op's first operand; without one, the
// result res is marked failed.
func (b *builder) source(op *ir.Op, res *ir.Value) *model.Value {
	v := b.value(op.Operands[0])
	if v == nil {
		b.failed[res] = true
	}
	return v
}

// vector checks that t is a vector the graph can hold and gives its shape
// and element type; otherwise it reports why at pos.
func (b *builder) vector(t ir.Type, pos model.Pos, what string) ([]int, model.DType, bool) {
	v, ok := b.asVector(t)
	if !ok {
		if _, tensor := t.(*ir.TensorType); tensor {
			b.errorf(pos, model.CodeBadValue, "%s is a %s, not a vector: the planner reads kernels in the vector dialect, after bufferization", what, t)
		} else {
			b.errorf(pos, model.CodeBadValue, "%s is %v, not a vector", what, t)
		}
		return nil, model.DType{}, false
	}
	for i, s := range v.Scalable {
		if s {
			b.errorf(pos, model.CodeBadValue, "%s is the scalable vector %s (dimension %d is [%d]): the planner lays out vectors of a fixed size", what, t, i, v.Shape[i])
			return nil, model.DType{}, false
		}
	}
	if len(v.Shape) == 0 {
		b.errorf(pos, model.CodeBadValue, "%s is the 0-D vector %s: the planner lays out vectors of at least one dimension", what, t)
		return nil, model.DType{}, false
	}
	if len(v.Shape) > model.MaxRank {
		b.errorf(pos, model.CodeTooLarge, "%s has rank %d, more than the %d dimensions the planner handles", what, len(v.Shape), model.MaxRank)
		return nil, model.DType{}, false
	}
	n := 1
	for i, d := range v.Shape {
		if d < 1 {
			b.errorf(pos, model.CodeBadValue, "%s has extent %d in dimension %d: extents are positive", what, d, i)
			return nil, model.DType{}, false
		}
		n *= d
		if n > model.MaxElements {
			b.errorf(pos, model.CodeTooLarge, "the vector %s has more than %d elements", t, model.MaxElements)
			return nil, model.DType{}, false
		}
	}
	dt, ok := ir.DType(v.Elem)
	if !ok {
		b.errorf(pos, model.CodeUnknownName, "%s has elements of type %s, which the planner does not know (it knows %s)", what, v.Elem, strings.Join(model.DTypeNames(), ", "))
		return nil, model.DType{}, false
	}
	return slices.Clone(v.Shape), dt, true
}

// value is the graph value an operand reads; nil (reported) when it is
// none.
func (b *builder) value(o *ir.Operand) *model.Value {
	if mv := b.over[o]; mv != nil {
		return mv
	}
	v := o.Value
	if b.free[v] {
		return b.freeConstant(o)
	}
	if mv, ok := b.folded[v]; ok && mv != nil {
		return mv
	}
	if mv := b.vals[v]; mv != nil {
		return mv
	}
	if !b.failed[v] {
		what := "a value the graph does not hold"
		if v.Type != nil {
			what = "of type " + v.Type.String()
		}
		b.errorf(o.Pos, model.CodeUnknownName, "%s is %s: the planner reads vectors here", v, what)
		b.failed[v] = true
	}
	return nil
}

// unique makes a value or op name not yet used in the graph.
func unique(used map[string]bool, name string) string {
	if !used[name] {
		used[name] = true
		return name
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s@%d", name, i)
		if !used[n] {
			used[n] = true
			return n
		}
	}
}

// emit appends an op to the graph, in the loop being read.
func (b *builder) emit(op *model.Op) {
	if b.cur != nil {
		b.made[b.cur] = append(b.made[b.cur], op)
	}
	op.In = b.loop
	if b.loop != nil {
		b.loop.Ops = append(b.loop.Ops, op)
	} else {
		b.g.Ops = append(b.g.Ops, op)
	}
}

// add types an op through its row of the op table, defines its result
// (named name, at pos; res is the MLIR value it stands for, nil for an op
// the reader makes), checks the result against res's type, records the
// operands' uses and emits the op. It returns the result (nil for none or
// an error, reported).
func (b *builder) add(op *model.Op, args *model.OpArgs, res *ir.Value, name string, pos model.Pos) *model.Value {
	info := op.Info()
	if info.ByFunction && op.Fn == "" {
		op.Fn = args.Spelling
	}
	if args.Spelling == "" {
		args.Spelling = op.Spelling() // the kind as a graph file writes it
	}
	args.Operands = op.Operands
	if info.Arity > 0 && len(op.Operands) != info.Arity {
		b.errorf(op.Pos, model.CodeBadValue, "%s takes %d operand(s), found %d", op.Spelling(), info.Arity, len(op.Operands))
		return nil
	}
	var result *model.Value
	if info.Type != nil {
		typ, errs := info.Type(args)
		for _, e := range errs {
			b.errorf(op.Pos, e.Code, "%s", e.Msg)
		}
		if errs != nil {
			if res != nil {
				b.failed[res] = true
			}
			return nil
		}
		if info.Result && typ != nil {
			if res != nil && !b.lane[res] {
				if shape, dt, ok := b.vectorQuiet(res.Type); ok && (!slices.Equal(shape, typ.Shape) || dt.Name != typ.DType.Name) && !b.scalarResult(res, typ) {
					b.errorf(op.Pos, model.CodeShapeMismatch, "%s gives %s, but the planner types it as %v x %s", res, res.Type, typ.Shape, typ.DType.Name)
					b.failed[res] = true
					return nil
				}
			}
			result = &model.Value{Name: unique(b.names, name), Shape: typ.Shape, DType: typ.DType, Pos: pos, Def: op}
			op.Result = result
			b.g.Values = append(b.g.Values, result)
			if res != nil {
				b.vals[res] = result
			}
		}
	}
	if op.Name == "" {
		if result != nil {
			op.Name = result.Name
		} else {
			op.Name = fmt.Sprintf("%s@%d", name, op.Pos.Line)
		}
	}
	op.Name = unique(b.opNames, op.Name)
	for i, v := range op.Operands {
		v.Uses = append(v.Uses, model.Use{Op: op, Index: i})
	}
	b.emit(op)
	return result
}

// scalarResult: a reduction to a scalar stands as a value of shape [1].
func (b *builder) scalarResult(res *ir.Value, typ *model.ValueType) bool {
	_, vec := res.Type.(*ir.VectorType)
	return !vec && len(typ.Shape) == 1 && typ.Shape[0] == 1
}

// vectorQuiet is vector without reporting.
func (b *builder) vectorQuiet(t ir.Type) ([]int, model.DType, bool) {
	v, ok := b.asVector(t)
	if !ok {
		return nil, model.DType{}, false
	}
	dt, ok := ir.DType(v.Elem)
	return v.Shape, dt, ok
}

// isVector reports whether a value is a vector, or a ranked tensor (which
// only a TTGIR kernel's reading reaches: the vector reader refuses
// tensors before).
func isVector(v *ir.Value) bool {
	switch t := v.Type.(type) {
	case *ir.VectorType:
		return true
	case *ir.TensorType:
		return !t.Unranked
	case *ir.OpaqueType:
		_, _, ok := ir.MMAMatrixOf(t)
		return ok
	}
	return false
}

// asVector is t as a vector: a vector type, or in TTGIR a ranked tensor
// of its shape and elements.
func (b *builder) asVector(t ir.Type) (*ir.VectorType, bool) {
	switch v := t.(type) {
	case *ir.VectorType:
		return v, true
	case *ir.TensorType:
		if b.tt && !v.Unranked {
			return &ir.VectorType{Shape: v.Shape, Scalable: make([]bool, len(v.Shape)), Elem: v.Elem}, true
		}
	case *ir.OpaqueType:
		if m, _, ok := ir.MMAMatrixOf(v); ok {
			return m, true
		}
	}
	return nil, false
}

// constant reads arith.constant: a vector constant is a constant op (or
// nothing, when only reductions read it, as their identity); an integer
// is kept for loop bounds.
func (b *builder) constant(op *ir.Op) {
	res := op.Results[0]
	va, _ := op.Attr("value")
	if va == nil {
		b.fail(op, model.CodeMissingKey, "arith.constant has no value")
		return
	}
	if !isVector(res) {
		if ia, ok := va.Value.(*ir.IntAttr); ok {
			if n, ok := ia.Int64(); ok {
				b.ints[res] = n
			}
		}
		return
	}
	if b.laneConstant(op, res) {
		return
	}
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	if len(res.Uses) > 0 && !slices.ContainsFunc(res.Uses, func(u ir.Use) bool { return !b.identityInit(u) }) {
		b.folded[res] = nil // a reduction's identity: no init at all
		return
	}
	b.add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// identityInit reports whether use u is the accumulator of a
// multi_reduction and its value the identity of the reduction's kind, so
// that the reduction is read as one without an init.
func (b *builder) identityInit(u ir.Use) bool {
	if u.Op.Name != "vector.multi_reduction" || u.Index != 1 {
		return false
	}
	kind := reductionKind(u.Op)
	c := u.Op.Operands[1].Value
	if c.Def == nil || c.Def.Name != "arith.constant" {
		return false
	}
	va, _ := c.Def.Attr("value")
	if va == nil {
		return false
	}
	d, ok := va.Value.(*ir.DenseAttr)
	if !ok || !d.Splat || len(d.Values) != 1 {
		return false
	}
	return isIdentity(kind, d.Values[0], ir.ElemOf(d.Type))
}

// isIdentity reports whether the literal lit of type t is the identity of
// the combining kind: 0 for add, 1 for mul, -inf for a float max, +inf
// for a float min, the extreme integers for integer max and min.
func isIdentity(kind, lit string, t ir.Type) bool {
	bits := 0
	switch e := t.(type) {
	case *ir.FloatType:
		bits = ir.FloatBits[e.Name]
	case *ir.IntType:
		bits = e.Width
	}
	var f float64
	isFloat := false
	if _, ok := t.(*ir.FloatType); ok {
		isFloat = true
		if strings.HasPrefix(lit, "0x") {
			u, err := strconv.ParseUint(lit[2:], 16, 64)
			if err != nil {
				return false
			}
			switch bits {
			case 32:
				f = float64(math.Float32frombits(uint32(u)))
			case 64:
				f = math.Float64frombits(u)
			case 16:
				if t.String() == "bf16" {
					f = float64(math.Float32frombits(uint32(u) << 16))
				} else {
					f = half(uint16(u))
				}
			default:
				return false
			}
		} else {
			v, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				return false
			}
			f = v
		}
	}
	if isFloat {
		switch kind {
		case "add":
			return f == 0
		case "mul":
			return f == 1
		case "maximumf", "maxnumf":
			return math.IsInf(f, -1)
		case "minimumf", "minnumf":
			return math.IsInf(f, 1)
		}
		return false
	}
	n, err := strconv.ParseInt(lit, 0, 64)
	if err != nil {
		return false
	}
	switch kind {
	case "add", "maxui":
		return n == 0
	case "mul":
		return n == 1
	case "maxsi":
		return bits < 64 && n == -(1<<(bits-1))
	case "minsi":
		return bits < 64 && n == 1<<(bits-1)-1
	case "minui":
		return n == -1
	}
	return false
}

// half decodes an IEEE binary16 bit pattern.
func half(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * frac / 1024 * math.Pow(2, -14)
	case 31:
		if frac == 0 {
			return sign * math.Inf(1)
		}
		return math.NaN()
	}
	return sign * (1 + frac/1024) * math.Pow(2, float64(exp-15))
}

// elementwise reads an arith or math op on vectors as the graph's
// element-wise function or cast.
func (b *builder) elementwise(op *ir.Op) {
	if len(op.Results) != 1 || !isVector(op.Results[0]) {
		return // on scalars and indices: not the graph's
	}
	b.elementwiseAs(op, elementwise[op.Name])
}

// elementwiseAs reads an element-wise op or cast as the graph's function fn.
func (b *builder) elementwiseAs(op *ir.Op, fn string) {
	if len(op.Results) != 1 || !isVector(op.Results[0]) {
		return
	}
	res := op.Results[0]
	if fn == "extf" && b.widenedByMMA(res) {
		if v := b.value(op.Operands[0]); v != nil {
			b.folded[res] = v
		} else {
			b.failed[res] = true
		}
		return
	}
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	if tile := b.laneOperand(op); tile != nil {
		shape = tile // a lane's share of a tile: the graph reads the tile
		b.lane[res] = true
	}
	info := model.OpBySpelling(fn)
	mop := &model.Op{Kind: info.Kind, Fn: fn, Pos: op.Pos}
	for i, o := range op.Operands {
		if fn == "select" && i == 0 && !isVector(o.Value) {
			// A scalar condition is the same for every element: a
			// uniform mask.
			c := b.add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: model.DType{Name: "i1", Bits: 1}}, nil, res.Name+"@cond", op.Pos)
			if c == nil {
				b.failed[res] = true
				return
			}
			mop.Operands = append(mop.Operands, c)
			continue
		}
		v := b.value(o)
		if v == nil {
			b.failed[res] = true
			return
		}
		mop.Operands = append(mop.Operands, v)
	}
	b.add(mop, &model.OpArgs{Spelling: fn, DType: dt, Shape: shape}, res, res.Name, res.Pos)
}

// widenedByMMA reports whether every use of an extf's result is an
// operand A or B of a vector.contract: the mma widens its operands itself
// (an f16 mma accumulating in f32), so the graph reads the narrow value.
func (b *builder) widenedByMMA(v *ir.Value) bool {
	if len(v.Uses) == 0 {
		return false
	}
	for _, u := range v.Uses {
		if u.Op.Name != "vector.contract" && u.Op.Name != "tt.dot" || u.Index > 1 {
			return false
		}
	}
	return true
}

// memref records a memref value: its memory space, and for shared memory
// that its shape is static.
func (b *builder) memref(v *ir.Value, t *ir.MemRefType, pos model.Pos) {
	space, ok := memorySpace(t.MemSpace)
	if !ok {
		b.errorf(pos, model.CodeUnknownName, "%s is in memory space %s, which the planner does not know: it reads global memory (no memory space, #gpu.address_space<global>, 1) and shared memory (#gpu.address_space<workgroup>, 3)", v, t.MemSpace)
		b.failed[v] = true
		return
	}
	if space == "shared" {
		if t.Unranked || slices.Contains(t.Shape, ir.Dynamic) {
			b.errorf(pos, model.CodeBadValue, "the shared-memory buffer %s has the shape of %s, which is not constant: the planner places buffers of known size", v, t)
			b.failed[v] = true
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
	if b.failed[v] {
		return nil
	}
	t, ok := v.Type.(*ir.MemRefType)
	if !ok {
		if _, tensor := v.Type.(*ir.TensorType); tensor {
			b.errorf(o.Pos, model.CodeBadValue, "%s is a %s, not a memref: the planner reads kernels in the vector dialect after bufferization", v, v.Type)
		} else {
			b.errorf(o.Pos, model.CodeBadValue, "%s is %v, not a memref", v, v.Type)
		}
		b.failed[v] = true
		return nil
	}
	// A memref some op the reader skips made (a subview, a cast): its
	// type says where it lives.
	b.memref(v, t, v.Pos)
	return b.mems[v]
}

// access works out how an access of vector shape vshape touches a memref
// of rank rank: the memref dimension each vector dimension runs along.
func (b *builder) access(op *ir.Op, vshape []int, memT *ir.MemRefType) ([]int, bool) {
	rank := len(memT.Shape)
	if memT.Unranked {
		b.fail(op, model.CodeBadValue, "%s accesses an unranked memref: the planner needs its rank", op.Name)
		return nil, false
	}
	if len(vshape) > rank {
		b.fail(op, model.CodeRankMismatch, "%s accesses a rank-%d vector in a rank-%d memref", op.Name, len(vshape), rank)
		return nil, false
	}
	dims := make([]int, len(vshape))
	for i := range dims {
		dims[i] = rank - len(vshape) + i // the minor identity
	}
	if pm, ok := op.Attr("permutation_map"); ok {
		am, isMap := pm.Value.(*ir.AffineMapAttr)
		if !isMap {
			b.fail(op, model.CodeBadValue, "%s's permutation_map is %s, not an affine map", op.Name, pm.Value)
			return nil, false
		}
		m := am.Map
		rd, plain := m.ResultDims()
		switch {
		case len(m.Dims) != rank || len(m.Results) != len(vshape):
			b.errorf(pm.ValuePos, model.CodeRankMismatch, "permutation_map %s maps %d memref dimension(s) to %d vector dimension(s), but the memref has rank %d and the vector %d", am, len(m.Dims), len(m.Results), rank, len(vshape))
			return nil, false
		case !plain:
			b.errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s is not a permutation of the memref's dimensions (each result a dimension)", am)
			return nil, false
		case slices.Contains(rd, -1):
			b.errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s broadcasts (a result 0): the planner reads each vector element from its own place in memory", am)
			return nil, false
		}
		for i, d := range rd {
			if slices.Contains(rd[:i], d) {
				b.errorf(pm.ValuePos, model.CodeBadValue, "permutation_map %s names dimension %s twice", am, m.Dims[d])
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
		b.fail(op, model.CodeShapeMismatch, "%s moves %s elements through %s of %s elements", op.Name, dt.Name, v, m.typ.Elem)
		return nil
	}
	if buf := b.bufs[v]; buf != nil {
		if !slices.Equal(buf.Shape, tile) {
			e := b.fail(op, model.CodeShapeMismatch, "%s touches a %v tile of %s, but an access at %s touched %v: the planner reads a shared-memory buffer as the one tile its accesses touch", op.Name, tile, v, buf.Pos, buf.Shape)
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
	if len(tile) == 2 {
		buf.Layout = &model.SharedLayout{Rows: tile[0], Cols: tile[1], ElemBits: dt.Bits, Swizzle: "none"}
		if s, ok := m.typ.Layout.(*ir.StridedAttr); ok && len(s.Strides) == len(m.typ.Shape) && s.Strides[len(s.Strides)-1] == 1 {
			if row := s.Strides[len(s.Strides)-2]; row != ir.Dynamic && row > tile[1] {
				buf.Layout.Stride = row
			}
		}
	}
	b.bufs[v] = buf
	b.g.Buffers = append(b.g.Buffers, buf)
	return buf
}

// read reads vector.transfer_read and vector.load: a load from global
// memory, or a load_shared of a shared buffer (and a transpose when the
// permutation_map transposes).
func (b *builder) read(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	if b.laneRead(op, res, dt) {
		return
	}
	m := b.mem(op.Operands[0])
	if m == nil {
		b.failed[res] = true
		return
	}
	dims, ok := b.access(op, shape, m.typ)
	if !ok {
		b.failed[res] = true
		return
	}
	if m.space == "global" {
		if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
			b.fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
			return
		}
		mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: contiguous(dims)}
		b.add(mop, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
		return
	}
	tile, perm := memoryOrder(shape, dims)
	buf := b.buffer(op, op.Operands[0], m, tile, dt)
	if buf == nil {
		return
	}
	if perm == nil {
		b.add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, res, res.Name, res.Pos)
		return
	}
	tv := b.add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, nil, res.Name+"@mem", res.Pos)
	if tv == nil {
		b.failed[res] = true
		return
	}
	b.add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{tv}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
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
	src := b.value(op.Operands[vi])
	if src == nil {
		return
	}
	m := b.mem(op.Operands[mi])
	if m == nil {
		return
	}
	dims, ok := b.access(op, src.Shape, m.typ)
	if !ok {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	if m.space == "global" {
		if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != src.DType.Name {
			b.fail(op, model.CodeShapeMismatch, "%s writes %s elements to %s of %s elements", op.Name, src.DType.Name, op.Operands[mi].Value, m.typ.Elem)
			return
		}
		mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: contiguous(dims), Name: name}
		b.add(mop, &model.OpArgs{}, nil, name, op.Pos)
		return
	}
	tile, perm := memoryOrder(src.Shape, dims)
	buf := b.buffer(op, op.Operands[mi], m, tile, src.DType)
	if buf == nil {
		return
	}
	if perm != nil {
		inv := model.InversePermutation(perm)
		src = b.add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{src}, Perm: inv}, &model.OpArgs{Perm: inv}, nil, src.Name+"@mem", op.Pos)
		if src == nil {
			return
		}
	}
	b.add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
}
