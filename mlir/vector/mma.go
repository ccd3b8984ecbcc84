package vector

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// intAttrOf is the integer attribute name of op; def when absent.
func intAttrOf(op *ir.Op, name string, def int) (int, *ir.NamedAttr, bool) {
	na, ok := op.Attr(name)
	if !ok {
		return def, nil, true
	}
	ia, ok := na.Value.(*ir.IntAttr)
	if !ok {
		return 0, na, false
	}
	n, ok := ia.Int64()
	return int(n), na, ok && n >= 0 && n <= 1<<16
}

// flagOf says whether op has the flag name (a unit attribute or true).
func flagOf(op *ir.Op, name string) bool {
	na, ok := op.Attr(name)
	if !ok {
		return false
	}
	if b, isBool := na.Value.(*ir.BoolAttr); isBool {
		return b.Value
	}
	return true
}

// offered are the mma and memory records the target offers (read once).
func (b *builder) offered(op *ir.Op) ([]*model.Record, bool) {
	if b.recs != nil {
		return b.recs, true
	}
	if b.Opt.Offered == nil {
		b.Fail(op, model.CodeMissingKey, "%s names an instruction, and the reader was given no intrinsic records to match it against", op.Name)
		return nil, false
	}
	recs, err := b.Opt.Offered(b.Target)
	if err != nil {
		b.Fail(op, model.CodeBadValue, "the records of %s: %v", b.Target.Name, err)
		return nil, false
	}
	b.recs = recs
	return recs, true
}

// recordFor is the record of kind k the target offers that fits, or nil
// (reported at op, saying what was looked for and what there is).
func (b *builder) recordFor(op *ir.Op, k model.RecordKind, want string, fits func(r *model.Record) bool) *model.Record {
	recs, ok := b.offered(op)
	if !ok {
		return nil
	}
	var have []string
	for _, r := range recs {
		if r.Kind != k {
			continue
		}
		if fits(r) {
			return r
		}
		have = append(have, r.Name)
	}
	b.Fail(op, model.CodeUnknownName, "%s: %s offers no record for %s (its %s records: %s)", op.Name, b.Target.Name, want, k, strings.Join(have, ", "))
	return nil
}

// wmmaRole maps a WMMA operand ("AOp") to the records' fragment families'
// word for it (wmma.m16n16k16.a.row.f16, ...accumulator.f32).
var wmmaRole = map[string]string{"AOp": ".a.", "BOp": ".b.", "COp": ".accumulator."}

// wmmaMove is the WMMA load or store record of the target that moves a
// fragment of shape and type between shared memory and registers.
func (b *builder) wmmaMove(op *ir.Op, k model.RecordKind, role string, shape []int, dt model.DType, trans bool) *model.Record {
	orient := "row major"
	if trans {
		orient = "column major (transpose)"
	}
	want := fmt.Sprintf("a %v %s %s fragment, %s", shape, dt.Name, role, orient)
	return b.recordFor(op, k, want, func(r *model.Record) bool {
		f := r.Fragment
		return f != nil && f.Unspecified && r.Trans == trans && slices.Equal(f.Shape, shape) && f.DType.Name == dt.Name &&
			strings.Contains(familyOf(r), wmmaRole[role])
	})
}

// familyOf is the fragment family a WMMA load or store record names.
func familyOf(r *model.Record) string {
	if r.Fragment == nil || r.Fragment.Layout == nil {
		return ""
	}
	return r.Fragment.Layout.Opaque()
}

