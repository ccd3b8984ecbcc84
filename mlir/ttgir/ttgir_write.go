package ttgir

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// The TTGIR writer: the module written back with every tensor type
// carrying the encoding its value has in the plan, in Triton's syntax;
// a ttg.convert_layout before each op that reads a value in another
// layout than the value has, and none elsewhere (the input's own are
// removed, their uses reading their operand); the free tensors (index
// and pointer arithmetic, splats, constants) in the layout their
// consumer reads them in, made again for each further layout; the shared
// encodings of the buffers from their placements. Everything else is the
// input byte for byte.

// ttWriter writes one TTGIR kernel back.
type ttWriter struct {
	b         *ttBuilder
	src       string
	plan      *reader.Planned
	warpgroup bool
	names     map[string]bool
	spans     map[*ir.Op][]ir.TypeSpan // the types written in each op's own text
	ops       []*ir.Op                 // the function's ops in the order written
	removed   map[*ir.Op]bool          // the input's convert_layouts, removed
	primary   map[*ir.Value]*model.Layout
	busy      map[*ir.Value]bool
	clones    map[string]string   // value, layout and insertion point to a made-again name
	before    map[*ir.Op][]string // the lines to put before each op
	rename    map[*ir.Operand]string
	rw        *ir.Rewriter      // the edits, applied once
	err       error             // the first edit of an op made again that failed (write returns it)
	aliases   []string          // the new aliases' definitions, in order
	aliasOf   map[string]string // an encoding's text to its alias
	aliasN    map[string]int
	kept      map[string]string      // the input's shared aliases kept, by name: their definitions (keepShared)
	wgmmaBufs map[*model.Buffer]bool // the buffers a ttng.warp_group_dot reads through a descriptor
	lineStart []int
	// inline are the ops of a decomposition written on one line after
	// another (decompose.go), each with the end of the one before it.
	inline map[*ir.Op]int
	encs   map[string]*notation.Triton // by layout: its name alone (for the role first asked)
	// typing collects, on the first writing, the tensors written and the
	// ties of Triton's typing between them; named is, on the second, the
	// encoding each is written in, by nodeKey.
	typing *ttTyping
	named  map[string]*notation.Triton
}

// Write writes the kernel read from src back with the plan pl in it.
// A kernel whose tt.dot_scaled was read as its decomposition is written
// from the text with the decomposition in it (b.text).
func (b *ttBuilder) Write(w io.Writer, src string, pl *reader.Planned) error {
	if b.text != "" {
		src = b.text
	}
	return writeTTGIR(w, b, src, pl)
}

// writeTTGIR writes the TTGIR b was built from with the plan pl in it:
// written once to find every tensor it writes and the ties of Triton's
// typing between them (ttgir_names.go), then again with each tensor
// named as those ties have it.
func writeTTGIR(w io.Writer, b *ttBuilder, src string, pl *reader.Planned) error {
	first := newTTWriter(b, src, pl)
	first.typing = newTyping()
	if _, err := first.write(); err != nil {
		return err
	}
	wr := newTTWriter(b, src, pl)
	wr.keepUnwritten(first.rw)
	wr.named = first.typing.solve(wr.plain)
	out, err := wr.write()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, ttgSpelling(out))
	return err
}

// olderSpelling finds the older triton_gpu. prefix of the TritonGPU
// dialect's ops, attributes and types.
var olderSpelling = regexp.MustCompile(`(^|[^A-Za-z0-9_.])triton_gpu\.`)

// ttgSpelling writes the TritonGPU dialect by its name, ttg (Triton's
// include/triton/Dialect/TritonGPU/IR/TritonGPUDialect.td: name = "ttg"),
// in every line but comment lines: the encodings the writer names are
// spelled so, and a module that spells the dialect both ways is one no
// Triton reads (Triton 3.9 knows no triton_gpu dialect; earlier Triton no
// ttg).
func ttgSpelling(text string) string {
	if !olderSpelling.MatchString(text) {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines[i] = olderSpelling.ReplaceAllString(l, "${1}ttg.")
		}
	}
	return strings.Join(lines, "")
}

// newTTWriter prepares to write b's kernel with the plan pl in it.
func newTTWriter(b *ttBuilder, src string, pl *reader.Planned) *ttWriter {
	wr := &ttWriter{b: b, src: src, plan: pl, names: map[string]bool{}, spans: map[*ir.Op][]ir.TypeSpan{}, removed: map[*ir.Op]bool{},
		primary: map[*ir.Value]*model.Layout{}, busy: map[*ir.Value]bool{}, clones: map[string]string{}, before: map[*ir.Op][]string{},
		rename: map[*ir.Operand]string{}, aliasOf: map[string]string{}, aliasN: map[string]int{}, kept: map[string]string{},
		encs: map[string]*notation.Triton{}, rw: ir.NewRewriter(b.Mod.File, src)}
	for _, op := range pl.Ops {
		if r := op.Record(); r != nil && r.Kind == model.RecordMMA && r.Subgroups > 1 {
			wr.warpgroup = true
		}
	}
	wr.inline = map[*ir.Op]int{}
	for _, d := range b.decomposed {
		for i := 1; i < len(d.ops); i++ {
			wr.inline[d.ops[i]] = d.ops[i-1].Span.End
		}
	}
	wr.lineStart = []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			wr.lineStart = append(wr.lineStart, i+1)
		}
	}
	ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		wr.ops = append(wr.ops, op)
		ir.NoteNames(op, wr.names)
		if ir.TTName(op.Name) == "ttg.convert_layout" {
			wr.removed[op] = true
		}
		return true
	})
	wr.wgmmaBufs = wgmmaBuffers(b, wr.ops)
	wr.assignSpans()
	wr.keepShared()
	wr.keepDescriptors()
	wr.keepOutside()
	return wr
}

