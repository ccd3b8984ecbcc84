package pbqp

import (
	"math"
	"slices"
)

// reducer applies the exact PBQP reductions of register allocators
// (Scholz and Eckstein; Hames and Scholz): forbidden and dominated choices
// are pruned, a node with no edges takes its cheapest choice (R0), a node
// with one edge folds its costs into its neighbour (R1), a node with two
// edges becomes an edge between its neighbours (R2). What remains has
// nodes of degree three or more: the core that SAT search decides.
type reducer struct {
	memo   *r2Memo // R2 products already computed (nil: none kept)
	nodes  []*rnode
	offset int64
	steps  []step
	pruned int
	w      Monitor // stops the reductions at a limit
	keep   []bool  // nodes never reduced nor pruned of dominated choices
	work   int64   // entries of cost tables the reductions visited
}

// kept reports whether node n must stay in the core.
func (r *reducer) kept(n int) bool { return n < len(r.keep) && r.keep[n] }

type rnode struct {
	cost  []int64
	alive []int // choices still possible, ascending
	adj   adjacency
	gone  bool
}

type redge struct {
	a, b int
	m    [][]int64 // by choice of a, choice of b (original numbering)
	// borrowed: m is the problem's own matrix, copied before any write.
	borrowed bool
}

// at is the edge's cost for choice i of node n and choice j of its other
// end.
func (e *redge) at(n, i, j int) int64 {
	if n == e.a {
		return e.m[i][j]
	}
	return e.m[j][i]
}

// A step is one reduction, to be undone by back-substitution: a large
// problem makes one per node, so it is kept small.
type step struct {
	kind     int8    // 0, 1 or 2 neighbours
	node     int32   // the node reduced
	nb, nb2  int32   // R0: nb is the choice it was fixed to
	pick     []int   // R1: best choice of node per choice of nb
	pickPair [][]int // R2: per choice of nb, nb2
}

func newReducer(p *Problem) *reducer {
	r := &reducer{nodes: make([]*rnode, 0, len(p.Cost)), steps: make([]step, 0, len(p.Cost))}
	degree := make([]int, len(p.Cost))
	for _, e := range p.Edges {
		if e.A != e.B {
			degree[e.A]++
			degree[e.B]++
		}
	}
	for k, c := range p.Cost {
		n := &rnode{cost: slices.Clone(c), alive: make([]int, len(c)), adj: make(adjacency, 0, degree[k])}
		for i := range n.alive {
			n.alive[i] = i
		}
		r.nodes = append(r.nodes, n)
	}
	for _, e := range p.Edges {
		if e.A == e.B {
			// An edge from a node to itself (a loop yielding its carried
			// value unchanged) pairs each choice with itself: its diagonal
			// is a cost of the node.
			for i := range r.nodes[e.A].cost {
				r.nodes[e.A].cost[i] = AddSat(r.nodes[e.A].cost[i], e.M[i][i])
			}
			continue
		}
		r.addEdge(e.A, e.B, e.M, false)
	}
	return r
}

// addEdge adds a matrix to the edge between a and b, creating it. An
// edge made of a matrix the reducer does not own (own false: the
// problem's) borrows it until a second matrix is added to it.
func (r *reducer) addEdge(a, b int, m [][]int64, own bool) {
	if e := r.nodes[a].adj.get(b); e != nil {
		if e.borrowed {
			cp := make([][]int64, len(e.m))
			for i := range e.m {
				cp[i] = slices.Clone(e.m[i])
			}
			e.m, e.borrowed = cp, false
		}
		for i := range m {
			for j := range m[i] {
				if e.a == a {
					e.m[i][j] = AddSat(e.m[i][j], m[i][j])
				} else {
					e.m[j][i] = AddSat(e.m[j][i], m[i][j])
				}
			}
		}
		return
	}
	e := &redge{a: a, b: b, m: m, borrowed: !own}
	r.nodes[a].adj.set(b, e)
	r.nodes[b].adj.set(a, e)
}

func (r *reducer) removeNode(n int) {
	for _, a := range r.nodes[n].adj {
		r.nodes[a.nb].adj.remove(n)
	}
	r.nodes[n].adj = nil
	r.nodes[n].gone = true
}

// prune removes choices that cost Inf or that some edge forbids against
// every remaining choice of the neighbour, until nothing changes. It
// reports false when a node has no choice left.
func (r *reducer) prune(queue []int) bool {
	work := make([]arc, len(queue))
	for k, n := range queue {
		work[k] = arc{n, allEdges}
	}
	return r.revise(work)
}

// An arc asks to check node n's choices against its costs and against its
// edge to nb (allEdges: every edge; costsOnly: none).
type arc struct{ n, nb int }

const (
	allEdges  = -1
	costsOnly = -2
)

