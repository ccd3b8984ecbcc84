package mlir

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// Solved is what WritePlan writes into the IR: the solved graph (read
// from the same text with the same options) and its assignment.
type Solved struct {
	Graph      *model.Graph
	Assignment *model.Assignment
}

// ireeMMA names the MMA records IREE has an intrinsic for by IREE's name
// of it: the MMAIntrinsic enum of iree-org/iree,
// compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/IREEGPUEnums.td,
// which IREE writes on a vector.contract as iree.amdgpu.mma =
// #iree_gpu.mma_layout<NAME> (its LLVMGPU vector-distribution tests).
// A record not listed here is written by its own name.
var ireeMMA = map[string]string{
	"mfma_f32_16x16x16_f16":     "MFMA_F32_16x16x16_F16",
	"mfma_f32_32x32x8_f16":      "MFMA_F32_32x32x8_F16",
	"mfma_f32_16x16x16_bf16_1k": "MFMA_F32_16x16x16_BF16",
	"wmma_f32_16x16x16_f16":     "WMMA_F32_16x16x16_F16",
}

// edit replaces src[off:end] with text; edits at the same offset keep the
// order they were made in.
type edit struct {
	off, end int
	text     string
}

// WritePlan writes the MLIR text data back with the plan in it: every
// vector value the plan lays out anchored by an iree_vector_ext.to_layout
// after its definition (its uses reading the anchor), each conversion an
// explicit to_layout before the op that reads the value in the new
// layout, the chosen intrinsic on every vector.contract and the placement
// on every shared-memory alloc. Everything else is the input byte for
// byte. opt must be the options the graph was read with.
func WritePlan(w io.Writer, file string, data []byte, opt Options, s Solved) error {
	m, err := Parse(file, data)
	if err != nil {
		return err
	}
	b, err := build(m, opt)
	if err != nil {
		return err
	}
	if b.tt {
		return writeTTGIR(w, b, string(data), s)
	}
	wr := &writer{b: b, src: string(data), s: s, names: map[string]bool{}, rename: map[*Operand]string{},
		solved: map[string]*model.Value{}, ops: map[model.Pos]*Op{}}
	for _, v := range s.Graph.Values {
		wr.solved[v.Name] = v
	}
	wr.walk(b.fn)
	wr.pins(b.fn.Regions[0].Blocks[0])
	wr.conversions()
	wr.intrinsics()
	wr.buffers()
	for o, name := range wr.rename {
		wr.edits = append(wr.edits, edit{o.Span.Off, o.Span.End, name})
	}
	slices.SortStableFunc(wr.edits, func(x, y edit) int { return x.off - y.off })
	var out strings.Builder
	at := 0
	for _, e := range wr.edits {
		out.WriteString(wr.src[at:e.off])
		out.WriteString(e.text)
		at = e.end
	}
	out.WriteString(wr.src[at:])
	_, err = io.WriteString(w, out.String())
	return err
}

type writer struct {
	b      *builder
	src    string
	s      Solved
	solved map[string]*model.Value // the solved graph's values by name
	ops    map[model.Pos]*Op       // the function's ops by position
	names  map[string]bool         // every value name the IR uses
	// rename gives the uses that read an anchor or a conversion instead
	// of the value they name.
	rename map[*Operand]string
	// anchor is the name of each value's anchor.
	anchor map[*Value]string
	edits  []edit
}

// walk records the function's ops by position and the names in use.
func (wr *writer) walk(op *Op) {
	wr.ops[op.Pos] = op
	noteNames(op, wr.names)
	for _, reg := range op.Regions {
		for _, blk := range reg.Blocks {
			for _, o := range blk.Ops {
				wr.walk(o)
			}
		}
	}
}

// noteNames records the names op's results and its regions' block
// arguments take.
func noteNames(op *Op, names map[string]bool) {
	for _, r := range op.Results {
		base, _, _ := strings.Cut(r.Name, "#")
		names[base] = true
	}
	for _, reg := range op.Regions {
		for _, blk := range reg.Blocks {
			for _, a := range blk.Args {
				names[a.Name] = true
			}
		}
	}
}

