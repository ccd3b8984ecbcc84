//go:build z3

package smt

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"planner/model"
	"planner/solver"
	"planner/solver/pbqp"
	"planner/solver/z3opt"
)

// The symbolic search (the smt-symbolic backend): the whole problem in
// one Z3 model in which every accessed buffer's placement is the zplace
// parameters rather than a choice among solver.Placements. Each access's cost
// is a choice among the accessing node's layouts (and, for a load, among
// the ways to read: plain vectors, each record whose rule the parameters
// satisfy), its wavefronts counted per phase on the unknown addresses;
// the buffers' footprint, with the conversion scratch, is bounded by the
// budget; conversions and op costs are the PBQP's. The reductions run
// first on the PBQP without the buffers, leaving every accessing node in
// the core; the core goes to Z3's optimiser with the access terms as
// soft constraints, the wavefronts refined by cuts (core).
//
// The enumerated search (smt: Z3 deciding its core) runs first: its
// optimum is the bound Z3 is asked to beat. Where nothing in the family
// beats it, that plan is the answer, proven optimal over the parametric
// placements too; where something does, the rounds find the symbolic
// optimum. A graph the model cannot express goes to the enumerated
// search, and the result says why (Result.Search). Only the caller's
// time limit (or context) stops the rounds; the result is then the
// enumerated optimum, and says that the family was not searched to the
// end.
// symbolicBounded says whether the symbolic search starts from the
// enumerated optimum, and symbolicSnap whether it moves placements to
// listed ones of equal cost; tests turn them off to run the rounds alone
// and to keep the placements Z3 finds.
var symbolicBounded, symbolicSnap = true, true

// symWhole is what the symbolic model is made of, independent of Z3.
type symWhole struct {
	p          *solver.Problem
	free       []*model.Buffer // the buffers whose placement is searched
	slot       map[*model.Buffer]int
	fixedBytes int // the other buffers, at their own placement
	accesses   []*symAccess
	keep       []bool // the accessing nodes
}

// symAccess is an op's access to a searched buffer.
type symAccess struct {
	op      *model.Op
	node    int
	buf     int           // in free
	named   *model.Record // the record the op names
	need    bool          // the named record's rule must admit the placement
	admit   symCond       // that rule
	methods [][]symMethod // per layout of the node
}

// symCond is a condition on a buffer's placement parameters; nil holds
// always.
type symCond func(z *zplace) z3opt.Bool

// symMethod is one way an access can run: when it applies, and its cost,
// konst plus weight for each wavefront of its busiest pattern: one per
// subgroup that holds other elements (model.OpPatterns), as the
// enumerated search counts its busiest subgroup.
type symMethod struct {
	cond          symCond
	konst, weight int64
	pats          []model.AccessPattern
}

func and(a, b symCond) symCond {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(z *zplace) z3opt.Bool { return a(z).And(b(z)) }
}

func not(a symCond) symCond {
	if a == nil {
		return func(z *zplace) z3opt.Bool { return z.ctx.Const(false) }
	}
	return func(z *zplace) z3opt.Bool { return a(z).Not() }
}

var never symCond = func(z *zplace) z3opt.Bool { return z.ctx.Const(false) }

// newSymWhole describes the symbolic model of p, or says why there is
// none.
func newSymWhole(p *solver.Problem) (*symWhole, string) {
	w := &symWhole{p: p, slot: map[*model.Buffer]int{}, keep: make([]bool, len(p.Nodes))}
	if len(p.Edges) != len(p.PBQP.Edges) {
		return nil, "the problem's edges and the PBQP's differ"
	}
	for _, e := range p.Edges {
		if e.Kind == solver.EdgeDescriptor {
			return nil, fmt.Sprintf("mma %s may read an operand from shared memory through a descriptor", e.Use.Op.Name)
		}
	}
	for _, b := range p.Graph.Buffers {
		stated := p.PlacementStated(b)
		switch {
		case b.Layout == nil || !decided(p, b):
			w.fixedBytes += b.Bytes()
		case !p.Accessed(b) || stated:
			w.fixedBytes += b.Layout.Bytes()
		case b.Layout.ElemBits%8 != 0:
			return nil, fmt.Sprintf("buffer %s has %d-bit elements", b.Name, b.Layout.ElemBits)
		case b.Described:
			return nil, fmt.Sprintf("buffer %s is read through a matrix descriptor, which describes only some placements", b.Name)
		default:
			w.slot[b] = len(w.free)
			w.free = append(w.free, b)
		}
	}
	if len(w.free) == 0 {
		return nil, solver.NothingToPlace
	}
	for _, e := range p.Edges {
		if e.Kind != solver.EdgeAccess {
			continue
		}
		bi, ok := w.slot[e.Use.Op.Buffer]
		if !ok {
			continue
		}
		a, why := w.access(e.Use.Op, p.Nodes[e.From], bi)
		if a == nil {
			return nil, why
		}
		w.keep[e.From] = true
		w.accesses = append(w.accesses, a)
	}
	return w, ""
}

