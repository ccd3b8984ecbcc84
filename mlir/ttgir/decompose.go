package ttgir

import (
	"fmt"
	"slices"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// A tt.dot_scaled on sm_100 is read as Triton rewrites one where no
// block-scaled mma runs it (DecomposeScaledBlocked,
// lib/Dialect/TritonGPU/Transforms/DecomposeScaledBlocked.cpp): sm_100's
// block-scaled product is tcgen05.mma ... block_scale, its scales and
// accumulator in tensor memory, which the planner does not plan, and its
// mma.sync has no block_scale (ptxas refuses "mma with block scale" for
// sm_100a). Each side is upcast to bf16 (tt.fp_to_fp; an e2m1 side, an
// i8 tensor of two elements a byte along K, with ttg.fp4_to_fp along K,
// its result in the encoding Triton infers); its ue8m0 scales
// are made bf16 factors (arith.extui to i16, arith.shli by 7 into the
// exponent, tt.bitcast), a scale of 0xFF NaN (Triton's maskNan: the
// factor is NaN, so the product is), broadcast along K over each block
// (tt.expand_dims, tt.broadcast, tt.reshape; B's, written N × K/32, then
// transposed) and multiplied in (arith.mulf); a plain tt.dot multiplies
// the two. The ops are written into the kernel's text in place of the
// tt.dot_scaled, on its line, with the ttg.convert_layout ops Triton's
// rewrite makes (to the slice the expand reads, to the operand's layout,
// to the dot's operands), and the text so rewritten is what the reader
// reads and the writer writes back, each op on a line of its own.

// scaledDecomposition is one tt.dot_scaled written as its decomposition.
type scaledDecomposition struct {
	at   model.Pos // the tt.dot_scaled's position in the input
	name string    // its result, which the tt.dot defines
	off  int       // the offset of its ops in the rewritten text
	end  int
	ops  []*ir.Op // its ops in the rewritten module, in order
	// upcasts names the op each side is upcast with (tt.fp_to_fp, or
	// ttg.fp4_to_fp for e2m1), the two sides' once where they agree.
	upcasts []string
}

// decomposedFormats are the formats the decomposition upcasts: e4m3 and
// e5m2 with tt.fp_to_fp, e2m1 (an i8 tensor of two elements a byte along
// K) with ttg.fp4_to_fp along K, as DecomposeScaledBlocked::scaleArg
// does (kPack, Triton's default: the bytes packed along K).
var decomposedFormats = []string{"e4m3", "e5m2", "e2m1"}

// decomposesScaled reports whether the target runs a tt.dot_scaled as its
// decomposition: one whose file says scaled_dot = "decompose" (sm_100)
// and that offers no block-scaled record the planner plans.
func (b *ttBuilder) decomposesScaled() bool {
	return b.Target != nil && b.Target.ScaledDot == model.ScaledDotDecompose && b.noScaledRecord() != ""
}

// notDecomposed says why a tt.dot_scaled on a target that decomposes
// one cannot be, "" when it can: both formats upcast (decomposedFormats),
// matrices whose shapes agree with one ue8m0 scale a block of 32
// elements along K (an e2m1 side's K twice its bytes), and an f32 result.
func notDecomposed(op *ir.Op) string {
	var pack [2]int // elements a byte along K, per side
	for i, attr := range []string{"a_elem_type", "b_elem_type"} {
		f := elemFormat(op, attr)
		if !slices.Contains(decomposedFormats, f) {
			return fmt.Sprintf("the planner decomposes a product of %s operands alone, and %s = %s", strings.Join(decomposedFormats, ", "), []string{"lhs", "rhs"}[i], f)
		}
		pack[i] = 1
		if _, packed := packedFormats[f]; packed {
			pack[i] = 2
		}
		if a, ok := op.Attr([]string{"lhs_k_pack", "rhs_k_pack"}[i]); ok {
			if v, ok := a.Value.(*ir.BoolAttr); ok && !v.Value && pack[i] == 2 {
				return fmt.Sprintf("its %s side is packed along %s (%s = false), and the planner decomposes e2m1 packed along K alone", []string{"lhs", "rhs"}[i], []string{"M", "N"}[i], []string{"lhs_k_pack", "rhs_k_pack"}[i])
			}
		}
	}
	var sh [5][]int
	var el [5]string
	for i := range sh {
		tt, ok := op.Operands[i].Value.Type.(*ir.TensorType)
		if !ok || tt.Encoding == nil {
			return fmt.Sprintf("operand %d is no tensor with an encoding", i)
		}
		sh[i], el[i] = tt.Shape, tt.Elem.String()
	}
	a, sa, bb, sb, c := sh[0], sh[1], sh[2], sh[3], sh[4]
	if len(a) != 2 || len(sa) != 2 || len(bb) != 2 || len(sb) != 2 || len(c) != 2 || el[1] != "i8" || el[3] != "i8" {
		return "the planner decomposes matrices with i8 (ue8m0) scales"
	}
	m, k, n := a[0], a[1]*pack[0], bb[1]
	kb := sa[1] // scales along K: a power of two, as Triton's tensors' dimensions are
	if bb[0]*pack[1] != k || sa[0] != m || sb[0] != n || sb[1] != kb || kb < 1 || kb&(kb-1) != 0 || k != kb*32 || !slices.Equal(c, []int{m, n}) || el[4] != "f32" {
		return fmt.Sprintf("its shapes are not A M×K, a_scale M×K/32, B K×N, b_scale N×K/32 and an f32 C M×N, one ue8m0 scale a block of 32 along K, an e2m1 side's K twice its bytes (found %v, %v, %v, %v and %v %s)", a, sa, bb, sb, c, el[4])
	}
	if len(op.Results) != 1 {
		return "it has no one result"
	}
	if rt, ok := op.Results[0].Type.(*ir.TensorType); !ok || rt.Encoding == nil || !slices.Equal(rt.Shape, c) || rt.Elem.String() != "f32" {
		return "its result is no f32 tensor of C's shape with an encoding"
	}
	return ""
}

// decomposeScaled is the function's text with each tt.dot_scaled the
// target runs as its decomposition written as one, and where each now
// is; no decompositions when there is none.
func (b *ttBuilder) decomposeScaled(src string) (string, []*scaledDecomposition, error) {
	if !b.decomposesScaled() {
		return src, nil, nil
	}
	names := map[string]bool{} // the function's own: a tt.func is isolated from above
	ir.NoteNames(b.Fn, names)
	ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		ir.NoteNames(op, names)
		return true
	})
	rw := ir.NewRewriter(b.Mod.File, src)
	var ds []*scaledDecomposition
	// The ops are visited in the text's order; moved is how far the
	// edits before an op move it.
	moved := 0
	ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		if ir.TTName(op.Name) != "tt.dot_scaled" || len(op.Operands) != 5 || len(op.Results) != 1 || notDecomposed(op) != "" {
			return true
		}
		text := b.scaledText(op, names)
		rw.Replace(op.Span.Off, op.Span.End, text)
		d := &scaledDecomposition{at: op.Pos, name: op.Results[0].Name, off: op.Span.Off + moved, upcasts: upcastsOf(op)}
		d.end = d.off + len(text)
		moved += len(text) - (op.Span.End - op.Span.Off)
		ds = append(ds, d)
		return true
	})
	if len(ds) == 0 {
		return src, nil, nil
	}
	out, err := rw.Apply() // edits of distinct ops do not overlap
	if err != nil {
		return "", nil, fmt.Errorf("%s: writing the decomposition of tt.dot_scaled: %w", ds[0].at, err)
	}
	return out, ds, nil
}

