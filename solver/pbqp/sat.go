package pbqp

import (
	"slices"
	"time"

	"github.com/irifrance/gini/logic"
	"github.com/irifrance/gini/z"
)

// satCore minimises the core left by the reductions. Every remaining
// choice gets a literal, exactly one per node; a forbidden pair is a
// clause; a costly pair gets a literal forced true when both choices are
// taken. Each cost is a soft literal (the choice or pair not taken) with
// its weight, and the minimum is found core-guided (the OLL algorithm of
// Morgado et al., "Core-guided MaxSAT with soft cardinality constraints",
// CP 2014): assume every soft literal; when gini answers UNSAT, Why gives
// a set of them that cannot all hold, the lower bound rises by their
// smallest weight, and a cardinality network over the set lets later
// calls pay for one, two, … of them. The first satisfiable call meets the
// lower bound, which proves the cost minimal.
type satCore struct {
	r       *reducer
	nodes   []int
	offset  int64 // the part of every plan's cost that normalisation took out
	c       *logic.C
	g       *SAT // each call on a fresh solver (fresh.go)
	x       map[int]map[int]z.Lit
	softs   []soft
	clauses int
	mark    []int8
	solves  int
	w       Monitor // limits and progress
}

type soft struct {
	lit z.Lit // holds when nothing is paid
	w   int64
}

func newSatCore(r *reducer, nodes []int) *satCore {
	s := &satCore{r: r, nodes: nodes, c: logic.NewCCap(1 << 12), g: NewSAT(), x: map[int]map[int]z.Lit{}}
	in := map[int]bool{}
	for _, n := range nodes {
		in[n] = true
		s.x[n] = map[int]z.Lit{}
		for _, i := range r.nodes[n].alive {
			s.x[n][i] = s.c.Lit()
		}
	}
	cost, edge := s.normalized(in)
	for _, n := range nodes {
		node := r.nodes[n]
		var lits []z.Lit
		for _, i := range node.alive {
			lits = append(lits, s.x[n][i])
			if cost[n][i] > 0 {
				s.softs = append(s.softs, soft{s.x[n][i].Not(), cost[n][i]})
			}
		}
		s.exactlyOne(lits)
		for _, nb := range s.r.neighbours(n) {
			if nb < n || !in[nb] {
				continue
			}
			m := edge[[2]int{n, nb}]
			for _, i := range node.alive {
				for _, j := range r.nodes[nb].alive {
					c := m[i][j]
					switch {
					case c >= Inf:
						s.clause(s.x[n][i].Not(), s.x[nb][j].Not())
					case c > 0:
						p := s.c.Lit()
						s.clause(s.x[n][i].Not(), s.x[nb][j].Not(), p)
						s.softs = append(s.softs, soft{p.Not(), c})
					}
				}
			}
		}
	}
	s.mark, _ = s.c.CnfSince(s, nil, s.c.T)
	return s
}

// normalized returns the core's node and edge costs rearranged, as PBQP
// solvers do, without changing the cost of any plan: each edge gives the
// least entry of every row to its first node and of every column to its
// second, and each node gives its least cost to a constant (s.offset).
// Fewer entries stay positive, so fewer soft literals are needed.
func (s *satCore) normalized(in map[int]bool) (map[int][]int64, map[[2]int][][]int64) {
	r := s.r
	cost := map[int][]int64{}
	for _, n := range s.nodes {
		cost[n] = append([]int64(nil), r.nodes[n].cost...)
	}
	edge := map[[2]int][][]int64{}
	for _, n := range s.nodes {
		for _, nb := range r.neighbours(n) {
			if nb < n || !in[nb] {
				continue
			}
			e := r.nodes[n].adj.get(nb)
			m := make([][]int64, len(r.nodes[n].cost))
			for i := range m {
				m[i] = make([]int64, len(r.nodes[nb].cost))
				for j := range m[i] {
					m[i][j] = e.at(n, i, j)
				}
			}
			for _, i := range r.nodes[n].alive {
				low := Inf
				for _, j := range r.nodes[nb].alive {
					low = min(low, m[i][j])
				}
				if low > 0 && low < Inf {
					for _, j := range r.nodes[nb].alive {
						if m[i][j] < Inf {
							m[i][j] -= low
						}
					}
					cost[n][i] = AddSat(cost[n][i], low)
				}
			}
			for _, j := range r.nodes[nb].alive {
				low := Inf
				for _, i := range r.nodes[n].alive {
					low = min(low, m[i][j])
				}
				if low > 0 && low < Inf {
					for _, i := range r.nodes[n].alive {
						if m[i][j] < Inf {
							m[i][j] -= low
						}
					}
					cost[nb][j] = AddSat(cost[nb][j], low)
				}
			}
			edge[[2]int{n, nb}] = m
		}
	}
	for _, n := range s.nodes {
		low := Inf
		for _, i := range r.nodes[n].alive {
			low = min(low, cost[n][i])
		}
		if low < Inf {
			for _, i := range r.nodes[n].alive {
				if cost[n][i] < Inf {
					cost[n][i] -= low
				}
			}
			s.offset += low
		}
	}
	return cost, edge
}

func (s *satCore) clause(ms ...z.Lit) {
	for _, m := range ms {
		s.Add(m)
	}
	s.Add(0)
	s.clauses++
}

