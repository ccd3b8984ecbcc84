package ir

import (
	"fmt"
	"strconv"
	"strings"

	"planner/model"
)

// Module is a parsed MLIR file: its top-level ops (a builtin.module, or
// ops written without one) and the aliases it defines.
type Module struct {
	File string
	Ops  []*Op
	// Attribute and type aliases (#name = ..., !name = ...), by name
	// without the sigil.
	AttrAliases map[string]Attr
	TypeAliases map[string]Type
	// TypeSites are the tensor_desc and memref types as written, in file
	// order.
	TypeSites []TypeSite
	// AliasPos is where each attribute alias's value is written.
	AliasPos map[string]model.Pos
	// TypeSpans are where each tensor type and Triton memory descriptor
	// is written, in the order they are read (for the TTGIR writer).
	TypeSpans []TypeSpan
	// AliasUses are the uses of attribute aliases, in the order they are
	// written, each once: in ops, types, other aliases' values and
	// dialect attributes' bodies, never in strings or comments.
	AliasUses []AliasUse
	aliasUsed map[int]bool
	src       string // the text, for readers of dialect attributes' bodies
}

// AliasUse is a use of an attribute alias: its name, and the byte offset
// of its '#' in the text.
type AliasUse struct {
	Name string
	Off  int
}

// Op is one operation, in either form: the generic form's parts, which a
// custom form's parser fills in the same way (a transfer_read's operands
// in the generic order, its permutation_map as an attribute).
type Op struct {
	Name    string    // "vector.contract", with its dialect
	Pos     model.Pos // the statement's start: its first result, else its name
	NamePos model.Pos
	Generic bool // written in the generic form ("vector.contract"(...))
	// Opaque is set for an op in a custom form the reader does not know:
	// it was read only as far as its results' names, and skipped to the
	// end of its line (and the brackets it opens); operands and types are
	// unknown. Mentions lists the vector types and known vector values
	// its text names (the reader refuses such an op).
	Opaque   bool
	Mentions []string
	Results  []*Value
	Operands []*Operand
	// Props holds the generic form's <{properties}>; Attrs its {attributes}.
	// Custom forms put what they state in Attrs, but for the properties
	// current MLIR writes as keywords (mma_props.go) and the enums some
	// write bare (blgp = none, mulf), which go in Props.
	Props []*NamedAttr
	Attrs []*NamedAttr
	// ArgAttrs are a function's argument attributes ({tt.divisibility =
	// 16 : i32}), one list per argument, nil where an argument has none.
	ArgAttrs   [][]*NamedAttr
	Regions    []*Region
	Successors []string
	Parent     *Block
	// Span is the statement's text, from its first result (or its name)
	// through its trailing loc(...). Dict is its {attributes} dictionary,
	// braces included; in the generic form without one, the empty span
	// where one goes (after the text before it); zero when the op has none.
	Span Span
	Dict Span
}

// TypeSpan is one type as written.
type TypeSpan struct {
	Span Span
	Type Type
}

// Span is a range of the source's bytes, [Off, End).
type Span struct{ Off, End int }

// Attr looks a property or attribute up by name (properties first).
func (o *Op) Attr(name string) (*NamedAttr, bool) {
	for _, list := range [][]*NamedAttr{o.Props, o.Attrs} {
		for _, a := range list {
			if a.Name == name {
				return a, true
			}
		}
	}
	return nil, false
}

// Operand is one use of a value by an op.
type Operand struct {
	Value *Value
	Pos   model.Pos // where the use is written
	Span  Span      // the use's text (%9, %11#2)
}

// Value is an SSA value: an op's result or a block argument.
type Value struct {
	Name  string    // "9", "arg0", "11#2" for result 2 of a group %11:3
	Pos   model.Pos // where it is defined
	Type  Type      // nil for the results of an opaque op
	Def   *Op       // nil for block arguments
	Index int       // result index, or argument index
	Block *Block    // for block arguments
	Uses  []Use
}

// Use is operand Index of Op.
type Use struct {
	Op    *Op
	Index int
}

func (v *Value) String() string { return "%" + v.Name }

// Region is a list of blocks.
type Region struct {
	Pos    model.Pos
	End    model.Pos // the closing brace
	Blocks []*Block
	Parent *Op
}

