package solver

import (
	"fmt"
	"slices"
	"time"

	"planner/model"
	"planner/solver/pbqp"
)

// A graph may bound how many conversions its plan has
// (model.Graph.MaxConversions): a TTGIR kernel, by default, by its own
// ttg.convert_layout count, so that the planner never leaves a Triton
// kernel with more conversions than it came with. The bound is not a cost
// and does not separate over the edges, so it is kept outside the PBQP by
// branch and bound over the conversion edges, exactly as the register
// budget is (registers.go): the search's plan either keeps the bound, and
// is then the answer, or has a conversion edge to branch on. One branch
// forbids that edge's converting pairs; the other forbids its agreeing
// pairs, so that it converts for certain and spends one conversion of the
// budget, and once the forced conversions spend it all, every other edge
// is forbidden to convert. A branch's optimum bounds every plan in it, so
// a branch no cheaper than the best plan found is cut.

// maxConversionBranches bounds the problems solved for one plan's
// conversion budget.
var maxConversionBranches = 512 // a variable only so that a test can reach it

// conversionBudget is what a problem knows of its graph's bound on
// conversions, and what keeping it found.
type conversionBudget struct {
	max   int
	fact  *model.Fact // the graph's bound, as explanations name it
	edges []int       // the conversion edges, by index in Edges
	// free is the search's own plan before the budget was kept, when it
	// had more conversions than the budget: its cost and conversions.
	free      bool
	freeCost  int64
	freeConvs int
	branches  int
	limited   bool // stopped at maxConversionBranches
}

// reset forgets what an earlier solve of the problem found.
func (cb *conversionBudget) reset() {
	cb.free, cb.freeCost, cb.freeConvs, cb.branches, cb.limited = false, 0, 0, 0, false
}

// newConversionBudget is the graph's bound on conversions, nil when it
// sets none.
func (p *Problem) newConversionBudget() *conversionBudget {
	if !p.Graph.HasMaxConversions {
		return nil
	}
	g := p.Graph
	f := p.fact(model.FactMaxConversions, string(model.FactMaxConversions), g.MaxConversionsPos,
		fmt.Sprintf("the plan may convert at most %s (%s)", times(g.MaxConversions), g.MaxConversionsFrom))
	if p.relaxed(f) {
		return nil
	}
	cb := &conversionBudget{max: g.MaxConversions, fact: f}
	for k, e := range p.Edges {
		if e.Kind == EdgeConversion {
			cb.edges = append(cb.edges, k)
		}
	}
	return cb
}

// converts reports whether edge k converts between choices i and j: a
// conversion edge whose consumer's choice j requires a layout other than
// the value's choice i, where a conversion (not a descriptor's read of a
// buffer) makes it. A use whose consumer requires no layout (an mma with
// no record, a relaxed rule) counts as converting, so that tidying and
// greedy prefer the choices that keep to the rules; a plan does not list
// it (counted).
func (p *Problem) converts(k, i, j int) bool {
	e := p.Edges[k]
	if e.Kind != EdgeConversion {
		return false
	}
	l, r := p.Nodes[e.From].Layouts[i], e.Required[j]
	switch {
	case r == nil:
		return true
	case r.InShared() || l.InShared():
		return false
	case l.Opaque() != "" || r.Opaque() != "":
		return !l.Equal(r)
	}
	conv := p.memo.priced(l, r, e.Value.DType.Bits) // every such pair of an edge was priced
	return conv != nil && conv.Kind != model.ConvNone
}

// counted reports whether edge k's pair (i, j) is a conversion its plan
// lists. A use whose rule an explanation relaxes needs nothing, and
// converts nothing.
func (p *Problem) counted(k, i, j int) bool {
	e := p.Edges[k]
	return e.Required[j] != nil && !p.relaxed(e.Rule) && p.converts(k, i, j)
}

// Conversions counts a choice's conversions, as its plan lists them.
func (p *Problem) Conversions(choice []int) int {
	n := 0
	for k, e := range p.Edges {
		if e.Kind == EdgeConversion && p.counted(k, choice[e.From], choice[e.To]) {
			n++
		}
	}
	return n
}

