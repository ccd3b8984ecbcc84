package model

import (
	"fmt"
	"slices"
)

// RegisterWords is the number of 32-bit registers one lane spends on a
// value of elemBits-bit elements held in layout l: its values per lane,
// narrower elements packed into a word where the conversion analysis
// packs them (Conversion), a 64-bit element two words. Copies of one
// element in several of a lane's registers (a broadcast along a register
// digit, whose image is zero) are one register: the lane reads the same
// register for each. A value left in shared memory for an instruction's
// descriptor holds none.
func RegisterWords(l *Layout, elemBits int) int {
	if l == nil || l.inShared {
		return 0
	}
	w := wordsPerLane(l, elemBits)
	if copies := l.copies; copies > 1 {
		w = (w + copies - 1) / copies
	}
	return w
}

// Liveness is where each value of a graph is live, over its program
// points. Every op in program order (Graph.Walk) has two: where it reads
// its operands, and after it, where its result is written; a loop has
// besides an exit point after its body, where its results appear. An
// operand read for the last time by an op is dead after it, so that the
// op's result may take its registers (an mma's accumulator is updated in
// place). Two more rules follow what compilers emit: an add of an mma's
// result into an accumulator is folded into the mma (FoldedAdd), and a
// load read by one mma or one store is streamed into it (StreamedUse).
type Liveness struct {
	// Points names each program point.
	Points []Point
	// Ranges lists, for each value (indexed as Graph.Values), the spans
	// of points, first and last included, at which it holds registers:
	// one span, or for a value made at each use (OpInfo.AtUse) one
	// point per use, and none for a value whose registers are another's
	// (Holder).
	Ranges [][][2]int
	// Holder is the index of the value whose registers each value is in:
	// itself, or for the result of a relabelling op (broadcast,
	// transpose, shape_cast: FlowRelabel, every element stays in its
	// lane and register) its operand's holder, which stays live as long
	// as the relabelled value does; for an mma folded with an add into
	// an accumulator (FoldedAdd), the mma's result and the add's are in
	// the accumulator's holder.
	Holder []int
	// Streamed marks the values streamed into their one consumer
	// (StreamedUse): such a value holds registers only where that op
	// reads it, and there only a part of its tile (HeldWords).
	Streamed []bool
	// Holdings lists what the compiled code holds besides the values
	// (held.go), for a liveness computed for a target (LiveOn): entry j
	// is indexed len(Graph.Values)+j in Ranges, Holder and Streamed, and
	// in the words each count takes.
	Holdings []Holding
	// Ample is set for a liveness of LiveAmple: no value is streamed, and
	// an mma's operands are held whole.
	Ample bool
	// issued is, where Ample, the point each hoisted global load
	// (Hoisted) is issued at: its addresses are read there, and its
	// result is live from the point after.
	issued map[*Op]int
	// computed is, where Ample, the point each element-wise op computed
	// at its reader (ComputedAtReader) reads its operands at: the
	// reading point of the first op of its chain that is not.
	computed map[*Op]int
}

// Point is one program point: where an op reads its operands, after it
// (After), or after a loop's body (Exit, Op the loop).
type Point struct {
	Op          *Op
	After, Exit bool
}

// String names a program point for people: "at mma s" where the op reads
// its operands, "after mma s" once it has written its result, "entering
// loop kv" where a loop's carried values take their inits, "after loop
// kv" at its exit.
func (p Point) String() string {
	switch {
	case p.Op == nil:
		return "at no op"
	case p.Exit:
		return "after loop " + p.Op.Name
	case p.After && p.Op.Body != nil:
		return "entering loop " + p.Op.Name
	case p.After:
		return fmt.Sprintf("after %s %s", p.Op.KindName(), p.Op.Name)
	}
	return fmt.Sprintf("at %s %s", p.Op.KindName(), p.Op.Name)
}

// Live computes the liveness of g's values. A value is live from after
// the op that makes it to its last use. A value used inside a loop that
// it is made outside of is live through the whole loop, the loop's back
// edge included, since every trip reads it. A loop's carried value is
// live from the loop's start to its last use and its yield from where it
// is made to the back edge, so the carried state holds registers through
// the whole loop; its inits are live up to the loop and its results from
// the loop's exit. A constant is written where each use reads it, and
// read by an element-wise op it is an immediate operand and holds none
// (ReadsImmediate).
func Live(g *Graph) *Liveness { return live(g, false, nil) }

