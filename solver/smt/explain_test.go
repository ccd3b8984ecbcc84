//go:build z3

package smt

import (
	"bytes"
	"testing"

	"planner/plans"
	"planner/solver"
)

// Every unsat graph explained with Z3 finding the core reads as with
// gini: the same core, heading and relaxations, word for word. Package
// solver's TestUnsatCoresAreMinimal holds gini's explanations to what
// they say (the core minimal, the relaxations needed).
func TestSMTUnsatCoresAreMinimal(t *testing.T) {
	graphs := unsatGraphs(t)
	if len(graphs) < 10 {
		t.Fatalf("%d unsat graphs, want at least 10", len(graphs))
	}
	for _, c := range graphs {
		t.Run(c.name, func(t *testing.T) {
			var texts [2]bytes.Buffer
			for i, backend := range []string{"gini", "smt"} {
				p, err := solver.Build(c.graph, c.target, c.records)
				if err != nil {
					t.Fatal(err)
				}
				e, err := solver.Explain(p, c.records, 5, solver.Options{Backend: backend})
				if err != nil {
					t.Fatal(err)
				}
				if len(e.Core) == 0 {
					t.Fatalf("%s: no core", backend)
				}
				if err := plans.WriteExplanationText(&texts[i], e); err != nil {
					t.Fatal(err)
				}
			}
			if texts[0].String() != texts[1].String() {
				t.Errorf("gini explains\n%s\nZ3 explains\n%s", texts[0].String(), texts[1].String())
			}
		})
	}
}
