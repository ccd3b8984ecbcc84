package solver

import (
	"slices"

	"planner/model"
	"planner/notation"
)

// MaxCandidates bounds the candidate layouts of one value. Seeds come
// first (intrinsic fragments, memory-friendly layouts, pins), then what the
// ops' transfer rules derive from the neighbours' candidates.
const MaxCandidates = 96

// candSet is an ordered set of candidate layouts, each the memo's copy
// (so that equal layouts are one pointer). It holds at most
// MaxCandidates: a scan of the list finds one faster than a map per value
// would, and allocates nothing.
type candSet struct {
	list []*model.Layout
	memo *layoutMemo
	// full is set once a layout was refused for want of room: the
	// value's candidates are then a part of what the seeds and the
	// transfers reach.
	full bool
}

func newCandSet(memo *layoutMemo) *candSet {
	return &candSet{memo: memo}
}

func (c *candSet) add(l *model.Layout) bool {
	if l == nil || slices.Contains(c.list, l) {
		return false
	}
	if len(c.list) >= MaxCandidates {
		c.full = true
		return false
	}
	c.list = append(c.list, l)
	return true
}

// MMAChoice is one way to run an mma op: a record and an arrangement of
// the warps over the output, with the operand layouts it implies.
type MMAChoice struct {
	Record         *model.Record
	WarpsM, WarpsN int
	NFirst         bool
	// Outer: the warps split the tile outermost (each warp one contiguous
	// block of the tile, as IREE's nested subgroup tiles do) instead of
	// just above one fragment (as Triton's layouts do).
	Outer bool
	// Transposed and KWidth: the variants of mma_variants.go; KOrder:
	// A and B hold K renumbered alike (k_order.go).
	Transposed bool
	KWidth     int
	KOrder     model.KOrder
	A, B, C    *model.Layout
	// ScaleA and ScaleB: a block-scaled product's scales (M × K/block and
	// K/block × N), in the record's scale fragments tiled as A and B are;
	// nil for a plain product.
	ScaleA, ScaleB *model.Layout
	// WarpsB: a batched product's warps along the batch (batchedChoices).
	WarpsB int
}

func (m *MMAChoice) String() string {
	if m.Record == nil {
		return "no record"
	}
	return m.Arrangement().String()
}

// Arrangement is the choice as the plan names it.
func (m *MMAChoice) Arrangement() model.Arrangement {
	if m.Record.Kind == model.RecordFMA {
		return model.Arrangement{Record: m.Record.Name + " (no matrix instruction)", WarpsM: m.WarpsM, WarpsN: m.WarpsN, NFirst: m.NFirst, Outer: m.Outer}
	}
	return model.Arrangement{Record: m.Record.Name, Blocking: m.Record.Blocking(), WarpsM: m.WarpsM, WarpsN: m.WarpsN,
		Group: m.Record.Subgroups, NFirst: m.NFirst, Outer: m.Outer, Variant: variantText(m)}
}

// mmaChoices lists the ways to run op with the target's mma records: the
// element types must match, the record's tile must divide the operands,
// and the warps must split M and N evenly. When the graph writes its
// layouts in a notation other than linear and some choices give an
// accumulator that notation can write, only those are kept, and the
// transposed accumulators it writes only with their repeats in the other
// order are added so (mirroredOrderChoices): the plan must be one the
// user's compiler can represent. Last come the choices that hold K in the
// order pins on op's operands hold it (withAnchoredK, k_order.go).
func (p *Problem) mmaChoices(op *model.Op, records []*model.Record, notation string) []*MMAChoice {
	key := mmaKeyOf(op, records, notation)
	if chs, ok := p.build.mmaMemo[key]; ok {
		return p.withAnchoredK(op, key, chs)
	}
	if p.build.mmaMemo == nil {
		p.build.mmaMemo = map[mmaKey][]*MMAChoice{}
	}
	return p.withAnchoredK(op, key, p.keepMMA(key, p.mmaChoicesOf(op, records, notation)))
}

