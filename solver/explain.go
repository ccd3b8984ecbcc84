package solver

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/irifrance/gini/logic"
	"github.com/irifrance/gini/z"

	"planner/model"
	"planner/solver/pbqp"
)

// feasibility is a problem's constraints in SAT, costs left out: one
// literal per choice, at least one choice per node, and for every guarded
// entry a clause that holds unless one of its facts' selectors is false.
// Solving under assumptions on the selectors asks whether the facts
// assumed leave a plan; gini's Why names assumptions that suffice for a
// conflict, which deletion shrinks to a minimal core.
type feasibility struct {
	p       *Problem
	c       *logic.C
	g       *pbqp.SAT // each question on a fresh solver (pbqp.SAT says why)
	x       [][]z.Lit
	sel     []z.Lit
	mark    []int8
	bySel   map[z.Lit]int
	pending []z.Lit // the clause Add is given, until its 0 (logic.C.CnfSince)
	// solves counts the SAT calls, for benchmarks and tests.
	solves int
}

func newFeasibility(p *Problem) *feasibility {
	f := &feasibility{p: p, c: logic.NewC(), g: pbqp.NewSAT()}
	for range p.Facts() {
		f.sel = append(f.sel, f.c.Lit())
	}
	for _, n := range p.Nodes {
		lits := make([]z.Lit, n.Choices())
		for i := range lits {
			lits[i] = f.c.Lit()
		}
		f.x = append(f.x, lits)
		f.add(lits...)
	}
	guardLits := func(facts []int, lits []z.Lit) []z.Lit {
		for _, id := range facts {
			lits = append(lits, f.sel[id].Not())
		}
		return lits
	}
	for n := range p.Nodes {
		for _, fb := range p.NodeForbids(n) {
			f.add(guardLits(fb.Facts, []z.Lit{f.x[n][fb.Choice].Not()})...)
		}
	}
	for k, e := range p.PBQP.Edges {
		for _, fb := range p.EdgeForbids(k) {
			f.add(guardLits(fb.Facts, []z.Lit{f.x[e.A][fb.Choice].Not(), f.x[e.B][fb.Other].Not()})...)
		}
	}
	return f
}

func (f *feasibility) add(lits ...z.Lit) {
	for _, m := range lits {
		f.g.Add(m)
	}
	f.g.Add(0)
}

// Add adds a literal of a clause, 0 ending it: the circuit's clauses
// (logic.C.CnfSince) reach the solver through add, as every other does.
func (f *feasibility) Add(m z.Lit) {
	if m != z.LitNull {
		f.pending = append(f.pending, m)
		return
	}
	f.add(f.pending...)
	f.pending = f.pending[:0]
}

// holds reports whether the facts (and the extra literals) leave a plan.
// A model that overflows the register budget while its fact holds is cut
// away (registerCut) and the question asked again, so that the answer is
// exact for the budget too.
func (f *feasibility) holds(facts []int, extra ...z.Lit) bool {
	for {
		f.solves++
		f.g.Assume(extra...)
		for _, id := range facts {
			f.g.Assume(f.sel[id])
		}
		if f.g.Solve() != 1 {
			return false
		}
		if !f.registerCut() {
			return true
		}
	}
}

// registerCut adds, when the last model keeps the register budget's fact
// and overflows it, the clause that forbids the choices of the values
// live at the overflow that hold more than their fewest registers: with
// every other value there at its fewest, as in the model, they alone
// overflow it, so the clause follows from the budget. It reports whether
// it added one.
func (f *feasibility) registerCut() bool {
	fact := f.p.RegisterFact()
	if fact == nil || !f.g.Value(f.sel[fact.ID]) {
		return false
	}
	choice := make([]int, len(f.x))
	for n, lits := range f.x {
		for c, m := range lits {
			if f.g.Value(m) {
				choice[n] = c
				break
			}
		}
	}
	over := f.p.RegisterCut(choice)
	if over == nil {
		return false
	}
	clause := []z.Lit{f.sel[fact.ID].Not()}
	for _, n := range over {
		clause = append(clause, f.x[n][choice[n]].Not())
	}
	f.add(clause...)
	return true
}