// access describes op's access to free buffer bi for each layout of n.
func (w *symWhole) access(op *model.Op, n *solver.Node, bi int) (*symAccess, string) {
	p := w.p
	a := &symAccess{op: op, node: n.ID, buf: bi}
	for _, l := range n.Layouts {
		if l.Opaque() != "" {
			return nil, fmt.Sprintf("buffer %s is accessed in a %s fragment, whose records the symbolic model does not express", op.Buffer.Name, l.Opaque())
		}
	}
	trips := model.Trips(op.In)
	if op.WritesShared() {
		for _, l := range n.Layouts {
			a.methods = append(a.methods, w.plain(op, l, &model.OpChoice{Exec: l}, op.Operands[0].DType.Bits, trips))
		}
		return a, ""
	}
	var useNamed bool
	a.named, a.need, useNamed = p.NamedLoad(op)
	if r := a.named; r != nil {
		var why string
		if a.admit, why = w.admits(r, op.Buffer); why != "" {
			return nil, why
		}
	}
	bits := op.Result.DType.Bits
	for _, l := range n.Layouts {
		ms := w.plain(op, l, &model.OpChoice{}, bits, trips)
		for _, r := range p.LoadRecords() {
			if r.Fragment == nil || r.Fragment.Layout == nil || r.Fragment.DType.Bits != bits {
				continue
			}
			m, ok, why := w.record(op, l, r, trips)
			if why != "" {
				return nil, why
			}
			if ok {
				ms = append(ms, m)
			}
		}
		if useNamed {
			if m, ok, _ := w.record(op, l, a.named, trips); ok {
				// The named record where it admits the placement, the
				// cheapest way where it does not and need not.
				if a.need {
					ms = []symMethod{m}
				} else {
					for k := range ms {
						ms[k].cond = and(ms[k].cond, not(a.admit))
					}
					ms = append(ms, m)
				}
			}
		}
		a.methods = append(a.methods, ms)
	}
	return a, ""
}

// plain is plain vector accesses of layout l: the widest vectors the
// layout keeps contiguous, halved while the placement breaks their
// alignment (model.AccessVectors), one method per width.
func (w *symWhole) plain(op *model.Op, l *model.Layout, ch *model.OpChoice, bits int, trips int64) []symMethod {
	t := w.p.Target
	pat, ok := model.OpPattern(op, l, ch, t)
	if !ok {
		return nil
	}
	b := op.Buffer.Layout
	dense := &model.SharedLayout{Rows: b.Rows, Cols: b.Cols, ElemBits: b.ElemBits, Swizzle: "none"}
	var ms []symMethod
	var wider symCond // the next wider vectors stay whole
	for v := max(1, pat.Width*8/bits); v >= 1; v /= 2 {
		acc := dense.AccessVectors(l, v, t)
		var vps []model.AccessPattern
		for _, sub := range l.SubgroupsApart() {
			vps = append(vps, model.VectorPatternBy(l, v, bits, t, sub))
		}
		var keeps symCond
		switch {
		case v == 1:
		case acc.Vector != v: // the vectors do not run along rows
			keeps = never
		default:
			var starts [][2]int
			for _, vp := range vps {
				for _, ph := range vp.Phases {
					starts = append(starts, ph...)
				}
			}
			width := v * bits / 8
			keeps = func(z *zplace) z3opt.Bool {
				c := z.aligned(starts, width)
				if width > 16 {
					c = c.And(z.b.Eq(z.bv(0)))
				}
				return c
			}
		}
		cond := keeps
		if v < pat.Width*8/bits {
			cond = and(keeps, not(wider))
		}
		if acc.Vector == v {
			ms = append(ms, symMethod{cond: cond, konst: int64(acc.Instructions) * t.Weights.Issue * trips, weight: t.Weights.SharedWavefront * trips, pats: vps})
		}
		wider = keeps
		if wider == nil {
			wider = func(z *zplace) z3opt.Bool { return z.ctx.Const(true) }
		}
	}
	return ms
}

