package planner // internal: it tests the limits' own machinery (during, within, progressAfter and solveProblem as seams, the big-graph pacing)

import (
	"bytes"
	"context"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"planner/model"
	"planner/solver"
)

// The progress line goes on through the plan's writing and checking, once
// the solve has run for a second, and stops when told.
func TestProgressDuring(t *testing.T) {
	during(nil, time.Now(), solver.Progress{Phase: "plan"})() // no progress asked for: nothing to do
	got := make(chan solver.Progress, 100)
	stop := during(func(p solver.Progress) { got <- p }, time.Now().Add(-time.Hour), solver.Progress{Phase: "plan"})
	p := <-got
	stop()
	if p.Phase != "plan" || p.Elapsed < time.Hour {
		t.Errorf("got %+v", p)
	}
	n := len(got)
	time.Sleep(2 * solver.ProgressEvery)
	if len(got) != n {
		t.Errorf("reports after stop")
	}
}

// within waits for its work until the context is done or the time given
// comes, and runs nothing once the context is done.
func TestWithin(t *testing.T) {
	if !within(context.Background(), time.Time{}, func() {}) {
		t.Error("work with no limit did not finish")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if !within(ctx, time.Now().Add(time.Hour), func() {}) {
		t.Error("quick work under an hour's limit did not finish")
	}
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	if within(ctx, time.Now().Add(20*time.Millisecond), func() { <-release }) {
		t.Error("blocked work finished")
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("waited %v past a 20ms limit", waited)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	ran := false
	if within(done, time.Time{}, func() { ran = true }) || ran {
		t.Errorf("a cancelled context ran the work (%v)", ran)
	}
}

// Under a deadline that leaves the search no time once the problem is
// built (the search gets the deadline less as long as the build took),
// the answer is the greedy baseline's plan or better, feasible and not
// proven, verified or saying why not.
func TestDeadlineLeavesTheGreedyPlan(t *testing.T) {
	pl := testPlanner(t)
	g, full := solvedWithGreedy(t, pl, "testdata/graphs/flash_attention_4warps.toml")
	greedy := full.Plan.Compare
	// Time the build (and greedy) alone, then give the solve 1.8 times that: the search
	// must stop at once, which leaves the build's time for the rest.
	start := time.Now()
	if _, err := pl.Search(context.Background(), g, Options{Backend: solver.BackendGreedy}); err != nil {
		t.Fatal(err)
	}
	build := time.Since(start)
	for range 3 {
		ctx, cancel := solver.WithTimeLimit(context.Background(), build*9/5)
		res, err := pl.Solve(ctx, g, Options{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Plan == nil {
			t.Logf("no plan in %v: %s", build*9/5, res.Why) // a slow build this time
			continue
		}
		if res.Plan.Status == "optimal" {
			t.Logf("the search finished in time")
			continue
		}
		if res.Plan.Cost > greedy.BaselineCost || res.Plan.Status != "feasible" {
			t.Errorf("status %s, cost %d; greedy costs %d", res.Plan.Status, res.Plan.Cost, greedy.BaselineCost)
		}
		if res.Plan.LowerBound <= 0 || res.Plan.LowerBound > full.Plan.Cost {
			t.Errorf("lower bound %d, optimum %d", res.Plan.LowerBound, full.Plan.Cost)
		}
		return
	}
	t.Skip("no run stopped the search with the build done (a loaded machine)")
}

// A search still running half the build's time before the
// deadline is abandoned for the greedy plan, computed before the search
// began: the answer is greedy's plan, feasible, not proven, bounded by
// the problem's minima and saying that the time limit stopped it. (The
// search here never answers on its own.)
func TestAbandonedSearchAnswersWithGreedy(t *testing.T) {
	pl := testPlanner(t)
	g, full := solvedWithGreedy(t, pl, "testdata/graphs/flash_attention_4warps.toml")
	release := make(chan struct{})
	defer close(release)
	defer func(f func(*solver.Problem, solver.Options) *solver.Result) { solveProblem = f }(solveProblem)
	solveProblem = func(p *solver.Problem, opt solver.Options) *solver.Result {
		<-release
		return &solver.Result{Problem: p, Status: solver.StatusUnknown}
	}
	// The build, greedy and the plan take under a second, loaded. Where
	// a machine loaded more leaves no plan by the limit (the internal
	// root tests run first, beside every package's tests), the solve is
	// asked again with twice the time, up to 24 s.
	var res *Result
	for limit := 6 * time.Second; ; limit *= 2 {
		ctx, cancel := solver.WithTimeLimit(context.Background(), limit)
		var err error
		res, err = pl.Solve(ctx, g, Options{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Plan != nil || limit >= 24*time.Second {
			break
		}
		t.Logf("no plan within %v: %s; again with twice the time", limit, res.Why)
	}
	if res.Plan == nil {
		t.Fatalf("no plan: %s", res.Why)
	}
	p := res.Plan
	if p.Status != "feasible" || p.Cost != full.Plan.Compare.BaselineCost || p.LowerBound <= 0 || p.LowerBound > full.Plan.Cost {
		t.Errorf("status %s, cost %d, bound %d; want feasible at greedy's %d, bound in (0, %d]", p.Status, p.Cost, p.LowerBound, full.Plan.Compare.BaselineCost, full.Plan.Cost)
	}
	var text bytes.Buffer
	if err := p.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "not proven minimal: the time limit stopped the search") {
		t.Errorf("the plan does not say what stopped it:\n%s", text.String())
	}
}

// solvedWithGreedy reads a graph and solves it without limits, with the
// greedy baseline's cost beside the plan.
func solvedWithGreedy(t *testing.T, pl *Planner, path string) (*model.Graph, *Result) {
	t.Helper()
	g, err := pl.ReadGraph(path)
	if err != nil {
		t.Fatal(err)
	}
	full, err := pl.Solve(context.Background(), g, Options{CompareGreedy: true})
	if err != nil || full.Plan == nil {
		t.Fatal(err)
	}
	return g, full
}

// A big graph's solve searches with the collector paced more tightly
// than its caller's (bigGrowth) and gives the caller's pace back when it
// returns, with the same plan as a solve at the default pace.
func TestBigGraphPacesCollectorDuringSearch(t *testing.T) {
	pl := testPlanner(t)
	const path = "testdata/graphs/flash_attention_4warps.toml"
	want, err := pl.SolveFile(context.Background(), path, Options{})
	if err != nil || want.Plan == nil {
		t.Fatal(err)
	}
	defer func(n int) { bigGraph = n }(bigGraph)
	bigGraph = 1
	defer func(f func(*solver.Problem, solver.Options) *solver.Result) { solveProblem = f }(solveProblem)
	during := -2
	solveProblem = func(p *solver.Problem, opt solver.Options) *solver.Result {
		during = debug.SetGCPercent(bigGrowth)
		return solver.Solve(p, opt)
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	got, err := pl.SolveFile(context.Background(), path, Options{})
	if err != nil || got.Plan == nil {
		t.Fatal(err)
	}
	if after := debug.SetGCPercent(before); during != bigGrowth || after != 100 {
		t.Errorf("GOGC 100 before the solve, %d during its search, %d after; want %d during it, 100 after", during, after, bigGrowth)
	}
	if got.Plan.Cost != want.Plan.Cost {
		t.Errorf("paced, the plan costs %d; at the default pace %d", got.Plan.Cost, want.Plan.Cost)
	}
}

// The progress line covers the reading of the graph too: a graph of
// hundreds of MiB takes seconds to read, with no line before.
func TestProgressWhileReading(t *testing.T) {
	defer func(after time.Duration) { progressAfter = after }(progressAfter)
	progressAfter = 0
	pl := testPlanner(t)
	data, err := os.ReadFile("testdata/graphs/softmax_row.toml")
	if err != nil {
		t.Fatal(err)
	}
	var phases []solver.Progress
	var mu sync.Mutex
	opt := Options{Progress: func(p solver.Progress) { mu.Lock(); phases = append(phases, p); mu.Unlock() }}
	if _, err := pl.SolveText(context.Background(), "softmax_row.toml", data, opt); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(phases) == 0 || phases[0].Phase != "read" || phases[0].Total != len(data) {
		t.Errorf("the first progress report is %+v, want the reading of %d bytes", phases, len(data))
	}
}

var builtin = sync.OnceValues(func() (*Planner, error) { return New() })

// testPlanner is the planner with the built-in records.
func testPlanner(tb testing.TB) *Planner {
	tb.Helper()
	pl, err := builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return pl
}
