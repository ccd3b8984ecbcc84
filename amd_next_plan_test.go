package planner_test

import (
	"maps"
	"strings"
	"testing"

	"planner/model"
	"planner/plans"
)

// The verifier replays the transposing read group by group: the plan of
// gfx950_gemm_ds_read_tr verifies, and the same plan with B's two lowest
// lane digits swapped (lanes 1 and 2 of every group trading columns) is
// rejected at B's read, naming the record's fragment and the group.
func TestVerifyGroupedLoadFragment(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/gfx950_gemm_ds_read_tr.toml")
	g, a := res.Problem.Graph, res.Assignment
	if err := plans.Verify(g, a, plan); err != nil {
		t.Fatalf("the solved plan does not verify: %v", err)
	}
	var b *model.Value
	for _, v := range g.Values {
		if v.Name == "b" {
			b = v
		}
	}
	lin, err := model.ExpressLinear(a.Layouts[b])
	if err != nil {
		t.Fatal(err)
	}
	lin.Lane[0], lin.Lane[1] = lin.Lane[1], lin.Lane[0]
	moved, err := lin.Layout(model.Frame{Shape: b.Shape, SubgroupSize: 64, Subgroups: g.Subgroups})
	if err != nil {
		t.Fatal(err)
	}
	bad := *a
	bad.Layouts = maps.Clone(a.Layouts)
	bad.Layouts[b] = moved
	err = plans.Verify(g, &bad, plan)
	if err == nil || !strings.Contains(err.Error(), "ds_read_b64_tr_b16 fragment") || !strings.Contains(err.Error(), "group of 16 lanes") {
		t.Fatalf("verify said %v; want the transposing read's fragment to be named, per group of 16 lanes", err)
	}
}
