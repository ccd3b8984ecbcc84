//go:build z3

package smt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/solver"
	"planner/tomlio"
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

// readGraphs reads the graphs a glob names, relative to the repository's
// root (the test's working directory from here on, as in package
// solver's tests), with the built-in records of their targets.
func readGraphs(tb testing.TB, glob string) []testGraph {
	for range 2 {
		if _, err := os.Stat("go.mod"); err != nil {
			tb.Chdir("..")
		}
	}
	lib, err := intrinsics.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		tb.Fatalf("no graphs match %s", glob)
	}
	var out []testGraph
	for _, f := range files {
		g, err := tomlio.ReadGraph(f, lib.Targets)
		if err != nil {
			tb.Fatal(err)
		}
		tg := lib.Targets[g.Target]
		var recs []*model.Record
		for _, n := range tg.Records {
			recs = append(recs, lib.Records[n])
		}
		out = append(out, testGraph{strings.TrimSuffix(filepath.Base(f), ".toml"), g, tg, recs})
	}
	return out
}

// verifyPlan builds the plan of a search's result and replays it with
// plans.Verify: its costs must add up to what the search found.
func verifyPlan(t testing.TB, p *solver.Problem, res *solver.Result) {
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
