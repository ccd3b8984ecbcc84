package solver

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"planner/model"
	"planner/solver/pbqp"
)

// Options bound a solve.
type Options struct {
	TimeLimit time.Duration // 0: none
	// Backend names the search: "gini" (the default, "") or "smt" (Z3,
	// in binaries built with the z3 tag), for plans and explanations, or
	// "greedy" for the greedy baseline's plan (greedy.go).
	Backend string
	// MemoryLimit stops the build and the search once the process holds
	// more bytes than this from the system (0: none); pair it with
	// debug.SetMemoryLimit so that the collector works to stay below.
	MemoryLimit uint64
	// MemoryStop, when set below MemoryLimit, is where the build and the
	// search stop instead, leaving the rest of the limit for what follows
	// them (the greedy fallback and the plan); messages still name
	// MemoryLimit.
	MemoryStop uint64
	// Progress, when set, is called with where the solve stands, first
	// after ProgressAfter and then every ProgressEvery.
	Progress func(Progress)
}

// Result is a solve's answer: the status, the plan's choices, its cost
// and the proven lower bound, and statistics.
type Result struct {
	Status     Status
	Assignment *model.Assignment
	Cost       int64
	LowerBound int64
	Stats      PStats
	Candidates int   // candidate layouts over all values
	Choice     []int // the plan's choice per node
	Problem    *Problem
	// Baseline is "greedy" when the plan is the greedy baseline's, not
	// the search's; NoPlan says why the baseline found no plan.
	Baseline string
	NoPlan   string
	// What stopped a feasible or unknown solve: StoppedBy is "time",
	// "memory" or "branches" (the register budget's branching), Stopped
	// names the limit ("the memory limit (4096 MiB)").
	Stopped, StoppedBy string
	Peak               uint64 // the most memory the process held at the watch's checks, in bytes
	// Err is an internal failure of the backend (a panic inside Z3 or a
	// bug caught at the backend's boundary), with its message; the
	// status is then unknown and the plan, if any, is not to be trusted.
	Err error
	// Search says how the buffers' placements were searched where the
	// backend has more than one way: "symbolic" (parameters as unknowns)
	// or "enumerated: " and why the symbolic search was not used.
	Search string
	// Placements is how the placements were searched, as a code.
	Placements PlacementSearch
	// UnboundedCost and UnboundedConversions are the search's cheapest
	// plan where the graph's bound on conversions excluded it
	// (conversions.go): its cost and conversions; 0 otherwise.
	UnboundedCost        int64
	UnboundedConversions int
}

// Abandon says that the caller answers without this problem's search: a
// Solve still running then returns unknown without making its plan. It
// waits for a plan being made to be done, so that once it returns no
// Solve of p reads a layout again.
func (p *Problem) Abandon() {
	p.abandoned.Lock()
	p.abandoned.yes = true
	p.abandoned.Unlock()
}