// live is Live, with no value streamed into its consumer where ample is
// set (Ample: a kernel with registers to spare loads a trip's operands
// whole) but a result summed as it is made (ReducedAsMade), a global
// load outside loops live from where ptxas issues it (Hoisted), an
// element-wise result read by one element-wise op computed there
// (ComputedAtReader: it holds no registers, and its operands are live
// to that point), and a
// relabel for which moves reports true (a conversion between two
// layouts: the result is a copy in registers of its own) given a range
// of its own instead of its operand's registers.
func live(g *Graph, ample bool, moves func(*Op) bool) *Liveness {
	ops := g.OpCount()
	lv := &Liveness{Points: make([]Point, 0, 2*ops), Holder: make([]int, 0, len(g.Values)), Ranges: make([][][2]int, 0, len(g.Values))}
	at := make(map[*Op]int, ops)                    // an op's reading point; the point after it is at+1
	first, last := map[*Loop]int{}, map[*Loop]int{} // after a loop's op, and after its body's last op
	exit := map[*Loop]int{}
	lv.issued = map[*Op]int{}
	var walk func(ops []*Op)
	walk = func(ops []*Op) {
		since := -1 // the reading point of the block's first op, or of the first after its last loop or global store
		for _, op := range ops {
			at[op] = len(lv.Points)
			if since < 0 {
				since = at[op]
			}
			if ample && Hoisted(op) {
				lv.issued[op] = since
			}
			if op.Body != nil || (op.Info().Memory == MemoryGlobal && op.Info().Writes) {
				since = -1
			}
			lv.Points = append(lv.Points, Point{Op: op}, Point{Op: op, After: true})
			if l := op.Body; l != nil {
				first[l] = at[op] + 1
				walk(l.Ops)
				last[l] = len(lv.Points) - 1
				exit[l] = len(lv.Points)
				lv.Points = append(lv.Points, Point{Op: op, Exit: true})
			}
		}
	}
	walk(g.Ops)
	// through extends end to the back edge of every loop around a use
	// (in loop in) that begins after the value is made.
	through := func(end, start int, in *Loop) int {
		for l := in; l != nil; l = l.Parent {
			if first[l] > start {
				end = max(end, last[l])
			}
		}
		return end
	}
	lv.computed = map[*Op]int{}
	if ample {
		var ops []*Op
		g.Walk(func(op *Op) { ops = append(ops, op) })
		for _, op := range slices.Backward(ops) { // a reader after the ops it reads
			if ComputedAtReader(op) {
				r := op.Result.Uses[0].Op
				p, ok := lv.computed[r]
				if !ok {
					p = at[r]
				}
				lv.computed[op] = p
			}
		}
	}
	readAt := func(op *Op) int {
		if p, ok := lv.computed[op]; ok {
			return p
		}
		return at[op]
	}
	index := make(map[*Value]int, len(g.Values))
	for i, v := range g.Values {
		index[v] = i
		lv.Holder = append(lv.Holder, i)
		_, streamed := StreamedUse(v)
		streamed = streamed && (!ample || ReducedAsMade(v))
		lv.Streamed = append(lv.Streamed, streamed)
		if streamed { // loaded where its consumer reads it, a part at a time
			p := at[v.Uses[0].Op]
			lv.Ranges = append(lv.Ranges, [][2]int{{p, p}})
			continue
		}
		if _, ok := lv.computed[v.Def]; ok && v.Def != nil {
			lv.Ranges = append(lv.Ranges, nil) // made an element at a time where its reader reads it
			continue
		}
		if v.Def != nil && v.Def.Info().AtUse {
			var rs [][2]int
			for _, u := range v.Uses {
				if ReadsImmediate(u) || moves != nil && moves(u.Op) {
					// An element-wise op's immediate; or converted, a
					// splat stored from one register into the round
					// trip's scratch (the zero accumulator of
					// examples/ttgir/chained_dots_sm80 in Triton's
					// layouts: STS.128 [R161], RZ).
					continue
				}
				p := readAt(u.Op)
				if u.Yield {
					p = last[u.Op.Body]
				}
				rs = append(rs, [2]int{p, p})
			}
			lv.Ranges = append(lv.Ranges, rs)
			continue
		}
		start := 0
		switch {
		case v.Arg != nil:
			start = first[v.Arg]
		case v.Def != nil && v.Def.Body != nil:
			start = exit[v.Def.Body]
		case v.Def != nil:
			start = at[v.Def] + 1
			if p, ok := lv.issued[v.Def]; ok {
				start = p + 1 // from after its issue, where its addresses are read
			}
		}
		end := start
		for _, u := range v.Uses {
			p, in := readAt(u.Op), u.Op.In
			if u.Yield {
				p, in = last[u.Op.Body], u.Op.Body
			}
			end = max(end, through(p, start, in))
		}
		lv.Ranges = append(lv.Ranges, [][2]int{{start, end}})
	}
	// within puts value r in the registers of value h's holder, which
	// stays live as long as r does.
	within := func(r, h int) {
		h = lv.Holder[h]
		lv.Holder[r] = h
		rh, rr := lv.Ranges[h], lv.Ranges[r]
		switch {
		case len(rh) == 1 && len(rr) > 0:
			// The holder stays live until the relabelled value's last use.
			rh[0][1] = max(rh[0][1], rr[len(rr)-1][1])
		default:
			// A constant relabelled: it is written where the relabelled
			// value is read.
			lv.Ranges[h] = append(rh, rr...)
		}
		lv.Ranges[r] = nil
	}
	g.Walk(func(op *Op) { // operands are made before their ops
		if acc, mma, ok := FoldedAdd(op); ok {
			// The mma accumulates into acc's registers: its zero C is
			// never written, and its result and the sum are acc.
			c := index[mma.Operands[2]]
			lv.Ranges[c] = slices.DeleteFunc(lv.Ranges[c], func(r [2]int) bool { return r[0] == at[mma] })
			within(index[mma.Result], index[acc])
			within(index[op.Result], index[acc])
			return
		}
		if op.Result == nil || op.Info().Flow != FlowRelabel || len(op.Operands) != 1 {
			return // a join's result holds both its operands: registers of its own
		}
		if moves != nil && moves(op) {
			return
		}
		r, ok := index[op.Result]
		h, ok2 := index[op.Operands[0]]
		if !ok || !ok2 {
			return
		}
		within(r, h)
	})
	return lv
}

