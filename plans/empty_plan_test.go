package plans

import (
	"strings"
	"testing"
)

// A kernel with nothing to lay out has an empty plan, and its text says
// so in place of empty sections.
func TestEmptyPlanSaysSo(t *testing.T) {
	p := &Plan{File: "k.ttgir", Target: "sm_80", Subgroups: 4, Status: "optimal", Notation: "triton"}
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(got, "nothing to lay out") || strings.Contains(got, "values (layouts") {
		t.Errorf("the empty plan's text:\n%s", got)
	}
}
