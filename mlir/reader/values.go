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

// Fn is the graph op an element-wise op or cast is read as: its kind
// (model.OpElementwise or model.OpCast), and the function of that kind
// (one of model.ElementwiseFuncs, or a cast's: extf, truncf, bitcast,
// cast), which the op table reads as the op's spelling.
type Fn struct {
	Kind model.OpKind
	Name string
}

// Func is the element-wise function name; CastAs the cast name.
func Func(name string) Fn   { return Fn{model.OpElementwise, name} }
func CastAs(name string) Fn { return Fn{model.OpCast, name} }

// Elementwise maps arith's and math's element-wise ops to the graph's
// functions, casts to the graph's casts.
var Elementwise = map[string]Fn{
	"arith.addf": Func("add"), "arith.addi": Func("add"), "arith.subf": Func("sub"), "arith.subi": Func("sub"),
	"arith.mulf": Func("mul"), "arith.muli": Func("mul"), "arith.divf": Func("div"), "arith.divsi": Func("div"), "arith.divui": Func("div"),
	"arith.floordivsi": Func("div"), "arith.ceildivsi": Func("div"), "arith.ceildivui": Func("div"),
	"arith.maximumf": Func("max"), "arith.maxnumf": Func("max"), "arith.maxsi": Func("max"), "arith.maxui": Func("max"),
	"arith.minimumf": Func("min"), "arith.minnumf": Func("min"), "arith.minsi": Func("min"), "arith.minui": Func("min"),
	"arith.andi": Func("and"), "arith.ori": Func("or"), "arith.xori": Func("xor"),
	"arith.shli": Func("shl"), "arith.shrsi": Func("shr"), "arith.shrui": Func("shr"),
	"arith.remsi": Func("rem"), "arith.remui": Func("rem"), "arith.remf": Func("rem"),
	"arith.negf": Func("neg"), "arith.select": Func("select"), "arith.cmpf": Func("cmp"), "arith.cmpi": Func("cmp"),
	"math.exp": Func("exp"), "math.exp2": Func("exp2"), "math.log": Func("log"), "math.log2": Func("log2"), "math.sqrt": Func("sqrt"),
	"math.rsqrt": Func("rsqrt"), "math.tanh": Func("tanh"), "math.sin": Func("sin"), "math.cos": Func("cos"),
	"math.absf": Func("abs"), "math.absi": Func("abs"), "math.fma": Func("fma"), "vector.fma": Func("fma"),
	"arith.extf": CastAs("extf"), "arith.truncf": CastAs("truncf"), "arith.bitcast": CastAs("bitcast"),
	"arith.extsi": CastAs("cast"), "arith.extui": CastAs("cast"), "arith.trunci": CastAs("cast"), "arith.sitofp": CastAs("cast"),
	"arith.uitofp": CastAs("cast"), "arith.fptosi": CastAs("cast"), "arith.fptoui": CastAs("cast"),
}

// Body reads a block's ops in order.
func (b *Builder) Body(blk *ir.Block) {
	for _, op := range blk.Ops {
		b.Front.ReadOp(op)
	}
}

// Ready reports whether an op the reader maps (named name) has the
// operands and results it needs, none of them failed before; it reports
// a wrong count.
func (b *Builder) Ready(op *ir.Op, name string) bool {
	if in, out, ok := ir.ArityOf(name); ok && (len(op.Operands) < in || len(op.Results) != out) {
		b.Fail(op, model.CodeRankMismatch, "%s has %d operand(s) and %d result(s): it takes at least %d and gives %d", op.Name, len(op.Operands), len(op.Results), in, out)
		return false
	}
	for _, o := range op.Operands {
		if b.Failed[o.Value] {
			for _, r := range op.Results {
				b.Failed[r] = true
			}
			return false
		}
	}
	return true
}

