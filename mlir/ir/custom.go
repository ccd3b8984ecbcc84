package ir

import (
	"math"
	"strconv"

	"planner/model"
)

// customParser reads an op's custom form after its name, filling the op
// as its generic form would, and returns its result types.
type customParser func(p *parser, op *Op) []Type

// shortNames are the names an op may be written by without its dialect:
// the builtin dialect's module, and return inside a function (the func
// dialect is the default dialect of its body).
var shortNames = map[string]string{"module": "builtin.module", "return": "func.return"}

// optAttrs reads an optional {attributes} into the op.
func (p *parser) optAttrs(op *Op) {
	if p.ok() && !p.tok.is("{") && op.Dict == (Span{}) {
		op.Dict = Span{Off: p.prevEnd, End: p.prevEnd} // where one goes: after what precedes it
	}
	if p.ok() && p.tok.is("{") {
		off := p.tok.off
		if d := p.parseAttrDict(); d != nil {
			op.Attrs = append(op.Attrs, d...)
			op.Dict = Span{Off: off, End: p.prevEnd}
		}
	}
}

// colonType reads ': type'.
func (p *parser) colonType(op *Op) Type {
	if !p.expect(":", "before the type of "+op.Name) {
		return nil
	}
	return p.parseType()
}

// wrapped reads a keyword's <body> (fastmath<fast>, overflow<nsw>) as an
// attribute of the op named name, of dialect attribute kind.
func (p *parser) wrapped(op *Op, keyword, name, kind string) {
	if !p.ok() || !p.isKeyword(keyword) {
		return
	}
	at := p.tok.pos
	if !p.adjacent('<') {
		return
	}
	p.nextTok()
	body, ok := p.rawBody()
	if ok {
		op.Attrs = append(op.Attrs, &NamedAttr{Name: name, Pos: at, ValuePos: at, Value: &DialectAttr{Name: kind, Body: collapse(body), HasBody: true}})
	}
}

// refsWithTypes resolves uses against a list of types of the same length.
func (p *parser) refsWithTypes(op *Op, refs []ref, types []Type, at model.Pos) bool {
	if !p.ok() {
		return false
	}
	if len(refs) != len(types) {
		p.failCode(at, model.CodeRankMismatch, "%s has %d operand(s) but %d type(s)", op.Name, len(refs), len(types))
		return false
	}
	for i, r := range refs {
		if p.use(op, r, types[i]) == nil {
			return false
		}
	}
	return true
}

// useAll resolves each use against the one type want.
func (p *parser) useAll(op *Op, refs []ref, want Type) bool {
	for _, r := range refs {
		if p.use(op, r, want) == nil {
			return false
		}
	}
	return true
}

// typePair reads ': T sep R' (T, R; T to R; S into D; R from T); ok is
// false where either type or the separator between them is missing.
func (p *parser) typePair(op *Op, sep, what string) (Type, Type, bool) {
	from := p.colonType(op)
	if sep == "," && !p.expect(sep, what) || sep != "," && !p.keyword(sep, what) {
		return nil, nil, false
	}
	to := p.parseType()
	return from, to, p.ok()
}

// optMask reads an optional ', %mask'.
func (p *parser) optMask() ([]ref, bool) {
	if !p.tok.is(",") {
		return nil, true
	}
	p.nextTok()
	m, ok := p.parseRef()
	if !ok {
		return nil, false
	}
	return []ref{m}, true
}

// i64Prop records a list of 64-bit integers read at at as the property name.
func i64Prop(op *Op, name string, at model.Pos, values []string) {
	op.Props = append(op.Props, &NamedAttr{Name: name, Pos: at, ValuePos: at, Value: &DenseArrayAttr{Elem: &IntType{Width: 64}, Values: values}})
}

// operandLists reads (%a...)[%b...], the bracketed list optional; what
// names the parenthesised operands in the errors.
func (p *parser) operandLists(open, what string) ([]ref, []ref, bool) {
	if !p.expect("(", open) {
		return nil, nil, false
	}
	var paren, square []ref
	if !p.tok.is(")") {
		paren = p.parseRefs()
	}
	if !p.expect(")", "to close the "+what) {
		return nil, nil, false
	}
	if p.tok.is("[") {
		p.nextTok()
		if !p.tok.is("]") {
			square = p.parseRefs()
		}
		if !p.expect("]", "to close the symbol operands") {
			return nil, nil, false
		}
	}
	return paren, square, true
}

