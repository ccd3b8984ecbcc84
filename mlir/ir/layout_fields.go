package ir

import (
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// The bodies of the layout attributes the vector reader reads: IREE's
// nested_layout, XeGPU's layouts and #planner.linear, each a list of
// fields read with their file:line:col.

// FieldPos is where a layout attribute's field and each of its entries
// are written.
type FieldPos struct {
	Pos   model.Pos
	Elems []model.Pos
}

// LayoutAttrs are XeGPU's layout attributes: #xegpu.layout
// (llvm-project mlir/include/mlir/Dialect/XeGPU/IR/XeGPUAttrs.td,
// XeGPU_LayoutAttr: sg_layout, sg_data, inst_data, lane_layout,
// lane_data, order, each optional) and the earlier spellings of seed 003's
// proposal (intel/mlir-extensions pull request 1033: #xegpu.sg_map with
// wi_layout and wi_data for lane_layout and lane_data, #xegpu.wg_map with
// sg_order for order).
var LayoutAttrs = []string{"xegpu.layout", "xegpu.sg_map", "xegpu.wg_map"}

// LinearAttr is the attribute the planner writes a layout in where IREE's
// nested_layout cannot write it: the linear bases of each hardware
// dimension, #planner.linear<register = [[...], ...], lane = [...],
// subgroup = [...]> (docs/mlir.md, "What is written").
const LinearAttr = "planner.linear"

// LinearFields are #planner.linear's fields and the hardware dimension
// each gives the bases of.
var LinearFields = []string{"register", "lane", "subgroup"}

// bodyParser is a parser of a dialect attribute's body, positioned at its
// first token, that reports positions in the file the body is in.
func bodyParser(m *Module, da *DialectAttr) *parser {
	p := &parser{lx: &lexer{file: m.File, src: m.src, off: da.body.off, end: da.end, line: da.body.line, col: da.body.col}, mod: m}
	p.nextTok()
	return p
}

// IntFields reads a layout attribute's body, field = [entries], ..., as
// lists of integers by field (an alias read as the field it names);
// a field not in known, one given twice and an entry that is not an
// integer are errors at their file:line:col.
func IntFields(m *Module, da *DialectAttr, what string, known []string, alias map[string]string) (map[string][]int, map[string]FieldPos, *model.Error) {
	p := bodyParser(m, da)
	values := map[string][]int{}
	fields := map[string]FieldPos{}
	for p.ok() && p.tok.kind != tEOF {
		if p.tok.kind != tBareID {
			p.failf(p.tok.pos, "expected a field of %s (%s), found %s", what, strings.Join(known, ", "), p.tok.describe())
			break
		}
		name, npos := p.tok.text, p.tok.pos
		if real, ok := alias[name]; ok {
			name = real
		}
		if !slices.Contains(known, name) {
			p.failCode(npos, model.CodeUnknownKey, "%s has no field %s (its fields: %s)", what, p.tok.text, strings.Join(known, ", "))
			break
		}
		if prev, dup := fields[name]; dup {
			p.failCode(npos, model.CodeDuplicate, "%s gives %s twice (first at %s)", what, name, prev.Pos)
			break
		}
		p.nextTok()
		if !p.expect("=", "after "+name) {
			break
		}
		fp := FieldPos{Pos: p.tok.pos}
		if !p.expect("[", "to open "+name+"'s list") {
			break
		}
		list := []int{}
		for p.ok() && !p.tok.is("]") {
			neg := p.tok.is("-")
			if neg {
				p.nextTok()
			}
			n, err := strconv.Atoi(p.tok.text)
			if p.tok.kind != tInt || err != nil || n > 1<<30 {
				p.failCode(p.tok.pos, model.CodeBadValue, "%s's entries are integers, found %s", name, p.tok.describe())
				break
			}
			if neg {
				n = -n
			}
			fp.Elems = append(fp.Elems, p.tok.pos)
			list = append(list, n)
			p.nextTok()
			if !p.tok.is(",") {
				break
			}
			p.nextTok()
		}
		if !p.expect("]", "to close "+name+"'s list") {
			break
		}
		values[name], fields[name] = list, fp
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if p.ok() && p.tok.kind != tEOF {
		p.failf(p.tok.pos, "expected ',' or the end of %s<...>, found %s", what, p.tok.describe())
	}
	if p.err != nil {
		return nil, nil, p.err
	}
	return values, fields, nil
}

// LinearBases reads a #planner.linear<...> body's fields, each a list
// of bases, reporting a field it does not know, one given twice and a
// basis that is not a list of integers at its file:line:col.
func LinearBases(m *Module, da *DialectAttr) (map[string][][]int, map[string]FieldPos, *model.Error) {
	p := bodyParser(m, da)
	values := map[string][][]int{}
	fields := map[string]FieldPos{}
	for p.ok() && p.tok.kind != tEOF {
		name, npos := p.tok.text, p.tok.pos
		if p.tok.kind != tBareID || !slices.Contains(LinearFields, name) {
			p.failCode(npos, model.CodeUnknownKey, "expected a field of %s (%s), found %s", LinearAttr, strings.Join(LinearFields, ", "), p.tok.describe())
			break
		}
		if prev, dup := fields[name]; dup {
			p.failCode(npos, model.CodeDuplicate, "%s gives %s twice (first at %s)", LinearAttr, name, prev.Pos)
			break
		}
		p.nextTok()
		if !p.expect("=", "after "+name) {
			break
		}
		fp := FieldPos{Pos: p.tok.pos}
		arr, ok := p.parseAttr().(*ArrayAttr)
		if !p.ok() {
			break
		}
		if !ok {
			p.failCode(fp.Pos, model.CodeBadValue, "%s's %s is a list of bases, each a list of integers", LinearAttr, name)
			break
		}
		bases := [][]int{}
		for i, e := range arr.Elems {
			basis, ok := intList(e)
			if !ok {
				p.failCode(arr.Pos[i], model.CodeBadValue, "%s's %s bases are lists of integers, found %s", LinearAttr, name, e)
				break
			}
			bases = append(bases, basis)
			fp.Elems = append(fp.Elems, arr.Pos[i])
		}
		values[name], fields[name] = bases, fp
		if !p.ok() || !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if p.ok() && p.tok.kind != tEOF {
		p.failf(p.tok.pos, "expected ',' or the end of %s<...>, found %s", LinearAttr, p.tok.describe())
	}
	if p.err != nil {
		return nil, nil, p.err
	}
	return values, fields, nil
}

// intList reads an array of integers.
func intList(a Attr) ([]int, bool) {
	arr, ok := a.(*ArrayAttr)
	if !ok {
		return nil, false
	}
	out := make([]int, 0, len(arr.Elems))
	for _, e := range arr.Elems {
		ia, ok := e.(*IntAttr)
		if !ok {
			return nil, false
		}
		n, err := strconv.Atoi(ia.Text)
		if err != nil || n > 1<<30 || n < -1<<30 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// SliceAttr is XeGPU's slice of a layout: #xegpu.slice<PARENT, dims =
// [..]>, the layout PARENT (an #xegpu.layout or another slice) with the
// dimensions dims taken out (llvm-project
// mlir/include/mlir/Dialect/XeGPU/IR/XeGPUAttrs.td, XeGPU_SliceAttr;
// mlir/test/Dialect/XeGPU/layout.mlir, slice_attr and nested_slice_attr).
const SliceAttr = "xegpu.slice"

// SliceParts reads a #xegpu.slice<...> body: its parent layout attribute
// (where it is written) and its dims (where each is written); an error
// at the token at fault for anything else.
func SliceParts(m *Module, da *DialectAttr) (parent *DialectAttr, at model.Pos, dims []int, dimsAt FieldPos, err *model.Error) {
	p := bodyParser(m, da)
	at = p.tok.pos
	if p.tok.kind != tHashID {
		p.failf(p.tok.pos, "expected #xegpu.slice's parent layout (#xegpu.layout<...> or #xegpu.slice<...>), found %s", p.tok.describe())
		return nil, at, nil, dimsAt, p.err
	}
	a := p.parseAttr()
	if p.err != nil {
		return nil, at, nil, dimsAt, p.err
	}
	parent, ok := a.(*DialectAttr)
	if !ok || parent.Name != SliceAttr && !slices.Contains(LayoutAttrs, parent.Name) {
		p.failCode(at, model.CodeBadValue, "#xegpu.slice's parent is %s, not an XeGPU layout", a)
		return nil, at, nil, dimsAt, p.err
	}
	if !p.expect(",", "after #xegpu.slice's parent layout") || !p.keyword("dims", "after #xegpu.slice's parent layout") || !p.expect("=", "after dims") {
		return nil, at, nil, dimsAt, p.err
	}
	dimsAt.Pos = p.tok.pos
	if !p.expect("[", "to open dims") {
		return nil, at, nil, dimsAt, p.err
	}
	for p.ok() && !p.tok.is("]") {
		n, cerr := strconv.Atoi(p.tok.text)
		if p.tok.kind != tInt || cerr != nil || n > 1<<30 {
			p.failCode(p.tok.pos, model.CodeBadValue, "dims's entries are dimensions, found %s", p.tok.describe())
			return nil, at, nil, dimsAt, p.err
		}
		dimsAt.Elems = append(dimsAt.Elems, p.tok.pos)
		dims = append(dims, n)
		p.nextTok()
		if !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if !p.expect("]", "to close dims") {
		return nil, at, nil, dimsAt, p.err
	}
	if p.tok.kind != tEOF {
		p.failf(p.tok.pos, "expected the end of #xegpu.slice<...>, found %s", p.tok.describe())
		return nil, at, nil, dimsAt, p.err
	}
	return parent, at, dims, dimsAt, nil
}
