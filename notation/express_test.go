package notation

import (
	"testing"

	"planner/model"
)

// No notation writes a value left in shared memory or an opaque
// fragment: neither says which lane and register hold an element.
func TestExpressRefusesUnplacedValues(t *testing.T) {
	shared, err := model.LeftInShared([]int{64, 64})
	if err != nil {
		t.Fatal(err)
	}
	opaque, err := model.StandIn("wmma.a", []int{16, 16}, 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*model.Layout{shared, opaque} {
		for _, k := range Kinds {
			if _, err := Express(k, l); err == nil {
				t.Errorf("notation %s wrote %v", k, l)
			}
		}
	}
}