// moduleBody reads a module's [attributes {...}] {body}.
func (p *parser) moduleBody(op *Op) {
	if p.isKeyword("attributes") {
		p.nextTok()
		p.optAttrs(op)
	}
	if r := p.parseRegion(op, nil, true); r != nil {
		op.Regions = append(op.Regions, r)
	}
}

func parseModuleOp(p *parser, op *Op) []Type {
	if p.tok.kind == tSymbol {
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "sym_name", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
		p.nextTok()
	}
	p.moduleBody(op)
	return nil
}

// parseFuncOp reads func.func [visibility] @name(args) [-> results]
// [attributes {...}] [{body}].
func parseFuncOp(p *parser, op *Op) []Type {
	if p.tok.kind == tString { // sym_visibility
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "sym_visibility", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
		p.nextTok()
	} else if p.tok.kind == tBareID && (p.tok.text == "private" || p.tok.text == "public" || p.tok.text == "nested") {
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "sym_visibility", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
		p.nextTok()
	}
	if p.tok.kind != tSymbol {
		p.failf(p.tok.pos, "expected the function's name (@name), found %s", p.tok.describe())
		return nil
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "sym_name", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
	p.nextTok()
	if !p.expect("(", "to open the function's arguments") {
		return nil
	}
	var args []blockArg
	var ins []Type
	for p.ok() && !p.tok.is(")") {
		if p.tok.kind == tValueID {
			a := blockArg{name: p.tok.text, pos: p.tok.pos}
			p.nextTok()
			if !p.expect(":", "after the argument's name") {
				return nil
			}
			a.typ = p.parseType()
			args = append(args, a)
			ins = append(ins, a.typ)
		} else {
			ins = append(ins, p.parseType())
		}
		var attrs []*NamedAttr
		if p.tok.is("{") {
			attrs = p.parseAttrDict()
		}
		op.ArgAttrs = append(op.ArgAttrs, attrs)
		p.trailingLoc()
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect(")", "to close the function's arguments") {
		return nil
	}
	if len(args) > 0 && len(args) != len(ins) {
		p.failf(op.NamePos, "either every argument of a function is named (%%name: type) or none is")
		return nil
	}
	var outs []Type
	if p.tok.kind == tArrow {
		p.nextTok()
		outs = p.resultTypes()
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "function_type", Pos: op.NamePos, ValuePos: op.NamePos, Value: &TypeAttr{Type: &FunctionType{Inputs: ins, Results: outs}}})
	if op.Name == "gpu.func" {
		var ok bool
		if args, ok = p.gpuFuncTail(op, args); !ok {
			return nil
		}
	}
	if p.isKeyword("attributes") {
		p.nextTok()
		p.optAttrs(op)
	}
	if p.ok() && p.tok.is("{") {
		if len(args) < len(ins) {
			p.failf(p.tok.pos, "a function with a body names its arguments (%%name: type)")
			return nil
		}
		p.funcDepth++
		r := p.parseRegion(op, args, true)
		p.funcDepth--
		if r != nil {
			op.Regions = append(op.Regions, r)
		}
	} else if p.ok() {
		// A declaration: MLIR gives it one empty region.
		op.Regions = append(op.Regions, &Region{Pos: op.Pos, End: op.Pos, Parent: op})
	}
	return nil
}

// gpuFuncTail reads what a gpu.func adds after its signature:
// workgroup(%a: T, ...) and private(%b: T, ...) attributions, which are
// further arguments of its body, and the kernel keyword (llvm-project
// mlir/lib/Dialect/GPU/IR/GPUDialect.cpp, GPUFuncOp::parse and
// parseAttributions). It gives the body's arguments.
func (p *parser) gpuFuncTail(op *Op, args []blockArg) ([]blockArg, bool) {
	for _, kw := range []string{"workgroup", "private"} {
		if !p.isKeyword(kw) {
			continue
		}
		p.nextTok()
		if !p.expect("(", "to open the "+kw+" attributions") {
			return nil, false
		}
		for p.ok() && !p.tok.is(")") {
			if p.tok.kind != tValueID {
				p.failf(p.tok.pos, "expected a %s attribution (%%name: type), found %s", kw, p.tok.describe())
				return nil, false
			}
			a := blockArg{name: p.tok.text, pos: p.tok.pos}
			p.nextTok()
			if !p.expect(":", "after the attribution's name") {
				return nil, false
			}
			a.typ = p.parseType()
			args = append(args, a)
			p.trailingLoc()
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect(")", "to close the "+kw+" attributions") {
			return nil, false
		}
	}
	if p.isKeyword("kernel") {
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "gpu.kernel", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: UnitAttr{}})
		p.nextTok()
	}
	return args, p.ok()
}

