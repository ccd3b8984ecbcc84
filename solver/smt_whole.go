//go:build z3

package solver

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aclements/go-z3/z3"

	"planner/model"
	"planner/solver/pbqp"
)

// The symbolic search (the smt backend): the whole problem in one Z3
// model in which every accessed buffer's placement is the zplace
// parameters rather than a choice among placements(). Each access's cost
// is an if-then-else over the accessing node's layout choices (and, for a
// load, over the ways to read: plain vectors, each record whose rule the
// parameters satisfy), its wavefronts counted per phase on the unknown
// addresses; the buffers' footprint, with the conversion scratch, is
// bounded by the budget; conversions and op costs are the PBQP's. The
// reductions run first on the PBQP without the buffers, leaving every
// accessing node in the core; the core goes to Z3 with the access terms
// and is minimised by bisection, the wavefronts refined by cuts (core).
//
// The enumerated search runs first: its optimum is the bound Z3 is asked
// to beat. Where nothing in the family beats it, that plan is the answer,
// proven optimal over the parametric placements too; where something
// does, the rounds find the symbolic optimum. A graph the model cannot
// express, or a search past symbolicTime, goes to the enumerated search
// with Z3 deciding its core, and the result says why (Result.Search).
// symbolicTime bounds the symbolic search; past it the enumerated search
// runs instead.
const symbolicTime = 10 * time.Second

// symbolicBounded says whether the symbolic search starts from the
// enumerated optimum, and symbolicSnap whether it moves placements to
// listed ones of equal cost; tests turn them off to run the rounds alone
// and to keep the placements Z3 finds.
var symbolicBounded, symbolicSnap = true, true

// symWhole is what the symbolic model is made of, independent of Z3.
type symWhole struct {
	p          *Problem
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
type symCond func(z *zplace) z3.Bool

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
	return func(z *zplace) z3.Bool { return a(z).And(b(z)) }
}

func not(a symCond) symCond {
	if a == nil {
		return func(z *zplace) z3.Bool { return z.ctx.FromBool(false) }
	}
	return func(z *zplace) z3.Bool { return a(z).Not() }
}

var never symCond = func(z *zplace) z3.Bool { return z.ctx.FromBool(false) }