// why lists the facts among the last failed assumptions.
func (f *feasibility) why() []int {
	if f.bySel == nil {
		f.bySel = map[z.Lit]int{}
		for id, s := range f.sel {
			f.bySel[s] = id
		}
	}
	var out []int
	for _, m := range f.g.Why(nil) {
		if id, ok := f.bySel[m]; ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// core finds a minimal set of facts that, with the extra literals, leave
// no plan; nil if all facts together leave one. gini's Why gives the
// first candidate set and shrinks it after each deletion.
func (f *feasibility) core(extra ...z.Lit) []int {
	holds := func(ids []int) bool { return f.holds(ids, extra...) }
	return minimalCore(f.p, holds, f.why)
}

// minimalCore finds a minimal set of facts that leave no plan, by
// deletion: each fact is tried without; if the rest still conflict it
// goes. Hard facts are tried first, so that where several cores exist the
// one kept has the facts a user can act on, and a conflict among the
// graph's own facts is preferred to one resting on what the planner
// cannot place (an unspecified fragment). why, when there is one, names
// a sufficient subset of the facts of the last failed call; nil if all
// facts leave a plan.
func minimalCore(p *Problem, holds func([]int) bool, why func() []int) []int {
	facts := p.Facts()
	all := make([]int, len(facts))
	for i := range all {
		all[i] = i
	}
	if holds(all) {
		return nil
	}
	own := slices.DeleteFunc(slices.Clone(all), func(id int) bool { return facts[id].Kind == model.FactFragment })
	if len(own) < len(all) && !holds(own) {
		all = own
	} else if len(own) < len(all) {
		holds(all) // why answers for the last call
	}
	todo := all
	if why != nil {
		todo = why()
	}
	hard := func(id int) bool { return facts[id].Hard }
	slices.SortStableFunc(todo, func(a, b int) int {
		switch {
		case hard(a) && !hard(b):
			return -1
		case !hard(a) && hard(b):
			return 1
		}
		return a - b
	})
	// A fact shown necessary stays necessary in every subset, so every
	// later Why contains it.
	var core []int
	for len(todo) > 0 {
		rest := todo[1:]
		trial := append(slices.Clone(core), rest...)
		if holds(trial) {
			core = append(core, todo[0])
			todo = rest
			continue
		}
		if why == nil {
			todo = rest
			continue
		}
		w := why()
		todo = slices.DeleteFunc(slices.Clone(rest), func(id int) bool { return !slices.Contains(w, id) })
	}
	slices.Sort(core)
	return core
}

// corrections enumerates minimal correction sets over the relaxable facts:
// sets whose removal, with every hard fact kept, leaves a plan, smallest
// first, at most limit of them and none larger than maxSize.
func (f *feasibility) corrections(limit, maxSize int) (sets [][]int, more bool) {
	var hard, soft []int
	for _, fact := range f.p.Facts() {
		if fact.Hard {
			hard = append(hard, fact.ID)
		} else {
			soft = append(soft, fact.ID)
		}
	}
	if len(soft) == 0 || !f.holds(hard) {
		return nil, false
	}
	dropped := make([]z.Lit, len(soft))
	for i, id := range soft {
		dropped[i] = f.sel[id].Not()
	}
	cs := logic.NewCardSort(dropped, f.c)
	var roots []z.Lit
	for k := 0; k <= min(maxSize, len(soft)); k++ {
		roots = append(roots, cs.Leq(k))
	}
	f.mark, _ = f.c.CnfSince(f, f.mark, roots...)
	for k := 1; k <= min(maxSize, len(soft)); k++ {
		for {
			if !f.holds(hard, cs.Leq(k)) {
				break
			}
			var set []int
			var block []z.Lit
			for _, id := range soft {
				if !f.g.Value(f.sel[id]) {
					set = append(set, id)
					block = append(block, f.sel[id])
				}
			}
			if len(sets) == limit {
				return sets, true
			}
			sets = append(sets, set)
			f.add(block...) // later sets keep at least one of these facts
		}
	}
	return sets, false
}

// Explain explains why a graph has no plan: a minimal core of facts, what
// the core's facts say about each other, and the cheapest minimal
// relaxations (at most maxRelax), each priced by solving the graph without
// them with the same records.
func Explain(p *Problem, records []*model.Record, maxRelax int, opt Options) (*model.Explanation, error) {
	e := &model.Explanation{File: p.Graph.File, Target: p.Target.Name, Status: StatusInfeasible.String(), Outside: p.UnofferedMMAPins()}
	bound, fewest, err := p.ConversionBoundCore(records, opt)
	if err != nil {
		return nil, err
	}
	more := false
	if bound != nil {
		// The bound on conversions is in the way (conversions.go): it
		// is no clause of the feasibility search, so its core is found
		// by deletion, and its relaxations are its facts dropped alone.
		e.Core = bound
		e.Collision, e.Clash = p.Collision(e.Core)
		e.Collision = append(e.Collision, fmt.Sprintf("Every plan the other facts of the core allow converts at least %s (the fewest, found exactly), more than the bound allows.", times(fewest)))
	} else {
		f := newFeasibility(p)
		if e.Core, err = core(p, f, opt); err != nil {
			return nil, err
		}
		e.Collision, e.Clash = p.Collision(e.Core)
		var sets [][]int
		sets, more = f.corrections(maxRelaxSearch, 3)
		for _, set := range sets {
			r := model.Relaxation{}
			relax := map[string]bool{}
			for _, id := range set {
				r.Drop = append(r.Drop, p.Facts()[id])
				relax[p.Facts()[id].Name] = true
			}
			rp, err := BuildRelaxed(p.Graph, p.Target, records, relax)
			if err != nil {
				return nil, err
			}
			res := Solve(rp, opt)
			switch res.Status {
			case StatusInfeasible:
				continue // the exact budget check rules it out after all (see errNoCore)
			case StatusUnknown:
				// The time limit ran out before any plan: its lower bound.
				r.Cost, r.Status = res.LowerBound, res.Status.String()
			default:
				r.Cost, r.Status = res.Cost, res.Status.String()
			}
			e.Relaxations = append(e.Relaxations, r)
		}
	}
	if e.DropAlone, err = dropAlone(p, e, records, opt); err != nil {
		return nil, err
	}
	sort.SliceStable(e.Relaxations, func(i, j int) bool {
		a, b := e.Relaxations[i], e.Relaxations[j]
		if a.Cost != b.Cost {
			return a.Cost < b.Cost
		}
		if len(a.Drop) != len(b.Drop) {
			return len(a.Drop) < len(b.Drop)
		}
		return relaxationKey(a) < relaxationKey(b)
	})
	if more {
		e.More = -1
	}
	if maxRelax >= 0 && len(e.Relaxations) > maxRelax {
		e.More = len(e.Relaxations) - maxRelax
		e.Relaxations = e.Relaxations[:maxRelax]
	}
	return e, nil
}

// dropAlone says for each fact of e's core whether dropping it alone,
// every other fact kept, leaves a plan: a priced relaxation of that one
// fact says so, else the graph is built and solved without it. A search
// stopped by the time limit before any plan counts as no. A relaxable
// fact found enough alone that the relaxations lack joins them: the
// search for them runs on the layouts built for the whole graph, and
// dropping a fact (an mma's named record) can bring in others.
func dropAlone(p *Problem, e *model.Explanation, records []*model.Record, opt Options) ([]bool, error) {
	out := make([]bool, len(e.Core))
	for i, f := range e.Core {
		if slices.ContainsFunc(e.Relaxations, func(r model.Relaxation) bool {
			return len(r.Drop) == 1 && r.Drop[0] == f && r.Status != StatusUnknown.String()
		}) {
			out[i] = true
			continue
		}
		rp, err := BuildRelaxed(p.Graph, p.Target, records, map[string]bool{f.Name: true})
		if err != nil {
			return nil, err
		}
		res := Solve(rp, opt)
		out[i] = res.Status == StatusOptimal || res.Status == StatusFeasible
		if out[i] && !f.Hard {
			e.Relaxations = append(e.Relaxations, model.Relaxation{Drop: []*model.Fact{f}, Cost: res.Cost, Status: res.Status.String()})
		}
	}
	return out, nil
}

// Core is a minimal set of facts of an unsat problem that cannot all
// hold, found by the options' backend, in the order a reader meets them.
func Core(p *Problem, opt Options) ([]*model.Fact, error) {
	return core(p, newFeasibility(p), opt)
}

func core(p *Problem, f *feasibility, opt Options) ([]*model.Fact, error) {
	var ids []int
	if finder, ok := backendOf(opt).(ConflictFinder); ok {
		var err error
		if ids, err = finder.Conflict(p); err != nil {
			return nil, err
		}
	} else {
		ids = f.core()
	}
	if most, bound := p.ConversionBound(); ids == nil && bound {
		return nil, explainError(fmt.Sprintf("no plan exists, but no set of facts rules it out alone: the bound of at most %s (%s), kept by the search and not by the facts, rules out every plan together with the shared-memory or register budget, or the fewest conversions could not be found in time; planner solve --max-conversions none lifts the bound",
			times(most), p.Graph.MaxConversionsFrom))
	}
	if ids == nil {
		return nil, errNoCore
	}
	var out []*model.Fact
	for _, id := range ids {
		out = append(out, p.Facts()[id])
	}
	sortFacts(p.Graph.File, out)
	return out, nil
}

// maxRelaxSearch bounds the correction sets enumerated before pricing.
const maxRelaxSearch = 32

type explainError string

func (e explainError) Error() string { return string(e) }

// errNoCore: the facts allow a plan, but the exact search has none. The
// facts check conversion scratch against the smallest placements of the
// buffers, while the search checks the buffers' chosen placements plus the
// scratch together.
const errNoCore = explainError("no plan exists, but no set of facts rules it out alone: the buffers' placements and the largest conversion scratch together exceed the shared-memory budget (docs/shared-memory.md, Budget); a larger shared_memory or smaller buffers would make room")

// ExplainPlan explains the conversions of a solved problem: for each, a
// minimal set of facts that forces it when no plan avoids it, or else the
// cost of the cheapest plan without it.
func ExplainPlan(p *Problem, res *Result, opt Options) (*model.Explanation, error) {
	e := &model.Explanation{File: p.Graph.File, Target: p.Target.Name, Status: res.Status.String(), Cost: res.Cost}
	if res.Choice == nil {
		return nil, explainError("the graph has no plan to explain")
	}
	choice := res.Choice
	f := newFeasibility(p)
	for k, edge := range p.Edges {
		i, j := choice[edge.From], choice[edge.To]
		if edge.Kind != EdgeConversion || !p.Converts(k, i, j) {
			continue
		}
		w := model.ConversionWhy{Value: edge.Value.Name, Consumer: edge.Use.Op.Name, Operand: model.OperandName(edge.Use),
			Cost: p.PBQP.Edges[k].M[i][j]}
		if c := p.PricedConversion(p.Nodes[edge.From].Layouts[i], edge.Required[j], edge.Value.DType.Bits); c != nil {
			w.Kind = c.Kind
			if w.Cost == 0 && c.Kind == model.ConvRegister && c.Moves == 0 {
				e.FreeSelections++ // the plan lists it apart: no instruction
				continue
			}
		}
		// "This use converts nothing", as a literal the search assumes.
		none := f.c.Lit()
		pb := &pbqp.Problem{Cost: p.PBQP.Cost, Edges: slices.Clone(p.PBQP.Edges)}
		m := make([][]int64, len(pb.Edges[k].M))
		for a := range m {
			m[a] = slices.Clone(pb.Edges[k].M[a])
			for b := range m[a] {
				if p.Converts(k, a, b) {
					f.add(none.Not(), f.sel[edge.Rule.ID].Not(), f.x[edge.From][a].Not(), f.x[edge.To][b].Not())
					m[a][b] = Inf
				}
			}
		}
		pb.Edges[k] = pbqp.Edge{A: pb.Edges[k].A, B: pb.Edges[k].B, M: m}
		if core := f.core(none); core != nil {
			w.Forced = true
			for _, id := range core {
				w.Facts = append(w.Facts, p.Facts()[id])
			}
			sortFacts(p.Graph.File, w.Facts)
		} else {
			var po pbqp.Options
			if opt.TimeLimit > 0 {
				po.Deadline = timeNow().Add(opt.TimeLimit)
			}
			// The plan without the conversion keeps the register budget
			// too, which the per-choice bans alone do not ensure, or
			// pays for its spills.
			sol, _ := p.SolveUnderRegisters(pb, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return pbqp.Solve(b, po), b })
			w.Without, w.WithoutStatus = sol.Cost, sol.Status.String()
			if sol.Status == StatusUnknown {
				w.Without = sol.LowerBound
			}
			if sol.Status == StatusOptimal || sol.Status == StatusFeasible {
				w.Instead = conversionsOf(p, sol.Choice)
			}
		}
		e.Conversions = append(e.Conversions, w)
	}
	return e, nil
}

var timeNow = time.Now

// relaxationKey orders relaxations of equal cost and size the same way on
// every run, whatever order the search found them in: by the names of
// the facts they drop, sorted.
func relaxationKey(r model.Relaxation) string {
	names := make([]string, len(r.Drop))
	for i, f := range r.Drop {
		names[i] = f.Name
	}
	slices.Sort(names)
	return strings.Join(names, "\x00")
}

// sortFacts orders facts as a reader meets them: the graph's lines first,
// in order, then the records' and targets'.
func sortFacts(graph string, fs []*model.Fact) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.Pos.File == graph) != (b.Pos.File == graph) {
			return a.Pos.File == graph
		}
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Name < b.Name
	})
}

// conversionsOf lists the conversions that cost something in a choice,
// for people: "%x into y (a): shuffle, cost 12".
func conversionsOf(p *Problem, choice []int) []string {
	var out []string
	for k, e := range p.Edges {
		i, j := choice[e.From], choice[e.To]
		if e.Kind != EdgeConversion || !p.Converts(k, i, j) || p.PBQP.Edges[k].M[i][j] == 0 {
			continue
		}
		kind := "conversion"
		if c := p.PricedConversion(p.Nodes[e.From].Layouts[i], e.Required[j], e.Value.DType.Bits); c != nil {
			kind = c.Kind.String()
		}
		out = append(out, fmt.Sprintf("%%%s into %s (%s): %s, cost %d", e.Value.Name, e.Use.Op.Name, model.OperandName(e.Use), kind, p.PBQP.Edges[k].M[i][j]))
	}
	return out
}
