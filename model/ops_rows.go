package model

import (
	"fmt"
	"slices"
)

// opRows is the op table, one row per kind. The order is the order of
// messages that list the kinds (structural kinds, then casts, then the
// element-wise functions).
var opRows = []*OpInfo{
	{
		Kind: OpLoad, Spellings: []string{"load"}, Result: true,
		Keys: []OpKey{{Name: "shape", When: KeyLate}, {Name: "dtype", When: KeyLate}, {Name: "contiguous", When: KeyLate}, {Name: "mask", When: KeyLate}, {Name: "surface", When: KeyLate}},
		Type: typeDeclared, Memory: MemoryGlobal, Records: RecordLoadGlobal, ResultCost: true, Explicit: true, Cost: costLoad,
	},
	{
		Kind: OpStore, Spellings: []string{"store"}, Operands: true, Arity: 1,
		Keys: []OpKey{{Name: "contiguous", When: KeyLate}, {Name: "mask", When: KeyLate}, {Name: "surface", When: KeyLate}, {Name: "layout", When: KeyLate}},
		Flow: FlowExec, Memory: MemoryGlobal, Writes: true, Records: RecordStoreGlobal, Explicit: true, Cost: costStore,
		Needs:   func(op *Op, i int, v string) string { return fmt.Sprintf("writes %%%s from the layout it has", v) },
		Because: becauseRunsIn,
	},
	{
		Kind: OpCopyToShared, Spellings: []string{"copy_to_shared"}, Operands: true, Arity: 1,
		Keys: []OpKey{{Name: "buffer", Gate: GateAfterResult}, {Name: "layout", When: KeyLate}},
		Type: typeCopyToShared, Flow: FlowExec, Memory: MemoryShared, Writes: true, Records: RecordStoreShared, Cost: costCopyToShared,
		Needs:   func(op *Op, i int, v string) string { return fmt.Sprintf("writes %%%s from the layout it has", v) },
		Because: becauseRunsIn,
	},
	{
		Kind: OpLoadShared, Spellings: []string{"load_shared"}, Result: true,
		Keys: []OpKey{{Name: "buffer", Gate: GateAfterResult}, {Name: "intrinsic", When: KeyLast}},
		Type: typeLoadShared, Memory: MemoryShared, Records: RecordLoadShared, Remat: RematLoad, Cost: costLoadShared,
	},
	{
		Kind: OpMMA, Spellings: []string{"mma"}, Operands: true, ByRole: true, Arity: 3, Result: true,
		Roles: []Role{{Name: "a", Key: true}, {Name: "b", Key: true}, {Name: "c", Key: true}},
		Keys:  []OpKey{{Name: "intrinsic", When: KeyLast}, {Name: "k_width", When: KeyLast}, {Name: "transposed", When: KeyLast}},
		Type:  typeMMA, Flow: FlowRecord, Records: RecordMMA, Cost: costMMA,
		Because: becauseMMA,
	},
	{
		// A block-scaled product (Triton's tt.dot_scaled): A and B with
		// one scale factor per block of K of each row of A (scale_a, M ×
		// K/block) and of each column of B (scale_b, K/block × N), read
		// in the scale fragments of a block-scaled record (PTX ISA,
		// "Block Scaling for mma.sync").
		Kind: OpMMAScaled, Spellings: []string{"mma_scaled"}, Operands: true, ByRole: true, Arity: 5, Result: true,
		Roles: []Role{{Name: "a", Key: true}, {Name: "b", Key: true}, {Name: "c", Key: true}, {Name: "scale_a", Key: true}, {Name: "scale_b", Key: true}},
		Keys:  []OpKey{{Name: "intrinsic", When: KeyLast}},
		Type:  typeMMAScaled, Flow: FlowRecord, Records: RecordMMA, Cost: costMMA,
		Because: becauseMMA,
	},
	{
		Kind: OpReduce, Spellings: []string{"reduce"}, QualifiedByFunction: true, Operands: true, Result: true,
		Roles: []Role{{}, {Name: "init", Key: true, Optional: true}},
		Keys:  []OpKey{{Name: "combiner"}, {Name: "axis", Gate: GateBeforeResult}},
		Type:  typeReduce, Flow: FlowExec, Forward: sliceAxis, Backward: broadcastAxis, Combines: true,
		Explicit: true, Remat: RematCombine, Cost: costReduce,
		Needs: func(op *Op, i int, v string) string {
			if i == 1 {
				return fmt.Sprintf("combines its init %%%s in its result's layout", v)
			}
			return fmt.Sprintf("reduces %%%s along dimension %d in the layout %%%s has", v, op.Axis, v)
		},
		Makes: func(op *Op) string {
			return fmt.Sprintf("leaves %%%s in the slice of the layout it reduces in", op.Result.Name)
		},
		Because: func(u Use, a *Assignment) string {
			if u.Index == 1 {
				return fmt.Sprintf("the init combines with the result %%%s", u.Op.Result.Name)
			}
			return "the layout the reduction runs in"
		},
	},
	{
		Kind: OpBroadcast, Spellings: []string{"broadcast"}, Operands: true, Arity: 1, Result: true,
		Keys: []OpKey{{Name: "shape", Gate: GateAfterResult}, {Name: "dims"}},
		Type: typeBroadcast, Flow: FlowRelabel, Forward: broadcastDims, Backward: sliceDims, Explicit: true,
		Widens: func(op *Op) bool { return true },
		Needs: func(op *Op, i int, v string) string {
			if expands(op) {
				return fmt.Sprintf("repeats %%%s along its dimensions %v of extent 1, in the lanes that hold it", v, op.Dims)
			}
			return fmt.Sprintf("repeats %%%s along new dimensions %v, in the lanes that hold it", v, op.Dims)
		},
		Because: becauseRelabels,
	},
	{
		Kind: OpTranspose, Spellings: []string{"transpose"}, Operands: true, Arity: 1, Result: true,
		Keys: []OpKey{{Name: "perm"}},
		Type: typeTranspose, Flow: FlowRelabel, Forward: transposePerm, Backward: transposeBack, Explicit: true,
		Needs: func(op *Op, i int, v string) string {
			return fmt.Sprintf("gives %%%s transposed by %v, each element staying in its lane and register", v, op.Perm)
		},
		Because: becauseRelabels,
	},
	{
		Kind: OpShapeCast, Spellings: []string{"shape_cast"}, Operands: true, Arity: 1, Result: true,
		Keys: []OpKey{{Name: "shape", Gate: GateAfterResult}},
		Type: typeShapeCast, Flow: FlowRelabel, Forward: reshapeToResult, Backward: reshapeToOperand, Explicit: true,
		Needs: func(op *Op, i int, v string) string {
			return fmt.Sprintf("views %%%s in a new shape, each element staying in its lane and register", v)
		},
		Because: becauseRelabels,
	},
	{
		// Triton's tt.join: the two operands side by side along a new
		// last dimension of 2, which each lane holds in its lowest
		// register (include/triton/Dialect/Triton/IR/TritonOps.td,
		// TT_JoinOp; its encoding from inferJoinOpEncoding in
		// lib/Dialect/TritonGPU/IR/Dialect.cpp): no data moves.
		Kind: OpJoin, Spellings: []string{"join"}, Operands: true, Arity: 2, Result: true,
		Type: typeJoin, Flow: FlowRelabel, Forward: joinLast, Backward: splitLast, Explicit: true,
		Needs: func(op *Op, i int, v string) string {
			return fmt.Sprintf("puts %%%s beside its other operand along a new last dimension held in each lane's lowest register", v)
		},
		Because: becauseRelabels,
	},
	{
		// Triton's tt.split: either half of a last dimension of 2, which
		// the operand holds in each lane's lowest register alone (TT_SplitOp,
		// inferSplitOpEncoding); the two halves have one layout, so one op
		// stands for either.
		Kind: OpSplit, Spellings: []string{"split"}, Operands: true, Arity: 1, Result: true,
		Type: typeSplit, Flow: FlowRelabel, Forward: splitLast, Backward: joinLast, Explicit: true,
		Needs: func(op *Op, i int, v string) string {
			return fmt.Sprintf("takes a half of %%%s's last dimension, held in each lane's lowest register", v)
		},
		Because: becauseRelabels,
	},
	{
		// Bytes that each pack two 4-bit elements along an axis (Triton's
		// e2m1 operands of tt.dot_scaled, an i8 tensor of half the K:
		// DotScaledOp::verify), read as those elements: the element pair
		// of a byte is held in its lane and register, the lower element
		// first, so the result holds them in a new lowest register, each
		// other position along the axis doubled. No data moves.
		Kind: OpUnpack, Spellings: []string{"unpack"}, Operands: true, Arity: 1, Result: true,
		Keys: []OpKey{{Name: "axis", Gate: GateBeforeResult}, {Name: "dtype", When: KeyLate}},
		Type: typeUnpack, Flow: FlowRelabel, Forward: unpackAxis, Backward: packAxis, Explicit: true,
		Needs: func(op *Op, i int, v string) string {
			return fmt.Sprintf("reads each byte of %%%s as two elements along dimension %d, held in the byte's lane and register", v, op.Axis)
		},
		Because: becauseRelabels,
	},
	{
		Kind: OpConstant, Spellings: []string{"constant"}, Result: true,
		Keys: []OpKey{{Name: "shape", When: KeyLate}, {Name: "dtype", When: KeyLate}, {Name: "value", When: KeyLate}},
		Type: typeDeclared, AtUse: true,
	},
	{
		// A kernel argument already in registers, in the layout the graph
		// pins it to (the caller's), at no cost.
		Kind: OpArgument, Spellings: []string{"argument"}, Result: true,
		Keys: []OpKey{{Name: "shape", When: KeyLate}, {Name: "dtype", When: KeyLate}},
		Type: typeDeclared, Explicit: true, Given: true,
	},
	{
		Kind: OpLoop, Spellings: []string{"loop"}, Flow: FlowCarry,
		Keys: []OpKey{{Name: "trips"}, {Name: "assume_trips"}, {Name: "iter_args"}, {Name: "inits"}, {Name: "yields"}, {Name: "results"}, {Name: "body"}},
		Cost: costLoop,
		Because: func(u Use, a *Assignment) string {
			return fmt.Sprintf("the loop carries %%%s in one layout", u.Op.Body.Args[u.Index].Name)
		},
	},
	{
		Kind: OpCast, Spellings: []string{"extf", "truncf", "bitcast", "cast"}, ByFunction: true, Operands: true, Arity: 1, Result: true,
		Keys: []OpKey{{Name: "dtype", When: KeyLate}},
		Type: typeCast, Flow: FlowSame, ResultCost: true, Remat: RematCompute, Cost: costCast,
		Widens:  func(op *Op) bool { return op.Result.DType.Bits > op.Operands[0].DType.Bits },
		Because: becauseComputes,
	},
	{
		Kind: OpElementwise, ByFunction: true, Operands: true, Result: true,
		Type: typeElementwise, Flow: FlowSame, ResultCost: true, Remat: RematCompute, Cost: costElementwise,
		Because: becauseComputes,
	},
}

