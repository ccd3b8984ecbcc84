package pbqp

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// loopEdges are the edges of the core a flash-attention loop leaves after
// the reductions: eight nodes of three edges each (the carried row sums
// and accumulator, the probabilities, the correction factor, the rescaled
// sum and accumulator, the new sum and the second mma), which no
// reduction of degree two or less touches.
var loopEdges = [][2]int{{0, 1}, {0, 4}, {0, 5}, {1, 6}, {1, 7}, {2, 3}, {2, 5}, {2, 7}, {3, 4}, {3, 6}, {4, 5}, {6, 7}}

// loopCore draws a problem on loopEdges with k choices per node, costs
// spread over many values and some pairs forbidden.
func loopCore(r *rand.Rand, k int) *Problem {
	p := &Problem{}
	for range 8 {
		c := make([]int64, k)
		for i := range c {
			c[i] = int64(r.IntN(5000))
		}
		p.Cost = append(p.Cost, c)
	}
	for _, e := range loopEdges {
		m := make([][]int64, k)
		for i := range m {
			m[i] = make([]int64, k)
			for j := range m[i] {
				m[i][j] = int64(r.IntN(3000))
				if r.IntN(8) == 0 {
					m[i][j] = Inf
				}
			}
		}
		p.Edges = append(p.Edges, Edge{A: e[0], B: e[1], M: m})
	}
	return p
}

// loopOptimum is the minimum of a problem on loopEdges, by enumeration
// of nodes 0 to 3: what is left, nodes 4 and 5 and nodes 6 and 7, are
// two pairs with no edge between them, each minimised on its own.
func loopOptimum(p *Problem) int64 {
	k := len(p.Cost[0])
	edge := map[[2]int][][]int64{}
	for _, e := range p.Edges {
		edge[[2]int{e.A, e.B}] = e.M
	}
	m := func(a, b, i, j int) int64 { return edge[[2]int{a, b}][i][j] }
	// own is what node x costs at each choice given the first four's.
	own := func(x int, c []int) []int64 {
		v := slices.Clone(p.Cost[x])
		for _, e := range loopEdges {
			if e[1] == x && e[0] < 4 {
				row := edge[e][c[e[0]]]
				for i := range v {
					v[i] = AddSat(v[i], row[i])
				}
			}
		}
		return v
	}
	pair := func(x, y int, c []int) int64 { // nodes x < y, the first four fixed at c
		vx, vy, mxy := own(x, c), own(y, c), edge[[2]int{x, y}]
		best := Inf
		for i := range k {
			for j := range k {
				best = min(best, AddSat(AddSat(vx[i], vy[j]), mxy[i][j]))
			}
		}
		return best
	}
	best := Inf
	c := make([]int, 4)
	for code := range k * k * k * k {
		for n, rest := 0, code; n < 4; n, rest = n+1, rest/k {
			c[n] = rest % k
		}
		s := int64(0)
		for n := range 4 {
			s = AddSat(s, p.Cost[n][c[n]])
		}
		for _, e := range loopEdges {
			if e[1] < 4 {
				s = AddSat(s, m(e[0], e[1], c[e[0]], c[e[1]]))
			}
		}
		best = min(best, AddSat(AddSat(s, pair(4, 5, c)), pair(6, 7, c)))
	}
	return best
}

// Branching decides a loop's core without the SAT search, at the optimum,
// with as many choices per node as a real loop's values have (the SAT
// search alone takes minutes on these cores).
func TestBranchingDecidesLoopCore(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for i, k := range []int{3, 8, 16, 16} {
		p := loopCore(r, k)
		if k == 3 {
			if bf, _ := p.BruteForce(); bf != loopOptimum(p) {
				t.Fatalf("problem %d: loopOptimum %d, brute force %d", i, loopOptimum(p), bf)
			}
		}
		want := loopOptimum(p)
		sol := Solve(p, Options{})
		if sol.Stats.CoreNodes != 8 || sol.Stats.Branches == 0 || sol.Stats.Solves != 0 {
			t.Fatalf("problem %d: core of %d nodes, %d branches, %d SAT calls; want the 8 nodes decided by branching alone", i, sol.Stats.CoreNodes, sol.Stats.Branches, sol.Stats.Solves)
		}
		if sol.Status != StatusOptimal || sol.Cost != want || p.Evaluate(sol.Choice) != want {
			t.Errorf("problem %d: %v cost %d (evaluates to %d), want optimal %d", i, sol.Status, sol.Cost, p.Evaluate(sol.Choice), want)
		}
		t.Logf("problem %d: %d choices per node, optimum %d, %d branches", i, k, want, sol.Stats.Branches)
	}
}

// Past its work limit, branching gives the core to the SAT search, which
// proves the same optimum.
func TestBranchingLimitFallsBackToSAT(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	p := loopCore(r, 3)
	want, _ := p.BruteForce()
	sol := Solve(p, Options{BranchWork: 1})
	if sol.Stats.Branches == 0 || sol.Stats.Solves == 0 {
		t.Fatalf("%d branches, %d SAT calls; want branching to start and stop at its limit", sol.Stats.Branches, sol.Stats.Solves)
	}
	if sol.Status != StatusOptimal || sol.Cost != want || p.Evaluate(sol.Choice) != want {
		t.Fatalf("%v cost %d (evaluates to %d), want optimal %d", sol.Status, sol.Cost, p.Evaluate(sol.Choice), want)
	}
}