// LiveOn is Live with what t's compiled code holds besides the values
// (holdingsOf): each access's row addresses where it reads its operands, an
// access's base and row offsets inside a loop through the outermost loop
// around it, a loop's counter and run-time bound through its body, a
// mask's predicates beyond the predicate registers from its first access
// to its last, and the registers every kernel keeps throughout.
func LiveOn(g *Graph, t *Target) *Liveness { return liveOn(g, t, false, nil) }

// LiveAmple is LiveOn as ptxas holds registers where they are plentiful
// (model/held.go): no value streamed into its consumer but a result
// summed as it is made (ReducedAsMade), the loads outside loops issued
// early (Hoisted) with their addresses and masks, an element-wise result
// read by one element-wise op made there (ComputedAtReader), and besides the
// holdings of LiveOn every row's address at an access, the shared-memory
// addresses of the accesses in loops and a reduction's partial results.
// It estimates the registers a kernel with room to spare is compiled to;
// LiveOn is the floor a budget is checked at.
func LiveAmple(g *Graph, t *Target) *Liveness { return liveOn(g, t, true, nil) }

// liveOn is LiveOn, or LiveAmple where ample is set; given the layouts of
// a, LiveAmple counts the copies conversions make (Converted).
func liveOn(g *Graph, t *Target, ample bool, a *Assignment) *Liveness {
	var moves func(*Op) bool
	if ample && a != nil {
		moves = func(op *Op) bool { return Converted(op, a) }
	}
	lv := live(g, ample, moves)
	lv.Ample = ample
	lv.Holdings = holdingsOf(g, t, ample, a)
	if len(lv.Holdings) == 0 {
		return lv
	}
	at := map[*Op]int{} // an op's reading point; a loop's entering point is at+1, its exit after its body
	exit := map[*Op]int{}
	for k, p := range lv.Points {
		switch {
		case p.Exit:
			exit[p.Op] = k
		case !p.After:
			at[p.Op] = k
		}
	}
	body := func(loop *Op) [2]int { return [2]int{at[loop] + 1, exit[loop] - 1} }
	outermost := func(op *Op) *Op { // the outermost loop around op
		l := op.In
		for l.Parent != nil {
			l = l.Parent
		}
		return l.Op
	}
	for _, h := range lv.Holdings {
		var r [2]int
		switch h.Kind {
		case HoldAddress, HoldRowAddresses:
			r = [2]int{at[h.Op], at[h.Op]}
			if p, ok := lv.issued[h.Op]; ok {
				r = [2]int{p, p}
			}
		case HoldReduceTree:
			r = [2]int{at[h.Op], at[h.Op]}
		case HoldConverted:
			// Made where the op reads its operand, kept to where the op
			// is computed (ComputedAtReader).
			r = [2]int{at[h.Op], at[h.Op]}
			if p, ok := lv.computed[h.Op]; ok {
				r[1] = p
			}
		case HoldConvertedAddresses:
			if h.Op.In == nil {
				// Through the round trip: its loads write the copy, which
				// is live from the point after the conversion.
				r = [2]int{at[h.Op], at[h.Op] + 1}
			} else {
				r = body(outermost(h.Op))
			}
		case HoldBase, HoldRowOffsets, HoldSharedAddresses:
			r = body(outermost(h.Op))
		case HoldMask:
			// From the first access to the last, through the outermost
			// loop around either, whose every trip reads the mask.
			r = [2]int{at[h.Op], at[h.Last]}
			if p, ok := lv.issued[h.Op]; ok {
				r[0] = p // formed where the first access is issued
			}
			for _, op := range []*Op{h.Op, h.Last} {
				if op.In != nil {
					b := body(outermost(op))
					r = [2]int{min(r[0], b[0]), max(r[1], b[1])}
				}
			}
		case HoldThread, HoldReserved:
			r = [2]int{0, len(lv.Points) - 1}
		case HoldMaskCoordinates:
			if h.Last == nil {
				r = body(outermost(h.Op))
			} else {
				r = [2]int{at[h.Op], at[h.Last]}
				if p, ok := lv.issued[h.Last]; ok && p < at[h.Last] {
					// Formed where the access is issued, at the kernel's
					// first access or before it.
					r = [2]int{min(r[0], p), max(r[0], p)}
				}
			}
		default:
			r = body(h.Op)
		}
		lv.Ranges = append(lv.Ranges, [][2]int{r})
		lv.Holder = append(lv.Holder, len(lv.Holder))
		lv.Streamed = append(lv.Streamed, false)
	}
	return lv
}

