package ir

import (
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// parseType reads a type (mlir/docs/Dialects/Builtin.md for the builtin
// ones; a dialect's type is kept as written).
func (p *parser) parseType() Type {
	if !p.ok() {
		return nil
	}
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.tok
	switch t.kind {
	case tBangID:
		if a, ok := p.mod.TypeAliases[t.text]; ok {
			p.nextTok()
			return a
		}
		if !strings.Contains(t.text, ".") {
			if !p.adjacent('<') {
				p.failCode(t.pos, model.CodeUnknownName, "undefined type alias !%s", t.text)
				return nil
			}
		}
		if t.text == "xegpu.tensor_desc" && p.adjacent('<') {
			return p.tensorDesc()
		}
		if p.adjacent('<') {
			p.nextTok()
			open := p.tok
			body, ok := p.rawBody()
			if !ok {
				return nil
			}
			ot := &OpaqueType{Text: "!" + t.text + "<" + collapse(body) + ">"}
			end := t.off + len(t.text) + len(body) + 3 // !name<body>
			p.prevEnd = max(p.prevEnd, end)
			if strings.HasSuffix(t.text, ".memdesc") {
				p.mod.TypeSpans = append(p.mod.TypeSpans, TypeSpan{Span{t.off, end}, ot})
				ot.Encoding, ot.EncodingErr = p.memdescEncoding(open, open.end+len(body))
			}
			if t.text == "tt.tensordesc" {
				ot.Block, ot.EncodingErr = p.tensorDescBlock(t, open, open.end+len(body), strings.HasPrefix(strings.TrimSpace(body), "tensor<"))
				if ot.Block != nil {
					ot.Encoding = ot.Block.Encoding
				}
			}
			return ot
		}
		p.nextTok()
		return &OpaqueType{Text: "!" + t.text}
	case tPunct:
		if t.is("(") {
			return p.functionType()
		}
	case tBareID:
		return p.builtinType()
	}
	p.failf(t.pos, "expected a type, found %s", t.describe())
	return nil
}

// builtinType reads a builtin type named by a bare word.
func (p *parser) builtinType() Type {
	t := p.tok
	w := t.text
	if _, ok := FloatBits[w]; ok {
		p.nextTok()
		return &FloatType{Name: w}
	}
	switch w {
	case "index":
		p.nextTok()
		return IndexType{}
	case "none":
		p.nextTok()
		return NoneType{}
	case "vector", "memref", "tensor":
		return p.shapedType(w)
	case "complex":
		p.nextTok()
		if !p.expect("<", "after complex") {
			return nil
		}
		e := p.parseType()
		if !p.expect(">", "to close complex<") {
			return nil
		}
		return &ComplexType{Elem: e}
	case "tuple":
		p.nextTok()
		if !p.expect("<", "after tuple") {
			return nil
		}
		elems, ok := p.typesUntil(">", "to close tuple<")
		if !ok {
			return nil
		}
		return &TupleType{Elems: elems}
	}
	for _, prefix := range []string{"i", "si", "ui"} {
		if rest, ok := strings.CutPrefix(w, prefix); ok && rest != "" && rest[0] != '0' && allDigits(rest) {
			n, err := strconv.Atoi(rest)
			if err != nil || n > 1<<24 {
				p.failf(t.pos, "integer width %s is too large", rest)
				return nil
			}
			p.nextTok()
			var s byte
			if prefix != "i" {
				s = prefix[0]
			}
			return &IntType{Width: n, Signed: s}
		}
	}
	p.failf(t.pos, "expected a type, found %s (builtin types: vector<...>, memref<...>, tensor<...>, index, iN, f16, bf16, f32, f64, f8E4M3FN, ...; a dialect's type starts with !)", t.describe())
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// typesUntil reads T, T, ... up to the closing punctuation close, which
// it consumes; what says what the closing does, for the error.
func (p *parser) typesUntil(close, what string) ([]Type, bool) {
	var ts []Type
	for p.ok() && !p.tok.is(close) {
		ts = append(ts, p.parseType())
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	return ts, p.expect(close, what)
}

// functionType reads (inputs) -> result or (inputs) -> (results).
func (p *parser) functionType() Type {
	p.nextTok() // (
	ins, ok := p.typesUntil(")", "to close the function type's inputs")
	if !ok {
		return nil
	}
	if p.tok.kind != tArrow {
		p.failf(p.tok.pos, "expected '->' after a function type's inputs, found %s", p.tok.describe())
		return nil
	}
	p.nextTok()
	return &FunctionType{Inputs: ins, Results: p.resultTypes()}
}

// resultTypes reads a function's results: one type, or a parenthesised
// list (which may be empty).
func (p *parser) resultTypes() []Type {
	if !p.tok.is("(") {
		t := p.parseType()
		if t == nil {
			return nil
		}
		return []Type{t}
	}
	// ( opens a list of results, or the inputs of a function type that is
	// the one result: read the list once and see which.
	p.nextTok()
	var out []Type
	for p.ok() && !p.tok.is(")") {
		out = append(out, p.parseType())
		p.skipArgAttrs()
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect(")", "to close the result types") {
		return nil
	}
	if p.tok.kind == tArrow { // the inputs of a function type
		p.nextTok()
		return []Type{&FunctionType{Inputs: out, Results: p.resultTypes()}}
	}
	return out
}

// skipArgAttrs reads a function result's or argument's {attributes},
// which the reader does not use.
func (p *parser) skipArgAttrs() {
	if p.tok.is("{") {
		p.parseAttrDict()
	}
}

// shapedType reads vector<...>, memref<...> or tensor<...>.
func (p *parser) shapedType(kind string) Type {
	start := p.tok.off
	if !p.adjacent('<') {
		p.nextTok()
		p.failf(p.tok.pos, "expected '<' right after %s, found %s", kind, p.tok.describe())
		return nil
	}
	p.nextTok() // the <, which the dimension list follows
	shape, scalable, unranked, ok := p.rawDims(kind)
	if !ok {
		return nil
	}
	elemPos := p.tok.pos
	elem := p.parseType()
	if !p.ok() {
		return nil
	}
	switch elem.(type) {
	case *VectorType, *MemRefType, *TensorType, *FunctionType, *TupleType, NoneType:
		if kind != "memref" || !isShaped(elem) {
			p.failf(elemPos, "%s cannot hold elements of type %s", kind, elem)
			return nil
		}
	}
	switch kind {
	case "vector":
		if !p.expect(">", "to close vector<") {
			return nil
		}
		return &VectorType{Shape: shape, Scalable: scalable, Elem: elem}
	case "tensor":
		t := &TensorType{Shape: shape, Unranked: unranked, Elem: elem}
		if p.tok.is(",") {
			p.nextTok()
			t.Encoding = p.parseAttr()
		}
		if !p.expect(">", "to close tensor<") {
			return nil
		}
		p.mod.TypeSpans = append(p.mod.TypeSpans, TypeSpan{Span{start, p.prevEnd}, t})
		return t
	}
	t := &MemRefType{Shape: shape, Unranked: unranked, Elem: elem}
	site := TypeSite{Type: t, Layout: Span{p.prevEnd, p.prevEnd}}
	if p.tok.is(",") {
		p.nextTok()
		a := p.parseAttr()
		if isLayoutAttr(a) && !unranked {
			t.Layout = a
			site.Layout = Span{site.Layout.Off, p.prevEnd}
			if p.tok.is(",") {
				p.nextTok()
				t.MemSpace = p.parseAttr()
			}
		} else {
			t.MemSpace = a
		}
	}
	if !p.expect(">", "to close memref<") {
		return nil
	}
	p.mod.TypeSites = append(p.mod.TypeSites, site)
	return t
}

func isShaped(t Type) bool {
	switch t.(type) {
	case *VectorType:
		return true
	}
	return false
}

// isLayoutAttr reports whether a memref's attribute is its layout (an
// affine map or strided<...>) rather than its memory space.
func isLayoutAttr(a Attr) bool {
	switch a.(type) {
	case *AffineMapAttr, *StridedAttr:
		return true
	}
	return false
}

// rawDims reads a dimension list (4x8x, ?x, [4]x, *x) from the text right
// after the '<' the parser stands on, and leaves the parser on the token
// after the last x.
func (p *parser) rawDims(kind string) (shape []int, scalable []bool, unranked bool, ok bool) {
	lx := p.lx
	lx.restore(lexState{p.tok.end, p.tok.line, p.tok.col + 1})
	shape, scalable = []int{}, []bool{}
	for {
		lx.skipSpace()
		mark := lx.state()
		at := lx.pos()
		c := lx.peekByte(0)
		dim, scal := 0, false
		switch {
		case c == '*' && len(shape) == 0 && kind != "vector":
			lx.advance(1)
			lx.skipSpace()
			if lx.peekByte(0) != 'x' {
				p.failf(lx.pos(), "expected 'x' after '*' in an unranked %s", kind)
				return nil, nil, false, false
			}
			lx.advance(1)
			p.nextTok()
			return nil, nil, true, p.ok()
		case c == '?':
			if kind == "vector" {
				p.failCode(at, model.CodeBadValue, "a vector's dimensions are static: found '?' (a dynamic vector)")
				return nil, nil, false, false
			}
			lx.advance(1)
			dim = Dynamic
		case c == '[' && kind == "vector":
			lx.advance(1)
			start := lx.off
			for isDigit(lx.peekByte(0)) {
				lx.advance(1)
			}
			digits := lx.src[start:lx.off]
			if digits == "" || lx.peekByte(0) != ']' {
				p.failf(at, "expected a scalable dimension [N] in the vector's shape")
				return nil, nil, false, false
			}
			lx.advance(1)
			n, err := strconv.Atoi(digits)
			if err != nil || n > 1<<30 {
				p.failCode(at, model.CodeTooLarge, "dimension %s is too large", digits)
				return nil, nil, false, false
			}
			dim, scal = n, true
		case isDigit(c):
			start := lx.off
			for isDigit(lx.peekByte(0)) {
				lx.advance(1)
			}
			digits := lx.src[start:lx.off]
			if lx.peekByte(0) == '.' { // a float: not a dimension
				lx.restore(mark)
				p.nextTok()
				return shape, scalable, false, p.ok()
			}
			n, err := strconv.Atoi(digits)
			if err != nil || n > 1<<30 {
				p.failCode(at, model.CodeTooLarge, "dimension %s is too large", digits)
				return nil, nil, false, false
			}
			dim = n
		default:
			lx.restore(mark)
			p.nextTok()
			return shape, scalable, false, p.ok()
		}
		lx.skipSpace()
		if lx.peekByte(0) != 'x' {
			p.failf(lx.pos(), "expected 'x' after a dimension of the %s's shape", kind)
			return nil, nil, false, false
		}
		lx.advance(1)
		shape = append(shape, dim)
		scalable = append(scalable, scal)
		if len(shape) > 64 {
			p.failCode(at, model.CodeTooLarge, "the %s has more than 64 dimensions", kind)
			return nil, nil, false, false
		}
	}
}

// rawOpen starts a scan of the text as written: the lexer goes to the
// byte after the bracket the parser stands on. It gives the bracket's
// token and the offset the text starts at.
func (p *parser) rawOpen() (token, int) {
	open := p.tok
	p.lx.restore(lexState{open.end, open.line, open.col + 1})
	return open, p.lx.off
}

// rawString skips the string the scan stands on; false, with the error,
// where it is not closed.
func (p *parser) rawString() bool {
	if _, err := p.lx.stringBody(p.lx.pos()); err != nil {
		p.failf(err.pos, "%s", err.msg)
		return false
	}
	return true
}

// rawClose ends a scan on its closing bracket: the text from start up to
// it, and the parser on the token after it.
func (p *parser) rawClose(start int) (string, bool) {
	body := p.lx.src[start:p.lx.off]
	p.lx.advance(1)
	closeEnd := p.lx.off
	p.nextTok()
	p.prevEnd = closeEnd // the bracket is the last token read, not the opening one
	return body, p.ok()
}

// rawBody reads a dialect attribute's or type's body: the parser stands
// on its '<'; the text up to the matching '>' is returned, brackets,
// strings and -> inside it kept whole, and the parser is left after it.
func (p *parser) rawBody() (string, bool) {
	open, start := p.rawOpen()
	lx := p.lx
	var stack []byte
	for {
		if lx.off >= lx.end {
			end := "the file"
			if p.standalone {
				end = "the attribute"
			}
			p.failf(open.pos, "'<' is not closed: expected '>' before the end of %s", end)
			return "", false
		}
		c := lx.src[lx.off]
		switch c {
		case '"':
			if !p.rawString() {
				return "", false
			}
			continue
		case '-':
			if lx.peekByte(1) == '>' {
				lx.advance(2)
				continue
			}
		case '#':
			p.rawAlias()
		case '<', '(', '[', '{':
			stack = append(stack, c)
			if len(stack) > MaxDepth {
				p.failCode(lx.pos(), model.CodeTooLarge, "the text nests more than %d deep", MaxDepth)
				return "", false
			}
		case '>', ')', ']', '}':
			want := map[byte]byte{'>': '<', ')': '(', ']': '[', '}': '{'}[c]
			if len(stack) == 0 {
				if c == '>' {
					return p.rawClose(start)
				}
				p.failf(lx.pos(), "unbalanced '%c' inside '<...>' opened at %s", c, open.pos)
				return "", false
			}
			if stack[len(stack)-1] != want {
				p.failf(lx.pos(), "'%c' does not close '%c' inside '<...>' opened at %s", c, stack[len(stack)-1], open.pos)
				return "", false
			}
			stack = stack[:len(stack)-1]
		}
		lx.advance(1)
	}
}

// tensorDesc reads XeGPU's !xegpu.tensor_desc<8x16xf16[, attributes]>:
// a shape, an element type, then the encoding and layout attributes in
// any order (llvm-project mlir/include/mlir/Dialect/XeGPU/IR/XeGPUTypes.td,
// XeGPU_TensorDesc: shape, elementType, encoding, layout). The parser
// stands on the type's name; where the layout attribute is written (or
// where one goes, before the closing '>') is recorded for the writer.
func (p *parser) tensorDesc() Type {
	name := p.tok
	p.nextTok() // onto the <
	shape, _, unranked, ok := p.rawDims("tensor_desc")
	if !ok {
		return nil
	}
	if unranked || slices.Contains(shape, Dynamic) {
		p.failCode(name.pos, model.CodeBadValue, "a tensor_desc describes a block of static shape, found a dynamic or unranked one")
		return nil
	}
	elemPos := p.tok.pos
	elem := p.parseType()
	if !p.ok() {
		return nil
	}
	if _, ok := DType(elem); !ok {
		p.failf(elemPos, "a tensor_desc holds integer or float elements, found %s", elem)
		return nil
	}
	t := &TensorDescType{Shape: shape, Elem: elem}
	site := TypeSite{Type: t}
	for p.ok() && p.tok.is(",") {
		off := p.prevEnd
		p.nextTok()
		at := p.tok.pos
		a := p.parseAttr()
		if !p.ok() {
			return nil
		}
		if isXeGPULayout(a) {
			if t.Layout != nil {
				p.failCode(at, model.CodeDuplicate, "the tensor_desc has two layouts (the first at %s)", t.LayoutPos)
				return nil
			}
			t.Layout, t.LayoutPos = a, at
			site.Layout = Span{off, p.prevEnd}
			continue
		}
		t.Encoding = append(t.Encoding, a)
	}
	if site.Layout == (Span{}) {
		site.Layout = Span{p.prevEnd, p.prevEnd}
	}
	if !p.expect(">", "to close !xegpu.tensor_desc<") {
		return nil
	}
	p.mod.TypeSites = append(p.mod.TypeSites, site)
	return t
}

// isXeGPULayout reports whether a tensor_desc's attribute is its layout
// (#xegpu.layout, the earlier #xegpu.sg_map and #xegpu.wg_map, or a
// layout the planner writes) rather than its encoding.
func isXeGPULayout(a Attr) bool {
	d, ok := a.(*DialectAttr)
	return ok && slices.Contains(LayoutAttrs, d.Name)
}

// memdescEncoding reads the encoding of a !ttg.memdesc<shape x type,
// encoding, memory space[, mutable]>, whose body runs from open's '<' to
// end, as an attribute: nil when the body gives none. A mistake in it is
// returned, positioned, not reported: what reads the buffer reports it.
func (p *parser) memdescEncoding(open token, end int) (Attr, *model.Error) {
	sub := &parser{
		lx:       &lexer{file: p.lx.file, src: p.lx.src, off: open.end, end: end, line: open.line, col: open.col + 1},
		mod:      p.mod,
		depth:    p.depth,
		defining: p.defining,
	}
	sub.nextTok()
	for sub.ok() && sub.tok.kind != tEOF && !sub.tok.is(",") {
		sub.nextTok() // the shape and element type
	}
	if !sub.tok.is(",") {
		return nil, sub.err
	}
	sub.nextTok()
	if sub.tok.kind != tHashID {
		return nil, sub.err // no encoding: the memory space, or a type
	}
	a := sub.parseAttr()
	if sub.err != nil {
		return nil, sub.err
	}
	return a, nil
}

// tensorDescBlock reads the block type of a tensor descriptor: Triton
// 3.9's !tt.tensordesc<shape x type[, encoding]>, read as the tensor type
// of that body (include/triton/Dialect/Triton/IR/TritonTypes.td,
// TT_TensorDescType), or the older !tt.tensordesc<tensor<...>> (wrapped),
// whose name token is name and whose body runs from open's '<' to end:
// nil when it is not a tensor. A mistake in it is returned, positioned,
// not reported: what reads the descriptor reports it.
func (p *parser) tensorDescBlock(name, open token, end int, wrapped bool) (*TensorType, *model.Error) {
	lx := &lexer{file: p.lx.file, src: p.lx.src, off: open.end, end: end, line: open.line, col: open.col + 1}
	if !wrapped {
		// The body is what follows tensor in tensor<...>: read from the
		// name, as shapedType reads from its keyword, to the '>'.
		lx = &lexer{file: p.lx.file, src: p.lx.src, off: name.off, end: end + 1, line: name.line, col: name.col}
	}
	sub := &parser{lx: lx, mod: p.mod, depth: p.depth, defining: p.defining}
	sub.nextTok()
	spans := len(p.mod.TypeSpans)
	var t Type
	if wrapped {
		t = sub.parseType()
	} else {
		t = sub.shapedType("tensor")
	}
	// The block type is the descriptor's, written with it: not a tensor
	// type of its own that a writer would give a register layout.
	p.mod.TypeSpans = p.mod.TypeSpans[:spans]
	if sub.err != nil {
		return nil, sub.err
	}
	tt, _ := t.(*TensorType)
	return tt, nil
}

// rawAlias records the use of an attribute alias that the '#' the raw
// reader of a body stands on begins (#target in IREE's
// {iree_codegen.target_info = #target}); a dialect attribute's name
// (#iree_gpu.target) or a result number (%0#1) is none.
func (p *parser) rawAlias() {
	lx := p.lx
	if lx.off > 0 {
		if c := lx.src[lx.off-1]; c == '%' || c == '#' || c == '$' || c == '.' || bareIDChar(c) {
			return
		}
	}
	end := lx.off + 1
	for end < lx.end && (bareIDChar(lx.src[end]) || lx.src[end] == '$' || lx.src[end] == '.') {
		end++
	}
	name := lx.src[lx.off+1 : end]
	if _, ok := p.mod.AttrAliases[name]; ok && !strings.Contains(name, ".") {
		p.useAlias(name, lx.off)
	}
}
