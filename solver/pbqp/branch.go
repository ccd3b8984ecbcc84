package pbqp

import (
	"cmp"
	"slices"
	"time"
)

// DefaultBranchWork bounds the work of deciding a core by branching, in
// entries of cost tables visited or copied (reducer.work and the tables
// of each branch): a fraction of a second. Past it the core goes to the
// SAT search. It is counted, not timed, so that which search decides
// a core does not depend on the machine or its load. The loop of
// fa_f16acc_gfx942_nopins, whose values keep all their candidates, needs
// about 2^24.
const DefaultBranchWork = 1 << 27

// brancher decides the core the reductions leave exactly, by branch and
// bound as PBQP register allocators do (Hames and Scholz, "Nearly optimal
// register allocation with PBQP", 2006): one node of the core takes each
// of its choices in turn, which folds into its neighbours' costs and
// lowers their degrees, so that the reductions take most of what is left;
// what they leave is branched on again. A branch whose lower bound
// reaches the cheapest plan found is cut. Cores of loops are small and of
// low degree (a loop-carried value, its uses and its update, each with at
// most 48 candidate layouts), where this takes milliseconds; the
// core-guided SAT search may need thousands of cardinality constraints
// for the same core when many costs differ.
type brancher struct {
	memo        *r2Memo // R2 products, shared by every branch
	work, limit int64
	branches    int
	w           Monitor
	deadline    time.Time // zero: none
}

// stopped reports whether the work limit, the monitor or the deadline
// stops the branching.
func (b *brancher) stopped() bool {
	return b.work > b.limit || b.w.Check() != nil || !b.deadline.IsZero() && !time.Now().Before(b.deadline)
}

// decide finds the cheapest choice of the core r leaves that costs less
// than bound (Inf: any), writing it into choice (the reduced nodes are
// left for backSubstitute). It reports false when the core has no such
// plan, or when its work limit, the monitor or the deadline stopped it
// (ok false): the SAT search then decides the core, or says that the
// limit stopped the search.
func (b *brancher) decide(r *reducer, core []int, choice []int, bound int64) (found, ok bool) {
	cp, alive := r.corePBQP(core)
	c, _, ok := b.solveCore(cp, bound)
	if !ok || c == nil {
		return false, ok
	}
	for k, n := range core {
		choice[n] = alive[k][c[k]]
	}
	return true, true
}

// solve returns the cheapest choice of p that costs less than bound, and
// its cost; nil and Inf when none does. It reports false when stopped.
func (b *brancher) solve(p *Problem, bound int64) ([]int, int64, bool) {
	r := newReducer(p)
	r.w = unwatched{}
	r.memo = b.memo
	all := make([]int, len(p.Cost))
	for i := range all {
		all[i] = i
	}
	ok := r.prune(all) && r.reduceAll(1<<20)
	b.work += r.work
	if !ok {
		return nil, Inf, true
	}
	core := r.core()
	choice := make([]int, len(p.Cost))
	if len(core) > 0 {
		cp, alive := r.corePBQP(core)
		if AddSat(r.offset, lowerBoundOf(cp)) >= bound {
			return nil, Inf, true
		}
		c, _, ok := b.solveCore(cp, below(bound, r.offset))
		if !ok || c == nil {
			return nil, Inf, ok
		}
		for k, n := range core {
			choice[n] = alive[k][c[k]]
		}
	}
	r.backSubstitute(choice)
	cost := p.Evaluate(choice)
	if cost >= bound {
		return nil, Inf, true
	}
	return choice, cost, true
}

// solveCore decides a problem the reductions leave whole: each connected
// part on its own (what one part chooses costs nothing in another, so two
// loops' cores take the sum of their branches, not the product), and a
// part by branching.
func (b *brancher) solveCore(p *Problem, bound int64) ([]int, int64, bool) {
	parts := components(p)
	if len(parts) == 1 {
		return b.branch(p, bound)
	}
	subs := make([]*Problem, len(parts))
	lbs := make([]int64, len(parts))
	var rest int64
	for k, nodes := range parts {
		subs[k] = induced(p, nodes)
		lbs[k] = lowerBoundOf(subs[k])
		rest = AddSat(rest, lbs[k])
	}
	if rest >= bound {
		return nil, Inf, true
	}
	choice := make([]int, len(p.Cost))
	var spent int64
	for k, nodes := range parts {
		rest -= lbs[k] // what the later parts cost at least
		c, cost, ok := b.branch(subs[k], below(bound, spent+rest))
		if !ok || c == nil {
			return nil, Inf, ok
		}
		for j, n := range nodes {
			choice[n] = c[j]
		}
		spent += cost
	}
	return choice, spent, true
}