// mmaRecord is the target's mma record of tile m, n, k (and blocks) with
// operands of types a, b, c, opaque (WMMA) or not.
func (b *builder) mmaRecord(op *ir.Op, m, n, k, blocks int, a, bt, c model.DType, opaque bool) *model.Record {
	shape := fmt.Sprintf("m%dn%dk%d", m, n, k)
	if blocks > 1 {
		shape += fmt.Sprintf(" of %d blocks", blocks)
	}
	want := fmt.Sprintf("an mma %s with A %s, B %s, C %s", shape, a.Name, bt.Name, c.Name)
	return b.recordFor(op, model.RecordMMA, want, func(r *model.Record) bool {
		ra, rb, rc := r.Operands["a"], r.Operands["b"], r.Operands["c"]
		return r.M == m && r.N == n && r.K == k && max(r.Blocks, 1) == blocks && r.Subgroups <= 1 &&
			ra != nil && rb != nil && rc != nil && ra.Unspecified == opaque && !ra.Shared && !rb.Shared && !rc.TensorMemory &&
			ra.DType.Name == a.Name && rb.DType.Name == bt.Name && rc.DType.Name == c.Name
	})
}

// wmmaLoad reads gpu.subgroup_mma_load_matrix: a load_shared of the
// workgroup buffer with the WMMA load record, or a load from global memory.
func (b *builder) wmmaLoad(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	_, role, _ := ir.MMAMatrixOf(res.Type)
	m := b.mem(op.Operands[0])
	if m == nil {
		b.Failed[res] = true
		return
	}
	if m.space == "global" {
		b.globalLoad(op, res, shape, dt, m)
		return
	}
	rec := b.wmmaMove(op, model.RecordLoadShared, role, shape, dt, flagOf(op, "transpose"))
	if rec == nil {
		b.Failed[res] = true
		return
	}
	buf := b.buffer(op, op.Operands[0], m, shape, dt)
	if buf == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf, Intrinsic: rec.Name, IntrinsicPos: op.Pos}, &model.OpArgs{Buffer: buf}, res, res.Name, res.Pos)
}

// globalLoad adds a load from global memory of the whole tile, contiguous
// along its last dimension.
func (b *builder) globalLoad(op *ir.Op, res *ir.Value, shape []int, dt model.DType, m *memInfo) {
	if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
		b.Fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
		return
	}
	mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: len(shape) - 1}
	b.Add(mop, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// wmmaStore reads gpu.subgroup_mma_store_matrix: a copy_to_shared with
// the WMMA store record, or a store to global memory.
func (b *builder) wmmaStore(op *ir.Op) {
	src := b.Value(op.Operands[0])
	if src == nil {
		return
	}
	_, role, _ := ir.MMAMatrixOf(op.Operands[0].Value.Type)
	m := b.mem(op.Operands[1])
	if m == nil {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != src.DType.Name {
		b.Fail(op, model.CodeShapeMismatch, "%s writes %s elements to %s of %s elements", op.Name, src.DType.Name, op.Operands[1].Value, m.typ.Elem)
		return
	}
	if m.space == "global" {
		mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: len(src.Shape) - 1, Name: name}
		b.Add(mop, &model.OpArgs{}, nil, name, op.Pos)
		return
	}
	if b.wmmaMove(op, model.RecordStoreShared, role, src.Shape, src.DType, flagOf(op, "transpose")) == nil {
		return
	}
	buf := b.buffer(op, op.Operands[1], m, src.Shape, src.DType)
	if buf == nil {
		return
	}
	// A graph's copy_to_shared names no record (docs/graphs.md): the
	// planner stores a WMMA fragment with the one record that takes it.
	b.Add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
}

// wmmaCompute reads gpu.subgroup_mma_compute: an mma on the WMMA record
// of its shape and types.
func (b *builder) wmmaCompute(op *ir.Op) {
	res := op.Results[0]
	for _, f := range []string{"a_transpose", "b_transpose"} {
		if flagOf(op, f) {
			b.Fail(op, model.CodeBadValue, "%s has %s: the WMMA records read A and B row major, and a WMMA fragment cannot be transposed in registers (its layout is unspecified)", op.Name, f)
			return
		}
	}
	var vals [3]*model.Value
	for i := range vals {
		if vals[i] = b.Value(op.Operands[i]); vals[i] == nil {
			b.Failed[res] = true
			return
		}
	}
	a, bv, c := vals[0], vals[1], vals[2]
	if len(a.Shape) != 2 || len(bv.Shape) != 2 || len(c.Shape) != 2 || a.Shape[1] != bv.Shape[0] || c.Shape[0] != a.Shape[0] || c.Shape[1] != bv.Shape[1] {
		b.Fail(op, model.CodeShapeMismatch, "%s multiplies A %v by B %v into C %v: A must be M×K, B K×N and C M×N", op.Name, a.Shape, bv.Shape, c.Shape)
		return
	}
	rec := b.mmaRecord(op, a.Shape[0], bv.Shape[1], a.Shape[1], 1, a.DType, bv.DType, c.DType, true)
	if rec == nil {
		b.Failed[res] = true
		return
	}
	b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: []*model.Value{a, bv, c}, Intrinsic: rec.Name, IntrinsicPos: op.Pos}, &model.OpArgs{}, res, res.Name, res.Pos)
}

