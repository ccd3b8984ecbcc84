package plans

import (
	"encoding/json"
	"testing"
)

func TestComparison(t *testing.T) {
	cases := []struct {
		cost, baseline int64
		noPlan         string
		text, json     string
	}{
		{1986, 2844, "",
			"compared with the greedy baseline: this plan costs 1986, greedy 2844 (ratio greedy/this 1.432)",
			`{"baseline":"greedy","cost":1986,"baseline_cost":2844,"ratio":1.432}`},
		{0, 0, "",
			"compared with the greedy baseline: this plan costs 0, greedy 0",
			`{"baseline":"greedy","cost":0,"baseline_cost":0}`},
		{120, 1 << 60, "its choice for %x breaks pin:x",
			"compared with the greedy baseline: this plan costs 120; greedy found no plan: its choice for %x breaks pin:x",
			`{"baseline":"greedy","cost":120,"baseline_cost":-1,"no_plan":"its choice for %x breaks pin:x"}`},
	}
	for _, c := range cases {
		cmp := NewComparison("greedy", c.cost, c.baseline, c.noPlan)
		if got := cmp.Text(); got != c.text {
			t.Errorf("text:\n got %s\nwant %s", got, c.text)
		}
		b, err := json.Marshal(cmp)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.json {
			t.Errorf("json:\n got %s\nwant %s", b, c.json)
		}
	}
}
