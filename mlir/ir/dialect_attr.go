package ir

import (
	"strconv"
	"strings"

	"planner/model"
)

// AttrNode is a dialect attribute's body read as structure:
// #dialect.name<{key = value, ...}>, or, as #ttg.padded_shared writes
// it, <[interval:+pad, ...] {key = value, ...}>. The parser reads the
// bodies of TritonGPU's attributes (#ttg., #triton_gpu., #ttig.) this
// way; every node and value carries its position.
type AttrNode struct {
	Pos     model.Pos // the '#'
	Dialect string    // "ttg"
	Name    string    // "blocked"
	Items   []*AttrValue
	Entries []*AttrEntry
}

// AttrEntry is one key = value of a body.
type AttrEntry struct {
	Key   string
	Pos   model.Pos // the key
	Value *AttrValue
}

// AttrValueKind says which of AttrValue's fields hold the value.
type AttrValueKind int

const (
	AttrInt    AttrValueKind = iota // Int
	AttrBool                        // Bool
	AttrString                      // Str
	AttrList                        // List
	AttrNested                      // Node: a dialect attribute written in place
	AttrAlias                       // Str the alias's name, Node what it names
	AttrPad                         // Int the interval, Pad the padding (interval:+pad)
	AttrDict                        // Node's Entries: {key = value, ...}, as #ttg.amd_wmma's ctaLayout
)

// AttrValue is a value in a body.
type AttrValue struct {
	Kind AttrValueKind
	Pos  model.Pos
	Int  int
	Pad  int
	Bool bool
	Str  string
	List []*AttrValue
	Node *AttrNode
}

// Entry is the value of key, or nil.
func (n *AttrNode) Entry(key string) *AttrEntry {
	for _, e := range n.Entries {
		if e.Key == key {
			return e
		}
	}
	return nil
}

// String writes the node as an attribute, with what each alias names in
// its place: the text that two spellings of one encoding share.
func (n *AttrNode) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *AttrNode) write(b *strings.Builder) {
	b.WriteString("#" + n.Dialect + "." + n.Name + "<")
	if len(n.Items) > 0 {
		b.WriteString("[")
		for i, v := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			v.write(b)
		}
		b.WriteString("]")
		if len(n.Entries) > 0 {
			b.WriteString(" ")
		}
	}
	if len(n.Entries) > 0 || len(n.Items) == 0 {
		n.writeEntries(b)
	}
	b.WriteString(">")
}

func (v *AttrValue) write(b *strings.Builder) {
	switch v.Kind {
	case AttrInt:
		b.WriteString(strconv.Itoa(v.Int))
	case AttrBool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case AttrString:
		b.WriteString(strconv.Quote(v.Str))
	case AttrList:
		b.WriteString("[")
		for i, x := range v.List {
			if i > 0 {
				b.WriteString(", ")
			}
			x.write(b)
		}
		b.WriteString("]")
	case AttrNested, AttrAlias:
		v.Node.write(b)
	case AttrPad:
		b.WriteString(strconv.Itoa(v.Int) + ":+" + strconv.Itoa(v.Pad))
	case AttrDict:
		v.Node.writeEntries(b)
	}
}

func (n *AttrNode) writeEntries(b *strings.Builder) {
	b.WriteString("{")
	for i, e := range n.Entries {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.Key + " = ")
		e.Value.write(b)
	}
	b.WriteString("}")
}

// structuredDialect reports whether the parser reads the bodies of a
// dialect's attributes as AttrNodes: TritonGPU's, under its names old and
// new, and Intel's.
func structuredDialect(name string) (dialect, attr string, ok bool) {
	d, a, ok := strings.Cut(name, ".")
	if !ok || a == "" {
		return "", "", false
	}
	switch d {
	case "ttg", "triton_gpu", "ttig":
		return d, a, true
	}
	return "", "", false
}