// wmmaConstant reads gpu.subgroup_mma_constant_matrix: a constant of the
// fragment's shape (wmma::fill_fragment).
func (b *builder) wmmaConstant(op *ir.Op) {
	res := op.Results[0]
	shape, dt, ok := b.ResultVector(res)
	if !ok {
		return
	}
	b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// mmaElementwise maps gpu.subgroup_mma_elementwise's functions
// (llvm-project mlir/include/mlir/Dialect/GPU/IR/GPUBase.td,
// MMAElementWise) to the graph's.
var mmaElementwise = map[string]reader.Fn{
	"addf": reader.Func("add"), "mulf": reader.Func("mul"), "subf": reader.Func("sub"), "maxf": reader.Func("max"),
	"minf": reader.Func("min"), "divf": reader.Func("div"), "addi": reader.Func("add"), "muli": reader.Func("mul"),
	"subi": reader.Func("sub"), "divs": reader.Func("div"), "divu": reader.Func("div"), "negatef": reader.Func("neg"),
	"negates": reader.Func("neg"), "extf": reader.CastAs("extf"),
}

// wmmaElementwise reads gpu.subgroup_mma_elementwise as the graph's
// element-wise function on the fragments.
func (b *builder) wmmaElementwise(op *ir.Op) {
	na, _ := op.Attr("opType")
	var fn reader.Fn
	if na != nil {
		c, _ := ir.EnumCase(na.Value, "mma_element_wise")
		fn = mmaElementwise[c]
	}
	if fn.Name == "" {
		at := op.Pos
		what := "none"
		if na != nil {
			at, what = na.ValuePos, na.Value.String()
		}
		b.Errorf(at, model.CodeUnknownName, "%s's opType is %s: the reader maps %s", op.Name, what, strings.Join(slices.Sorted(maps.Keys(mmaElementwise)), ", "))
		for _, r := range op.Results {
			b.Failed[r] = true
		}
		return
	}
	b.ElementwiseAs(op, fn)
}

// subgroupOps are the ops whose function is one subgroup's work.
var subgroupOps = []string{"gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix", "gpu.subgroup_mma_compute",
	"gpu.subgroup_mma_constant_matrix", "gpu.subgroup_mma_elementwise", "nvgpu.ldmatrix", "nvgpu.mma.sync", "amdgpu.mfma"}

// subgroupOp is the function's first subgroup-level matrix op, or nil.
func (b *builder) subgroupOp() *ir.Op {
	var found *ir.Op
	ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		if found == nil && slices.Contains(subgroupOps, op.Name) {
			found = op
		}
		return found == nil
	})
	return found
}

// isVectorType says whether t is a builtin vector type (which a
// to_layout can anchor; a WMMA fragment is not one).
func isVectorType(t ir.Type) bool {
	_, ok := t.(*ir.VectorType)
	return ok
}
