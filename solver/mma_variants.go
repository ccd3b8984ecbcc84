package solver

import (
	"fmt"
	"slices"

	"planner/model"
)

// The variants of an mma choice that compilers pick between besides a
// record's own fragments (model/mma_variant.go says what each computes):
// the transposed accumulator, wider kWidths, K renumbered (k_order.go),
// and FMA dots.
//
// Which are offered, to keep every value within MaxCandidates:
//   - the transposed accumulator for the records whose own accumulator
//     holds consecutive elements along M in each lane's registers (MFMA,
//     DPAS): transposed, those runs lie along N, as row-major stores and
//     the A operand of a following dot (whose K is this N) read them. A
//     record whose accumulator runs along N already (mma.sync) would only
//     turn its runs the other way. The rule reads the record's fragment,
//     not its vendor. Its tiles repeat in registers along N first, in
//     Triton's order (transposedChoices); the other order only where the
//     graph's notation writes that one and not Triton's
//     (mirroredOrderChoices);
//   - kWidth = own × 2, × 4, … while K holds that many record tiles and
//     one register group stays within 16 bytes (the widest vector access:
//     Triton's kWidth is 4 or 8 for 16-bit types and 16 for 8-bit ones,
//     TritonGPUAttrDefs.td, DotOperandEncodingAttr);
//   - an FMA dot, where the target lists an fma record of the dot's
//     element types and the op names it, or names no intrinsic and no
//     matrix instruction fits or the FMAs cost less than the cheapest
//     instruction choice (tiny dots), as Triton keeps a dot blocked when
//     no MMA supports it
//     (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp).
//
// Variants come after the record's own choices, so their layouts are
// seeded after the native fragments.

// maxGroupBits bounds a kWidth register group: 16 bytes, one vector load.
const maxGroupBits = 128

// withVariants adds to an mma's choices the transposed and wider-kWidth
// variants of the records that give them, the transposed accumulators'
// register repeats in order regs.
func withVariants(op *model.Op, chs []*MMAChoice, records []*model.Record, warps int, regs repeatOrder) []*MMAChoice {
	return withVariantsOf(op, chs, records, warps, regs, allMMAChoices)
}

// arranger tiles records over an mma op in the warp arrangements it
// offers (allMMAChoices, repeatedTileChoices).
type arranger func(op *model.Op, records []*model.Record, warps int, regs repeatOrder) []*MMAChoice

// withVariantsOf is withVariants with the transposed choices tiled by
// arrange.
func withVariantsOf(op *model.Op, chs []*MMAChoice, records []*model.Record, warps int, regs repeatOrder, arrange arranger) []*MMAChoice {
	out := slices.Clone(chs)
	for _, ch := range transposedChoicesOf(op, records, warps, regs, arrange) {
		out = append(out, ch)
	}
	for _, ch := range slices.Clone(out) {
		out = append(out, kWidthChoices(op, ch)...)
	}
	return append(out, laneContiguousChoices(op, out)...)
}

// transposedChoices runs each record that offers it on (Bᵀ, Aᵀ): the
// choices of the mirrored dot (N×K by K×M into N×M), their layouts
// transposed back and their A and B exchanged, the accumulator's register
// repeats in order regs. Triton's order is repeatNFirst: #ttg.amd_mfma
// with isTransposed = true swaps M and N only within the instruction's
// tile and repeats the tile along N before M, transposed or not
// (AMDMfmaEncodingAttr::toLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp of
// triton-lang/triton), and only in that order does the encoding name the
// accumulator and its #ttg.dot_op operands the same parent. The mirrored
// dot is tiled in the other order, its M being the dot's N.
func transposedChoices(op *model.Op, records []*model.Record, warps int, regs repeatOrder) []*MMAChoice {
	return transposedChoicesOf(op, records, warps, regs, allMMAChoices)
}

// transposedChoicesOf is transposedChoices with the mirrored dot tiled by
// arrange.
func transposedChoicesOf(op *model.Op, records []*model.Record, warps int, regs repeatOrder, arrange arranger) []*MMAChoice {
	var offer []*model.Record
	for _, r := range records {
		if c := r.Operands["c"]; c != nil && c.Layout != nil && c.Layout.Rank() == 2 && runsAlongM(c.Layout) {
			offer = append(offer, r)
		}
	}
	if len(offer) == 0 {
		return nil
	}
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	tv := func(v *model.Value) *model.Value {
		return &model.Value{Name: v.Name, Shape: []int{v.Shape[1], v.Shape[0]}, DType: v.DType}
	}
	mirror := &model.Op{Name: op.Name, Kind: op.Kind, Operands: []*model.Value{tv(b), tv(a), tv(c)}, Result: tv(op.Result)}
	if op.Scaled() {
		// The mirrored product scales Bᵀ by scale_bᵀ and Aᵀ by scale_aᵀ.
		mirror.Operands = append(mirror.Operands, tv(op.Operands[4]), tv(op.Operands[3]))
	}
	var out []*MMAChoice
	for _, ch := range arrange(mirror, offer, warps, !regs) {
		at, e1 := ch.B.Transpose([]int{1, 0})
		bt, e2 := ch.A.Transpose([]int{1, 0})
		ct, e3 := ch.C.Transpose([]int{1, 0})
		if e1 != nil || e2 != nil || e3 != nil {
			continue
		}
		v := &MMAChoice{Record: ch.Record, WarpsM: ch.WarpsN, WarpsN: ch.WarpsM, NFirst: !ch.NFirst || ch.WarpsM == 1 || ch.WarpsN == 1,
			Outer: ch.Outer, Transposed: true, A: at, B: bt, C: ct}
		if ch.ScaleA != nil {
			sa, e4 := ch.ScaleB.Transpose([]int{1, 0})
			sb, e5 := ch.ScaleA.Transpose([]int{1, 0})
			if e4 != nil || e5 != nil {
				continue
			}
			v.ScaleA, v.ScaleB = sa, sb
		}
		out = append(out, v)
	}
	return out
}