// Hoisted reports whether op is a global load that ptxas issues, where
// registers are plentiful, as early as its block allows: a load outside
// every loop that reads no value of the graph (its addresses come from
// the program's and the thread's indices and the kernel's arguments).
// It is issued ahead of the arithmetic before it, to hide its latency,
// with the first op of its block or the first after the last loop or
// global store before it, and its registers are live from there. The
// SASS of testdata/triton/layernorm_sm80 loads w and b, which the TTGIR
// reads after both reductions, as the kernel's first instructions (@!P0
// LDG.E R10, [R2.64] at 0x0120, before the loads of x) and holds them
// through the reductions; matmul_bias_relu_sm80's bias, loaded after its
// K loop, is loaded there (@!P0 LDG.E.64 R12 at 0x0bb0, after the loop's
// branch at 0x09a0). Inside a loop ptxas weighs a load against the
// registers of the mma around it (flash_attention_sm80 issues V's loads
// among the HMMAs of Q·Kᵀ, not at the top of the body), which a liveness
// count cannot follow, so a load in a loop stays where its graph has it.
func Hoisted(op *Op) bool {
	info := op.Info()
	return op.In == nil && info.Memory == MemoryGlobal && !info.Writes && op.Result != nil && len(op.Operands) == 0
}

// ComputedAtReader reports whether op is an element-wise op whose result
// has one reader, an element-wise op in the same block, so that where
// registers are plentiful the compiled code makes it an element at a time
// where that reader (or, along a chain of such ops, the last of them)
// reads its operands: the result never holds registers of its own, and
// op's operands stay live to there. Triton lowers an element-wise op to
// one instruction per element, and ptxas schedules each element's chain
// together: the SASS of testdata/triton/layernorm_sm80 in Triton's
// layouts multiplies the centred row by rstd (%y_43, read only by the
// multiplication by w) after the conversions of w and b, FMUL R49, R49,
// R34 at 0x0e40 after LDS.64 R8, [R35+0x300] at 0x0dd0, then FFMA R49,
// R49, R4, R10, the multiplication by w and the addition of b fused, so
// rstd (R34) is live through the conversions and the product never is
// whole. An add folded into an mma (FoldedAdd) is the mma's, and a
// value read by a yield is carried, so neither is made at its reader.
func ComputedAtReader(op *Op) bool {
	v := op.Result
	if v == nil || len(v.Uses) != 1 || !elementwise(op) {
		return false
	}
	u := v.Uses[0]
	if u.Yield || u.Op.In != op.In || !elementwise(u.Op) {
		return false
	}
	_, _, folded := FoldedAdd(op)
	return !folded
}

