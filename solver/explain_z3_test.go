//go:build z3

package solver

import "testing"

// Every unsat graph explained with Z3 finding the core: the core is
// minimal, the heading says what dropping one of its facts does, and the
// relaxations need what they say (checkExplanation), as with gini.
func TestSMTUnsatCoresAreMinimal(t *testing.T) {
	graphs := unsatGraphs(t)
	if len(graphs) < 10 {
		t.Fatalf("%d unsat graphs, want at least 10", len(graphs))
	}
	for _, c := range graphs {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(c.graph, c.target, c.records)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Explain(p, c.records, 5, Options{Backend: "smt"})
			if err != nil {
				t.Fatal(err)
			}
			checkExplanation(t, c, p, e)
		})
	}
}