// mmaChoicesOf is every choice of op on records in notation, made anew:
// goroutines may call it at once.
func (p *Problem) mmaChoicesOf(op *model.Op, records []*model.Record, notationKind string) []*MMAChoice {
	chs := mmaChoicesOf(op, records, p.Graph.Subgroups, notationKind)
	batched := len(op.Operands[0].Shape) == 3
	if notationKind == "triton" && !op.Warpgroup {
		// Triton lowers a tt.dot or tt.dot_scaled on a matrix record
		// whose result is its target's matrix encoding (#ttg.nvidia_mma,
		// #ttg.amd_mfma) only, its operands the #ttg.dot_op of that
		// encoding: an arrangement only a #ttg.linear writes (warp ids
		// in an order the encoding has not) is not offered. On FMAs the
		// accumulator is blocked (fmaChoices); a warp group's dot keeps
		// the accumulators its own encoding writes (warpgroupAccumulators).
		chs = namedAccumulators(chs, notation.TritonTargetOf(p.Target, false))
	}
	if !op.Scaled() && !batched && !op.Warpgroup && offerNamedRepeats {
		chs = append(chs, p.namedRepeats(op, records)...)
	}
	if op.Scaled() && notationKind == "triton" {
		return chs
	}
	if !op.Scaled() && !batched {
		chs = append(chs, p.fmaChoices(op, chs)...)
	}
	if batched {
		fma := p.fmaChoices(op, chs)
		if notationKind == "triton" {
			fma = tritonFMADots(fma, notation.TritonTargetOf(p.Target, false))
		}
		chs = append(chs, fma...)
	}
	if op.Warpgroup {
		chs = warpgroupAccumulators(chs, notation.TritonTargetOf(p.Target, true))
	}
	return widestWarpgroupFirst(op, chs)
}

// namedRepeats are the arrangements of op whose warps repeat a tile
// (repeatedTileChoices, with their variants) whose accumulator the input
// names: an encoding of the kernel, pinned or not. The candidates then
// hold every accumulator the input names; the arrangements it does not
// name stay out (Problem.Restricted says so where they exist).
func (p *Problem) namedRepeats(op *model.Op, records []*model.Record) []*MMAChoice {
	all := withVariantsOf(op, repeatedTileChoices(op, records, p.Graph.Subgroups, repeatNFirst), records, p.Graph.Subgroups, repeatNFirst, repeatedTileChoices)
	var out []*MMAChoice
	for _, ch := range all {
		if slices.ContainsFunc(p.build.named, ch.C.Equal) {
			out = append(out, ch)
		}
	}
	if len(out) < len(all) {
		p.build.repeatsLeftOut.Store(true)
	}
	return out
}

// offerNamedRepeats: mmas are offered the repeating arrangements their
// input names (namedRepeats). A variable only so that a test can take
// them away and see an input's own arrangement outside the candidates.
var offerNamedRepeats = true

// namedLayouts are the layouts g's input names: its encodings left free
// (Graph.Named) and its values' pins.
func namedLayouts(g *model.Graph) []*model.Layout {
	out := slices.Clone(g.Named)
	for _, v := range g.Values {
		if v.Pin != nil && v.Pin.Layout != nil && !slices.ContainsFunc(out, v.Pin.Layout.Equal) {
			out = append(out, v.Pin.Layout)
		}
	}
	return out
}

// widestWarpgroupFirst orders the choices on records that several
// subgroups run together (wgmma) by the instructions each subgroup
// issues, fewest first, in the places those choices hold among the
// others: a search that keeps the first of equally cheap plans then runs
// m64n128k16 once rather than m64n64k16 twice, as Triton takes the
// widest instruction N that divides the warps' tile
// (mmaVersionToInstrShape in lib/Dialect/TritonGPU/Transforms/Utility.cpp
// of triton-lang/triton).
func widestWarpgroupFirst(op *model.Op, chs []*MMAChoice) []*MMAChoice {
	var at []int
	var group []*MMAChoice
	for i, ch := range chs {
		if ch.Record != nil && ch.Record.Kind == model.RecordMMA && ch.Record.Subgroups > 1 && ch.Record.K > 0 {
			at = append(at, i)
			group = append(group, ch)
		}
	}
	if len(group) < 2 {
		return chs
	}
	instructions := func(ch *MMAChoice) int {
		return model.MMAInstructions(op, &model.OpChoice{Record: ch.Record, WarpsM: ch.WarpsM, WarpsN: ch.WarpsN})
	}
	slices.SortStableFunc(group, func(x, y *MMAChoice) int { return instructions(x) - instructions(y) })
	out := slices.Clone(chs)
	for k, i := range at {
		out[i] = group[k]
	}
	return out
}