// elementwise reports whether op is an element-wise op of one result
// (ElementwiseFuncOf, FlowSame).
func elementwise(op *Op) bool {
	_, ok := ElementwiseFuncOf(op.Fn)
	return ok && op.Info().Flow == FlowSame && op.Result != nil
}

// ReadsImmediate reports whether use u of a constant reads it as an
// immediate operand, holding no register: an element-wise op's operand.
// A constant is one value splat over its tile (OpConstant), and PTX's
// arithmetic, comparison and selection instructions take it in the
// instruction (PTX ISA, "Operand Types": immediate operands; Triton's
// relu on sm_80 is FMNMX R, R, RZ, the zero register, in the SASS of
// matmul_bias_relu_sm80). An mma's C, a loop's init and a store's value
// are written into registers.
func ReadsImmediate(u Use) bool {
	if u.Yield {
		return false
	}
	return elementwise(u.Op)
}

// FoldedAdd reports whether op is an add that a compiler folds into an
// mma as its accumulator: op adds acc and the result of mma, an mma whose
// C is a constant (its zero) read by it alone, and neither acc nor the
// mma's result is read anywhere else, all in one loop body. The mma then
// runs as D = A·B + acc in acc's registers: Triton's combine pass
// rewrites dot(a, b, 0) + acc into dot(a, b, acc) when the dot's result
// has no other reader (lib/Dialect/Triton/Transforms/Combine.td,
// CombineDotAddFPattern), and an mma instruction computes D = A·B + C
// with D and C separate register operands (PTX ISA, "Warp Level Matrix
// Multiply-Accumulate Instructions", mma), which a compiler gives the
// same registers when C is not read again.
func FoldedAdd(op *Op) (acc *Value, mma *Op, ok bool) {
	f, isFunc := ElementwiseFuncOf(op.Fn)
	if !isFunc || !f.Accumulates || op.Info().Flow != FlowSame || op.Result == nil || len(op.Operands) != 2 {
		return nil, nil, false
	}
	for i, d := range op.Operands {
		acc = op.Operands[1-i]
		m := d.Def
		if m == nil || m.Info().Flow != FlowRecord || len(m.Operands) < 3 || m.In != op.In || len(d.Uses) != 1 || len(acc.Uses) != 1 || acc == d {
			continue
		}
		c := m.Operands[2]
		if c.Def == nil || !c.Def.Info().AtUse || len(c.Uses) != 1 || acc.DType != d.DType || (acc.Def != nil && acc.Def.Info().AtUse) {
			continue
		}
		return acc, m, true
	}
	return nil, nil, false
}

// StreamedUse reports whether v is a load streamed into its consumer,
// and that consumer's use: v is read from memory (a load or load_shared)
// and has one use, in the same loop body, as an mma's A or B or as the
// value a store or copy_to_shared writes. A compiler then loads it where
// it is read, a part at a time: an mma's operand one K step of the
// instruction after another (Triton lowers a dot to one mma instruction
// per K step of its tile, each reading its own registers of A and B, so
// a scheduler may load each step's fragments just before the mma that
// reads them), a store's value one vector after another.
func StreamedUse(v *Value) (Use, bool) {
	if ReducedAsMade(v) {
		return v.Uses[0], true
	}
	if v.Def == nil || len(v.Uses) != 1 {
		return Use{}, false
	}
	def, u := v.Def.Info(), v.Uses[0]
	if def.Memory == MemoryNone || def.Writes || u.Yield || u.Op.In != v.Def.In {
		return Use{}, false
	}
	info := u.Op.Info()
	switch {
	case info.Flow == FlowRecord && u.Index < 2: // an mma's a or b
		return u, true
	case info.Memory != MemoryNone && info.Writes && u.Index == 0:
		return u, true
	}
	return Use{}, false
}

// ReducedAsMade reports whether v is an element-wise op's result whose
// one use is a reduction's operand in the same loop body: the reduction
// combines each element as it is made, so v is never held whole (the
// SASS of examples/ttgir/layernorm_sm80 in the planner's layouts: the
// squares of the variance, a mulf read only by a sum, are FMUL R4, R27,
// R27 then FFMA R4, R46, R46, R4, each square fused into a partial sum
// as it is made; 41 registers of values at its peak, the 32 of the
// centred row and few besides). It is streamed into the reduction
// (StreamedUse), one vector at a time.
func ReducedAsMade(v *Value) bool {
	if v.Def == nil || len(v.Uses) != 1 {
		return false
	}
	u := v.Uses[0]
	if u.Yield || u.Index != 0 || u.Op.In != v.Def.In || !u.Op.Info().Combines {
		return false
	}
	return elementwise(v.Def)
}