// parseGPUModule reads gpu.module @name [<handler>] [[targets]]
// [attributes {...}] {body} (GPUDialect.cpp, GPUModuleOp's assembly: the
// targets, #xevm.target<chip = "pvc"> or #rocdl.target<chip = ...>, are
// where the target may be named).
func parseGPUModule(p *parser, op *Op) []Type {
	if p.tok.kind != tSymbol {
		p.failf(p.tok.pos, "expected the gpu.module's name (@name), found %s", p.tok.describe())
		return nil
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "sym_name", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
	p.nextTok()
	if p.tok.is("<") {
		at := p.tok.pos
		body, ok := p.rawBody()
		if !ok {
			return nil
		}
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "offloadingHandler", Pos: at, ValuePos: at, Value: &OpaqueAttr{Text: "<" + collapse(body) + ">"}})
	}
	if p.tok.is("[") {
		at := p.tok.pos
		targets := p.parseAttr()
		if !p.ok() {
			return nil
		}
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "targets", Pos: at, ValuePos: at, Value: targets})
	}
	p.moduleBody(op)
	return nil
}

// parseReturnLike reads [%a, %b : T1, T2] (func.return, scf.yield).
func parseReturnLike(p *parser, op *Op) []Type {
	refs := p.parseRefs()
	p.optAttrs(op)
	if len(refs) == 0 {
		return nil
	}
	at := p.tok.pos
	if !p.expect(":", "before the types of "+op.Name+"'s operands") {
		return nil
	}
	var types []Type
	for p.ok() {
		types = append(types, p.parseType())
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	p.refsWithTypes(op, refs, types, at)
	return nil
}

// parseForOp reads scf.for [unsigned] %iv = %lb to %ub step %step
// [iter_args(%a = %init, ...) -> (types)] [: type] {body} [{attributes}].
func parseForOp(p *parser, op *Op) []Type {
	if p.isKeyword("unsigned") {
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "unsignedCmp", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: UnitAttr{}})
		p.nextTok()
	}
	if p.tok.kind != tValueID {
		p.failf(p.tok.pos, "expected the induction variable (%%name) of scf.for, found %s", p.tok.describe())
		return nil
	}
	iv := blockArg{name: p.tok.text, pos: p.tok.pos}
	p.nextTok()
	if !p.expect("=", "after scf.for's induction variable") {
		return nil
	}
	lb, _ := p.parseRef()
	if !p.keyword("to", "after scf.for's lower bound") {
		return nil
	}
	ub, _ := p.parseRef()
	if !p.keyword("step", "after scf.for's upper bound") {
		return nil
	}
	step, _ := p.parseRef()
	var iterArgs []blockArg
	var inits []ref
	var types []Type
	argsPos := p.tok.pos
	if p.isKeyword("iter_args") {
		p.nextTok()
		if !p.expect("(", "after iter_args") {
			return nil
		}
		var ok bool
		if iterArgs, inits, ok = p.parseAssignments("an iter_arg (%name = %init)", "after the iter_arg's name", "to close iter_args"); !ok {
			return nil
		}
		if p.tok.kind != tArrow {
			p.failf(p.tok.pos, "expected '->' and the loop's result types after iter_args, found %s", p.tok.describe())
			return nil
		}
		p.nextTok()
		types = p.resultTypes()
		if !p.ok() {
			return nil
		}
		if len(types) != len(iterArgs) {
			p.failCode(argsPos, model.CodeRankMismatch, "scf.for has %d iter_args but its '->' lists %d result type(s): each iter_arg is carried as one result", len(iterArgs), len(types))
			return nil
		}
	}
	var ivType Type = IndexType{}
	if p.tok.is(":") {
		p.nextTok()
		ivType = p.parseType()
	}
	if !p.ok() {
		return nil
	}
	if !p.useAll(op, []ref{lb, ub, step}, ivType) {
		return nil
	}
	for i, r := range inits {
		if p.use(op, r, types[i]) == nil {
			return nil
		}
	}
	iv.typ = ivType
	entry := []blockArg{iv}
	for i := range iterArgs {
		iterArgs[i].typ = types[i]
		entry = append(entry, iterArgs[i])
	}
	r := p.parseRegion(op, entry, false)
	if r == nil {
		return nil
	}
	if len(iterArgs) == 0 {
		impliedYield(r) // of a loop that carries nothing
	}
	op.Regions = append(op.Regions, r)
	p.optAttrs(op)
	return types
}