// Block is a labelled list of ops with arguments.
type Block struct {
	Label  string
	Pos    model.Pos
	Args   []*Value
	Ops    []*Op
	Region *Region
}

// NamedAttr is one entry of an attribute dictionary.
type NamedAttr struct {
	Name     string
	Pos      model.Pos // where the name is written
	Value    Attr
	ValuePos model.Pos
}

// Type is an MLIR type. String gives its canonical spelling (aliases
// resolved), which compares two types.
type Type interface{ String() string }

// VectorType is vector<4x8xf32>; a scalable dimension ([4]) is marked.
type VectorType struct {
	Shape    []int
	Scalable []bool
	Elem     Type
	str      string // String, once written
}

func (t *VectorType) String() string { return cached(&t.str, t.format) }

func (t *VectorType) format() string {
	var b strings.Builder
	b.WriteString("vector<")
	for i, d := range t.Shape {
		if t.Scalable[i] {
			fmt.Fprintf(&b, "[%d]x", d)
		} else {
			fmt.Fprintf(&b, "%dx", d)
		}
	}
	b.WriteString(t.Elem.String())
	b.WriteString(">")
	return b.String()
}

// Dynamic marks a dimension written ? in a memref or tensor shape.
const Dynamic = -1

// MemRefType is memref<128x64xf16, layout, memory space>.
type MemRefType struct {
	Shape    []int // Dynamic for ?
	Unranked bool
	Elem     Type
	Layout   Attr // nil: the identity
	MemSpace Attr // nil: the default (global) memory
	str      string
}

func (t *MemRefType) String() string { return cached(&t.str, t.format) }

func (t *MemRefType) format() string {
	return shaped("memref", t.Shape, t.Unranked, t.Elem, t.Layout, t.MemSpace)
}

// shaped writes kind<shape x elem, attrs...>, the nil attributes left out.
func shaped(kind string, shape []int, unranked bool, elem Type, attrs ...Attr) string {
	var b strings.Builder
	b.WriteString(kind + "<")
	writeShape(&b, shape, unranked)
	b.WriteString(elem.String())
	for _, a := range attrs {
		if a != nil {
			b.WriteString(", " + a.String())
		}
	}
	b.WriteString(">")
	return b.String()
}

func writeShape(b *strings.Builder, shape []int, unranked bool) {
	if unranked {
		b.WriteString("*x")
		return
	}
	for _, d := range shape {
		if d == Dynamic {
			b.WriteString("?x")
		} else {
			fmt.Fprintf(b, "%dx", d)
		}
	}
}

// TensorType is tensor<4x8xf32, encoding>.
type TensorType struct {
	Shape    []int
	Unranked bool
	Elem     Type
	Encoding Attr
}

func (t *TensorType) String() string {
	return shaped("tensor", t.Shape, t.Unranked, t.Elem, t.Encoding)
}

// IntType is iN, siN or uiN.
type IntType struct {
	Width  int
	Signed byte // 0 signless, 's' signed, 'u' unsigned
}

func (t *IntType) String() string {
	switch t.Signed {
	case 's':
		return "si" + strconv.Itoa(t.Width)
	case 'u':
		return "ui" + strconv.Itoa(t.Width)
	}
	return "i" + strconv.Itoa(t.Width)
}

// FloatType is a builtin float type by its MLIR name (f32, bf16, f8E4M3FN).
type FloatType struct{ Name string }

func (t *FloatType) String() string { return t.Name }

// FloatBits are the builtin float types and their widths.
var FloatBits = map[string]int{
	"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 32,
	"f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8, "f8E3M4": 8,
	"f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
}

// IndexType is index.
type IndexType struct{}

func (IndexType) String() string { return "index" }

// NoneType is none.
type NoneType struct{}

func (NoneType) String() string { return "none" }

// ComplexType is complex<f32>.
type ComplexType struct{ Elem Type }

func (t *ComplexType) String() string { return "complex<" + t.Elem.String() + ">" }

// TupleType is tuple<...>.
type TupleType struct{ Elems []Type }

func (t *TupleType) String() string { return "tuple<" + typeList(t.Elems) + ">" }

// FunctionType is (inputs) -> results.
type FunctionType struct {
	Inputs, Results []Type
	str             string
}