// warpgroupAccumulators keeps the choices whose accumulator a version 3
// #ttg.nvidia_mma writes, for an mma whose result Triton types so
// (model.Op.Warpgroup: WarpGroupDotOp::verify in
// lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp of triton-lang/triton, "WGMMA
// result layout must be Hopper NVMMA"); all of them where none is.
func warpgroupAccumulators(chs []*MMAChoice, tt notation.TritonTarget) []*MMAChoice {
	var out []*MMAChoice
	for _, ch := range chs {
		if ch.C == nil {
			continue
		}
		if t, err := notation.ExpressTritonFor(ch.C, notation.Accumulator, tt); err == nil {
			if m, ok := t.Enc.(*notation.NvidiaMMA); ok && m.VersionMajor == 3 {
				out = append(out, ch)
			}
		}
	}
	if len(out) == 0 {
		return chs
	}
	return out
}

// batchedChoices runs a batched mma (A batch×M×K, B batch×K×N) as one
// product per matrix of the batch, each on the record's fragments: the
// choices of one matrix's product on warps/wb warps, their layouts given
// the batch dimension over wb warps above those and then over registers
// (model.BatchLayout), for each wb that divides the batch. The batch's
// matrices are independent, so no variant moves K or swaps A and B.
func batchedChoices(op *model.Op, records []*model.Record, warps int) []*MMAChoice {
	batch := op.Operands[0].Shape[0]
	one := func(v *model.Value) *model.Value {
		return &model.Value{Name: v.Name, Shape: slices.Clone(v.Shape[1:]), DType: v.DType}
	}
	matrix := &model.Op{Name: op.Name, Kind: op.Kind, Operands: []*model.Value{one(op.Operands[0]), one(op.Operands[1]), one(op.Operands[2])}, Result: one(op.Result)}
	var out []*MMAChoice
	for wb := 1; wb <= warps && wb <= batch; wb *= 2 {
		if batch%wb != 0 || warps%wb != 0 {
			continue
		}
		for _, ch := range allMMAChoices(matrix, records, warps/wb, repeatNFirst) {
			a, e1 := model.BatchLayout(ch.A, batch, wb)
			b, e2 := model.BatchLayout(ch.B, batch, wb)
			c, e3 := model.BatchLayout(ch.C, batch, wb)
			if e1 != nil || e2 != nil || e3 != nil || ch.Record.Subgroups > 1 {
				continue // an operand left in shared memory, or a warpgroup's record
			}
			v := *ch
			v.A, v.B, v.C, v.WarpsB = a, b, c, wb
			out = append(out, &v)
		}
	}
	return out
}

// tritonFMADots keeps the FMA choices of a batched dot whose A and B
// Triton writes as the #ttg.dot_op of their accumulator's #ttg.blocked
// (the register order of its FMA operands: the whole K where the
// accumulator's order puts it).
func tritonFMADots(chs []*MMAChoice, tt notation.TritonTarget) []*MMAChoice {
	var out []*MMAChoice
	for _, ch := range chs {
		c, err := notation.ExpressTritonFor(ch.C, notation.Accumulator, tt)
		if err != nil {
			continue
		}
		blocked, ok := c.Enc.(*notation.TritonBlocked)
		if !ok {
			continue
		}
		fits := true
		for i, l := range []*model.Layout{ch.A, ch.B} {
			d := &notation.DotOperand{OpIdx: i, Parent: blocked}
			want, err := (&notation.Triton{Enc: d}).Layout(model.FrameOf(l))
			fits = fits && err == nil && want.Equal(l)
		}
		if fits {
			out = append(out, ch)
		}
	}
	return out
}

