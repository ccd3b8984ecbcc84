package mlir

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// The matrix ops of MLIR's gpu, nvgpu and amdgpu dialects. Their custom
// forms are read as IREE 3.13's MLIR writes them, their properties as
// keywords (mma_props.go), and as LLVM 19's assembly formats wrote them,
// the properties in the attribute dictionary (llvm-project
// mlir/include/mlir/Dialect/GPU/IR/GPUOps.td, the SubgroupMma ops;
// mlir/include/mlir/Dialect/NVGPU/IR/NVGPUOps.td, LdMatrixOp and
// MmaSyncOp; mlir/include/mlir/Dialect/AMDGPU/IR/AMDGPU.td, MFMAOp, in
// LLVM 19, AMDGPUOps.td since). They are checked by reading
// testdata/mlir/{wmma_gemm,ldmatrix_mma_sync,mfma_tile}.mlir and
// iree-opt's generic forms of them to the same graphs, and the LLVM 19
// forms of the same kernels too (mma_props_test.go).
//
// A function using them describes one subgroup's work: a WMMA value
// (!gpu.mma_matrix<16x16xf16, "AOp">) is the subgroup's fragment, a
// vector an nvgpu or amdgpu op gives (vector<4x2xf16>) is each lane's
// share of one. The graph holds each as the subgroup-level tile it is part
// of, the op naming the record the IR fixed (its intrinsic); lane-level
// vectors are pinned to that record's fragment layouts.

// mmaMatrixRE reads !gpu.mma_matrix<MxNxT, "AOp"|"BOp"|"COp"> (GPUOps.td's
// GPU_MMAMatrix type, GPUBase.td: a 2-D shape, an element type, and the
// operand it is).
var mmaMatrixRE = regexp.MustCompile(`^!gpu\.mma_matrix<(\d+)x(\d+)x([a-zA-Z0-9]+), ?"([ABC]Op)">$`)

// intTypeRE reads an integer type's name: i8, si32, ui16.
var intTypeRE = regexp.MustCompile(`^(i|si|ui)([1-9][0-9]{0,4})$`)

// mmaMatrixOf reads a WMMA type as the vector of its shape and elements,
// and the operand it is ("AOp", "BOp", "COp").
func mmaMatrixOf(t Type) (*VectorType, string, bool) {
	o, ok := t.(*OpaqueType)
	if !ok || !strings.HasPrefix(o.Text, "!gpu.mma_matrix<") {
		return nil, "", false
	}
	m := mmaMatrixRE.FindStringSubmatch(o.Text)
	if m == nil {
		return nil, "", false
	}
	rows, _ := strconv.Atoi(m[1])
	cols, _ := strconv.Atoi(m[2])
	var elem Type
	if _, ok := floatBits[m[3]]; ok {
		elem = &FloatType{Name: m[3]}
	} else if im := intTypeRE.FindStringSubmatch(m[3]); im != nil {
		w, _ := strconv.Atoi(im[2])
		elem = &IntType{Width: w, Signed: signOf(m[3])}
	} else {
		return nil, "", false
	}
	return &VectorType{Shape: []int{rows, cols}, Scalable: []bool{false, false}, Elem: elem}, m[4], true
}

// signOf is an integer type's signedness mark ('s', 'u' or 0 for
// signless), from its name.
func signOf(name string) byte {
	if name[0] == 's' || name[0] == 'u' {
		return name[0]
	}
	return 0
}

// parseMMALoad reads gpu.subgroup_mma_load_matrix's and nvgpu.ldmatrix's
// %src[%i...] [properties] [{...}] : MemT -> ResT, the properties as
// current MLIR writes them (mma_props.go; LLVM 19 writes them in the
// dictionary).
func parseMMALoad(p *parser, op *Op) []Type {
	src, idx, ok := p.indexed()
	if !ok {
		return nil
	}
	if op.Name == "nvgpu.ldmatrix" {
		p.ldmatrixProps(op)
	} else {
		p.wmmaProps(op)
	}
	p.optAttrs(op)
	p.propsNotInDict(op)
	memT := p.colonType(op)
	r := p.arrowType("the result's type")
	if !p.ok() || p.use(op, src, memT) == nil || !p.useAll(op, idx, IndexType{}) {
		return nil
	}
	return []Type{r}
}

// parseMMAStore reads gpu.subgroup_mma_store_matrix's %v, %dst[%i...]
// [leadDimension N [transpose]] [{...}] : VT, MemT.
func parseMMAStore(p *parser, op *Op) []Type {
	v, dst, idx, ok := p.storeOperands("between the matrix and the destination")
	if !ok {
		return nil
	}
	p.wmmaProps(op)
	p.optAttrs(op)
	p.propsNotInDict(op)
	vt, dstT, ok := p.typePair(op, ",", "between the matrix's and the destination's types")
	if ok && p.use(op, v, vt) != nil && p.use(op, dst, dstT) != nil {
		p.useAll(op, idx, IndexType{})
	}
	return nil
}

