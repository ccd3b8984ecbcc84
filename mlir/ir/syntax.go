package ir

import (
	"fmt"
	"strings"

	"planner/model"
)

// An op's custom syntax is stated as data: the assembly format its ODS
// definition declares (llvm-project at LLVM 19,
// mlir/include/mlir/Dialect/*/IR/*Ops.td; triton-lang/triton,
// include/triton/Dialect/Triton*/IR/*Ops.td), written in a small subset of
// MLIR's declarative assembly-format language and read by one interpreter
// (readForm). The items of a form:
//
//	`x`            the punctuation or keyword x, which must come next
//	$name          one operand
//	$name*         a comma-separated list of operands, perhaps empty
//	type($name)    a type: the type of the operand or result name
//	attr-dict      an optional {attribute dictionary}
//	attr-dict!     a required one
//	fastmath?      arith's optional fastmath<...>
//	overflow?      arith's optional overflow<...>
//	rounding?      arith's optional rounding mode (a bare word)
//	ident($name)   a bare word or string, kept as the string attribute name
//	ints($name)    [1, 0]: a list of integers, kept as the i64 array property name
//	( ... )?       an optional group, read when its first literal comes next
//
// What a form leaves unsaid of the types, its row's Types says as
// "name: type" constraints separated by ';': name is an operand or a result
// (several, comma-separated, share a constraint) and type is index, i1,
// the type of another name, elem(name) (a shaped type's element type) or
// i1(name) (i1 in name's shape). An operand list constrained to one type
// takes that type for each of its operands.

// formKind is the kind of one item of a form.
type formKind int

const (
	formLiteral      formKind = iota // `x`
	formOperand                      // $name
	formOperands                     // $name*
	formType                         // type($name)
	formAttrDict                     // attr-dict
	formAttrDictMust                 // attr-dict!
	formFastmath                     // fastmath?
	formOverflow                     // overflow?
	formRounding                     // rounding?
	formIdent                        // ident($name)
	formInts                         // ints($name)
	formOptional                     // ( ... )?
)

// formItem is one item of a form.
type formItem struct {
	kind  formKind
	text  string     // the literal, or the name the item reads
	group []formItem // an optional group's items
}

// typeRule is what a constraint says of a name's type: the type of
// another name (of), or of a fixed type (fixed), through fn ("", "elem",
// "i1").
type typeRule struct {
	of    string
	fixed Type
	fn    string
}

// form is a row's syntax made ready to read: its items, its operands in
// the order they are written, its results and its type constraints.
type form struct {
	items    []formItem
	operands []string        // in the order written
	lists    map[string]bool // the operands written as lists ($name*)
	results  []string
	rules    map[string]typeRule
}

// compileForm reads a row's form and constraints; results names the op's
// results in order.
func compileForm(text, types string, results []string) (*form, error) {
	f := &form{lists: map[string]bool{}, results: results, rules: map[string]typeRule{}}
	toks, err := formTokens(text)
	if err != nil {
		return nil, err
	}
	items, rest, err := f.parseItems(toks, false)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("unexpected %q", rest[0])
	}
	f.items = items
	if err := f.parseRules(types); err != nil {
		return nil, err
	}
	return f, f.check()
}