// namedAccumulators keeps the choices whose accumulator a matrix
// encoding of the target writes (#ttg.nvidia_mma, #ttg.amd_mfma); all of
// them where none is.
func namedAccumulators(chs []*MMAChoice, tt notation.TritonTarget) []*MMAChoice {
	var out []*MMAChoice
	for _, ch := range chs {
		if ch.C == nil {
			continue
		}
		if t, err := notation.ExpressTritonFor(ch.C, notation.Accumulator, tt); err == nil {
			switch t.Enc.(type) {
			case *notation.NvidiaMMA, *notation.AMDMFMA:
				out = append(out, ch)
			}
		}
	}
	if len(out) == 0 {
		return chs
	}
	return out
}

// mmaKeyOf is the key of op's choices on records in notation.
func mmaKeyOf(op *model.Op, records []*model.Record, notation string) mmaKey {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	batch, m, k, n := model.MMADims(op)
	key := mmaKey{m: m, k: k, n: n, a: a.DType.Name, b: b.DType.Name, c: c.DType.Name, d: op.Result.DType.Name,
		notation: notation, records: len(records), intrinsic: op.Intrinsic, warpgroup: op.Warpgroup}
	if op.Scaled() {
		key.blocks = op.Operands[3].Shape[1]
	}
	if len(a.Shape) == 3 {
		key.batch = batch
	}
	if len(records) > 0 {
		key.first = records[0]
	}
	return key
}

// prefetchMMA makes the choices of every mma op that the candidates'
// seeds and the nodes ask for (the op's records, and the record it
// names), each distinct set once, the sets on every CPU (inParallel):
// tiling the records over the warps is most of a small graph's seeding.
// A limit reached leaves the rest to be made when asked, where the
// build stops.
func (p *Problem) prefetchMMA(mmaRecs []*model.Record) {
	type job struct {
		op   *model.Op
		recs []*model.Record
		key  mmaKey
		chs  []*MMAChoice
	}
	var jobs []*job
	seen := map[mmaKey]bool{}
	want := func(op *model.Op, recs []*model.Record) {
		k := mmaKeyOf(op, recs, p.Graph.Notation)
		if _, done := p.build.mmaMemo[k]; !done && !seen[k] {
			seen[k] = true
			jobs = append(jobs, &job{op: op, recs: recs, key: k})
		}
	}
	p.Graph.Walk(func(op *model.Op) {
		if op.Info().Flow != model.FlowRecord {
			return
		}
		want(op, p.mmaRecordsFor(op, mmaRecs))
		if op.Intrinsic != "" {
			want(op, named(mmaRecs, op.Intrinsic))
		}
	})
	if len(jobs) < 2 {
		return // nothing to share out: made when asked
	}
	done := make([]bool, len(jobs))
	p.inParallel(len(jobs), 1, func(_ *model.AccessCache, lo, hi int) {
		for k := lo; k < hi; k++ {
			jobs[k].chs, done[k] = p.mmaChoicesOf(jobs[k].op, jobs[k].recs, p.Graph.Notation), true
		}
	})
	if p.build.mmaMemo == nil {
		p.build.mmaMemo = map[mmaKey][]*MMAChoice{}
	}
	for k, j := range jobs {
		if done[k] {
			p.keepMMA(j.key, j.chs)
		}
	}
}

// keepMMA keeps chs as the choices of key.
func (p *Problem) keepMMA(key mmaKey, chs []*MMAChoice) []*MMAChoice {
	chs = slices.Clip(chs) // ops alike share the list: appending must copy it
	p.build.mmaMemo[key] = chs
	return chs
}

// mmaKey tells calls of mmaChoices apart: what of the op the choices
// depend on (its sizes and element types: ops alike share their choices),
// the notation, and the records (all of the target's, or the one an op
// names).
type mmaKey struct {
	m, k, n    int
	a, b, c, d string
	notation   string
	records    int
	first      *model.Record
	intrinsic  string // the record the op names (FMA dots only for an fma record)
	warpgroup  bool   // op.Warpgroup
	blocks     int    // a block-scaled product's scale blocks along K (0: a plain product)
	batch      int    // a batched product's batch (0: a product of matrices)
}