func becauseRunsIn(u Use, a *Assignment) string {
	return "the layout the " + string(u.Op.Kind) + " runs in"
}

func becauseRelabels(u Use, a *Assignment) string {
	return fmt.Sprintf("a layout that %s relabels into %%%s's (it moves no data)", u.Op.Kind, u.Op.Result.Name)
}

func becauseComputes(u Use, a *Assignment) string {
	return fmt.Sprintf("the layout of %%%s, which %s computes in", u.Op.Result.Name, u.Op.KindName())
}

// typeDeclared types a load or a constant: the shape and element type
// its keys declare (already reported when bad).
func typeDeclared(a *OpArgs) (*ValueType, []TypeError) {
	if a.Shape == nil || a.DType.Bits == 0 {
		return nil, nil
	}
	return &ValueType{Shape: a.Shape, DType: a.DType}, nil
}

func typeCopyToShared(a *OpArgs) (*ValueType, []TypeError) {
	v, b := a.Operands[0], a.Buffer
	if !slices.Equal(v.Shape, b.Shape) || v.DType.Name != b.DType.Name {
		return nil, typeErr("buffer", CodeShapeMismatch, "buffer %s holds %v x %s but %s is %v x %s", b.Name, b.Shape, b.DType.Name, v.Name, v.Shape, v.DType.Name)
	}
	return nil, nil
}