// write is the kernel's text with the plan in it.
func (wr *ttWriter) write() (string, error) {
	for _, op := range wr.ops {
		if !isDot(op.Name) || dotOperand(op, notation.Accumulator) < 0 {
			continue
		}
		// The dots' operands and accumulators are named first (#mma,
		// then the aliases in the order written).
		if l := wr.layoutOf(op.Results[0]); l != nil {
			wr.encAlias(wr.encOf(nodeKey(op.Results[0], l), l, notation.Accumulator).Enc)
		}
		for i, o := range op.Operands {
			if l := wr.need(op, i, nil); l != nil {
				wr.encAlias(wr.encOf(readKey(op, i, wr.source(o.Value), l, nil), l, wr.role(op, i)).Enc)
			}
		}
	}
	wr.tieArguments()
	for _, op := range wr.ops {
		wr.writeOp(op)
	}
	wr.splitDecompositions()
	wr.aliasDefs()
	for o, name := range wr.rename {
		wr.rw.Replace(o.Span.Off, o.Span.End, name)
	}
	for op, lines := range wr.before {
		indent := wr.indent(op)
		var text strings.Builder
		for _, l := range lines {
			text.WriteString(l + "\n" + indent)
		}
		wr.rw.Insert(op.Span.Off, text.String())
	}
	if wr.err != nil {
		return "", wr.err
	}
	return wr.rw.Apply()
}

// splitDecompositions puts each op of a decomposition the writer keeps
// on a line of its own, indented as the tt.dot_scaled it replaces; the
// ops it removes took the space before them away.
func (wr *ttWriter) splitDecompositions() {
	for _, d := range wr.b.decomposed {
		for _, op := range d.ops[1:] {
			if !wr.removed[op] {
				wr.rw.Replace(wr.inline[op], op.Span.Off, "\n"+wr.indent(op))
			}
		}
	}
}

// assignSpans gives each type written in the function to the innermost
// op whose text holds it.
func (wr *ttWriter) assignSpans() {
	for _, ts := range wr.b.Mod.TypeSpans {
		var best *ir.Op
		for _, op := range wr.ops {
			if op.Span.Off <= ts.Span.Off && ts.Span.End <= op.Span.End && (best == nil || op.Span.Off >= best.Span.Off && op.Span.End <= best.Span.End) {
				best = op
			}
		}
		if best != nil {
			wr.spans[best] = append(wr.spans[best], ts)
		}
	}
}

// indent is the white space before op on its line.
func (wr *ttWriter) indent(op *ir.Op) string {
	start := wr.lineStart[op.Pos.Line-1]
	end := start
	for end < len(wr.src) && (wr.src[end] == ' ' || wr.src[end] == '\t') {
		end++
	}
	return wr.src[start:end]
}

// fresh makes a value name the IR does not use, from base.
func (wr *ttWriter) fresh(base string) string { return ir.FreshName(wr.names, base) }

// source is the value a use reads once the input's convert_layouts are
// gone: through them to the value they convert.
func (wr *ttWriter) source(v *ir.Value) *ir.Value {
	for v.Def != nil && wr.removed[v.Def] && len(v.Def.Operands) == 1 {
		v = v.Def.Operands[0].Value
	}
	return v
}

// graphLayout is the layout the plan gives the graph value an IR value
// stands for; false where it stands for none the plan has (a free
// tensor, a scalar).
func (wr *ttWriter) graphLayout(v *ir.Value) (*model.Layout, bool) {
	gv := wr.b.Vals[v]
	if gv == nil {
		gv = wr.b.Folded[v]
	}
	if gv == nil {
		return nil, false
	}
	l, ok := wr.plan.Layouts[gv.Name]
	return l, ok
}

// layoutOf is the layout an IR tensor has in the plan: its graph value's,
// or for a free tensor the layout its first reader needs.
func (wr *ttWriter) layoutOf(v *ir.Value) *model.Layout {
	v = wr.source(v)
	if pin := wr.b.ptrArgs[v]; pin != nil {
		return pin.Layout // a pointer argument, in its caller's encoding
	}
	if wr.b.freeTensors[v] {
		return wr.primaryOf(v)
	}
	if l, ok := wr.graphLayout(v); ok {
		return l
	}
	if u := wr.deferred(v); u != nil {
		// An expand_dims read into the broadcast that grows it: in the
		// layout that broadcast reads it in.
		if l := wr.layoutOf(u.Results[0]); l != nil {
			return wr.backward(u, 0, l)
		}
	}
	return nil
}

// deferred is the broadcast an expand_dims's result v was read into (the
// graph has no value for v), or nil.
func (wr *ttWriter) deferred(v *ir.Value) *ir.Op {
	if !wr.b.Unsqueezed(v) || len(v.Uses) != 1 {
		return nil
	}
	return v.Uses[0].Op
}

