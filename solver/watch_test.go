package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"planner/solver/pbqp"
)

// testWatch is a watch that checks its limits at every step and reads
// memory from mem instead of the runtime.
func testWatch(opt Options, mem func(w *watch) uint64) *watch {
	w := newWatch(context.Background(), opt)
	w.every, w.memEvery = 1, 0
	w.memory = func() uint64 { return mem(w) }
	return w
}

// A limit reached while building is an error that names the limit and
// the phase; it comes before any plan.
func TestLimitInBuild(t *testing.T) {
	c := testGraphs(t)[0]
	cases := []struct {
		name string
		opt  Options
		mem  uint64
		want string
	}{
		{"memory", Options{MemoryLimit: 64 << 20}, 65 << 20, "stopped at the memory limit (64 MiB) while building the problem, before any plan was found"},
		{"memory in KiB", Options{MemoryLimit: 1 << 10}, 1<<10 + 1, "stopped at the memory limit (1 KiB) while building the problem, before any plan was found"},
		{"time", Options{TimeLimit: time.Nanosecond}, 0, "stopped at the time limit of 1ns while building the problem, before any plan was found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := testWatch(tc.opt, func(*watch) uint64 { return tc.mem })
			if tc.opt.TimeLimit > 0 {
				time.Sleep(time.Millisecond) // the deadline has passed
			}
			p, err := buildWatched(c.graph, c.target, c.records, nil, w)
			var limit *LimitError
			if !errors.As(err, &limit) || p != nil {
				t.Fatalf("got problem %v, error %v; want a *LimitError", p != nil, err)
			}
			if limit.Phase != "build" || err.Error() != tc.want {
				t.Errorf("phase %q, error %q; want build, %q", limit.Phase, err, tc.want)
			}
		})
	}
}

// Memory under the limit changes nothing: the same plan as without one.
// Every build and search step asks the watch, so three small graphs (a
// chain of GEMMs, a loop, a pinned operand) check it as well as the two
// flash-attention graphs, each costing more than all three, would.
func TestMemoryLimitNotReached(t *testing.T) {
	small := map[string]bool{"back_to_back_gemm": true, "loop_three_carried": true, "pinned_mma_operand": true}
	checked := 0
	for _, c := range solvedGraphs(t) {
		if !small[c.name] {
			continue
		}
		checked++
		want := c.res
		opt := Options{MemoryLimit: 1 << 40}
		w := testWatch(opt, func(*watch) uint64 { return 1 << 30 })
		q, err := buildWatched(c.graph, c.target, c.records, nil, w)
		if err != nil {
			t.Fatal(err)
		}
		got := Solve(q, opt)
		if got.Status != want.Status || got.Cost != want.Cost || got.Stopped != "" || got.Peak != 1<<30 {
			t.Errorf("%s: %v cost %d stopped %q peak %d; want %v cost %d, not stopped, peak %d", c.name,
				got.Status, got.Cost, got.Stopped, got.Peak, want.Status, want.Cost, 1<<30)
		}
	}
	if checked != len(small) {
		t.Fatalf("checked %d graphs, want the %d named", checked, len(small))
	}
}

// The memory limit reached in the search, after a first plan: that plan
// comes back as feasible, its cost what it says, with a lower bound at
// most the optimum. Reached before any plan: unknown, with such a bound.
func TestMemoryLimitInSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	stoppedWithPlan := 0
	for i := range 20 {
		p := pbqp.Random(r, 9, 5, 0.5)
		want, _ := p.BruteForce()
		if want >= Inf {
			continue // no plan: nothing to stop
		}
		for _, afterPlan := range []bool{true, false} {
			w := testWatch(Options{MemoryLimit: 1 << 20}, func(w *watch) uint64 {
				if afterPlan && (w.state.Phase != "search" || w.state.Done == 0) {
					return 0 // until the search has made a SAT call
				}
				return 2 << 20
			})
			sol := pbqp.Solve(p, pbqp.Options{NoReduce: true, Monitor: monitor{w}})
			switch {
			case sol.Status == StatusOptimal:
				// The first plan was the optimum: no call was left to stop.
				if sol.Cost != want {
					t.Fatalf("problem %d: optimal %d, brute force %d", i, sol.Cost, want)
				}
			case sol.Status == StatusFeasible:
				if !afterPlan {
					t.Fatalf("problem %d: a plan although the limit was reached before the first", i)
				}
				stoppedWithPlan++
				if c := p.Evaluate(sol.Choice); c != sol.Cost || sol.Cost < want || sol.LowerBound > want {
					t.Fatalf("problem %d: plan costs %d, reported %d, bound %d, optimum %d", i, c, sol.Cost, sol.LowerBound, want)
				}
			case sol.Status == StatusUnknown:
				if afterPlan || sol.LowerBound > want {
					t.Fatalf("problem %d: unknown (after a plan: %v) with bound %d, optimum %d", i, afterPlan, sol.LowerBound, want)
				}
			default:
				t.Fatalf("problem %d: %v", i, sol.Status)
			}
			if sol.Status != StatusOptimal && w.stopped != "memory" {
				t.Fatalf("problem %d: %v without the memory limit", i, sol.Status)
			}
		}
	}
	if stoppedWithPlan == 0 {
		t.Fatal("no search was stopped after its first plan")
	}
}

// The progress callback gets nothing before its first report is due, and
// then the phases with counts that make sense.
func TestProgress(t *testing.T) {
	c := testGraphs(t)[0]
	var got []Progress
	opt := Options{Progress: func(p Progress) { got = append(got, p) }}
	mem := func(*watch) uint64 { return 1 << 20 }
	w := testWatch(opt, mem)
	w.nextReport = time.Now().Add(time.Hour)
	p, err := buildWatched(c.graph, c.target, c.records, nil, w)
	if err != nil {
		t.Fatal(err)
	}
	Solve(p, opt)
	if len(got) != 0 {
		t.Fatalf("%d reports before the first was due", len(got))
	}
	w = testWatch(opt, mem)
	w.nextReport = time.Time{} // due at once, then every ProgressEvery
	if p, err = buildWatched(c.graph, c.target, c.records, nil, w); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Phase != "build" || got[0].Pass != "candidates, seeds" {
		t.Fatalf("want a report from the first pass of the build, got %+v", got)
	}
	w.nextReport = time.Time{}
	Solve(p, opt)
	if last := got[len(got)-1]; last.Phase != "reduce" && last.Phase != "search" {
		t.Fatalf("want a report from the solve, got %+v", last)
	}
	for _, pr := range got {
		if pr.Done < 0 || pr.Total > 0 && pr.Done > pr.Total || pr.Memory != 1<<20 || pr.Elapsed < 0 {
			t.Fatalf("bad report %+v", pr)
		}
	}
}
