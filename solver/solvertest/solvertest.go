// Package solvertest holds what the tests of solver and of its backends
// (solver/smt) share: the repository's graphs read with the built-in
// records of their targets, and a plan checked by plans.Verify. It
// imports no solver package, so that package solver's own tests can use
// it.
package solvertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/tomlio"
)

// A Graph is a test graph with its target and that target's records.
type Graph struct {
	Name    string
	Graph   *model.Graph
	Target  *model.Target
	Records []*model.Record
}

// ReadGraphs reads the graphs a glob names, relative to the repository's
// root, which becomes the test's working directory (so that positions
// read as users see them), with the built-in records of their targets.
func ReadGraphs(tb testing.TB, glob string) []Graph {
	tb.Helper()
	for range 3 {
		if _, err := os.Stat("go.mod"); err == nil {
			break
		}
		tb.Chdir("..")
	}
	lib, err := intrinsics.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		tb.Fatalf("no graphs match %s", glob)
	}
	var out []Graph
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
		out = append(out, Graph{strings.TrimSuffix(filepath.Base(f), ".toml"), g, tg, recs})
	}
	return out
}

// VerifyPlan builds the plan of a search's assignment and replays it with
// plans.Verify, which shares no code with the encoding: its costs must add
// up to what the search found (cost). A nil assignment is no plan, and
// nothing to check.
func VerifyPlan(t testing.TB, g *model.Graph, tgt *model.Target, a *model.Assignment, cost int64) {
	t.Helper()
	if a == nil {
		return
	}
	plan, err := plans.Build(g, tgt, a, "")
	if err != nil {
		t.Fatalf("%s: %v", g.File, err)
	}
	if plan.Cost != cost {
		t.Fatalf("%s: the plan's costs add up to %d, the search found %d", g.File, plan.Cost, cost)
	}
	if err := plans.Verify(g, a, plan); err != nil {
		t.Fatalf("%s: %v", g.File, err)
	}
}