// record is reading layout l with load record r: its instructions'
// conflict-free cost, plus the wavefronts of its accesses beyond one per
// phase, where its rule admits the placement. ok is false where r cannot
// produce l; why says what the model cannot express.
func (w *symWhole) record(op *model.Op, l *model.Layout, r *model.Record, trips int64) (symMethod, bool, string) {
	t := w.p.Target
	n, ok := model.LoadInstructions(l, r)
	if !ok {
		return symMethod{}, false, ""
	}
	cond, why := w.admits(r, op.Buffer)
	if why != "" {
		return symMethod{}, false, why
	}
	m := symMethod{cond: cond, konst: int64(n) * (r.Cost + t.Weights.Issue) * trips}
	if pats, ok := model.OpPatterns(op, l, &model.OpChoice{Record: r}, t); ok {
		for _, pat := range pats {
			if len(pat.Phases) != len(pats[0].Phases) {
				return symMethod{}, false, fmt.Sprintf("%s's subgroups read %s in different numbers of phases", r.Name, op.Buffer.Name)
			}
		}
		m.pats = pats
		m.weight = t.Weights.SharedWavefront * trips
		m.konst -= int64(len(pats[0].Phases)) * m.weight
		if r.Memory.Rule == "vector" {
			// model.AccessVectors halves vectors the placement breaks;
			// the model takes the record where they stay whole.
			var starts [][2]int
			for _, pat := range pats {
				for _, ph := range pat.Phases {
					starts = append(starts, ph...)
				}
			}
			width := pats[0].Width
			m.cond = and(m.cond, func(z *zplace) z3opt.Bool { return z.aligned(starts, width) })
		}
	}
	return m, true, ""
}

// admits is record r's memory rule (model.MemoryRule.Admits) on buffer
// b's placement parameters. A swizzle keeps an access of up to 16 bytes
// contiguous when it lies within one 16-byte chunk; wider ones, and a
// constant stride, are taken without a swizzle.
func (w *symWhole) admits(r *model.Record, b *model.Buffer) (symCond, string) {
	m := r.Memory
	rows, cols, elemBits := b.Layout.Rows, b.Layout.Cols, b.Layout.ElemBits
	noSwizzle := func(z *zplace) z3opt.Bool { return z.b.Eq(z.bv(0)) }
	switch m.Rule {
	case "row_pointers", "vector":
		width := m.RowBytes
		if m.Rule == "vector" {
			width = m.Bytes
		}
		n := width * 8 / elemBits
		if n < 1 || cols%n != 0 {
			return never, ""
		}
		var starts [][2]int
		for i := range rows {
			for c0 := 0; c0 < cols; c0 += n {
				starts = append(starts, [2]int{i, c0})
			}
		}
		return func(z *zplace) z3opt.Bool {
			c := z.aligned(starts, m.Alignment)
			if width > 16 || 16%width != 0 {
				return c.And(noSwizzle(z))
			}
			return c.And(noSwizzle(z).Or(z.within(starts, 16-width)))
		}, ""
	case "constant_stride":
		tile := solver.RecordTile(r)
		if rows%tile[0] != 0 || cols%tile[1] != 0 {
			return never, ""
		}
		if !pow2(tile[0]) {
			return nil, fmt.Sprintf("%s reads tiles of %d rows", r.Name, tile[0])
		}
		var bases [][2]int
		for r0 := 0; r0 < rows; r0 += tile[0] {
			for c0 := 0; c0 < cols; c0 += tile[1] {
				bases = append(bases, [2]int{r0, c0})
			}
		}
		return func(z *zplace) z3opt.Bool {
			// One leading stride in every tile: no swizzle, and no
			// row-dependent padding inside a tile.
			every := z.bv(1).Lsh(z.e)
			c := noSwizzle(z).And(z.usePad.Not().Or(every.UGE(z.bv(tile[0]))).Or(every.UGE(z.bv(rows))))
			if m.StrideMultiple > 1 {
				c = c.And(z.p.Add(z.bv(cols)).URem(z.bv(m.StrideMultiple)).Eq(z.bv(0)))
			}
			return c.And(z.aligned(bases, m.Alignment))
		}, ""
	}
	return nil, fmt.Sprintf("%s's %q rule", r.Name, m.Rule)
}