// revise checks the arcs given, and, each time a node loses a choice, its
// neighbours' arcs towards it, until nothing changes (arc consistency: the
// choices left do not depend on the order of the checks). A reduction
// names only the arcs it changed, so that a node with many neighbours is
// not checked in full after each of them. It reports false when a node
// has no choice left.
func (r *reducer) revise(work []arc) bool {
	for len(work) > 0 {
		a := work[0]
		work = work[1:]
		node := r.nodes[a.n]
		if node.gone {
			continue
		}
		keep := node.alive[:0]
		changed := false
		for _, i := range node.alive {
			ok := node.cost[i] < Inf
			switch {
			case !ok || a.nb == costsOnly:
			case a.nb == allEdges:
				for _, x := range node.adj {
					if ok = r.supported(x.e, a.n, i, x.nb); !ok {
						break
					}
				}
			default:
				if e := node.adj.get(a.nb); e != nil {
					ok = r.supported(e, a.n, i, a.nb)
				}
			}
			if ok {
				keep = append(keep, i)
			} else {
				changed = true
				r.pruned++
			}
		}
		node.alive = keep
		if len(keep) == 0 {
			return false
		}
		if changed {
			for _, x := range node.adj {
				work = append(work, arc{x.nb, a.n})
			}
		}
	}
	return true
}

// supported reports whether choice i of node n has some remaining choice
// of its neighbour nb that edge e allows.
func (r *reducer) supported(e *redge, n, i, nb int) bool {
	for _, j := range r.nodes[nb].alive {
		if e.at(n, i, j) < Inf {
			return true
		}
	}
	return false
}

func (r *reducer) neighbours(n int) []int {
	nbs := make([]int, len(r.nodes[n].adj))
	for k, x := range r.nodes[n].adj {
		nbs[k] = x.nb
	}
	return nbs
}

// reduce applies R0, R1 and R2 until only nodes of degree three or more
// remain. maxR2 bounds the work of one R2 (choices of the three nodes
// multiplied); larger ones are left to the core.
func (r *reducer) reduce(maxR2 int) bool {
	for changed := true; changed; {
		changed = false
		for n, node := range r.nodes {
			if node.gone || r.kept(n) {
				continue
			}
			if r.w.Reduced(len(r.steps)) != nil {
				return true // the caller reads the limit from the monitor
			}
			nbs := node.adj // sorted by neighbour
			switch len(nbs) {
			case 0:
				best, bi := Inf, -1
				for _, i := range node.alive {
					if node.cost[i] < best {
						best, bi = node.cost[i], i
					}
				}
				if bi < 0 {
					return false
				}
				r.offset = AddSat(r.offset, best)
				r.steps = append(r.steps, step{kind: 0, node: int32(n), nb: int32(bi)})
				r.removeNode(n)
				changed = true
			case 1:
				m, e := nbs[0].nb, nbs[0].e
				pick := make([]int, len(r.nodes[m].cost))
				r.work += int64(len(node.alive) * len(r.nodes[m].alive))
				for _, j := range r.nodes[m].alive {
					best, bi := Inf, -1
					for _, i := range node.alive {
						if c := AddSat(node.cost[i], e.at(n, i, j)); c < best {
							best, bi = c, i
						}
					}
					pick[j] = bi
					r.nodes[m].cost[j] = AddSat(r.nodes[m].cost[j], best)
				}
				r.steps = append(r.steps, step{kind: 1, node: int32(n), nb: int32(m), pick: pick})
				r.removeNode(n)
				if !r.revise([]arc{{m, costsOnly}}) { // only m's costs changed
					return false
				}
				changed = true
			case 2:
				m1, m2 := nbs[0].nb, nbs[1].nb
				if len(node.alive)*len(r.nodes[m1].alive)*len(r.nodes[m2].alive) > maxR2 {
					continue
				}
				e1, e2 := nbs[0].e, nbs[1].e
				k1, k2 := len(r.nodes[m1].cost), len(r.nodes[m2].cost)
				r.work += int64(len(node.alive)*len(r.nodes[m1].alive)*len(r.nodes[m2].alive) + k1*k2)
				mat, pick, fresh := r.r2Product(n, e1, e2, r.nodes[m1].alive, r.nodes[m2].alive, k1, k2)
				r.steps = append(r.steps, step{kind: 2, node: int32(n), nb: int32(m1), nb2: int32(m2), pickPair: pick})
				r.removeNode(n)
				r.addEdge(m1, m2, mat, fresh)
				if !r.revise([]arc{{m1, m2}, {m2, m1}}) { // only their edge changed
					return false
				}
				changed = true
			}
		}
	}
	return true
}

