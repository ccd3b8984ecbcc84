package ir

import (
	"fmt"
	"slices"
	"strconv"

	"planner/model"
)

// MaxDepth bounds the nesting of regions, types and attributes.
const MaxDepth = 64

// Parse reads MLIR text: the top-level ops (a module, or functions written
// without one), with every value's definition and every use resolved and
// typed. The first problem stops the reading; it is returned as a
// *model.Error at its file:line:col.
func Parse(file string, data []byte) (*Module, error) {
	if err := controlByte(file, data); err != nil {
		return nil, err
	}
	p := &parser{lx: newLexer(file, string(data)), mod: &Module{File: file, AttrAliases: map[string]Attr{}, TypeAliases: map[string]Type{}, AliasPos: map[string]model.Pos{}, src: string(data)}}
	p.nextTok()
	top := &Block{Pos: model.Pos{File: file, Line: 1, Col: 1}}
	p.pushScope(true)
	for p.ok() && p.tok.kind != tEOF {
		switch {
		case p.tok.kind == tHashID && p.peekIsEquals():
			p.aliasDef(true)
		case p.tok.kind == tBangID && p.peekIsEquals():
			p.aliasDef(false)
		case p.tok.kind == tFileMetadata:
			p.nextTok()
		default:
			if op := p.parseOp(top); op != nil {
				top.Ops = append(top.Ops, op)
			}
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	p.mod.Ops = top.Ops
	slices.SortFunc(p.mod.AliasUses, func(a, b AliasUse) int { return a.Off - b.Off })
	return p.mod, nil
}

// controlByte refuses a text holding a control character other than
// white space (a NUL, say): MLIR's text has none, and the lexer would
// otherwise end a name there and refuse the rest for something else.
func controlByte(file string, data []byte) error {
	line, col := 1, 1
	for _, c := range data {
		switch {
		case c == '\n':
			line, col = line+1, 1
			continue
		case c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v', c == 0x7f:
			return &model.Error{Pos: model.Pos{File: file, Line: line, Col: col}, Code: model.CodeSyntax, Index: -1,
				Msg: fmt.Sprintf("expected MLIR text, found the control byte 0x%02x (is this a binary file?)", c)}
		}
		col++
	}
	return nil
}

// useAlias records a use of the attribute alias name at off, once.
func (p *parser) useAlias(name string, off int) {
	if p.mod.aliasUsed == nil {
		p.mod.aliasUsed = map[int]bool{}
	}
	if !p.mod.aliasUsed[off] {
		p.mod.aliasUsed[off] = true
		p.mod.AliasUses = append(p.mod.AliasUses, AliasUse{Name: name, Off: off})
	}
}

type parser struct {
	lx    *lexer
	tok   token
	err   *model.Error
	mod   *Module
	depth int
	scope *scope
	// funcDepth counts the func.func bodies around the op being read, so
	// that `return` names func.return there.
	funcDepth int
	// standalone is set for an attribute read on its own (ParseAttr),
	// where no alias is defined.
	standalone bool
	// defining is the attribute alias whose value is being read: a use
	// of it there is refused.
	defining string
	// prevEnd is the byte offset just past the token before the current
	// one: where the construct read last ends.
	prevEnd int
}

// scope holds the value names a region defines; an isolated scope (a
// function's body, the top level) sees no names outside it.
type scope struct {
	names    map[string][]*Value
	isolated bool
	parent   *scope
}

func (p *parser) pushScope(isolated bool) {
	p.scope = &scope{names: map[string][]*Value{}, isolated: isolated, parent: p.scope}
}

func (p *parser) popScope() { p.scope = p.scope.parent }

func (p *parser) ok() bool { return p.err == nil }

// failf records the first error; later ones are dropped.
func (p *parser) failf(pos model.Pos, format string, args ...any) {
	p.failCode(pos, model.CodeSyntax, format, args...)
}

func (p *parser) failCode(pos model.Pos, code model.Code, format string, args ...any) *model.Error {
	if p.err == nil {
		p.err = &model.Error{Pos: pos, Code: code, Index: -1, Msg: fmt.Sprintf(format, args...)}
	}
	return p.err
}

// enter counts one level of nesting; false (with an error) past MaxDepth.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.failCode(p.tok.pos, model.CodeTooLarge, "the text nests more than %d deep", MaxDepth)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func (p *parser) nextTok() {
	if p.err != nil {
		p.tok = token{kind: tEOF, pos: p.tok.pos}
		return
	}
	p.prevEnd = p.tok.end
	t, err := p.lx.next()
	if err != nil {
		p.failf(err.pos, "%s", err.msg)
		p.tok = token{kind: tEOF, pos: err.pos}
		return
	}
	p.tok = t
}

// peekIsEquals reports whether the token after the current one is '='.
func (p *parser) peekIsEquals() bool {
	s := p.lx.state()
	t, err := p.lx.next()
	p.lx.restore(s)
	return err == nil && t.is("=")
}

// peekIs reports whether the next token is the punctuation punct, and
// whether it follows the current token with no space between.
func (p *parser) peekIs(punct string) (is, adjacent bool) {
	s := p.lx.state()
	t, err := p.lx.next()
	p.lx.restore(s)
	return err == nil && t.is(punct), err == nil && t.off == p.tok.end
}

// adjacent reports whether the byte right after the current token is c.
func (p *parser) adjacent(c byte) bool {
	return p.tok.end < p.lx.end && p.tok.end > p.tok.off && p.lx.src[p.tok.end] == c
}

// expect consumes the punctuation punct or fails saying what it was for.
func (p *parser) expect(punct, what string) bool {
	if !p.ok() {
		return false
	}
	if !p.tok.is(punct) {
		p.failf(p.tok.pos, "expected '%s' %s, found %s", punct, what, p.tok.describe())
		return false
	}
	p.nextTok()
	return true
}

// keyword consumes the bare word w or fails.
func (p *parser) keyword(w, what string) bool {
	if !p.ok() {
		return false
	}
	if p.tok.kind != tBareID || p.tok.text != w {
		p.failf(p.tok.pos, "expected '%s' %s, found %s", w, what, p.tok.describe())
		return false
	}
	p.nextTok()
	return true
}

func (p *parser) isKeyword(w string) bool { return p.tok.kind == tBareID && p.tok.text == w }

// aliasDef reads #name = attribute or !name = type.
func (p *parser) aliasDef(attr bool) {
	name, pos := p.tok.text, p.tok.pos
	p.nextTok() // the name
	p.nextTok() // =
	if attr {
		if _, dup := p.mod.AttrAliases[name]; dup {
			p.failCode(pos, model.CodeDuplicate, "attribute alias #%s is defined twice", name)
			return
		}
		at := p.tok.pos
		p.defining = name
		a := p.parseAttr()
		p.defining = ""
		if a != nil && p.ok() {
			p.mod.AttrAliases[name] = a
			p.mod.AliasPos[name] = at
		}
		return
	}
	if _, dup := p.mod.TypeAliases[name]; dup {
		p.failCode(pos, model.CodeDuplicate, "type alias !%s is defined twice", name)
		return
	}
	if t := p.parseType(); t != nil && p.ok() {
		p.mod.TypeAliases[name] = t
	}
}

// ref is a value use read before its type is known.
type ref struct {
	name string
	num  int // the result number after #, or -1
	pos  model.Pos
	span Span
}

func (r ref) String() string {
	if r.num >= 0 {
		return fmt.Sprintf("%%%s#%d", r.name, r.num)
	}
	return "%" + r.name
}

// parseRef reads %name or %name#N.
func (p *parser) parseRef() (ref, bool) {
	if !p.ok() {
		return ref{}, false
	}
	if p.tok.kind != tValueID {
		p.failf(p.tok.pos, "expected a value (%%name), found %s", p.tok.describe())
		return ref{}, false
	}
	r := ref{name: p.tok.text, num: -1, pos: p.tok.pos, span: Span{Off: p.tok.off}}
	if p.adjacent('#') {
		p.nextTok()
		p.nextTok()
		if p.tok.kind != tInt {
			p.failf(p.tok.pos, "expected a result number after '#', found %s", p.tok.describe())
			return ref{}, false
		}
		n, err := strconv.Atoi(p.tok.text)
		if err != nil || n < 0 || n > 1<<20 {
			p.failf(p.tok.pos, "result number %s is out of range", p.tok.text)
			return ref{}, false
		}
		r.num = n
	}
	p.nextTok()
	r.span.End = p.prevEnd
	return r, true
}

// parseRefs reads a comma-separated list of value uses, up to a token that
// is not a value.
func (p *parser) parseRefs() []ref {
	var out []ref
	if p.tok.kind != tValueID {
		return nil
	}
	for p.ok() {
		r, ok := p.parseRef()
		if !ok {
			return nil
		}
		out = append(out, r)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	return out
}

// lookup finds the value a use names, in the scopes it can see.
func (p *parser) lookup(r ref) *Value {
	for s := p.scope; s != nil; s = s.parent {
		if group, ok := s.names[r.name]; ok {
			n := r.num
			if n < 0 {
				n = 0
			}
			if n >= len(group) {
				p.failCode(r.pos, model.CodeUnknownName, "%s: %%%s has %d result(s), so no result #%d", r, r.name, len(group), n)
				return nil
			}
			return group[n]
		}
		if s.isolated {
			break
		}
	}
	msg := fmt.Sprintf("use of undefined value %s", r)
	if s := p.closestName(r.name); s != "" {
		msg += fmt.Sprintf(" (did you mean %%%s?)", s)
	}
	p.failCode(r.pos, model.CodeUnknownName, "%s: a value must be defined before its use, in its region or one around it", msg)
	return nil
}

// closestName suggests a visible name like name.
func (p *parser) closestName(name string) string {
	best, bestD := "", 3
	for s := p.scope; s != nil; s = s.parent {
		for n := range s.names {
			if len(n) > 32 || len(name) > 32 {
				continue // no suggestion among long names: the distance costs their product
			}
			if d := model.EditDistance(n, name); d < bestD || d == bestD && n < best {
				best, bestD = n, d
			}
		}
		if s.isolated {
			break
		}
	}
	return best
}

// use resolves a use to its value, checks it against the type the op
// expects there (nil: any), and records it as operand of op.
func (p *parser) use(op *Op, r ref, want Type) *Value {
	if !p.ok() {
		return nil
	}
	v := p.lookup(r)
	if v == nil {
		return nil
	}
	if want != nil && v.Type != nil && v.Type.String() != want.String() {
		e := p.failCode(r.pos, model.CodeShapeMismatch, "%s is used as %s but is defined as %s at %s", r, want, v.Type, v.Pos)
		e.Related = []model.Pos{v.Pos}
		return nil
	}
	if v.Type == nil && want != nil {
		// A result of an op the reader skipped: the use says its type.
		v.Type = want
	}
	op.Operands = append(op.Operands, &Operand{Value: v, Pos: r.pos, Span: r.span})
	v.Uses = append(v.Uses, Use{Op: op, Index: len(op.Operands) - 1})
	return v
}

// define binds a name to a new value in the current scope.
func (p *parser) define(name string, pos model.Pos, group []*Value) bool {
	for s := p.scope; s != nil; s = s.parent {
		if prev, ok := s.names[name]; ok {
			e := p.failCode(pos, model.CodeDuplicate, "redefinition of %%%s, defined first at %s", name, prev[0].Pos)
			e.Related = []model.Pos{prev[0].Pos}
			return false
		}
		if s.isolated {
			break
		}
	}
	p.scope.names[name] = group
	return true
}

// resultName is one entry of an op's result list: %name or %name:N.
type resultName struct {
	name  string
	count int
	pos   model.Pos
}

// parseOp reads one operation into block b.
func (p *parser) parseOp(b *Block) *Op {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	start, startOff := p.tok.pos, p.tok.off
	var names []resultName
	if p.tok.kind == tValueID {
		for p.ok() {
			if p.tok.kind != tValueID {
				p.failf(p.tok.pos, "expected a result name (%%name), found %s", p.tok.describe())
				return nil
			}
			rn := resultName{name: p.tok.text, count: 1, pos: p.tok.pos}
			p.nextTok()
			if p.tok.is(":") {
				p.nextTok()
				n, err := strconv.Atoi(p.tok.text)
				if p.tok.kind != tInt || err != nil || n < 1 || n > 1<<16 {
					p.failf(p.tok.pos, "expected the number of results after %%%s:, found %s", rn.name, p.tok.describe())
					return nil
				}
				rn.count = n
				p.nextTok()
			}
			names = append(names, rn)
			if p.tok.is(",") {
				p.nextTok()
				continue
			}
			if !p.expect("=", "after the result names") {
				return nil
			}
			break
		}
	}
	op := &Op{Pos: start, NamePos: p.tok.pos, Parent: b}
	var results []Type
	switch p.tok.kind {
	case tString:
		op.Name, op.Generic = p.tok.text, true
		p.nextTok()
		results = p.genericOp(op)
	case tBareID:
		op.Name = p.tok.text
		if full, ok := shortNames[op.Name]; ok && (op.Name != "return" || p.funcDepth > 0) {
			op.Name = full
		}
		p.nextTok()
		if row, known := opRows[op.Name]; known {
			results = row.read(p, op)
		} else {
			results = p.opaqueOp(op, names)
		}
	default:
		p.failf(p.tok.pos, "expected an operation name, found %s", p.tok.describe())
		return nil
	}
	if !p.ok() {
		return nil
	}
	p.trailingLoc()
	if !p.ok() {
		return nil
	}
	op.Span = Span{Off: startOff, End: p.prevEnd}
	if op.Opaque {
		results = make([]Type, 0)
		for _, n := range names {
			for range n.count {
				results = append(results, nil)
			}
		}
	}
	bound := 0
	for _, n := range names {
		bound += n.count
	}
	if bound != len(results) {
		p.failCode(start, model.CodeRankMismatch, "%s defines %d result(s) but %d name(s) are bound to them", op.Name, len(results), bound)
		return nil
	}
	k := 0
	for _, n := range names {
		group := make([]*Value, n.count)
		for i := range group {
			name := n.name
			if n.count > 1 {
				name = fmt.Sprintf("%s#%d", n.name, i)
			}
			group[i] = &Value{Name: name, Pos: n.pos, Type: results[k], Def: op, Index: k}
			op.Results = append(op.Results, group[i])
			k++
		}
		if !p.define(n.name, n.pos, group) {
			return nil
		}
	}
	return op
}

// trailingLoc skips a trailing loc(...).
func (p *parser) trailingLoc() {
	if p.isKeyword("loc") {
		if is, _ := p.peekIs("("); is {
			p.parseAttr()
		}
	}
}

// genericOp reads the generic form after the op's name:
// (operands) [successors] <{properties}> (regions) {attributes} : (types) -> results.
func (p *parser) genericOp(op *Op) []Type {
	if !p.expect("(", "to open the operands of \""+op.Name+"\"") {
		return nil
	}
	var refs []ref
	if !p.tok.is(")") {
		refs = p.parseRefs()
	}
	if !p.expect(")", "to close the operands of \""+op.Name+"\"") {
		return nil
	}
	if p.tok.is("[") {
		p.nextTok()
		for p.ok() {
			if p.tok.kind != tBlockID {
				p.failf(p.tok.pos, "expected a successor block (^label), found %s", p.tok.describe())
				return nil
			}
			op.Successors = append(op.Successors, p.tok.text)
			p.nextTok()
			if p.tok.is("(") { // block arguments passed to the successor
				p.nextTok()
				for p.ok() && !p.tok.is(")") {
					p.nextTok()
				}
				p.expect(")", "to close the successor's arguments")
			}
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect("]", "to close the successors") {
			return nil
		}
	}
	if p.tok.is("<") {
		p.nextTok()
		d := p.parseDictBody()
		if d == nil {
			return nil
		}
		op.Props = d
		if !p.expect(">", "to close the properties <{...}>") {
			return nil
		}
	}
	if p.tok.is("(") {
		p.nextTok()
		for p.ok() {
			r := p.parseRegion(op, nil, false)
			if r == nil {
				return nil
			}
			op.Regions = append(op.Regions, r)
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect(")", "to close the regions of \""+op.Name+"\"") {
			return nil
		}
	}
	op.Dict = Span{Off: p.prevEnd, End: p.prevEnd}
	if p.tok.is("{") {
		op.Attrs = p.parseAttrDict()
		op.Dict.End = p.prevEnd
	}
	if !p.expect(":", "before the function type of \""+op.Name+"\"") {
		return nil
	}
	typePos := p.tok.pos
	t := p.parseType()
	ft, isFn := t.(*FunctionType)
	if !p.ok() {
		return nil
	}
	if !isFn {
		p.failf(typePos, "expected the function type of \"%s\", (operand types) -> result types, found %s", op.Name, t)
		return nil
	}
	if len(ft.Inputs) != len(refs) {
		p.failCode(typePos, model.CodeRankMismatch, "\"%s\" has %d operand(s) but its type lists %d", op.Name, len(refs), len(ft.Inputs))
		return nil
	}
	for i, r := range refs {
		p.use(op, r, ft.Inputs[i])
	}
	return ft.Results
}

// parseRegion reads { blocks }. entryArgs are the entry block's
// arguments as the op's custom form declares them (a function's, a
// loop's); a region whose entry block has a label declares its own.
func (p *parser) parseRegion(op *Op, entryArgs []blockArg, isolated bool) *Region {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	r := &Region{Pos: p.tok.pos, Parent: op}
	if !p.expect("{", "to open a region") {
		return nil
	}
	p.pushScope(isolated)
	defer p.popScope()
	labels := map[string]model.Pos{}
	first := true
	for p.ok() {
		if p.tok.is("}") {
			r.End = p.tok.pos
			p.nextTok()
			if len(r.Blocks) == 0 && len(entryArgs) > 0 {
				b := &Block{Pos: r.Pos, Region: r}
				p.blockArgs(b, entryArgs)
				r.Blocks = append(r.Blocks, b)
			}
			return r
		}
		if p.tok.kind == tEOF {
			p.failf(r.Pos, "the region opened here is not closed: expected '}' before the end of the file")
			return nil
		}
		b := &Block{Pos: p.tok.pos, Region: r}
		if p.tok.kind == tBlockID {
			b.Label = p.tok.text
			if prev, dup := labels[b.Label]; dup {
				p.failCode(p.tok.pos, model.CodeDuplicate, "block ^%s is defined twice (first at %s)", b.Label, prev)
				return nil
			}
			labels[b.Label] = p.tok.pos
			p.nextTok()
			var args []blockArg
			if p.tok.is("(") {
				p.nextTok()
				for p.ok() && !p.tok.is(")") {
					if p.tok.kind != tValueID {
						p.failf(p.tok.pos, "expected a block argument (%%name: type), found %s", p.tok.describe())
						return nil
					}
					a := blockArg{name: p.tok.text, pos: p.tok.pos}
					p.nextTok()
					if !p.expect(":", "after the block argument's name") {
						return nil
					}
					a.typ = p.parseType()
					p.trailingLoc()
					args = append(args, a)
					if p.tok.is(",") {
						p.nextTok()
					} else if !p.tok.is(")") {
						p.failf(p.tok.pos, "expected ',' or ')' in the block's arguments, found %s", p.tok.describe())
						return nil
					}
				}
				if !p.expect(")", "to close the block's arguments") {
					return nil
				}
			}
			if !p.expect(":", "after the block's label") {
				return nil
			}
			if first && len(entryArgs) > 0 {
				if len(args) != len(entryArgs) {
					p.failCode(b.Pos, model.CodeRankMismatch, "the entry block declares %d argument(s) but %s gives it %d", len(args), op.Name, len(entryArgs))
					return nil
				}
				for i := range args {
					if args[i].typ != nil && entryArgs[i].typ != nil && args[i].typ.String() != entryArgs[i].typ.String() {
						p.failCode(args[i].pos, model.CodeShapeMismatch, "block argument %%%s is %s but %s gives it %s", args[i].name, args[i].typ, op.Name, entryArgs[i].typ)
						return nil
					}
				}
			}
			if !p.blockArgs(b, args) {
				return nil
			}
		} else if first {
			if !p.blockArgs(b, entryArgs) {
				return nil
			}
		} else {
			p.failf(p.tok.pos, "expected a block label (^name) or '}', found %s", p.tok.describe())
			return nil
		}
		first = false
		r.Blocks = append(r.Blocks, b)
		for p.ok() && !p.tok.is("}") && p.tok.kind != tBlockID && p.tok.kind != tEOF {
			if op := p.parseOp(b); op != nil {
				b.Ops = append(b.Ops, op)
			}
		}
	}
	return nil
}

type blockArg struct {
	name string
	pos  model.Pos
	typ  Type
}

func (p *parser) blockArgs(b *Block, args []blockArg) bool {
	for i, a := range args {
		v := &Value{Name: a.name, Pos: a.pos, Type: a.typ, Index: i, Block: b}
		if !p.define(a.name, a.pos, []*Value{v}) {
			return false
		}
		b.Args = append(b.Args, v)
	}
	return p.ok()
}

// opaqueOp skips an op whose custom form the reader does not know: to the
// end of the line the op ends on, through any brackets it opens, noting
// the vector types and vector values it mentions.
func (p *parser) opaqueOp(op *Op, names []resultName) []Type {
	op.Opaque = true
	depth := 0
	line := op.NamePos.Line
	var last token // the op's last token read
	for p.ok() && p.tok.kind != tEOF {
		t := p.tok
		if depth == 0 && t.pos.Line != line {
			if !continues(last, t, p.startsStatement) {
				break
			}
			line = t.pos.Line
		}
		if depth == 0 && t.is("}") {
			break // the end of the region around the op
		}
		switch {
		case t.is("(") || t.is("[") || t.is("{") || t.is("<"):
			depth++
		case t.is(")") || t.is("]") || t.is("}") || t.is(">"):
			if depth > 0 {
				depth--
			}
			if depth == 0 {
				line = t.pos.Line
			}
		case t.kind == tBareID && (t.text == "vector" || t.text == "tensor"):
			if p.adjacent('<') {
				if !slices.Contains(op.Mentions, t.text+"<...>") {
					op.Mentions = append(op.Mentions, t.text+"<...>")
				}
			}
		case t.kind == tValueID:
			if v := p.peekValue(t.text); v != nil {
				if _, vec := v.Type.(*VectorType); vec && !slices.Contains(op.Mentions, "%"+v.Name) {
					op.Mentions = append(op.Mentions, "%"+v.Name)
				}
			}
		}
		if depth > 0 {
			line = t.pos.Line
		}
		last = t
		p.nextTok()
	}
	return nil
}

// continues reports whether t, the first token of a line after an
// unknown op's text at bracket depth 0, still belongs to that op: the
// line before ended on a token that wants more (',', ':', '->', '='), or
// t cannot begin a statement (a type after ':' on its own line, an
// attribute dictionary, a trailing type list). A statement begins with
// its results (%x = , %x, %y = , %x:2 = ), an op's name, a block label,
// or the '}' that closes the region.
func continues(last, t token, startsStatement func() bool) bool {
	switch {
	case last.is(",") || last.is(":") || last.is("=") || last.kind == tArrow:
		return true
	case t.is(":") || t.is(",") || t.is("(") || t.is("[") || t.is("{") || t.is("<") || t.kind == tArrow:
		return true
	case t.kind == tValueID:
		return !startsStatement()
	}
	return false
}

// startsStatement reports whether the current token, a value, begins a
// statement: it is followed by '=' or ',' (the results an op defines),
// or by ':' and a result count (%x:2 = ...).
func (p *parser) startsStatement() bool {
	s := p.lx.state()
	defer p.lx.restore(s)
	t, err := p.lx.next()
	if err != nil {
		return true
	}
	if t.is("=") || t.is(",") {
		return true
	}
	if !t.is(":") {
		return false
	}
	n, err := p.lx.next()
	return err == nil && n.kind == tInt
}

// peekValue looks a name up without reporting it unknown.
func (p *parser) peekValue(name string) *Value {
	for s := p.scope; s != nil; s = s.parent {
		if g, ok := s.names[name]; ok {
			return g[0]
		}
		if s.isolated {
			break
		}
	}
	return nil
}

// ParseAttr reads text, written at at (a layout file's string holding an
// encoding), as one attribute: a TritonGPU attribute's body read as its
// tree (DialectAttr.Tree). Any error is a *model.Error at its
// file:line:col, counted from at.
func ParseAttr(text string, at model.Pos) (Attr, error) {
	m := &Module{File: at.File, AttrAliases: map[string]Attr{}, TypeAliases: map[string]Type{}, AliasPos: map[string]model.Pos{}, src: text}
	p := &parser{lx: &lexer{file: at.File, src: text, end: len(text), line: at.Line, col: at.Col}, mod: m, standalone: true}
	p.nextTok()
	a := p.parseAttr()
	if p.ok() && p.tok.kind != tEOF {
		p.failf(p.tok.pos, "expected the end of the attribute, found %s", p.tok.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	return a, nil
}

// undefinedAlias reports the use t of an alias not defined: in a module,
// one to define before its use; in an attribute read on its own, one to
// write in full.
func (p *parser) undefinedAlias(t token) {
	if p.standalone {
		p.failCode(t.pos, model.CodeBadValue, "#%s is an alias; write the attribute it names in full", t.text)
		return
	}
	p.failCode(t.pos, model.CodeUnknownName, "undefined attribute alias #%s: define it before its use (#%s = ...)", t.text, t.text)
}
