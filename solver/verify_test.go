package solver

import (
	"testing"

	"planner/plans"
)

// verifyPlan builds the plan of a search's result and replays it with
// plans.Verify, which shares no code with the encoding: a plan a solver
// test reaches is checked element by element, and its costs must add up
// to what the search found.
func verifyPlan(t testing.TB, p *Problem, res *Result) {
	t.Helper()
	if res.Assignment == nil {
		return
	}
	plan, err := plans.Build(p.Graph, p.Target, res.Assignment, "")
	if err != nil {
		t.Fatalf("%s: %v", p.Graph.File, err)
	}
	if plan.Cost != res.Cost {
		t.Fatalf("%s: the plan's costs add up to %d, the search found %d", p.Graph.File, plan.Cost, res.Cost)
	}
	if err := plans.Verify(p.Graph, res.Assignment, plan); err != nil {
		t.Fatalf("%s: %v", p.Graph.File, err)
	}
}
