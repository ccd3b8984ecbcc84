package solver

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"planner/model"
)

// solvedGraph is a testdata graph built and solved once for every test
// that needs the same problem and plan.
type solvedGraph struct {
	testGraph
	p   *Problem
	res *Result
}

// explainedGraph is an unsat testdata graph built and explained once.
type explainedGraph struct {
	testGraph
	p *Problem
	e *model.Explanation
}

var (
	solvedOnce, explainedOnce sync.Once
	solved                    []solvedGraph
	explained                 []explainedGraph
	relaxedMu                 sync.Mutex
	relaxedSolves             = map[string]*Result{}
)

// atRoot makes the repository's root the test's working directory, as
// readGraphs does, for tests that take graphs read by an earlier test.
func atRoot(tb testing.TB) {
	if _, err := os.Stat("go.mod"); err != nil {
		tb.Chdir("..")
	}
}

// solvedGraphs is every graph under testdata/graphs, built and solved by
// the first test that asks; each must have an optimal plan.
func solvedGraphs(t *testing.T) []solvedGraph {
	t.Helper()
	atRoot(t)
	solvedOnce.Do(func() {
		for _, c := range testGraphs(t) {
			solved = append(solved, solveGraph(t, c))
		}
	})
	if len(solved) == 0 {
		t.Fatal("no solved testdata graphs (an earlier test failed to build them)")
	}
	return solved
}

// solveGraph builds and solves c.
func solveGraph(t *testing.T, c testGraph) solvedGraph {
	t.Helper()
	p, err := Build(c.graph, c.target, c.records)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return solvedGraph{c, p, Solve(p, Options{})}
}

// explainedGraphs is every graph under testdata/unsat with its
// explanation, made by the first test that asks.
func explainedGraphs(t *testing.T) []explainedGraph {
	t.Helper()
	atRoot(t)
	explainedOnce.Do(func() {
		for _, c := range unsatGraphs(t) {
			p, e := explainGraph(t, c)
			explained = append(explained, explainedGraph{c, p, e})
		}
	})
	if len(explained) == 0 {
		t.Fatal("no explained unsat graphs (an earlier test failed to explain them)")
	}
	return explained
}

// solveRelaxed solves c with the named facts relaxed, once for each graph
// and set of facts across the tests that ask.
func solveRelaxed(t *testing.T, c testGraph, relax map[string]bool) *Result {
	t.Helper()
	var dropped []string
	for name, on := range relax {
		if on {
			dropped = append(dropped, name)
		}
	}
	slices.Sort(dropped)
	key := c.name + "\x00" + strings.Join(dropped, "\x00")
	relaxedMu.Lock()
	defer relaxedMu.Unlock()
	if res, ok := relaxedSolves[key]; ok {
		return res
	}
	rp, err := BuildRelaxed(c.graph, c.target, c.records, relax)
	if err != nil {
		t.Fatal(err)
	}
	res := Solve(rp, Options{})
	relaxedSolves[key] = res
	return res
}