// parseMMAConstant reads gpu.subgroup_mma_constant_matrix's %x [{...}] :
// T, %x a scalar of T's element type.
func parseMMAConstant(p *parser, op *Op) []Type {
	x, ok := p.parseRef()
	if !ok {
		return nil
	}
	p.optAttrs(op)
	t := p.colonType(op)
	if !p.ok() {
		return nil
	}
	var elem Type
	if v, _, ok := mmaMatrixOf(t); ok {
		elem = v.Elem
	}
	if p.use(op, x, elem) == nil {
		return nil
	}
	return []Type{t}
}

// parseMMAElementwise reads gpu.subgroup_mma_elementwise's KIND %a, ...
// [{...}] : (T, ...) -> T, KIND its opType (GPUBase.td, MMAElementWise).
func parseMMAElementwise(p *parser, op *Op) []Type {
	if p.tok.kind != tBareID {
		p.failf(p.tok.pos, "expected the element-wise function (addf, mulf, ...), found %s", p.tok.describe())
		return nil
	}
	at := p.tok.pos
	op.Props = append(op.Props, &NamedAttr{Name: "opType", Pos: at, ValuePos: at, Value: &DialectAttr{Name: "gpu", Body: "mma_element_wise " + p.tok.text, HasBody: true}})
	p.nextTok()
	return p.functional(op, p.parseRefs())
}

// functional reads [{...}] : (operand types) -> result type, the
// operands refs.
func (p *parser) functional(op *Op, refs []ref) []Type {
	p.optAttrs(op)
	p.propsNotInDict(op)
	at := p.tok.pos
	ft, ok := p.colonType(op).(*FunctionType)
	if !p.ok() {
		return nil
	}
	if !ok || len(ft.Results) != 1 {
		p.failf(at, "expected %s's type (operand types) -> result type", op.Name)
		return nil
	}
	if !p.refsWithTypes(op, refs, ft.Inputs, at) {
		return nil
	}
	return ft.Results
}

// parseMmaSync reads nvgpu.mma.sync's (%a, %b, %c) [mmaShape = [M, N, K]
// [tf32Enabled]] [{...}] : (TA, TB, TC) -> TR.
func parseMmaSync(p *parser, op *Op) []Type {
	if !p.expect("(", "before nvgpu.mma.sync's operands") {
		return nil
	}
	refs := p.parseRefs()
	if !p.expect(")", "after nvgpu.mma.sync's operands") {
		return nil
	}
	p.mmaSyncProps(op)
	return p.functional(op, refs)
}

// parseMfma reads amdgpu.mfma's [blocks(B)] MxNxK %a * %b + %c [options]
// [{...}] : TA, TB, TC as current MLIR writes it (mma_props.go), and
// LLVM 19's %a * %b + %c [{...}] [blgp = V] : TA, TB, TC (m, n, k,
// blocks, cbsz and abid in the dictionary, blgp a keyword after it); the
// result has C's type.
func parseMfma(p *parser, op *Op) []Type {
	p.mfmaShape(op)
	current := len(op.Props) > 0
	a, ok := p.parseRef()
	if !ok || !p.expect("*", "between A and B") {
		return nil
	}
	bb, ok := p.parseRef()
	if !ok || !p.expect("+", "between B and C") {
		return nil
	}
	c, ok := p.parseRef()
	if !ok {
		return nil
	}
	if current {
		p.mfmaOptions(op)
	}
	p.optAttrs(op)
	p.propsNotInDict(op)
	if !current && p.isKeyword("blgp") {
		at := p.tok.pos
		p.nextTok()
		if !p.expect("=", "after blgp") {
			return nil
		}
		if p.tok.kind != tBareID {
			p.failf(p.tok.pos, "expected blgp's value (none, bcast_first_32, ...), found %s", p.tok.describe())
			return nil
		}
		op.Props = append(op.Props, &NamedAttr{Name: "blgp", Pos: at, ValuePos: p.tok.pos, Value: &DialectAttr{Name: "amdgpu", Body: "mfma_perm_b " + p.tok.text, HasBody: true}})
		p.nextTok()
	}
	at := p.tok.pos
	ta := p.colonType(op)
	if !p.expect(",", "between A's and B's types") {
		return nil
	}
	tb := p.parseType()
	if !p.expect(",", "between B's and C's types") {
		return nil
	}
	tc := p.parseType()
	if !p.ok() || !p.refsWithTypes(op, []ref{a, bb, c}, []Type{ta, tb, tc}, at) {
		return nil
	}
	return []Type{tc}
}