// newSymWhole describes the symbolic model of p, or says why there is
// none.
func newSymWhole(p *Problem) (*symWhole, string) {
	w := &symWhole{p: p, slot: map[*model.Buffer]int{}, keep: make([]bool, len(p.Nodes))}
	if len(p.Edges) != len(p.PBQP.Edges) {
		return nil, "the problem's edges and the PBQP's differ"
	}
	for _, e := range p.Edges {
		if e.Kind == EdgeDescriptor {
			return nil, fmt.Sprintf("mma %s may read an operand from shared memory through a descriptor", e.Use.Op.Name)
		}
	}
	for _, b := range p.Graph.Buffers {
		f := p.bufferFact(b)
		switch {
		case b.Layout == nil || p.bufNode[b] == nil:
			w.fixedBytes += b.Bytes()
		case !p.accessed(b) || f != nil && !p.relaxed(f):
			w.fixedBytes += b.Layout.Bytes()
		case b.Layout.ElemBits%8 != 0:
			return nil, fmt.Sprintf("buffer %s has %d-bit elements", b.Name, b.Layout.ElemBits)
		default:
			w.slot[b] = len(w.free)
			w.free = append(w.free, b)
		}
	}
	if len(w.free) == 0 {
		return nil, nothingToPlace
	}
	for _, e := range p.Edges {
		if e.Kind != EdgeAccess {
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
func (w *symWhole) access(op *model.Op, n *Node, bi int) (*symAccess, string) {
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
	intr := p.intrinsicFact(op)
	useNamed := false
	if intr != nil {
		a.named = p.namedLoad(op, p.loadRecs)
	}
	if r := a.named; r != nil {
		var why string
		if a.admit, why = w.admits(r, op.Buffer); why != "" {
			return nil, why
		}
		a.need = p.inForce(p.guard(intr, p.memoryFact(r)))
		useNamed = !p.relaxed(intr) && r.Fragment != nil && r.Fragment.Layout != nil
	}
	bits := op.Result.DType.Bits
	for _, l := range n.Layouts {
		ms := w.plain(op, l, &model.OpChoice{}, bits, trips)
		for _, r := range p.loadRecs {
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
			keeps = func(z *zplace) z3.Bool {
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
			wider = func(z *zplace) z3.Bool { return z.ctx.FromBool(true) }
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
			m.cond = and(m.cond, func(z *zplace) z3.Bool { return z.aligned(starts, width) })
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
	noSwizzle := func(z *zplace) z3.Bool { return z.b.Eq(z.bv(0)) }
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
		return func(z *zplace) z3.Bool {
			c := z.aligned(starts, m.Alignment)
			if width > 16 || 16%width != 0 {
				return c.And(noSwizzle(z))
			}
			return c.And(noSwizzle(z).Or(z.within(starts, 16-width)))
		}, ""
	case "constant_stride":
		tile := recordTile(r)
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
		return func(z *zplace) z3.Bool {
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
func (z *zplace) within(elems [][2]int, most int) z3.Bool {
	out := z.ctx.FromBool(true)
	seen := map[[2]int]bool{}
	for _, el := range elems {
		if 16%z.eb == 0 {
			el[1] %= 16 / z.eb
		}
		if !seen[el] {
			seen[el] = true
			out = out.And(z.plain(el[0], el[1]).And(z.bv(15)).ULE(z.bv(most)))
		}
	}
	return out
}

// footprint bounds the bytes the placement takes: one past the last
// element before the swizzle, rounded up to the block the swizzle
// permutes within (exact where rows span whole blocks).
func (z *zplace) footprint() z3.BV {
	end := z.plain(z.rows-1, z.cols-1).Add(z.bv(z.eb))
	block := z.bv(16).Lsh(z.b)
	up := end.Add(block).Sub(z.bv(1)).And(block.Sub(z.bv(1)).Not())
	return z.b.Eq(z.bv(0)).IfThenElse(end, up).(z3.BV)
}

// symSolution is what a symbolic core search found: the buffers'
// placements with the best core choice.
type symSolution struct {
	placed  []*model.SharedLayout
	atLeast bool  // the search proved no plan costs less than its bound
	err     error // an internal failure inside Z3
}

// core is the core solver: the core PBQP with the access terms and the
// footprint bounded by the budget less scratch bytes. Wavefronts are
// counted lazily: a method's wavefronts are an unknown no less than one
// per phase until the phases of its layout are counted exactly, which
// happens for the layouts the optimum of the model so far takes. That
// model is a relaxation, so its optimum is a lower bound; once the plan
// it gives costs exactly that, the plan is optimal. Each round counts at
// least one more layout, so the rounds end.
//
// With a bound (a plan the enumerated search proved optimal costs that
// much), the model is only asked for cheaper plans: when the rounds find
// none, no placement of the family beats that plan, and out says so.
func (w *symWhole) core(scratch int, core []int, alive [][]int, offset, bound int64, out *symSolution) pbqp.CoreSolver {
	p := w.p
	return func(cp *pbqp.Problem, deadline time.Time) (status Status, choice []int, lb int64) {
		defer recoverZ3(&out.err, &status)
		if z3Panic != nil {
			panic(z3Panic)
		}
		room := int64(p.Budget) - int64(w.fixedBytes) - int64(scratch)
		if room < 0 {
			return StatusInfeasible, nil, Inf
		}
		ctx := z3Context(deadline)
		s := z3.NewSolver(ctx)
		x, terms := z3PBQP(ctx, s, cp)
		num := func(n int64) z3.Int { return ctx.FromInt(n, ctx.IntSort()).(z3.Int) }
		zero := num(0)
		zs := make([]*zplace, len(w.free))
		var foot z3.BV
		for i, b := range w.free {
			zs[i] = newZPlace(ctx, s, fmt.Sprintf("buf%d", i), b.Layout.Rows, b.Layout.Cols, b.Layout.ElemBits, p.Target)
			// Footprints below 2^(zwidth-2) each: their sum cannot wrap.
			f := zs[i].footprint()
			s.Assert(f.ULT(zs[i].bv(1 << (zwidth - 2))))
			if i == 0 {
				foot = f
			} else {
				foot = foot.Add(f)
			}
		}
		s.Assert(foot.ULE(zs[0].bv(int(min(room, 1<<(zwidth-1))))))
		index := map[int]int{}
		for k, n := range core {
			index[n] = k
		}
		methods := make([]z3.Int, len(w.accesses))
		for ai := range methods {
			methods[ai] = ctx.IntConst(fmt.Sprintf("method%d", ai))
		}
		// wf[a][i][m]: the wavefronts of method m of layout i of access a.
		wf := make([][][]z3.Int, len(w.accesses))
		for ai, a := range w.accesses {
			z := zs[a.buf]
			if a.need {
				s.Assert(a.admit(z))
			}
			k := index[a.node]
			method := methods[ai]
			wf[ai] = make([][]z3.Int, len(a.methods))
			for c, i := range alive[k] {
				sel := x[k].Eq(num(int64(c)))
				ms := a.methods[i]
				if len(ms) == 0 {
					s.Assert(sel.Not())
					continue
				}
				s.Assert(sel.Implies(method.GE(zero).And(method.LT(num(int64(len(ms)))))))
				for mi, m := range ms {
					on := sel.And(method.Eq(num(int64(mi))))
					if m.cond != nil {
						s.Assert(on.Implies(m.cond(z)))
					}
					cost := num(m.konst)
					if m.weight != 0 && len(m.pats) > 0 && len(m.pats[0].Phases) > 0 {
						v := ctx.IntConst(fmt.Sprintf("wf_%d_%d_%d", ai, i, mi))
						for _, pat := range m.pats {
							s.Assert(v.GE(num(int64(len(pat.Phases)))))
						}
						wf[ai][i] = append(wf[ai][i], v)
						cost = cost.Add(v.Mul(num(m.weight)))
					} else {
						wf[ai][i] = append(wf[ai][i], zero)
					}
					terms = append(terms, on.IfThenElse(cost, zero).(z3.Int))
				}
			}
		}
		counted := make([]map[[2]int]bool, len(w.accesses))
		for ai := range counted {
			counted[ai] = map[[2]int]bool{}
		}
		cost := z3Sum(ctx, terms)
		var last, lastMethod []int
		var lastModel *z3.Model
		placed := make([]*model.SharedLayout, len(w.free))
		// best is the exact cost of the cheapest plan so far (choice),
		// or of the enumerated optimum (choice nil); every round asks
		// for less, so a round with nothing cheaper proves it.
		best := Inf
		if bound < Inf {
			best = bound - offset
		}
		for {
			if best < Inf {
				s.Assert(cost.LE(num(best - 1)))
			}
			atMost := func(k int64) z3.Bool { return cost.LE(num(k)) }
			st, opt := z3Minimise(s, atMost, lb, deadline, func(m *z3.Model) int64 {
				last, lastMethod, lastModel = z3Choice(m, x), z3Choice(m, methods), m
				for i, b := range w.free {
					placed[i] = zs[i].layout(m, b.Layout.ElemBits)
				}
				return z3Value(m, cost)
			})
			switch st {
			case StatusInfeasible:
				switch {
				case choice != nil:
					return StatusOptimal, choice, best
				case bound < Inf:
					out.atLeast = true
				}
				return StatusInfeasible, nil, Inf
			case StatusOptimal:
				lb = opt
			default:
				if choice == nil {
					return StatusUnknown, nil, lb
				}
				return StatusFeasible, choice, lb
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
				return StatusOptimal, choice, best
			}
			// Count the wavefronts of the ways the plan accesses its
			// buffers, and cut where the model counts too few.
			more := false
			for ai, a := range w.accesses {
				i := alive[index[a.node]][last[index[a.node]]]
				mi := lastMethod[ai]
				if mi < 0 || mi >= len(a.methods[i]) {
					continue
				}
				m := a.methods[i][mi]
				if m.weight == 0 || len(m.pats) == 0 || len(m.pats[0].Phases) == 0 {
					continue
				}
				z := zs[a.buf]
				if !counted[ai][[2]int{i, mi}] {
					counted[ai][[2]int{i, mi}], more = true, true
					for _, pat := range m.pats {
						s.Assert(wf[ai][i][mi].GE(z.wavefronts(pat)))
					}
				}
				for _, pat := range m.pats {
					more = z.refine(lastModel, pat, placed[a.buf]) || more
				}
			}
			if !more {
				return StatusFeasible, choice, lb // the model and the exact count disagree
			}
		}
	}
}

// exact is the exact cost of a core choice with the buffers placed as
// placed: the core PBQP's and every access's (Problem.accessCost).
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
	refused := a.named != nil && p.admits(a.named, s) != nil
	if refused && a.need {
		return Inf, nil
	}
	c, _, guard, err := p.accessCost(a.op, p.Nodes[a.node].Layouts[i], s, a.named, refused, p.loadRecs)
	switch {
	case guard >= 0 && p.inForce(guard):
		return Inf, err
	case guard >= 0:
		return 0, err
	}
	return c, err
}

// strip is base without the buffer nodes: a single choice each, the
// accesses to searched buffers left to the core solver, and those to
// fixed ones folded into the accessing node at their placement.
func (w *symWhole) strip(base *pbqp.Problem) (*pbqp.Problem, string) {
	p := w.p
	pb := &pbqp.Problem{Cost: slices.Clone(base.Cost)}
	for _, bn := range p.bufNodes {
		pb.Cost[bn.ID] = []int64{0}
	}
	for k, e := range base.Edges {
		pe := p.Edges[k]
		if pe.Kind != EdgeAccess {
			pb.Edges = append(pb.Edges, e)
			continue
		}
		b := pe.Use.Op.Buffer
		if _, ok := w.slot[b]; ok {
			continue
		}
		bn, slot := p.bufNode[b], p.bufSlot[b]
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

// peakScratch is the most scratch a choice's conversions and reductions
// use.
func (p *Problem) peakScratch(choice []int) int {
	most := 0
	for _, u := range p.scratch {
		used := u.Edge < 0 && choice[u.Node] == int(u.I)
		if u.Edge >= 0 {
			e := p.PBQP.Edges[u.Edge]
			used = choice[e.A] == int(u.I) && choice[e.B] == int(u.J)
		}
		if used {
			most = max(most, u.Bytes)
		}
	}
	return most
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
// the plan names a placement of placements() wherever one is as good.
func (w *symWhole) snap(t *symTry) {
	p := w.p
	for i, b := range w.free {
		for _, c := range placements(b) {
			if c.String() == t.placed[i].String() {
				break
			}
			placed := slices.Clone(t.placed)
			placed[i] = c
			total, err := w.total(t.pb, t.sol.Choice, placed)
			if err == nil && total == t.total && w.bytes(placed)+p.peakScratch(t.sol.Choice) <= p.Budget {
				t.placed = placed
				break
			}
		}
	}
}

// solveSymbolic is the smt backend's whole search (WholeSolver): a nil
// result says why it could not run, an error is a failure inside Z3.
func solveSymbolic(p *Problem, opt Options) (*Result, string, error) {
	w, why := newSymWhole(p)
	if w == nil {
		return nil, why, nil
	}
	limit := symbolicTime
	if opt.TimeLimit > 0 {
		limit = min(limit, opt.TimeLimit)
	}
	if w := p.watch; w != nil && !w.deadline.IsZero() {
		limit = min(limit, time.Until(w.deadline)) // the caller's context or time limit
	}
	deadline := time.Now().Add(limit)
	// The enumerated search's optimum bounds the symbolic one: Z3 first
	// looks for anything cheaper.
	ref := Solve(p, Options{TimeLimit: opt.TimeLimit, Backend: "gini"})
	bound := Inf
	if ref.Status == StatusOptimal && symbolicBounded {
		bound = ref.Cost
	}
	var failure error // a failure inside Z3 in any try
	try := func(scratch int, capped bool) (*symTry, string) {
		base := p.PBQP
		if capped {
			base = p.capped(scratch)
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
		t := &symTry{sol: sol, placed: out.placed, base: base, pb: pb, total: Inf}
		if sol.Status == StatusOptimal || sol.Status == StatusFeasible {
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
		ref.Placements = PlacementsUnbeaten
		return ref, "", nil
	}
	if best == nil {
		return nil, why, nil
	}
	if best.sol.Status == StatusOptimal && len(p.scratch) > 0 && w.bytes(best.placed)+p.peakScratch(best.sol.Choice) > p.Budget {
		// The plan that ignores scratch does not fit with its scratch:
		// the cheapest over every cap on the scratch, as Solve does.
		var found *symTry
		for _, c := range p.scratchCaps() {
			t, why := try(c, true)
			if failure != nil {
				return nil, "", failure
			}
			switch {
			case t == nil && why == "":
				// Nothing under this cap beats the bound.
				if found == nil || found.total >= bound {
					found = &symTry{sol: pbqp.Solution{Status: StatusOptimal}, total: bound}
				}
			case t == nil:
				return nil, why, nil
			case t.sol.Status != StatusOptimal && t.sol.Status != StatusInfeasible:
				best = t
			case t.sol.Status == StatusOptimal && (found == nil || t.total < found.total):
				found = t
			}
		}
		if best.sol.Status == StatusOptimal && found != nil && found.pb == nil {
			ref.Search = "symbolic: no placement of the family beats the enumerated optimum"
			ref.Placements = PlacementsUnbeaten
			return ref, "", nil
		}
		if best.sol.Status == StatusOptimal {
			best = found
			if found == nil {
				best = &symTry{sol: pbqp.Solution{Status: StatusInfeasible}}
			}
		}
	}
	switch best.sol.Status {
	case StatusInfeasible:
		return &Result{Problem: p, Search: "symbolic", Placements: PlacementsSymbolic, Candidates: p.candidateCount(), Status: StatusInfeasible,
			Cost: Inf, LowerBound: Inf, Stats: best.sol.Stats}, "", nil
	case StatusOptimal:
	default:
		return nil, fmt.Sprintf("the symbolic search found no proven optimum in %v", limit), nil
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
func (w *symWhole) result(t *symTry) *Result {
	p := w.p
	res := &Result{Problem: p, Search: "symbolic", Placements: PlacementsSymbolic, Candidates: p.candidateCount()}
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
	for _, bn := range p.bufNodes {
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
		p.finish(res, t.base, sol)
		return res
	}
	var beyond []string
	for i, b := range w.free {
		s := t.placed[i]
		if !slices.ContainsFunc(placements(b), func(c *model.SharedLayout) bool { return c.String() == s.String() }) {
			beyond = append(beyond, fmt.Sprintf("%s: %s", b.Name, s))
		}
	}
	if len(beyond) > 0 {
		res.Search += ", beyond the enumerated placements: " + strings.Join(beyond, "; ")
		res.Placements = PlacementsBeyond
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
			refused := ac.named != nil && p.admits(ac.named, s) != nil
			_, oc.Record, _, _ = p.accessCost(ac.op, l, s, ac.named, refused, p.loadRecs)
			oc.Rejected = rejectedFor(ac.op, s, p.loadRecs)
		}
	}
	for i, b := range w.free {
		a.Buffers[b] = t.placed[i]
	}
	res.Assignment = a
	return res
}
