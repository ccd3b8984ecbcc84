package planner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"planner/model"
	"planner/plans"
	"planner/solver"
)

// memoryStop is where the reading, the build and the search stop under a
// memory limit of n bytes: 85% of it, the rest left for the greedy
// fallback and the plan (on a 20k-op graph the fallback and the plan
// took about a third of what the process held when the search stopped,
// less once the problem is given back).
func memoryStop(n uint64) uint64 { return n / 100 * 85 }

// searchRoom is the most the process may hold when the search starts
// under a memory limit of n bytes: 60% of it. The reductions and the
// search take about half as much again as the problem (on a 100k-op
// graph the process went from 870 MiB at the search's start to 1149
// MiB), so a search started above it would cross the limit; the answer
// is then the greedy plan.
func searchRoom(n uint64) uint64 { return n / 100 * 60 }

// gcGoal is the memory the garbage collector is asked to keep the
// process under for a limit of n bytes: 70% of it, below memoryStop's
// 85%, so that garbage not yet collected does not reach the stop by
// itself (building a 100k-op graph holds about 400 MiB live but, with the
// collector's goal at the limit, reached 870 MiB of resident memory).
func gcGoal(n uint64) uint64 { return n / 100 * 70 }

// bigGrowth is the collector's GOGC for a big graph's search and plan:
// the heap grows by half of what the last collection found live before
// the next, not by all of it (the default 100). Paced by the default, the
// heap of the 1M-op chain's search grew to twice what the last
// collection found live, and a collection of over 2 GiB that takes
// seconds counts everything made meanwhile as live: 4.4 GB of heap where
// 2 GB was live. A proportional pace never runs the collector back to
// back where a search outgrows the problem (an attention graph's
// doubles it), as a fixed memory limit does: on the 100k-op attention
// graph it costs 7% more CPU time for 18% less resident memory.
const bigGrowth = 50

// bigPace is the collector's pace for a big graph's search and plan
// (paceBig), with the pace to give back.
type bigPace struct{ old int }

// paceBig collects the heap once a big graph's problem is built, which
// leaves only what is live (a collection running beside the build
// counts what the build made meanwhile as live too), and sets the
// collector's pace to bigGrowth, unless the process runs at a tighter
// one or with the collector off (GOGC=off, under a memory limit).
func paceBig() *bigPace {
	runtime.GC()
	old := debug.SetGCPercent(bigGrowth)
	if old < bigGrowth {
		debug.SetGCPercent(old)
	}
	return &bigPace{old: old}
}

// release gives the pace before back; nil does nothing.
func (b *bigPace) release() {
	if b != nil {
		debug.SetGCPercent(b.old)
	}
}

// smallGraph and smallGrowth: a graph of fewer values than smallGraph is
// solved with the collector's GOGC at smallGrowth, unless the process
// runs at a slower pace or with the collector off. Such a solve holds
// tens of MiB at most and lasts milliseconds; paced by the default 100
// from the runtime's 4 MiB start, its collections ran beside the
// pricing of conversions on the machine's other CPU, and the testdata
// graphs took 6 to 11 ms longer end to end on a 2-CPU machine
// (docs/performance.md, measured with GOGC set in the environment).
const (
	smallGraph  = 1024
	smallGrowth = 400
)