// fresh makes a value name the IR does not use, from base.
func (wr *writer) fresh(base string) string { return freshName(wr.names, base) }

// freshName makes a name not in names, from base, and records it.
func freshName(names map[string]bool, base string) string {
	base = strings.ReplaceAll(base, "#", "_")
	if base[0] >= '0' && base[0] <= '9' {
		base = "v" + base // a name that starts with a digit is all digits
	}
	name := base
	for i := 2; names[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	names[name] = true
	return name
}

// layoutOf is the layout the plan gives the graph value named name.
func (wr *writer) layoutOf(name string) *model.Layout {
	if v := wr.solved[name]; v != nil {
		return wr.s.Assignment.Layouts[v]
	}
	return nil
}

// layoutAttr writes a layout as IREE's nested_layout where that notation
// can write it, else as #planner.linear<...> with a comment saying why.
func layoutAttr(l *model.Layout) (attr, why string) {
	n, err := model.Express("nested", l)
	if err == nil {
		return n.Attr(), ""
	}
	x, lerr := model.ExpressLinear(l)
	if lerr != nil {
		return "", err.Error() + "; " + lerr.Error()
	}
	return fmt.Sprintf("#%s<register = %s, lane = %s, subgroup = %s>", linearAttr, bases(x.Register), bases(x.Lane), bases(x.Warp)), err.Error()
}

func bases(ls [][]int) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		s := make([]string, len(l))
		for j, c := range l {
			s[j] = strconv.Itoa(c)
		}
		parts[i] = "[" + strings.Join(s, ", ") + "]"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// toLayout is the statement that anchors value src (written as it is
// read there) of type t to layout l, defining name; with a comment line
// before it when the layout is not nested. ok is false when no attribute
// writes l.
func toLayout(name, src string, t Type, l *model.Layout, indent string) (string, bool) {
	attr, why := layoutAttr(l)
	if attr == "" {
		return fmt.Sprintf("%s// planner: %s's layout is written in no notation an attribute has: %s\n", indent, src, why), false
	}
	var b strings.Builder
	if why != "" {
		fmt.Fprintf(&b, "%s// planner: %s in linear bases, as IREE's nested_layout cannot write it (%s)\n", indent, src, why)
	}
	fmt.Fprintf(&b, "%s%%%s = \"iree_vector_ext.to_layout\"(%s) <{layout = %s}> : (%s) -> %s\n", indent, name, src, attr, t, t)
	return b.String(), true
}

// lineAfter is where a statement goes after the text ending at off: the
// start of the next line when the rest of this one is blank or a comment.
func (wr *writer) lineAfter(off int) (int, bool) {
	nl := strings.IndexByte(wr.src[off:], '\n')
	if nl < 0 {
		return len(wr.src), false
	}
	rest := strings.TrimSpace(wr.src[off : off+nl])
	return off + nl + 1, rest == "" || strings.HasPrefix(rest, "//")
}

// indentOf is the indentation of the line holding off.
func (wr *writer) indentOf(off int) string {
	start := strings.LastIndexByte(wr.src[:off], '\n') + 1
	end := start
	for end < len(wr.src) && (wr.src[end] == ' ' || wr.src[end] == '\t') {
		end++
	}
	return wr.src[start:end]
}

// insertAfter puts stmt (whole lines, each ending in a newline) after the
// text ending at off, indented like the line at from.
func (wr *writer) insertAfter(off int, stmt string) {
	at, own := wr.lineAfter(off)
	if !own {
		stmt = "\n" + strings.TrimSuffix(stmt, "\n")
		at = off
	}
	wr.edits = append(wr.edits, edit{at, at, stmt})
}

// insertBefore puts stmt before the op, on lines of its own.
func (wr *writer) insertBefore(op *Op, stmt string) {
	start := strings.LastIndexByte(wr.src[:op.Span.Off], '\n') + 1
	if strings.TrimSpace(wr.src[start:op.Span.Off]) == "" {
		wr.edits = append(wr.edits, edit{start, start, stmt})
		return
	}
	wr.edits = append(wr.edits, edit{op.Span.Off, op.Span.Off, strings.TrimLeft(stmt, " \t") + wr.indentOf(op.Span.Off)})
}

// pinnable is the graph value an IR value is when the plan can anchor it:
// a vector value the graph holds under its own name, not pinned already.
func (wr *writer) pinnable(v *Value) *model.Value {
	if _, ok := v.Type.(*VectorType); !ok {
		return nil
	}
	gv := wr.b.vals[v]
	if gv == nil || gv.Name != v.Name || gv.Pin != nil {
		return nil
	}
	return gv
}

// pins anchors every value the block (and the blocks inside it) defines.
func (wr *writer) pins(blk *Block) {
	if wr.anchor == nil {
		wr.anchor = map[*Value]string{}
	}
	var args []*Value
	for _, a := range blk.Args {
		if wr.pinnable(a) != nil {
			args = append(args, a)
		}
	}
	if len(args) > 0 && len(blk.Ops) > 0 {
		// Before the block's first op: after its label, where it has one.
		first := blk.Ops[0]
		if stmts := wr.anchors(args, wr.indentOf(first.Span.Off)); stmts != "" {
			wr.insertBefore(first, stmts)
		}
	}
	for _, op := range blk.Ops {
		for _, r := range op.Regions {
			for _, inner := range r.Blocks {
				wr.pins(inner)
			}
		}
		if stmts := wr.anchors(op.Results, wr.indentOf(op.Span.Off)); stmts != "" {
			wr.insertAfter(op.Span.End, stmts)
		}
	}
}

// anchors writes an anchor for each pinnable value, and points the
// value's uses at it: the statements, to go after the values' definition.
func (wr *writer) anchors(vals []*Value, indent string) string {
	var stmts strings.Builder
	for _, v := range vals {
		gv := wr.pinnable(v)
		if gv == nil {
			continue
		}
		l := wr.layoutOf(gv.Name)
		if l == nil {
			continue
		}
		name := wr.fresh(strings.TrimPrefix(v.String(), "%") + "_l")
		stmt, ok := toLayout(name, v.String(), v.Type, l, indent)
		stmts.WriteString(stmt)
		if !ok {
			continue
		}
		wr.anchor[v] = "%" + name
		for _, u := range v.Uses {
			wr.rename[u.Op.Operands[u.Index]] = "%" + name
		}
	}
	return stmts.String()
}

// graphName is the name of the graph value an operand reads.
func (wr *writer) graphName(o *Operand) string {
	if v, ok := wr.b.folded[o.Value]; ok && v != nil {
		return v.Name
	}
	if v := wr.b.vals[o.Value]; v != nil {
		return v.Name
	}
	return ""
}

// conversions writes each conversion the plan has as a to_layout to the
// layout the consumer reads, before the consumer, or as a comment where
// the value converted is one the reader made (no IR value is it).
func (wr *writer) conversions() {
	a := wr.s.Assignment
	wr.s.Graph.Walk(func(op *model.Op) {
		for _, u := range model.OpUses(op) {
			v := model.UseValue(u)
			wr.convert(u, v, a.Required[u], a.Layouts[v])
		}
	})
}

func (wr *writer) convert(u model.Use, v *model.Value, req, have *model.Layout) {
	if req == nil || have == nil || req.InShared() || have.InShared() || req.Equal(have) {
		return
	}
	irOp := wr.ops[u.Op.Pos]
	if irOp != nil && u.Yield && len(irOp.Regions) > 0 && len(irOp.Regions[0].Blocks) > 0 {
		ops := irOp.Regions[0].Blocks[0].Ops
		irOp = nil
		if len(ops) > 0 {
			irOp = ops[len(ops)-1]
		}
	}
	var operand *Operand
	if irOp != nil {
		for _, o := range irOp.Operands {
			anchored := o.Value.Def != nil && o.Value.Def.Name == "iree_vector_ext.to_layout"
			if wr.graphName(o) == v.Name && (o.Value.Name == v.Name || anchored) {
				operand = o
				break
			}
		}
	}
	if operand == nil {
		if irOp != nil {
			attr, _ := layoutAttr(req)
			wr.insertBefore(irOp, fmt.Sprintf("%s// planner: %s reads %%%s converted to %s (no IR value is read as it there)\n", wr.indentOf(irOp.Span.Off), u.Op.Name, v.Name, attr))
		}
		return
	}
	src := operand.Value.String()
	if name, ok := wr.anchor[operand.Value]; ok {
		src = name
	}
	name := wr.fresh(strings.TrimPrefix(operand.Value.String(), "%") + "_cv")
	stmt, ok := toLayout(name, src, operand.Value.Type, req, wr.indentOf(irOp.Span.Off))
	wr.insertBefore(irOp, stmt)
	if ok {
		wr.rename[operand] = "%" + name
	}
}

// intrinsics writes the chosen record on every vector.contract: IREE's
// iree.amdgpu.mma = #iree_gpu.mma_layout<NAME> for the records IREE
// names, planner.intrinsic = "record" for the others.
func (wr *writer) intrinsics() {
	for mv, gv := range wr.b.vals {
		if mv.Def == nil || mv.Def.Name != "vector.contract" || gv.Def == nil || gv.Def.Name != gv.Name {
			continue
		}
		solved := wr.solved[gv.Name]
		if solved == nil || solved.Def == nil {
			continue
		}
		ch := wr.s.Assignment.Ops[solved.Def]
		if ch == nil || ch.Record == nil {
			continue
		}
		attr := fmt.Sprintf("planner.intrinsic = %q", ch.Record.Name)
		if iree, ok := ireeMMA[ch.Record.Name]; ok {
			attr = fmt.Sprintf("iree.amdgpu.mma = #iree_gpu.mma_layout<%s>", iree)
		}
		wr.addAttr(mv.Def, attr)
	}
}

// addAttr adds name = value entries (attr, comma-separated) to the op's
// attribute dictionary, or gives it one. Where the op already has an
// entry of one of those names (a plan written into IR that had one
// already), the dictionary is written anew from its other entries and
// the new ones, so that no name is given twice.
func (wr *writer) addAttr(op *Op, attr string) {
	d := op.Dict
	if d != (Span{}) && d.End > d.Off {
		replaced := false
		var kept []string
		for _, a := range op.Attrs {
			if strings.Contains(", "+attr, ", "+a.Name+" = ") {
				replaced = true
				continue
			}
			if _, unit := a.Value.(UnitAttr); unit || a.Value == nil {
				kept = append(kept, a.Name)
			} else {
				kept = append(kept, a.Name+" = "+a.Value.String())
			}
		}
		if replaced {
			wr.edits = append(wr.edits, edit{d.Off, d.End, "{" + strings.Join(append(kept, attr), ", ") + "}"})
			return
		}
	}
	switch {
	case d == (Span{}):
		return
	case d.End == d.Off:
		wr.edits = append(wr.edits, edit{d.Off, d.Off, "{" + attr + "} "})
	case strings.TrimSpace(wr.src[d.Off+1:d.End-1]) == "":
		wr.edits = append(wr.edits, edit{d.Off, d.End, "{" + attr + "}"})
	default:
		wr.edits = append(wr.edits, edit{d.End - 1, d.End - 1, ", " + attr})
	}
}

// buffers writes each shared buffer's placement on its memref.alloc.
func (wr *writer) buffers() {
	placed := map[string]*model.SharedLayout{}
	for buf, sl := range wr.s.Assignment.Buffers {
		placed[buf.Name] = sl
	}
	for mv, buf := range wr.b.bufs {
		sl := placed[buf.Name]
		if sl == nil || mv.Def == nil {
			continue
		}
		attr := fmt.Sprintf("planner.placement = %q, planner.shared_layout = %q", sl.Describe(), sl.String())
		if sl.Pad == 0 && sl.Stride != 0 && sl.Stride != sl.Cols {
			attr += fmt.Sprintf(", planner.row_stride = %d", sl.Stride)
		}
		if sl.Swizzle != "" && sl.Swizzle != "none" {
			attr += fmt.Sprintf(", planner.swizzle = %q", sl.Swizzle)
		}
		wr.addAttr(mv.Def, attr)
	}
}
