package pbqp

import (
	"math/rand/v2"
	"testing"

	"planner/internal/golden"
)

// The solver's optimum equals brute-force enumeration, with the reductions
// and branching on the core, with the reductions and the SAT search on the
// core, and with the SAT search alone, and its choice costs what it says.
// The short run draws 200 problems, PLANNER_LONG_TESTS=1 600 (the sample's
// floors scaled to the draws).
func TestPBQPAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var optimal, infeasible, cores, branched int
	modes := []Options{{}, {NoBranch: true}, {NoReduce: true}}
	draws := golden.Count(200, 600)
	for i := range draws {
		p := Random(r, 2+r.IntN(6), 1+r.IntN(5), []float64{0.3, 0.6, 1}[i%3])
		want, _ := p.BruteForce()
		for _, opt := range modes {
			sol := Solve(p, opt)
			if want >= Inf {
				if sol.Status != StatusInfeasible {
					t.Fatalf("problem %d: brute force finds no assignment, solver says %v cost %d", i, sol.Status, sol.Cost)
				}
				infeasible++
				continue
			}
			if sol.Status != StatusOptimal || sol.Cost != want || p.Evaluate(sol.Choice) != want {
				t.Fatalf("problem %d (%+v): solver %v cost %d (evaluates to %d), brute force %d", i, opt, sol.Status, sol.Cost, p.Evaluate(sol.Choice), want)
			}
			if sol.Stats.CoreNodes > 0 && opt.NoBranch {
				cores++
			}
			if sol.Stats.Branches > 0 {
				branched++
			}
			optimal++
		}
	}
	if infeasible < 20*draws/600 || cores < 50*draws/600 || branched < 50*draws/600 {
		t.Fatalf("weak sample: %d infeasible, %d cores for the SAT search, %d decided by branching", infeasible, cores, branched)
	}
	t.Logf("%d optimal, %d infeasible, %d cores for the SAT search, %d decided by branching", optimal, infeasible, cores, branched)
}

// An edge from a node to itself (a loop yielding its carried value
// unchanged) counts its diagonal: the solver agrees with brute force, with
// and without the reductions, where the self edge makes the cheaper choice
// the dearer one.
func TestPBQPSelfEdge(t *testing.T) {
	p := &Problem{
		Cost: [][]int64{{5, 1}, {0, 2}, {3, 3}},
		Edges: []Edge{
			{A: 0, B: 0, M: [][]int64{{0, Inf}, {Inf, 10}}},
			{A: 0, B: 1, M: [][]int64{{0, 4}, {4, 0}}},
			{A: 1, B: 2, M: [][]int64{{1, 0}, {0, 1}}},
			{A: 2, B: 2, M: [][]int64{{7, 0}, {0, 0}}},
		},
	}
	want, choice := p.BruteForce()
	if want != 8 || choice[0] != 0 || choice[2] != 1 {
		t.Fatalf("brute force: cost %d, choice %v; want 8 with nodes 0 and 2 on choices 0 and 1", want, choice)
	}
	for _, noReduce := range []bool{false, true} {
		sol := Solve(p, Options{NoReduce: noReduce})
		if sol.Status != StatusOptimal || sol.Cost != want || p.Evaluate(sol.Choice) != want {
			t.Errorf("noReduce %v: %v cost %d (evaluates to %d), want %d", noReduce, sol.Status, sol.Cost, p.Evaluate(sol.Choice), want)
		}
	}
}