func (t *FunctionType) String() string { return cached(&t.str, t.format) }

func (t *FunctionType) format() string {
	res := typeList(t.Results)
	if len(t.Results) != 1 {
		res = "(" + res + ")"
	} else if _, fn := t.Results[0].(*FunctionType); fn {
		res = "(" + res + ")"
	}
	return "(" + typeList(t.Inputs) + ") -> " + res
}

// cached is *s, which format writes the first time.
func cached(s *string, format func() string) string {
	if *s == "" {
		*s = format()
	}
	return *s
}

func typeList(ts []Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

// TensorDescType is XeGPU's !xegpu.tensor_desc<8x16xf16, encoding,
// layout>: a block of memory a load_nd or store_nd moves.
type TensorDescType struct {
	Shape     []int
	Elem      Type
	Encoding  []Attr // #xegpu.block_tdesc_attr<...> and the like, kept
	Layout    Attr   // nil: none
	LayoutPos model.Pos
	str       string
}

func (t *TensorDescType) String() string {
	return cached(&t.str, func() string {
		var b strings.Builder
		b.WriteString("!xegpu.tensor_desc<")
		writeShape(&b, t.Shape, false)
		b.WriteString(t.Elem.String())
		for _, a := range t.Encoding {
			b.WriteString(", " + a.String())
		}
		if t.Layout != nil {
			b.WriteString(", " + t.Layout.String())
		}
		b.WriteString(">")
		return b.String()
	})
}

// TypeSite is where a tensor_desc or memref type is written: the text
// ", layout" of its layout attribute, or the empty span where that goes
// (a tensor_desc's before its closing '>', a memref's after its element
// type).
type TypeSite struct {
	Type   Type // a *TensorDescType or a *MemRefType
	Layout Span
}

// OpaqueType is a dialect type (!llvm.ptr, !nvgpu.warpgroup...) kept
// as written, white space collapsed.
type OpaqueType struct {
	Text string
	// A !ttg.memdesc's encoding, read as an attribute (an alias's value
	// where it names one), or the mistake that stopped its reading.
	Encoding    Attr
	EncodingErr *model.Error
	// Block is a !tt.tensordesc's block type, the tensor type it
	// describes (its encoding the shared one the block lies in), or nil.
	Block *TensorType
}

func (t *OpaqueType) String() string { return t.Text }

// Attr is an MLIR attribute. String gives its canonical spelling.
type Attr interface{ String() string }

// IntAttr is an integer, with its type when written (: i32).
type IntAttr struct {
	Text string // the digits as written, with a leading - when negative
	Type Type
}

func (a *IntAttr) String() string { return typed(a.Text, a.Type) }

// Int64 is the integer's value; false when it does not fit.
func (a *IntAttr) Int64() (int64, bool) {
	v, err := strconv.ParseInt(a.Text, 0, 64)
	if err != nil {
		// Hexadecimal above 2^63 (a float's bits) is read unsigned.
		u, uerr := strconv.ParseUint(a.Text, 0, 64)
		if uerr != nil {
			return 0, false
		}
		return int64(u), true
	}
	return v, true
}

func typed(s string, t Type) string {
	if t == nil {
		return s
	}
	return s + " : " + t.String()
}

// FloatAttr is a float literal (or a hexadecimal bit pattern given a
// float type).
type FloatAttr struct {
	Text string
	Type Type
}

func (a *FloatAttr) String() string { return typed(a.Text, a.Type) }

// BoolAttr is true or false.
type BoolAttr struct{ Value bool }

func (a *BoolAttr) String() string { return strconv.FormatBool(a.Value) }

// StringAttr is "text", with its type when written.
type StringAttr struct {
	Value string
	Type  Type
}

func (a *StringAttr) String() string { return typed(strconv.Quote(a.Value), a.Type) }

// UnitAttr is a dictionary entry without a value, or the keyword unit.
type UnitAttr struct{}

func (UnitAttr) String() string { return "unit" }

// ArrayAttr is [a, b, ...].
type ArrayAttr struct {
	Elems []Attr
	Pos   []model.Pos // where each element is written
}

func (a *ArrayAttr) String() string {
	parts := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		parts[i] = e.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// DictAttr is {name = value, ...}.
type DictAttr struct{ Entries []*NamedAttr }

func (a *DictAttr) String() string {
	parts := make([]string, len(a.Entries))
	for i, e := range a.Entries {
		if _, unit := e.Value.(UnitAttr); unit {
			parts[i] = e.Name
		} else {
			parts[i] = e.Name + " = " + e.Value.String()
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// DenseAttr is dense<...> : type. Splat is set for a single literal; Count
// is the number of literals written (nested lists flattened).
type DenseAttr struct {
	Body   string // the literals as written, white space collapsed
	Splat  bool
	Count  int
	Values []string // the literals, when not a hex blob
	Type   Type
}

func (a *DenseAttr) String() string { return "dense<" + a.Body + "> : " + a.Type.String() }

// DenseArrayAttr is array<i64: 1, 2>.
type DenseArrayAttr struct {
	Elem   Type
	Values []string
}

func (a *DenseArrayAttr) String() string {
	if len(a.Values) == 0 {
		return "array<" + a.Elem.String() + ">"
	}
	return "array<" + a.Elem.String() + ": " + strings.Join(a.Values, ", ") + ">"
}

// Ints is the array's values as integers; false when one is not.
func (a *DenseArrayAttr) Ints() ([]int, bool) {
	out := make([]int, len(a.Values))
	for i, s := range a.Values {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return nil, false
		}
		out[i] = int(v)
	}
	return out, true
}

// AffineMapAttr is affine_map<...>.
type AffineMapAttr struct{ Map *AffineMap }

func (a *AffineMapAttr) String() string { return "affine_map<" + a.Map.String() + ">" }

// StridedAttr is strided<[s0, s1], offset: o>; Dynamic marks ?.
type StridedAttr struct {
	Strides   []int
	Offset    int
	HasOffset bool
}

func (a *StridedAttr) String() string {
	parts := make([]string, len(a.Strides))
	for i, s := range a.Strides {
		parts[i] = dimString(s)
	}
	s := "strided<[" + strings.Join(parts, ", ") + "]"
	if a.HasOffset {
		s += ", offset: " + dimString(a.Offset)
	}
	return s + ">"
}

func dimString(d int) string {
	if d == Dynamic {
		return "?"
	}
	return strconv.Itoa(d)
}

// TypeAttr is a type used as an attribute (function_type = (i32) -> ()).
type TypeAttr struct{ Type Type }

func (a *TypeAttr) String() string { return a.Type.String() }

// SymbolRefAttr is @name (or @a::@b).
type SymbolRefAttr struct{ Text string }

func (a *SymbolRefAttr) String() string { return a.Text }

// DialectAttr is a dialect's attribute: #dialect.name<body> or
// #dialect<body>, its body kept as written (white space collapsed) and
// read further only by those who know it (a nested_layout, a
// translation_info).
type DialectAttr struct {
	Name    string // "gpu.address_space", "vector.kind", "gpu" for #gpu<dim x>
	Body    string // without the angle brackets; "" when none
	HasBody bool
	// Where the body starts in the file, so that a reader of the body can
	// report positions inside it.
	body lexState
	end  int
	// Tree is the body read as structure, for the dialects the parser
	// reads so (TritonGPU's: structuredDialect); TreeErr, in its place,
	// why the body is no such structure.
	Tree    *AttrNode
	TreeErr *model.Error
}

func (a *DialectAttr) String() string {
	if !a.HasBody {
		return "#" + a.Name
	}
	return "#" + a.Name + "<" + a.Body + ">"
}

// OpaqueAttr is a builtin attribute the reader keeps as written
// (loc(...), dense_resource<...>, sparse<...>, affine_set<...>,
// distinct[...]<...>).
type OpaqueAttr struct{ Text string }

func (a *OpaqueAttr) String() string { return a.Text }

// collapse writes s with every run of white space as one space, and none
// after an opening or before a closing bracket, so that two spellings of
// one verbatim body compare equal.
func collapse(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			last := b.String()[b.Len()-1]
			if !strings.ContainsRune("<([{", rune(last)) && !strings.ContainsRune(">)]},", rune(c)) {
				b.WriteByte(' ')
			}
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}

// Text is the text the module was parsed from.
func (m *Module) Text() string { return m.src }