// within says each of elems starts at most most bytes into its 16-byte
// chunk.
func (z *zplace) within(elems [][2]int, most int) z3opt.Bool {
	bound := z.ctx.BVNum(int64(most), 4)
	return z.lowAll(elems, 4, func(a z3opt.BV) z3opt.Bool { return a.ULE(bound) })
}

// footprint bounds the bytes the placement takes: one past the last
// element before the swizzle, rounded up to the block the swizzle
// permutes within (exact where rows span whole blocks).
func (z *zplace) footprint() z3opt.BV {
	end := z.plain(z.rows-1, z.cols-1).Add(z.bv(z.eb))
	block := z.bv(16).Lsh(z.b)
	up := end.Add(block).Sub(z.bv(1)).And(block.Sub(z.bv(1)).Not())
	return z.b.Eq(z.bv(0)).IfThenElse(end, up)
}

// symSolution is what a symbolic core search found: the buffers'
// placements with the best core choice.
type symSolution struct {
	placed  []*model.SharedLayout
	atLeast bool  // the search proved no plan costs less than its bound
	err     error // an internal failure inside Z3
}

// core is the core solver: the core PBQP with the access terms and the
// footprint bounded by the budget less scratch bytes, minimised by Z3's
// optimiser with every cost a soft constraint (maxSATPBQP). A way to run
// an access is a Boolean, exactly one where its node takes the layout,
// paying its constant; its wavefronts beyond one per phase are a unary
// counter whose every step costs the access's weight (methodCount).
// Wavefronts are counted lazily: a phase takes at least one wavefront
// until cuts (zplace.refine) raise it for the layouts the optimum of the
// model so far takes, and the counter of an access is tied to its
// phases once a plan uses it. That model is a relaxation, so its optimum
// is a lower bound; once the plan it gives costs exactly that, the plan
// is optimal. Each round counts or cuts at least once more, so the
// rounds end.
//
// With a bound (a plan the enumerated search proved optimal costs that
// much), a relaxation whose optimum reaches the bound proves that no
// placement of the family beats that plan, and out says so.
func (w *symWhole) core(scratch int, core []int, alive [][]int, offset, bound int64, out *symSolution) pbqp.CoreSolver {
	p := w.p
	return func(cp *pbqp.Problem, deadline time.Time) (status solver.Status, choice []int, lb int64) {
		defer recoverZ3(&out.err, &status)
		if z3Panic != nil {
			panic(z3Panic)
		}
		room := int64(p.Budget) - int64(w.fixedBytes) - int64(scratch)
		if room < 0 {
			return solver.StatusInfeasible, nil, solver.Inf
		}
		ctx := z3opt.NewContext()
		defer ctx.Close()
		ctx.InterruptAt(deadline)
		if done := p.Done(); done != nil {
			ctx.InterruptOn(done)
		}
		o := ctx.NewOptimize(deadline)
		x, obj := maxSATPBQP(ctx, o, cp)
		soft := func(b z3opt.Bool, c int64) {
			if c > 0 {
				obj = o.AssertSoft(b, c, "cost")
			}
		}
		zs := make([]*zplace, len(w.free))
		var foot z3opt.BV
		for i, b := range w.free {
			zs[i] = newZPlace(ctx, o.Assert, fmt.Sprintf("buf%d", i), b.Layout.Rows, b.Layout.Cols, b.Layout.ElemBits, p.Target)
			// Footprints below 2^(zwidth-2) each: their sum cannot wrap.
			f := zs[i].footprint()
			o.Assert(f.ULT(zs[i].bv(1 << (zwidth - 2))))
			if i == 0 {
				foot = f
			} else {
				foot = foot.Add(f)
			}
		}
		o.Assert(foot.ULE(zs[0].bv(int(min(room, 1<<(zwidth-1))))))
		index := map[int]int{}
		for k, n := range core {
			index[n] = k
		}
		var none z3opt.Bool
		// on[a][c][m]: access a runs its layout's method m, its node
		// taking core choice c.
		on := make([][][]z3opt.Bool, len(w.accesses))
		counts := map[[3]int]*methodCount{}
		for ai, a := range w.accesses {
			z := zs[a.buf]
			if a.need {
				o.Assert(a.admit(z))
			}
			k := index[a.node]
			on[ai] = make([][]z3opt.Bool, len(alive[k]))
			for c, i := range alive[k] {
				sel := x[k][c]
				if sel == none {
					continue // forbidden in the core
				}
				ms := a.methods[i]
				ons := make([]z3opt.Bool, len(ms))
				for mi, m := range ms {
					ons[mi] = ctx.Var(fmt.Sprintf("on_%d_%d_%d", ai, c, mi))
					o.Assert(ons[mi].Implies(sel))
					if m.cond != nil {
						o.Assert(ons[mi].Implies(m.cond(z)))
					}
					cost := m.konst
					if m.weight != 0 && len(m.pats) > 0 && len(m.pats[0].Phases) > 0 {
						mc := &methodCount{name: fmt.Sprintf("wf_%d_%d_%d", ai, c, mi), on: ons[mi], weight: m.weight, pats: m.pats, z: z}
						for _, pat := range m.pats {
							mc.base = max(mc.base, len(pat.Phases))
						}
						cost += int64(mc.base) * m.weight
						counts[[3]int{ai, c, mi}] = mc
					}
					if cost < 0 {
						panic(fmt.Sprintf("access %s costs %d", a.op.Name, cost))
					}
					soft(ons[mi].Not(), cost)
				}
				o.Assert(sel.Implies(ctx.ExactlyOne(ons...)))
				on[ai][c] = ons
			}
		}
		placed := make([]*model.SharedLayout, len(w.free))
		// best is the exact cost of the cheapest plan so far (choice),
		// or of the enumerated optimum (choice nil).
		best := solver.Inf
		if bound < solver.Inf {
			best = bound - offset
		}
		counted := map[[3]int]bool{}
		for {
			r := o.Check()
			if r == z3opt.Unsat {
				if bound < solver.Inf {
					out.atLeast = true
				}
				return solver.StatusInfeasible, nil, solver.Inf
			}
			if r == z3opt.Unknown {
				if obj >= 0 {
					if lo, ok := o.Lower(obj); ok {
						lb = max(lb, lo)
					}
				}
				if choice == nil {
					return solver.StatusUnknown, nil, lb
				}
				return solver.StatusFeasible, choice, min(lb, best)
			}
			lb = 0
			if obj >= 0 {
				lb, _ = o.Upper(obj)
			}
			if lb >= best {
				if choice == nil {
					out.atLeast = true // nothing beats the enumerated optimum
					return solver.StatusInfeasible, nil, solver.Inf
				}
				return solver.StatusOptimal, choice, best
			}
			m := o.Model()
			last := maxSATChoice(m, x)
			if last == nil {
				panic("Z3's model takes no choice for a node")
			}
			for i, b := range w.free {
				placed[i] = zs[i].layout(m, b.Layout.ElemBits)
			}
			exact, err := w.exact(cp, last, alive, index, placed)
			if err != nil {
				panic(err)
			}
			if exact < best {
				best, choice = exact, slices.Clone(last)
				out.placed = slices.Clone(placed)
			}
			if best <= lb {
				return solver.StatusOptimal, choice, best
			}
			// Count the wavefronts of the ways the plan accesses its
			// buffers, and cut where the model counts too few.
			more := false
			for ai, a := range w.accesses {
				c := last[index[a.node]]
				mi := slices.IndexFunc(on[ai][c], func(b z3opt.Bool) bool { return m.Value(b) })
				key := [3]int{ai, c, mi}
				mc := counts[key]
				if mc == nil {
					continue
				}
				if !counted[key] {
					counted[key], more = true, true
				}
				for _, pat := range mc.pats {
					more = mc.z.refine(m, pat, placed[a.buf], nil) || more
				}
			}
			for key := range counted {
				counts[key].tie(ctx, o, soft)
			}
			if !more {
				return solver.StatusFeasible, choice, lb // the model and the exact count disagree
			}
		}
	}
}

