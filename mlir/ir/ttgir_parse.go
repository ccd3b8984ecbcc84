package ir

import (
	"strconv"
	"strings"

	"planner/model"
)

// ttgirRows are the Triton (tt) and TritonGPU (ttg) ops a kernel in TTGIR
// uses, each read as its assemblyFormat in triton-lang/triton
// include/triton/Dialect/Triton/IR/TritonOps.td and
// include/triton/Dialect/TritonGPU/IR/TritonGPUOps.td (commits 1706ecf2
// and e9c52ad6) prints it; the older triton_gpu. spellings of the ttg
// ops too. tt.reduce has no assemblyFormat: Triton prints it in the
// generic form, which the parser reads as any op's.
func ttgirRows() []opRow {
	rows := []opRow{
		custom("tt.func", parseFuncOp, anyArity, anyArity),
		custom("tt.return", parseReturnLike, anyArity, anyArity),
		custom("tt.reduce.return", parseReturnLike, anyArity, anyArity),
		row("tt.make_range", "attr-dict `:` type($result)", "", "result", anyArity, anyArity),
		row("tt.get_program_id", "ident($axis) attr-dict `:` type($result)", "", "result", anyArity, anyArity),
		row("tt.get_num_programs", "ident($axis) attr-dict `:` type($result)", "", "result", anyArity, anyArity),
		row("tt.addptr", "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)", "ptr: result", "result", anyArity, anyArity),
		custom("tt.load", parseTTLoad, anyArity, anyArity),
		custom("tt.store", parseTTStore, anyArity, anyArity),
		row("tt.dot", dotForm, "c: d", "d", anyArity, anyArity),
		row("ttng.warp_group_dot", dotForm, "c: d", "d", anyArity, anyArity),
		row("tt.dot_scaled", dotScaledForm, "c: d", "d", anyArity, anyArity),
		custom("scf.if", parseIfOp, anyArity, anyArity),
		custom("tt.gather", parseGather, anyArity, anyArity),
		row("tt.join", "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)", "rhs: lhs", "result", 2, 1),
		row("tt.split", "$src attr-dict `:` type($src) `->` type($outLHS)", "outRHS: outLHS", "outLHS, outRHS", 1, 2),
		custom("tt.descriptor_load", parseDescriptorLoad, anyArity, anyArity),
		custom("tt.descriptor_store", parseDescriptorStore, anyArity, anyArity),
		// Triton's own element-wise ops (TT_MulhiUIOp, TT_PreciseDivFOp:
		// `$x `,` $y attr-dict `:` type($x)`; TT_PreciseSqrtOp:
		// `$x attr-dict `:` type($x)`), which arith's forms read.
		row("tt.mulhiui", binaryForm, binaryTypes, "result", 2, 1),
		row("tt.precise_divf", binaryForm, binaryTypes, "result", 2, 1),
		row("tt.precise_sqrt", unaryForm, "operand: result", "result", 1, 1),
		custom("tt.print", parseTTPrint, anyArity, anyArity),
		custom("tt.assert", parseTTAssert, anyArity, anyArity),
	}
	for _, name := range []string{"tt.splat", "tt.expand_dims", "tt.broadcast", "tt.trans", "tt.reshape",
		"tt.fp_to_fp", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int"} {
		rows = append(rows, custom(name, parseSrcArrow, anyArity, anyArity))
	}
	for _, prefix := range []string{"ttg.", "triton_gpu."} {
		rows = append(rows,
			custom(prefix+"convert_layout", parseSrcArrow, anyArity, anyArity),
			custom(prefix+"memdesc_trans", parseSrcArrow, anyArity, anyArity),
			custom(prefix+"fp4_to_fp", parseSrcArrow, anyArity, anyArity),
			custom(prefix+"local_load", parseSrcArrow, anyArity, anyArity),
			custom(prefix+"local_alloc", parseLocalAlloc, anyArity, anyArity),
			row(prefix+"local_store", "$src `,` $dst attr-dict `:` type($src) `->` type($dst)", "", "", anyArity, anyArity),
			row(prefix+"local_dealloc", "$src attr-dict `:` type($src)", "", "", anyArity, anyArity),
		)
	}
	return rows
}

// dotForm is tt.dot's syntax: %a, %b, %c [, inputPrecision = P] attr-dict
// : A * B -> D, the accumulator of D's type.
const dotForm = "$a `,` $b `,` $c (`,` `inputPrecision` `=` ident($inputPrecision))? attr-dict `:` type($a) `*` type($b) `->` type($d)"