// pruneDominated removes choices no better than another choice of the same
// node on every cost: keeping the other loses no optimum.
func (r *reducer) pruneDominated(maxChoices int) {
	for n, node := range r.nodes {
		if node.gone || len(node.alive) > maxChoices || r.kept(n) {
			continue
		}
		nbs := node.adj
		for _, x := range nbs {
			r.work += int64(len(node.alive) * len(node.alive) * len(r.nodes[x.nb].alive))
		}
		dominated := func(i, k int) bool { // k at least as good as i everywhere
			if node.cost[k] > node.cost[i] {
				return false
			}
			for _, x := range nbs {
				m := x.e.m
				if n == x.e.a { // rows i and k
					mi, mk := m[i], m[k]
					for _, j := range r.nodes[x.nb].alive {
						if mk[j] > mi[j] {
							return false
						}
					}
					continue
				}
				for _, j := range r.nodes[x.nb].alive { // columns i and k
					if mj := m[j]; mj[k] > mj[i] {
						return false
					}
				}
			}
			return true
		}
		var keep []int
		for x, i := range node.alive {
			drop := false
			for y, k := range node.alive {
				if x == y {
					continue
				}
				// Among equal choices keep the first.
				if dominated(i, k) && (!dominated(k, i) || y < x) {
					drop = true
					break
				}
			}
			if drop {
				r.pruned++
			} else {
				keep = append(keep, i)
			}
		}
		node.alive = keep
	}
}

// core lists the nodes left.
func (r *reducer) core() []int {
	var out []int
	for n, node := range r.nodes {
		if !node.gone {
			out = append(out, n)
		}
	}
	return out
}

// backSubstitute fills in the choices of the reduced nodes, given the core's.
func (r *reducer) backSubstitute(choice []int) {
	for k := len(r.steps) - 1; k >= 0; k-- {
		s := r.steps[k]
		switch s.kind {
		case 0:
			choice[s.node] = int(s.nb)
		case 1:
			choice[s.node] = s.pick[choice[s.nb]]
		case 2:
			choice[s.node] = s.pickPair[choice[s.nb]][choice[s.nb2]]
		}
	}
}

// corePBQP returns the core as a problem of its own, for a backend other
// than the SAT search: node k is core[k], its choice c is alive[k][c].
func (r *reducer) corePBQP(core []int) (*Problem, [][]int) {
	p := &Problem{}
	alive := make([][]int, len(core))
	index := map[int]int{}
	for k, n := range core {
		index[n] = k
		node := r.nodes[n]
		alive[k] = slices.Clone(node.alive)
		cost := make([]int64, len(node.alive))
		for c, i := range node.alive {
			cost[c] = node.cost[i]
		}
		p.Cost = append(p.Cost, cost)
	}
	for k, n := range core {
		for _, nb := range r.neighbours(n) {
			kb, ok := index[nb]
			if !ok || nb < n {
				continue
			}
			e := r.nodes[n].adj.get(nb)
			m := make([][]int64, len(alive[k]))
			for c, i := range alive[k] {
				m[c] = make([]int64, len(alive[kb]))
				for d, j := range alive[kb] {
					m[c][d] = e.at(n, i, j)
				}
			}
			p.Edges = append(p.Edges, Edge{A: k, B: kb, M: m})
		}
	}
	return p, alive
}

// bound is a lower bound on every plan's cost: what the reductions
// folded in so far, plus each node left at its cheapest live choice and
// each edge left at its cheapest pair of live choices. The reductions
// are exact (the problem left has the same optimum), and the minimum of
// a sum is at least the sum of its terms' minima.
func (r *reducer) bound() int64 {
	lb := r.offset
	for n, node := range r.nodes {
		if node.gone {
			continue
		}
		lb = AddSat(lb, cheapest(node.cost, node.alive))
		for _, x := range node.adj {
			m, e := x.nb, x.e
			if m < n || e.a != n {
				continue // each edge once, from its first end
			}
			best := Inf
			for _, i := range node.alive {
				best = min(best, cheapest(e.m[i], r.nodes[m].alive))
			}
			lb = AddSat(lb, best)
		}
	}
	return lb
}

// cheapest is the least of costs over the choices alive.
func cheapest(costs []int64, alive []int) int64 {
	best := Inf
	for _, i := range alive {
		best = min(best, costs[i])
	}
	return best
}

// WithoutDominated is p with every choice forbidden (its cost Inf) that
// no plan can take (arc consistency: prune) or that another choice of its
// node dominates (pruneDominated, here with no bound on a node's
// choices): the optimum is p's. The reductions bound dominance to nodes
// of up to 64 choices for speed; a search that decides a core on its
// own (Z3's) pays more for a node of hundreds than this pass costs.
func WithoutDominated(p *Problem) *Problem {
	r := newReducer(p)
	r.w = unwatched{}
	all := make([]int, len(p.Cost))
	for i := range all {
		all[i] = i
	}
	if !r.prune(all) {
		return p // no plan: the search says so
	}
	r.pruneDominated(math.MaxInt)
	q := &Problem{Cost: make([][]int64, len(p.Cost)), Edges: p.Edges}
	for n, node := range r.nodes {
		q.Cost[n] = make([]int64, len(p.Cost[n]))
		for i := range q.Cost[n] {
			q.Cost[n][i] = Inf
		}
		for _, i := range node.alive {
			q.Cost[n][i] = p.Cost[n][i]
		}
	}
	return q
}
