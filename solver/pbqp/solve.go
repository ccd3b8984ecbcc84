package pbqp

import (
	"cmp"
	"time"
)

// Options bound the search.
type Options struct {
	Deadline time.Time // zero: no limit
	MaxR2    int       // largest R2 (product of the three domains); 0: 1<<20
	NoReduce bool      // skip the reductions and branching (for tests of the SAT search)
	NoBranch bool      // leave the core to the SAT search (for its tests)
	// BranchWork bounds the work of branching on the core before the SAT
	// search takes it over; 0: DefaultBranchWork.
	BranchWork int64
	Core       CoreSolver // decides the core; nil: the gini MaxSAT search
	Monitor    Monitor    // limits and progress; nil: the deadline alone
	// Keep marks nodes the reductions must leave in the core with all
	// their choices (no dominance pruning): nodes whose choices cost more
	// than the problem says, in terms a CoreFor solver adds.
	Keep []bool
	// Below, when above 0, asks only for a plan costing less than it (a
	// caller that has one of cost Below already): where none does, Solve
	// answers StatusInfeasible with lower bound Below, which branching
	// finds as soon as every branch's bound reaches it. Plans the
	// reductions or the SAT search find are answered whatever they cost.
	Below int64
	// CoreFor, when set, gives the core solver for the core the
	// reductions leave (node k of it is core[k], its choice c is
	// alive[k][c]; the reduced nodes cost offset); it takes the place of
	// Core.
	CoreFor func(core []int, alive [][]int, offset int64) CoreSolver
}

// CoreSolver minimises the problem the reductions leave. It returns the
// status, a choice per node when it found one, and a lower bound on the
// cost that holds when the status is not optimal.
type CoreSolver func(core *Problem, deadline time.Time) (Status, []int, int64)

// Solve finds a minimum-cost assignment: reductions, then SAT on the
// core, then the reduced nodes' choices by back-substitution.
func Solve(p *Problem, opt Options) Solution {
	start := time.Now()
	sol := Solution{Choice: make([]int, len(p.Cost))}
	sol.Stats.Nodes, sol.Stats.Edges = len(p.Cost), len(p.Edges)
	for _, c := range p.Cost {
		sol.Stats.Choices += len(c)
	}
	defer func() { sol.Stats.Duration = time.Since(start) }()
	if opt.Monitor == nil {
		opt.Monitor = unwatched{}
	}
	r := newReducer(p)
	r.w = opt.Monitor
	r.memo = newR2Memo()
	opt.Monitor.Phase("reduce", "", len(p.Cost))
	r.keep = opt.Keep
	all := make([]int, len(p.Cost))
	for i := range all {
		all[i] = i
	}
	infeasible := func() Solution {
		sol.Status, sol.Cost, sol.LowerBound = StatusInfeasible, Inf, Inf
		sol.Stats.Duration = time.Since(start)
		return sol
	}
	if !r.prune(all) {
		return infeasible()
	}
	maxR2 := opt.MaxR2
	if maxR2 == 0 {
		maxR2 = 1 << 20
	}
	if !opt.NoReduce && !r.reduceAll(maxR2) {
		return infeasible()
	}
	if opt.Monitor.Err() != nil {
		// Stopped at a limit before any plan: every plan pays at least
		// what the reductions folded in so far and the cheapest choices of
		// what they left.
		sol.Status, sol.Cost, sol.LowerBound = StatusUnknown, Inf, r.bound()
		return sol
	}
	noneBelow := func() Solution {
		sol.Status, sol.Cost, sol.LowerBound = StatusInfeasible, Inf, opt.Below
		return sol
	}
	if opt.Below > 0 && r.bound() >= opt.Below {
		return noneBelow()
	}
	core := r.core()
	sol.Stats.Reduced = len(r.steps)
	sol.Stats.Pruned = r.pruned
	sol.Stats.CoreNodes = len(core)
	var coreLB int64
	status := StatusOptimal
	switch {
	case len(core) > 0 && (opt.Core != nil || opt.CoreFor != nil):
		cp, alive := r.corePBQP(core)
		solve := opt.Core
		if opt.CoreFor != nil {
			solve = opt.CoreFor(core, alive, r.offset)
		}
		var choice []int
		status, choice, coreLB = solve(cp, opt.Deadline)
		if status == StatusOptimal || status == StatusFeasible {
			for k, n := range core {
				sol.Choice[n] = alive[k][choice[k]]
			}
		}
	case len(core) > 0 && !opt.NoReduce && !opt.NoBranch && r.branchable(core):
		opt.Monitor.Phase("search", "branching on the core", 0)
		b := &brancher{memo: r.memo, limit: cmp.Or(opt.BranchWork, DefaultBranchWork), w: opt.Monitor, deadline: opt.Deadline}
		bound := int64(Inf)
		if opt.Below > 0 {
			bound = opt.Below - r.offset
		}
		found, ok := b.decide(r, core, sol.Choice, bound)
		sol.Stats.Branches = b.branches
		switch {
		case !ok:
			status, coreLB = r.searchCore(core, opt, &sol)
		case !found && opt.Below > 0:
			return noneBelow()
		case !found:
			status = StatusInfeasible
		}
	case len(core) > 0:
		status, coreLB = r.searchCore(core, opt, &sol)
	}
	switch status {
	case StatusInfeasible:
		return infeasible()
	case StatusUnknown:
		sol.Status, sol.Cost, sol.LowerBound = StatusUnknown, Inf, max(AddSat(r.offset, coreLB), r.bound())
		return sol
	}
	r.backSubstitute(sol.Choice)
	sol.Status = status
	if status == StatusFeasible && opt.Keep == nil {
		improve(p, sol.Choice)
	}
	sol.Cost = p.Evaluate(sol.Choice)
	sol.LowerBound = max(AddSat(r.offset, coreLB), r.bound())
	if status == StatusOptimal {
		sol.LowerBound = sol.Cost
	}
	return sol
}

