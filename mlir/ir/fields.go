package ir

import (
	"strings"
)

// FieldKind says what a Field's value is.
type FieldKind int

const (
	FieldString  FieldKind = iota // Value the string's contents
	FieldInt                      // Value the integer as written
	FieldList                     // Value the text between the brackets
	FieldOther                    // any other value (Value empty)
	FieldDialect                  // no key = value: Key names a dialect attribute met (iree_gpu.target)
)

// Field is a key = value written inside an attribute, at any depth: an
// entry of a dictionary, or a key = value of a dialect attribute's body
// (IREE's #iree_gpu.target<arch = "gfx942", ...>), which the parser keeps
// as text.
type Field struct {
	Key   string
	Kind  FieldKind
	Value string
}

// maxAliasDepth bounds how deep Fields reads aliases that name aliases.
const maxAliasDepth = 8

// Fields calls f on the fields written in a, in the order they are
// written, and on each dialect attribute met (Kind FieldDialect): a
// dictionary's entries, an array's elements, a dialect attribute's body.
// An alias a body names is read in its place, as its value (an IREE
// target names its target_info by alias:
// {iree_codegen.target_info = #target}).
func (m *Module) Fields(a Attr, f func(Field)) { m.fields(a, f, 0) }

func (m *Module) fields(a Attr, f func(Field), depth int) {
	switch a := a.(type) {
	case *DictAttr:
		for _, na := range a.Entries {
			f(Field{Key: na.Name, Kind: kindOf(na.Value), Value: valueOf(na.Value)})
			m.fields(na.Value, f, depth)
		}
	case *ArrayAttr:
		for _, e := range a.Elems {
			m.fields(e, f, depth)
		}
	case *DialectAttr:
		f(Field{Key: a.Name, Kind: FieldDialect})
		if a.HasBody && a.end > a.body.off {
			m.bodyFields(a, f, depth)
		}
	}
}

// kindOf and valueOf say what a parsed attribute is as a Field's value.
func kindOf(a Attr) FieldKind {
	switch a.(type) {
	case *StringAttr:
		return FieldString
	case *IntAttr:
		return FieldInt
	case *ArrayAttr:
		return FieldList
	}
	return FieldOther
}

func valueOf(a Attr) string {
	switch a := a.(type) {
	case *StringAttr:
		return a.Value
	case *IntAttr:
		return a.Text
	case *ArrayAttr:
		return strings.TrimSuffix(strings.TrimPrefix(a.String(), "["), "]")
	}
	return ""
}

// bodyFields reads the tokens of a dialect attribute's body: each
// name = value a Field, each alias read as its value, each dialect
// attribute named. A byte the lexer does not read is passed over.
func (m *Module) bodyFields(d *DialectAttr, f func(Field), depth int) {
	lx := &lexer{file: m.File, src: m.src, off: d.body.off, end: d.end, line: d.body.line, col: d.body.col}
	var toks []token
	for lx.off < lx.end {
		t, err := lx.next()
		if err != nil {
			lx.restore(lexState{t.off, t.line, t.col})
			lx.advance(1)
			continue
		}
		if t.kind == tEOF {
			break
		}
		toks = append(toks, t)
	}
	for i, t := range toks {
		if t.kind == tHashID {
			if v, ok := m.AttrAliases[t.text]; ok && !strings.Contains(t.text, ".") {
				if depth < maxAliasDepth {
					m.fields(v, f, depth+1)
				}
			} else {
				f(Field{Key: t.text, Kind: FieldDialect})
			}
			continue
		}
		if t.kind != tBareID || i+2 >= len(toks) || !toks[i+1].is("=") {
			continue
		}
		v := toks[i+2]
		switch {
		case v.kind == tString:
			f(Field{Key: t.text, Kind: FieldString, Value: v.text})
		case v.kind == tInt:
			f(Field{Key: t.text, Kind: FieldInt, Value: v.raw})
		case v.is("["):
			open := 0
			for _, x := range toks[i+2:] {
				switch {
				case x.is("["):
					open++
				case x.is("]"):
					open--
				}
				if open == 0 {
					f(Field{Key: t.text, Kind: FieldList, Value: m.src[v.end:x.off]})
					break
				}
			}
		default:
			f(Field{Key: t.text, Kind: FieldOther})
		}
	}
}