// StreamVectorWords is the registers per lane a store streams at a time:
// one 16-byte vector, the widest access of one lane on NVIDIA (PTX ISA,
// "ld" and "st": .v4 of 32-bit elements) and AMD (global_load_dwordx4,
// global_store_dwordx4).
const StreamVectorWords = 4

// StreamedCopyWords is the most registers a lane a conversion's copy of
// an mma's A or B may hold and still be loaded whole where registers are
// plentiful; a larger copy made inside a loop is loaded one K step at a
// time (StreamedCopy). It is read off two kernels of docs/compiled.md,
// both Triton's layouts on sm_80: flash_attention_sm80 converts K
// (%k_54, 64 registers a lane in #ttg.dot_op) in four rounds, STS.128
// [R149] and four LDSM.16.M88.4 each, and the HMMAs of each round's K
// step follow its loads (0x0990 to 0x0c00), while matmul_bias_relu_sm80
// loads both rounds of its B (%b_68, 16 registers) with LDSM.16.MT88.4
// before the HMMAs that read them (0x0830 to 0x08d0).
const StreamedCopyWords = 32

// StreamedCopy reports whether the copy a conversion makes of an mma's A
// or B, read by use u and holding words registers a lane, is loaded one K
// step at a time where registers are plentiful, and returns the mma
// record's K step: a copy of more than StreamedCopyWords made in a loop.
// ptxas cannot move the round trip's shared loads across its barriers,
// but it moves the mma instructions up to them, so each step's
// instructions run once its loads are in. Outside loops it loads the
// copy whole (the SASS of examples/ttgir/chained_dots_sm80 in the
// planner's layouts issues all sixteen LDSM.16.MT88.4 of %b, 64 registers
// a lane, before the first HMMA). The caller checks that nothing the mma
// waits for is made after the conversion (lastBeforeMma,
// laterOperandConverted).
func StreamedCopy(u Use, words int, a *Assignment) (int, bool) {
	op := u.Op
	ch := a.Ops[op]
	if op.In == nil || u.Yield || op.Info().Flow != FlowRecord || u.Index > 1 || ch == nil || ch.Record == nil || words <= StreamedCopyWords {
		return 0, false
	}
	return ch.Record.KStep(), true
}

// lastBeforeMma reports whether v, the copy a relabel that converts
// (Converted) makes, is read by one mma as A or B in the same block with
// no other conversion or shared-memory access between the two, and no
// other operand of the mma made there: the mma then waits for v's loads
// alone. Where another round trip lies between, as Triton's converted
// accumulator does in examples/ttgir/chained_dots_sm80 (%23 after %21
// and %22), the mma waits for its loads, and A and B are loaded whole
// before it (every LDSM before the first HMMA). A constant made for its
// use (AtUse) waits for nothing.
func lastBeforeMma(g *Graph, v *Value, a *Assignment, pos map[*Op]int) (Use, bool) {
	if v.Def == nil || len(v.Uses) != 1 {
		return Use{}, false
	}
	u := v.Uses[0]
	if u.Yield || u.Op.In != v.Def.In || u.Op.Info().Flow != FlowRecord || u.Index > 1 || !Converted(v.Def, a) {
		return Use{}, false
	}
	ops := g.Ops
	if v.Def.In != nil {
		ops = v.Def.In.Ops
	}
	if len(pos) == 0 {
		blockPositions(g.Ops, pos)
	}
	i, j := pos[v.Def], pos[u.Op]
	if j < i {
		return Use{}, false
	}
	for _, op := range ops[i+1 : j] {
		if Converted(op, a) || op.Info().Memory == MemoryShared {
			return Use{}, false
		}
		for _, w := range u.Op.Operands {
			if w != v && w.Def == op && !op.Info().AtUse {
				return Use{}, false
			}
		}
	}
	return u, true
}

// blockPositions sets pos[op] to op's index in its block, for every op
// of ops and of the loop bodies within.
func blockPositions(ops []*Op, pos map[*Op]int) {
	for k, op := range ops {
		pos[op] = k
		if op.Body != nil {
			blockPositions(op.Body.Ops, pos)
		}
	}
}