// uses lists the uses of v by the ops kept, through removed converts.
func (wr *ttWriter) uses(v *ir.Value) []ir.Use {
	var out []ir.Use
	for _, u := range v.Uses {
		if wr.removed[u.Op] {
			for _, r := range u.Op.Results {
				out = append(out, wr.uses(r)...)
			}
			continue
		}
		out = append(out, u)
	}
	return out
}

// primaryOf is the layout a free tensor is made in where it is defined:
// the one its first reader needs.
func (wr *ttWriter) primaryOf(v *ir.Value) *model.Layout {
	if l, ok := wr.primary[v]; ok {
		return l
	}
	if wr.busy[v] {
		return nil // a loop-carried tensor, while its yield is asked
	}
	wr.busy[v] = true
	defer delete(wr.busy, v)
	if d := v.Def; d != nil && ir.TTName(d.Name) == "scf.for" && len(d.Regions) == 1 && len(d.Regions[0].Blocks) == 1 && v.Index+1 < len(d.Regions[0].Blocks[0].Args) {
		// A loop's result is in the layout the loop carries it in.
		l := wr.primaryOf(d.Regions[0].Blocks[0].Args[v.Index+1])
		wr.primary[v] = l
		return l
	}
	if d := v.Def; d != nil && ir.TTName(d.Name) == "scf.while" && len(d.Regions) == 2 && len(d.Regions[0].Blocks) == 1 && v.Index < len(d.Regions[0].Blocks[0].Args) {
		l := wr.primaryOf(d.Regions[0].Blocks[0].Args[v.Index])
		wr.primary[v] = l
		return l
	}
	if blk := v.Block; v.Def == nil && blk != nil && blk.Region != nil && blk.Region.Parent != nil && ir.TTName(blk.Region.Parent.Name) == "scf.while" {
		// A while loop's before region passes its arguments on to the
		// after region unchanged (the form the reader reads): each in
		// the layout the after region's argument is made in.
		if w := blk.Region.Parent; len(w.Regions) == 2 && blk.Region == w.Regions[0] && len(w.Regions[1].Blocks) == 1 && v.Index < len(w.Regions[1].Blocks[0].Args) {
			l := wr.primaryOf(w.Regions[1].Blocks[0].Args[v.Index])
			wr.primary[v] = l
			return l
		}
	}
	var l *model.Layout
	for _, u := range wr.uses(v) {
		if l = wr.need(u.Op, u.Index, nil); l != nil {
			break
		}
	}
	wr.primary[v] = l
	return l
}

// need is the layout op reads its operand i in. For an op made again for
// another layout, res is the layout its result is made in (nil: the
// op's own).
func (wr *ttWriter) need(op *ir.Op, i int, res *model.Layout) *model.Layout {
	o := op.Operands[i]
	if !isTensor(o.Value.Type) {
		return nil
	}
	name := ir.TTName(op.Name)
	switch {
	case name == "tt.load" && i > 0 || name == "tt.store" && i != 1:
		// The pointers, the mask and other are in the layout of the
		// value loaded or stored.
		if name == "tt.load" {
			return wr.layoutOf(op.Results[0])
		}
		return wr.need(op, 1, nil)
	case name == "tt.load":
		return wr.layoutOf(op.Results[0])
	case name == "scf.yield" || name == "scf.for" || name == "scf.while" || name == "scf.condition":
		return wr.carried(op, i)
	case len(op.Results) == 1 && wr.b.freeTensors[op.Results[0]]:
		if res == nil {
			res = wr.primaryOf(op.Results[0])
		}
		if res == nil {
			return nil
		}
		return wr.backward(op, i, res)
	}
	// A graph op reads it: its required layout.
	gv := wr.b.freeUse[o]
	if gv == nil {
		gv = wr.b.Vals[wr.source(o.Value)]
		if gv == nil {
			gv = wr.b.Folded[wr.source(o.Value)]
		}
	}
	made := wr.b.Made[op]
	if len(op.Results) == 1 {
		if u := wr.deferred(op.Results[0]); u != nil {
			made = append(slices.Clip(made), wr.b.Made[u]...) // the broadcast reads op's operand
		}
	}
	for _, g := range made {
		for k, x := range g.Operands {
			if x == gv {
				return wr.required(model.Use{Op: g, Index: k}, x)
			}
		}
	}
	if gv != nil {
		if l, ok := wr.plan.Layouts[gv.Name]; ok {
			return l
		}
	}
	return wr.layoutOf(o.Value)
}

// required is the layout a use of the graph reads x in.
func (wr *ttWriter) required(u model.Use, x *model.Value) *model.Layout {
	op, ok := wr.plan.Ops[u.Op.Name]
	if !ok {
		return nil
	}
	if l := op.Reads(u.Index, u.Yield); l != nil {
		return l
	}
	return wr.plan.Layouts[x.Name]
}

