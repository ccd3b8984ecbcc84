package vector

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

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

// Write writes the kernel read from src back with the plan pl in it
// (mlir.WritePlan says how).
func (b *builder) Write(w io.Writer, src string, pl *reader.Planned) error {
	file := b.Mod.File
	wr := &writer{b: b, src: src, plan: pl, names: map[string]bool{}, rename: map[*ir.Operand]string{},
		ops: map[model.Pos]*ir.Op{}, notation: "nested", rw: ir.NewRewriter(file, src)}
	if b.xegpu {
		wr.notation = "xegpu"
	}
	wr.walk(b.Fn)
	if wr.notation == "xegpu" {
		wr.sliceForms()
	}
	wr.pins(b.Fn.Regions[0].Blocks[0])
	wr.conversions()
	wr.intrinsics()
	wr.buffers()
	wr.descriptors()
	wr.flushAttrs()
	for o, name := range wr.rename {
		wr.rw.Replace(o.Span.Off, o.Span.End, name)
	}
	out, err := wr.rw.Apply()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, out)
	return err
}

type writer struct {
	b     *builder
	src   string
	plan  *reader.Planned      // the plan written
	ops   map[model.Pos]*ir.Op // the function's ops by position
	names map[string]bool      // every value name the IR uses
	// rename gives the uses that read an anchor or a conversion instead
	// of the value they name.
	rename map[*ir.Operand]string
	// anchor is the name of each value's anchor.
	anchor map[*ir.Value]string
	rw     *ir.Rewriter // the edits, applied once
	// attrs are the attribute entries to add, by op; comments the lines
	// that say why one is in linear bases.
	attrs    map[*ir.Op][]string
	comments []comment
	// slices are the layouts written as XeGPU writes a reduction's result
	// and a broadcast's operand: a slice of another value's layout.
	slices []sliceForm
	// notation is the flavour of IR written: "nested" (IREE's to_layout
	// anchors) or "xegpu" (layout_result_N attributes, tensor_desc
	// layouts, xegpu.convert_layout).
	notation string
}

// walk records the function's ops by position and the names in use.
func (wr *writer) walk(op *ir.Op) {
	wr.ops[op.Pos] = op
	ir.NoteNames(op, wr.names)
	for _, reg := range op.Regions {
		for _, blk := range reg.Blocks {
			for _, o := range blk.Ops {
				wr.walk(o)
			}
		}
	}
}

// fresh makes a value name the IR does not use, from base.
func (wr *writer) fresh(base string) string { return ir.FreshName(wr.names, base) }

// layoutOf is the layout the plan gives the graph value named name.
func (wr *writer) layoutOf(name string) *model.Layout { return wr.plan.Layouts[name] }

// layoutAttr writes a layout as IREE's nested_layout where that notation
// can write it, else as #planner.linear<...> with a comment saying why.
func layoutAttr(l *model.Layout) (attr, why string) { return attrIn("nested", l) }

// attrWith is attrIn, an XeGPU layout written with lane_data want where
// that is the same layout (nil: as the notation chooses).
func attrWith(kind string, l *model.Layout, want []int) (attr, why string) {
	if kind == "xegpu" && want != nil {
		if x, err := notation.ExpressXeGPU(l); err == nil {
			return x.WithLaneData(l, want).Attr(), ""
		}
	}
	return attrIn(kind, l)
}

// laneData is the lane_data XeGPU writes for a vector of type t used as
// uses are: a 16-bit (or narrower) DPAS B packed to 32 bits along K, [2,
// 1] for 16 bits; any other value packed to 16 bits along its last
// dimension, [1, 1] for 16 bits and more (llvm-project
// mlir/lib/Dialect/XeGPU/Transforms/XeGPUPropagateLayout.cpp,
// getSIMTLayoutInfoForDPASOperand and getDefaultSIMTLayoutInfo, with the
// packing sizes of mlir/include/mlir/Dialect/XeGPU/IR/XeGPUTargetInfo.h);
// nil for no vector.
func laneData(t ir.Type, uses []ir.Use) []int {
	vt, ok := t.(*ir.VectorType)
	if !ok || len(vt.Shape) == 0 {
		return nil
	}
	dt, ok := ir.DType(vt.Elem)
	if !ok || dt.Bits <= 0 {
		return nil
	}
	want := make([]int, len(vt.Shape))
	for i := range want {
		want[i] = 1
	}
	for _, u := range uses {
		if u.Op.Name == "xegpu.dpas" && u.Index == 1 && len(want) == 2 && dt.Bits < 32 {
			want[0] = 32 / dt.Bits
			return want
		}
	}
	if dt.Bits < 16 {
		want[len(want)-1] = 16 / dt.Bits
	}
	return want
}