// mmaElementwise maps gpu.subgroup_mma_elementwise's functions
// (GPUBase.td, MMAElementWise) to the graph's.
var mmaElementwise = map[string]string{
	"addf": "add", "mulf": "mul", "subf": "sub", "maxf": "max", "minf": "min", "divf": "div",
	"addi": "add", "muli": "mul", "subi": "sub", "divs": "div", "divu": "div", "negatef": "neg", "negates": "neg",
	"extf": "extf",
}

// intAttrOf is the integer attribute name of op; def when absent.
func intAttrOf(op *Op, name string, def int) (int, *NamedAttr, bool) {
	na, ok := op.Attr(name)
	if !ok {
		return def, nil, true
	}
	ia, ok := na.Value.(*IntAttr)
	if !ok {
		return 0, na, false
	}
	n, ok := ia.Int64()
	return int(n), na, ok && n >= 0 && n <= 1<<16
}

// flagOf says whether op has the flag name (a unit attribute or true).
func flagOf(op *Op, name string) bool {
	na, ok := op.Attr(name)
	if !ok {
		return false
	}
	if b, isBool := na.Value.(*BoolAttr); isBool {
		return b.Value
	}
	return true
}

// offered are the mma and memory records the target offers (read once).
func (b *builder) offered(op *Op) ([]*model.Record, bool) {
	if b.recs != nil {
		return b.recs, true
	}
	if b.opt.Offered == nil {
		b.fail(op, model.CodeMissingKey, "%s names an instruction, and the reader was given no intrinsic records to match it against", op.Name)
		return nil, false
	}
	recs, err := b.opt.Offered(b.target)
	if err != nil {
		b.fail(op, model.CodeBadValue, "the records of %s: %v", b.target.Name, err)
		return nil, false
	}
	b.recs = recs
	return recs, true
}

// recordFor is the record of kind k the target offers that fits, or nil
// (reported at op, saying what was looked for and what there is).
func (b *builder) recordFor(op *Op, k model.RecordKind, want string, fits func(r *model.Record) bool) *model.Record {
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
	b.fail(op, model.CodeUnknownName, "%s: %s offers no record for %s (its %s records: %s)", op.Name, b.target.Name, want, k, strings.Join(have, ", "))
	return nil
}

// wmmaRole maps a WMMA operand ("AOp") to the records' fragment families'
// word for it (wmma.m16n16k16.a.row.f16, ...accumulator.f32).
var wmmaRole = map[string]string{"AOp": ".a.", "BOp": ".b.", "COp": ".accumulator."}

// wmmaMove is the WMMA load or store record of the target that moves a
// fragment of shape and type between shared memory and registers.
func (b *builder) wmmaMove(op *Op, k model.RecordKind, role string, shape []int, dt model.DType, trans bool) *model.Record {
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
func (b *builder) mmaRecord(op *Op, m, n, k, blocks int, a, bt, c model.DType, opaque bool) *model.Record {
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
func (b *builder) wmmaLoad(op *Op) {
	res := op.Results[0]
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	_, role, _ := mmaMatrixOf(res.Type)
	m := b.mem(op.Operands[0])
	if m == nil {
		b.failed[res] = true
		return
	}
	if m.space == "global" {
		b.globalLoad(op, res, shape, dt, m)
		return
	}
	rec := b.wmmaMove(op, model.RecordLoadShared, role, shape, dt, flagOf(op, "transpose"))
	if rec == nil {
		b.failed[res] = true
		return
	}
	buf := b.buffer(op, op.Operands[0], m, shape, dt)
	if buf == nil {
		b.failed[res] = true
		return
	}
	b.add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf, Intrinsic: rec.Name, IntrinsicPos: op.Pos}, &model.OpArgs{Buffer: buf}, res, res.Name, res.Pos)
}

