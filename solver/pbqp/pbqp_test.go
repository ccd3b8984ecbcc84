package pbqp

import (
	"math/rand/v2"
	"testing"
)

// The solver's optimum equals brute-force enumeration, with and without
// the reductions, and its choice costs what it says.
func TestPBQPAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var optimal, infeasible, cores int
	for i := range 600 {
		p := Random(r, 2+r.IntN(6), 1+r.IntN(5), []float64{0.3, 0.6, 1}[i%3])
		want, _ := p.BruteForce()
		for _, noReduce := range []bool{false, true} {
			sol := Solve(p, Options{NoReduce: noReduce})
			if want >= Inf {
				if sol.Status != StatusInfeasible {
					t.Fatalf("problem %d: brute force finds no assignment, solver says %v cost %d", i, sol.Status, sol.Cost)
				}
				infeasible++
				continue
			}
			if sol.Status != StatusOptimal || sol.Cost != want || p.Evaluate(sol.Choice) != want {
				t.Fatalf("problem %d (noReduce %v): solver %v cost %d (evaluates to %d), brute force %d", i, noReduce, sol.Status, sol.Cost, p.Evaluate(sol.Choice), want)
			}
			if sol.Stats.CoreNodes > 0 {
				cores++
			}
			optimal++
		}
	}
	if infeasible < 20 || cores < 100 {
		t.Fatalf("weak sample: %d infeasible, %d with a SAT core", infeasible, cores)
	}
	t.Logf("%d optimal, %d infeasible, %d with a SAT core", optimal, infeasible, cores)
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