func typeLoadShared(a *OpArgs) (*ValueType, []TypeError) {
	return &ValueType{Shape: slices.Clone(a.Buffer.Shape), DType: a.Buffer.DType}, nil
}

func typeMMA(x *OpArgs) (*ValueType, []TypeError) {
	a, b, c := x.Operands[0], x.Operands[1], x.Operands[2]
	r := len(a.Shape)
	switch {
	case r < 2 || r > 3 || len(b.Shape) != r || len(c.Shape) != r:
		return nil, typeErr("kind", CodeRankMismatch, "mma operands must be matrices, or batches of them (rank 3, the batch first): A %v, B %v, C %v", a.Shape, b.Shape, c.Shape)
	case r == 3 && (a.Shape[0] != b.Shape[0] || a.Shape[0] != c.Shape[0]):
		return nil, typeErr("kind", CodeShapeMismatch, "a batched mma needs one batch: A %v, B %v, C %v", a.Shape, b.Shape, c.Shape)
	case a.Shape[r-1] != b.Shape[r-2] || a.Shape[r-2] != c.Shape[r-2] || b.Shape[r-1] != c.Shape[r-1]:
		return nil, typeErr("kind", CodeShapeMismatch, "mma needs A M×K, B K×N, C M×N: found A %v, B %v, C %v", a.Shape, b.Shape, c.Shape)
	}
	return &ValueType{Shape: slices.Clone(c.Shape), DType: c.DType}, nil
}