// searchCore decides the core by the core-guided SAT search, writing its
// choices into sol and its counts into sol's statistics.
func (r *reducer) searchCore(core []int, opt Options, sol *Solution) (Status, int64) {
	opt.Monitor.Phase("search", "encoding the core", 0)
	s := newSatCore(r, core)
	s.w = opt.Monitor
	sol.Stats.Variables = s.c.Len()
	status, _, lb := s.minimize(sol.Choice, opt.Deadline)
	sol.Stats.Clauses = s.clauses
	sol.Stats.Solves = s.solves
	return status, lb
}

// reduceAll applies the reductions and prunes dominated choices until
// neither changes anything, or the monitor stops them. It reports false
// when a node has no choice left.
func (r *reducer) reduceAll(maxR2 int) bool {
	for {
		before := r.pruned + len(r.steps)
		if !r.reduce(maxR2) {
			return false
		}
		if r.w.Err() != nil {
			return true
		}
		r.pruneDominated(64)
		if !r.prune(r.core()) {
			return false
		}
		if r.pruned+len(r.steps) == before {
			return true
		}
	}
}

// improve lowers the cost of a plan the time limit cut short by moving one
// node at a time to its cheapest choice given its neighbours' (iterated
// conditional modes) until no move helps. It never raises the cost.
func improve(p *Problem, choice []int) {
	incident := make([][]int, len(p.Cost))
	for k, e := range p.Edges {
		incident[e.A] = append(incident[e.A], k)
		incident[e.B] = append(incident[e.B], k)
	}
	local := func(n int) int64 {
		c := p.Cost[n][choice[n]]
		for _, k := range incident[n] {
			e := p.Edges[k]
			c = AddSat(c, e.M[choice[e.A]][choice[e.B]])
		}
		return c
	}
	for pass := 0; pass < 16; pass++ {
		changed := false
		for n := range p.Cost {
			orig := choice[n]
			best, bestCost := orig, local(n)
			for i := range p.Cost[n] {
				choice[n] = i
				if c := local(n); c < bestCost {
					best, bestCost = i, c
				}
			}
			choice[n] = best
			changed = changed || best != orig
		}
		if !changed {
			return
		}
	}
}