// dotScaledForm is tt.dot_scaled's syntax (TT_DotScaledOp in
// TritonOps.td): %a [scale %as], %b [scale %bs], %c lhs = E rhs = E
// attr-dict : A[, AS] * B[, BS] -> D.
const dotScaledForm = "$a (`scale` $a_scale)? `,` $b (`scale` $b_scale)? `,` $c `lhs` `=` ident($a_elem_type) `rhs` `=` ident($b_elem_type) attr-dict " +
	"`:` type($a) (`,` type($a_scale))? `*` type($b) (`,` type($b_scale))? `->` type($d)"

// TTName is an op's name with the older triton_gpu. prefix read as ttg.
func TTName(name string) string {
	if rest, ok := strings.CutPrefix(name, "triton_gpu."); ok {
		return "ttg." + rest
	}
	return name
}

// arrow reads ': T -> R'.
func (p *parser) arrow(op *Op) (Type, Type, bool) {
	from := p.colonType(op)
	if !p.ok() {
		return nil, nil, false
	}
	if p.tok.kind != tArrow {
		p.failf(p.tok.pos, "expected '->' between %s's types, found %s", op.Name, p.tok.describe())
		return nil, nil, false
	}
	p.nextTok()
	to := p.parseType()
	return from, to, p.ok()
}

