package mlir

import (
	"slices"
	"strconv"
	"strings"

	"planner/model"
	"planner/notation"
)

// fieldPos is where a layout attribute's field and each of its entries
// are written.
type fieldPos struct {
	pos   model.Pos
	elems []model.Pos
}

// nestedFields are #iree_vector_ext.nested_layout's fields, each a list
// with one entry per dimension (IREE's VectorExtAttrs.td, NestedLayoutAttr).
var nestedFields = []string{"subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile", "subgroup_strides", "thread_strides"}

// nestedLayout reads a nested_layout's body, field = [entries], ...,
// reporting a field it lacks, one it does not know, one given twice and
// an entry that is not an integer at its file:line:col.
func (b *builder) nestedLayout(da *DialectAttr, at model.Pos) (*notation.Nested, map[string]fieldPos) {
	values, fields, ok := b.intFields(da, "nested_layout", nestedFields, nil)
	if !ok {
		return nil, nil
	}
	var missing []string
	for _, f := range nestedFields {
		if _, ok := values[f]; !ok {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		b.errorf(at, model.CodeMissingKey, "nested_layout lacks %s: it gives every one of %s", strings.Join(missing, ", "), strings.Join(nestedFields, ", "))
		return nil, nil
	}
	return &notation.Nested{
		SubgroupTile: values["subgroup_tile"], BatchTile: values["batch_tile"], OuterTile: values["outer_tile"],
		ThreadTile: values["thread_tile"], ElementTile: values["element_tile"],
		SubgroupStrides: values["subgroup_strides"], ThreadStrides: values["thread_strides"],
	}, fields
}

// layoutAttrs are XeGPU's layout attributes: #xegpu.layout
// (llvm-project mlir/include/mlir/Dialect/XeGPU/IR/XeGPUAttrs.td,
// XeGPU_LayoutAttr: sg_layout, sg_data, inst_data, lane_layout,
// lane_data, order, each optional) and the earlier spellings of seed 003's
// proposal (intel/mlir-extensions pull request 1033: #xegpu.sg_map with
// wi_layout and wi_data for lane_layout and lane_data, #xegpu.wg_map with
// sg_order for order).
var layoutAttrs = []string{"xegpu.layout", "xegpu.sg_map", "xegpu.wg_map"}

// xegpuFields are #xegpu.layout's fields; xegpuAliases the earlier names
// of three of them.
var (
	xegpuFields  = []string{"sg_layout", "sg_data", "inst_data", "lane_layout", "lane_data", "order"}
	xegpuAliases = map[string]string{"wi_layout": "lane_layout", "wi_data": "lane_data", "sg_order": "order"}
)

// xegpuLayout reads an XeGPU layout's body, field = [entries], ...,
// reporting a field it does not know, one given twice (under either of its
// names) and an entry that is not an integer at its file:line:col. Every
// field is optional, as in XeGPU.
func (b *builder) xegpuLayout(da *DialectAttr, at model.Pos) (*notation.XeGPU, map[string]fieldPos) {
	values, fields, ok := b.intFields(da, da.Name, xegpuFields, xegpuAliases)
	if !ok {
		return nil, nil
	}
	if len(values) == 0 {
		b.errorf(at, model.CodeMissingKey, "#%s<> gives no field: it gives some of %s", da.Name, strings.Join(xegpuFields, ", "))
		return nil, nil
	}
	return &notation.XeGPU{
		SgLayout: values["sg_layout"], SgData: values["sg_data"], InstData: values["inst_data"],
		LaneLayout: values["lane_layout"], LaneData: values["lane_data"], Order: values["order"],
	}, fields
}

// intFields reads a layout attribute's body, field = [entries], ..., as
// lists of integers by field (an alias read as the field it names);
// a field not in known, one given twice and an entry that is not an
// integer are errors at their file:line:col (reported; ok is false).
func (b *builder) intFields(da *DialectAttr, what string, known []string, alias map[string]string) (map[string][]int, map[string]fieldPos, bool) {
	p := &parser{lx: &lexer{file: b.mod.File, src: b.mod.src, off: da.body.off, end: da.end, line: da.body.line, col: da.body.col}, mod: b.mod}
	p.nextTok()
	values := map[string][]int{}
	fields := map[string]fieldPos{}
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
			p.failCode(npos, model.CodeDuplicate, "%s gives %s twice (first at %s)", what, name, prev.pos)
			break
		}
		p.nextTok()
		if !p.expect("=", "after "+name) {
			break
		}
		fp := fieldPos{pos: p.tok.pos}
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
			fp.elems = append(fp.elems, p.tok.pos)
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
		b.errs = append(b.errs, p.err)
		return nil, nil, false
	}
	return values, fields, true
}

