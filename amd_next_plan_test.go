package planner_test

import (
	"maps"
	"strings"
	"testing"

	"planner/model"
	"planner/plans"
)

// On gfx950 a GEMM uses the CDNA4 double-rate MFMA; with B N-contiguous in
// LDS it reads B with the transposing ds_read_b64_tr_b16 (two reads per
// operand, their lane groups placed by their addresses) and converts
// nothing. On gfx1200 a GEMM uses RDNA4's WMMA.
func TestAMDNextGenerationGEMMs(t *testing.T) {
	for _, c := range []struct {
		graph, mma string
		reads      map[string]string // load_shared op -> the record it reads with
	}{
		{"testdata/graphs/gfx950_gemm.toml", "mfma_f32_32x32x16_f16", nil},
		{"testdata/graphs/gfx950_gemm_ds_read_tr.toml", "mfma_f32_32x32x16_f16", map[string]string{"b": "ds_read_b64_tr_b16"}},
		{"testdata/graphs/gfx1200_gemm.toml", "wmma_f32_16x16x16_f16_gfx12", nil},
	} {
		p := solveFile(t, c.graph)
		if p.Status != "optimal" {
			t.Fatalf("%s: status %s", c.graph, p.Status)
		}
		if o := opPlan(t, p, "acc_next"); o.Intrinsic != c.mma {
			t.Errorf("%s: the mma runs %q, want %s", c.graph, o.Intrinsic, c.mma)
		}
		for op, rec := range c.reads {
			if o := opPlan(t, p, op); o.Intrinsic != rec {
				t.Errorf("%s: %s reads with %q, want %s", c.graph, op, o.Intrinsic, rec)
			}
		}
		for _, cv := range p.Conv {
			if !cv.Free {
				t.Errorf("%s: %%%s -> %s is converted (%s, cost %d)", c.graph, cv.Value, cv.Consumer, cv.Kind, cv.Cost)
			}
		}
	}
}

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