// laterOperandConverted reports whether the plan converts an operand of
// mma op after operand i, up to its C: the plan's TTGIR makes each
// conversion just before the op that reads it, in operand order, so the
// mma then waits for that one's loads too.
func laterOperandConverted(op *Op, i int, a *Assignment) bool {
	for j := i + 1; j < len(op.Operands) && j < 3; j++ {
		w := op.Operands[j]
		if r := a.Required[Use{Op: op, Index: j}]; r != nil && a.Layouts[w] != nil && !r.Equal(a.Layouts[w]) {
			return true
		}
	}
	return false
}

// HeldStep is the registers per lane of words that an mma's operand v,
// read by use u, holds one K step of kStep at a time (kStep 0 or at
// least the tile's K: all of them), at least one.
func HeldStep(v *Value, u Use, words, kStep int) int {
	k := v.Shape[len(v.Shape)-1] // A is M×K
	if u.Index == 1 {
		k = v.Shape[len(v.Shape)-2] // B is K×N
	}
	if kStep <= 0 || kStep >= k || words == 0 {
		return words
	}
	return max(1, (words*kStep+k-1)/k)
}

// HeldWords is the registers per lane value v holds at its consumer's
// reading point when it holds words whole: all of them unless v is
// streamed (StreamedUse); a store's value one vector of them
// (StreamVectorWords), an mma's operand one K step of kStep of its K (the
// mma record's K; 0 when unknown: the whole tile), at least one register.
func HeldWords(v *Value, words, kStep int) int {
	u, ok := StreamedUse(v)
	if !ok || words == 0 {
		return words
	}
	if u.Op.Info().Flow != FlowRecord {
		return min(words, StreamVectorWords)
	}
	return HeldStep(v, u, words, kStep)
}

// RegisterPeak is the most 32-bit registers per lane that a graph's
// values hold at one program point, and where.
type RegisterPeak struct {
	Registers int
	Point     Point
	// Live lists the values live at the peak, with the registers each
	// holds per lane, most first (ties in graph order).
	Live []LiveValue
}

// LiveValue is one value live at a point and its registers per lane, or
// (Value nil) one thing the compiled code holds besides the values.
type LiveValue struct {
	Value     *Value
	Holding   *Holding
	Registers int
}

// String names a live entry and its registers per lane: "%x 16", or
// for a holding "counter of loop kv 1".
func (lv LiveValue) String() string {
	if lv.Value == nil {
		return fmt.Sprintf("%s %d", lv.Holding, lv.Registers)
	}
	return fmt.Sprintf("%%%s %d", lv.Value.Name, lv.Registers)
}

// Peak finds the program point where the registers per lane of the live
// values sum highest (the first such point), given each value's
// registers (indexed as Graph.Values). A graph with no ops has a peak of
// 0 at no op.
func (lv *Liveness) Peak(g *Graph, words []int) RegisterPeak {
	if len(lv.Points) == 0 {
		return RegisterPeak{}
	}
	best, at := -1, 0
	for p, used := range lv.Usage(words) {
		if used > best {
			best, at = used, p
		}
	}
	return lv.PeakAt(g, words, at)
}

// PeakAt is the registers per lane held at point k and the values live
// there.
func (lv *Liveness) PeakAt(g *Graph, words []int, k int) RegisterPeak {
	peak := RegisterPeak{Point: lv.Points[k]}
	for i := range lv.Ranges {
		if words[i] > 0 && lv.LiveAt(i, k) {
			if i < len(g.Values) {
				peak.Live = append(peak.Live, LiveValue{Value: g.Values[i], Registers: words[i]})
			} else {
				peak.Live = append(peak.Live, LiveValue{Holding: &lv.Holdings[i-len(g.Values)], Registers: words[i]})
			}
		}
		for _, r := range lv.Ranges[i] {
			if r[0] <= k && k <= r[1] {
				peak.Registers += words[i] // as Usage counts it
			}
		}
	}
	slices.SortStableFunc(peak.Live, func(a, b LiveValue) int { return b.Registers - a.Registers })
	return peak
}

// Usage is the registers per lane held at each point when each value
// holds words[i] (indexed as Graph.Values).
func (lv *Liveness) Usage(words []int) []int {
	used := make([]int, len(lv.Points)+1)
	for i, rs := range lv.Ranges {
		for _, r := range rs {
			used[r[0]] += words[i]
			used[r[1]+1] -= words[i]
		}
	}
	for p := 1; p < len(used); p++ {
		used[p] += used[p-1]
	}
	return used[:len(lv.Points)]
}

// LiveAt reports whether value i (indexed as Graph.Values) holds
// registers at point p.
func (lv *Liveness) LiveAt(i, p int) bool {
	for _, r := range lv.Ranges[i] {
		if r[0] <= p && p <= r[1] {
			return true
		}
	}
	return false
}