// mirroredOrderChoices are the transposed choices (and their kWidth
// variants) with the accumulator's register repeats along M first, the
// mirrored dot's own order, that notation writes where it cannot write the
// same arrangement's accumulator in Triton's order, fit being the choices
// it can write (an arrangement, as String names it, does not say the
// order: a list holds one of the two). A blocked layout is such a notation: it takes registers,
// lanes and repeats in one order, and the transposed MFMA accumulator
// holds its lanes along M first, so with repeats along both M and N only
// this order is blocked (the 16×16 tile on 1×4 warps over 128×128:
// sizePerThread [1, 4], threadsPerWarp [16, 4], order [0, 1]).
func mirroredOrderChoices(op *model.Op, records []*model.Record, warps int, notation string, fit []*MMAChoice) []*MMAChoice {
	have := map[string]bool{}
	for _, ch := range fit {
		have[ch.String()] = true
	}
	var out []*MMAChoice
	for _, ch := range writable(withVariants(op, nil, records, warps, repeatMFirst), notation) {
		if !have[ch.String()] {
			out = append(out, ch)
		}
	}
	return out
}

// runsAlongM: lane 0's first two registers of accumulator l hold
// consecutive rows.
func runsAlongM(l *model.Layout) bool {
	if l.Size(model.Register) < 2 {
		return false
	}
	p, q := l.Index(model.HwPoint{}), l.Index(model.HwPoint{Value: 1})
	return q[0] == p[0]+1 && q[1] == p[1]
}

// kWidthChoices are ch with A and B holding own·f consecutive K per
// register group, for f = 2, 4, … while K has f record tiles and a group
// stays within maxGroupBits.
func kWidthChoices(op *model.Op, ch *MMAChoice) []*MMAChoice {
	r := ch.Record
	own := r.OwnKWidth()
	k := op.Operands[0].Shape[1]
	bits := max(op.Operands[0].DType.Bits, op.Operands[1].DType.Bits)
	if own < 1 || ch.KWidth != 0 {
		return nil
	}
	var out []*MMAChoice
	for f := 2; k%(r.K*f) == 0 && own*f*bits <= maxGroupBits; f *= 2 {
		a, ea := model.InterleaveK(ch.A, 1, r.K, own, f)
		b, eb := model.InterleaveK(ch.B, 0, r.K, own, f)
		if !ea || !eb {
			break
		}
		v := *ch
		v.KWidth, v.A, v.B = own*f, a, b
		out = append(out, &v)
	}
	return out
}

// fmaChoices are the FMA dots of op: the accumulator in each blocked
// candidate layout of its shape, A holding for each accumulator row the
// whole of K in registers (the lanes along N holding copies), B likewise
// for each column. Offered when an fma record of the target takes the
// dot's element types, and op names it, or names no intrinsic and either
// no instruction choice fits or the FMAs cost less than the cheapest of
// them.
func (p *Problem) fmaChoices(op *model.Op, chs []*MMAChoice) []*MMAChoice {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	batch, m, k, n := model.MMADims(op)
	batched := len(a.Shape) == 3
	var rec *model.Record
	for _, r := range p.build.fmaRecs {
		if sameTypes(r, a, b, c, op.Result) {
			rec = r
			break
		}
	}
	switch {
	case rec == nil, op.Intrinsic != "" && op.Intrinsic != rec.Name:
		return nil
	case op.Intrinsic == rec.Name:
		chs = nil // named: no instruction to compare with
	}
	best := int64(-1)
	for _, ch := range chs {
		if ch.Record == nil {
			continue
		}
		if c := int64(model.MMAInstructions(op, ch.opChoice())) * ch.Record.Cost; best < 0 || c < best {
			best = c
		}
	}
	lanes, warps := p.Target.SubgroupSize, p.Graph.Subgroups
	var out []*MMAChoice
	seen := map[string]bool{}
	// A batched dot's accumulators: one matrix's, the batch over wb warps
	// above them and then over registers (model.BatchLayout).
	for wb := 1; wb <= warps && wb <= batch; wb *= 2 {
		if batch%wb != 0 || warps%wb != 0 {
			continue
		}
		for _, contiguous := range []int{1, 0} {
			for _, acc := range vectorLayouts([]int{m, n}, contiguous, c.DType.Bits, lanes, warps/wb) {
				if batched {
					var err error
					if acc, err = model.BatchLayout(acc, batch, wb); err != nil {
						continue
					}
				}
				if seen[acc.Key()] {
					continue
				}
				seen[acc.Key()] = true
				if cost := int64(model.FMAInstructions(acc, k)) * p.Target.Weights.ALU; best >= 0 && cost >= best {
					continue
				}
				ch, ok := fmaChoice(rec, acc, k)
				if ok {
					out = append(out, ch)
				}
			}
		}
	}
	return out
}