// attrIn writes a layout as notation kind (nested, xegpu) writes it as an
// attribute where that notation can, else as #planner.linear<...>, and
// then says why kind cannot.
func attrIn(kind string, l *model.Layout) (attr, why string) {
	n, err := notation.Express(kind, l)
	if err == nil {
		return n.Attr(), ""
	}
	x, lerr := notation.ExpressLinear(l)
	if lerr != nil {
		return "", err.Error() + "; " + lerr.Error()
	}
	return fmt.Sprintf("#%s<register = %s, lane = %s, subgroup = %s>", ir.LinearAttr, bases(x.Register), bases(x.Lane), bases(x.Warp)), err.Error()
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

// notationName names the notation a flavour of IR writes layouts in, for
// the comments that say it cannot.
var notationName = map[string]string{"nested": "IREE's nested_layout", "xegpu": "XeGPU's layout"}

// layoutText writes layout l as an attribute in the writer's notation
// (attr), with the comment line to put before the statement that carries
// it where that notation cannot write it; ok is false when no attribute
// writes l (the comment then says so).
// want is the lane_data XeGPU writes for the value (nil: any).
func (wr *writer) layoutText(src string, l *model.Layout, want []int, indent string) (attr, comment string, ok bool) {
	attr, why := attrWith(wr.notation, l, want)
	if sl := wr.sliceOf(l); sl != "" {
		attr, why = sl, ""
	}
	switch {
	case attr == "":
		return "", fmt.Sprintf("%s// planner: %s's layout is written in no notation an attribute has: %s\n", indent, src, why), false
	case why != "":
		comment = fmt.Sprintf("%s// planner: %s in linear bases, as %s cannot write it (%s)\n", indent, src, notationName[wr.notation], why)
	}
	return attr, comment, true
}

// toLayout is the statement that puts value src (written as it is read
// there) of type t, in layout have, into layout l, defining name: IREE's
// iree_vector_ext.to_layout, or XeGPU's xegpu.convert_layout from have
// (an anchor when have is l); with a comment line before it when the
// notation cannot write a layout. ok is false when no attribute writes
// one.
func (wr *writer) toLayout(name, src string, t ir.Type, have, l *model.Layout, uses []ir.Use, indent string) (string, bool) {
	attr, comment, ok := wr.layoutText(src, l, laneData(t, uses), indent)
	if !ok {
		return comment, false
	}
	var b strings.Builder
	if wr.notation != "xegpu" {
		b.WriteString(comment)
		fmt.Fprintf(&b, "%s%%%s = \"iree_vector_ext.to_layout\"(%s) <{layout = %s}> : (%s) -> %s\n", indent, name, src, attr, t, t)
		return b.String(), true
	}
	in := attr
	if have != nil && !have.Equal(l) {
		var c string
		if in, c, ok = wr.layoutText(src+"'s layout", have, laneData(t, nil), indent); !ok {
			return c, false
		}
		b.WriteString(c)
		if attr, comment, _ = wr.layoutText("the layout "+src+" is converted to", l, laneData(t, uses), indent); comment != "" {
			b.WriteString(comment)
		}
	} else {
		b.WriteString(comment)
	}
	// xegpu.convert_layout's assembly format: $source prop-dict attr-dict
	// `:` type($source) (XeGPUOps.td, XeGPU_ConvertLayoutOp; its layouts
	// as input_layout and target_layout in mlir/test/Dialect/XeGPU/layout.mlir).
	fmt.Fprintf(&b, "%s%%%s = xegpu.convert_layout %s <{input_layout = %s, target_layout = %s}> : %s\n", indent, name, src, in, attr, t)
	return b.String(), true
}

// sliceForm is a layout and the #xegpu.slice<...> that writes it.
type sliceForm struct {
	l    *model.Layout
	attr string
}

// sliceForms finds the layouts XeGPU writes as slices: a
// vector.multi_reduction's result, the slice of its source's layout along
// the dimensions it reduces, and a vector.broadcast's source, the slice
// of its result's along the dimensions it adds (llvm-project
// mlir/lib/Dialect/XeGPU/Transforms/XeGPUPropagateLayout.cpp gives them
// #xegpu.slice layouts; mlir/test/Dialect/XeGPU/propagate-layout.mlir),
// where the plan's layouts are so related and the larger one is an XeGPU
// layout.
func (wr *writer) sliceForms() {
	for _, op := range wr.sortedOps() {
		var full, part *ir.Value
		var dims []int
		switch op.Name {
		case "vector.multi_reduction":
			d, ok := reader.IntsAttr(op, "reduction_dims")
			if !ok || len(op.Results) != 1 || len(op.Operands) == 0 {
				continue
			}
			full, part, dims = op.Operands[0].Value, op.Results[0], d
		case "vector.broadcast":
			src, ok1 := op.Operands[0].Value.Type.(*ir.VectorType)
			dst, ok2 := op.Results[0].Type.(*ir.VectorType)
			if !ok1 || !ok2 || len(dst.Shape) <= len(src.Shape) || !slices.Equal(dst.Shape[len(dst.Shape)-len(src.Shape):], src.Shape) {
				continue
			}
			full, part = op.Results[0], op.Operands[0].Value
			for d := range len(dst.Shape) - len(src.Shape) {
				dims = append(dims, d)
			}
		default:
			continue
		}
		fl, pl := wr.irLayout(full), wr.irLayout(part)
		if op.Name == "vector.multi_reduction" {
			// The reduction runs in the layout it reads its source in,
			// the plan's conversion's where it converts the source.
			fl = wr.readIn(part, fl)
		}
		if fl == nil || pl == nil {
			continue
		}
		if sl := model.SliceDims(fl, dims); sl == nil || !sl.Equal(pl) {
			continue
		}
		x, err := notation.ExpressXeGPU(fl)
		if err != nil {
			continue
		}
		x = x.WithLaneData(fl, laneData(full.Type, full.Uses))
		s := &notation.XeGPUSlice{Parent: x, Dims: dims}
		if back, err := s.Layout(model.FrameOf(pl)); err != nil || !back.Equal(pl) {
			continue // read back, it would not be the layout
		}
		wr.slices = append(wr.slices, sliceForm{pl, s.Attr()})
	}
}

// irLayout is the layout the plan gives the graph value IR value v reads
// as; nil for none.
func (wr *writer) irLayout(v *ir.Value) *model.Layout {
	gv := wr.b.Folded[v]
	if gv == nil {
		gv = wr.b.Vals[v]
	}
	if gv == nil {
		return nil
	}
	return wr.layoutOf(gv.Name)
}

// readIn is the layout the graph op that makes IR value result reads
// its first operand in: the layout a conversion of the plan converts it
// to there, else have, the operand's own.
func (wr *writer) readIn(result *ir.Value, have *model.Layout) *model.Layout {
	gv := wr.b.Vals[result]
	if gv == nil || gv.Def == nil {
		return have
	}
	for _, c := range wr.plan.Conv {
		// The plan's ops may be another read's of the same text: the op
		// is known by its name and position, as convert finds it.
		if u := c.Use(); u.Op != nil && u.Op.Name == gv.Def.Name && u.Op.Pos == gv.Def.Pos && u.Index == 0 && !u.Yield {
			return c.Required()
		}
	}
	return have
}

// sliceOf is the #xegpu.slice that writes l, where sliceForms found one.
func (wr *writer) sliceOf(l *model.Layout) string {
	for _, s := range wr.slices {
		if s.l.Equal(l) {
			return s.attr
		}
	}
	return ""
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
	wr.rw.Insert(at, stmt)
}

// insertBefore puts stmt before the op, on lines of its own.
func (wr *writer) insertBefore(op *ir.Op, stmt string) {
	start := strings.LastIndexByte(wr.src[:op.Span.Off], '\n') + 1
	if strings.TrimSpace(wr.src[start:op.Span.Off]) == "" {
		wr.rw.Insert(start, stmt)
		return
	}
	wr.rw.Insert(op.Span.Off, strings.TrimLeft(stmt, " \t")+wr.indentOf(op.Span.Off))
}

// pinnable is the graph value an IR value is when the plan can anchor it:
// a vector value the graph holds under its own name, not pinned already,
// and not a lane's share of a matrix op's tile (mma_lane.go: the IR fixed
// its layout, and a to_layout of the tile's layout would not type).
func (wr *writer) pinnable(v *ir.Value) *model.Value {
	if _, ok := v.Type.(*ir.VectorType); !ok || wr.b.lane[v] {
		return nil
	}
	gv := wr.b.Vals[v]
	if gv == nil || gv.Name != v.Name || gv.Pin != nil || wr.onlyMadeAtAccess(v) {
		return nil
	}
	return gv
}

// onlyMadeAtAccess reports whether every use of v is an operand an
// access makes in its own layout (a constant mask, a vector.step of
// indices): an anchor would only give v a layout the access does not read
// it in.
func (wr *writer) onlyMadeAtAccess(v *ir.Value) bool {
	for _, u := range v.Uses {
		if !wr.b.madeAtAccess[u.Op.Operands[u.Index]] {
			return false
		}
	}
	return len(v.Uses) > 0
}

// toPin is the layout the plan gives an IR value the writer pins; nil
// when it pins none.
func (wr *writer) toPin(v *ir.Value) *model.Layout {
	if gv := wr.pinnable(v); gv != nil {
		return wr.layoutOf(gv.Name)
	}
	return nil
}

// pins anchors every value the block (and the blocks inside it) defines.
func (wr *writer) pins(blk *ir.Block) {
	if wr.anchor == nil {
		wr.anchor = map[*ir.Value]string{}
	}
	var args []*ir.Value
	for _, a := range blk.Args {
		if wr.pinnable(a) != nil {
			args = append(args, a)
		}
	}
	if wr.notation == "xegpu" && blk == wr.b.Fn.Regions[0].Blocks[0] {
		args = wr.operandAttrs(args)
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
		if wr.notation == "xegpu" && op.Dict != (ir.Span{}) {
			wr.resultAttrs(op)
			continue
		}
		if stmts := wr.anchors(op.Results, wr.indentOf(op.Span.Off)); stmts != "" {
			wr.insertAfter(op.Span.End, stmts)
		}
	}
}

// anchors writes an anchor for each pinnable value, and points the
// value's uses at it: the statements, to go after the values' definition.
func (wr *writer) anchors(vals []*ir.Value, indent string) string {
	var stmts strings.Builder
	for _, v := range vals {
		l := wr.toPin(v)
		if l == nil {
			continue
		}
		name := wr.fresh(strings.TrimPrefix(v.String(), "%") + "_l")
		stmt, ok := wr.toLayout(name, v.String(), v.Type, nil, l, v.Uses, indent)
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

// operandAttrs writes the layout the plan gives each of a function's
// vector arguments as XeGPU anchors an operand: a layout_operand_N
// attribute on every op that reads it (llvm-project
// mlir/lib/Dialect/XeGPU/Utils/XeGPUUtils.cpp, getLayoutName of an
// OpOperand; XeGPU has no attribute for a function's argument itself, and
// its propagation, XeGPUPropagateLayout.cpp's updateFunctionOpInterface,
// lays a vector argument out on its users).
// It gives back the arguments it could not write so, for an op that has
// no attribute dictionary to carry it: those are anchored by a
// convert_layout as a loop's iter_arg is.
func (wr *writer) operandAttrs(args []*ir.Value) []*ir.Value {
	var left []*ir.Value
	for _, v := range args {
		l := wr.toPin(v)
		ok := l != nil && len(v.Uses) > 0
		for _, u := range v.Uses {
			ok = ok && u.Op.Dict != (ir.Span{})
		}
		if !ok {
			left = append(left, v)
			continue
		}
		for _, u := range v.Uses {
			attr, why, written := wr.layoutText(v.String(), l, laneData(v.Type, v.Uses), wr.indentOf(u.Op.Span.Off))
			if why != "" {
				wr.comments = append(wr.comments, comment{u.Op, why})
			}
			if written {
				wr.addAttr(u.Op, fmt.Sprintf("layout_operand_%d = %s", u.Index, attr))
			}
		}
	}
	return left
}

// resultAttrs writes the layout of each result of op the plan lays out
// as XeGPU does: a layout_result_N attribute on the op (llvm-project
// mlir/lib/Dialect/XeGPU/Utils/XeGPUUtils.cpp, getLayoutName; the
// attributes mlir/test/Dialect/XeGPU/layout.mlir puts on vector and arith
// ops), with a comment line before the op for a layout XeGPU's notation
// cannot write.
func (wr *writer) resultAttrs(op *ir.Op) {
	var attrs []string
	var comments strings.Builder
	indent := wr.indentOf(op.Span.Off)
	for i, v := range op.Results {
		l := wr.toPin(v)
		if l == nil {
			continue
		}
		attr, comment, ok := wr.layoutText(v.String(), l, laneData(v.Type, v.Uses), indent)
		comments.WriteString(comment)
		if ok {
			attrs = append(attrs, fmt.Sprintf("layout_result_%d = %s", i, attr))
		}
	}
	if comments.Len() > 0 {
		// After the conversions written before op (flushAttrs): right
		// above the op whose attribute it is about.
		wr.comments = append(wr.comments, comment{op, comments.String()})
	}
	if len(attrs) > 0 {
		wr.addAttr(op, strings.Join(attrs, ", "))
	}
}

// graphName is the name of the graph value an operand reads.
func (wr *writer) graphName(o *ir.Operand) string {
	if v, ok := wr.b.Folded[o.Value]; ok && v != nil {
		return v.Name
	}
	if v := wr.b.Vals[o.Value]; v != nil {
		return v.Name
	}
	return ""
}

// conversions writes each conversion the plan has as a to_layout to the
// layout the consumer reads, before the consumer, or as a comment where
// the value converted is one the reader made (no IR value is it).
func (wr *writer) conversions() {
	for _, c := range wr.plan.Conv {
		u := c.Use()
		wr.convert(u, model.UseValue(u), c.Required(), c.From())
	}
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
	if irOp != nil && (irOp.Name == "xegpu.convert_layout" || irOp.Name == "iree_vector_ext.to_layout") {
		return // the IR states this conversion itself
	}
	reads := func(o *ir.Operand) bool {
		anchored := o.Value.Def != nil && (o.Value.Def.Name == "iree_vector_ext.to_layout" || o.Value.Def.Name == "xegpu.convert_layout")
		return wr.graphName(o) == v.Name && (o.Value.Name == v.Name || anchored)
	}
	var operand *ir.Operand
	if irOp != nil {
		for _, o := range irOp.Operands {
			if reads(o) {
				operand = o
				break
			}
		}
	}
	if operand == nil && irOp != nil {
		// An op the reader reads through (a shape_cast that only puts in
		// dimensions of extent 1 for a broadcast, an extf the mma widens
		// itself) passes its operand on: convert that, before it.
		for _, o := range irOp.Operands {
			if d := o.Value.Def; d != nil && (d.Name == "vector.shape_cast" || d.Name == "arith.extf") && len(d.Operands) == 1 && reads(d.Operands[0]) {
				irOp, operand = d, d.Operands[0]
				break
			}
		}
	}
	if operand != nil && (wr.b.lane[operand.Value] || !isVectorType(operand.Value.Type)) {
		operand = nil // no to_layout can retype it: a comment says what the plan does
	}
	if operand == nil {
		if irOp != nil {
			attr, _ := attrIn(wr.notation, req)
			wr.insertBefore(irOp, fmt.Sprintf("%s// planner: %s reads %%%s converted to %s (no IR value is read as it there)\n", wr.indentOf(irOp.Span.Off), u.Op.Name, v.Name, attr))
		}
		return
	}
	src := operand.Value.String()
	if name, ok := wr.anchor[operand.Value]; ok {
		src = name
	}
	name := wr.fresh(strings.TrimPrefix(operand.Value.String(), "%") + "_cv")
	use := []ir.Use{{Op: irOp, Index: slices.Index(irOp.Operands, operand)}}
	stmt, ok := wr.toLayout(name, src, operand.Value.Type, have, req, use, wr.indentOf(irOp.Span.Off))
	wr.insertBefore(irOp, stmt)
	if ok {
		wr.rename[operand] = "%" + name
	}
}

// intrinsics writes the chosen record on every vector.contract and
// xegpu.dpas: IREE's
// iree.amdgpu.mma = #iree_gpu.mma_layout<NAME> for the records IREE
// names, planner.intrinsic = "record" for the others.
func (wr *writer) intrinsics() {
	for mv, gv := range wr.b.Vals {
		if mv.Def == nil || mv.Def.Name != "vector.contract" && mv.Def.Name != "xegpu.dpas" || gv.Def == nil || gv.Def.Name != gv.Name {
			continue
		}
		op, ok := wr.plan.Ops[gv.Name]
		r := op.Record()
		if !ok || r == nil {
			continue
		}
		attr := fmt.Sprintf("planner.intrinsic = %q", r.Name)
		if iree, ok := ireeMMA[r.Name]; ok {
			attr = fmt.Sprintf("iree.amdgpu.mma = #iree_gpu.mma_layout<%s>", iree)
		}
		wr.addAttr(mv.Def, attr)
	}
}

// addAttr adds name = value entries (attr, comma-separated) to the op's
// attribute dictionary when the writing ends (flushAttrs), all the
// entries for one op in one edit.
func (wr *writer) addAttr(op *ir.Op, attr string) {
	if wr.attrs == nil {
		wr.attrs = map[*ir.Op][]string{}
	}
	wr.attrs[op] = append(wr.attrs[op], attr)
}

// flushAttrs writes the entries addAttr collected, op by op.
func (wr *writer) flushAttrs() {
	ops := make([]*ir.Op, 0, len(wr.attrs))
	for op := range wr.attrs {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(x, y *ir.Op) int { return x.Span.Off - y.Span.Off })
	for _, op := range ops {
		wr.writeAttrs(op, strings.Join(wr.attrs[op], ", "))
	}
	for _, c := range wr.comments {
		wr.insertBefore(c.op, c.text)
	}
}

// comment is a comment line to put before an op.
type comment struct {
	op   *ir.Op
	text string
}

// writeAttrs adds name = value entries (attr, comma-separated) to the
// op's attribute dictionary, or gives it one. Where the op already has an
// entry of one of those names (a plan written into IR that had one
// already), the dictionary is written anew from its other entries and
// the new ones, so that no name is given twice.
func (wr *writer) writeAttrs(op *ir.Op, attr string) {
	d := op.Dict
	if d != (ir.Span{}) && d.End > d.Off {
		replaced := false
		var kept []string
		for _, a := range op.Attrs {
			if strings.Contains(", "+attr, ", "+a.Name+" = ") {
				replaced = true
				continue
			}
			if _, unit := a.Value.(ir.UnitAttr); unit || a.Value == nil {
				kept = append(kept, a.Name)
			} else {
				kept = append(kept, a.Name+" = "+a.Value.String())
			}
		}
		if replaced {
			wr.rw.Replace(d.Off, d.End, "{"+strings.Join(append(kept, attr), ", ")+"}")
			return
		}
	}
	switch {
	case d == (ir.Span{}):
		return
	case d.End == d.Off:
		wr.rw.Insert(d.Off, " {"+attr+"}")
	case strings.TrimSpace(wr.src[d.Off+1:d.End-1]) == "":
		wr.rw.Replace(d.Off, d.End, "{"+attr+"}")
	default:
		wr.rw.Insert(d.End-1, ", "+attr)
	}
}

// padType writes a buffer's uniform row padding into its memref's type,
// as the strided layout strided<[..., S, 1]> (S elements from one row to
// the next; the builtin dialect's StridedLayoutAttr,
// mlir/docs/Dialects/Builtin.md), in the alloc and in every op that uses
// it; false where it cannot: a swizzle too (which the type does not say,
// and which the reader would not read back), a type with a layout, rows
// other than the memref's, or a use that does not write the type once.
func (wr *writer) padType(mv *ir.Value, sl *model.SharedLayout) bool {
	t, ok := mv.Type.(*ir.MemRefType)
	if !ok {
		return false
	}
	r := len(t.Shape)
	if t.Layout != nil || t.Unranked || r < 2 || t.Shape[r-1] != sl.Cols || sl.XOR.Bits > 0 || sl.Swizzle != "" && sl.Swizzle != "none" {
		return false
	}
	strides := make([]string, r)
	strides[r-1], strides[r-2] = "1", strconv.Itoa(sl.Stride)
	for i, s := r-3, sl.Stride*t.Shape[r-2]; i >= 0; i-- {
		strides[i] = strconv.Itoa(s)
		s *= t.Shape[i]
	}
	ops := []*ir.Op{mv.Def}
	for _, u := range mv.Uses {
		if !slices.Contains(ops, u.Op) {
			ops = append(ops, u.Op)
		}
	}
	return wr.retype(ops, t, ", strided<["+strings.Join(strides, ", ")+"]>")
}

// buffers writes each shared buffer's placement on its memref.alloc.
func (wr *writer) buffers() {
	for mv, buf := range wr.b.bufs {
		sl := wr.plan.Buffers[buf.Name]
		if sl == nil || mv.Def == nil {
			continue
		}
		attr := fmt.Sprintf("planner.placement = %q, planner.shared_layout = %q", sl.Describe(), sl.String())
		if sl.Pad == 0 && sl.Stride != 0 && sl.Stride != sl.Cols && !wr.padType(mv, sl) {
			attr += fmt.Sprintf(", planner.row_stride = %d", sl.Stride)
		}
		if sl.Swizzle != "" && sl.Swizzle != "none" {
			attr += fmt.Sprintf(", planner.swizzle = %q", sl.Swizzle)
		}
		if sl.ColumnMajor {
			attr += ", planner.column_major = true"
		}
		if sl.ColumnBlocks() > 1 {
			attr += fmt.Sprintf(", planner.column_block = %d", sl.ColumnBlock)
		}
		wr.addAttr(mv.Def, attr)
	}
}

// descriptors writes into each tensor_desc type that states no layout the
// layout of the values moved through that descriptor, where they all have
// one layout XeGPU's notation writes: in the type of its create_nd_tdesc
// (or, for a descriptor argument, in the function's signature) and wherever the descriptor's type is written after it, through
// update_nd_offset and the scf.for loops that carry it (the loop's result
// types, its scf.yield), so that a loop-carried descriptor states its
// layout as a loop-invariant one does (a type written through an alias,
// or a descriptor used by another op, is left as it is, and the values
// keep their layout_result_N attributes).
func (wr *writer) descriptors() {
	if wr.notation != "xegpu" {
		return
	}
	type made struct {
		v  *ir.Value
		at typeAt // where its type is first written
	}
	var descs []made
	args := wr.b.Fn.Regions[0].Blocks[0].Args
	for k, a := range args {
		// An argument's type, in the function's signature, as XeGPU's
		// propagation writes it (XeGPUPropagateLayout.cpp,
		// updateFunctionOpInterface).
		descs = append(descs, made{a, typeAt{wr.b.Fn, typedBefore(args, k)}})
	}
	for _, op := range wr.sortedOps() {
		if op.Name == "xegpu.create_nd_tdesc" && len(op.Results) == 1 {
			descs = append(descs, made{op.Results[0], typeAt{op, -1}})
		}
	}
	for _, m := range descs {
		d := wr.b.tdescs[m.v]
		if d == nil || d.typ.Layout != nil {
			continue
		}
		sites, ok := wr.descriptorSites(m.v, []typeAt{m.at})
		if !ok {
			continue
		}
		var l *model.Layout
		var want []int
		for _, at := range sites {
			u := at.op
			mv := wr.b.moved[u]
			if mv == nil {
				continue
			}
			ul := wr.layoutOf(mv.Name)
			if u.Name == "xegpu.store_nd" {
				ul = wr.storedIn(u, mv)
			}
			if ul == nil || l != nil && !l.Equal(ul) {
				ok = false
				break
			}
			l = ul
			switch {
			case u.Name == "xegpu.load_nd" && len(u.Results) == 1:
				want = laneData(u.Results[0].Type, u.Results[0].Uses) // as the value loaded
			case u.Name == "xegpu.store_nd" && want == nil && len(u.Operands) > 0:
				want = laneData(u.Operands[0].Value.Type, nil)
			}
		}
		if !ok || l == nil {
			continue
		}
		x, err := notation.ExpressXeGPU(l)
		if err != nil {
			continue
		}
		if want != nil {
			x = x.WithLaneData(l, want)
		}
		wr.retypeAt(sites, d.typ, ", "+x.Attr())
	}
}

// storedIn is the layout a store (the IR op op, storing graph value v)
// writes in: v's, or the one the plan converts v to for it.
func (wr *writer) storedIn(op *ir.Op, v *model.Value) *model.Layout {
	for _, c := range wr.plan.Conv {
		if u := c.Use(); u.Op.Pos == op.Pos && model.UseValue(u).Name == v.Name {
			return c.Required()
		}
	}
	return wr.layoutOf(v.Name)
}

// typeAt is a place an op writes a type: its only site of that type
// (nth < 0), or its nth tensor_desc or memref type outside its regions.
type typeAt struct {
	op  *ir.Op
	nth int
}

// retype writes layout (", attr") into type t where each of ops writes
// it, in place of the layout it has; false, and nothing written, where
// one of them does not write t exactly once (a type written through an
// alias, or twice).
func (wr *writer) retype(ops []*ir.Op, t ir.Type, layout string) bool {
	at := make([]typeAt, len(ops))
	for i, op := range ops {
		at[i] = typeAt{op, -1}
	}
	return wr.retypeAt(at, t, layout)
}

// retypeAt writes layout into type t at each place; false, and nothing
// written, where one of them does not write t there.
func (wr *writer) retypeAt(places []typeAt, t ir.Type, layout string) bool {
	var sites []ir.TypeSite
	for _, p := range places {
		in := wr.sitesIn(p.op)
		if p.nth < 0 {
			var of []ir.TypeSite
			for _, s := range in {
				if s.Type.String() == t.String() {
					of = append(of, s)
				}
			}
			if len(of) != 1 {
				return false
			}
			sites = append(sites, of[0])
			continue
		}
		if p.nth >= len(in) || in[p.nth].Type.String() != t.String() {
			return false
		}
		sites = append(sites, in[p.nth])
	}
	for _, s := range sites {
		wr.rw.Replace(s.Layout.Off, s.Layout.End, layout)
	}
	return true
}

// descriptorSites gathers the places descriptor v's type is written after
// its definition: the ops that use it, through the descriptors
// update_nd_offset makes from it and the scf.for loops that carry it (the
// loop's result type, its scf.yield's operand type, and the uses of its
// region argument and result); false when another op uses one.
func (wr *writer) descriptorSites(v *ir.Value, at []typeAt) ([]typeAt, bool) {
	var ok bool
	for _, u := range v.Uses {
		switch u.Op.Name {
		case "xegpu.load_nd", "xegpu.store_nd", "xegpu.prefetch_nd":
			at = append(at, typeAt{u.Op, -1})
		case "xegpu.update_nd_offset":
			if at, ok = wr.descriptorSites(u.Op.Results[0], append(at, typeAt{u.Op, -1})); !ok {
				return nil, false
			}
		case "scf.for":
			k := u.Index - 3 // the operands: lower bound, upper bound, step, inits
			if k < 0 || k >= len(u.Op.Results) || len(u.Op.Regions) != 1 || len(u.Op.Regions[0].Blocks) != 1 {
				return nil, false
			}
			body := u.Op.Regions[0].Blocks[0]
			if len(body.Args) != len(u.Op.Results)+1 || len(body.Ops) == 0 || body.Ops[len(body.Ops)-1].Name != "scf.yield" {
				return nil, false
			}
			yield := body.Ops[len(body.Ops)-1]
			at = append(at, typeAt{u.Op, typedBefore(u.Op.Results, k)}, typeAt{yield, typedBefore(operandValues(yield), k)})
			if at, ok = wr.descriptorSites(body.Args[k+1], at); !ok {
				return nil, false
			}
			if at, ok = wr.descriptorSites(u.Op.Results[k], at); !ok {
				return nil, false
			}
		case "scf.yield":
			// The loop's side: its result and region argument (scf.for).
			if blk := u.Op.Parent; blk == nil || blk.Region == nil || blk.Region.Parent == nil || blk.Region.Parent.Name != "scf.for" {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return at, true
}

// typedBefore counts the values before vals[k] whose types are sites
// (tensor_desc and memref types): the index of vals[k]'s type among the
// sites of the op that writes their types in order.
func typedBefore(vals []*ir.Value, k int) int {
	n := 0
	for _, v := range vals[:k] {
		switch v.Type.(type) {
		case *ir.TensorDescType, *ir.MemRefType:
			n++
		}
	}
	return n
}

// operandValues is the values op's operands read.
func operandValues(op *ir.Op) []*ir.Value {
	vals := make([]*ir.Value, len(op.Operands))
	for i, o := range op.Operands {
		vals[i] = o.Value
	}
	return vals
}

// sitesIn lists the places op's own text writes tensor_desc and memref
// types, in order: within its span, outside the ops its regions hold.
func (wr *writer) sitesIn(op *ir.Op) []ir.TypeSite {
	var nested []ir.Span
	for _, r := range op.Regions {
		for _, blk := range r.Blocks {
			for _, in := range blk.Ops {
				nested = append(nested, in.Span)
			}
		}
	}
	var out []ir.TypeSite
	for _, s := range wr.b.Mod.TypeSites {
		if s.Layout.Off < op.Span.Off || s.Layout.End > op.Span.End {
			continue
		}
		inside := false
		for _, n := range nested {
			inside = inside || s.Layout.Off >= n.Off && s.Layout.End <= n.End
		}
		if !inside {
			out = append(out, s)
		}
	}
	return out
}

// sortedOps is the function's ops in the order they are written.
func (wr *writer) sortedOps() []*ir.Op {
	ops := make([]*ir.Op, 0, len(wr.ops))
	for _, op := range wr.ops {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(x, y *ir.Op) int { return x.Span.Off - y.Span.Off })
	return ops
}