// parseWhileOp reads scf.while [(%arg = %init, ...)] : (T...) -> (R...)
// {before} do {after} [attributes {...}], as WhileOp's custom parser in
// mlir/lib/Dialect/SCF/IR/SCF.cpp reads it: the before region's entry
// arguments are the assignments' names, of the function type's inputs;
// the after region names its own in its ^bb0(...).
func parseWhileOp(p *parser, op *Op) []Type {
	var args []blockArg
	var inits []ref
	if p.tok.is("(") {
		p.nextTok()
		var ok bool
		if args, inits, ok = p.parseAssignments("an assignment (%name = %init) of scf.while", "after the before region's argument", "to close scf.while's assignments"); !ok {
			return nil
		}
	}
	at := p.tok.pos
	ft, ok := p.colonType(op).(*FunctionType)
	if !p.ok() {
		return nil
	}
	if !ok || len(ft.Inputs) != len(inits) {
		p.failCode(at, model.CodeRankMismatch, "expected scf.while's type (the %d init types) -> (result types)", len(inits))
		return nil
	}
	for i, r := range inits {
		if p.use(op, r, ft.Inputs[i]) == nil {
			return nil
		}
		args[i].typ = ft.Inputs[i]
	}
	before := p.parseRegion(op, args, false)
	if before == nil || !p.keyword("do", "after scf.while's before region") {
		return nil
	}
	after := p.parseRegion(op, nil, false)
	if after == nil {
		return nil
	}
	op.Regions = append(op.Regions, before, after)
	if p.isKeyword("attributes") {
		p.nextTok()
		p.optAttrs(op)
	}
	return ft.Results
}

// parseConditionOp reads scf.condition(%cond) [attr-dict] [%args : types]
// (SCFOps.td, ConditionOp's assemblyFormat).
func parseConditionOp(p *parser, op *Op) []Type {
	if !p.expect("(", "after scf.condition") {
		return nil
	}
	c, ok := p.parseRef()
	if !ok || p.use(op, c, &IntType{Width: 1}) == nil || !p.expect(")", "after scf.condition's condition") {
		return nil
	}
	p.optAttrs(op)
	if p.tok.kind != tValueID {
		return nil
	}
	refs := p.parseRefs()
	at := p.tok.pos
	if !p.expect(":", "before the types of scf.condition's values") {
		return nil
	}
	var types []Type
	for p.ok() {
		types = append(types, p.parseType())
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.ok() {
		return nil
	}
	p.refsWithTypes(op, refs, types, at)
	return nil
}

// impliedYield puts in the scf.yield that the custom form leaves out of a
// one-block region that yields nothing, as MLIR does.
func impliedYield(r *Region) {
	if len(r.Blocks) != 1 {
		return
	}
	blk := r.Blocks[0]
	if n := len(blk.Ops); n == 0 || blk.Ops[n-1].Name != "scf.yield" {
		blk.Ops = append(blk.Ops, &Op{Name: "scf.yield", Pos: r.End, NamePos: r.End, Parent: blk})
	}
}

// parseConstantOp reads arith.constant [{attributes}] value.
func parseConstantOp(p *parser, op *Op) []Type {
	p.optAttrs(op)
	at := p.tok.pos
	v := p.parseAttr()
	if !p.ok() {
		return nil
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "value", Pos: at, ValuePos: at, Value: v})
	t := attrType(v)
	if t == nil {
		p.failCode(at, model.CodeBadValue, "arith.constant needs a typed value (0 : index, 1.0 : f32, dense<...> : vector<...>), found %s", v)
		return nil
	}
	return []Type{t}
}

// attrType is the type a typed attribute states; nil for none.
func attrType(a Attr) Type {
	switch v := a.(type) {
	case *IntAttr:
		return v.Type
	case *FloatAttr:
		return v.Type
	case *DenseAttr:
		return v.Type
	case *BoolAttr:
		return &IntType{Width: 1}
	}
	return nil
}