// Solve finds the cheapest assignment of a problem.
func Solve(p *Problem, opt Options) *Result {
	w := p.watch // BuildWithin's clock runs on
	if w == nil {
		w = newWatch(context.Background(), opt)
	}
	b := backendOf(opt)
	why := ""
	if whole, ok := b.(WholeSolver); ok {
		res, reason, err := whole.SolveWhole(p, opt)
		switch {
		case err != nil:
			return &Result{Problem: p, Status: StatusUnknown, Err: err, Candidates: p.candidateCount()}
		case res != nil && res.Choice != nil && p.overRegisters(res.Choice):
			// Its plan overflows the register budget, which the whole
			// solver does not know: the enumerated search cuts it away.
			why = "enumerated: the register budget"
		case res != nil && res.Choice != nil && p.spillCost(res.Choice) > 0:
			// Its plan spills, which the whole solver does not price.
			why = "enumerated: the price of spilling"
		case res != nil && res.Choice != nil && p.OverConversions(res.Choice):
			// Its plan converts more often than the graph allows, which
			// the whole solver does not count.
			why = "enumerated: the conversion budget"
		case res != nil:
			return res
		}
		if why == "" {
			why = "enumerated: " + reason
		}
	}
	placements := PlacementsEnumerated
	if why == "enumerated: "+NothingToPlace {
		placements = PlacementsNothingToPlace
	}
	res := &Result{Problem: p, Search: why, Placements: placements, Candidates: p.candidateCount()}
	po := pbqp.Options{Deadline: w.deadline, Monitor: monitor{w}}
	if d, ok := b.(CoreDecider); ok {
		po.Core = func(core *pbqp.Problem, deadline time.Time) (Status, []int, int64) {
			st, choice, lb, err := d.DecideCore(core, deadline, w.ctx.Done())
			if err != nil && res.Err == nil {
				res.Err = err
			}
			return st, choice, lb
		}
	}
	if p.convBudget != nil {
		p.convBudget.reset()
	}
	pb, sol := p.PBQP, pbqp.Solution{}
	w.phase("reduce", "", len(p.PBQP.Cost))
	switch {
	case w.checkNow() != nil:
		// A limit reached before the search starts: no search (its
		// reductions alone take memory on the scale of the problem's),
		// and the bound of the problem's minima.
		sol = pbqp.Solution{Status: StatusUnknown, Cost: Inf, LowerBound: p.MinimaBound()}
	default:
		sol, pb = p.solveSpilling(p.PBQP, func(base *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) {
			return p.solveWithinConversions(base, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return p.search(b, po) })
		})
	}
	if res.Err != nil {
		res.Status = StatusUnknown
		return res
	}
	sol, pb = p.notWorseThanGreedy(sol, pb)
	p.abandoned.Lock()
	defer p.abandoned.Unlock()
	if p.abandoned.yes {
		res.Status = StatusUnknown
		return res
	}
	p.finish(res, pb, sol)
	if cb := p.convBudget; cb != nil && cb.free && res.Choice != nil && cb.freeCost < res.Cost {
		res.UnboundedCost, res.UnboundedConversions = cb.freeCost, cb.freeConvs
	}
	res.Peak = w.peak
	switch {
	case res.Status != StatusFeasible && res.Status != StatusUnknown:
	case p.regs != nil && p.regs.limited && w.stopped == "" && !w.pastDeadline():
		res.Stopped, res.StoppedBy = fmt.Sprintf("the register budget's limit of %d capped problems", maxRegisterBranches), "branches"
	case p.convBudget != nil && p.convBudget.limited && w.stopped == "" && !w.pastDeadline():
		res.Stopped, res.StoppedBy = fmt.Sprintf("the conversion budget's limit of %d restricted problems", maxConversionBranches), "branches"
	default:
		res.Stopped, res.StoppedBy = w.stoppedBy(), cmp.Or(w.stopped, "time")
	}
	return res
}

// search solves base exactly: at once, or, when buffers and scratch
// share the budget, once per cap on the scratch, the cheapest plan over
// all caps. It gives the PBQP the solution's cost is counted in.
//
// Every capped problem is base restricted, so base's optimum bounds
// them all, and where base's own plan fits the budget beside the scratch
// it needs (it is a plan of the cap at its peak), it is the answer with
// no cap searched. Otherwise the caps are searched in turn, each only
// for a plan cheaper than the best found, until one reaches base's
// optimum.
func (p *Problem) search(base *pbqp.Problem, po pbqp.Options) (pbqp.Solution, *pbqp.Problem) {
	if !p.combined || len(p.scratch) == 0 {
		return pbqp.Solve(base, po), base
	}
	floor := int64(-1) // no plan of any cap costs less
	switch first := pbqp.Solve(base, po); first.Status {
	case StatusInfeasible:
		return first, base
	case StatusOptimal:
		if cb := p.cappedFrom(base, p.scratchPeak(first.Choice)); cb.Evaluate(first.Choice) < Inf {
			return first, cb
		}
		floor = first.Cost
	}
	// Buffers and scratch share the budget: the cheapest plan over
	// every cap on the scratch, each solved exactly.
	pb := base
	sol := pbqp.Solution{Status: StatusInfeasible, Cost: Inf, LowerBound: Inf}
	proven := true
	for _, limit := range p.scratchCaps() {
		cb := p.cappedFrom(base, limit)
		if sol.Choice != nil {
			// Only a cheaper plan matters now: branching cuts the rest.
			po.Below = sol.Cost
		}
		s := pbqp.Solve(cb, po)
		if sol.Choice == nil {
			sol.Stats = s.Stats
		}
		sol.LowerBound = min(sol.LowerBound, s.LowerBound)
		proven = proven && (s.Status == StatusOptimal || s.Status == StatusInfeasible)
		if (s.Status == StatusOptimal || s.Status == StatusFeasible) && s.Cost < sol.Cost {
			sol.Choice, sol.Cost, sol.Stats, pb = s.Choice, s.Cost, s.Stats, cb
		}
		if sol.Choice != nil && sol.Cost <= floor {
			proven = true // no cap left has a cheaper plan
			break
		}
	}
	switch {
	case sol.Choice == nil && proven:
		sol.Status = StatusInfeasible
	case sol.Choice == nil:
		sol.Status = StatusUnknown
	case proven:
		sol.Status, sol.LowerBound = StatusOptimal, sol.Cost
	default:
		sol.Status = StatusFeasible
	}
	return sol, pb
}

