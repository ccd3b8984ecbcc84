package vector

import (
	"strings"

	"planner/mlir/ir"
	"planner/model"
	"planner/notation"
)

// nestedFields are #iree_vector_ext.nested_layout's fields, each a list
// with one entry per dimension (IREE's VectorExtAttrs.td, NestedLayoutAttr).
var nestedFields = []string{"subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile", "subgroup_strides", "thread_strides"}

// nestedLayout reads a nested_layout's body, field = [entries], ...,
// reporting a field it lacks, one it does not know, one given twice and
// an entry that is not an integer at its file:line:col.
func (b *builder) nestedLayout(da *ir.DialectAttr, at model.Pos) (*notation.Nested, map[string]ir.FieldPos) {
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
		b.Errorf(at, model.CodeMissingKey, "nested_layout lacks %s: it gives every one of %s", strings.Join(missing, ", "), strings.Join(nestedFields, ", "))
		return nil, nil
	}
	return &notation.Nested{
		SubgroupTile: values["subgroup_tile"], BatchTile: values["batch_tile"], OuterTile: values["outer_tile"],
		ThreadTile: values["thread_tile"], ElementTile: values["element_tile"],
		SubgroupStrides: values["subgroup_strides"], ThreadStrides: values["thread_strides"],
	}, fields
}

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
func (b *builder) xegpuLayout(da *ir.DialectAttr, at model.Pos) (*notation.XeGPU, map[string]ir.FieldPos) {
	values, fields, ok := b.intFields(da, da.Name, xegpuFields, xegpuAliases)
	if !ok {
		return nil, nil
	}
	if len(values) == 0 {
		b.Errorf(at, model.CodeMissingKey, "#%s<> gives no field: it gives some of %s", da.Name, strings.Join(xegpuFields, ", "))
		return nil, nil
	}
	return &notation.XeGPU{
		SgLayout: values["sg_layout"], SgData: values["sg_data"], InstData: values["inst_data"],
		LaneLayout: values["lane_layout"], LaneData: values["lane_data"], Order: values["order"],
	}, fields
}

// linearLayout reads a #planner.linear<...> body, reporting a field it
// lacks, one it does not know, one given twice and a basis that is not a
// list of integers at its file:line:col.
func (b *builder) linearLayout(da *ir.DialectAttr, at model.Pos) (*notation.Linear, map[string]ir.FieldPos) {
	values, fields, err := ir.LinearBases(b.Mod, da)
	if err != nil {
		b.Errs = append(b.Errs, err)
		return nil, nil
	}
	for _, f := range ir.LinearFields {
		if _, ok := values[f]; !ok {
			b.Errorf(at, model.CodeMissingKey, "%s lacks %s: it gives every one of %s", ir.LinearAttr, f, strings.Join(ir.LinearFields, ", "))
			return nil, nil
		}
	}
	fields["warp"] = fields["subgroup"] // the model's name for the subgroup bases
	return &notation.Linear{Register: values["register"], Lane: values["lane"], Warp: values["subgroup"], Block: [][]int{}}, fields
}

// intFields reads a layout attribute's body as lists of integers by
// field (intFields); its mistakes are reported.
func (b *builder) intFields(da *ir.DialectAttr, what string, known []string, alias map[string]string) (map[string][]int, map[string]ir.FieldPos, bool) {
	values, fields, err := ir.IntFields(b.Mod, da, what, known, alias)
	if err != nil {
		b.Errs = append(b.Errs, err)
		return nil, nil, false
	}
	return values, fields, true
}
