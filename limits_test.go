package planner

import (
	"context"
	"errors"
	"testing"
	"time"

	"planner/solver"
)

// The progress line goes on through the plan's writing and checking, once
// the solve has run for a second, and stops when told.
func TestProgressDuring(t *testing.T) {
	during(nil, time.Now(), "plan")() // no progress asked for: nothing to do
	got := make(chan solver.Progress, 100)
	stop := during(func(p solver.Progress) { got <- p }, time.Now().Add(-time.Hour), "plan")
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

// A graph solved through the library under a context whose deadline has
// passed stops with the limit its cause names, and a memory limit below
// what the process holds cancels the solve with the memory limit's name.
func TestContextStopsTheSolve(t *testing.T) {
	pl := testPlanner(t)
	g, err := pl.ReadGraph("testdata/graphs/flash_attention_4warps.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, solver.TimeLimit(time.Nanosecond))
	defer cancel()
	<-ctx.Done()
	res, err := pl.Solve(ctx, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Stopped || res.Plan != nil || res.Why != "testdata/graphs/flash_attention_4warps.toml: stopped at the time limit of 1ns while building the problem, before any plan was found" {
		t.Errorf("past its deadline: outcome %v, why %q", res.Outcome, res.Why)
	}
	interrupted, stop := context.WithCancel(context.Background())
	stop()
	res, err = pl.Solve(interrupted, g, Options{})
	if err != nil || res.Outcome != Stopped || !errors.Is(interrupted.Err(), context.Canceled) {
		t.Errorf("cancelled: outcome %v, why %q, error %v", res.Outcome, res.Why, err)
	}
	res, err = pl.Solve(context.Background(), g, Options{MemoryLimit: 1 << 20})
	if err != nil || res.Outcome != Stopped || res.Search != nil && res.Search.StoppedBy != "memory" {
		t.Errorf("over the memory limit: outcome %v, why %q, error %v", res.Outcome, res.Why, err)
	}
}

// A graph the reader did not check, naming a target the records lack, is
// bad input at its target key, not a panic.
func TestUnknownTargetIsAnError(t *testing.T) {
	pl := testPlanner(t)
	g, err := pl.ReadGraph("testdata/graphs/softmax_row.toml")
	if err != nil {
		t.Fatal(err)
	}
	g.Target = ""
	_, err = pl.Solve(context.Background(), g, Options{})
	if err == nil || err.Error() != `testdata/graphs/softmax_row.toml:3:1: unknown target "": the planner's records have no such target` {
		t.Errorf("got %v", err)
	}
}