// boolOf is i1 in t's shape.
func boolOf(t Type) Type {
	i1 := &IntType{Width: 1}
	switch s := t.(type) {
	case *VectorType:
		return &VectorType{Shape: s.Shape, Scalable: s.Scalable, Elem: i1}
	case *TensorType:
		return &TensorType{Shape: s.Shape, Unranked: s.Unranked, Elem: i1, Encoding: s.Encoding}
	}
	return i1
}

// parseSelectOp reads %c, %a, %b [{...}] : T or : Tc, T.
func parseSelectOp(p *parser, op *Op) []Type {
	refs := p.parseRefs()
	p.optAttrs(op)
	at := p.tok.pos
	t := p.colonType(op)
	cond := Type(&IntType{Width: 1})
	if p.ok() && p.tok.is(",") {
		p.nextTok()
		cond, t = t, p.parseType()
	}
	if !p.refsWithTypes(op, refs, []Type{cond, t, t}, at) {
		return nil
	}
	return []Type{t}
}

// ElemOf is a shaped type's element type; t itself otherwise.
func ElemOf(t Type) Type {
	switch s := t.(type) {
	case *VectorType:
		return s.Elem
	case *MemRefType:
		return s.Elem
	case *TensorType:
		return s.Elem
	}
	return t
}

// indexed reads %base[%i, %j] and returns the base and the indices.
func (p *parser) indexed() (ref, []ref, bool) {
	base, ok := p.parseRef()
	if !ok || !p.expect("[", "to open the indices") {
		return ref{}, nil, false
	}
	var idx []ref
	if !p.tok.is("]") {
		idx = p.parseRefs()
	}
	if !p.expect("]", "to close the indices") {
		return ref{}, nil, false
	}
	return base, idx, true
}

// segments sets a generic form's operandSegmentSizes.
func segments(op *Op, sizes ...int) {
	vals := make([]string, len(sizes))
	for i, s := range sizes {
		vals[i] = strconv.Itoa(s)
	}
	op.Props = append(op.Props, &NamedAttr{Name: "operandSegmentSizes", Pos: op.NamePos, ValuePos: op.NamePos,
		Value: &DenseArrayAttr{Elem: &IntType{Width: 32}, Values: vals}})
}

// parseTransferRead reads %src[%i...], %pad [, %mask] [{...}] : SrcT, VecT.
func parseTransferRead(p *parser, op *Op) []Type {
	src, idx, ok := p.indexed()
	if !ok || !p.expect(",", "before the padding value") {
		return nil
	}
	pad, ok := p.parseRef()
	if !ok {
		return nil
	}
	mask, ok := p.optMask()
	if !ok {
		return nil
	}
	p.optAttrs(op)
	srcT, vecT, ok := p.typePair(op, ",", "between the source's and the vector's types")
	if !ok {
		return nil
	}
	if p.tok.is(",") { // the mask's type, in older IR
		p.nextTok()
		p.parseType()
	}
	if !p.ok() || p.use(op, src, srcT) == nil || !p.useAll(op, idx, IndexType{}) ||
		p.use(op, pad, ElemOf(srcT)) == nil || !p.useAll(op, mask, nil) {
		return nil
	}
	segments(op, 1, len(idx), 1, len(mask))
	return []Type{vecT}
}

// parseTransferWrite reads %v, %dst[%i...] [, %mask] [{...}] : VecT, DstT.
func parseTransferWrite(p *parser, op *Op) []Type {
	v, dst, idx, ok := p.storeOperands("between the vector and the destination")
	if !ok {
		return nil
	}
	mask, ok := p.optMask()
	if !ok {
		return nil
	}
	p.optAttrs(op)
	vecT, dstT, ok := p.typePair(op, ",", "between the vector's and the destination's types")
	if !ok {
		return nil
	}
	if p.tok.is(",") {
		p.nextTok()
		p.parseType()
	}
	if !p.ok() || p.use(op, v, vecT) == nil || p.use(op, dst, dstT) == nil ||
		!p.useAll(op, idx, IndexType{}) || !p.useAll(op, mask, nil) {
		return nil
	}
	segments(op, 1, 1, len(idx), len(mask))
	if _, tensor := dstT.(*TensorType); tensor {
		return []Type{dstT}
	}
	return nil
}

