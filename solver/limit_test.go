package solver

import (
	"math/rand/v2"
	"testing"
	"time"
)

// A deadline that has passed stops the search before any plan: the answer
// is unknown, with a lower bound that holds.
func TestDeadlinePassed(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	p := randomPBQP(r, 7, 5, 1)
	want, _ := p.BruteForce()
	sol := SolvePBQP(p, PBQPOptions{NoReduce: true, Deadline: time.Now().Add(-time.Second)})
	if sol.Status != StatusUnknown {
		t.Fatalf("status %v", sol.Status)
	}
	if sol.LowerBound > want {
		t.Fatalf("lower bound %d above the optimum %d", sol.LowerBound, want)
	}
}

// Under a short deadline on a larger problem, whatever comes back is
// honest: a plan that costs what it says, and a lower bound at most that
// cost (equal when proven).
func TestShortDeadlineIsHonest(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	for i := range 5 {
		p := randomPBQP(r, 30, 8, 0.5)
		// No forbidden entries: every assignment is a plan.
		for _, c := range p.Cost {
			for k := range c {
				c[k] %= 1000
			}
		}
		for _, e := range p.Edges {
			for _, row := range e.M {
				for k := range row {
					row[k] %= 1000
				}
			}
		}
		sol := SolvePBQP(p, PBQPOptions{NoReduce: true, Deadline: time.Now().Add(20 * time.Millisecond)})
		switch sol.Status {
		case StatusOptimal, StatusFeasible:
			if c := p.Evaluate(sol.Choice); c != sol.Cost {
				t.Fatalf("problem %d: plan costs %d, reported %d", i, c, sol.Cost)
			}
			if sol.LowerBound > sol.Cost || (sol.Status == StatusOptimal && sol.LowerBound != sol.Cost) {
				t.Fatalf("problem %d: %v with cost %d and lower bound %d", i, sol.Status, sol.Cost, sol.LowerBound)
			}
		case StatusUnknown, StatusInfeasible:
		}
		t.Logf("problem %d: %v cost %d lower bound %d", i, sol.Status, sol.Cost, sol.LowerBound)
	}
}