// carried is the layout an scf.for's or scf.while's init i (or an
// scf.yield's or scf.condition's operand i) is read in: the layout the
// loop carries it in.
func (wr *ttWriter) carried(op *ir.Op, i int) *model.Layout {
	forOp, k := op, i-3
	switch ir.TTName(op.Name) {
	case "scf.while":
		k = i
	case "scf.yield", "scf.condition":
		if op.Parent == nil || op.Parent.Region == nil || op.Parent.Region.Parent == nil {
			return nil
		}
		forOp, k = op.Parent.Region.Parent, i
		if ir.TTName(op.Name) == "scf.condition" {
			k = i - 1 // after the condition
		}
	}
	if ir.TTName(forOp.Name) == "scf.while" {
		// A while loop carries value k in one layout: its before
		// region's argument's.
		if len(forOp.Regions) != 2 || len(forOp.Regions[0].Blocks) != 1 || k < 0 || k >= len(forOp.Regions[0].Blocks[0].Args) {
			return nil
		}
		return wr.layoutOf(forOp.Regions[0].Blocks[0].Args[k])
	}
	if ir.TTName(forOp.Name) == "scf.if" {
		if k < len(forOp.Results) {
			return wr.layoutOf(forOp.Results[k])
		}
		return nil
	}
	if k < 0 || len(forOp.Regions) != 1 || len(forOp.Regions[0].Blocks) != 1 || k+1 >= len(forOp.Regions[0].Blocks[0].Args) {
		return nil
	}
	return wr.layoutOf(forOp.Regions[0].Blocks[0].Args[k+1])
}

// backward is the layout a free op reads operand i in to make its result
// in res: the same for element-wise and pointer arithmetic, through the
// op table's transfer rules for the shape ops.
func (wr *ttWriter) backward(op *ir.Op, i int, res *model.Layout) *model.Layout {
	from, _ := wr.b.AsVector(op.Operands[i].Value.Type)
	to, _ := wr.b.AsVector(op.Results[0].Type)
	if from == nil || to == nil {
		return nil
	}
	if slices.Equal(from.Shape, to.Shape) && ir.TTName(op.Name) != "tt.trans" {
		return res
	}
	mop := &model.Op{Kind: model.OpShapeCast, Operands: []*model.Value{{Shape: from.Shape}}, Result: &model.Value{Shape: to.Shape}}
	switch ir.TTName(op.Name) {
	case "tt.trans":
		oa, _ := op.Attr("order")
		if oa == nil {
			return nil
		}
		mop.Kind = model.OpTranspose
		mop.Perm, _ = reader.IntsOf(oa.Value)
	case "tt.broadcast":
		for d := range to.Shape {
			if d < len(from.Shape) && from.Shape[d] != to.Shape[d] {
				mop.Dims = append(mop.Dims, d)
			}
		}
		mop.Kind = model.OpBroadcast
	}
	return mop.Info().Backward.Apply(mop, res)
}

// readKind says how op reads an operand: as the value is, made again
// in the layout op needs (a free tensor), or converted to it.
type readKind int

const (
	readAsIs readKind = iota
	readRemade
	readConverted
)

// reads says what op's tensor operand i reads (its result made in res,
// nil: its own): value v (through the input's removed converts), which
// has layout have, in layout want (nil: as written), and how.
func (wr *ttWriter) reads(op *ir.Op, i int, res *model.Layout) (v *ir.Value, want, have *model.Layout, how readKind) {
	v = wr.source(op.Operands[i].Value)
	want = wr.need(op, i, res)
	have = wr.layoutOf(v)
	switch {
	case want == nil || have == nil || want.Equal(have):
		return v, want, have, readAsIs
	case wr.b.freeTensors[v] && v.Def != nil && len(v.Def.Regions) == 0:
		return v, want, have, readRemade
	}
	return v, want, have, readConverted
}

// use gives the name op's operand i reads: the value, what a removed
// convert converted, a free tensor made again in the layout op needs, or
// a conversion of the value put before op; and where Triton's typing
// names the operand otherwise than the value in the same layout (an
// mma's result read as a #ttg.dot_op; readKey), a ttg.convert_layout of
// the name alone, which moves nothing: Triton lowers it through
// minimalCvtLayout, the map between the two layouts, which is empty for
// equal ones (lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp).
func (wr *ttWriter) use(op *ir.Op, i int, res *model.Layout, at *ir.Op) string {
	if !isTensor(op.Operands[i].Value.Type) {
		return "%" + wr.source(op.Operands[i].Value).Name
	}
	v, want, have, how := wr.reads(op, i, res)
	role := wr.role(op, i)
	name := "%" + v.Name
	switch how {
	case readRemade:
		name = wr.remake(v, want, at)
	case readConverted:
		return wr.convert(name, v, have, nodeKey(v, have), want, readKey(op, i, v, want, res), role, at)
	}
	if want != nil && wr.named != nil {
		if as := readKey(op, i, v, want, res); as != nodeKey(v, want) && wr.encOf(nodeKey(v, want), want, notation.AnyRole).Attr() != wr.encOf(as, want, role).Attr() {
			return wr.convert(name, v, want, nodeKey(v, want), want, as, role, at)
		}
	}
	return name
}

// convert writes before at a ttg.convert_layout of value v (read as
// name) from layout have, written as key from says, to layout want,
// written as key to says; it gives the result's name.
func (wr *ttWriter) convert(name string, v *ir.Value, have *model.Layout, from string, want *model.Layout, to string, role notation.TritonRole, at *ir.Op) string {
	key := fmt.Sprintf("cv|%p|%p|%s", v, at, to)
	if n, ok := wr.clones[key]; ok {
		return n
	}
	n := "%" + wr.fresh(v.Name+"_cv")
	wr.clones[key] = n
	if wr.typing != nil {
		wr.typing.node(from, have, notation.AnyRole)
		wr.typing.node(to, want, role)
	}
	wr.before[at] = append(wr.before[at], fmt.Sprintf("%s = ttg.convert_layout %s : %s -> %s", n, name, wr.typeOf(v.Type, from, have, notation.AnyRole), wr.typeOf(v.Type, to, want, role)))
	return n
}

