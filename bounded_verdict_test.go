package planner_test

import (
	"context"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
)

// A bounded solve that the conversion budget's branching stops says so,
// not "the time limit" (none was given), and states no cheapest
// unbounded plan it has not proven: fa_f16acc_sm80 spills, so the first
// plan the search finds without the bound is not the cheapest.
func TestBoundedVerdictNamesItsLimit(t *testing.T) {
	golden.Long(t) // about 4 s
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	res, err := pl.SolveFile(context.Background(), "testdata/graphs/fa_f16acc_sm80.toml", planner.Options{MaxConversions: "4"})
	if err != nil || res.Plan == nil {
		t.Fatalf("no plan: %v", err)
	}
	p := res.Plan
	if v := p.Verdict(); p.Status != "optimal" && (!strings.Contains(v, "stopped at the conversion budget's limit") || strings.Contains(v, "time limit")) {
		t.Errorf("verdict %q: want the conversion budget's limit named", v)
	}
	if b := p.ConversionBound; b == nil || b.Unbounded != nil {
		t.Errorf("conversion bound %+v: want the bound, and no unbounded plan claimed", b)
	}
}