func mmaChoicesOf(op *model.Op, records []*model.Record, warps int, notation string) []*MMAChoice {
	if len(op.Operands[0].Shape) == 3 {
		return batchedChoices(op, records, warps)
	}
	if op.Scaled() {
		// The scales are read per block of K in the record's order: the
		// K renumberings of the variants would move them, so a
		// block-scaled product runs its record as it is, or on (Bᵀ, Aᵀ).
		all := append(allMMAChoices(op, records, warps, repeatNFirst), transposedChoices(op, records, warps, repeatNFirst)...)
		if fit := writable(all, notation); notation != "" && notation != "linear" && notation != "table" && len(fit) > 0 {
			return fit
		}
		return all
	}
	all := withVariants(op, allMMAChoices(op, records, warps, repeatNFirst), records, warps, repeatNFirst)
	if notation == "" || notation == "linear" || notation == "table" {
		return all
	}
	fit := writable(all, notation)
	if len(fit) == 0 {
		return all
	}
	return append(fit, mirroredOrderChoices(op, records, warps, notation, fit)...)
}

// writable are the choices whose accumulator notation can write (each
// asked on a CPU of its own).
func writable(chs []*MMAChoice, notationKind string) []*MMAChoice {
	ok := make([]bool, len(chs))
	eachParallel(len(chs), func(i int) {
		_, err := notation.Express(notationKind, chs[i].C)
		ok[i] = err == nil
	})
	var out []*MMAChoice
	for i, ch := range chs {
		if ok[i] {
			out = append(out, ch)
		}
	}
	return out
}

// allMMAChoices tiles each record over op in every arrangement of the
// warps, the accumulator's register repeats in order regs. Arrangements
// whose warps hold copies of a tile are offered only where no
// arrangement splits the tiles evenly over the warps, as Triton's
// warpsPerTile duplicates only tiles too small for its warps; where one
// does, an input may still name them (repeatedTileChoices).
func allMMAChoices(op *model.Op, records []*model.Record, warps int, regs repeatOrder) []*MMAChoice {
	split, copies := mmaArrangements(op, records, warps, regs)
	if len(split) == 0 {
		return copies
	}
	return split
}

// repeatedTileChoices are the arrangements allMMAChoices leaves out: those
// whose warps hold copies of a tile (a warp bit that selects no tile,
// the warps along a dimension more than its tiles) where others split
// the tiles evenly. Triton writes them where a dot's warpsPerCTA
// exceeds its tiles along a dimension (#ttg.amd_mfma with warpsPerCTA =
// [4, 1] on a 64×64 dot of 32×32 tiles: its linear layout broadcasts
// the extra warp bit, AMDMfmaEncodingAttr::toLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp of
// triton-lang/triton); each warp issues the instructions of the tiles
// it holds (model.MMAInstructions).
func repeatedTileChoices(op *model.Op, records []*model.Record, warps int, regs repeatOrder) []*MMAChoice {
	split, copies := mmaArrangements(op, records, warps, regs)
	if len(split) == 0 {
		return nil
	}
	return copies
}

// mmaArrangements tiles each record over op in every arrangement of the
// warps: split those whose warps split the tiles evenly, copies those
// whose warps along a dimension outnumber its tiles and hold copies.
func mmaArrangements(op *model.Op, records []*model.Record, warps int, regs repeatOrder) (split, copies []*MMAChoice) {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	m, k, n := a.Shape[0], a.Shape[1], b.Shape[1]
	var out []*MMAChoice
	for _, r := range withBlockViews(records) {
		if r.Unplanned() != "" || model.ScaleMisfit(op, r) != "" {
			continue // tensor-memory operands, or scales the product has not (or lacks): described, not planned
		}
		if r.Subgroups > 1 {
			out = append(out, warpgroupChoices(op, r, warps)...)
			continue
		}
		ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
		if ra == nil || rb == nil || rc == nil || rd == nil || ra.Layout == nil || rb.Layout == nil || rc.Layout == nil {
			continue // an operand in shared memory or left unspecified (wgmma's B, WMMA)
		}
		if ra.DType.Name != a.DType.Name || rb.DType.Name != b.DType.Name || rc.DType.Name != c.DType.Name || rd.DType.Name != op.Result.DType.Name {
			continue
		}
		if m%r.M != 0 || n%r.N != 0 || k%r.K != 0 {
			continue
		}
		for wm := 1; wm <= warps; wm++ {
			if warps%wm != 0 {
				continue
			}
			wn := warps / wm
			// The warps along a dimension split its tiles evenly, or, where
			// there are fewer tiles than warps (Triton's small tiles: 2x1
			// tiles on 4 warps), each tile is held by a whole number of
			// warps, which hold copies.
			tm, tn := m/r.M, n/r.N
			if tm%wm != 0 && wm%tm != 0 || tn%wn != 0 && wn%tn != 0 {
				continue
			}
			for _, outer := range []bool{false, true} {
				if outer && (tm/min(tm, wm) == 1 && tn/min(tn, wn) == 1 || wm*wn == 1) {
					continue // no register repeats or one warp: the same layouts
				}
				for _, nFirst := range []bool{true, false} {
					if !nFirst && (wm == 1 || wn == 1) {
						continue // the same layouts as N first
					}
					ch, err := tileMMA(r, m, n, k, wm, wn, nFirst, outer, regs)
					switch {
					case err != nil:
					case wm > tm || wn > tn:
						copies = append(copies, ch)
					default:
						out = append(out, ch)
					}
				}
			}
		}
	}
	return out, copies
}