// methodCount is the wavefronts of one way to run an access: base per
// pattern (its most phases) plus a unary counter, steps[t] saying at
// least t+1 more, each step paying weight where the way runs (on). Once
// tied, the counter is at least each pattern's phase levels beyond base.
type methodCount struct {
	name   string
	on     z3opt.Bool
	weight int64
	base   int
	pats   []model.AccessPattern
	z      *zplace
	steps  []z3opt.Bool
	tied   int // the levels of its patterns at the last tie
}

// tie (again, where the cuts added levels) asserts that the counter
// takes every pattern's levels: Σ levels − Σ steps ≤ base − phases, as a
// pseudo-Boolean constraint, with the steps it needs.
func (mc *methodCount) tie(ctx *z3opt.Context, o *z3opt.Optimize, soft func(z3opt.Bool, int64)) {
	levels, need := 0, 0
	extra := make([][]z3opt.Bool, len(mc.pats))
	for k, pat := range mc.pats {
		extra[k] = mc.z.extra(pat)
		levels += len(extra[k])
		need = max(need, len(extra[k])+len(pat.Phases)-mc.base)
	}
	if levels == mc.tied && mc.steps != nil {
		return
	}
	mc.tied = levels
	for len(mc.steps) < need {
		s := ctx.Var(fmt.Sprintf("%s_step%d", mc.name, len(mc.steps)))
		if len(mc.steps) > 0 {
			o.Assert(s.Implies(mc.steps[len(mc.steps)-1]))
		}
		mc.steps = append(mc.steps, s)
		soft(mc.on.And(s).Not(), mc.weight)
	}
	if mc.steps == nil {
		mc.steps = []z3opt.Bool{}
	}
	for k, pat := range mc.pats {
		bs := append(slices.Clone(extra[k]), mc.steps...)
		coeffs := make([]int, len(bs))
		for i := range coeffs {
			coeffs[i] = 1
			if i >= len(extra[k]) {
				coeffs[i] = -1
			}
		}
		o.Assert(ctx.PBLe(bs, coeffs, mc.base-len(pat.Phases)))
	}
}