// OverConversions reports whether a choice has more conversions than the
// graph's bound allows.
func (p *Problem) OverConversions(choice []int) bool {
	return p.convBudget != nil && p.Conversions(choice) > p.convBudget.max
}

// restrictEdge is b with edge k's converting pairs forbidden, or, when
// forced, its other pairs. It leaves b's matrices unchanged.
func (p *Problem) restrictEdge(b *pbqp.Problem, k int, forced bool) *pbqp.Problem {
	out := &pbqp.Problem{Cost: b.Cost, Edges: slices.Clone(b.Edges)}
	m := make([][]int64, len(b.Edges[k].M))
	for i, row := range b.Edges[k].M {
		m[i] = slices.Clone(row)
		for j := range m[i] {
			if p.counted(k, i, j) != forced {
				m[i][j] = Inf
			}
		}
	}
	out.Edges[k].M = m
	return out
}

// solveWithinConversions solves base with search and, while the plan it
// finds has more conversions than the graph allows, branches on them (the
// comment at the top of this file). It gives the best plan within the
// bound and the PBQP its cost is counted in.
func (p *Problem) solveWithinConversions(base *pbqp.Problem, search func(*pbqp.Problem) (pbqp.Solution, *pbqp.Problem)) (pbqp.Solution, *pbqp.Problem) {
	cb := p.convBudget
	sol, pb := search(base)
	if cb == nil || (sol.Status != StatusOptimal && sol.Status != StatusFeasible) {
		return sol, pb
	}
	sol.Choice = p.fewestTies(pb, sol.Choice)
	n := p.Conversions(sol.Choice)
	if n <= cb.max {
		return sol, pb
	}
	if !cb.free && p.cheapestOfAll(base, sol) {
		// Reported as its plan would be: with ties broken toward fewer
		// conversions.
		cb.free, cb.freeCost, cb.freeConvs = true, sol.Cost, n
	}
	best := pbqp.Solution{Status: StatusInfeasible, Cost: Inf, LowerBound: Inf, Stats: sol.Stats}
	bestPB := base
	proven := sol.Status == StatusOptimal
	// A plan within the bound found by pricing conversions, which the
	// branching must beat, and a bound no plan within it goes below.
	floor := sol.LowerBound
	inc, incPB, bound, lambda := p.priceConversions(base, search, cb.max)
	if inc.Choice != nil {
		best.Choice, best.Cost, best.Stats, bestPB = inc.Choice, inc.Cost, sol.Stats, incPB
		floor = max(floor, bound)
		if floor >= best.Cost {
			return settled(best, proven, floor), bestPB
		}
	}
	// decided are the edges a branch forced to convert or forbade to;
	// forced counts the first.
	var branch func(b *pbqp.Problem, s pbqp.Solution, spb *pbqp.Problem, decided []int, forced int) bool
	branch = func(b *pbqp.Problem, s pbqp.Solution, spb *pbqp.Problem, decided []int, forced int) bool {
		if s.Status != StatusOptimal && s.Status != StatusInfeasible {
			proven = false
		}
		if s.Status != StatusOptimal && s.Status != StatusFeasible || s.Cost >= best.Cost {
			return true // restricting only raises a branch's cost
		}
		if lambda > 0 && len(decided) > 0 {
			// The branch's priced optimum bounds its plans within the
			// bound too (priceConversions).
			if ls, _ := search(p.priceEdges(b, lambda)); ls.Status == StatusOptimal && ls.Cost-lambda*int64(cb.max) >= best.Cost {
				return true
			}
		}
		s.Choice = p.fewestTies(spb, s.Choice)
		var open []int // the plan's conversions on edges not yet decided
		for _, k := range cb.edges {
			e := p.Edges[k]
			if p.counted(k, s.Choice[e.From], s.Choice[e.To]) && !slices.Contains(decided, k) {
				open = append(open, k)
			}
		}
		if forced+len(open) <= cb.max {
			best.Choice, best.Cost, best.Stats, bestPB = s.Choice, s.Cost, s.Stats, spb
			return true
		}
		try := func(nb *pbqp.Problem, d []int, f int) bool {
			if cb.branches++; cb.branches > maxConversionBranches {
				cb.limited = true
				return false
			}
			ns, npb := search(nb)
			return branch(nb, ns, npb, d, f)
		}
		if forced == cb.max {
			// The budget is spent: no other edge may convert.
			nb := b
			for _, k := range open {
				nb = p.restrictEdge(nb, k, false)
			}
			return try(nb, decided, forced)
		}
		k := open[0]
		decided = append(slices.Clone(decided), k)
		if !try(p.restrictEdge(b, k, false), decided, forced) {
			return false
		}
		return try(p.restrictEdge(b, k, true), decided, forced+1)
	}
	if !branch(base, sol, pb, nil, 0) {
		proven = false
	}
	return settled(best, proven, floor), bestPB
}