// MMADims are an mma's batch (1 for a product of matrices), M, K and N:
// A is [batch×]M×K and B [batch×]K×N.
func MMADims(op *Op) (batch, m, k, n int) {
	a, b := op.Operands[0].Shape, op.Operands[1].Shape
	batch = 1
	if len(a) == 3 {
		batch, a, b = a[0], a[1:], b[1:]
	}
	return batch, a[0], a[1], b[1]
}

// typeMMAScaled types a block-scaled mma: A, B and C as an mma's, and
// scales of one block size for A's rows and B's columns.
func typeMMAScaled(x *OpArgs) (*ValueType, []TypeError) {
	t, errs := typeMMA(x)
	if errs != nil {
		return nil, errs
	}
	a, b, sa, sb := x.Operands[0], x.Operands[1], x.Operands[3], x.Operands[4]
	switch {
	case len(a.Shape) != 2:
		return nil, typeErr("kind", CodeRankMismatch, "mma_scaled multiplies matrices: A %v", a.Shape)
	case len(sa.Shape) != 2 || len(sb.Shape) != 2:
		return nil, typeErr("kind", CodeRankMismatch, "mma_scaled's scales must be matrices: scale_a %v, scale_b %v", sa.Shape, sb.Shape)
	case sa.Shape[0] != a.Shape[0] || sb.Shape[1] != b.Shape[1] || sa.Shape[1] != sb.Shape[0] || sa.Shape[1] == 0 || a.Shape[1]%sa.Shape[1] != 0:
		return nil, typeErr("kind", CodeShapeMismatch, "mma_scaled needs scale_a M×(K/block) and scale_b (K/block)×N for A %v and B %v: found scale_a %v, scale_b %v", a.Shape, b.Shape, sa.Shape, sb.Shape)
	}
	return t, nil
}

