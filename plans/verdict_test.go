package plans

import "testing"

// The verdict names what stopped a search short of a proof.
func TestVerdict(t *testing.T) {
	cases := []struct {
		plan Plan
		want string
	}{
		{Plan{Status: "optimal", Cost: 12, LowerBound: 12}, "cost 12, proven minimal: no plan costs less"},
		{Plan{Status: "feasible", Cost: 12, LowerBound: 7}, "cost 12, not proven minimal: the time limit stopped the search; no plan costs less than 7"},
		{Plan{Status: "feasible", Cost: 12, LowerBound: 7, Stopped: "the memory limit (4096 MiB)"},
			"cost 12, not proven minimal: stopped at the memory limit (4096 MiB); no plan costs less than 7"},
	}
	for _, c := range cases {
		if got := c.plan.Verdict(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.plan, got, c.want)
		}
	}
}
