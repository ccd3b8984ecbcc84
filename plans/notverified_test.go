package plans_test

import (
	"strings"
	"testing"

	"planner/plans"
	"planner/plans/planfile"
)

// A plan the verifier had no time to replay says so in every format, and
// a verified one says nothing of it.
func TestNotVerified(t *testing.T) {
	why := "the time limit of 2s left no time to replay it in the verifier"
	writers := map[string]func(p *plans.Plan, b *strings.Builder) error{
		"text": func(p *plans.Plan, b *strings.Builder) error { return p.WriteText(b) },
		"json": func(p *plans.Plan, b *strings.Builder) error { return p.WriteJSON(b) },
		"toml": func(p *plans.Plan, b *strings.Builder) error { return planfile.Write(b, p) },
		"dot":  func(p *plans.Plan, b *strings.Builder) error { return p.WriteDOT(b, plans.GraphShape{}) },
	}
	want := map[string]string{
		"text": "not verified: " + why + "\n",
		"json": `"not_verified": "` + why + `"`,
		"toml": "# not verified: " + why + "\n",
		"dot":  "// not verified: " + why + "\n",
	}
	for name, write := range writers {
		for _, nv := range []string{"", why} {
			var b strings.Builder
			p := &plans.Plan{File: "g.toml", Target: "sm_80", Subgroups: 4, Notation: "linear", Status: "feasible", Cost: 12, LowerBound: 7, NotVerified: nv}
			if err := write(p, &b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			mentions := strings.Contains(b.String(), "not verified") || strings.Contains(b.String(), "not_verified")
			if got := strings.Contains(b.String(), want[name]); got != (nv != "") || mentions != (nv != "") {
				t.Errorf("%s, not verified %q:\n%s", name, nv, b.String())
			}
		}
	}
}
