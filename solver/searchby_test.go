package solver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A build stopped in its edges pass proves a bound: every decision built
// so far at its cheapest choice and every edge at its cheapest pair,
// above 0 and never above the optimum, and the message says it.
func TestStoppedBuildBound(t *testing.T) {
	checked := 0
	for _, c := range readGraphs(t, "testdata/graphs/flash_attention*.toml") {
		full, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		res := Solve(full, Options{})
		if res.Status != StatusOptimal {
			continue
		}
		w := testWatch(Options{MemoryLimit: 1}, func(w *watch) uint64 {
			if w.state.Pass == "edges" && w.state.Done >= 2 {
				return 2 // over the limit from the edges' second op on
			}
			return 0
		})
		_, err = buildWatched(c.graph, c.target, c.records, nil, w)
		var limit *LimitError
		if !errors.As(err, &limit) {
			continue // too small to reach the edges' second op
		}
		if !limit.Bounded || limit.LowerBound > res.Cost {
			t.Errorf("%s: bound %d (bounded %v), optimum %d", c.name, limit.LowerBound, limit.Bounded, res.Cost)
		}
		if limit.LowerBound > 0 {
			checked++
			if !strings.Contains(err.Error(), "no plan costs less than") {
				t.Errorf("%s: %q does not state the bound", c.name, err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no graph stopped in its edges with a bound above 0")
	}
}

// SearchBy stops the search before the context's deadline: the answer is
// the greedy plan or better, not proven, with a bound no higher than the
// optimum, and it names the limit SearchBy was given.
func TestSearchBy(t *testing.T) {
	c := testGraphs(t)[0]
	full, err := Build(c.graph, c.target, c.records)
	if err != nil {
		t.Fatal(err)
	}
	opt := Solve(full, Options{})
	ctx, cancel := WithTimeLimit(context.Background(), time.Hour)
	defer cancel()
	p, err := BuildWithin(ctx, c.graph, c.target, c.records, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.watch.every = 1 // check the clock at every step
	p.SearchBy(time.Now().Add(-time.Second), DeadlineLimit(ctx))
	res := Solve(p, Options{})
	if res.Status != StatusFeasible || res.Assignment == nil {
		t.Fatalf("status %v, plan %v; want the greedy plan or better", res.Status, res.Assignment != nil)
	}
	if gr := full.Greedy(); res.Cost > gr.Cost || res.LowerBound > opt.Cost {
		t.Errorf("cost %d, bound %d; greedy costs %d, the optimum %d", res.Cost, res.LowerBound, gr.Cost, opt.Cost)
	}
	if res.Stopped != "the time limit of 1h0m0s" {
		t.Errorf("stopped by %q", res.Stopped)
	}
}

// A search that is not to start for want of memory (SearchBy with the
// memory limit as its cause) does not start: the answer is greedy's plan,
// stopped by the memory limit, with the bound of the problem's minima.
func TestSearchByMemory(t *testing.T) {
	c := testGraphs(t)[0]
	p, err := BuildWithin(context.Background(), c.graph, c.target, c.records, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gr := p.Greedy()
	p.SearchBy(time.Now(), MemoryLimit(64<<20))
	res := Solve(p, Options{})
	if res.Status != StatusFeasible || res.Cost != gr.Cost || res.StoppedBy != "memory" || res.Stopped != "the memory limit (64 MiB)" {
		t.Errorf("status %v, cost %d (greedy %d), stopped by %q: %q", res.Status, res.Cost, gr.Cost, res.StoppedBy, res.Stopped)
	}
	if res.LowerBound != p.MinimaBound() || res.Stats.Reduced != 0 {
		t.Errorf("bound %d, want the minima's %d; %d reductions", res.LowerBound, p.MinimaBound(), res.Stats.Reduced)
	}
}

// A problem whose caller has answered without it (Abandon) makes no plan
// when its search ends: it answers unknown, with no assignment, so that
// it reads no layout beside the caller's plan.
func TestAbandonedSolveMakesNoPlan(t *testing.T) {
	c := testGraphs(t)[0]
	p, err := Build(c.graph, c.target, c.records)
	if err != nil {
		t.Fatal(err)
	}
	p.Abandon()
	if res := Solve(p, Options{}); res.Status != StatusUnknown || res.Assignment != nil {
		t.Errorf("%s abandoned: %v, assignment %v", c.name, res.Status, res.Assignment != nil)
	}
	p, _ = Build(c.graph, c.target, c.records)
	if res := Solve(p, Options{}); res.Status != StatusOptimal || res.Assignment == nil {
		t.Errorf("%s: %v", c.name, res.Status)
	}
}
