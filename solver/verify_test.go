package solver

import (
	"planner/solver/solvertest"
	"testing"
)

// verifyPlan checks a search's plan with plans.Verify, which shares no
// code with the encoding (solvertest.VerifyPlan).
func verifyPlan(t testing.TB, p *Problem, res *Result) {
	t.Helper()
	solvertest.VerifyPlan(t, p.Graph, p.Target, res.Assignment, res.Cost)
}