// remake makes a free tensor again in layout l before at: its defining
// op (and what it reads, again where needed), written with new names.
func (wr *ttWriter) remake(v *ir.Value, l *model.Layout, at *ir.Op) string {
	key := fmt.Sprintf("re|%p|%p|%s", v, at, l.Key())
	if n, ok := wr.clones[key]; ok {
		return n
	}
	def := v.Def
	ops := make([]string, len(def.Operands))
	for j := range def.Operands {
		ops[j] = wr.use(def, j, l, at)
	}
	wr.tie(def, l)
	name := wr.fresh(v.Name)
	wr.clones[key] = "%" + name
	wr.before[at] = append(wr.before[at], wr.render(def, name, ops, func(*ir.Value) *model.Layout { return l }))
	return "%" + name
}

// render writes op's text with its result named name, its operands read
// as ops says, and its types' encodings from layout (of its results; its
// operands' from what op reads them in).
func (wr *ttWriter) render(op *ir.Op, name string, ops []string, layout func(*ir.Value) *model.Layout) string {
	local := wr.rw.Within(op.Span.Off, op.Span.End)
	if len(op.Results) == 1 {
		local.Replace(op.Span.Off, op.Span.Off+1+len(op.Results[0].Name), "%"+name)
	}
	for j, o := range op.Operands {
		local.Replace(o.Span.Off, o.Span.End, ops[j])
	}
	local.Add(wr.typeEdits(op, layout(op.Results[0]))...)
	text, err := local.Apply()
	if err != nil && wr.err == nil {
		wr.err = err // write returns it
	}
	return text
}

// typeEdits rewrites the types in op's own text: each the type of a
// result (in its layout; res, when given, for a made-again op's one
// result) or else of an operand (in the layout op reads it in).
func (wr *ttWriter) typeEdits(op *ir.Op, res *model.Layout) []ir.Edit {
	var out []ir.Edit
	usedR := map[int]bool{}
	spans := wr.spans[op]
	// An op written with a functional type, (operand types) -> result
	// types, names each operand's type and then each result's, in order:
	// a span is known by its place even where an operand's type is
	// spelt as a result's.
	positional := functionalTyped[ir.TTName(op.Name)] && len(spans) == len(op.Operands)+len(op.Results)
	// tt.dot_scaled writes the types of A, A's scale, B and B's scale,
	// then D's (C's is D's): known by place, as its scales may be spelt
	// alike.
	scaled := ir.TTName(op.Name) == "tt.dot_scaled" && len(spans) == len(op.Operands) && len(op.Results) == 1
	for j, ts := range spans {
		text := ts.Type.String()
		var l *model.Layout
		var key string // the tensor whose type it is, in layout l
		role := notation.AnyRole
		found := false
		for k, r := range op.Results {
			if positional && j != len(op.Operands)+k || scaled && j != len(spans)-1 {
				continue
			}
			if !usedR[k] && r.Type != nil && r.Type.String() == text {
				usedR[k], found = true, true
				l = res
				if l == nil {
					l = wr.layoutOf(r)
				}
				if l != nil {
					key = nodeKey(r, l)
				}
				if isDot(op.Name) {
					role = notation.Accumulator
				}
				break
			}
		}
		if !found {
			for k, o := range op.Operands {
				if (positional || scaled) && j != k {
					continue
				}
				if o.Value.Type != nil && o.Value.Type.String() == text {
					found = true
					l = wr.need(op, k, res)
					role = wr.role(op, k)
					if l != nil {
						key = readKey(op, k, wr.source(o.Value), l, res)
					}
					break
				}
			}
		}
		if !found && len(op.Results) == 1 {
			l = res // a constant's dense<...> : T
			if l == nil {
				l = wr.layoutOf(op.Results[0])
			}
			if l != nil {
				key = nodeKey(op.Results[0], l)
			}
		}
		if _, md := ts.Type.(*ir.OpaqueType); md {
			if t := wr.memdescText(op, ts); t != "" {
				out = append(out, ir.Edit{Off: ts.Span.Off, End: ts.Span.End, Text: t})
			}
			continue
		}
		if l == nil {
			continue
		}
		out = append(out, ir.Edit{Off: ts.Span.Off, End: ts.Span.End, Text: wr.typeOf(ts.Type, key, l, role)})
	}
	return out
}

// functionalTyped are the ops written with a functional type whose
// operands' and results' types may be spelt alike: tt.gather's source and
// result (TritonOps.td, TT_GatherOp: functional-type(operands, results)).
var functionalTyped = map[string]bool{"tt.gather": true}

// isDot reports whether an op is a Triton dot: tt.dot, Hopper's
// ttng.warp_group_dot, or tt.dot_scaled (its operands in the roles
// dotRoles gives).
func isDot(name string) bool {
	_, ok := dotRoles[ir.TTName(name)]
	return ok
}

