package planner_test

import (
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/model"
)

// Every shared-memory access that solving a test graph prices (every
// candidate layout against every placement tried, every conversion's
// scratch, and so every access of every test plan) is counted from the
// layout's bases and also walked element by element; the two must agree.
// Each graph with a buffer must have had accesses counted from bases, so
// that a form that stopped applying would be seen. The short run checks
// 6 graphs spread over the folder (golden.Sample), -short a quarter of
// them; PLANNER_LONG_TESTS=1 every one.
func TestAccessCountsOfTestGraphsEqualTheWalk(t *testing.T) {
	graphs, _ := filepath.Glob("testdata/graphs/*.toml")
	if len(graphs) == 0 {
		t.Fatal("no test graphs")
	}
	graphs = golden.Sample(graphs, 6)
	if testing.Short() {
		graphs = graphs[:max(1, len(graphs)/4)]
	}
	total := 0
	for _, g := range graphs {
		name := strings.TrimSuffix(filepath.Base(g), ".toml")
		t.Run(name, func(t *testing.T) {
			checked, differ := 0, 0
			stop := model.CrossCheckAccesses(func(a, w model.Access, what string) {
				checked++
				if a != w && differ < 5 {
					differ++
					t.Errorf("%s:\nfrom bases %+v\nwalked     %+v", what, a, w)
				}
			})
			defer stop()
			plan := solveFile(t, g)
			if len(plan.Shared.Placed) > 0 && checked == 0 {
				t.Errorf("the plan places %d buffers, but no access was counted from bases", len(plan.Shared.Placed))
			}
			total += checked
		})
	}
	t.Logf("%d accesses counted both ways", total)
}