// parseSrcArrow reads %src [keywords] attr-dict [, rounding = r] : T -> R
// (splat, expand_dims, broadcast, trans, reshape with allow_reorder and
// efficient_layout, fp_to_fp with its rounding, convert_layout,
// memdesc_trans, local_load with its token).
func parseSrcArrow(p *parser, op *Op) []Type {
	r, ok := p.parseRef()
	if !ok {
		return nil
	}
	var token []ref
	for p.ok() && p.tok.kind == tBareID {
		word, at := p.tok.text, p.tok.pos
		p.nextTok()
		if word == "token" {
			t, ok := p.parseRef()
			if !ok {
				return nil
			}
			token = append(token, t)
			continue
		}
		op.Attrs = append(op.Attrs, &NamedAttr{Name: word, Pos: at, ValuePos: at, Value: UnitAttr{}})
	}
	p.optAttrs(op)
	if p.ok() && p.tok.is(",") {
		p.nextTok()
		if !p.keyword("rounding", "after ','") || !p.expect("=", "after rounding") {
			return nil
		}
		op.Attrs = append(op.Attrs, &NamedAttr{Name: "rounding", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
		p.nextTok()
	}
	from, to, ok := p.arrow(op)
	if !ok || p.use(op, r, from) == nil || !p.useAll(op, token, nil) {
		return nil
	}
	return []Type{to}
}

// ttOilist reads cacheModifier = X and evictionPolicy = Y, in either
// order, as older Triton printed them between a load's or store's
// operands and its attribute dictionary; Triton 3.9 writes them in the
// attribute dictionary instead, as {cachePolicy = #tt.cache_policy<...>}
// (include/triton/Dialect/Triton/IR/TritonOps.td, TT_LoadOp and
// TT_StoreOp), which optAttrs reads.
func (p *parser) ttOilist(op *Op) {
	for p.ok() && (p.isKeyword("cacheModifier") || p.isKeyword("evictionPolicy")) {
		name := p.tok.text
		p.nextTok()
		if !p.expect("=", "after "+name) {
			return
		}
		op.Attrs = append(op.Attrs, &NamedAttr{Name: name, Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
		p.nextTok()
	}
}

// ptrAccess reads the operands, Triton's oilist, attr-dict and ': PtrT'
// of tt.load and tt.store, which take from least to most operands (what
// says which).
func (p *parser) ptrAccess(op *Op, least, most int, what string) ([]ref, Type, model.Pos, bool) {
	refs := p.parseRefs()
	p.ttOilist(op)
	p.optAttrs(op)
	at := p.tok.pos
	pt := p.colonType(op)
	if !p.ok() {
		return nil, nil, at, false
	}
	if len(refs) < least || len(refs) > most {
		p.failCode(at, model.CodeRankMismatch, "%s has %d operand(s): %s", op.Name, len(refs), what)
		return nil, nil, at, false
	}
	return refs, pt, at, true
}

// parseTTLoad reads %ptr [, %mask [, %other]] [oilist] attr-dict : PtrT;
// the mask is i1 and other and the result the pointee, in PtrT's shape.
func parseTTLoad(p *parser, op *Op) []Type {
	refs, pt, at, ok := p.ptrAccess(op, 1, 3, "it reads through a pointer under an optional mask, with an optional other value")
	if !ok {
		return nil
	}
	res := pointee(pt)
	types := []Type{pt, sameShape(pt, &IntType{Width: 1}), res}
	segments(op, 1, min(len(refs)-1, 1), max(len(refs)-2, 0))
	if !p.refsWithTypes(op, refs, types[:len(refs)], at) {
		return nil
	}
	return []Type{res}
}

// parseTTStore reads %ptr, %value [, %mask] [oilist] attr-dict : PtrT.
func parseTTStore(p *parser, op *Op) []Type {
	refs, pt, at, ok := p.ptrAccess(op, 2, 3, "it writes a value through a pointer under an optional mask")
	if !ok {
		return nil
	}
	types := []Type{pt, pointee(pt), sameShape(pt, &IntType{Width: 1})}
	p.refsWithTypes(op, refs, types[:len(refs)], at)
	return nil
}

// parseGather reads tt.gather %src[%indices] attr-dict : (S, I) -> R
// (TritonOps.td, TT_GatherOp).
func parseGather(p *parser, op *Op) []Type {
	src, ok := p.parseRef()
	if !ok || !p.expect("[", "after tt.gather's source") {
		return nil
	}
	idx, ok := p.parseRef()
	if !ok || !p.expect("]", "after tt.gather's indices") {
		return nil
	}
	return p.functional(op, []ref{src, idx})
}

// descIndices reads a descriptor access's %desc [%i, %j, ...], the
// indices i32 (TritonOps.td, TT_DescriptorLoadOp and TT_DescriptorStoreOp:
// Variadic<I32>:$indices).
func (p *parser) descIndices(op *Op) (ref, []ref, bool) {
	d, ok := p.parseRef()
	if !ok || !p.expect("[", "after "+op.Name+"'s descriptor") {
		return ref{}, nil, false
	}
	var idx []ref
	if !p.tok.is("]") {
		idx = p.parseRefs()
	}
	if !p.expect("]", "after "+op.Name+"'s indices") {
		return ref{}, nil, false
	}
	return d, idx, true
}

// parseDescriptorLoad reads tt.descriptor_load %desc[%i, ...] [oilist]
// attr-dict : DescT -> T (TritonOps.td, TT_DescriptorLoadOp).
func parseDescriptorLoad(p *parser, op *Op) []Type {
	d, idx, ok := p.descIndices(op)
	if !ok {
		return nil
	}
	p.ttOilist(op)
	p.optAttrs(op)
	dt, res, ok := p.arrow(op)
	if !ok || p.use(op, d, dt) == nil || !p.useAll(op, idx, &IntType{Width: 32}) {
		return nil
	}
	return []Type{res}
}

// parseDescriptorStore reads tt.descriptor_store %desc[%i, ...], %src
// attr-dict : DescT, T (TritonOps.td, TT_DescriptorStoreOp).
func parseDescriptorStore(p *parser, op *Op) []Type {
	d, idx, ok := p.descIndices(op)
	if !ok || !p.expect(",", "after "+op.Name+"'s indices") {
		return nil
	}
	src, ok := p.parseRef()
	if !ok {
		return nil
	}
	p.optAttrs(op)
	dt := p.colonType(op)
	if !p.ok() || !p.expect(",", "between "+op.Name+"'s types") {
		return nil
	}
	st := p.parseType()
	// The operands in the order Triton defines them: desc, src, indices.
	if !p.ok() || p.use(op, d, dt) == nil || p.use(op, src, st) == nil {
		return nil
	}
	p.useAll(op, idx, &IntType{Width: 32})
	return nil
}

// parseLocalAlloc reads [%src] attr-dict : (T) -> M, or () -> M.
func parseLocalAlloc(p *parser, op *Op) []Type {
	var refs []ref
	if p.tok.kind == tValueID {
		refs = p.parseRefs()
	}
	return p.functional(op, refs)
}

// parseIfOp reads scf.if %cond [-> (types)] {then} [else {else}]
// [attributes] (mlir/include/mlir/Dialect/SCF/IR/SCFOps.td, IfOp's
// custom parser).
func parseIfOp(p *parser, op *Op) []Type {
	c, ok := p.parseRef()
	if !ok || p.use(op, c, &IntType{Width: 1}) == nil {
		return nil
	}
	var types []Type
	if p.tok.kind == tArrow {
		p.nextTok()
		types = p.resultTypes()
	}
	for i := 0; p.ok() && i < 2; i++ {
		if i == 1 {
			if !p.isKeyword("else") {
				break
			}
			p.nextTok()
		}
		r := p.parseRegion(op, nil, false)
		if r == nil {
			return nil
		}
		if len(types) == 0 {
			impliedYield(r) // of a branch that yields nothing
		}
		op.Regions = append(op.Regions, r)
	}
	p.optAttrs(op)
	if !p.ok() {
		return nil
	}
	return types
}

// pointee is what a pointer type (!tt.ptr<f16>, or a tensor of them)
// points to, in the tensor's shape and encoding; the type itself when it
// holds no pointer.
func pointee(t Type) Type {
	if tt, ok := t.(*TensorType); ok {
		return &TensorType{Shape: tt.Shape, Unranked: tt.Unranked, Elem: pointee(tt.Elem), Encoding: tt.Encoding}
	}
	o, ok := t.(*OpaqueType)
	if !ok {
		return t
	}
	inner, ok := strings.CutPrefix(o.Text, "!tt.ptr<")
	if !ok {
		return t
	}
	inner = strings.TrimSuffix(inner, ">")
	if i := strings.LastIndex(inner, ","); i >= 0 && !strings.Contains(inner[i:], ">") {
		inner = inner[:i] // the address space
	}
	return ScalarType(strings.TrimSpace(inner))
}

// ScalarType reads a builtin scalar type's name (f16, i32); any other
// text is kept as an opaque type.
func ScalarType(s string) Type {
	if _, ok := FloatBits[s]; ok {
		return &FloatType{Name: s}
	}
	if s == "index" {
		return IndexType{}
	}
	for _, pre := range []struct {
		text   string
		signed byte
	}{{"si", 's'}, {"ui", 'u'}, {"i", 0}} {
		if rest, ok := strings.CutPrefix(s, pre.text); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > 0 {
				return &IntType{Width: n, Signed: pre.signed}
			}
		}
	}
	return &OpaqueType{Text: s}
}

// sameShape is elem in t's shape and encoding (t a tensor), else elem.
func sameShape(t Type, elem Type) Type {
	if tt, ok := t.(*TensorType); ok {
		return &TensorType{Shape: tt.Shape, Unranked: tt.Unranked, Elem: elem, Encoding: tt.Encoding}
	}
	return elem
}

// refsBeforeKeyword reads %a, %b, ... stopping before a ', keyword'
// (tt.dot's ', inputPrecision = ...').
func (p *parser) refsBeforeKeyword() []ref {
	var out []ref
	for p.ok() && p.tok.kind == tValueID {
		r, ok := p.parseRef()
		if !ok {
			return nil
		}
		out = append(out, r)
		if !p.tok.is(",") || p.peekKind() != tValueID {
			break
		}
		p.nextTok()
	}
	return out
}

// peekKind is the kind of the token after the current one.
func (p *parser) peekKind() tokKind {
	s := p.lx.state()
	t, err := p.lx.next()
	p.lx.restore(s)
	if err != nil {
		return tEOF
	}
	return t.kind
}

// parseTTPrint reads tt.print "prefix" attr-dict [: %a, %b : T, U] (TT_PrintOp's
// assemblyFormat, `$prefix attr-dict (`:` $args^ `:` type($args))?`).
func parseTTPrint(p *parser, op *Op) []Type {
	if !p.stringAttr(op, "prefix") {
		return nil
	}
	p.optAttrs(op)
	if p.ok() && p.tok.is(":") {
		p.nextTok()
		parseReturnLike(p, op)
	}
	return nil
}

// parseTTAssert reads tt.assert %cond, "message" attr-dict : T (TT_AssertOp's
// assemblyFormat, `$condition `,` $message attr-dict `:` type($condition)`).
func parseTTAssert(p *parser, op *Op) []Type {
	r, ok := p.parseRef()
	if !ok || !p.expect(",", "after tt.assert's condition") || !p.stringAttr(op, "message") {
		return nil
	}
	p.optAttrs(op)
	if t := p.colonType(op); p.ok() {
		p.use(op, r, t)
	}
	return nil
}

// stringAttr reads a string literal as op's attribute name.
func (p *parser) stringAttr(op *Op, name string) bool {
	if p.tok.kind != tString {
		p.failf(p.tok.pos, "expected %s's %s (a string), found %s", op.Name, name, p.tok.describe())
		return false
	}
	op.Attrs = append(op.Attrs, &NamedAttr{Name: name, Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
	p.nextTok()
	return true
}