func typeElementwise(a *OpArgs) (*ValueType, []TypeError) {
	fn := a.Spelling
	f := funcByName[fn]
	switch {
	case len(a.Operands) == 0:
		return nil, typeErr("operands", CodeBadValue, "%s needs operands", fn)
	case f.Arity > 0 && len(a.Operands) != f.Arity:
		return nil, typeErr("operands", CodeBadValue, "%s takes %d operand(s), found %d", fn, f.Arity, len(a.Operands))
	}
	// The values the function combines give the result's type; a
	// condition (select's operand 0) only needs their shape: it may be a
	// mask of another element type.
	values := 0
	if f.Cond {
		values = 1
	}
	first := a.Operands[values]
	var errs []TypeError
	for i, v := range a.Operands {
		cond := f.Cond && i == 0
		if cond && v.DType.Name != "i1" {
			// A condition is a mask of booleans, as arith.select's, whose
			// condition is BoolLike: i1 or a shaped type of i1
			// (llvm/llvm-project, mlir/include/mlir/Dialect/Arith/IR/ArithOps.td).
			errs = append(errs, TypeError{Key: "operands", Index: i, Code: CodeShapeMismatch,
				Msg: fmt.Sprintf("%s's condition %s is %v x %s: a condition is i1, one boolean per element", fn, v.Name, v.Shape, v.DType.Name)})
			continue
		}
		if i == values {
			continue
		}
		if !slices.Equal(v.Shape, first.Shape) || !cond && v.DType.Name != first.DType.Name {
			errs = append(errs, TypeError{Key: "operands", Index: i, Code: CodeShapeMismatch,
				Msg: fmt.Sprintf("%s operands must agree: %s is %v x %s, %s is %v x %s", fn, first.Name, first.Shape, first.DType.Name, v.Name, v.Shape, v.DType.Name)})
		}
	}
	if errs != nil {
		return nil, errs
	}
	if f.Bool {
		return &ValueType{Shape: slices.Clone(first.Shape), DType: DType{Name: "i1", Bits: 1}}, nil
	}
	return &ValueType{Shape: slices.Clone(first.Shape), DType: first.DType}, nil
}

func typeCast(a *OpArgs) (*ValueType, []TypeError) {
	fn, dt, src := a.Spelling, a.DType, a.Operands[0]
	switch {
	case dt.Bits == 0:
		return nil, nil
	case fn == "extf" && dt.Bits <= src.DType.Bits, fn == "truncf" && dt.Bits >= src.DType.Bits, fn == "bitcast" && dt.Bits != src.DType.Bits:
		return nil, typeErr("dtype", CodeBadValue, "%s from %s to %s changes the width the wrong way", fn, src.DType.Name, dt.Name)
	}
	return &ValueType{Shape: slices.Clone(src.Shape), DType: dt}, nil
}

func typeReduce(a *OpArgs) (*ValueType, []TypeError) {
	if len(a.Operands) == 0 || len(a.Operands) > 2 {
		return nil, typeErr("operands", CodeBadValue, "reduce takes one operand (and an init)")
	}
	src, axis := a.Operands[0], a.Axis
	switch {
	case axis < 0 || axis >= len(src.Shape):
		return nil, typeErr("axis", CodeBadValue, "axis %d is out of range for %s %v", axis, src.Name, src.Shape)
	case len(src.Shape) == 1:
		return nil, typeErr("axis", CodeBadValue, "reducing the only dimension of %s leaves a scalar; keep a dimension of extent 1", src.Name)
	}
	shape := slices.Delete(slices.Clone(src.Shape), axis, axis+1)
	if len(a.Operands) == 2 {
		init := a.Operands[1]
		if !slices.Equal(init.Shape, shape) || init.DType.Name != src.DType.Name {
			return nil, typeErr("init", CodeShapeMismatch, "the init of a reduction of %s along %d is %v x %s, found %v x %s", src.Name, axis, shape, src.DType.Name, init.Shape, init.DType.Name)
		}
	}
	return &ValueType{Shape: shape, DType: src.DType}, nil
}