// upcastsOf names the ops a tt.dot_scaled's sides are upcast with, once
// where they agree.
func upcastsOf(op *ir.Op) []string {
	var out []string
	for _, attr := range []string{"a_elem_type", "b_elem_type"} {
		name := "tt.fp_to_fp"
		if _, packed := packedFormats[elemFormat(op, attr)]; packed {
			name = "ttg.fp4_to_fp"
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// scaledText is the decomposition of op, one line of ops: each side
// upcast and scaled (scaledSide), and a tt.dot of the two defining op's
// result.
func (b *ttBuilder) scaledText(op *ir.Op, names map[string]bool) string {
	res := op.Results[0]
	rt := res.Type.(*ir.TensorType)
	fresh := func(what string) string { return "%" + ir.FreshName(names, res.Name+"_"+what) }
	fast := false
	if a, ok := op.Attr("fastMath"); ok {
		if v, ok := a.Value.(*ir.BoolAttr); ok {
			fast = v.Value
		}
	}
	var lines []string
	var dotIn [2]string
	var dotTy [2]string
	for side := range 2 {
		v, s := op.Operands[2*side], op.Operands[2*side+1]
		opnd := fmt.Sprintf("#ttg.dot_op<{opIdx = %d, parent = %s%s}>", side, rt.Encoding, kWidthOf(rt.Encoding))
		_, packed := packedFormats[elemFormat(op, []string{"a_elem_type", "b_elem_type"}[side])]
		l, name, ty := b.scaledSide(side, v, s, packed, opnd, fast, fresh)
		lines = append(lines, l...)
		dotIn[side], dotTy[side] = name, ty
	}
	lines = append(lines, fmt.Sprintf("%s = tt.dot %s, %s, %s : %s * %s -> %s", res, dotIn[0], dotIn[1], op.Operands[4].Value, dotTy[0], dotTy[1], rt))
	return strings.Join(lines, " ")
}

// kWidthOf is the kWidth field a bf16 #ttg.dot_op of the parent enc
// states: none for a blocked parent (Triton's FMA dot), 2 (one 32-bit
// register of two bf16 along K) for an mma's.
func kWidthOf(enc ir.Attr) string {
	if strings.Contains(enc.String(), "blocked") {
		return ""
	}
	return ", kWidth = 2"
}

// scaledSide is the ops that upcast and scale one side of a
// tt.dot_scaled (side 0 A, M×K; 1 B, K×N, its scales N×K/32; packed: an
// i8 tensor of two e2m1 a byte along K, upcast with ttg.fp4_to_fp),
// ending in the conversion to the dot's operand opnd; and that
// conversion's name and type.
func (b *ttBuilder) scaledSide(side int, v, s *ir.Operand, packed bool, opnd string, fast bool, fresh func(string) string) ([]string, string, string) {
	vt, st := v.Value.Type.(*ir.TensorType), s.Value.Type.(*ir.TensorType)
	ten := func(shape []int, elem string, enc any) string {
		return fmt.Sprintf("tensor<%sx%s, %s>", shapeText(shape), elem, enc)
	}
	label := []string{"a", "b"}[side]
	r, kb := st.Shape[0], st.Shape[1]
	blk := 32
	si8 := ten(st.Shape, "i8", st.Encoding)
	si16 := ten(st.Shape, "i16", st.Encoding)
	sbf := ten(st.Shape, "bf16", st.Encoding)
	block := b.defaultBlocked3(r, kb)
	wide := []int{r, kb * blk}

	up, ext, seven, shl, bits := fresh(label+"16"), fresh(label+"s16"), fresh(label+"s7"), fresh(label+"sshl"), fresh(label+"sbf")
	shape, upcast := vt.Shape, fmt.Sprintf("%s = tt.fp_to_fp %s : %s -> %s", up, v.Value, vt, ten(vt.Shape, "bf16", vt.Encoding))
	v16 := ten(vt.Shape, "bf16", vt.Encoding)
	if packed {
		axis := 1 - side // K: A's dimension 1, B's 0
		shape = slices.Clone(vt.Shape)
		shape[axis] *= 2
		v16 = ten(shape, "bf16", b.unpackedEncoding(vt, axis))
		upcast = fmt.Sprintf("%s = ttg.fp4_to_fp %s {axis = %d : i32} : %s -> %s", up, v.Value, axis, vt, v16)
	}
	lines := []string{
		upcast,
		fmt.Sprintf("%s = arith.extui %s : %s to %s", ext, s.Value, si8, si16),
		fmt.Sprintf("%s = arith.constant dense<7> : %s", seven, si16),
		fmt.Sprintf("%s = arith.shli %s, %s : %s", shl, ext, seven, si16),
	}
	scaled := shl
	if !fast {
		ff, isNaN, nan, sel := fresh(label+"sff"), fresh(label+"snan"), fresh(label+"snanbits"), fresh(label+"sbits")
		lines = append(lines,
			fmt.Sprintf("%s = arith.constant dense<-1> : %s", ff, si8),
			fmt.Sprintf("%s = arith.cmpi eq, %s, %s : %s", isNaN, s.Value, ff, si8),
			fmt.Sprintf("%s = arith.constant dense<32704> : %s", nan, si16), // 0x7FC0, bf16's quiet NaN
			fmt.Sprintf("%s = arith.select %s, %s, %s : %s, %s", sel, isNaN, nan, shl, ten(st.Shape, "i1", st.Encoding), si16))
		scaled = sel
	}
	slice := fmt.Sprintf("#ttg.slice<{dim = 2, parent = %s}>", block)
	sl, ex, bc, rs := fresh(label+"sslice"), fresh(label+"sexp"), fresh(label+"sbcast"), fresh(label+"swide")
	lines = append(lines,
		fmt.Sprintf("%s = tt.bitcast %s : %s -> %s", bits, scaled, si16, sbf),
		fmt.Sprintf("%s = ttg.convert_layout %s : %s -> %s", sl, bits, sbf, ten(st.Shape, "bf16", slice)),
		fmt.Sprintf("%s = tt.expand_dims %s {axis = 2 : i32} : %s -> %s", ex, sl, ten(st.Shape, "bf16", slice), ten([]int{r, kb, 1}, "bf16", block)),
		fmt.Sprintf("%s = tt.broadcast %s : %s -> %s", bc, ex, ten([]int{r, kb, 1}, "bf16", block), ten([]int{r, kb, blk}, "bf16", block)),
		fmt.Sprintf("%s = tt.reshape %s : %s -> %s", rs, bc, ten([]int{r, kb, blk}, "bf16", block), ten(wide, "bf16", block2Of(block))))
	factor, factorTy := rs, ten(wide, "bf16", block2Of(block))
	if side == 1 {
		tr := fresh(label + "strans")
		trTy := ten([]int{wide[1], wide[0]}, "bf16", transposedBlocked2(block2Of(block)))
		lines = append(lines, fmt.Sprintf("%s = tt.trans %s {order = array<i32: 1, 0>} : %s -> %s", tr, rs, factorTy, trTy))
		factor, factorTy = tr, trTy
	}
	conv, mul, dot := fresh(label+"sfactor"), fresh(label+"scaled"), fresh(label+"op")
	dotTy := ten(shape, "bf16", opnd)
	lines = append(lines,
		fmt.Sprintf("%s = ttg.convert_layout %s : %s -> %s", conv, factor, factorTy, v16),
		fmt.Sprintf("%s = arith.mulf %s, %s : %s", mul, up, conv, v16),
		fmt.Sprintf("%s = ttg.convert_layout %s : %s -> %s", dot, mul, v16, dotTy))
	return lines, dot, dotTy
}

// unpackedEncoding is the encoding of ttg.fp4_to_fp's result for a
// source t unpacked along axis, as Triton infers it (fp4Encoding): the
// source's layout with each byte's pair in a new lowest register
// (model.UnpackPairs), named from the source's encoding; the source's own
// encoding text (refused at the op when read) where it has no layout.
func (b *ttBuilder) unpackedEncoding(t *ir.TensorType, axis int) string {
	pin := b.ttPin(t, model.Pos{})
	if pin == nil {
		return t.Encoding.String()
	}
	u := model.UnpackPairs(pin.Layout, axis)
	n, ok := pin.Notation.(*notation.Triton)
	if u == nil || !ok {
		return t.Encoding.String()
	}
	enc := fp4Encoding(n.Enc, axis, u)
	if enc == nil {
		return t.Encoding.String()
	}
	return enc.TritonAttr()
}

// blocked3 is a three-dimensional #ttg.blocked of one element a thread.
type blocked3 struct{ lanes, warps [3]int }

// defaultBlocked3 is the #ttg.blocked Triton's DecomposeScaledBlocked
// gives a scale expanded along a new last dimension, r × kb × 1
// (getDefaultBlockedEncoding: one element a thread, order [2, 1, 0], the
// lanes given to the fastest dimensions first as far as their sizes go,
// the rest and every warp to the slowest).
func (b *ttBuilder) defaultBlocked3(r, kb int) blocked3 {
	lanes := max(b.Target.SubgroupSize, 1)
	warps := max(b.G.Subgroups, 1)
	l1 := min(kb, lanes)
	return blocked3{lanes: [3]int{lanes / l1, l1, 1}, warps: [3]int{warps, 1, 1}}
}

func (e blocked3) String() string {
	return fmt.Sprintf("#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [%d, %d, %d], warpsPerCTA = [%d, %d, %d], order = [2, 1, 0]}>",
		e.lanes[0], e.lanes[1], e.lanes[2], e.warps[0], e.warps[1], e.warps[2])
}

// blocked2 is a two-dimensional #ttg.blocked of one element a thread,
// with its order.
type blocked2 struct {
	lanes, warps, order [2]int
}

// block2Of is the #ttg.blocked of the reshape of a blocked3 merging its
// last two dimensions: its lanes and warps along them multiplied.
func block2Of(e blocked3) blocked2 {
	return blocked2{lanes: [2]int{e.lanes[0], e.lanes[1] * e.lanes[2]}, warps: [2]int{e.warps[0], e.warps[1] * e.warps[2]}, order: [2]int{1, 0}}
}

// transposedBlocked2 is e transposed, as tt.trans gives it.
func transposedBlocked2(e blocked2) blocked2 {
	return blocked2{lanes: [2]int{e.lanes[1], e.lanes[0]}, warps: [2]int{e.warps[1], e.warps[0]}, order: [2]int{1 - e.order[0], 1 - e.order[1]}}
}

func (e blocked2) String() string {
	return fmt.Sprintf("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [%d, %d], warpsPerCTA = [%d, %d], order = [%d, %d]}>",
		e.lanes[0], e.lanes[1], e.warps[0], e.warps[1], e.order[0], e.order[1])
}

// readDecomposed is the builder of the text with the decompositions ds
// in it: parsed, the function opt names chosen, each decomposition's ops
// placed at its tt.dot_scaled (the text's other lines are the input's,
// and its ops are on the dot's line), and the plan's provenance saying
// what was decomposed and why.
func readDecomposed(file, text string, ds []*scaledDecomposition, opt reader.Options) (*ttBuilder, error) {
	m, err := ir.Parse(file, []byte(text))
	if err != nil {
		return nil, &model.Error{Pos: ds[0].at, Code: model.CodeBadValue, Index: -1, Msg: fmt.Sprintf("tt.dot_scaled's decomposition does not read back: %v", err)}
	}
	fn, err := reader.Choose(m, opt)
	if err != nil {
		return nil, err
	}
	b := newBuilder(m, fn, opt)
	b.text, b.decomposed = text, ds
	b.ttContext()
	ir.Visit(fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		for _, d := range ds {
			if d.off <= op.Span.Off && op.Span.End <= d.end {
				d.ops = append(d.ops, op)
				op.Pos, op.NamePos = d.at, d.at
				for _, r := range op.Results {
					r.Pos = d.at
				}
				for _, o := range op.Operands {
					o.Pos = d.at
				}
			}
		}
		return true
	})
	for _, d := range ds {
		b.G.Provenance = append(b.G.Provenance, fmt.Sprintf("tt.dot_scaled %%%s at %s decomposed as Triton's DecomposeScaledBlocked does: A and B upcast to bf16 (%s), their ue8m0 scales made bf16 factors and multiplied in, and a tt.dot of the two; %s",
			d.name, d.at, strings.Join(d.upcasts, " and "), b.noScaledRecord()))
	}
	return b, nil
}

// decomposes reports whether op is one of a decomposition's ops. Its
// tt.dot is no anchor (--keep-anchors): the tt.dot_scaled's encodings are
// those of a kernel before Triton chooses its dots' instructions, which
// AccelerateMatmul replaces.
func (b *ttBuilder) decomposes(op *ir.Op) bool {
	return slices.ContainsFunc(b.decomposed, func(d *scaledDecomposition) bool { return d.off <= op.Span.Off && op.Span.End <= d.end })
}