// exact is the exact cost of a core choice with the buffers placed as
// placed: the core PBQP's and every access's (Problem.AccessCost).
func (w *symWhole) exact(cp *pbqp.Problem, choice []int, alive [][]int, index map[int]int, placed []*model.SharedLayout) (int64, error) {
	total := cp.Evaluate(choice)
	for _, a := range w.accesses {
		k := index[a.node]
		c, err := w.accessAt(a, alive[k][choice[k]], placed[a.buf])
		if err != nil {
			return 0, err
		}
		total = pbqp.AddSat(total, c)
	}
	return total, nil
}

// accessAt is the exact cost of access a with its node's layout i and
// its buffer placed as s.
func (w *symWhole) accessAt(a *symAccess, i int, s *model.SharedLayout) (int64, error) {
	p := w.p
	refused := a.named != nil && p.Admits(a.named, s) != nil
	if refused && a.need {
		return solver.Inf, nil
	}
	c, _, err := p.AccessCost(a.op, p.Nodes[a.node].Layouts[i], s, a.named, refused)
	return c, err
}

// strip is base without the buffer nodes: a single choice each, the
// accesses to searched buffers left to the core solver, and those to
// fixed ones folded into the accessing node at their placement.
func (w *symWhole) strip(base *pbqp.Problem) (*pbqp.Problem, string) {
	p := w.p
	pb := &pbqp.Problem{Cost: slices.Clone(base.Cost)}
	for _, bn := range p.BufferNodes() {
		pb.Cost[bn.ID] = []int64{0}
	}
	for k, e := range base.Edges {
		pe := p.Edges[k]
		if pe.Kind != solver.EdgeAccess {
			pb.Edges = append(pb.Edges, e)
			continue
		}
		b := pe.Use.Op.Buffer
		if _, ok := w.slot[b]; ok {
			continue
		}
		bn, slot := p.BufferDecision(b)
		col := slices.IndexFunc(bn.Placements, func(set []*model.SharedLayout) bool { return set[slot] == b.Layout })
		if col < 0 {
			return nil, fmt.Sprintf("buffer %s's own placement is not a candidate", b.Name)
		}
		row := slices.Clone(pb.Cost[e.A])
		for i := range row {
			row[i] = pbqp.AddSat(row[i], e.M[i][col])
		}
		pb.Cost[e.A] = row
	}
	return pb, ""
}

// symTry is one symbolic solve: the solution of the stripped PBQP, the
// placements, and the PBQP it came from.
type symTry struct {
	sol    pbqp.Solution
	placed []*model.SharedLayout
	base   *pbqp.Problem
	pb     *pbqp.Problem // base stripped
	total  int64         // the exact cost, accesses included
}