// typeBroadcast types a broadcast of two forms. With dims naming new
// dimensions of shape, the operand is shape without them (vector.broadcast
// of a lower rank). With the operand of the result's rank, dims name its
// dimensions of extent 1 that grow to shape's extents (tt.broadcast,
// vector.broadcast of a 16x1 to 16x256); the other dimensions agree.
func typeBroadcast(a *OpArgs) (*ValueType, []TypeError) {
	src, shape, dims := a.Operands[0], a.Shape, a.Dims
	if len(dims) == 0 {
		return nil, typeErr("dims", CodeBadValue, "dims is empty: it names the dimensions of %v that the broadcast adds or grows", shape)
	}
	for i, d := range dims {
		switch {
		case d < 0 || d >= len(shape):
			return nil, []TypeError{{Key: "dims", Index: i, Code: CodeBadValue,
				Msg: fmt.Sprintf("dims[%d] = %d is not a dimension of the result %v (0 to %d)", i, d, shape, len(shape)-1)}}
		case slices.Contains(dims[:i], d):
			return nil, []TypeError{{Key: "dims", Index: i, Code: CodeBadValue,
				Msg: fmt.Sprintf("dims names dimension %d twice: each dimension the broadcast adds or grows is named once", d)}}
		}
	}
	if len(src.Shape) == len(shape) {
		for d := range shape {
			grows := slices.Contains(dims, d)
			if grows && src.Shape[d] != 1 || !grows && src.Shape[d] != shape[d] {
				return nil, typeErr("dims", CodeShapeMismatch, "broadcasting %s %v to %v along dimensions %v of the same rank: those dimensions of %s must have extent 1 and the others must agree", src.Name, src.Shape, shape, dims, src.Name)
			}
		}
		return &ValueType{Shape: shape, DType: src.DType}, nil
	}
	if added := len(shape) - len(src.Shape); added != len(dims) {
		return nil, typeErr("dims", CodeRankMismatch, "broadcasting %s %v to %v adds %d dimension(s), but dims names %d: %v", src.Name, src.Shape, shape, added, len(dims), dims)
	}
	if rest := dropDims(shape, dims); !slices.Equal(rest, src.Shape) {
		msg := fmt.Sprintf("broadcasting %s %v to %v along new dimensions %v leaves %v, not %s's shape %v", src.Name, src.Shape, shape, dims, rest, src.Name, src.Shape)
		if fit := addedDims(src.Shape, shape); fit != nil {
			msg += fmt.Sprintf(": dims = %v would fit", fit)
		}
		return nil, typeErr("dims", CodeShapeMismatch, "%s", msg)
	}
	return &ValueType{Shape: shape, DType: src.DType}, nil
}

// dropDims is shape without the dimensions dims.
func dropDims(shape, dims []int) []int {
	var rest []int
	for d := range shape {
		if !slices.Contains(dims, d) {
			rest = append(rest, shape[d])
		}
	}
	return rest
}

// addedDims finds dimensions of shape whose removal leaves src, the
// first in order (the latest dimensions added); nil if none.
func addedDims(src, shape []int) []int {
	k := len(shape) - len(src)
	if k <= 0 {
		return nil
	}
	var pick func(from int, dims []int) []int
	pick = func(from int, dims []int) []int {
		if len(dims) == k {
			if slices.Equal(dropDims(shape, dims), src) {
				return slices.Clone(dims)
			}
			return nil
		}
		for d := from; d < len(shape); d++ {
			if r := pick(d+1, append(dims, d)); r != nil {
				return r
			}
		}
		return nil
	}
	return pick(0, nil)
}

// expands reports whether a broadcast grows dimensions of extent 1 of its
// operand rather than adding new ones.
func expands(op *Op) bool { return len(op.Operands[0].Shape) == len(op.Result.Shape) }

func typeTranspose(a *OpArgs) (*ValueType, []TypeError) {
	src, perm := a.Operands[0], a.Perm
	if !IsPermutation(perm, len(src.Shape)) {
		return nil, typeErr("perm", CodeBadValue, "%v is not a permutation of the %d dimensions of %s", perm, len(src.Shape), src.Name)
	}
	shape := make([]int, len(perm))
	for i, p := range perm {
		shape[i] = src.Shape[p]
	}
	return &ValueType{Shape: shape, DType: src.DType}, nil
}

func typeShapeCast(a *OpArgs) (*ValueType, []TypeError) {
	src, n := a.Operands[0], 1
	for _, x := range a.Shape {
		n *= x
	}
	if n != src.Elements() {
		return nil, typeErr("shape", CodeShapeMismatch, "shape_cast of %s %v (%d elements) to %v (%d elements)", src.Name, src.Shape, src.Elements(), a.Shape, n)
	}
	return &ValueType{Shape: a.Shape, DType: src.DType}, nil
}

