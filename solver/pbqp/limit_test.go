package pbqp

import (
	"math/rand/v2"
	"testing"
	"time"
)

// A deadline that has passed stops the search before any plan: the answer
// is unknown, with a lower bound that holds.
func TestDeadlinePassed(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	p := Random(r, 7, 5, 1)
	want, _ := p.BruteForce()
	sol := Solve(p, Options{NoReduce: true, Deadline: time.Now().Add(-time.Second)})
	if sol.Status != StatusUnknown {
		t.Fatalf("status %v", sol.Status)
	}
	if sol.LowerBound > want {
		t.Fatalf("lower bound %d above the optimum %d", sol.LowerBound, want)
	}
}

// Under a short deadline on a larger problem, whatever comes back is
// honest. Every entry is finite, so every assignment is a plan and the
// problem is never infeasible; each problem's optimum is first found
// without a deadline, and then a plan must cost what it says and no less
// than the optimum, "optimal" only at the optimum, and the lower bound
// never above the optimum, whatever the status. (Where the reference
// search itself stops at its limit, its best cost and bound bracket the
// optimum and the checks use them.)
func TestShortDeadlineIsHonest(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	for i := range 5 {
		p := Random(r, 10, 6, 0.6)
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
		ref := Solve(p, Options{Deadline: time.Now().Add(time.Second)})
		if ref.Status != StatusOptimal && ref.Status != StatusFeasible {
			t.Fatalf("problem %d: the reference search ends %v", i, ref.Status)
		}
		lo, hi := ref.LowerBound, ref.Cost // the optimum lies between
		sol := Solve(p, Options{NoReduce: true, Deadline: time.Now().Add(5 * time.Millisecond)})
		switch sol.Status {
		case StatusOptimal, StatusFeasible:
			if c := p.Evaluate(sol.Choice); c != sol.Cost {
				t.Errorf("problem %d: plan costs %d, reported %d", i, c, sol.Cost)
			}
			if sol.Cost < lo {
				t.Errorf("problem %d: plan cost %d below the optimum's bound %d", i, sol.Cost, lo)
			}
			if sol.Status == StatusOptimal && (sol.Cost > hi || sol.LowerBound != sol.Cost) {
				t.Errorf("problem %d: optimal at cost %d with bound %d, but a plan costs %d", i, sol.Cost, sol.LowerBound, hi)
			}
		case StatusUnknown:
		default:
			t.Errorf("problem %d: status %v on a problem where every assignment is a plan", i, sol.Status)
		}
		if sol.LowerBound > hi {
			t.Errorf("problem %d: lower bound %d above a plan's cost %d", i, sol.LowerBound, hi)
		}
		t.Logf("problem %d: %v cost %d lower bound %d; reference %v, optimum in [%d, %d]", i, sol.Status, sol.Cost, sol.LowerBound, ref.Status, lo, hi)
	}
}

// stopAfter is a monitor that stops the reductions after n steps.
type stopAfter struct {
	unwatched
	n       int
	stopped error
}

func (s *stopAfter) Reduced(steps int) error {
	if steps >= s.n {
		s.stopped = errStop
	}
	return s.stopped
}
func (s *stopAfter) Err() error { return s.stopped }

var errStop = &stopError{}

type stopError struct{}

func (*stopError) Error() string { return "stopped" }

// A search stopped during the reductions still proves a bound: every
// node at its cheapest choice and every edge at its cheapest pair, on
// top of what the reductions folded in. On problems where every entry
// costs at least 1 it is at least the number of nodes, and never above
// the optimum.
func TestStoppedReductionsBound(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 66))
	for i := range 20 {
		p := Random(r, 8, 4, 0.5)
		for _, c := range p.Cost {
			for k := range c {
				c[k] = 1 + c[k]%50
			}
		}
		for _, e := range p.Edges {
			for _, row := range e.M {
				for k := range row {
					row[k] = 1 + row[k]%50
				}
			}
		}
		want, _ := p.BruteForce()
		for _, after := range []int{0, 2} {
			sol := Solve(p, Options{Monitor: &stopAfter{n: after}})
			if sol.Status != StatusUnknown && after == 0 {
				t.Fatalf("problem %d: stopped before any reduction, status %v", i, sol.Status)
			}
			if lb := sol.LowerBound; lb < int64(len(p.Cost)+len(p.Edges)) || lb > want {
				t.Errorf("problem %d, stopped after %d reductions: lower bound %d, want between %d and the optimum %d", i, after, lb, len(p.Cost)+len(p.Edges), want)
			}
		}
	}
}