// finish fills in a result from the solution of pb (the problem's PBQP,
// or a capped one): its status and cost, and its plan with ties broken
// by tidy and tidyMMA.
func (p *Problem) finish(res *Result, pb *pbqp.Problem, sol pbqp.Solution) {
	res.Status, res.Cost, res.LowerBound, res.Stats = sol.Status, sol.Cost, sol.LowerBound, sol.Stats
	if sol.Status == StatusOptimal || sol.Status == StatusFeasible {
		before := append([]int(nil), sol.Choice...)
		p.tidy(sol.Choice)
		p.tidyMMA(pb, sol.Choice)
		if _, over := p.overflow(sol.Choice); over || p.total(pb, sol.Choice) != sol.Cost || p.OverConversions(sol.Choice) {
			copy(sol.Choice, before) // tidy takes only moves of equal cost within the budgets; keep the search's plan otherwise
		}
		res.Assignment = p.Assignment(sol.Choice)
		res.Choice = sol.Choice
	}
}

// candidateCount counts the candidate layouts over all values.
func (p *Problem) candidateCount() int {
	n := 0
	for _, nd := range p.Nodes {
		if nd.Kind == NodeValue {
			for _, c := range p.PBQP.Cost[nd.ID] {
				if c < Inf {
					n++
				}
			}
		}
	}
	return n
}

// Assignment reads a PBQP choice as the graph's plan choices.
func (p *Problem) Assignment(choice []int) *model.Assignment {
	a := model.NewAssignment()
	for _, n := range p.Nodes {
		i := choice[n.ID]
		switch n.Kind {
		case NodeValue:
			a.Layouts[n.Value] = n.Layouts[i]
			if op := n.Value.Def; op != nil && n.Load(i) != nil && op.Info().Records == model.RecordLoadGlobal {
				a.Ops[op] = &model.OpChoice{Record: n.Load(i)} // a global block load
			}
			if op := n.Value.Def; op != nil && op.ReadsShared() {
				oc := &model.OpChoice{Record: n.Load(i)}
				if p.placed(op) {
					oc.Record = p.loadRecord[op][[2]int{i, choice[p.bufNode[op.Buffer].ID]}]
					oc.Buffer = p.placement(op.Buffer, choice)
					oc.Rejected = rejectedFor(op, oc.Buffer, p.loadRecs)
				}
				a.Ops[op] = oc
			}
		case NodeBuffers:
			for k, b := range n.Buffers {
				if s := n.Placements[i][k]; s != nil {
					a.Buffers[b] = s
				}
			}
		case NodeMMA:
			ch := n.MMA[i]
			oc := ch.opChoice()
			oc.Buffer = p.descriptorPlacement(n.Op, ch, choice)
			for k, alt := range n.MMA {
				if p.PBQP.Cost[n.ID][k] < Inf && alt.Record != nil {
					oc.Considered = append(oc.Considered, alt.Arrangement())
				}
			}
			a.Ops[n.Op] = oc
		case NodeExec:
			oc := &model.OpChoice{Exec: n.Layouts[i], Record: n.Load(i)}
			if p.placed(n.Op) {
				oc.Buffer = p.placement(n.Op.Buffer, choice)
			}
			a.Ops[n.Op] = oc
		}
	}
	for _, e := range p.Edges {
		if e.Kind == EdgeConversion {
			a.Required[e.Use] = e.Required[choice[e.To]]
		}
	}
	return a
}