// typeJoin types a join: two operands of one shape and element type, the
// result that shape with a last dimension of 2.
func typeJoin(a *OpArgs) (*ValueType, []TypeError) {
	x, y := a.Operands[0], a.Operands[1]
	if !slices.Equal(x.Shape, y.Shape) || x.DType.Name != y.DType.Name {
		return nil, typeErr("operands", CodeShapeMismatch, "join's operands must agree: %s is %v x %s, %s is %v x %s", x.Name, x.Shape, x.DType.Name, y.Name, y.Shape, y.DType.Name)
	}
	return &ValueType{Shape: append(slices.Clone(x.Shape), 2), DType: x.DType}, nil
}

// typeSplit types a split: an operand whose last dimension is 2, the
// result its shape without it.
func typeSplit(a *OpArgs) (*ValueType, []TypeError) {
	x := a.Operands[0]
	if n := len(x.Shape); n < 2 || x.Shape[n-1] != 2 {
		return nil, typeErr("operands", CodeShapeMismatch, "split's operand %s is %v: its last dimension must be 2, after at least one other", x.Name, x.Shape)
	}
	return &ValueType{Shape: slices.Clone(x.Shape[:len(x.Shape)-1]), DType: x.DType}, nil
}

// typeUnpack types an unpack: an operand of 8-bit elements, the result
// its shape with the axis doubled, of the 4-bit elements named.
func typeUnpack(a *OpArgs) (*ValueType, []TypeError) {
	x := a.Operands[0]
	switch {
	case a.Axis < 0 || a.Axis >= len(x.Shape):
		return nil, typeErr("axis", CodeBadValue, "axis %d is out of range for %s %v", a.Axis, x.Name, x.Shape)
	case x.DType.Bits != 8:
		return nil, typeErr("operands", CodeShapeMismatch, "unpack reads bytes: %s is %v x %s", x.Name, x.Shape, x.DType.Name)
	case a.DType.Bits == 0:
		return nil, nil
	case a.DType.Bits != 4:
		return nil, typeErr("dtype", CodeBadValue, "unpack gives two elements of a byte: %s is not 4 bits wide", a.DType.Name)
	}
	shape := slices.Clone(x.Shape)
	shape[a.Axis] *= 2
	return &ValueType{Shape: shape, DType: a.DType}, nil
}

// UnpackPairs is the layout of the elements of bytes in layout l,
// two to a byte along axis: the pair joined as a new last dimension
// (in each lane's lowest register), moved beside the axis and merged
// into it, the pair's index the lowest digit of the axis.
func UnpackPairs(l *Layout, axis int) *Layout {
	r := l.Rank()
	j, err := l.JoinLast()
	if err != nil {
		return nil
	}
	if j, err = j.Transpose(pairBeside(r, axis)); err != nil {
		return nil
	}
	shape := slices.Clone(l.Shape())
	shape[axis] *= 2
	out, err := j.Reshape(shape)
	if err != nil {
		return nil
	}
	return out
}

// PackPairs is the layout of the bytes whose elements, two to a byte
// along axis, are in layout l: defined where the axis's lowest digit is
// held in each lane's lowest register alone (UnpackPairs undone).
func PackPairs(l *Layout, axis int) *Layout {
	r := l.Rank()
	shape := l.Shape()
	if shape[axis]%2 != 0 {
		return nil
	}
	split := append(slices.Clone(shape[:axis]), shape[axis]/2, 2)
	split = append(split, shape[axis+1:]...)
	s, err := l.Reshape(split)
	if err != nil {
		return nil
	}
	if s, err = s.Transpose(InversePermutation(pairBeside(r, axis))); err != nil {
		return nil
	}
	out, err := s.SplitLast()
	if err != nil {
		return nil
	}
	return out
}

// pairBeside is the permutation of a rank+1 tensor whose last dimension
// is a byte's pair that puts the pair right after axis.
func pairBeside(rank, axis int) []int {
	perm := make([]int, 0, rank+1)
	for d := 0; d <= axis; d++ {
		perm = append(perm, d)
	}
	perm = append(perm, rank)
	for d := axis + 1; d < rank; d++ {
		perm = append(perm, d)
	}
	return perm
}