// linearAttr is the attribute the planner writes a layout in where IREE's
// nested_layout cannot write it: the linear bases of each hardware
// dimension, #planner.linear<register = [[...], ...], lane = [...],
// subgroup = [...]> (docs/mlir.md, "What is written").
const linearAttr = "planner.linear"

// linearFields are #planner.linear's fields and the hardware dimension
// each gives the bases of.
var linearFields = []string{"register", "lane", "subgroup"}

// linearLayout reads a #planner.linear<...> body, reporting a field it
// lacks, one it does not know, one given twice and a basis that is not a
// list of integers at its file:line:col.
func (b *builder) linearLayout(da *DialectAttr, at model.Pos) (*notation.Linear, map[string]fieldPos) {
	p := &parser{lx: &lexer{file: b.mod.File, src: b.mod.src, off: da.body.off, end: da.end, line: da.body.line, col: da.body.col}, mod: b.mod}
	p.nextTok()
	values := map[string][][]int{}
	fields := map[string]fieldPos{}
	for p.ok() && p.tok.kind != tEOF {
		name, npos := p.tok.text, p.tok.pos
		if p.tok.kind != tBareID || !slices.Contains(linearFields, name) {
			p.failCode(npos, model.CodeUnknownKey, "expected a field of %s (%s), found %s", linearAttr, strings.Join(linearFields, ", "), p.tok.describe())
			break
		}
		if prev, dup := fields[name]; dup {
			p.failCode(npos, model.CodeDuplicate, "%s gives %s twice (first at %s)", linearAttr, name, prev.pos)
			break
		}
		p.nextTok()
		if !p.expect("=", "after "+name) {
			break
		}
		fp := fieldPos{pos: p.tok.pos}
		arr, ok := p.parseAttr().(*ArrayAttr)
		if !p.ok() {
			break
		}
		if !ok {
			p.failCode(fp.pos, model.CodeBadValue, "%s's %s is a list of bases, each a list of integers", linearAttr, name)
			break
		}
		bases := [][]int{}
		for i, e := range arr.Elems {
			basis, ok := intList(e)
			if !ok {
				p.failCode(arr.Pos[i], model.CodeBadValue, "%s's %s bases are lists of integers, found %s", linearAttr, name, e)
				break
			}
			bases = append(bases, basis)
			fp.elems = append(fp.elems, arr.Pos[i])
		}
		values[name], fields[name] = bases, fp
		if !p.ok() || !p.tok.is(",") {
			break
		}
		p.nextTok()
	}
	if p.ok() && p.tok.kind != tEOF {
		p.failf(p.tok.pos, "expected ',' or the end of %s<...>, found %s", linearAttr, p.tok.describe())
	}
	if p.err != nil {
		b.errs = append(b.errs, p.err)
		return nil, nil
	}
	for _, f := range linearFields {
		if _, ok := values[f]; !ok {
			b.errorf(at, model.CodeMissingKey, "%s lacks %s: it gives every one of %s", linearAttr, f, strings.Join(linearFields, ", "))
			return nil, nil
		}
	}
	fields["warp"] = fields["subgroup"] // the model's name for the subgroup bases
	return &notation.Linear{Register: values["register"], Lane: values["lane"], Warp: values["subgroup"], Block: [][]int{}}, fields
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