// branch decides a connected problem the reductions leave whole by
// branching on one of its nodes: each of its choices, cheapest first, is
// folded into its neighbours and the rest solved.
func (b *brancher) branch(p *Problem, bound int64) ([]int, int64, bool) {
	k := branchNode(p)
	order := make([]int, 0, len(p.Cost[k]))
	local := make([]int64, len(p.Cost[k]))
	for i, c := range p.Cost[k] {
		if c >= Inf {
			continue
		}
		order = append(order, i)
		local[i] = c
		for _, e := range p.Edges {
			if e.A == k || e.B == k {
				local[i] = AddSat(local[i], rowMin(e, k, i))
			}
		}
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(local[x], local[y]) })
	folded := foldBounds(p, k)
	var best []int
	for _, i := range order {
		if local[i] >= bound {
			break // sorted: no later choice can do better
		}
		b.branches++
		if b.stopped() {
			return nil, Inf, false
		}
		sub, fixed := fold(p, k, i)
		b.work += int64(tableSize(sub))
		lb := folded.at(i)
		if folded == nil {
			lb = lowerBoundOf(sub)
		}
		if AddSat(fixed, lb) >= bound {
			continue // no plan of this branch does better: skip its reductions
		}
		c, cost, ok := b.solve(sub, below(bound, fixed))
		if !ok {
			return nil, Inf, false
		}
		if c == nil {
			continue
		}
		bound = AddSat(cost, fixed)
		best = slices.Insert(c, k, i)
	}
	if best == nil {
		return nil, Inf, true
	}
	return best, bound, true
}

// components lists the connected parts of p, each as its nodes in
// ascending order, the parts in the order of their first nodes.
func components(p *Problem) [][]int {
	parent := make([]int, len(p.Cost))
	for n := range parent {
		parent[n] = n
	}
	var find func(int) int
	find = func(n int) int {
		for parent[n] != n {
			parent[n] = parent[parent[n]]
			n = parent[n]
		}
		return n
	}
	for _, e := range p.Edges {
		a, b := find(e.A), find(e.B)
		parent[max(a, b)] = min(a, b)
	}
	index := map[int]int{}
	var parts [][]int
	for n := range p.Cost {
		r := find(n)
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, nil)
		}
		parts[k] = append(parts[k], n)
	}
	return parts
}

// induced is the part of p on nodes (a connected part: every edge of a
// node joins two of them); node j of the result is nodes[j].
func induced(p *Problem, nodes []int) *Problem {
	at := map[int]int{}
	sub := &Problem{}
	for j, n := range nodes {
		at[n] = j
		sub.Cost = append(sub.Cost, p.Cost[n])
	}
	for _, e := range p.Edges {
		if a, ok := at[e.A]; ok {
			sub.Edges = append(sub.Edges, Edge{A: a, B: at[e.B], M: e.M})
		}
	}
	return sub
}

// foldBound is lowerBoundOf(fold(p, k, i)) for every choice i of node k,
// each worked out from what the choices share: the nodes that are not
// k's neighbours keep their terms, and a neighbour's term is its costs
// with its other edges at their cheapest (base) plus k's edges at i.
type foldBound struct {
	rest int64 // the terms of the nodes other than k and its neighbours
	nbs  []foldNeighbour
}

type foldNeighbour struct {
	base  []int64
	edges []Edge // joining it to k
	kIsA  []bool
}

// foldBounds is p's foldBound at node k, nil where some cost is negative
// (AddSat's sums are then not in any order the same, and lowerBoundOf
// of each fold stands).
func foldBounds(p *Problem, k int) *foldBound {
	for _, c := range p.Cost {
		for _, v := range c {
			if v < 0 {
				return nil
			}
		}
	}
	for _, e := range p.Edges {
		for _, row := range e.M {
			for _, v := range row {
				if v < 0 {
					return nil
				}
			}
		}
	}
	// Each node's costs with the edges it is the first end of at their
	// cheapest, leaving out edges to k.
	cost := make([][]int64, len(p.Cost))
	for n, c := range p.Cost {
		if n != k {
			cost[n] = slices.Clone(c)
		}
	}
	nb := map[int]int{} // neighbour of k -> its place in f.nbs
	f := &foldBound{}
	for _, e := range p.Edges {
		if e.A == k || e.B == k {
			n := e.A + e.B - k
			at, ok := nb[n]
			if !ok {
				at = len(f.nbs)
				nb[n] = at
				f.nbs = append(f.nbs, foldNeighbour{})
			}
			f.nbs[at].edges = append(f.nbs[at].edges, e)
			f.nbs[at].kIsA = append(f.nbs[at].kIsA, e.A == k)
			continue
		}
		for i := range cost[e.A] {
			cost[e.A][i] = AddSat(cost[e.A][i], rowMin(e, e.A, i))
		}
	}
	for n, c := range cost {
		if n == k {
			continue
		}
		if at, ok := nb[n]; ok {
			f.nbs[at].base = c
			continue
		}
		low := Inf
		for _, v := range c {
			low = min(low, v)
		}
		f.rest = AddSat(f.rest, low)
	}
	return f
}