// snap moves each searched buffer to the first of its enumerated
// placements that gives the plan the same exact cost and fits, so that
// the plan names a placement of solver.Placements wherever one is as good.
func (w *symWhole) snap(t *symTry) {
	p := w.p
	for i, b := range w.free {
		for _, c := range solver.Placements(b) {
			if c.String() == t.placed[i].String() {
				break
			}
			placed := slices.Clone(t.placed)
			placed[i] = c
			total, err := w.total(t.pb, t.sol.Choice, placed)
			if err == nil && total == t.total && w.bytes(placed)+p.PeakScratch(t.sol.Choice) <= p.Budget {
				t.placed = placed
				break
			}
		}
	}
}

// solveSymbolic is the smt backend's whole search (WholeSolver): a nil
// result says why it could not run, an error is a failure inside Z3.
func solveSymbolic(p *solver.Problem, opt solver.Options) (*solver.Result, string, error) {
	w, why := newSymWhole(p)
	if w == nil {
		return nil, why, nil
	}
	var deadline time.Time // the caller's time limit or context decides
	if opt.TimeLimit > 0 {
		deadline = time.Now().Add(opt.TimeLimit)
	}
	if d := p.Deadline(); !d.IsZero() && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	// The enumerated search's optimum bounds the symbolic one: Z3 first
	// looks for anything cheaper.
	ref := solver.Solve(p, solver.Options{TimeLimit: opt.TimeLimit, Backend: "smt"})
	if ref.Err != nil {
		return nil, "", ref.Err
	}
	bound := solver.Inf
	if ref.Status == solver.StatusOptimal && symbolicBounded {
		bound = ref.Cost
	}
	var failure error // a failure inside Z3 in any try
	try := func(scratch int, capped bool) (*symTry, string) {
		base := p.PBQP
		if capped {
			base = p.Capped(scratch)
		}
		pb, why := w.strip(base)
		if pb == nil {
			return nil, why
		}
		out := &symSolution{}
		sol := pbqp.Solve(pb, pbqp.Options{Deadline: deadline, Keep: w.keep, CoreFor: func(core []int, alive [][]int, offset int64) pbqp.CoreSolver {
			return w.core(scratch, core, alive, offset, bound, out)
		}})
		if out.err != nil {
			failure = out.err
			return nil, ""
		}
		if out.atLeast {
			return nil, ""
		}
		t := &symTry{sol: sol, placed: out.placed, base: base, pb: pb, total: solver.Inf}
		if sol.Status == solver.StatusOptimal || sol.Status == solver.StatusFeasible {
			var err error
			if t.total, err = w.total(pb, sol.Choice, out.placed); err != nil {
				return nil, err.Error()
			}
		}
		return t, ""
	}
	best, why := try(0, false)
	if failure != nil {
		return nil, "", failure
	}
	if best == nil && why == "" {
		// Nothing in the parametric family beats the enumerated optimum.
		ref.Search = "symbolic: no placement of the family beats the enumerated optimum"
		ref.Placements = solver.PlacementsUnbeaten
		return ref, "", nil
	}
	if best == nil {
		return nil, why, nil
	}
	if best.sol.Status == solver.StatusOptimal && p.HasScratch() && w.bytes(best.placed)+p.PeakScratch(best.sol.Choice) > p.Budget {
		// The plan that ignores scratch does not fit with its scratch:
		// the cheapest over every cap on the scratch, as Solve does.
		var found *symTry
		for _, c := range p.ScratchCaps() {
			t, why := try(c, true)
			if failure != nil {
				return nil, "", failure
			}
			switch {
			case t == nil && why == "":
				// Nothing under this cap beats the bound.
				if found == nil || found.total >= bound {
					found = &symTry{sol: pbqp.Solution{Status: solver.StatusOptimal}, total: bound}
				}
			case t == nil:
				return nil, why, nil
			case t.sol.Status != solver.StatusOptimal && t.sol.Status != solver.StatusInfeasible:
				best = t
			case t.sol.Status == solver.StatusOptimal && (found == nil || t.total < found.total):
				found = t
			}
		}
		if best.sol.Status == solver.StatusOptimal && found != nil && found.pb == nil {
			ref.Search = "symbolic: no placement of the family beats the enumerated optimum"
			ref.Placements = solver.PlacementsUnbeaten
			return ref, "", nil
		}
		if best.sol.Status == solver.StatusOptimal {
			best = found
			if found == nil {
				best = &symTry{sol: pbqp.Solution{Status: solver.StatusInfeasible}}
			}
		}
	}
	switch best.sol.Status {
	case solver.StatusInfeasible:
		return &solver.Result{Problem: p, Search: "symbolic", Placements: solver.PlacementsSymbolic, Candidates: p.CandidateCount(), Status: solver.StatusInfeasible,
			Cost: solver.Inf, LowerBound: solver.Inf, Stats: best.sol.Stats}, "", nil
	case solver.StatusOptimal:
	default:
		// Stopped by the time limit: the enumerated optimum, the family
		// not searched to the end.
		ref.Search = "enumerated: the symbolic search was stopped at the time limit before it proved its optimum"
		return ref, "", nil
	}
	if symbolicSnap {
		w.snap(best)
	}
	return w.result(best), "", nil
}

