package solver

import (
	"fmt"
	"math/bits"
	"slices"

	"planner/model"
	"planner/solver/pbqp"
)

// maxPlacementSets bounds the choices of the buffer node: the product of
// the buffers' candidate placements.
const maxPlacementSets = 1024

// placements lists the placements considered for a two-dimensional
// buffer: the graph's own first when it gives one (a fact then forbids the
// others), dense row major, rows padded by 2, 4, 8, 16 and 32 bytes (32:
// the smallest pad a 32-byte stride multiple, wmma.load's, allows), 16 bytes
// of padding every 2 rows (seed 002's "pad m every n lines"), blocks of 4
// or 8 rows shifted by 8, 16, 32 or 40 bytes, and XOR
// swizzles of the 16-byte chunks of a row by the row index, 1 to 3 bits
// (Hopper's named 32B/64B/128B modes where a row is their span). Where
// atoms is set (an mma may read the buffer through a matrix descriptor)
// and the rows are wider than a mode's span, also the rows cut into
// column blocks of that span in that mode: a wgmma operand of several
// swizzle atoms side by side (model.SharedLayout.ColumnBlock); and the
// same stored column major (model.SharedLayout.ColumnMajor), the
// operand's other major (a K x N B held K-major, N rows of K).
func placements(b *model.Buffer, atoms bool) []*model.SharedLayout {
	if b.Layout == nil {
		return nil
	}
	if b.Fixed {
		return []*model.SharedLayout{b.Layout}
	}
	rows, cols, elemBits := b.Layout.Rows, b.Layout.Cols, b.Layout.ElemBits
	dense := func() *model.SharedLayout {
		return &model.SharedLayout{Rows: rows, Cols: cols, ElemBits: elemBits, Swizzle: "none"}
	}
	var out []*model.SharedLayout
	seen := map[string]bool{}
	add := func(s *model.SharedLayout) {
		if k := s.String(); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	add(b.Layout)
	add(dense())
	for _, padBytes := range []int{2, 4, 8, 16, 32} {
		if e := padBytes * 8 / elemBits; e >= 1 && padBytes*8%elemBits == 0 {
			s := dense()
			s.Stride = cols + e
			add(s)
		}
	}
	if e := 16 * 8 / elemBits; e >= 1 && rows > 2 {
		s := dense()
		s.Pad, s.PadEvery = e, 2
		add(s)
	}
	// Row-dependent padding on top of rows 0 or 16 bytes apart beyond
	// their width: a block of 4 or 8 rows shifted by 8, 16, 32 or 40
	// bytes. 40: the Z3 placement search found 16 bytes per row plus 40
	// every 8 rows conflict free for seed 001's MFMA A reads with 16-byte
	// copies, which the rest of this list misses. 32 every 8 rows of 128
	// bytes is the AMD convention Triton writes #ttg.padded_shared<[512:+16]>
	// for f16 (triton-lang/triton, TritonGPUAttrDefs.td,
	// PaddedSharedEncodingAttr: "a padding of <pad_i> elements after every
	// <interval_i> elements", both powers of two); an interval of one row
	// is the row pads above.
	for _, rowBytes := range []int{0, 16} {
		for _, every := range []int{4, 8} {
			for _, padBytes := range []int{8, 16, 32, 40} {
				extra, pad := rowBytes*8/elemBits, padBytes*8/elemBits
				if rows <= every || pad < 1 || padBytes*8%elemBits != 0 || rowBytes*8%elemBits != 0 {
					continue
				}
				s := dense()
				if extra > 0 {
					s.Stride = cols + extra
				}
				s.Pad, s.PadEvery = pad, every
				add(s)
			}
		}
	}
	rowBytes := cols * elemBits / 8
	if rowBytes >= 32 && rowBytes&(rowBytes-1) == 0 && cols*elemBits%8 == 0 {
		shift := bits.TrailingZeros(uint(rowBytes)) - 4
		for b := 1; b <= 3 && 16<<b <= rowBytes; b++ {
			s := dense()
			if rowBytes == 16<<b {
				s.Swizzle = []string{"", "32B", "64B", "128B"}[b]
			} else {
				s.XOR = model.Swizzle{Bits: b, Base: 4, Shift: shift}
			}
			add(s)
		}
	}
	if atoms {
		// Stored row major and, for the other major of the operand (a
		// K-major B), column major: rows of a mode's span, or wider rows
		// in column blocks of it.
		for _, colMajor := range []bool{false, true} {
			srows, scols := rows, cols
			if colMajor {
				srows, scols = cols, rows
			}
			sbytes := scols * elemBits / 8
			if srows%8 != 0 || scols*elemBits%8 != 0 {
				continue
			}
			for _, mode := range model.SwizzleModes[1:] {
				span := model.ModeSpan(mode)
				if sbytes < span || sbytes%span != 0 || sbytes == span && !colMajor {
					continue
				}
				s := dense()
				s.Swizzle, s.ColumnMajor = mode, colMajor
				if sbytes > span {
					s.ColumnBlock = span * 8 / elemBits
				}
				add(s)
			}
		}
	}
	if b.Described {
		// Only the placements a matrix descriptor describes, as the
		// kernel's op reads the buffer through one, and the graph's own
		// where it states one (its fact then decides); all of them when
		// none is (the front end then keeps the kernel's own).
		if d := slices.DeleteFunc(slices.Clone(out), func(s *model.SharedLayout) bool {
			_, err := s.CanonicalMode()
			return err != nil && !(s == b.Layout && stated(b))
		}); len(d) > 0 {
			out = d
		}
	}
	return out
}

// readThroughDescriptor reports whether an mma may read buffer b through
// a matrix descriptor: some mma record of the target reads an operand
// from shared memory (wgmma's B), and an mma's operand in that role is
// loaded from b.
func (p *Problem) readThroughDescriptor(b *model.Buffer) bool {
	roles := map[string]bool{}
	for _, r := range p.plainMMA {
		if role := r.SharedOperand(); role != "" {
			roles[role] = true
		}
	}
	found := false
	p.Graph.Walk(func(op *model.Op) {
		if found || len(roles) == 0 || op.Info().Flow != model.FlowRecord {
			return
		}
		for i, x := range op.Operands[:min(2, len(op.Operands))] {
			found = found || roles[model.RoleName(op, i)] && x.Def != nil && x.Def.ReadsShared() && x.Def.Buffer == b
		}
	})
	return found
}

// stated reports whether the graph places buffer b otherwise than dense
// row major, or fixes its placement (model.Buffer.Fixed): a placement the
// user chose.
func stated(b *model.Buffer) bool {
	l := b.Layout
	return l != nil && (b.Fixed || l.Stride != 0 || l.PadEvery != 0 || l.Swizzle != "" && l.Swizzle != "none" || l.XOR.Bits != 0)
}

// bufferNodes make the decisions of the buffers' placements. While the
// largest placements of all buffers together with the largest conversion
// scratch fit the budget, each buffer is a decision of its own; otherwise
// one decision takes every combination of the buffers' placements, so
// that their total is checked exactly. A choice is forbidden where it
// breaks the graph's own placement (its buffer fact) or overflows the
// budget or the target's capacity.
func (p *Problem) bufferNodes() {
	g := p.Graph
	if len(g.Buffers) == 0 {
		return
	}
	var cands [][]*model.SharedLayout
	most := 0
	for _, b := range g.Buffers {
		pl := placements(b, b.Described || p.readThroughDescriptor(b))
		if pl == nil {
			pl = []*model.SharedLayout{nil}
		} else if !p.accessed(b) {
			pl = pl[:1] // nothing reads or writes it: its own placement
		}
		cands = append(cands, pl)
		big := b.Bytes()
		for _, s := range pl {
			if s != nil {
				big = max(big, s.Bytes())
			}
		}
		most += big
	}
	scratch := 0
	for _, v := range g.Values {
		scratch = max(scratch, v.Elements()*max(v.DType.Bits/8, 1))
	}
	p.bufNode = map[*model.Buffer]*Node{}
	p.bufSlot = map[*model.Buffer]int{}
	lim := p.Target.SharedMemory
	if g.HasBudget {
		lim = min(lim, g.SharedBudget)
	}
	if most+scratch <= lim {
		for i, b := range g.Buffers {
			p.placementNode([]*model.Buffer{b}, cands[i:i+1])
		}
	} else {
		p.placementNode(g.Buffers, cands)
		p.combined = true
	}
	p.Buffers = 0
	for _, n := range p.bufNodes {
		p.Buffers += slices.Min(n.Bytes)
	}
}

// placementNode makes one decision over the placements of some buffers:
// every combination of their candidates.
func (p *Problem) placementNode(bufs []*model.Buffer, cands [][]*model.SharedLayout) {
	g := p.Graph
	// Fewer candidates for the buffers with most while the product is too
	// large.
	for product(cands) > maxPlacementSets {
		k := 0
		for i := range cands {
			if len(cands[i]) > len(cands[k]) {
				k = i
			}
		}
		cands[k] = cands[k][:len(cands[k])-1]
	}
	n := &Node{Kind: NodeBuffers, Buffers: bufs}
	idx := make([]int, len(cands))
	for {
		set := make([]*model.SharedLayout, len(cands))
		for i, k := range idx {
			set[i] = cands[i][k]
		}
		n.Placements = append(n.Placements, set)
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(cands[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	budget, capacity := p.budgetFacts()
	costs := make([]int64, len(n.Placements))
	var forbids []forbid
	for c, set := range n.Placements {
		total := 0
		for i, s := range set {
			if s == nil {
				total += bufs[i].Bytes()
				continue
			}
			total += s.Bytes()
			if f := p.bufferFact(bufs[i]); f != nil && s != bufs[i].Layout {
				forbids = append(forbids, forbid{I: int32(c), Guard: p.guard(f)})
			}
		}
		n.Bytes = append(n.Bytes, total)
		if budget != nil && total > g.SharedBudget {
			forbids = append(forbids, forbid{I: int32(c), Guard: p.guard(budget)})
		}
		if total > p.Target.SharedMemory {
			forbids = append(forbids, forbid{I: int32(c), Guard: p.guard(capacity)})
		}
	}
	least := slices.Min(n.Bytes)
	for _, f := range []*model.Fact{budget, capacity} {
		lim := p.Target.SharedMemory
		if f == budget {
			lim = g.SharedBudget
		}
		if f != nil && least > lim {
			f.Text += fmt.Sprintf(", but the buffers alone take at least %s", bytesText(least))
		}
	}
	p.addNode(n, costs, forbids)
	p.bufNodes = append(p.bufNodes, n)
	for i, b := range bufs {
		p.bufNode[b], p.bufSlot[b] = n, i
	}
}

// placement is the placement of buffer b in a choice of the problem.
func (p *Problem) placement(b *model.Buffer, choice []int) *model.SharedLayout {
	n := p.bufNode[b]
	return n.Placements[choice[n.ID]][p.bufSlot[b]]
}

func product(cands [][]*model.SharedLayout) int {
	n := 1
	for _, c := range cands {
		n *= len(c)
	}
	return n
}

// accessed reports whether some op reads or writes buffer b.
func (p *Problem) accessed(b *model.Buffer) bool {
	found := false
	p.Graph.Walk(func(op *model.Op) {
		found = found || op.Buffer == b && op.Info().Memory == model.MemoryShared
	})
	return found
}

// placed reports whether op's buffer's placement is a decision (a
// two-dimensional buffer), so that its access costs lie on an edge to the
// buffer node.
func (p *Problem) placed(op *model.Op) bool {
	return op.Buffer != nil && op.Buffer.Layout != nil && p.bufNode[op.Buffer] != nil
}

// accessEdge adds the edge between the node whose choice is the layout an
// op accesses its buffer in (the copy's execution layout, the load's
// result) and the buffer node: the access's cost for every placement,
// forbidden where the load's named record cannot read the placement.
func (p *Problem) accessEdge(op *model.Op, n *Node, loadRecs []*model.Record) error {
	bn := p.bufNode[op.Buffer]
	bi := p.bufSlot[op.Buffer]
	m := make([][]int64, n.Choices())
	var forbids []forbid
	intr := p.intrinsicFact(op)
	var named *model.Record
	if op.ReadsShared() && intr != nil {
		named = p.namedLoad(op, loadRecs)
	}
	if op.ReadsShared() && p.loadRecord == nil {
		p.loadRecord = map[*model.Op]map[[2]int]*model.Record{}
	}
	// Costs depend on this buffer's placement only: price each distinct
	// placement once.
	var distinct []*model.SharedLayout
	which := make([]int, bn.Choices())
	for c, set := range bn.Placements {
		k := slices.Index(distinct, set[bi])
		if k < 0 {
			k = len(distinct)
			distinct = append(distinct, set[bi])
		}
		which[c] = k
	}
	refused := make([]bool, len(distinct))
	if named != nil {
		for k, s := range distinct {
			refused[k] = p.admits(named, s) != nil
		}
	}
	// Every layout's price against every distinct placement, on every
	// CPU; the few that facts forbid are priced again below, alone, with
	// their guards.
	cells := len(n.Layouts) * len(distinct)
	namedOff := p.relaxed(intr)
	prices := make([]accessPrice, cells)
	err := p.inParallel(cells, pairChunk, func(_ *model.AccessCache, lo, hi int) {
		for c := lo; c < hi; c++ {
			i, k := c/len(distinct), c%len(distinct)
			prices[c] = p.priceAccess(op, n.Layouts[i], distinct[k], named, refused[k], namedOff, loadRecs)
		}
	})
	if err != nil {
		return err
	}
	refusedGuard := int32(-1)
	for i, l := range n.Layouts {
		m[i] = make([]int64, bn.Choices())
		costs := make([]int64, len(distinct))
		recs := make([]*model.Record, len(distinct))
		guards := make([]int32, len(distinct))
		for k := range guards {
			guards[k] = -1
		}
		for k, s := range distinct {
			pr := prices[i*len(distinct)+k]
			if pr.err != nil {
				return pr.err
			}
			if pr.guarded {
				guards[k] = p.accessGuard(op, l, s) // the cost stays 0: the guard forbids the pair
				continue
			}
			costs[k], recs[k] = pr.cost, pr.rec
		}
		for c := range bn.Placements {
			k := which[c]
			m[i][c] = costs[k]
			if refused[k] {
				if refusedGuard < 0 { // made where first needed, the same after
					refusedGuard = p.guard(intr, p.memoryFact(named))
				}
				forbids = append(forbids, forbid{I: int32(i), J: int32(c), Guard: refusedGuard})
			}
			if guards[k] >= 0 {
				m[i][c] = 0
				forbids = append(forbids, forbid{I: int32(i), J: int32(c), Guard: guards[k]})
			}
			if recs[k] != nil {
				if p.loadRecord[op] == nil {
					p.loadRecord[op] = map[[2]int]*model.Record{}
				}
				p.loadRecord[op][[2]int{i, c}] = recs[k]
			}
		}
	}
	for _, f := range forbids {
		if p.inForce(f.Guard) {
			m[f.I][f.J] = Inf
		}
	}
	p.Edges = append(p.Edges, &Edge{Kind: EdgeAccess, From: n.ID, To: bn.ID, Use: model.Use{Op: op}})
	p.PBQP.Edges = append(p.PBQP.Edges, pbqp.Edge{A: n.ID, B: bn.ID, M: p.memo.mats.shared(m)})
	p.facts.edgeForbid = append(p.facts.edgeForbid, forbids)
	return nil
}

// accessPrice is priceAccess's answer.
type accessPrice struct {
	cost    int64
	rec     *model.Record
	guarded bool // facts forbid the pair: accessGuard names them
	err     error
}

// priceAccess is the cost of op accessing placement s with layout l and
// the record it does so with (see accessCost), or that facts forbid the
// pair (guarded), which accessGuard names: it makes no fact, so
// goroutines may call it at once. namedOff says that the build leaves
// out the op's intrinsic fact.
func (p *Problem) priceAccess(op *model.Op, l *model.Layout, s *model.SharedLayout, named *model.Record, refused, namedOff bool, loadRecs []*model.Record) accessPrice {
	if op.WritesShared() {
		store := p.familyStore(op, l)
		if l.Opaque() != "" && store == nil || store != nil && p.admits(store, s) != nil {
			return accessPrice{guarded: true}
		}
		cost, _, err := p.memo.ops.OpCost(op, nil, &model.OpChoice{Exec: l, Buffer: s, Record: store}, p.Target)
		return accessPrice{cost: cost, rec: store, err: err}
	}
	if l.InShared() {
		return accessPrice{}
	}
	cost, rec, err := p.loadCost(op, l, s, loadRecs)
	switch {
	case err != nil:
		return accessPrice{err: err}
	case cost >= Inf:
		return accessPrice{guarded: true}
	}
	if named != nil && !refused && !namedOff && named.Fragment != nil && named.Fragment.Layout != nil {
		if nc, _, err := p.memo.ops.OpCost(op, l, &model.OpChoice{Record: named, Buffer: s}, p.Target); err == nil {
			cost, rec = nc, named
		}
	}
	return accessPrice{cost: cost, rec: rec}
}

// accessCost is the cost of op accessing its buffer in placement s with
// layout l (the copy's execution layout, the load's result), the guard of
// the facts forbidding the pair (-1: none; the cost is then Inf), and the
// record it reads (or, for an opaque fragment, writes) with: the named record where the op names one that
// admits s (refused says it does not), else the cheapest way.
func (p *Problem) accessCost(op *model.Op, l *model.Layout, s *model.SharedLayout, named *model.Record, refused bool, loadRecs []*model.Record) (int64, *model.Record, int32, error) {
	// The named record's choice was made with the op's intrinsic fact.
	namedOff := named != nil && p.relaxed(p.intrinsicFact(op))
	pr := p.priceAccess(op, l, s, named, refused, namedOff, loadRecs)
	if pr.guarded {
		return Inf, nil, p.accessGuard(op, l, s), nil
	}
	return pr.cost, pr.rec, -1, pr.err
}

// accessGuard is the guard of the facts that forbid op accessing
// placement s with layout l, where priceAccess found them (guarded): an
// opaque fragment is written by its family's store record, and read only
// by its family's load records, which may not admit s.
func (p *Problem) accessGuard(op *model.Op, l *model.Layout, s *model.SharedLayout) int32 {
	if op.WritesShared() {
		if store := p.familyStore(op, l); store != nil {
			return p.guard(p.familyFact(l), p.memoryFact(store))
		}
		return p.guard(p.familyFact(l))
	}
	memory := []*model.Fact{p.familyFact(l)}
	for _, r := range p.families[l.Opaque()] {
		if r.Kind == model.RecordLoadShared && p.admits(r, s) != nil {
			memory = append(memory, p.memoryFact(r))
		}
	}
	return p.guard(memory...)
}

// loadCost is the cheapest way to read layout l from placement s: plain
// vector loads or a load record whose rule admits s and whose fragment l
// repeats.
func (p *Problem) loadCost(op *model.Op, l *model.Layout, s *model.SharedLayout, loadRecs []*model.Record) (int64, *model.Record, error) {
	v := op.Result
	best, _, err := p.memo.ops.OpCost(op, l, &model.OpChoice{Buffer: s}, p.Target)
	if err != nil {
		return 0, nil, err
	}
	if l.Opaque() != "" {
		best = Inf // plain loads cannot make an unspecified fragment
	}
	var rec *model.Record
	for _, r := range loadRecs {
		if r.Fragment == nil || r.Fragment.Layout == nil || r.Fragment.DType.Bits != v.DType.Bits {
			continue
		}
		if _, ok := p.memo.ops.LoadInstructions(l, r); !ok {
			continue
		}
		if s != nil && p.admits(r, s) != nil {
			continue
		}
		c, _, err := p.memo.ops.OpCost(op, l, &model.OpChoice{Record: r, Buffer: s}, p.Target)
		if err == nil && c < best {
			best, rec = c, r
		}
	}
	return best, rec, nil
}

// rejectedFor lists the load records that placement s rules out for op,
// each with the reason, for the plan.
func rejectedFor(op *model.Op, s *model.SharedLayout, loadRecs []*model.Record) []string {
	if s == nil {
		return nil
	}
	var out []string
	names := map[string][]string{}
	var reasons []string
	for _, r := range loadRecs {
		if r.Fragment == nil || r.Fragment.DType.Bits != op.Buffer.DType.Bits {
			continue
		}
		if err := r.Memory.Admits(s, recordTile(r)); err != nil {
			why := err.Error()
			if names[why] == nil {
				reasons = append(reasons, why)
			}
			names[why] = append(names[why], r.Name)
		}
	}
	for _, why := range reasons {
		out = append(out, fmt.Sprintf("%s: buffer %s (%s): %s", joinNames(names[why]), op.Buffer.Name, s, why))
	}
	return out
}

func joinNames(ns []string) string {
	out := ""
	for i, n := range ns {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// admits is r's memory rule checked against placement s, remembered.
// Goroutines may call it at once.
func (p *Problem) admits(r *model.Record, s *model.SharedLayout) error {
	k := admitKey{r, s}
	if v, ok := p.admitted.Load(k); ok {
		err, _ := v.(error)
		return err
	}
	err := r.Memory.Admits(s, recordTile(r))
	p.admitted.Store(k, err)
	return err
}

type admitKey struct {
	r *model.Record
	s *model.SharedLayout
}

// scratchUse is a choice (Edge -1: choice I of node Node) or a pair of
// choices (I, J of PBQP edge Edge) that needs Bytes of scratch.
type scratchUse struct {
	Edge, Node int
	I, J       int32
	Bytes      int
}

// capped is the PBQP with at most limit bytes of scratch: the choices and
// pairs needing more forbidden, and the buffer placements that leave less
// forbidden.
func (p *Problem) capped(limit int) *pbqp.Problem { return p.cappedFrom(p.PBQP, limit) }

// cappedFrom is capped on base, a PBQP of the problem's shape.
func (p *Problem) cappedFrom(base *pbqp.Problem, limit int) *pbqp.Problem {
	pb := &pbqp.Problem{Cost: slices.Clone(base.Cost), Edges: slices.Clone(base.Edges)}
	cloneRow := map[int]bool{}
	cloneEdge := map[int]bool{}
	for _, u := range p.scratch {
		if u.Bytes <= limit {
			continue
		}
		if u.Edge < 0 {
			if !cloneRow[u.Node] {
				cloneRow[u.Node] = true
				pb.Cost[u.Node] = slices.Clone(pb.Cost[u.Node])
			}
			pb.Cost[u.Node][u.I] = Inf
			continue
		}
		if !cloneEdge[u.Edge] {
			cloneEdge[u.Edge] = true
			m := make([][]int64, len(pb.Edges[u.Edge].M))
			for a := range m {
				m[a] = slices.Clone(pb.Edges[u.Edge].M[a])
			}
			pb.Edges[u.Edge].M = m
		}
		pb.Edges[u.Edge].M[u.I][u.J] = Inf
	}
	for _, n := range p.bufNodes {
		row := slices.Clone(pb.Cost[n.ID])
		for c, b := range n.Bytes {
			if b+limit > p.Budget {
				row[c] = Inf
			}
		}
		pb.Cost[n.ID] = row
	}
	return pb
}

// scratchPeak is the most scratch a choice needs: the largest of the
// scratch uses it makes.
func (p *Problem) scratchPeak(choice []int) int {
	peak := 0
	for _, u := range p.scratch {
		if (u.Edge < 0 && choice[u.Node] == int(u.I)) ||
			(u.Edge >= 0 && choice[p.PBQP.Edges[u.Edge].A] == int(u.I) && choice[p.PBQP.Edges[u.Edge].B] == int(u.J)) {
			peak = max(peak, u.Bytes)
		}
	}
	return peak
}

// scratchCaps lists the scratch sizes a plan may peak at: none, and each
// size some choice needs, ascending.
func (p *Problem) scratchCaps() []int {
	caps := []int{0}
	for _, u := range p.scratch {
		if !slices.Contains(caps, u.Bytes) {
			caps = append(caps, u.Bytes)
		}
	}
	slices.Sort(caps)
	return caps
}