// formTokens splits a form into its tokens: `literals`, words with
// their (argument) and suffix, and the group brackets.
func formTokens(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ':
			i++
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return nil, fmt.Errorf("unclosed literal at %d", i)
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case c == '(' || c == ')':
			if c == ')' && i+1 < len(s) && s[i+1] == '?' {
				out = append(out, ")?")
				i += 2
				continue
			}
			out = append(out, string(c))
			i++
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '`' && s[j] != ')' {
				if s[j] == '(' { // a directive's argument: type($x)
					k := strings.IndexByte(s[j:], ')')
					if k < 0 {
						return nil, fmt.Errorf("unclosed directive at %d", i)
					}
					j += k + 1
					break
				}
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected %q at %d", c, i)
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out, nil
}

// parseItems reads items up to the end or, in a group, its ")?".
func (f *form) parseItems(toks []string, inGroup bool) ([]formItem, []string, error) {
	var items []formItem
	for len(toks) > 0 {
		t := toks[0]
		toks = toks[1:]
		switch {
		case t == ")?":
			if !inGroup {
				return nil, nil, fmt.Errorf("')?' closes no group")
			}
			return items, toks, nil
		case t == "(":
			group, rest, err := f.parseItems(toks, true)
			if err != nil {
				return nil, nil, err
			}
			if len(group) == 0 || group[0].kind != formLiteral {
				return nil, nil, fmt.Errorf("an optional group starts with a literal")
			}
			items = append(items, formItem{kind: formOptional, group: group})
			toks = rest
		case strings.HasPrefix(t, "`"):
			items = append(items, formItem{kind: formLiteral, text: strings.Trim(t, "`")})
		case strings.HasPrefix(t, "$") && strings.HasSuffix(t, "*"):
			name := strings.TrimSuffix(t[1:], "*")
			f.operands = append(f.operands, name)
			f.lists[name] = true
			items = append(items, formItem{kind: formOperands, text: name})
		case strings.HasPrefix(t, "$"):
			f.operands = append(f.operands, t[1:])
			items = append(items, formItem{kind: formOperand, text: t[1:]})
		default:
			it, err := directive(t)
			if err != nil {
				return nil, nil, err
			}
			items = append(items, it)
		}
	}
	if inGroup {
		return nil, nil, fmt.Errorf("unclosed optional group")
	}
	return items, nil, nil
}

// directive reads a word of a form that is not a literal or an operand.
func directive(t string) (formItem, error) {
	simple := map[string]formKind{"attr-dict": formAttrDict, "attr-dict!": formAttrDictMust,
		"fastmath?": formFastmath, "overflow?": formOverflow, "rounding?": formRounding}
	if k, ok := simple[t]; ok {
		return formItem{kind: k}, nil
	}
	for prefix, k := range map[string]formKind{"type($": formType, "ident($": formIdent, "ints($": formInts} {
		if name, ok := strings.CutPrefix(t, prefix); ok && strings.HasSuffix(name, ")") {
			return formItem{kind: k, text: strings.TrimSuffix(name, ")")}, nil
		}
	}
	return formItem{}, fmt.Errorf("unknown directive %q", t)
}

// parseRules reads the constraints "a, b: result; indices: index".
func (f *form) parseRules(s string) error {
	for _, clause := range strings.Split(s, ";") {
		if strings.TrimSpace(clause) == "" {
			continue
		}
		names, typ, ok := strings.Cut(clause, ":")
		if !ok {
			return fmt.Errorf("constraint %q has no ':'", clause)
		}
		rule, err := parseTypeRule(strings.TrimSpace(typ))
		if err != nil {
			return err
		}
		for _, n := range strings.Split(names, ",") {
			n = strings.TrimSpace(n)
			if _, dup := f.rules[n]; dup {
				return fmt.Errorf("%s is constrained twice", n)
			}
			f.rules[n] = rule
		}
	}
	return nil
}

// parseTypeRule reads one constraint's type.
func parseTypeRule(s string) (typeRule, error) {
	switch s {
	case "index":
		return typeRule{fixed: IndexType{}}, nil
	case "i1":
		return typeRule{fixed: &IntType{Width: 1}}, nil
	}
	for _, fn := range []string{"elem", "i1"} {
		if arg, ok := strings.CutPrefix(s, fn+"("); ok && strings.HasSuffix(arg, ")") {
			return typeRule{of: strings.TrimSuffix(arg, ")"), fn: fn}, nil
		}
	}
	if s == "" || strings.ContainsAny(s, "() ") {
		return typeRule{}, fmt.Errorf("unknown type %q", s)
	}
	return typeRule{of: s}, nil
}

// check makes sure every operand and result gets a type, from a type()
// directive or a constraint, and that constraints name known names.
func (f *form) check() error {
	typed := map[string]bool{}
	var walk func(items []formItem)
	walk = func(items []formItem) {
		for _, it := range items {
			switch it.kind {
			case formType:
				typed[it.text] = true
			case formOptional:
				walk(it.group)
			}
		}
	}
	walk(f.items)
	known := map[string]bool{}
	for _, n := range append(append([]string(nil), f.operands...), f.results...) {
		if known[n] {
			return fmt.Errorf("%s is named twice", n)
		}
		known[n] = true
		_, ruled := f.rules[n]
		if typed[n] == ruled {
			if ruled {
				return fmt.Errorf("%s has both a type() and a constraint", n)
			}
			return fmt.Errorf("%s has no type: give it a type($%s) or a constraint", n, n)
		}
	}
	for n := range typed {
		if !known[n] {
			return fmt.Errorf("type($%s) names no operand or result", n)
		}
	}
	for n, r := range f.rules {
		if !known[n] {
			return fmt.Errorf("the constraint on %s names no operand or result", n)
		}
		if r.of != "" && (!known[r.of] || r.of == n) {
			return fmt.Errorf("%s's type is given by %q, which is no other operand or result", n, r.of)
		}
		if r.of != "" && !typed[r.of] {
			return fmt.Errorf("%s's type is given by %s, whose type is itself constrained", n, r.of)
		}
	}
	return nil
}

// formRead is what reading a form gathered: the uses and types by name,
// and where the types began (where a use-count mismatch is reported).
type formRead struct {
	refs  map[string][]ref
	types map[string]Type
	colon model.Pos
}

// readForm reads op's custom syntax as f states it, resolves its operands
// against their types, and returns its results' types.
func (p *parser) readForm(op *Op, f *form) []Type {
	r := &formRead{refs: map[string][]ref{}, types: map[string]Type{}, colon: p.tok.pos}
	if !p.readItems(op, f.items, r) {
		return nil
	}
	for _, name := range f.operands {
		if len(r.refs[name]) == 0 {
			continue // an optional operand left out
		}
		want, ok := r.typeOf(f, name)
		if !ok {
			p.failCode(r.colon, model.CodeRankMismatch, "%s is given %%%s but its types leave out that operand's", op.Name, name)
			return nil
		}
		if !p.useAll(op, r.refs[name], want) {
			return nil
		}
	}
	out := make([]Type, len(f.results))
	for i, name := range f.results {
		t, ok := r.typeOf(f, name)
		if !ok {
			p.failCode(r.colon, model.CodeRankMismatch, "%s's types leave out its result's", op.Name)
			return nil
		}
		out[i] = t
	}
	return out
}

// typeOf is the type name has: read, or given by its constraint.
func (r *formRead) typeOf(f *form, name string) (Type, bool) {
	if t, ok := r.types[name]; ok {
		return t, true
	}
	rule := f.rules[name]
	t := rule.fixed
	if rule.of != "" {
		t = r.types[rule.of]
	}
	if t == nil {
		return nil, false
	}
	switch rule.fn {
	case "elem":
		t = ElemOf(t)
	case "i1":
		t = boolOf(t)
	}
	return t, true
}

// readItems reads a form's items in order.
func (p *parser) readItems(op *Op, items []formItem, r *formRead) bool {
	for i, it := range items {
		if !p.ok() {
			return false
		}
		switch it.kind {
		case formLiteral:
			what := literalContext(op, items, i)
			if it.text == ":" {
				r.colon = p.tok.pos
			}
			if isWord(it.text) {
				p.keyword(it.text, what)
			} else if it.text == "->" {
				if p.tok.kind != tArrow {
					p.failf(p.tok.pos, "expected '->' %s, found %s", what, p.tok.describe())
					return false
				}
				p.nextTok()
			} else {
				p.expect(it.text, what)
			}
		case formOperand:
			use, ok := p.parseRef()
			if !ok {
				return false
			}
			r.refs[it.text] = []ref{use}
		case formOperands:
			r.refs[it.text] = p.parseRefs()
		case formType:
			r.types[it.text] = p.parseType()
		case formAttrDict:
			p.optAttrs(op)
		case formAttrDictMust:
			if p.tok.kind == tHashID {
				// An alias of the dictionary (vector.contract #trait ...,
				// as LLVM's own tests write it): its entries are the op's,
				// and the attributes a writer adds go to the form's
				// trailing attr-dict.
				at := p.tok.pos
				if d, ok := p.hashAttr().(*DictAttr); ok {
					op.Attrs = append(op.Attrs, d.Entries...)
					continue
				}
				if p.ok() {
					p.failf(at, "%s's attributes are an alias of an attribute that is not a dictionary {...}", op.Name)
				}
				return false
			}
			if !p.tok.is("{") {
				p.failf(p.tok.pos, "expected %s's attributes {...}, found %s", op.Name, p.tok.describe())
				return false
			}
			p.optAttrs(op)
		case formFastmath:
			p.wrapped(op, "fastmath", "fastmath", "arith.fastmath")
		case formOverflow:
			p.wrapped(op, "overflow", "overflowFlags", "arith.overflow")
		case formRounding:
			if p.tok.kind == tBareID && p.tok.text != "fastmath" {
				op.Attrs = append(op.Attrs, &NamedAttr{Name: "roundingmode", Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
				p.nextTok()
			}
		case formIdent:
			if p.tok.kind != tBareID && p.tok.kind != tString {
				p.failf(p.tok.pos, "expected %s's %s, found %s", op.Name, it.text, p.tok.describe())
				return false
			}
			op.Attrs = append(op.Attrs, &NamedAttr{Name: it.text, Pos: p.tok.pos, ValuePos: p.tok.pos, Value: &StringAttr{Value: p.tok.text}})
			p.nextTok()
		case formInts:
			at := p.tok.pos
			ints, ok := p.intList()
			if !ok {
				return false
			}
			i64Prop(op, it.text, at, ints)
		case formOptional:
			if lead := it.group[0].text; p.tok.is(lead) || isWord(lead) && p.isKeyword(lead) || lead == "->" && p.tok.kind == tArrow {
				if !p.readItems(op, it.group, r) {
					return false
				}
			}
		}
	}
	return p.ok()
}

// literalContext says where a literal stands, for the error when it is
// missing: between two types or two operands, after an operand or
// attribute, or before the types.
func literalContext(op *Op, items []formItem, i int) string {
	kindAt := func(j int) formKind {
		if j < 0 || j >= len(items) {
			return formOptional // nothing to name
		}
		return items[j].kind
	}
	prev, next := kindAt(i-1), kindAt(i+1)
	switch {
	case prev == formType && next == formType:
		return fmt.Sprintf("between %s's types", op.Name)
	case (prev == formOperand || prev == formOperands) && (next == formOperand || next == formOperands):
		return fmt.Sprintf("between %s's operands", op.Name)
	case prev == formOperand || prev == formOperands:
		return fmt.Sprintf("after %s's %%%s", op.Name, items[i-1].text)
	case prev == formIdent || prev == formInts:
		return fmt.Sprintf("after %s's %s", op.Name, items[i-1].text)
	case next == formType:
		return fmt.Sprintf("before %s's types", op.Name)
	}
	return "in " + op.Name
}

// isWord says whether a literal is a keyword rather than punctuation.
func isWord(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_')
}
