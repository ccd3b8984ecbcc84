package planner_test

import (
	"context"
	"strings"
	"testing"

	"planner"
)

// Explaining a kernel with no plan asks the SAT solver many questions in
// a row. gini v1.0.1, asked again on the same solver after an unsat
// answer under assumptions, answered this kernel's explanation with a
// model that violates a clause and ended the process ("internal error in
// solve: sat model"), so this test's binary died; each question now gets
// a fresh solver.
func TestExplainSurvivesGiniReuse(t *testing.T) {
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := pl.SolveFile(ctx, "testdata/explain/xegpu_registers_full.mlir", planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan != nil {
		t.Skip("the kernel has a plan now; the explanation it exercised is not reached")
	}
	e, err := pl.Explain(ctx, res, 8, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var core []string
	for _, f := range e.Core {
		core = append(core, f.Name)
	}
	if got := strings.Join(core, " "); got != "pin:x registers" {
		t.Errorf("core %q, want the pin of %%x and the register budget", got)
	}
}