// sameTypes: record r multiplies a's type by b's into c's and d's.
func sameTypes(r *model.Record, a, b, c, d *model.Value) bool {
	ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
	return ra != nil && rb != nil && rc != nil && rd != nil && ra.DType.Name == a.DType.Name && rb.DType.Name == b.DType.Name &&
		rc.DType.Name == c.DType.Name && rd.DType.Name == d.DType.Name
}

// fmaChoice is the FMA dot with accumulator acc ([batch×]M×N): A is acc
// without N (its lanes along N hold copies) with K added in registers, B
// is acc without M with K added in registers.
func fmaChoice(r *model.Record, acc *model.Layout, k int) (*MMAChoice, bool) {
	d := acc.Rank() - 1 // N; M the dimension before
	whole := wholeK
	if acc.Rank() == 3 {
		// A batch's operands hold K in their lowest registers, as
		// Triton's #ttg.dot_op of a #ttg.blocked does (the matrices'
		// FMA operands keep the order plans of them were made in).
		whole = wholeKBelow
	}
	a, okA := whole(acc, d, k)
	b, okB := whole(acc, d-1, k)
	if !okA || !okB {
		return nil, false
	}
	wb, wm, wn := model.BatchSubgroupGrid(acc)
	ch := &MMAChoice{Record: r, WarpsM: wm, WarpsN: wn, A: a, B: b, C: acc}
	if acc.Rank() == 3 {
		ch.WarpsB = wb
	}
	return ch, true
}

// variantText says which variant a choice is, for its String.
func variantText(m *MMAChoice) string {
	s := ""
	if m.Transposed {
		s += ", transposed accumulator"
	}
	if m.KWidth > 0 {
		s += fmt.Sprintf(", kWidth %d", m.KWidth)
	}
	if m.KOrder != nil {
		s += ", K renumbered (" + m.KOrder.String() + ")"
	}
	if m.WarpsB > 1 {
		s += fmt.Sprintf(", the batch over %d warps", m.WarpsB)
	}
	return s
}

// opChoice is the model's record of choice m.
func (m *MMAChoice) opChoice() *model.OpChoice {
	return &model.OpChoice{Record: m.Record, WarpsM: m.WarpsM, WarpsN: m.WarpsN, NFirst: m.NFirst, Outer: m.Outer,
		Transposed: m.Transposed, KWidth: m.KWidth, KOrder: m.KOrder, WarpsB: m.WarpsB}
}

// wholeK is accumulator acc without its dimension d (the hardware that
// told d's positions apart now holds copies) and with K of extent k in new
// registers at d's place: every lane holds the whole K of what it
// accumulates.
func wholeK(acc *model.Layout, d, k int) (*model.Layout, bool) {
	rest, err := acc.Slice(d)
	if err != nil {
		return nil, false
	}
	l, err := rest.Broadcast(d, k)
	return l, err == nil
}

// wholeKBelow is wholeK with K in each lane's lowest registers.
func wholeKBelow(acc *model.Layout, d, k int) (*model.Layout, bool) {
	rest, err := acc.Slice(d)
	if err != nil {
		return nil, false
	}
	l, err := rest.BroadcastBelow(d, k)
	return l, err == nil
}

// variantFact is the fact that an mma runs as its graph states (k_width,
// transposed), nil when the graph states nothing.
func (p *Problem) variantFact(op *model.Op) *model.Fact {
	if op.Variant == nil {
		return nil
	}
	return p.fact(model.FactVariant, "variant:"+op.Name, op.Variant.Pos, fmt.Sprintf("%s runs with %s", opText(op), op.Variant))
}

// variantSeeds are the choices of op whose layouts seed candidates: those
// that run op as its graph states (all of them when the statement is
// relaxed, or when it admits none, so that an explanation can relax it).
func (p *Problem) variantSeeds(op *model.Op, chs []*MMAChoice) []*MMAChoice {
	f := p.variantFact(op)
	if f == nil || p.relaxed(f) {
		return chs
	}
	var out []*MMAChoice
	for _, ch := range chs {
		if op.Variant.Admits(ch.opChoice()) {
			out = append(out, ch)
		}
	}
	if len(out) == 0 {
		return chs
	}
	return out
}