// storeOperands reads a store's %v, %dst[%i...], sep saying what the
// comma stands between.
func (p *parser) storeOperands(sep string) (v, dst ref, idx []ref, ok bool) {
	if v, ok = p.parseRef(); !ok || !p.expect(",", sep) {
		return ref{}, ref{}, nil, false
	}
	dst, idx, ok = p.indexed()
	return v, dst, idx, ok
}

// kindAttr reads <kind> as the op's kind attribute (#vector.kind<...>).
func (p *parser) kindAttr(op *Op) bool {
	if !p.tok.is("<") {
		p.failf(p.tok.pos, "expected the combining kind of %s (<add>, <maximumf>, ...), found %s", op.Name, p.tok.describe())
		return false
	}
	at := p.tok.pos
	body, ok := p.rawBody()
	if !ok {
		return false
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "kind", Pos: at, ValuePos: at, Value: &DialectAttr{Name: "vector.kind", Body: collapse(body), HasBody: true}})
	return p.expect(",", "after the combining kind")
}

// parseMultiReduction reads <kind>, %src, %acc [dims] [{...}] : T to R.
func parseMultiReduction(p *parser, op *Op) []Type {
	if !p.kindAttr(op) {
		return nil
	}
	refs := p.parseRefs()
	p.optAttrs(op)
	at := p.tok.pos
	dims := p.parseAttr()
	if _, ok := dims.(*ArrayAttr); p.ok() && !ok {
		p.failf(at, "expected the reduced dimensions [d, ...] of vector.multi_reduction, found %s", dims)
		return nil
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: "reduction_dims", Pos: at, ValuePos: at, Value: dims})
	at = p.tok.pos
	src, res, ok := p.typePair(op, "to", "between the source's and the result's types")
	if !ok || !p.refsWithTypes(op, refs, []Type{src, res}, at) {
		return nil
	}
	return []Type{res}
}

// parseReduction reads <kind>, %v [, %acc] [fastmath<...>] [{...}] : T into R.
func parseReduction(p *parser, op *Op) []Type {
	if !p.kindAttr(op) {
		return nil
	}
	refs := p.parseRefs()
	p.wrapped(op, "fastmath", "fastmath", "arith.fastmath")
	p.optAttrs(op)
	at := p.tok.pos
	src, res, ok := p.typePair(op, "into", "between the vector's and the result's types")
	if !ok {
		return nil
	}
	types := []Type{src, res}
	if len(refs) == 1 {
		types = types[:1]
	}
	if !p.refsWithTypes(op, refs, types, at) {
		return nil
	}
	return []Type{res}
}

// intList reads [1, 0] as the integers' texts.
func (p *parser) intList() ([]string, bool) {
	if !p.expect("[", "to open a list of integers") {
		return nil, false
	}
	var out []string
	for p.ok() && !p.tok.is("]") {
		s, ok := p.scalarLiteral()
		if !ok {
			return nil, false
		}
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			p.failf(p.tok.pos, "expected an integer, found %s", s)
			return nil, false
		}
		out = append(out, s)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	return out, p.expect("]", "to close the list of integers")
}

