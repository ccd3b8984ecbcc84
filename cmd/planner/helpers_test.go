package main

import (
	"context"
	"testing"

	"planner"
	"planner/plans"
	"planner/solver"
)

// solveResult solves a graph file through the library, as planner solve
// does: the plan, and the search's result with the graph and assignment.
func solveResult(t *testing.T, path string) (*plans.Plan, *solver.Result) {
	t.Helper()
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	res, err := pl.SolveFile(context.Background(), path, planner.Options{KeepProblem: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan == nil {
		t.Fatalf("%s: no plan: %s", path, res.Why)
	}
	return res.Plan, res.Search
}