// Touches says whether an operand or a result of op is of type T.
func Touches[T ir.Type](op *ir.Op) bool {
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

// TouchesVectors says whether an operand or a result of op is a vector
// or a WMMA fragment (!gpu.mma_matrix).
func TouchesVectors(op *ir.Op) bool {
	if Touches[*ir.VectorType](op) {
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

// ResultVector is vector of an op's result; a result the graph cannot
// hold is marked failed.
func (b *Builder) ResultVector(res *ir.Value) ([]int, model.DType, bool) {
	shape, dt, ok := b.Vector(res.Type, res.Pos, res.String())
	if !ok {
		b.Failed[res] = true
	}
	return shape, dt, ok
}

// Source is the graph value of op's first operand; without one, the
// result res is marked failed.
func (b *Builder) Source(op *ir.Op, res *ir.Value) *model.Value {
	v := b.Value(op.Operands[0])
	if v == nil {
		b.Failed[res] = true
	}
	return v
}

// Vector checks that t is a vector the graph can hold and gives its shape
// and element type; otherwise it reports why at pos.
func (b *Builder) Vector(t ir.Type, pos model.Pos, what string) ([]int, model.DType, bool) {
	v, ok := b.AsVector(t)
	if !ok {
		if _, tensor := t.(*ir.TensorType); tensor {
			b.Errorf(pos, model.CodeBadValue, "%s is a %s, not a vector: the planner reads kernels in the vector dialect, after bufferization", what, t)
		} else {
			b.Errorf(pos, model.CodeBadValue, "%s is %v, not a vector", what, t)
		}
		return nil, model.DType{}, false
	}
	for i, s := range v.Scalable {
		if s {
			b.Errorf(pos, model.CodeBadValue, "%s is the scalable vector %s (dimension %d is [%d]): the planner lays out vectors of a fixed size", what, t, i, v.Shape[i])
			return nil, model.DType{}, false
		}
	}
	if len(v.Shape) == 0 {
		b.Errorf(pos, model.CodeBadValue, "%s is the 0-D vector %s: the planner lays out vectors of at least one dimension", what, t)
		return nil, model.DType{}, false
	}
	if len(v.Shape) > model.MaxRank {
		b.Errorf(pos, model.CodeTooLarge, "%s has rank %d, more than the %d dimensions the planner handles", what, len(v.Shape), model.MaxRank)
		return nil, model.DType{}, false
	}
	n := 1
	for i, d := range v.Shape {
		if d < 1 {
			b.Errorf(pos, model.CodeBadValue, "%s has extent %d in dimension %d: extents are positive", what, d, i)
			return nil, model.DType{}, false
		}
		n *= d
		if n > model.MaxElements {
			b.Errorf(pos, model.CodeTooLarge, "the vector %s has more than %d elements", t, model.MaxElements)
			return nil, model.DType{}, false
		}
	}
	dt, ok := ir.DType(v.Elem)
	if !ok {
		b.Errorf(pos, model.CodeUnknownName, "%s has elements of type %s, which the planner does not know (it knows %s)", what, v.Elem, strings.Join(model.DTypeNames(), ", "))
		return nil, model.DType{}, false
	}
	return slices.Clone(v.Shape), dt, true
}

// Value is the graph value an operand reads; nil (reported) when it is
// none.
func (b *Builder) Value(o *ir.Operand) *model.Value {
	if mv, ok := b.Front.Operand(o); ok {
		return mv
	}
	v := o.Value
	if mv, ok := b.Folded[v]; ok && mv != nil {
		return mv
	}
	if mv := b.Vals[v]; mv != nil {
		return mv
	}
	if !b.Failed[v] {
		what := "a value the graph does not hold"
		if v.Type != nil {
			what = "of type " + v.Type.String()
		}
		kind := "vectors"
		if b.Tensors {
			kind = "tensors"
		}
		b.Errorf(o.Pos, model.CodeUnknownName, "%s is %s: the planner reads %s here", v, what, kind)
		b.Failed[v] = true
	}
	return nil
}

// Unique makes a value or op name not yet used in the graph.
func Unique(used map[string]bool, name string) string {
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

// Emit appends an op to the graph, in the loop being read.
func (b *Builder) Emit(op *model.Op) {
	if b.Cur != nil {
		b.Made[b.Cur] = append(b.Made[b.Cur], op)
	}
	op.In = b.Loop
	if b.Loop != nil {
		b.Loop.Ops = append(b.Loop.Ops, op)
	} else {
		b.G.Ops = append(b.G.Ops, op)
	}
}

// Add types an op through its row of the op table, defines its result
// (named name, at pos; res is the MLIR value it stands for, nil for an op
// the reader makes), checks the result against res's type, records the
// operands' uses and emits the op. It returns the result (nil for none or
// an error, reported).
func (b *Builder) Add(op *model.Op, args *model.OpArgs, res *ir.Value, name string, pos model.Pos) *model.Value {
	info := op.Info()
	if info.ByFunction && op.Fn == "" {
		op.Fn = args.Spelling
	}
	if args.Spelling == "" {
		args.Spelling = op.Spelling() // the kind as a graph file writes it
	}
	args.Operands = op.Operands
	if info.Arity > 0 && len(op.Operands) != info.Arity {
		b.Errorf(op.Pos, model.CodeBadValue, "%s takes %d operand(s), found %d", op.Spelling(), info.Arity, len(op.Operands))
		return nil
	}
	var result *model.Value
	if info.Type != nil {
		typ, errs := info.Type(args)
		for _, e := range errs {
			b.Errorf(op.Pos, e.Code, "%s", e.Msg)
		}
		if errs != nil {
			if res != nil {
				b.Failed[res] = true
			}
			return nil
		}
		if info.Result && typ != nil {
			if res != nil && !b.Front.LaneShare(res) {
				if shape, dt, ok := b.VectorQuiet(res.Type); ok && (!slices.Equal(shape, typ.Shape) || dt.Name != typ.DType.Name) && !b.scalarResult(res, typ) {
					b.Errorf(op.Pos, model.CodeShapeMismatch, "%s gives %s, but the planner types it as %v x %s", res, res.Type, typ.Shape, typ.DType.Name)
					b.Failed[res] = true
					return nil
				}
			}
			result = &model.Value{Name: Unique(b.Names, name), Shape: typ.Shape, DType: typ.DType, Pos: pos, Def: op}
			op.Result = result
			b.G.Values = append(b.G.Values, result)
			if res != nil {
				b.Vals[res] = result
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
	op.Name = Unique(b.OpNames, op.Name)
	for i, v := range op.Operands {
		v.Uses = append(v.Uses, model.Use{Op: op, Index: i})
	}
	b.Emit(op)
	return result
}

// scalarResult: a reduction to a scalar stands as a value of shape [1].
func (b *Builder) scalarResult(res *ir.Value, typ *model.ValueType) bool {
	_, vec := res.Type.(*ir.VectorType)
	return !vec && len(typ.Shape) == 1 && typ.Shape[0] == 1
}

// VectorQuiet is vector without reporting.
func (b *Builder) VectorQuiet(t ir.Type) ([]int, model.DType, bool) {
	v, ok := b.AsVector(t)
	if !ok {
		return nil, model.DType{}, false
	}
	dt, ok := ir.DType(v.Elem)
	return v.Shape, dt, ok
}

// IsVector reports whether a value is a vector, or a ranked tensor (which
// only a TTGIR kernel's reading reaches: the vector reader refuses
// tensors before).
func IsVector(v *ir.Value) bool {
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

// AsVector is t as a vector: a vector type, or in TTGIR a ranked tensor
// of its shape and elements.
func (b *Builder) AsVector(t ir.Type) (*ir.VectorType, bool) {
	switch v := t.(type) {
	case *ir.VectorType:
		return v, true
	case *ir.TensorType:
		if b.Tensors && !v.Unranked {
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
func (b *Builder) constant(op *ir.Op) {
	res := op.Results[0]
	va, _ := op.Attr("value")
	if va == nil {
		b.Fail(op, model.CodeMissingKey, "arith.constant has no value")
		return
	}
	if !IsVector(res) {
		if ia, ok := va.Value.(*ir.IntAttr); ok {
			if n, ok := ia.Int64(); ok {
				b.ints[res] = n
			}
		}
		return
	}
	if b.Front.LaneConstant(op, res) {
		return
	}
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	if len(res.Uses) > 0 && !slices.ContainsFunc(res.Uses, func(u ir.Use) bool { return !b.IdentityInit(u) }) {
		b.Folded[res] = nil // a reduction's identity: no init at all
		return
	}
	b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// IdentityInit reports whether use u is the accumulator of a
// multi_reduction and its value the identity of the reduction's kind, so
// that the reduction is read as one without an init.
func (b *Builder) IdentityInit(u ir.Use) bool {
	if u.Op.Name != "vector.multi_reduction" || u.Index != 1 {
		return false
	}
	kind := ReductionKind(u.Op)
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
func (b *Builder) elementwise(op *ir.Op) {
	if len(op.Results) != 1 || !IsVector(op.Results[0]) {
		return // on scalars and indices: not the graph's
	}
	b.ElementwiseAs(op, Elementwise[op.Name])
}

// ElementwiseAs reads an element-wise op or cast as the graph's op fn.
func (b *Builder) ElementwiseAs(op *ir.Op, f Fn) {
	fn := f.Name
	if len(op.Results) != 1 || !IsVector(op.Results[0]) {
		return
	}
	res := op.Results[0]
	if fn == "extf" && b.widenedByMMA(res) {
		if v := b.Value(op.Operands[0]); v != nil {
			b.Folded[res] = v
		} else {
			b.Failed[res] = true
		}
		return
	}
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	if tile := b.Front.LaneOperand(op, res); tile != nil {
		shape = tile // a lane's share of a tile: the graph reads the tile
	}
	mop := &model.Op{Kind: f.Kind, Fn: fn, Pos: op.Pos}
	for i, o := range op.Operands {
		if fn == "select" && i == 0 && !IsVector(o.Value) {
			// A scalar condition is the same for every element: a
			// uniform mask.
			c := b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: model.DType{Name: "i1", Bits: 1}}, nil, res.Name+"@cond", op.Pos)
			if c == nil {
				b.Failed[res] = true
				return
			}
			mop.Operands = append(mop.Operands, c)
			continue
		}
		v := b.Value(o)
		if v == nil {
			b.Failed[res] = true
			return
		}
		mop.Operands = append(mop.Operands, v)
	}
	b.Add(mop, &model.OpArgs{Spelling: fn, DType: dt, Shape: shape}, res, res.Name, res.Pos)
}

// widenedByMMA reports whether every use of an extf's result is an
// operand A or B of a vector.contract: the mma widens its operands itself
// (an f16 mma accumulating in f32), so the graph reads the narrow value.
func (b *Builder) widenedByMMA(v *ir.Value) bool {
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

// skipped are ops on scalars, indices and memory the graph has no part
// of; read and passed over.
var skipped = []string{"func.return", "gpu.return", "gpu.barrier", "gpu.thread_id", "gpu.block_id", "gpu.block_dim",
	"affine.apply", "memref.dealloc", "arith.index_cast", "arith.index_castui"}

// SharedOps are the ops every front end reads alike: arith's and math's
// element-wise ops, arith.constant, scf.for and scf.while, and the
// skipped ops.
var SharedOps = func() map[string]func(b *Builder, op *ir.Op) {
	ops := map[string]func(b *Builder, op *ir.Op){
		"arith.constant": (*Builder).constant,
		"scf.for":        (*Builder).forLoop,
		"scf.while":      (*Builder).whileLoop,
	}
	for name := range Elementwise {
		ops[name] = (*Builder).elementwise
	}
	for _, name := range skipped {
		ops[name] = func(b *Builder, op *ir.Op) {}
	}
	return ops
}()

// Int is the value of an integer arith.constant v, if it is one.
func (b *Builder) Int(v *ir.Value) (int64, bool) {
	n, ok := b.ints[v]
	return n, ok
}