// globalLoad adds a load from global memory of the whole tile, contiguous
// along its last dimension.
func (b *builder) globalLoad(op *Op, res *Value, shape []int, dt model.DType, m *memInfo) {
	if edt, ok := dtypeOf(m.typ.Elem); !ok || edt.Name != dt.Name {
		b.fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
		return
	}
	mop := &model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: len(shape) - 1}
	b.add(mop, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// wmmaStore reads gpu.subgroup_mma_store_matrix: a copy_to_shared with
// the WMMA store record, or a store to global memory.
func (b *builder) wmmaStore(op *Op) {
	src := b.value(op.Operands[0])
	if src == nil {
		return
	}
	_, role, _ := mmaMatrixOf(op.Operands[0].Value.Type)
	m := b.mem(op.Operands[1])
	if m == nil {
		return
	}
	name := op.Name + "@" + strconv.Itoa(op.Pos.Line)
	if edt, ok := dtypeOf(m.typ.Elem); !ok || edt.Name != src.DType.Name {
		b.fail(op, model.CodeShapeMismatch, "%s writes %s elements to %s of %s elements", op.Name, src.DType.Name, op.Operands[1].Value, m.typ.Elem)
		return
	}
	if m.space == "global" {
		mop := &model.Op{Kind: model.OpStore, Pos: op.Pos, Operands: []*model.Value{src}, Contiguous: len(src.Shape) - 1, Name: name}
		b.add(mop, &model.OpArgs{}, nil, name, op.Pos)
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
	b.add(&model.Op{Kind: model.OpCopyToShared, Pos: op.Pos, Operands: []*model.Value{src}, Buffer: buf, Name: name}, &model.OpArgs{Buffer: buf}, nil, name, op.Pos)
}

// wmmaCompute reads gpu.subgroup_mma_compute: an mma on the WMMA record
// of its shape and types.
func (b *builder) wmmaCompute(op *Op) {
	res := op.Results[0]
	for _, f := range []string{"a_transpose", "b_transpose"} {
		if flagOf(op, f) {
			b.fail(op, model.CodeBadValue, "%s has %s: the WMMA records read A and B row major, and a WMMA fragment cannot be transposed in registers (its layout is unspecified)", op.Name, f)
			return
		}
	}
	var vals [3]*model.Value
	for i := range vals {
		if vals[i] = b.value(op.Operands[i]); vals[i] == nil {
			b.failed[res] = true
			return
		}
	}
	a, bv, c := vals[0], vals[1], vals[2]
	if len(a.Shape) != 2 || len(bv.Shape) != 2 || len(c.Shape) != 2 || a.Shape[1] != bv.Shape[0] || c.Shape[0] != a.Shape[0] || c.Shape[1] != bv.Shape[1] {
		b.fail(op, model.CodeShapeMismatch, "%s multiplies A %v by B %v into C %v: A must be M×K, B K×N and C M×N", op.Name, a.Shape, bv.Shape, c.Shape)
		return
	}
	rec := b.mmaRecord(op, a.Shape[0], bv.Shape[1], a.Shape[1], 1, a.DType, bv.DType, c.DType, true)
	if rec == nil {
		b.failed[res] = true
		return
	}
	b.add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: []*model.Value{a, bv, c}, Intrinsic: rec.Name, IntrinsicPos: op.Pos}, &model.OpArgs{}, res, res.Name, res.Pos)
}

// wmmaConstant reads gpu.subgroup_mma_constant_matrix: a constant of the
// fragment's shape (wmma::fill_fragment).
func (b *builder) wmmaConstant(op *Op) {
	res := op.Results[0]
	shape, dt, ok := b.resultVector(res)
	if !ok {
		return
	}
	b.add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: shape, DType: dt}, res, res.Name, res.Pos)
}

// wmmaElementwise reads gpu.subgroup_mma_elementwise as the graph's
// element-wise function on the fragments.
func (b *builder) wmmaElementwise(op *Op) {
	na, _ := op.Attr("opType")
	var fn string
	if na != nil {
		c, _ := enumCase(na.Value, "mma_element_wise")
		fn = mmaElementwise[c]
	}
	if fn == "" {
		at := op.Pos
		what := "none"
		if na != nil {
			at, what = na.ValuePos, na.Value.String()
		}
		b.errorf(at, model.CodeUnknownName, "%s's opType is %s: the reader maps %s", op.Name, what, strings.Join(slices.Sorted(maps.Keys(mmaElementwise)), ", "))
		for _, r := range op.Results {
			b.failed[r] = true
		}
		return
	}
	b.elementwiseAs(op, fn)
}

// subgroupOps are the ops whose function is one subgroup's work.
var subgroupOps = []string{"gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix", "gpu.subgroup_mma_compute",
	"gpu.subgroup_mma_constant_matrix", "gpu.subgroup_mma_elementwise", "nvgpu.ldmatrix", "nvgpu.mma.sync", "amdgpu.mfma"}

// subgroupOp is the function's first subgroup-level matrix op, or nil.
func (b *builder) subgroupOp() *Op {
	var found *Op
	visit(b.fn.Regions[0].Blocks[0].Ops, func(op *Op) bool {
		if found == nil && slices.Contains(subgroupOps, op.Name) {
			found = op
		}
		return found == nil
	})
	return found
}

// isVectorType says whether t is a builtin vector type (which a
// to_layout can anchor; a WMMA fragment is not one).
func isVectorType(t Type) bool {
	_, ok := t.(*VectorType)
	return ok
}