// The layout transfers. Each Key is the name derived layouts are cached
// under; keys of maps that are inverse of one another differ.
var (
	joinLast = &Transfer{
		Key:   func(op *Op) string { return "joinlast" },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.JoinLast(); return r },
	}
	splitLast = &Transfer{
		Key:   func(op *Op) string { return "splitlast" },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.SplitLast(); return r },
	}
	unpackAxis = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("unpack", op.Axis) },
		Apply: func(op *Op, l *Layout) *Layout { return UnpackPairs(l, op.Axis) },
	}
	packAxis = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("pack", op.Axis) },
		Apply: func(op *Op, l *Layout) *Layout { return PackPairs(l, op.Axis) },
	}
	sliceAxis = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("slice", op.Axis) },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.Slice(op.Axis); return r },
	}
	broadcastAxis = &Transfer{
		Key: func(op *Op) string { return fmt.Sprint("broadcast", op.Axis, op.Operands[0].Shape[op.Axis]) },
		Apply: func(op *Op, l *Layout) *Layout {
			r, _ := l.Broadcast(op.Axis, op.Operands[0].Shape[op.Axis])
			return r
		},
	}
	// A broadcast that grows dimensions of extent 1 drops them and then
	// broadcasts into them; going back, it drops them and puts them back
	// at extent 1.
	broadcastDims = &Transfer{
		Key: func(op *Op) string { return fmt.Sprint("broadcast", expands(op), op.Dims, op.Result.Shape) },
		Apply: func(op *Op, l *Layout) *Layout {
			if expands(op) {
				if l = SliceDims(l, op.Dims); l == nil {
					return nil
				}
			}
			return BroadcastDims(l, op.Dims, op.Result.Shape)
		},
	}
	sliceDims = &Transfer{
		Key: func(op *Op) string { return fmt.Sprint("slice", expands(op), op.Dims) },
		Apply: func(op *Op, l *Layout) *Layout {
			l = SliceDims(l, op.Dims)
			if l == nil || !expands(op) {
				return l
			}
			return BroadcastDims(l, op.Dims, op.Operands[0].Shape)
		},
	}
	transposePerm = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("transpose", op.Perm) },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.Transpose(op.Perm); return r },
	}
	transposeBack = &Transfer{
		Key: func(op *Op) string { return fmt.Sprint("transpose", InversePermutation(op.Perm)) },
		Apply: func(op *Op, l *Layout) *Layout {
			r, _ := l.Transpose(InversePermutation(op.Perm))
			return r
		},
	}
	reshapeToResult = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("reshape", op.Result.Shape) },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.Reshape(op.Result.Shape); return r },
	}
	reshapeToOperand = &Transfer{
		Key:   func(op *Op) string { return fmt.Sprint("reshape", op.Operands[0].Shape) },
		Apply: func(op *Op, l *Layout) *Layout { r, _ := l.Reshape(op.Operands[0].Shape); return r },
	}
)

// InversePermutation is the permutation that undoes perm.
func InversePermutation(perm []int) []int {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return inv
}

// BroadcastDims gives the result layout of broadcasting l into the new
// dimensions dims (ascending) of shape: each lane holds the new positions
// in registers. nil when no layout follows.
func BroadcastDims(l *Layout, dims []int, shape []int) *Layout {
	ds := slices.Clone(dims)
	slices.Sort(ds)
	for _, d := range ds {
		var err error
		l, err = l.Broadcast(d, shape[d])
		if err != nil {
			return nil
		}
	}
	return l
}

// SliceDims removes the dimensions dims of l, the highest first. nil when
// no layout follows.
func SliceDims(l *Layout, dims []int) *Layout {
	ds := slices.Clone(dims)
	slices.Sort(ds)
	for i := len(ds) - 1; i >= 0; i-- {
		var err error
		l, err = l.Slice(ds[i])
		if err != nil {
			return nil
		}
	}
	return l
}