// Two loops' cores in one problem, with no edge between them, are decided
// one after the other: their branches add up rather than multiply, and
// the optimum is the sum of theirs.
func TestBranchingSplitsIndependentCores(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	a, b := loopCore(r, 16), loopCore(r, 16)
	one := Solve(a, Options{})
	two := Solve(b, Options{})
	both := &Problem{Cost: append(slices.Clone(a.Cost), b.Cost...), Edges: slices.Clone(a.Edges)}
	for _, e := range b.Edges {
		both.Edges = append(both.Edges, Edge{A: e.A + 8, B: e.B + 8, M: e.M})
	}
	want := loopOptimum(a) + loopOptimum(b)
	sol := Solve(both, Options{})
	if sol.Status != StatusOptimal || sol.Cost != want || both.Evaluate(sol.Choice) != want || sol.Stats.Solves != 0 {
		t.Fatalf("%v cost %d (evaluates to %d) with %d SAT calls, want optimal %d by branching alone", sol.Status, sol.Cost, both.Evaluate(sol.Choice), sol.Stats.Solves, want)
	}
	if sum := one.Stats.Branches + two.Stats.Branches; sol.Stats.Branches > sum {
		t.Fatalf("%d branches for both cores, %d and %d for each alone", sol.Stats.Branches, one.Stats.Branches, two.Stats.Branches)
	}
}

// WithoutDominated keeps the optimum: on random problems, with costs
// drawn from a small range so that ties and dominance are common, the
// cheapest assignment it allows costs what the cheapest of all does, and
// it forbids a good share of the choices.
func TestWithoutDominatedKeepsTheOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	pruned := 0
	for range 300 {
		p := Random(r, 2+r.IntN(4), 5, 0.6)
		for _, c := range p.Cost {
			for i := range c {
				if c[i] < Inf {
					c[i] %= 4
				}
			}
		}
		for _, e := range p.Edges {
			for _, row := range e.M {
				for j := range row {
					if row[j] < Inf {
						row[j] %= 3
					}
				}
			}
		}
		dom := WithoutDominated(p)
		best, bestDom := Inf, Inf
		choice := make([]int, len(p.Cost))
		var walk func(n int)
		walk = func(n int) {
			if n == len(p.Cost) {
				c := p.Evaluate(choice)
				best = min(best, c)
				if dom.Evaluate(choice) < Inf {
					bestDom = min(bestDom, c)
				}
				return
			}
			for i := range p.Cost[n] {
				choice[n] = i
				walk(n + 1)
			}
		}
		walk(0)
		if best != bestDom {
			t.Fatalf("the optimum is %d, %d without dominated choices", best, bestDom)
		}
		for n := range p.Cost {
			for i := range p.Cost[n] {
				if p.Cost[n][i] < Inf && dom.Cost[n][i] >= Inf {
					pruned++
				}
			}
		}
	}
	if pruned < 50 {
		t.Errorf("only %d choices forbidden: the test shows little", pruned)
	}
	t.Logf("%d choices forbidden", pruned)
}

// Asked only for a plan below a cost, branching finds the optimum when it
// is below, and otherwise answers that none is, bounded by that cost,
// with no more branches than finding the optimum takes.
func TestBranchingBelowACost(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 78))
	for i, k := range []int{3, 8, 16} {
		p := loopCore(r, k)
		want := loopOptimum(p)
		full := Solve(p, Options{})
		above := Solve(p, Options{Below: want + 1})
		if above.Status != StatusOptimal || above.Cost != want {
			t.Errorf("problem %d below %d: %v cost %d, want optimal %d", i, want+1, above.Status, above.Cost, want)
		}
		at := Solve(p, Options{Below: want})
		if at.Status != StatusInfeasible || at.LowerBound != want || at.Cost != Inf {
			t.Errorf("problem %d below its optimum %d: %v cost %d bound %d, want none, bounded by %d", i, want, at.Status, at.Cost, at.LowerBound, want)
		}
		if at.Stats.Branches > full.Stats.Branches {
			t.Errorf("problem %d: %d branches below the optimum, %d to find it", i, at.Stats.Branches, full.Stats.Branches)
		}
	}
}

// The bound of each fold that foldBounds works out from what the choices
// share equals lowerBoundOf the fold itself, on random problems with
// forbidden pairs and parallel edges; with a negative cost it declines.
func TestFoldBoundsAreLowerBoundOf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	compared := 0
	for round := range 200 {
		p := Random(r, 2+r.IntN(7), 1+r.IntN(6), 0.6)
		if round%5 == 0 && len(p.Edges) > 0 { // a parallel edge
			e := p.Edges[0]
			m := make([][]int64, len(e.M))
			for i := range m {
				m[i] = make([]int64, len(e.M[i]))
				for j := range m[i] {
					m[i][j] = int64(r.IntN(50))
				}
			}
			p.Edges = append(p.Edges, Edge{A: e.A, B: e.B, M: m})
		}
		for k := range p.Cost {
			f := foldBounds(p, k)
			if f == nil {
				t.Fatalf("round %d: no fold bounds for a problem without negative costs", round)
			}
			for i := range p.Cost[k] {
				sub, _ := fold(p, k, i)
				if got, want := f.at(i), lowerBoundOf(sub); got != want {
					t.Fatalf("round %d, node %d, choice %d: fold bound %d, lowerBoundOf %d", round, k, i, got, want)
				}
				compared++
			}
		}
	}
	p := Random(r, 3, 3, 1)
	p.Cost[1][0] = -1
	if foldBounds(p, 0) != nil {
		t.Errorf("fold bounds of a problem with a negative cost")
	}
	t.Logf("%d folds compared", compared)
}
