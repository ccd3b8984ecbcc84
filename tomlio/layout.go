package tomlio

import (
	"strings"

	"planner/model"
	"planner/notation"
)

// LayoutFile is a layout file: the frame (shape, lanes, subgroups, blocks),
// an optional element type, and one layout in some notation.
type LayoutFile struct {
	File     string
	Frame    model.Frame
	DType    model.DType // zero when the file gives none
	Notation model.Notation
	Layout   *model.Layout
}

var layoutFileKeys = []string{"shape", "subgroup_size", "subgroups", "blocks", "dtype", "layout"}

// ReadLayoutFile reads and checks a layout file from disk.
func ReadLayoutFile(path string) (*LayoutFile, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseLayoutFile(path, data)
}

// ParseLayoutFile reads a layout file's text.
func ParseLayoutFile(file string, data []byte) (*LayoutFile, error) {
	if err := emptyInput(file, data, "a layout: its shape, subgroup_size, subgroups and [layout] table (docs/layouts.md)"); err != nil {
		return nil, err
	}
	doc, root, err := ParseRoot(file, data, layoutFileKeys)
	if err != nil {
		return nil, err
	}
	lf := &LayoutFile{File: file}
	f, ok := ReadFrame(root)
	lf.Frame = f
	if name, has := root.String("dtype", false); has {
		dt, known := model.ParseDType(name)
		if !known {
			root.Errorf("dtype", model.CodeUnknownName, "unknown element type %q (known: %s)", name, strings.Join(model.DTypeNames(), ", "))
		}
		lf.DType = dt
	}
	tbl, hasLayout := root.Sub("layout", true)
	root.CheckUnknown()
	if hasLayout && ok {
		lf.Notation, lf.Layout = DecodeLayout(tbl, f)
	}
	if lf.Layout == nil && len(doc.Errs) == 0 {
		// Every path that yields no layout records why; this guards the rule.
		root.Errorf("layout", model.CodeMissingKey, "the [layout] table gives no layout")
	}
	if err := doc.Err(); err != nil {
		return nil, err
	}
	return lf, nil
}

// parseRoot parses TOML text and opens its top-level table, which may
// have the given keys.
func ParseRoot(file string, data []byte, keys []string) (*Document, *Table, error) {
	doc, err := Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	root := doc.Root()
	root.Expect(keys...)
	return doc, root, nil
}

// ReadFrame reads shape, subgroup_size, subgroups and blocks from a table
// and checks them.
func ReadFrame(t *Table) (model.Frame, bool) {
	var f model.Frame
	shape, ok1 := t.Ints("shape", true)
	size, ok2 := t.Int("subgroup_size", true)
	sgs, ok3 := t.Int("subgroups", true)
	blocks, ok4 := t.Int("blocks", false)
	if !t.Has("blocks") {
		ok4 = true
		blocks = 1
	}
	f = model.Frame{Shape: shape, SubgroupSize: size, Subgroups: sgs, Blocks: blocks}
	if !(ok1 && ok2 && ok3 && ok4) {
		return f, false
	}
	if blocks < 1 {
		// A frame's 0 blocks means the default of 1 inside the planner;
		// written in a file it is a mistake.
		t.Errorf("blocks", model.CodeBadValue, "blocks = %d: a layout spreads over 1 to 1024 blocks (leave blocks out for 1)", blocks)
		return f, false
	}
	if err := f.Check(); err != nil {
		t.Report(err)
		return f, false
	}
	return f, true
}

// notationKeys lists each notation's keys; aliases map alternative
// spellings to them.
var (
	notationKeys = map[string][]string{
		"nested":  {"subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile", "subgroup_strides", "thread_strides"},
		"xegpu":   {"sg_layout", "sg_data", "inst_data", "lane_layout", "lane_data", "order"},
		"blocked": {"size_per_thread", "threads_per_warp", "warps_per_cta", "order"},
		"linear":  {"register", "lane", "warp", "block"},
		"cute":    {"thread_shape", "thread_stride", "value_shape", "value_stride"},
		"table":   {"rows"},
		"triton":  {"encoding"},
	}
	// XeGPU's earlier names (seed 003 uses both).
	aliases = map[string]map[string]string{
		"xegpu": {"wi_layout": "lane_layout", "wi_data": "lane_data"},
	}
)