// dotRoles are the parts a dot's operands play, in the order written:
// tt.dot's A, B and C; tt.dot_scaled's A, A's scale, B, B's scale and C
// (TT_DotScaledOp in TritonOps.td), its scales in encodings of their own.
var dotRoles = map[string][]notation.TritonRole{
	"tt.dot":              {notation.OperandA, notation.OperandB, notation.Accumulator},
	"ttng.warp_group_dot": {notation.OperandA, notation.OperandB, notation.Accumulator},
	"tt.dot_scaled":       {notation.OperandA, notation.Plain, notation.OperandB, notation.Plain, notation.Accumulator},
}

// dotOperand is the index of a dot's operand in role r (A, B or the
// accumulator), -1 when op has none so.
func dotOperand(op *ir.Op, r notation.TritonRole) int {
	i := slices.Index(dotRoles[ir.TTName(op.Name)], r)
	if i >= len(op.Operands) {
		return -1
	}
	return i
}

// role is the part an op's operand i plays, for naming its layout.
func (wr *ttWriter) role(op *ir.Op, i int) notation.TritonRole {
	roles := dotRoles[ir.TTName(op.Name)]
	if len(roles) == 0 {
		return notation.AnyRole
	}
	return roles[min(i, len(roles)-1)]
}

// writeOp writes the edits of one op: removed when it is one of the
// input's convert_layouts, else its types and uses.
func (wr *ttWriter) writeOp(op *ir.Op) {
	if wr.removed[op] {
		if at, ok := wr.inline[op]; ok {
			wr.rw.Replace(at, op.Span.End, "") // and the space before it
			return
		}
		start := wr.lineStart[op.Pos.Line-1]
		end := op.Span.End
		if end < len(wr.src) && wr.src[end] == '\n' {
			end++
		}
		wr.rw.Replace(start, end, "")
		return
	}
	wr.rw.Add(wr.typeEdits(op, nil)...)
	for i, o := range op.Operands {
		if n := wr.use(op, i, nil, op); n != o.Value.String() {
			wr.rename[o] = n
		}
	}
	wr.tie(op, nil)
}

// typeOf writes tensor type t of the tensor key (nodeKey, readKey) in
// layout l (read as role says), its encoding as the ties of Triton's
// typing name it.
func (wr *ttWriter) typeOf(t ir.Type, key string, l *model.Layout, role notation.TritonRole) string {
	tt, ok := t.(*ir.TensorType)
	if !ok {
		return t.String()
	}
	return "tensor<" + shapeText(tt.Shape) + "x" + tt.Elem.String() + ", " + wr.encAlias(wr.encOf(key, l, role).Enc) + ">"
}

// encOf is the encoding the tensor key is written with in layout l: as
// named from the ties (ttgir_names.go), else the name of the layout
// alone.
func (wr *ttWriter) encOf(key string, l *model.Layout, role notation.TritonRole) *notation.Triton {
	if t, ok := wr.named[key]; ok {
		return t
	}
	t, ok := wr.encs[l.Key()] // one name for a layout wherever it is written
	if !ok {
		t = wr.plain(l, role)
		wr.encs[l.Key()] = t
	}
	return t
}

// plain is a layout's Triton encoding for a value used as role says: by
// that role where an mma reads or makes it, else an accumulator's (or a
// slice of one) where one gives the layout, else the best fit.
func (wr *ttWriter) plain(l *model.Layout, role notation.TritonRole) *notation.Triton {
	var t *notation.Triton
	var err error
	if role == notation.AnyRole {
		if t, err = notation.ExpressTritonFor(l, notation.Accumulator, notation.TritonTargetOf(wr.b.Target, wr.warpgroup)); err == nil {
			switch t.Enc.(type) {
			case *notation.TritonBlocked, *notation.Linear:
				t = nil
			}
		} else {
			t = nil
		}
	}
	if t == nil {
		if t, err = notation.ExpressTritonFor(l, role, notation.TritonTargetOf(wr.b.Target, wr.warpgroup)); err != nil {
			x, _ := notation.ExpressLinear(l) // every layout of the planner's frames has a linear form
			return &notation.Triton{Enc: x}
		}
	}
	return t
}

// axisOf is an op's axis attribute (0 without one).
func axisOf(op *ir.Op) int {
	if a, ok := op.Attr("axis"); ok {
		if ia, ok := a.Value.(*ir.IntAttr); ok {
			if n, ok := ia.Int64(); ok && n >= 0 && n < model.MaxRank {
				return int(n)
			}
		}
	}
	return 0
}

// encAlias writes an encoding by its alias (defining it the first time):
// #ttg.blocked, the mma encodings and #ttg.linear by alias (Triton's
// TritonGPUOpAsmInterface::getAlias in lib/Dialect/TritonGPU/IR/Dialect.cpp
// names them blocked, mma and linear, numbered from the second on), and
// #ttg.dot_op and #ttg.slice in place with their parent's alias.
func (wr *ttWriter) encAlias(e notation.TritonEncoding) string {
	switch x := e.(type) {
	case *notation.DotOperand:
		parent := wr.encAlias(x.Parent)
		return strings.Replace(x.TritonAttr(), x.Parent.TritonAttr(), parent, 1)
	case *notation.SliceEncoding:
		parent := wr.encAlias(x.Parent)
		return strings.Replace(x.TritonAttr(), x.Parent.TritonAttr(), parent, 1)
	}
	base := "mma"
	switch x := e.(type) {
	case *notation.AMDMFMA:
		e = wr.withVersion(withK(x, wr.mfmaRecords()))
	case *notation.TritonBlocked:
		base = "blocked"
	case *notation.Linear:
		base = "linear"
	}
	return wr.alias(base, e.TritonAttr())
}

