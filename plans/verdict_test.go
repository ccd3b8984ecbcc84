package plans

import (
	"strings"
	"testing"
)

// The verdict names what an optimum is minimal over (the candidate
// layouts, and the values whose lists were full), and what stopped a
// search short of a proof.
func TestVerdict(t *testing.T) {
	cases := []struct {
		plan Plan
		want string
	}{
		{Plan{Status: "optimal", Cost: 12, LowerBound: 12}, "cost 12, proven minimal over the candidate layouts: no plan among them costs less"},
		{Plan{Status: "optimal", Cost: 12, LowerBound: 12, Restricted: "at most 96 a value: %a, %b"},
			"cost 12, proven minimal over the candidate layouts (at most 96 a value: %a, %b): no plan among them costs less"},
		{Plan{Status: "optimal", Cost: 12, LowerBound: 12, ConversionBound: &ConversionBound{Max: 2}},
			"cost 12, proven minimal over the candidate layouts: no plan among them within the bound on conversions costs less"},
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

// The JSON names a limit other than time that stopped the search, and
// says nothing of it otherwise.
func TestJSONStopped(t *testing.T) {
	for _, c := range []struct {
		stopped string
		want    bool
	}{{"", false}, {"the memory limit (4096 MiB)", true}} {
		var b strings.Builder
		p := &Plan{Status: "feasible", Cost: 12, LowerBound: 7, Stopped: c.stopped}
		if err := p.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(b.String(), `"stopped": "the memory limit (4096 MiB)"`)
		if has != c.want || !c.want && strings.Contains(b.String(), `"stopped"`) {
			t.Errorf("stopped %q: JSON\n%s", c.stopped, b.String())
		}
	}
}