// DecodeLayout reads a [layout] table (notation plus that notation's keys)
// and builds the layout for frame f. Problems are recorded in the table's
// document; the results are nil then.
func DecodeLayout(t *Table, f model.Frame) (model.Notation, *model.Layout) {
	n := decodeNotation(t)
	if n == nil {
		return nil, nil
	}
	l, err := n.Layout(f)
	if err != nil {
		reportLayoutError(t, err)
		return nil, nil
	}
	return n, l
}

// decodeNotation reads a layout table's notation and that notation's keys,
// without building the layout. Problems are recorded in the table's
// document; the result is nil then.
func decodeNotation(t *Table) model.Notation {
	t.Expect("notation")
	kind, ok := t.String("notation", true)
	if !ok {
		// A notation of the wrong type is reported; the keys of the
		// notation meant are not unknown because of it.
		if t.Has("notation") {
			return nil
		}
		t.CheckUnknown()
		return nil
	}
	keys, known := notationKeys[kind]
	if !known {
		t.Errorf("notation", model.CodeUnknownName, "unknown notation %q (expected one of %s)", kind, strings.Join(notation.Kinds, ", "))
		return nil
	}
	before := len(t.doc.Errs)
	all := append([]string{"notation"}, keys...)
	for alias := range aliases[kind] {
		all = append(all, alias)
	}
	t.Expect(all...)
	get := func(key string, required bool) []int {
		for alias, real := range aliases[kind] {
			if real == key && t.Has(alias) {
				if t.Has(key) {
					t.Errorf(alias, model.CodeDuplicate, "%q and %q name the same field; give one", alias, key).Related = []model.Pos{t.Pos(key)}
					t.get(key)
				}
				v, _ := t.Ints(alias, required)
				return v
			}
		}
		v, _ := t.Ints(key, required)
		return v
	}
	var n model.Notation
	switch kind {
	case "nested":
		n = &notation.Nested{
			SubgroupTile: get("subgroup_tile", true), BatchTile: get("batch_tile", true), OuterTile: get("outer_tile", true),
			ThreadTile: get("thread_tile", true), ElementTile: get("element_tile", true),
			SubgroupStrides: get("subgroup_strides", true), ThreadStrides: get("thread_strides", true),
		}
	case "xegpu":
		n = &notation.XeGPU{
			SgLayout: get("sg_layout", false), SgData: get("sg_data", false), InstData: get("inst_data", false),
			LaneLayout: get("lane_layout", false), LaneData: get("lane_data", false), Order: get("order", false),
		}
	case "blocked":
		n = &notation.Blocked{
			SizePerThread: get("size_per_thread", true), ThreadsPerWarp: get("threads_per_warp", true),
			WarpsPerCTA: get("warps_per_cta", true), Order: get("order", true),
		}
	case "linear":
		lists := func(key string, required bool) [][]int {
			v, _ := t.IntLists(key, required)
			if v == nil && !required {
				v = [][]int{}
			}
			return v
		}
		n = &notation.Linear{Register: lists("register", true), Lane: lists("lane", true), Warp: lists("warp", true), Block: lists("block", false)}
	case "cute":
		n = &notation.CuTe{ThreadShape: get("thread_shape", true), ThreadStride: get("thread_stride", true),
			ValueShape: get("value_shape", true), ValueStride: get("value_stride", true)}
	case "table":
		rows, _ := t.IntLists("rows", true)
		n = &notation.Table{Rows: rows}
	case "triton":
		if text, ok := t.String("encoding", true); ok {
			tn, err := notation.ParseTriton(text, t.TextPos("encoding"))
			if err != nil {
				t.Report(err)
			}
			n = tn
		}
	}
	t.CheckUnknown(append([]string{"notation"}, keys...)...)
	if len(t.doc.Errs) > before {
		return nil
	}
	return n
}

// reportLayoutError records the error of building a layout table's layout.
func reportLayoutError(t *Table, err error) {
	// Problems with the frame's own keys are reported where those keys
	// are written: in the table holding the [layout] table (the top of a
	// layout file; a plan's [values."v".exact]).
	if e, ok := err.(*model.Error); ok && isFrameKey(e.Field) {
		parent := ""
		if i := strings.LastIndex(t.path, "."); i >= 0 {
			parent = t.path[:i]
		}
		(&Table{doc: t.doc, path: parent}).Report(err)
	} else {
		t.Report(err)
	}
}

func isFrameKey(k string) bool {
	switch k {
	case "shape", "subgroup_size", "subgroups", "blocks":
		return true
	}
	return false
}