// positions reads [0, %i, ...] into the op's property prop
// (static_position, const_offsets; dynamic entries marked with MLIR's
// kDynamic) and gives the values of the dynamic ones; what names the list
// in errors.
func (p *parser) positions(op *Op, prop, what string) ([]ref, bool) {
	at := p.tok.pos
	if !p.expect("[", "to open the "+what) {
		return nil, false
	}
	var static []string
	var dyn []ref
	for p.ok() && !p.tok.is("]") {
		if p.tok.kind == tValueID {
			r, ok := p.parseRef()
			if !ok {
				return nil, false
			}
			dyn = append(dyn, r)
			static = append(static, strconv.FormatInt(math.MinInt64, 10))
		} else {
			s, ok := p.scalarLiteral()
			if !ok {
				return nil, false
			}
			static = append(static, s)
		}
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect("]", "to close the "+what) {
		return nil, false
	}
	i64Prop(op, prop, at, static)
	return dyn, true
}

// parseExtract reads %v[positions] [{...}] : R from T.
func parseExtract(p *parser, op *Op) []Type {
	r, ok := p.parseRef()
	if !ok {
		return nil
	}
	dyn, ok := p.positions(op, "static_position", "position")
	if !ok {
		return nil
	}
	p.optAttrs(op)
	res, src, ok := p.typePair(op, "from", "between vector.extract's result and source types")
	if !ok || p.use(op, r, src) == nil || !p.useAll(op, dyn, IndexType{}) {
		return nil
	}
	return []Type{res}
}

// parseInsert reads %s, %d[positions] [{...}] : S into D.
func parseInsert(p *parser, op *Op) []Type {
	s, ok := p.parseRef()
	if !ok || !p.expect(",", "between the inserted value and the destination") {
		return nil
	}
	d, ok := p.parseRef()
	if !ok {
		return nil
	}
	dyn, ok := p.positions(op, "static_position", "position")
	if !ok {
		return nil
	}
	p.optAttrs(op)
	st, dt, ok := p.typePair(op, "into", "between vector.insert's types")
	if !ok || p.use(op, s, st) == nil || p.use(op, d, dt) == nil || !p.useAll(op, dyn, IndexType{}) {
		return nil
	}
	return []Type{dt}
}

// parseAlloc reads (%dyn...)[%sym...] [{...}] : MemT.
func parseAlloc(p *parser, op *Op) []Type {
	dyn, sym, ok := p.operandLists("to open "+op.Name+"'s dynamic sizes", "dynamic sizes")
	if !ok {
		return nil
	}
	p.optAttrs(op)
	t := p.colonType(op)
	if !p.ok() || !p.useAll(op, append(dyn, sym...), IndexType{}) {
		return nil
	}
	segments(op, len(dyn), len(sym))
	return []Type{t}
}

// parseGPUIndex reads x|y|z [upper_bound N] [{...}]; the result is an index.
func parseGPUIndex(p *parser, op *Op) []Type {
	if p.tok.kind != tBareID || (p.tok.text != "x" && p.tok.text != "y" && p.tok.text != "z") {
		p.failf(p.tok.pos, "expected the dimension of %s (x, y or z), found %s", op.Name, p.tok.describe())
		return nil
	}
	op.Props = append(op.Props, &NamedAttr{Name: "dimension", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &DialectAttr{Name: "gpu", Body: "dim " + p.tok.text, HasBody: true}})
	p.nextTok()
	if p.isKeyword("upper_bound") {
		p.nextTok()
		at := p.tok.pos
		if p.tok.kind != tInt {
			p.failf(p.tok.pos, "expected an integer after upper_bound, found %s", p.tok.describe())
			return nil
		}
		op.Props = append(op.Props, &NamedAttr{Name: "upper_bound", Pos: at, ValuePos: at, Value: &IntAttr{Text: p.tok.text, Type: IndexType{}}})
		p.nextTok()
	}
	p.optAttrs(op)
	return []Type{IndexType{}}
}

// parseAffineApply reads #map(%d...)[%s...] [{...}] or the map inline.
func parseAffineApply(p *parser, op *Op) []Type {
	at := p.tok.pos
	a := p.parseAttr()
	if !p.ok() {
		return nil
	}
	m, ok := a.(*AffineMapAttr)
	if !ok {
		p.failf(at, "expected affine.apply's map (an affine_map<...> or its alias), found %s", a)
		return nil
	}
	if len(m.Map.Results) != 1 {
		p.failCode(at, model.CodeRankMismatch, "affine.apply's map has %d results; it needs one", len(m.Map.Results))
		return nil
	}
	op.Props = append(op.Props, &NamedAttr{Name: "map", Pos: at, ValuePos: at, Value: a})
	dims, syms, ok := p.operandLists("to open affine.apply's dimension operands", "dimension operands")
	if !ok {
		return nil
	}
	if len(dims) != len(m.Map.Dims) || len(syms) != len(m.Map.Syms) {
		p.failCode(at, model.CodeRankMismatch, "affine.apply's map takes %d dimension(s) and %d symbol(s), given %d and %d", len(m.Map.Dims), len(m.Map.Syms), len(dims), len(syms))
		return nil
	}
	p.optAttrs(op)
	if !p.useAll(op, append(dims, syms...), IndexType{}) {
		return nil
	}
	return []Type{IndexType{}}
}

// parseToLayout reads %v to layout(#layout) [{...}] : T (IREE's
// assembly format; `to #layout` as earlier IREE wrote it).
func parseToLayout(p *parser, op *Op) []Type {
	r, ok := p.parseRef()
	if !ok || !p.keyword("to", "after to_layout's operand") {
		return nil
	}
	paren := false
	if p.isKeyword("layout") {
		p.nextTok()
		if !p.expect("(", "after layout") {
			return nil
		}
		paren = true
	}
	at := p.tok.pos
	l := p.parseAttr()
	if !p.ok() {
		return nil
	}
	if paren && !p.expect(")", "to close layout(") {
		return nil
	}
	op.Props = append(op.Props, &NamedAttr{Name: "layout", Pos: at, ValuePos: at, Value: l})
	p.optAttrs(op)
	t := p.colonType(op)
	if !p.ok() || p.use(op, r, t) == nil {
		return nil
	}
	return []Type{t}
}

// parseTransferGather reads IREE's gather, as IREE 3.13 writes it:
// %src[%i...] [[%idx... : VecT...]], %pad [, %mask] <indexing_maps = [..]>
// [{...}] : SrcT, VecT [, MaskT] (iree-org/iree
// compiler/src/iree/compiler/Codegen/Dialect/VectorExt/IR/VectorExtOps.td,
// TransferGatherOp; iree-opt 3.13 prints it so). Its operands are
// segmented base, offsets, index vectors, padding, mask.
func parseTransferGather(p *parser, op *Op) []Type {
	src, offsets, ok := p.indexed()
	if !ok {
		return nil
	}
	var vecs []ref
	var vecTypes []Type
	if p.tok.is("[") {
		p.nextTok()
		if vecs = p.parseRefs(); len(vecs) == 0 || !p.expect(":", "before the index vectors' types") {
			if p.ok() {
				p.failf(p.tok.pos, "expected the index vectors %%v, ... : types, found %s", p.tok.describe())
			}
			return nil
		}
		for range vecs {
			if len(vecTypes) > 0 && !p.expect(",", "between the index vectors' types") {
				return nil
			}
			vecTypes = append(vecTypes, p.parseType())
		}
		if !p.expect("]", "to close the index vectors") {
			return nil
		}
	}
	if !p.expect(",", "before the padding value") {
		return nil
	}
	pad, ok := p.parseRef()
	if !ok {
		return nil
	}
	mask, ok := p.optMask()
	if !ok || !p.expect("<", "to open the gather's properties <indexing_maps = [...]>") {
		return nil
	}
	for p.ok() && !p.tok.is(">") {
		if p.tok.kind != tBareID {
			p.failf(p.tok.pos, "expected a property of %s, found %s", op.Name, p.tok.describe())
			return nil
		}
		name, at := p.tok.text, p.tok.pos
		p.nextTok()
		if !p.expect("=", "after "+name) {
			return nil
		}
		vat := p.tok.pos
		v := p.parseAttr()
		if !p.ok() {
			return nil
		}
		op.Props = append(op.Props, &NamedAttr{Name: name, Pos: at, ValuePos: vat, Value: v})
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect(">", "to close the gather's properties") {
		return nil
	}
	p.optAttrs(op)
	srcT, vecT, ok := p.typePair(op, ",", "between the source's and the vector's types")
	if !ok {
		return nil
	}
	var maskT Type
	if len(mask) > 0 {
		if !p.expect(",", "before the mask's type") {
			return nil
		}
		maskT = p.parseType()
	}
	if !p.ok() || p.use(op, src, srcT) == nil || !p.useAll(op, offsets, IndexType{}) {
		return nil
	}
	for i, v := range vecs {
		if p.use(op, v, vecTypes[i]) == nil {
			return nil
		}
	}
	if p.use(op, pad, ElemOf(srcT)) == nil || !p.useAll(op, mask, maskT) {
		return nil
	}
	segments(op, 1, len(offsets), len(vecs), 1, len(mask))
	return []Type{vecT}
}

// parseAssignments reads the list of "%name = %init" after an opening
// '(' up to its ')' (scf.for's iter_args, scf.while's assignments): the
// names, as the region's arguments, and the values they start from. what
// names one entry, afterName where its '=' is expected, closing its ')'.
func (p *parser) parseAssignments(what, afterName, closing string) ([]blockArg, []ref, bool) {
	var names []blockArg
	var inits []ref
	for p.ok() && !p.tok.is(")") {
		if p.tok.kind != tValueID {
			p.failf(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
			return nil, nil, false
		}
		names = append(names, blockArg{name: p.tok.text, pos: p.tok.pos})
		p.nextTok()
		if !p.expect("=", afterName) {
			return nil, nil, false
		}
		r, ok := p.parseRef()
		if !ok {
			return nil, nil, false
		}
		inits = append(inits, r)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	return names, inits, p.expect(")", closing)
}