// alias names text, base, base1, base2, ... in the order first written.
func (wr *ttWriter) alias(base, text string) string {
	if n, ok := wr.aliasOf[text]; ok {
		return n
	}
	for _, name := range slices.Sorted(maps.Keys(wr.kept)) {
		if wr.kept[name] == text {
			wr.aliasOf[text] = name // the input's definition stays
			return name
		}
	}
	var n string
	for {
		n = "#" + base
		if k := wr.aliasN[base]; k > 0 {
			n += strconv.Itoa(k)
		}
		wr.aliasN[base]++
		if _, taken := wr.kept[n]; !taken {
			break
		}
	}
	wr.aliasOf[text] = n
	wr.aliases = append(wr.aliases, n+" = "+text)
	return n
}

// memdescText rewrites a memory descriptor's shared encoding to the
// placement the plan chose for its buffer (memdescEnc); "" keeps it as
// written (a placement Triton cannot write).
func (wr *ttWriter) memdescText(op *ir.Op, ts ir.TypeSpan) string {
	enc := wr.memdescEnc(op, ts)
	if enc == "" {
		return ""
	}
	text := ts.Type.String()
	name := wr.alias("shared", enc)
	m := memdescRE.FindStringSubmatch(text)
	if m == nil || m[3] == "" {
		return ""
	}
	raw := wr.src[ts.Span.Off:ts.Span.End]
	i := strings.Index(raw, ",")
	j := strings.Index(raw[i+1:], ",")
	if j < 0 {
		j = strings.LastIndex(raw[i+1:], ">")
	}
	return raw[:i+1] + " " + name + raw[i+1+j:]
}

// memdescEnc is the shared encoding of the placement the plan chose for
// a memory descriptor's buffer, the order reversed for a transposed view
// (as ttg.memdesc_trans permutes its source's order); "" where Triton
// cannot write it or the descriptor has no buffer the plan placed.
func (wr *ttWriter) memdescEnc(op *ir.Op, ts ir.TypeSpan) string {
	text := ts.Type.String()
	var d *memDesc
	for _, vs := range [][]*ir.Value{op.Results, valuesOf(op.Operands)} {
		for _, v := range vs {
			if v.Type != nil && v.Type.String() == text && d == nil {
				d = wr.b.descs[v]
			}
		}
	}
	if d == nil || d.buf == nil || d.given {
		return "" // none, or a function argument's, whose type its caller fixed
	}
	pl := wr.plan.Buffers[d.buf.Name]
	if pl == nil {
		return ""
	}
	enc, err := notation.TritonShared(pl)
	if d.buf.Described {
		// A buffer a dot reads through a descriptor is written in the
		// one encoding ttng.warp_group_dot takes (TritonNVMMAShared).
		enc, err = notation.TritonNVMMAShared(pl)
	}
	if err != nil {
		return ""
	}
	if wr.wgmmaBufs[d.buf] && !strings.Contains(enc, "nvmma_shared") {
		return "" // wgmma reads its shared operands only in an #ttg.nvmma_shared: keep the input's
	}
	if d.perm != nil {
		enc = strings.NewReplacer("order = [1, 0]", "order = [0, 1]", "transposed = false", "transposed = true", "transposed = true", "transposed = false").Replace(enc)
	}
	if m := memdescRE.FindStringSubmatch(text); m == nil || m[3] == "" {
		return ""
	}
	return enc
}

// wgmmaBuffers are the buffers a ttng.warp_group_dot among ops reads
// through a memory descriptor. Triton's verifier takes such an operand
// only in an #ttg.nvmma_shared (or a shared linear) encoding
// (WarpGroupDotOp::verify in lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp of
// triton-lang/triton: "WGMMA B operand must have NVMMA shared layout"),
// so the writer keeps the input's encoding for such a buffer where the
// plan's placement is another.
func wgmmaBuffers(b *ttBuilder, ops []*ir.Op) map[*model.Buffer]bool {
	bufs := map[*model.Buffer]bool{}
	for _, op := range ops {
		if ir.TTName(op.Name) != "ttng.warp_group_dot" {
			continue
		}
		for _, o := range op.Operands {
			if d := b.descs[o.Value]; d != nil && d.buf != nil {
				bufs[d.buf] = true
			}
		}
	}
	return bufs
}

// shapeOf is a tensor type's shape; nil for other types.
func shapeOf(t ir.Type) []int {
	if tt, ok := t.(*ir.TensorType); ok {
		return tt.Shape
	}
	return nil
}

func valuesOf(ops []*ir.Operand) []*ir.Value {
	out := make([]*ir.Value, len(ops))
	for i, o := range ops {
		out[i] = o.Value
	}
	return out
}

