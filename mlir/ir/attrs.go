package ir

import (
	"strconv"
	"strings"

	"planner/model"
)

// parseAttr reads an attribute value.
func (p *parser) parseAttr() Attr {
	if !p.ok() {
		return nil
	}
	if !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.tok
	switch t.kind {
	case tHashID:
		return p.hashAttr()
	case tInt, tFloat:
		return p.numberAttr("")
	case tString:
		p.nextTok()
		a := &StringAttr{Value: t.text}
		if p.tok.is(":") {
			p.nextTok()
			a.Type = p.parseType()
		}
		return a
	case tSymbol:
		text := "@" + quoteSymbol(t.text)
		p.nextTok()
		for p.tok.is(":") {
			if !p.adjacent(':') {
				break
			}
			p.nextTok()
			p.nextTok()
			if p.tok.kind != tSymbol {
				p.failf(p.tok.pos, "expected a nested symbol after '::', found %s", p.tok.describe())
				return nil
			}
			text += "::@" + quoteSymbol(p.tok.text)
			p.nextTok()
		}
		return &SymbolRefAttr{Text: text}
	case tBangID:
		return &TypeAttr{Type: p.parseType()}
	case tPunct:
		switch {
		case t.is("-"):
			p.nextTok()
			if p.tok.kind != tInt && p.tok.kind != tFloat {
				p.failf(p.tok.pos, "expected a number after '-', found %s", p.tok.describe())
				return nil
			}
			return p.numberAttr("-")
		case t.is("["):
			return p.arrayAttr()
		case t.is("{"):
			d := p.parseAttrDict()
			if d == nil {
				return nil
			}
			return &DictAttr{Entries: d}
		case t.is("("):
			return &TypeAttr{Type: p.parseType()}
		}
	case tBareID:
		return p.keywordAttr()
	}
	p.failf(t.pos, "expected an attribute, found %s", t.describe())
	return nil
}

func quoteSymbol(s string) string {
	for i := 0; i < len(s); i++ {
		if !bareIDChar(s[i]) && s[i] != '-' {
			return strconv.Quote(s)
		}
	}
	return s
}

// numberAttr reads an integer or float literal (the parser stands on its
// digits; sign is "-" when a minus came before) and its optional type.
func (p *parser) numberAttr(sign string) Attr {
	t := p.tok
	p.nextTok()
	var typ Type
	if p.tok.is(":") {
		p.nextTok()
		typ = p.parseType()
		if !p.ok() {
			return nil
		}
	}
	if t.kind == tFloat {
		if typ != nil {
			if _, ok := typ.(*FloatType); !ok {
				p.failCode(t.pos, model.CodeBadValue, "the float %s%s cannot have type %s", sign, t.text, typ)
				return nil
			}
		}
		return &FloatAttr{Text: sign + t.text, Type: typ}
	}
	if _, isFloat := typ.(*FloatType); isFloat {
		if !strings.HasPrefix(t.text, "0x") {
			// MLIR reads an integer literal of float type as that float.
			return &FloatAttr{Text: sign + t.text + ".0", Type: typ}
		}
		return &FloatAttr{Text: sign + t.text, Type: typ}
	}
	return &IntAttr{Text: sign + t.text, Type: typ}
}