// Add adds a literal of a clause to the solver, 0 ending the clause, and
// keeps it for the fresh solver of the next call (try).
func (s *satCore) Add(m z.Lit) { s.g.Add(m) }

// exactlyOne: at least one, and at most one by pairs for few literals or a
// sequential counter (Sinz 2005) for more.
func (s *satCore) exactlyOne(lits []z.Lit) {
	s.clause(lits...)
	if len(lits) <= 6 {
		for i := range lits {
			for j := i + 1; j < len(lits); j++ {
				s.clause(lits[i].Not(), lits[j].Not())
			}
		}
		return
	}
	var prev z.Lit
	for i, x := range lits {
		if i == len(lits)-1 {
			s.clause(x.Not(), prev.Not())
			break
		}
		sv := s.c.Lit()
		s.clause(x.Not(), sv)
		if i > 0 {
			s.clause(prev.Not(), sv)
			s.clause(x.Not(), prev.Not())
		}
		prev = sv
	}
}

// choice reads the model: the choice of every core node.
func (s *satCore) choice(choice []int) {
	for _, n := range s.nodes {
		for _, i := range s.r.nodes[n].alive {
			if s.g.Value(s.x[n][i]) {
				choice[n] = i
				break
			}
		}
	}
}

// cost of the core under a choice, from the node and edge costs.
func (s *satCore) cost(choice []int) int64 {
	var c int64
	for _, n := range s.nodes {
		c = AddSat(c, s.r.nodes[n].cost[choice[n]])
		for _, nb := range s.r.neighbours(n) {
			if nb > n && slices.Contains(s.nodes, nb) {
				c = AddSat(c, s.r.nodes[n].adj.get(nb).at(n, choice[n], choice[nb]))
			}
		}
	}
	return c
}

// try runs one SAT call within the deadline: 1 sat, -1 unsat, 0 unknown.
func (s *satCore) try(deadline time.Time, assume []z.Lit) int {
	s.solves++
	s.g.Assume(assume...)
	if s.w.Watching() {
		return s.watched(deadline)
	}
	if deadline.IsZero() {
		return s.g.Solve()
	}
	left := time.Until(deadline)
	if left <= 0 {
		return 0
	}
	return s.g.Try(left)
}

// watched runs one SAT call in the background while the monitor checks the
// limits and reports progress, and stops it at a limit: 0 then. The call
// itself runs as it would alone, so that its answer does not depend on
// the clock.
func (s *satCore) watched(deadline time.Time) int {
	if s.w.Check() != nil {
		return 0
	}
	sv := s.g.GoSolve()
	wait := 50 * time.Microsecond
	for {
		if r, ok := sv.Test(); ok {
			return r
		}
		if s.w.Check() != nil || !deadline.IsZero() && !time.Now().Before(deadline) {
			return sv.Stop()
		}
		time.Sleep(wait)
		wait = min(2*wait, 5*time.Millisecond)
	}
}

// minimize finds the cheapest core choice. It returns the status, the
// best cost found (Inf if none) and the proven lower bound.
func (s *satCore) minimize(choice []int, deadline time.Time) (Status, int64, int64) {
	// Any plan first: it is the upper bound a time limit falls back on.
	switch s.try(deadline, nil) {
	case -1:
		return StatusInfeasible, Inf, Inf
	case 0:
		return StatusUnknown, Inf, 0
	}
	s.choice(choice)
	best := s.cost(choice)
	bestChoice := slices.Clone(choice)
	lb := s.offset // every plan pays at least the normalised-away constant
	for {
		s.w.Search(s.solves, AddSat(s.r.offset, best), AddSat(s.r.offset, lb))
		var assume []z.Lit
		index := map[z.Lit]int{}
		for i, sf := range s.softs {
			if sf.w > 0 {
				assume = append(assume, sf.lit)
				index[sf.lit] = i
			}
		}
		switch s.try(deadline, assume) {
		case 1:
			s.choice(choice)
			if c := s.cost(choice); c <= best {
				best = c
				bestChoice = slices.Clone(choice)
			}
			copy(choice, bestChoice)
			return StatusOptimal, best, lb
		case 0:
			copy(choice, bestChoice)
			return StatusFeasible, best, lb
		}
		core := s.g.Why(nil)
		if len(core) == 0 {
			// Unsat without assumptions cannot happen after a model; keep
			// the model found.
			copy(choice, bestChoice)
			return StatusFeasible, best, lb
		}
		wmin := Inf
		for _, m := range core {
			wmin = min(wmin, s.softs[index[m]].w)
		}
		lb += wmin
		var violated []z.Lit
		for _, m := range core {
			s.softs[index[m]].w -= wmin
			violated = append(violated, m.Not())
		}
		if len(violated) > 1 {
			cs := logic.NewCardSort(violated, s.c)
			var roots []z.Lit
			for k := 1; k < len(violated); k++ {
				lit := cs.Leq(k)
				s.softs = append(s.softs, soft{lit, wmin})
				roots = append(roots, lit)
			}
			s.mark, _ = s.c.CnfSince(s, s.mark, roots...)
		}
		if lb >= best {
			copy(choice, bestChoice)
			return StatusOptimal, best, lb
		}
	}
}