// at is the lower bound of the fold at choice i.
func (f *foldBound) at(i int) int64 {
	if f == nil {
		return 0
	}
	lb := f.rest
	for _, nb := range f.nbs {
		low := Inf
		for j, c := range nb.base {
			for x, e := range nb.edges {
				if nb.kIsA[x] {
					c = AddSat(c, e.M[i][j])
				} else {
					c = AddSat(c, e.M[j][i])
				}
			}
			low = min(low, c)
		}
		lb = AddSat(lb, low)
	}
	return lb
}

// lowerBoundOf is a bound no plan of p goes below: each node's cheapest
// choice counting the edges it is the first end of at their cheapest.
func lowerBoundOf(p *Problem) int64 {
	cost := make([][]int64, len(p.Cost))
	for n, c := range p.Cost {
		cost[n] = slices.Clone(c)
	}
	for _, e := range p.Edges {
		for i := range cost[e.A] {
			cost[e.A][i] = AddSat(cost[e.A][i], rowMin(e, e.A, i))
		}
	}
	var lb int64
	for _, c := range cost {
		low := Inf
		for _, v := range c {
			low = min(low, v)
		}
		lb = AddSat(lb, low)
	}
	return lb
}

// branchNode picks the node to branch on: the one with the most edges,
// then the fewest choices, then the first.
func branchNode(p *Problem) int {
	deg := make([]int, len(p.Cost))
	for _, e := range p.Edges {
		deg[e.A]++
		deg[e.B]++
	}
	choices := func(n int) int {
		k := 0
		for _, c := range p.Cost[n] {
			if c < Inf {
				k++
			}
		}
		return k
	}
	best := 0
	for n := 1; n < len(p.Cost); n++ {
		if deg[n] > deg[best] || deg[n] == deg[best] && choices(n) < choices(best) {
			best = n
		}
	}
	return best
}

// fold fixes node k of p on choice i: the problem without k, whose
// neighbours' costs take k's edges at i, and the cost of k itself. Node n
// of p is node n of the result below k and n-1 above.
func fold(p *Problem, k, i int) (*Problem, int64) {
	at := func(n int) int {
		if n > k {
			return n - 1
		}
		return n
	}
	sub := &Problem{Cost: make([][]int64, 0, len(p.Cost)-1)}
	for n, c := range p.Cost {
		if n != k {
			sub.Cost = append(sub.Cost, slices.Clone(c))
		}
	}
	for _, e := range p.Edges {
		switch k {
		case e.A:
			row := sub.Cost[at(e.B)]
			for j := range row {
				row[j] = AddSat(row[j], e.M[i][j])
			}
		case e.B:
			row := sub.Cost[at(e.A)]
			for j := range row {
				row[j] = AddSat(row[j], e.M[j][i])
			}
		default:
			sub.Edges = append(sub.Edges, Edge{A: at(e.A), B: at(e.B), M: e.M})
		}
	}
	return sub, p.Cost[k][i]
}

// rowMin is the least cost edge e adds to choice i of its end n.
func rowMin(e Edge, n, i int) int64 {
	low := Inf
	if n == e.A {
		for _, c := range e.M[i] {
			low = min(low, c)
		}
		return low
	}
	for _, row := range e.M {
		low = min(low, row[i])
	}
	return low
}

// tableSize counts the entries of p's cost tables.
func tableSize(p *Problem) int {
	n := 0
	for _, c := range p.Cost {
		n += len(c)
	}
	for _, e := range p.Edges {
		n += len(e.M) * len(e.M[0])
	}
	return n
}

// below is what a part of a plan may cost for the whole to cost less than
// bound, when the rest costs spent.
func below(bound, spent int64) int64 {
	if bound >= Inf {
		return Inf
	}
	return bound - spent
}

// MaxBranchNodes is the largest core branching tries: each level of the
// search removes one node, so a core of hundreds of nodes (a random DAG's)
// would only spend the work bound before the SAT search takes it.
const MaxBranchNodes = 64

// branchable reports whether branching may decide the core: it is small
// enough, and its bounds hold where no cost is negative (the problems of
// package solver never have one).
func (r *reducer) branchable(core []int) bool {
	if len(core) > MaxBranchNodes {
		return false
	}
	for _, n := range core {
		node := r.nodes[n]
		for _, i := range node.alive {
			if node.cost[i] < 0 {
				return false
			}
		}
		for _, x := range node.adj {
			for _, row := range x.e.m {
				if slices.Min(row) < 0 {
					return false
				}
			}
		}
	}
	return true
}