// arrayAttr reads [a, b, ...].
func (p *parser) arrayAttr() Attr {
	p.nextTok() // [
	a := &ArrayAttr{}
	for p.ok() && !p.tok.is("]") {
		a.Pos = append(a.Pos, p.tok.pos)
		e := p.parseAttr()
		if e == nil {
			return nil
		}
		a.Elems = append(a.Elems, e)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect("]", "to close the array") {
		return nil
	}
	return a
}

// parseAttrDict reads {name = value, name, ...}; never nil without an
// error.
func (p *parser) parseAttrDict() []*NamedAttr {
	if !p.expect("{", "to open an attribute dictionary") {
		return nil
	}
	out := []*NamedAttr{}
	seen := map[string]model.Pos{}
	for p.ok() && !p.tok.is("}") {
		if p.tok.kind != tBareID && p.tok.kind != tString {
			p.failf(p.tok.pos, "expected an attribute name, found %s", p.tok.describe())
			return nil
		}
		na := &NamedAttr{Name: p.tok.text, Pos: p.tok.pos}
		if prev, dup := seen[na.Name]; dup {
			p.failCode(na.Pos, model.CodeDuplicate, "attribute %q is given twice (first at %s)", na.Name, prev)
			return nil
		}
		seen[na.Name] = na.Pos
		p.nextTok()
		if p.tok.is("=") {
			p.nextTok()
			na.ValuePos = p.tok.pos
			na.Value = p.parseAttr()
			if na.Value == nil {
				return nil
			}
		} else {
			na.Value, na.ValuePos = UnitAttr{}, na.Pos
		}
		out = append(out, na)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect("}", "to close the attribute dictionary") {
		return nil
	}
	return out
}

// parseDictBody reads the {...} of a generic op's <{properties}>.
func (p *parser) parseDictBody() []*NamedAttr { return p.parseAttrDict() }

// hashAttr reads #alias, #dialect.name<body>, #dialect<body> or
// #dialect.name.
func (p *parser) hashAttr() Attr {
	t := p.tok
	if a, ok := p.mod.AttrAliases[t.text]; ok {
		p.useAlias(t.text, t.off)
		p.nextTok()
		return a
	}
	if t.text == p.defining {
		p.failCode(t.pos, model.CodeBadValue, "attribute alias #%s names itself: an alias's value cannot use it", t.text)
		return nil
	}
	if !p.adjacent('<') {
		if !strings.Contains(t.text, ".") {
			p.undefinedAlias(t)
			return nil
		}
		p.nextTok()
		return &DialectAttr{Name: t.text}
	}
	p.nextTok() // onto <
	open := p.tok
	body, ok := p.rawBody()
	if !ok {
		return nil
	}
	a := &DialectAttr{Name: t.text, Body: collapse(body), HasBody: true,
		body: lexState{open.end, open.line, open.col + 1}, end: open.end + len(body)}
	a.Tree, a.TreeErr = p.attrTree(t.text, t.pos, open, a.end)
	return a
}

// keywordAttr reads an attribute that starts with a bare word: true,
// false, unit, dense<...>, array<...>, affine_map<...>, strided<...>,
// loc(...), a type, and the builtin attributes kept as written.
func (p *parser) keywordAttr() Attr {
	t := p.tok
	switch t.text {
	case "true", "false":
		p.nextTok()
		return &BoolAttr{Value: t.text == "true"}
	case "unit":
		p.nextTok()
		return UnitAttr{}
	case "dense":
		return p.denseAttr()
	case "array":
		return p.denseArrayAttr()
	case "affine_map":
		p.nextTok()
		if !p.expect("<", "after affine_map") {
			return nil
		}
		m := p.parseAffineMap()
		if m == nil {
			return nil
		}
		return &AffineMapAttr{Map: m}
	case "strided":
		return p.stridedAttr()
	case "loc":
		p.nextTok()
		if !p.tok.is("(") {
			p.failf(p.tok.pos, "expected '(' after loc, found %s", p.tok.describe())
			return nil
		}
		body, ok := p.rawParens()
		if !ok {
			return nil
		}
		return &OpaqueAttr{Text: "loc(" + collapse(body) + ")"}
	case "dense_resource", "sparse", "affine_set", "opaque":
		if p.adjacent('<') {
			p.nextTok()
			body, ok := p.rawBody()
			if !ok {
				return nil
			}
			a := &OpaqueAttr{Text: t.text + "<" + collapse(body) + ">"}
			if p.tok.is(":") {
				p.nextTok()
				if typ := p.parseType(); typ != nil {
					a.Text += " : " + typ.String()
				}
			}
			return a
		}
	case "distinct":
		p.nextTok()
		if !p.expect("[", "after distinct") {
			return nil
		}
		n := p.tok.text
		if p.tok.kind != tInt {
			p.failf(p.tok.pos, "expected the id of distinct[...], found %s", p.tok.describe())
			return nil
		}
		p.nextTok()
		if !p.expect("]", "to close distinct[") || !p.expect("<", "after distinct[...]") {
			return nil
		}
		inner := p.parseAttr()
		if inner == nil || !p.expect(">", "to close distinct[...]<") {
			return nil
		}
		return &OpaqueAttr{Text: "distinct[" + n + "]<" + inner.String() + ">"}
	}
	if isTypeWord(t.text) {
		return &TypeAttr{Type: p.parseType()}
	}
	p.failf(t.pos, "expected an attribute, found %s", t.describe())
	return nil
}

// isTypeWord reports whether a bare word starts a builtin type.
func isTypeWord(w string) bool {
	if _, ok := FloatBits[w]; ok {
		return true
	}
	switch w {
	case "index", "none", "vector", "memref", "tensor", "complex", "tuple":
		return true
	}
	for _, prefix := range []string{"i", "si", "ui"} {
		if rest, ok := strings.CutPrefix(w, prefix); ok && allDigits(rest) && rest[0] != '0' {
			return true
		}
	}
	return false
}

// rawParens reads (...) as written, the parser standing on the '('.
func (p *parser) rawParens() (string, bool) {
	open, start := p.rawOpen()
	lx, depth := p.lx, 0
	for lx.off < lx.end {
		c := lx.src[lx.off]
		switch c {
		case '"':
			if !p.rawString() {
				return "", false
			}
			continue
		case '(':
			depth++
			if depth > MaxDepth {
				p.failCode(lx.pos(), model.CodeTooLarge, "the text nests more than %d deep", MaxDepth)
				return "", false
			}
		case ')':
			if depth == 0 {
				return p.rawClose(start)
			}
			depth--
		}
		lx.advance(1)
	}
	p.failf(open.pos, "'(' is not closed: expected ')' before the end of the file")
	return "", false
}

// denseAttr reads dense<literals> : type.
func (p *parser) denseAttr() Attr {
	at := p.tok.pos
	p.nextTok()
	if !p.expect("<", "after dense") {
		return nil
	}
	a := &DenseAttr{}
	var body strings.Builder
	if p.tok.kind == tString { // a hex blob
		body.WriteString(strconv.Quote(p.tok.text))
		a.Splat = false
		a.Count = -1
		p.nextTok()
	} else if !p.tok.is(">") {
		nested := p.tok.is("[")
		if !p.denseLiterals(a, &body) {
			return nil
		}
		a.Splat = !nested && a.Count == 1
	}
	if !p.expect(">", "to close dense<") {
		return nil
	}
	a.Body = body.String()
	if !p.tok.is(":") {
		p.failf(p.tok.pos, "expected ': type' after dense<%s>: a dense attribute states its type", a.Body)
		return nil
	}
	p.nextTok()
	a.Type = p.parseType()
	if !p.ok() {
		return nil
	}
	var shape []int
	switch t := a.Type.(type) {
	case *VectorType:
		shape = t.Shape
	case *TensorType:
		if t.Unranked {
			p.failCode(at, model.CodeBadValue, "dense<...> needs a ranked type, found %s", a.Type)
			return nil
		}
		shape = t.Shape
	default:
		p.failCode(at, model.CodeBadValue, "dense<...> has type %s: it needs a vector or tensor type", a.Type)
		return nil
	}
	n := 1
	for _, d := range shape {
		if d < 0 {
			p.failCode(at, model.CodeBadValue, "dense<...> needs a static shape, found %s", a.Type)
			return nil
		}
		n *= d
		if n > 1<<31 {
			break
		}
	}
	if !a.Splat && a.Count >= 0 && a.Count != n {
		p.failCode(at, model.CodeShapeMismatch, "dense<...> lists %d element(s) but %s has %d", a.Count, a.Type, n)
		return nil
	}
	return a
}

// denseLiterals reads a literal or a nested list of them.
func (p *parser) denseLiterals(a *DenseAttr, body *strings.Builder) bool {
	if !p.enter() {
		return false
	}
	defer p.leave()
	t := p.tok
	switch {
	case t.is("["):
		body.WriteString("[")
		p.nextTok()
		for i := 0; p.ok() && !p.tok.is("]"); i++ {
			if i > 0 {
				body.WriteString(", ")
			}
			if !p.denseLiterals(a, body) {
				return false
			}
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		body.WriteString("]")
		return p.expect("]", "to close a list of dense<...>")
	case t.is("("): // a complex number
		body.WriteString("(")
		p.nextTok()
		for i := 0; i < 2; i++ {
			if i > 0 {
				if !p.expect(",", "between a complex number's parts") {
					return false
				}
				body.WriteString(", ")
			}
			s, ok := p.scalarLiteral()
			if !ok {
				return false
			}
			body.WriteString(s)
		}
		body.WriteString(")")
		a.Count++
		a.Values = append(a.Values, "complex")
		return p.expect(")", "to close a complex number")
	}
	s, ok := p.scalarLiteral()
	if !ok {
		return false
	}
	body.WriteString(s)
	a.Count++
	if len(a.Values) < 1<<16 {
		a.Values = append(a.Values, s)
	}
	return true
}

// scalarLiteral reads a number (with its sign) or true/false.
func (p *parser) scalarLiteral() (string, bool) {
	sign := ""
	if p.tok.is("-") {
		sign = "-"
		p.nextTok()
	}
	t := p.tok
	switch {
	case t.kind == tInt || t.kind == tFloat:
		p.nextTok()
		return sign + t.text, true
	case sign == "" && t.kind == tBareID && (t.text == "true" || t.text == "false"):
		p.nextTok()
		return t.text, true
	}
	p.failf(t.pos, "expected a number or true/false, found %s", t.describe())
	return "", false
}

// denseArrayAttr reads array<i64: 1, 2>.
func (p *parser) denseArrayAttr() Attr {
	p.nextTok()
	if !p.expect("<", "after array") {
		return nil
	}
	typePos := p.tok.pos
	a := &DenseArrayAttr{Elem: p.parseType()}
	if !p.ok() {
		return nil
	}
	switch a.Elem.(type) {
	case *IntType, *FloatType:
	default:
		p.failCode(typePos, model.CodeBadValue, "array<...> holds integers or floats, found %s", a.Elem)
		return nil
	}
	if p.tok.is(":") {
		p.nextTok()
		for p.ok() {
			s, ok := p.scalarLiteral()
			if !ok {
				return nil
			}
			a.Values = append(a.Values, s)
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
	}
	if !p.expect(">", "to close array<") {
		return nil
	}
	return a
}

// stridedAttr reads strided<[s0, ...], offset: o>.
func (p *parser) stridedAttr() Attr {
	p.nextTok()
	if !p.expect("<", "after strided") || !p.expect("[", "to open strided<'s strides") {
		return nil
	}
	a := &StridedAttr{}
	dim := func() (int, bool) {
		if p.tok.is("?") {
			p.nextTok()
			return Dynamic, true
		}
		sign := 1
		if p.tok.is("-") {
			sign = -1
			p.nextTok()
		}
		n, err := strconv.Atoi(p.tok.text)
		if p.tok.kind != tInt || err != nil || n > 1<<40 {
			p.failf(p.tok.pos, "expected a stride (an integer or ?), found %s", p.tok.describe())
			return 0, false
		}
		p.nextTok()
		return sign * n, true
	}
	for p.ok() && !p.tok.is("]") {
		d, ok := dim()
		if !ok {
			return nil
		}
		a.Strides = append(a.Strides, d)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect("]", "to close strided<'s strides") {
		return nil
	}
	if p.tok.is(",") {
		p.nextTok()
		if !p.keyword("offset", "in strided<...>") || !p.expect(":", "after offset") {
			return nil
		}
		d, ok := dim()
		if !ok {
			return nil
		}
		a.Offset, a.HasOffset = d, true
	}
	if !p.expect(">", "to close strided<") {
		return nil
	}
	return a
}

// EnumCase is the case an enum attribute of kind (mfma_perm_b,
// mma_element_wise) names, in either of the ways MLIR writes one:
// #dialect<kind case>, as LLVM 19 writes #amdgpu<mfma_perm_b none>, or
// #dialect.kind<case>, as IREE 3.13's MLIR writes
// #rocdl.mfma_perm_b<none>.
func EnumCase(a Attr, kind string) (string, bool) {
	da, ok := a.(*DialectAttr)
	if !ok {
		return "", false
	}
	if c, ok := strings.CutPrefix(da.Body, kind+" "); ok && !strings.Contains(da.Name, ".") {
		return strings.TrimSpace(c), true
	}
	if _, k, ok := strings.Cut(da.Name, "."); ok && k == kind {
		return strings.TrimSpace(da.Body), true
	}
	return "", false
}
