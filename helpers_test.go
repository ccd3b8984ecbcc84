package planner_test

import (
	"context"
	"sync"
	"testing"

	"planner"
	"planner/plans"
	"planner/solver"
)

var builtin = sync.OnceValues(func() (*planner.Planner, error) { return planner.New() })

// testPlanner is the planner with the built-in records.
func testPlanner(tb testing.TB) *planner.Planner {
	tb.Helper()
	pl, err := builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return pl
}

// solveResult solves a graph file as planner solve does: the plan, and
// the search's result with the graph and assignment.
func solveResult(t *testing.T, path string) (*plans.Plan, *solver.Result) {
	t.Helper()
	res, err := testPlanner(t).SolveFile(context.Background(), path, planner.Options{KeepProblem: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan == nil {
		t.Fatalf("%s: no plan: %s", path, res.Why)
	}
	return res.Plan, res.Search
}

func solveFile(t *testing.T, path string) *plans.Plan {
	t.Helper()
	plan, _ := solveResult(t, path)
	return plan
}