// maxPricings bounds the solves priceConversions makes.
var maxPricings = 24 // a variable only so that a test can reach it

// priceConversions looks for a plan within the bound of max conversions
// by Lagrangian relaxation: every conversion the bound counts costs
// lambda more, lambda doubling until the cheapest plan so priced keeps
// the bound, then bisected toward the cheapest such plan. It gives the
// cheapest plan found within the bound (its cost without the price, in
// the unpriced problem it was solved in; no choice if none was found)
// and the best bound it proved: for every lambda whose priced problem
// was solved exactly, no plan within the bound costs less than the
// priced optimum less lambda times max.
func (p *Problem) priceConversions(base *pbqp.Problem, search func(*pbqp.Problem) (pbqp.Solution, *pbqp.Problem), max int) (pbqp.Solution, *pbqp.Problem, int64, int64) {
	best := pbqp.Solution{Cost: Inf}
	var bestPB *pbqp.Problem
	bound, boundLambda := int64(0), int64(0)
	solves := 0
	try := func(lambda int64) bool { // whether the priced plan keeps the bound
		solves++
		s, spb := search(p.priceEdges(base, lambda))
		if s.Status != StatusOptimal && s.Status != StatusFeasible {
			return false
		}
		if s.Status == StatusOptimal {
			if lb := s.Cost - lambda*int64(max); lb > bound {
				bound, boundLambda = lb, lambda
			}
		}
		upb := p.priceEdges(spb, -lambda)
		choice := p.fewestTies(upb, s.Choice)
		if p.Conversions(choice) > max {
			return false
		}
		if c := upb.Evaluate(choice); c < best.Cost {
			best = pbqp.Solution{Status: StatusFeasible, Choice: choice, Cost: c}
			bestPB = upb
		}
		return true
	}
	lo, hi := int64(0), int64(1)
	for solves < maxPricings && hi < Inf/1024 {
		if try(hi) {
			break
		}
		lo, hi = hi, hi*2
	}
	for solves < maxPricings && hi-lo > 1 && best.Choice != nil {
		mid := lo + (hi-lo)/2
		if try(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return best, bestPB, bound, boundLambda
}

// priceEdges is pb with every pair of a conversion edge that the bound
// counts costing lambda more (less, for a negative lambda); pairs that
// are forbidden stay so. It leaves pb's matrices unchanged.
func (p *Problem) priceEdges(pb *pbqp.Problem, lambda int64) *pbqp.Problem {
	out := &pbqp.Problem{Cost: pb.Cost, Edges: slices.Clone(pb.Edges)}
	for _, k := range p.convBudget.edges {
		m := make([][]int64, len(pb.Edges[k].M))
		for i, row := range pb.Edges[k].M {
			m[i] = slices.Clone(row)
			for j, c := range m[i] {
				if c < Inf && p.counted(k, i, j) {
					m[i][j] = c + lambda
				}
			}
		}
		out.Edges[k].M = m
	}
	return out
}

// cheapestOfAll reports whether sol, the solution of base, is the
// cheapest plan of the whole problem without the bound on conversions:
// proven optimal over the problem's own PBQP (not one a register or
// spilling branch restricted), within the register budget and spilling
// nothing (a plan that spills may be beaten by one the spilling search
// finds later).
func (p *Problem) cheapestOfAll(base *pbqp.Problem, sol pbqp.Solution) bool {
	if sol.Status != StatusOptimal || base != p.PBQP || p.overRegisters(sol.Choice) {
		return false
	}
	if p.regs != nil && p.regs.room != nil {
		return false // a spilling branch's caps are in force
	}
	return p.spillCost(sol.Choice) == 0
}

// fewestTies is choice with its ties broken toward fewer conversions
// (tidy), where that keeps its cost in pb; choice itself otherwise. A
// search returns any of the plans of its optimum, and those that convert
// where an equal plan does not would have the bound branch on
// conversions that cost nothing to avoid.
func (p *Problem) fewestTies(pb *pbqp.Problem, choice []int) []int {
	t := slices.Clone(choice)
	p.tidy(t)
	if p.total(pb, t) != p.total(pb, choice) || p.Conversions(t) >= p.Conversions(choice) {
		return choice
	}
	return t
}

// fewestConversions is the fewest conversions of any plan the problem's
// other facts allow (its register budget aside), found exactly by
// solving the problem with every cost 0 but a conversion's 1; false when
// no plan exists at all or the search did not finish.
func (p *Problem) fewestConversions(opt Options) (int, bool) {
	unit := &pbqp.Problem{Cost: make([][]int64, len(p.PBQP.Cost)), Edges: make([]pbqp.Edge, len(p.PBQP.Edges))}
	for n, row := range p.PBQP.Cost {
		unit.Cost[n] = make([]int64, len(row))
		for i, c := range row {
			if c >= Inf {
				unit.Cost[n][i] = Inf
			}
		}
	}
	for k, e := range p.PBQP.Edges {
		m := make([][]int64, len(e.M))
		for i, row := range e.M {
			m[i] = make([]int64, len(row))
			for j, c := range row {
				switch {
				case c >= Inf:
					m[i][j] = Inf
				case p.Edges[k].Kind == EdgeConversion && p.counted(k, i, j):
					m[i][j] = 1
				}
			}
		}
		unit.Edges[k] = pbqp.Edge{A: e.A, B: e.B, M: m}
	}
	var deadline time.Time
	if opt.TimeLimit > 0 {
		deadline = time.Now().Add(opt.TimeLimit)
	}
	sol := pbqp.Solve(unit, pbqp.Options{Deadline: deadline})
	if sol.Status != StatusOptimal {
		return 0, false
	}
	return int(sol.Cost), true
}

// boundCore is the core of an unsat problem whose bound on conversions
// is in the way: the facts that, with the bound, rule out every plan
// (each of them needed: without any one the fewest conversions fit the
// bound), found by dropping the problem's facts one at a time while the
// fewest conversions of the others stay over the bound; with the fewest
// conversions the core's facts allow. Nil when the bound is not what
// rules every plan out (the fewest conversions fit it, or no plan exists
// even without it), or when the problem has more than maxBoundFacts
// facts to try.
func (p *Problem) boundCore(records []*model.Record, opt Options) ([]*model.Fact, int, error) {
	cb := p.convBudget
	if cb == nil {
		return nil, 0, nil
	}
	fewest, ok := p.fewestConversions(opt)
	if !ok || fewest <= cb.max {
		return nil, 0, nil
	}
	core := []*model.Fact{cb.fact}
	if len(p.facts.list) > maxBoundFacts {
		return core, fewest, nil
	}
	relax := map[string]bool{}
	for _, f := range p.facts.list {
		if f == cb.fact {
			continue
		}
		relax[f.Name] = true
		rp, err := BuildRelaxed(p.Graph, p.Target, records, relax)
		if err != nil {
			return nil, 0, err
		}
		if k, ok := rp.fewestConversions(opt); ok && k > cb.max {
			fewest = k // not needed: the others keep every plan over the bound
			continue
		}
		delete(relax, f.Name)
		core = append(core, f)
	}
	sortFacts(p.Graph.File, core)
	return core, fewest, nil
}

// maxBoundFacts bounds the facts boundCore drops one at a time (one
// build each); past it the bound alone is named.
const maxBoundFacts = 400

// times says a count of conversions: "1 time", "3 times".
func times(n int) string {
	if n == 1 {
		return "1 time"
	}
	return fmt.Sprintf("%d times", n)
}