// aliasDefs removes the input's definitions of Triton's encodings but
// those kept (keepShared, keepOutside) and writes the plan's where the
// first removed was (else before the first kept, else at the top).
func (wr *ttWriter) aliasDefs() {
	at := -1
	var names []string
	for name := range wr.b.Mod.AttrAliases {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d, ok := wr.b.Mod.AttrAliases[name].(*ir.DialectAttr)
		if !ok || strings.HasSuffix(d.Name, "shared_memory") || !(strings.HasPrefix(d.Name, "ttg.") || strings.HasPrefix(d.Name, "triton_gpu.") || strings.HasPrefix(d.Name, "ttig.")) {
			continue
		}
		if _, keep := wr.kept["#"+name]; keep || strings.HasSuffix(d.Name, "shared") && !wr.sharedWritten() {
			continue // a descriptor, or the text outside the function, keeps it
		}
		pos := wr.b.Mod.AliasPos[name]
		start := wr.lineStart[pos.Line-1]
		end := len(wr.src)
		if pos.Line < len(wr.lineStart) {
			end = wr.lineStart[pos.Line]
		}
		wr.rw.Replace(start, end, "")
		if at < 0 || start < at {
			at = start
		}
	}
	if at < 0 {
		// None removed (the text outside the function keeps them all):
		// before the first definition, else at the top.
		at = len(wr.src)
		for _, name := range names {
			at = min(at, wr.lineStart[wr.b.Mod.AliasPos[name].Line-1])
		}
		if len(names) == 0 {
			at = 0
		}
	}
	var b strings.Builder
	for _, a := range wr.aliases {
		b.WriteString(a + "\n")
	}
	wr.rw.Insert(at, b.String())
}

// sharedWritten reports whether every memory descriptor's encoding is
// rewritten, so that the input's shared aliases are no longer used.
func (wr *ttWriter) sharedWritten() bool {
	for _, op := range wr.ops {
		for _, ts := range wr.spans[op] {
			if _, md := ts.Type.(*ir.OpaqueType); md && wr.memdescEnc(op, ts) == "" {
				return false
			}
		}
	}
	return true
}

// keepDescriptors keeps the aliases a tensor descriptor's type names: its
// block's shared encoding is the kernel's, which the plan places its
// buffer by and does not write (tmaBuffer).
func (wr *ttWriter) keepDescriptors() {
	keep := func(t ir.Type) {
		ot, ok := t.(*ir.OpaqueType)
		if !ok || ot.Block == nil || ot.Block.Encoding == nil {
			return
		}
		for name, a := range wr.b.Mod.AttrAliases {
			if a == ot.Block.Encoding {
				wr.kept["#"+name] = a.String()
			}
		}
	}
	for _, a := range wr.b.Fn.Regions[0].Blocks[0].Args {
		keep(a.Type)
	}
	for _, op := range wr.ops {
		for _, o := range op.Operands {
			keep(o.Value.Type)
		}
		for _, r := range op.Results {
			keep(r.Type)
		}
	}
}

// keepShared notes the input's shared aliases when some descriptor keeps
// its encoding as written: a new alias then takes none of their names,
// and an encoding one of them already defines is written by its name.
func (wr *ttWriter) keepShared() {
	if wr.sharedWritten() {
		return
	}
	for name, a := range wr.b.Mod.AttrAliases {
		if d, ok := a.(*ir.DialectAttr); ok && strings.HasSuffix(d.Name, "shared") && !strings.HasSuffix(d.Name, "shared_memory") {
			wr.kept["#"+name] = a.String()
		}
	}
}

// keepOutside notes the input's aliases that the text outside the
// function's body the plan is written into uses (another function, the
// module's attributes, the function's own signature, whose argument and
// result types its callers fix), and the aliases their definitions use:
// the plan changes nothing there, so their definitions stay as written, a
// new alias takes none of their names, and an encoding one of them
// already defines is written by its name.
func (wr *ttWriter) keepOutside() {
	fn := wr.b.Fn.Span
	if body := wr.b.Fn.Regions[0].Blocks[0].Ops; len(body) > 0 {
		fn.Off = body[0].Span.Off // the signature is outside
	}
	wr.keepUsed(func(off int) bool { return off < fn.Off || off >= fn.End })
}

// keepUnwritten notes the input's aliases that the function's text still
// uses where the first writing (its edits, first) left it as written, such
// as the type of a tensor no plan lays out (an unused tt.make_range), and
// the aliases their definitions use: their definitions stay, as
// keepOutside's do.
func (wr *ttWriter) keepUnwritten(first *ir.Rewriter) {
	fn := wr.b.Fn.Span
	wr.keepUsed(func(off int) bool { return off >= fn.Off && off < fn.End && !first.Replaced(off) })
}

// keepUsed keeps the aliases used at the offsets where says, outside the
// aliases' own definitions, and those their definitions use.
func (wr *ttWriter) keepUsed(where func(off int) bool) {
	m := wr.b.Mod
	// defOf is the alias whose definition's line holds the byte at off.
	defOf := map[int]string{}
	for name, pos := range m.AliasPos {
		if pos.Line >= 1 && pos.Line <= len(wr.lineStart) {
			defOf[pos.Line] = name
		}
	}
	lineOf := func(off int) int {
		line, _ := slices.BinarySearch(wr.lineStart, off+1)
		return line
	}
	var queue []string
	usedIn := map[string][]string{} // the aliases each definition uses
	for _, u := range m.AliasUses {
		if def, ok := defOf[lineOf(u.Off)]; ok {
			usedIn[def] = append(usedIn[def], u.Name)
			continue
		}
		if where(u.Off) {
			queue = append(queue, u.Name)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		a, ok := m.AttrAliases[name]
		if _, seen := wr.kept["#"+name]; !ok || seen {
			continue
		}
		wr.kept["#"+name] = a.String()
		queue = append(queue, usedIn[name]...)
	}
}