// AssignmentWords is the registers per lane each value of g holds under
// the layouts of a (indexed as Graph.Values); a value streamed into an
// mma is counted in the layout the mma reads it in, one K step of the
// mma's record at a time (HeldWords).
func AssignmentWords(g *Graph, a *Assignment) []int { return assignmentWords(g, a, false) }

// assignmentWords is AssignmentWords, with a value streamed into an mma
// held whole where ample is set (LiveAmple), in its own layout where the
// mma reads it in another, and a conversion's copy that an mma reads
// last one K step at a time (lastBeforeMma, StreamedCopy).
func assignmentWords(g *Graph, a *Assignment, ample bool) []int {
	words := make([]int, len(g.Values))
	pos := map[*Op]int{} // each op's index in its block, made when first needed
	for i, v := range g.Values {
		l, k := a.Layouts[v], 0
		if u, ok := StreamedUse(v); ok && u.Op.Info().Flow == FlowRecord {
			// Where registers are plentiful a load the mma reads in
			// another layout is held in its own until the conversion,
			// whose copy is a holding of its own (HoldConverted): the
			// SASS of examples/ttgir/chained_dots_sm80 in the planner's
			// layouts holds %c in #blocked, four LDG.E.128 of 16
			// registers, from its load to its conversion before the
			// second mma.
			if r := a.Required[u]; r != nil && (!ample || l == nil || r.Equal(l)) {
				l = r
			}
			if ch := a.Ops[u.Op]; ch != nil && ch.Record != nil && !ample {
				k = ch.Record.KStep()
			}
		}
		if ample {
			if u, ok := lastBeforeMma(g, v, a, pos); ok {
				whole := RegisterWords(l, v.DType.Bits)
				if ks, ok := StreamedCopy(u, whole, a); ok {
					words[i] = HeldStep(v, u, whole, ks)
					continue
				}
			}
		}
		if ample && !ReducedAsMade(v) {
			words[i] = RegisterWords(l, v.DType.Bits) // loaded whole
			continue
		}
		words[i] = HeldWords(v, RegisterWords(l, v.DType.Bits), k)
	}
	return words
}

// Words is the registers per lane of each of lv's entries under the
// layouts of a on t: the values' (AssignmentWords), then each held
// thing's, sized by the layout its value takes.
func (lv *Liveness) Words(g *Graph, t *Target, a *Assignment) []int {
	words := assignmentWords(g, a, lv.Ample)
	var memo *Memo // a round trip analysed once per pair of layouts
	for _, h := range lv.Holdings {
		var l *Layout
		if h.Value != nil {
			l = a.Layouts[h.Value]
		}
		switch h.Kind {
		case HoldConverted:
			from, to := h.conversionLayouts(a)
			w := h.copyWords(from, to)
			u, whole := Use{Op: h.Op, Index: h.Index}, RegisterWords(to, h.Value.DType.Bits)
			if ks, ok := StreamedCopy(u, whole, a); ok && w > 0 && !laterOperandConverted(h.Op, h.Index, a) {
				w = HeldStep(h.Value, u, whole, ks) // one K step of the copy, beside the value
			}
			words = append(words, w)
			continue
		case HoldConvertedAddresses:
			from, to := h.conversionLayouts(a)
			if memo == nil {
				memo = NewMemo()
			}
			words = append(words, h.roundTripAddresses(t, from, to, memo))
			continue
		}
		words = append(words, h.Words(t, l))
	}
	return words
}

// AssignmentPeak is the register peak of a graph whose values take the
// layouts of a on t, with what t's compiled code holds besides them
// (LiveOn).
func AssignmentPeak(g *Graph, t *Target, a *Assignment) RegisterPeak {
	lv := LiveOn(g, t)
	return lv.Peak(g, lv.Words(g, t, a))
}

// AssignmentEstimate is the register peak of the layouts of a on t as
// ptxas holds registers where they are plentiful (LiveAmple, with the
// copies and shared-memory addresses of a's conversions): what a kernel
// with room to spare is likely compiled to. It is at least AssignmentPeak
// but where a conversion's copy holds fewer registers than the value it
// converts, whose registers the floor keeps to the copy's last use.
func AssignmentEstimate(g *Graph, t *Target, a *Assignment) RegisterPeak {
	lv := liveOn(g, t, true, a)
	return lv.Peak(g, lv.Words(g, t, a))
}