// repeatOrder is which of M and N an accumulator's register repeats run
// along first.
type repeatOrder bool

const (
	repeatNFirst repeatOrder = false // row major, as Triton's mma encodings repeat
	repeatMFirst repeatOrder = true
)

// tileMMA repeats a record's fragments over the operands: warps wm along M
// and wn along N (the operand that lacks a dimension repeats over those
// warps), then register repeats, the K repeats of A and B innermost and
// the accumulator's in order accRepeats.
func tileMMA(r *model.Record, m, n, k, wm, wn int, nFirst, outer bool, accRepeats repeatOrder) (*MMAChoice, error) {
	t := model.TileMMA(r, m, n, k, wm, wn, nFirst, outer, accRepeats == repeatMFirst)
	cf, af, bf := t.C, t.A, t.B
	c, err := model.Tile(r.Operands["c"].Layout, []int{m, n}, cf)
	if err != nil {
		return nil, err
	}
	a, err := tileOperand(r, "a", []int{m, k}, af)
	if err != nil {
		return nil, err
	}
	b, err := tileOperand(r, "b", []int{k, n}, bf)
	if err != nil {
		return nil, err
	}
	ch := &MMAChoice{Record: r, WarpsM: wm, WarpsN: wn, NFirst: nFirst, Outer: outer, A: a, B: b, C: c}
	if r.Scaled() {
		// A scale factor covers a block of K, and the record's scale
		// fragment holds its ScaleVec blocks: the scales repeat over the
		// warps and registers as A's rows and B's columns, one per K
		// tile as A and B do.
		blocks := k / r.ScaleBlock()
		if ch.ScaleA, err = model.Tile(r.Operands["scale_a"].Layout, []int{m, blocks}, af); err != nil {
			return nil, err
		}
		if ch.ScaleB, err = model.Tile(r.Operands["scale_b"].Layout, []int{blocks, n}, bf); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// vectorLayouts lists blocked layouts that move a tensor with each lane
// holding v consecutive elements of the contiguous dimension, for vectors
// of 16, 8 and 4 bytes and of one element: lanes fill the contiguous
// dimension first, warps the slowest.
func vectorLayouts(shape []int, contiguous, elemBits, lanes, warps int) []*model.Layout {
	r := len(shape)
	order := []int{contiguous}
	for d := r - 1; d >= 0; d-- {
		if d != contiguous {
			order = append(order, d)
		}
	}
	f := model.Frame{Shape: shape, SubgroupSize: lanes, Subgroups: warps}
	bytes := max((elemBits+7)/8, 1)
	var out []*model.Layout
	seen := map[int]bool{}
	for _, vb := range []int{16, 8, 4, bytes} {
		v := max(vb/bytes, 1)
		for v > 1 && (shape[contiguous]%v != 0 || !pow2(v)) {
			v /= 2
		}
		if seen[v] {
			continue
		}
		seen[v] = true
		// Lanes and warps over the largest powers of two below each
		// extent, or, where those do not tile it, dividing it.
		for _, fit := range []func(int) int{pow2Floor, pow2Divisor} {
			if l := spreadVectors(f, shape, order, contiguous, v, fit); l != nil {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// spreadVectors is the blocked layout with v-element vectors along the
// contiguous dimension, lanes filling the dimensions in order (fit(n)
// lanes or warps over n positions), warps the slowest; nil if that does
// not tile the shape.
func spreadVectors(f model.Frame, shape, order []int, contiguous, v int, fit func(int) int) *model.Layout {
	r := len(shape)
	lanes, warps := f.SubgroupSize, f.Subgroups
	b := &notation.Blocked{SizePerThread: ones(r), ThreadsPerWarp: ones(r), WarpsPerCTA: ones(r), Order: order}
	b.SizePerThread[contiguous] = v
	rest := make([]int, r)
	for d := range shape {
		rest[d] = fit(shape[d] / b.SizePerThread[d])
	}
	left := lanes
	for _, d := range order {
		t := min(rest[d], left)
		b.ThreadsPerWarp[d] = t
		rest[d] /= t
		left /= t
	}
	b.ThreadsPerWarp[order[len(order)-1]] *= left
	left = warps
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		w := min(max(rest[d], 1), left)
		b.WarpsPerCTA[d] = w
		rest[d] /= w
		left /= w
	}
	b.WarpsPerCTA[order[len(order)-1]] *= left
	if l, err := b.Layout(f); err == nil {
		return l
	}
	return nil
}

// pow2Divisor is the largest power of two dividing n.
func pow2Divisor(n int) int {
	if n <= 0 {
		return 1
	}
	return n & -n
}

func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func pow2Floor(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}

// namedLoadSeeds gives the result of every shared-memory load that names
// a load record a layout that record makes, where the seeds so far hold
// none: its fragment tiled over the value. Without one, a load whose
// consumers seed nothing the record makes (an ldmatrix whose only
// consumer is a store) would have no plan with the record it names,
// though the record can load any tile its fragments cover.
func (p *Problem) namedLoadSeeds(cands map[*model.Value]*candSet, warps int) {
	p.Graph.Walk(func(op *model.Op) {
		f := p.intrinsicFact(op)
		if op.Info().Records != model.RecordLoadShared || op.Result == nil || f == nil || p.relaxed(f) {
			return
		}
		r := p.namedLoad(op, p.loadRecs)
		if r == nil || r.Fragment == nil || r.Fragment.Layout == nil || r.Fragment.DType.Bits != op.Result.DType.Bits {
			return
		}
		v := op.Result
		if slices.ContainsFunc(cands[v].list, func(l *model.Layout) bool { _, ok := p.memo.ops.LoadInstructions(l, r); return ok }) {
			return
		}
		if l := fragmentTiling(r, v.Shape, warps); l != nil {
			cands[v].add(l)
		}
	})
}

// fragmentTiling repeats a load record's two-dimensional fragment over
// shape, the register repeats along the columns first: the warps split
// the rows, then the columns, as far as each warp still holds a whole
// number of instructions (Matrices fragments each); the warps left over
// hold copies. Nil where the fragments do not tile the shape or no split
// leaves whole instructions.
func fragmentTiling(r *model.Record, shape []int, warps int) *model.Layout {
	fs := r.Fragment.Shape
	if len(fs) != 2 || len(shape) != 2 || shape[0]%fs[0] != 0 || shape[1]%fs[1] != 0 {
		return nil
	}
	rows, cols := shape[0]/fs[0], shape[1]/fs[1]
	for split := warps; split >= 1; split /= 2 {
		for wr := split; wr >= 1; wr /= 2 {
			wc := split / wr
			if rows%wr != 0 || cols%wc != 0 || rows/wr*(cols/wc)%max(r.Matrices, 1) != 0 {
				continue
			}
			l, err := model.Tile(r.Fragment.Layout, shape, []model.TileFactor{
				{Dim: 1, Count: cols / wc, Hw: model.Register}, {Dim: 0, Count: rows / wr, Hw: model.Register},
				{Dim: 0, Count: wr, Hw: model.Subgroup}, {Dim: 1, Count: wc, Hw: model.Subgroup}, {Dim: -1, Count: warps / split, Hw: model.Subgroup}})
			if err != nil {
				continue
			}
			if _, ok := model.LoadInstructions(l, r); ok {
				return l
			}
		}
	}
	return nil
}
