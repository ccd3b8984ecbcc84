//go:build z3

package smt

import (
	"testing"

	"planner/model"
	"planner/solver"
	"planner/solver/solvertest"
)

type testGraph struct {
	name    string
	graph   *model.Graph
	target  *model.Target
	records []*model.Record
}

// testGraphs reads every graph under testdata/graphs with the built-in
// records of its target.
func testGraphs(tb testing.TB) []testGraph { return readGraphs(tb, "testdata/graphs/*.toml") }

// unsatGraphs reads the graphs under testdata/unsat, which have no plan.
func unsatGraphs(tb testing.TB) []testGraph { return readGraphs(tb, "testdata/unsat/*.toml") }

// readGraphs reads the graphs a glob names (solvertest.ReadGraphs).
func readGraphs(tb testing.TB, glob string) []testGraph {
	var out []testGraph
	for _, g := range solvertest.ReadGraphs(tb, glob) {
		out = append(out, testGraph{g.Name, g.Graph, g.Target, g.Records})
	}
	return out
}

// verifyPlan checks a search's plan with plans.Verify
// (solvertest.VerifyPlan).
func verifyPlan(t testing.TB, p *solver.Problem, res *solver.Result) {
	t.Helper()
	solvertest.VerifyPlan(t, p.Graph, p.Target, res.Assignment, res.Cost)
}