// total is the exact cost of a plan of the stripped problem pb with the
// searched buffers placed as placed: pb's cost and every access's.
func (w *symWhole) total(pb *pbqp.Problem, choice []int, placed []*model.SharedLayout) (int64, error) {
	total := pb.Evaluate(choice)
	for _, a := range w.accesses {
		c, err := w.accessAt(a, choice[a.node], placed[a.buf])
		if err != nil {
			return 0, err
		}
		total = pbqp.AddSat(total, c)
	}
	return total, nil
}

// bytes is the footprint of every buffer with the searched ones placed.
func (w *symWhole) bytes(placed []*model.SharedLayout) int {
	n := w.fixedBytes
	for _, s := range placed {
		n += s.Bytes()
	}
	return n
}

// result reads a symbolic solution as the problem's result. Where every
// buffer's placement is one of its candidates, the plan is the PBQP
// choice it stands for, tidied as Solve tidies; otherwise the choice of
// the other nodes with the placements found.
func (w *symWhole) result(t *symTry) *solver.Result {
	p := w.p
	res := &solver.Result{Problem: p, Search: "symbolic", Placements: solver.PlacementsSymbolic, Candidates: p.CandidateCount()}
	sol := t.sol
	sol.Cost, sol.LowerBound = t.total, t.total
	want := func(b *model.Buffer) *model.SharedLayout {
		if i, ok := w.slot[b]; ok {
			return t.placed[i]
		}
		return b.Layout
	}
	full := slices.Clone(sol.Choice)
	mapped := true
	for _, bn := range p.BufferNodes() {
		c := slices.IndexFunc(bn.Placements, func(set []*model.SharedLayout) bool {
			for k, b := range bn.Buffers {
				if w := want(b); (set[k] == nil) != (w == nil) || w != nil && set[k].String() != w.String() {
					return false
				}
			}
			return true
		})
		if c < 0 {
			mapped = false
			break
		}
		full[bn.ID] = c
	}
	if mapped && t.base.Evaluate(full) == t.total {
		sol.Choice = full
		p.Finish(res, t.base, sol)
		return res
	}
	var beyond []string
	for i, b := range w.free {
		s := t.placed[i]
		if !slices.ContainsFunc(solver.Placements(b), func(c *model.SharedLayout) bool { return c.String() == s.String() }) {
			beyond = append(beyond, fmt.Sprintf("%s: %s", b.Name, s))
		}
	}
	if len(beyond) > 0 {
		res.Search += ", beyond the enumerated placements: " + strings.Join(beyond, "; ")
		res.Placements = solver.PlacementsBeyond
	}
	res.Status, res.Cost, res.LowerBound, res.Stats = sol.Status, sol.Cost, sol.LowerBound, sol.Stats
	res.Choice = sol.Choice
	a := p.Assignment(sol.Choice)
	for _, ac := range w.accesses {
		s := t.placed[ac.buf]
		a.Buffers[ac.op.Buffer] = s
		oc := a.Ops[ac.op]
		if oc == nil {
			continue
		}
		oc.Buffer = s
		if ac.op.ReadsShared() {
			l := p.Nodes[ac.node].Layouts[sol.Choice[ac.node]]
			refused := ac.named != nil && p.Admits(ac.named, s) != nil
			_, oc.Record, _ = p.AccessCost(ac.op, l, s, ac.named, refused)
			oc.Rejected = p.RejectedLoads(ac.op, s)
		}
	}
	for i, b := range w.free {
		a.Buffers[b] = t.placed[i]
	}
	res.Assignment = a
	return res
}

// decided reports whether buffer b's placement is a decision of p.
func decided(p *solver.Problem, b *model.Buffer) bool {
	n, _ := p.BufferDecision(b)
	return n != nil
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }
