package planner

import (
	"context"
	"runtime/debug"
	"time"

	"planner/solver"
)

// withMemoryLimit returns a context that is cancelled, with the cause
// solver.MemoryLimit(n), once the process holds more than n bytes
// (checked every few milliseconds; the solver's own watch also checks it
// between its steps), and asks the garbage collector to stay below n
// meanwhile. stop releases both. n = 0 is no limit.
func withMemoryLimit(ctx context.Context, n uint64) (context.Context, func()) {
	if n == 0 {
		return ctx, func() {}
	}
	old := debug.SetMemoryLimit(int64(min(n, 1<<62)))
	ctx, cancel := context.WithCancelCause(ctx)
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
					cancel(solver.MemoryLimit(n))
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

// during keeps a progress line alive through a phase outside the solver
// (writing and replaying the plan) of a solve that started at start,
// until the returned function is called.
func during(progress func(solver.Progress), start time.Time, phase string) (stop func()) {
	if progress == nil {
		return func() {}
	}
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
				if e := time.Since(start); e >= solver.ProgressAfter {
					progress(solver.Progress{Phase: phase, Elapsed: e, Memory: solver.MemoryHeld()})
				}
			}
		}
	}()
	return func() { close(quit); <-finished }
}