// attrTree reads the body of the dialect attribute #name<...> as an
// AttrNode: at is its '#', open its '<', end the offset of its '>'. A
// body that is no such structure gives the error, positioned, in place
// of the node; the parse of the text goes on (what reads the attribute
// reports it).
func (p *parser) attrTree(name string, at model.Pos, open token, end int) (*AttrNode, *model.Error) {
	dialect, attr, ok := structuredDialect(name)
	if !ok {
		return nil, nil
	}
	sub := &parser{
		lx:         &lexer{file: p.lx.file, src: p.lx.src, off: open.end, end: end, line: open.line, col: open.col + 1},
		mod:        p.mod,
		depth:      p.depth,
		defining:   p.defining,
		standalone: p.standalone,
	}
	sub.nextTok()
	n := sub.attrBody(dialect, attr, at)
	if sub.ok() && sub.tok.kind != tEOF {
		sub.failf(sub.tok.pos, "expected '>' to close #%s<, found %s", name, sub.tok.describe())
	}
	if sub.err != nil {
		return nil, sub.err
	}
	return n, nil
}

// attrBody reads [items] {entries}, the parser on the token after '<'.
func (p *parser) attrBody(dialect, name string, at model.Pos) *AttrNode {
	n := &AttrNode{Pos: at, Dialect: dialect, Name: name}
	if p.tok.is("[") {
		p.nextTok()
		for p.ok() && !p.tok.is("]") {
			v := p.attrItem()
			if v == nil {
				return nil
			}
			n.Items = append(n.Items, v)
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect("]", "to close #"+dialect+"."+name+"'s list") {
			return nil
		}
		if p.tok.is(",") { // Triton's own description writes <[2:+2], {...}>
			p.nextTok()
		}
		if !p.tok.is("{") {
			return n
		}
	}
	if !p.expect("{", "to open #"+dialect+"."+name+"'s fields") {
		return nil
	}
	if !p.attrEntries(n, "}") || !p.expect("}", "to close #"+dialect+"."+name+"'s fields") {
		return nil
	}
	// Entries after the dictionary: #ttg.shared_linear<{offset =
	// [...]}, alignment = 16> (SharedLinearEncodingAttr's printer in
	// lib/Dialect/TritonGPU/IR/Dialect.cpp of triton-lang/triton).
	if p.tok.is(",") && p.peekKind() == tBareID {
		p.nextTok()
		if !p.attrEntries(n, ">") {
			return nil
		}
	}
	return n
}

// attrEntries reads key = value, ... into n's entries, up to the token
// close (not read).
func (p *parser) attrEntries(n *AttrNode, close string) bool {
	for p.ok() && !p.tok.is(close) && p.tok.kind != tEOF {
		if p.tok.kind != tBareID && p.tok.kind != tString {
			p.failf(p.tok.pos, "expected a field name, found %s", p.tok.describe())
			return false
		}
		e := &AttrEntry{Key: p.tok.text, Pos: p.tok.pos}
		if prev := n.Entry(e.Key); prev != nil {
			p.failCode(e.Pos, model.CodeDuplicate, "%s is given twice (first at %s)", e.Key, prev.Pos)
			return false
		}
		p.nextTok()
		if !p.expect("=", "after "+e.Key) {
			return false
		}
		if e.Value = p.attrValue(); e.Value == nil {
			return false
		}
		n.Entries = append(n.Entries, e)
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	return p.ok()
}

// attrItem reads an item of a body's list: interval:+pad, or a value.
func (p *parser) attrItem() *AttrValue {
	v := p.attrValue()
	if v == nil || v.Kind != AttrInt || !p.tok.is(":") {
		return v
	}
	p.nextTok()
	if !p.expect("+", "after the interval "+strconv.Itoa(v.Int)+":") {
		return nil
	}
	pad := p.attrValue()
	if pad == nil {
		return nil
	}
	if pad.Kind != AttrInt {
		p.failf(pad.Pos, "expected the padding after '+', an integer")
		return nil
	}
	v.Kind, v.Pad = AttrPad, pad.Int
	return v
}

// attrValue reads a value: an integer (with an optional ': iN'), true,
// false, a string, a list, an alias or a dialect attribute.
func (p *parser) attrValue() *AttrValue {
	if !p.ok() || !p.enter() {
		return nil
	}
	defer p.leave()
	t := p.tok
	v := &AttrValue{Pos: t.pos}
	switch {
	case t.kind == tInt || t.is("-") && p.peekKind() == tInt:
		sign := 1
		if t.is("-") {
			sign = -1
			p.nextTok()
		}
		n, err := strconv.ParseInt(p.tok.text, 10, 64)
		if h, ok := strings.CutPrefix(p.tok.text, "0x"); ok {
			n, err = strconv.ParseInt(h, 16, 64)
		}
		if p.tok.kind != tInt || err != nil || n > 1<<20 {
			p.failCode(t.pos, model.CodeBadValue, "expected an integer of at most 2^20, found %s", p.tok.describe())
			return nil
		}
		p.nextTok()
		v.Kind, v.Int = AttrInt, sign*int(n)
		if p.tok.is(":") && p.peekKind() == tBareID { // kWidth = 2 : i32
			p.nextTok()
			if w := p.tok.text; !strings.HasPrefix(w, "i") && !strings.HasPrefix(w, "si") && !strings.HasPrefix(w, "ui") {
				p.failf(p.tok.pos, "expected an integer type after ':', found %s", p.tok.describe())
				return nil
			}
			p.nextTok()
		}
		return v
	case t.kind == tBareID && (t.text == "true" || t.text == "false"):
		p.nextTok()
		v.Kind, v.Bool = AttrBool, t.text == "true"
		return v
	case t.kind == tString:
		p.nextTok()
		v.Kind, v.Str = AttrString, t.text
		return v
	case t.is("["):
		p.nextTok()
		v.Kind, v.List = AttrList, []*AttrValue{}
		for p.ok() && !p.tok.is("]") {
			if len(v.List) >= 1<<12 {
				p.failCode(p.tok.pos, model.CodeTooLarge, "a list of more than %d values", 1<<12)
				return nil
			}
			x := p.attrValue()
			if x == nil {
				return nil
			}
			v.List = append(v.List, x)
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect("]", "to close the list") {
			return nil
		}
		return v
	case t.kind == tHashID:
		return p.attrRef(v)
	case t.is("{"):
		p.nextTok()
		v.Kind, v.Node = AttrDict, &AttrNode{Pos: t.pos}
		if !p.attrEntries(v.Node, "}") || !p.expect("}", "to close the dictionary") {
			return nil
		}
		return v
	}
	p.failf(t.pos, "expected a number, a list, a dictionary, true, false, a string or an attribute, found %s", t.describe())
	return nil
}

// attrRef reads #alias or #dialect.name<body> inside a body.
func (p *parser) attrRef(v *AttrValue) *AttrValue {
	t := p.tok
	if dialect, name, ok := structuredDialect(t.text); ok {
		p.nextTok()
		if !p.tok.is("<") {
			p.failf(p.tok.pos, "expected '<' after #%s, found %s", t.text, p.tok.describe())
			return nil
		}
		p.nextTok()
		n := p.attrBody(dialect, name, t.pos)
		if n == nil || !p.expect(">", "to close #"+t.text+"<") {
			return nil
		}
		v.Kind, v.Node = AttrNested, n
		return v
	}
	if strings.Contains(t.text, ".") {
		p.failCode(t.pos, model.CodeBadValue, "#%s is not a TritonGPU attribute (expected the prefix ttg., triton_gpu. or ttig.)", t.text)
		return nil
	}
	if t.text == p.defining {
		p.failCode(t.pos, model.CodeBadValue, "attribute alias #%s names itself: an alias's value cannot use it", t.text)
		return nil
	}
	a, ok := p.mod.AttrAliases[t.text]
	if !ok {
		p.undefinedAlias(t)
		return nil
	}
	d, ok := a.(*DialectAttr)
	if !ok || d.Tree == nil {
		if ok && d.TreeErr != nil {
			e := p.failCode(t.pos, d.TreeErr.Code, "#%s is %s, which is not read: %s", t.text, a, d.TreeErr.Msg)
			e.Related = []model.Pos{d.TreeErr.Pos}
			return nil
		}
		p.failCode(t.pos, model.CodeBadValue, "#%s is %s, not a TritonGPU attribute", t.text, a)
		return nil
	}
	p.useAlias(t.text, t.off)
	p.nextTok()
	v.Kind, v.Str, v.Node = AttrAlias, t.text, d.Tree
	return v
}
