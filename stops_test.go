package planner_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"planner"
	"planner/solver"
)

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
	res, err := pl.Solve(ctx, g, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != planner.Stopped || res.Plan != nil || res.Why != "testdata/graphs/flash_attention_4warps.toml: stopped at the time limit of 1ns while building the problem, before any plan was found" {
		t.Errorf("past its deadline: outcome %v, why %q", res.Outcome, res.Why)
	}
	interrupted, stop := context.WithCancel(context.Background())
	stop()
	res, err = pl.Solve(interrupted, g, planner.Options{})
	if err != nil || res.Outcome != planner.Stopped || !errors.Is(interrupted.Err(), context.Canceled) {
		t.Errorf("cancelled: outcome %v, why %q, error %v", res.Outcome, res.Why, err)
	}
	res, err = pl.Solve(context.Background(), g, planner.Options{MemoryLimit: 1 << 20})
	if err != nil || res.Outcome != planner.Stopped || res.Search != nil && res.Search.StoppedBy != "memory" {
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
	_, err = pl.Solve(context.Background(), g, planner.Options{})
	if err == nil || err.Error() != `testdata/graphs/softmax_row.toml:3:1: unknown target "": the planner's records have no such target` {
		t.Errorf("got %v", err)
	}
}

// A graph read under a context already done stops while reading, with
// the limit named and no bound claimed; the library's Solve past its
// deadline and a run the search cut short state real bounds (see
// solver's TestStoppedBuildBound and pbqp's TestStoppedReductionsBound).
func TestStoppedWhileReading(t *testing.T) {
	pl := testPlanner(t)
	ctx, cancel := solver.WithTimeLimit(context.Background(), time.Nanosecond)
	defer cancel()
	res, err := pl.SolveFile(ctx, "testdata/graphs/softmax_row.toml", planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "testdata/graphs/softmax_row.toml: stopped at the time limit of 1ns while reading the graph, before any plan was found"
	if res.Outcome != planner.Stopped || res.Why != want || res.LowerBound != 0 || res.Graph == nil || res.Graph.File != "testdata/graphs/softmax_row.toml" {
		t.Errorf("outcome %v, why %q, bound %d", res.Outcome, res.Why, res.LowerBound)
	}
}

// A plan is explained only from a solve that kept its problem
// (Options.KeepProblem); without it Explain says so instead of failing
// later or saying there is nothing to explain.
func TestExplainNeedsTheKeptProblem(t *testing.T) {
	pl := testPlanner(t)
	for _, keep := range []bool{false, true} {
		res, err := pl.SolveFile(context.Background(), "testdata/graphs/flash_attention_2warps.toml", planner.Options{KeepProblem: keep})
		if err != nil || res.Plan == nil {
			t.Fatal(err)
		}
		_, err = pl.Explain(context.Background(), res, 0, planner.Options{})
		switch {
		case keep && err != nil:
			t.Errorf("with the problem kept: %v", err)
		case !keep && (err == nil || !strings.Contains(err.Error(), "KeepProblem")):
			t.Errorf("without the problem: %v, want an error naming KeepProblem", err)
		}
	}
}
