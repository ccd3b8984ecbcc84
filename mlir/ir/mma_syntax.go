package ir

import (
	"regexp"
	"strconv"
	"strings"
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
// forms of the same kernels too (mlir/vector/mma_props_test.go).
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

// MMAMatrixOf reads a WMMA type as the vector of its shape and elements,
// and the operand it is ("AOp", "BOp", "COp").
func MMAMatrixOf(t Type) (*VectorType, string, bool) {
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
	if _, ok := FloatBits[m[3]]; ok {
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
	if v, _, ok := MMAMatrixOf(t); ok {
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