// CollectorPace sets the garbage collector's pace for solving g, as
// Solve does (a slower one for a small graph), and returns what gives
// the pace before back. Tools that time the solver's steps one by one
// call it to run as Solve runs.
func CollectorPace(g *model.Graph) (release func()) {
	if len(g.Values) >= smallGraph {
		return func() {}
	}
	old := debug.SetGCPercent(smallGrowth)
	if old < 0 || old > smallGrowth {
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}

// withMemoryLimit returns a context that is cancelled, with the cause
// solver.MemoryLimit(n), once the process holds more than memoryStop(n) bytes
// (checked every few milliseconds; the solver's own watch also checks it
// between its steps), and asks the garbage collector to stay below
// gcGoal(n) meanwhile. stop releases both. n = 0 is no limit.
func withMemoryLimit(ctx context.Context, n uint64) (context.Context, func()) {
	if n == 0 {
		return ctx, func() {}
	}
	old := debug.SetMemoryLimit(int64(min(gcGoal(n), 1<<62)))
	ctx, cancel := context.WithCancelCause(ctx)
	limit, n := n, memoryStop(n)
	if solver.MemoryHeld() > n {
		cancel(solver.MemoryLimit(limit)) // over the limit from the start
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if solver.MemoryHeld() > n {
					cancel(solver.MemoryLimit(limit))
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(quit)
		<-finished
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}

// progressAfter is how long a solve runs before its first progress
// report outside the solver (solver.ProgressAfter; tests shorten it).
var progressAfter = solver.ProgressAfter

// during keeps a progress line alive through a phase outside the solver
// (reading the graph, writing and replaying the plan) of a solve that
// started at start, until the returned function is called: at once when
// the solve has run progressAfter already, then every
// solver.ProgressEvery. p names the phase and what it counts.
func during(progress func(solver.Progress), start time.Time, p solver.Progress) (stop func()) {
	if progress == nil {
		return func() {}
	}
	report := func() {
		if e := time.Since(start); e >= progressAfter {
			p.Elapsed, p.Memory = e, solver.MemoryHeld()
			progress(p)
		}
	}
	report()
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(solver.ProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				report()
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// within runs f and waits for it until ctx is done or the time by comes
// (zero: no such time). false when it stopped waiting first: f then runs
// on in the background, its results not to be read.
func within(ctx context.Context, by time.Time, f func()) bool {
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		<-ctx.Done() // its timer fires now
	}
	if ctx.Err() != nil {
		return false
	}
	if ctx.Done() == nil && by.IsZero() {
		f()
		return true
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		f()
	}()
	var timeout <-chan time.Time
	if !by.IsZero() {
		timer := time.NewTimer(time.Until(by))
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-finished:
		return true
	case <-ctx.Done():
	case <-timeout:
	}
	select {
	case <-finished:
		return true
	default:
		return false
	}
}

// limitText names the limit that ended ctx, or, while it runs, the one
// its deadline stands for.
func limitText(ctx context.Context) string {
	if ctx.Err() == nil {
		return solver.DeadlineLimit(ctx).Text
	}
	var l *solver.Limit
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &l):
		return l.Text
	case errors.Is(cause, context.DeadlineExceeded):
		return solver.DeadlineLimit(ctx).Text
	}
	return "a cancellation"
}

// stoppedPlan says that the run's limit came before the plan was built.
type stoppedPlan struct{ limit string }

func (e *stoppedPlan) Error() string { return "stopped at " + e.limit + " while writing the plan" }

// planWithin builds the plan of an assignment and replays it: its costs
// must add up to what the search (or the baseline, who) counted, and
// every element must reach where its consumer expects it. Under run's
// deadline the plan is built until the deadline (a *stoppedPlan when it
// is not done by then) and
// replayed in the verifier until the deadline less as long as building
// it took, which leaves the caller about that long to write it. A plan
// whose replay did not finish in time comes back with NotVerified
// saying so.
func planWithin(run context.Context, g *model.Graph, t *model.Target, a *model.Assignment, cost int64, notation, who string) (*plans.Plan, error) {
	start := time.Now()
	var plan *plans.Plan
	var err error
	if !within(run, time.Time{}, func() { plan, err = plans.Build(g, t, a, notation) }) {
		return nil, &stoppedPlan{limitText(run)}
	}
	if err != nil {
		return nil, err
	}
	if plan.Cost != cost {
		return nil, fmt.Errorf("internal error: the plan's costs add up to %d but %s counted %d", plan.Cost, who, cost)
	}
	var by time.Time
	if d, ok := run.Deadline(); ok {
		by = d.Add(-time.Since(start))
	}
	replayed := *plan // the caller goes on filling in plan while an unfinished replay reads its copy
	if !within(run, by, func() { err = plans.Verify(g, a, &replayed) }) {
		plan.NotVerified = fmt.Sprintf("%s left no time to replay it in the verifier (planner verify replays a plan file)", limitText(run))
		return plan, nil
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	return plan, nil
}
