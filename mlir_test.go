package planner_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"planner"
	"planner/mlir"
	"planner/model"
	"planner/plans"
)

// structuralKeys names every value of a graph by how it is made (its op's
// kind, function, keys, shape and the names of its operands, recursively;
// a loop's carried values by the loop and their place), so that two
// graphs of one kernel with different value names and op orders can be
// matched value by value.
func structuralKeys(g *model.Graph) map[*model.Value]string {
	keys := map[*model.Value]string{}
	var key func(v *model.Value) string
	var loopKey func(l *model.Loop) string
	loopKey = func(l *model.Loop) string {
		var inits []string
		for _, v := range l.Inits {
			inits = append(inits, key(v))
		}
		return fmt.Sprintf("loop(%d,%v,%s)", l.Trips, l.Dynamic, strings.Join(inits, ";"))
	}
	key = func(v *model.Value) string {
		if k, ok := keys[v]; ok {
			return k
		}
		var k string
		switch {
		case v.Arg != nil:
			k = fmt.Sprintf("arg(%s,%d)", loopKey(v.Arg), slices.Index(v.Arg.Args, v))
		case v.Def != nil && v.Def.Body != nil:
			k = fmt.Sprintf("result(%s,%d)", loopKey(v.Def.Body), slices.Index(v.Def.Body.Results, v))
		default:
			op := v.Def
			var ops []string
			for _, o := range op.Operands {
				ops = append(ops, key(o))
			}
			buf := ""
			if op.Buffer != nil {
				buf = fmt.Sprint(op.Buffer.Shape, op.Buffer.DType.Name)
			}
			k = fmt.Sprintf("%s.%s(ax%d,perm%v,dims%v,c%d,buf%s)%v%s[%s]", op.Kind, op.Fn, op.Axis, op.Perm, op.Dims, op.Contiguous, buf, v.Shape, v.DType.Name, strings.Join(ops, ";"))
		}
		keys[v] = k
		return k
	}
	for _, v := range g.Values {
		key(v)
	}
	return keys
}

// matchGraphs pairs the values of two graphs of one kernel: equal
// structural keys, in definition order among equals.
func matchGraphs(t *testing.T, a, b *model.Graph) map[string]string {
	t.Helper()
	ka, kb := structuralKeys(a), structuralKeys(b)
	byKey := map[string][]*model.Value{}
	for _, v := range b.Values {
		byKey[kb[v]] = append(byKey[kb[v]], v)
	}
	pairs := map[string]string{}
	for _, v := range a.Values {
		cands := byKey[ka[v]]
		if len(cands) == 0 {
			t.Fatalf("%%%s of %s (%v x %s) has no counterpart in %s", v.Name, a.File, v.Shape, v.DType.Name, b.File)
		}
		pairs[v.Name] = cands[0].Name
		byKey[ka[v]] = cands[1:]
	}
	if len(a.Values) != len(b.Values) {
		t.Fatalf("%s has %d values, %s %d", a.File, len(a.Values), b.File, len(b.Values))
	}
	return pairs
}

// solveGraph solves a graph already read, writing its layouts in notation.
func solveGraph(t *testing.T, g *model.Graph, notation string) *plans.Plan {
	t.Helper()
	res, err := testPlanner(t).Solve(context.Background(), g, planner.Options{Notation: notation})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan == nil {
		t.Fatalf("%s: no plan: %s", g.File, res.Why)
	}
	return res.Plan
}

// readMLIR reads an MLIR kernel with the planner's targets.
func readMLIR(t *testing.T, path string, opt mlir.Options) *model.Graph {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opt.Targets, opt.Offered = testPlanner(t).Records.Targets, testPlanner(t).Records.Offered
	g, err := mlir.ReadGraph(path, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The must-hold of issue 17: each kernel read from MLIR and the same
// kernel written by hand as a graph give the same problem: the same
// values, op for op, the same optimal cost, every value in the same
// layout and every op run the same way.
func TestMLIRMatchesHandWrittenGraphs(t *testing.T) {
	for _, c := range []struct{ mlir, toml string }{
		{"examples/mlir/flash_attention_seed004.mlir", "testdata/graphs/flash_attention_2warps.toml"},
		{"examples/mlir/softmax_row.mlir", "testdata/graphs/softmax_row.toml"},
		{"examples/mlir/layernorm_row.mlir", "testdata/graphs/layernorm_row.toml"},
		{"examples/mlir/mfma_gemm_seed001.mlir", "testdata/graphs/seed001_mfma_gemm.toml"},
		{"examples/mlir/dpas_gemm_seed003.mlir", "testdata/graphs/seed003_dpas_gemm.toml"},
		{"testdata/mlir/wmma_gemm.mlir", "testdata/graphs/wmma_gemm_subgroup.toml"},
	} {
		t.Run(c.mlir, func(t *testing.T) {
			gm := readMLIR(t, c.mlir, mlir.Options{})
			gt, err := testPlanner(t).ReadGraph(c.toml)
			if err != nil {
				t.Fatal(err)
			}
			if gm.Target != gt.Target || gm.Subgroups != gt.Subgroups {
				t.Fatalf("the MLIR is read on %s with %d subgroups, the graph is for %s with %d", gm.Target, gm.Subgroups, gt.Target, gt.Subgroups)
			}
			pairs := matchGraphs(t, gt, gm)
			pt, pm := solveGraph(t, gt, gt.Notation), solveGraph(t, gm, gt.Notation)
			if pt.Cost != pm.Cost || pt.Status != pm.Status {
				t.Errorf("the graph costs %d (%s), the MLIR %d (%s)", pt.Cost, pt.Status, pm.Cost, pm.Status)
			}
			layouts := map[string]string{}
			for _, v := range pm.Values {
				layouts[v.Name] = v.Layout
			}
			for _, v := range pt.Values {
				if got := layouts[pairs[v.Name]]; got != v.Layout {
					t.Errorf("%%%s is %s in the graph's plan, but its MLIR counterpart %%%s is %s", v.Name, v.Layout, pairs[v.Name], got)
				}
			}
			ops := map[string]plans.OpPlan{}
			for _, o := range pm.Ops {
				ops[o.Name] = o
			}
			for _, o := range pt.Ops {
				m, ok := ops[pairs[o.Name]]
				if !ok {
					continue // ops without a result: compared through their costs below
				}
				if m.Intrinsic != o.Intrinsic || m.Cost != o.Cost || m.Warps != o.Warps {
					t.Errorf("op %s runs as %s (%s) for %d in the graph's plan, its MLIR counterpart %s as %s (%s) for %d", o.Name, o.Intrinsic, o.Warps, o.Cost, m.Name, m.Intrinsic, m.Warps, m.Cost)
				}
			}
			if len(pt.Shared.Placed) != len(pm.Shared.Placed) {
				t.Errorf("the graph's plan places %d buffers, the MLIR's %d", len(pt.Shared.Placed), len(pm.Shared.Placed))
			} else {
				for i, b := range pt.Shared.Placed {
					if m := pm.Shared.Placed[i]; m.Placement != b.Placement || m.Bytes != b.Bytes {
						t.Errorf("buffer %s is %s (%d bytes) in the graph's plan, its MLIR counterpart %s %s (%d bytes)", b.Name, b.Placement, b.Bytes, m.Name, m.Placement, m.Bytes)
					}
				}
			}
			if len(pt.Conv) != len(pm.Conv) {
				t.Errorf("the graph's plan has %d conversions, the MLIR's %d", len(pt.Conv), len(pm.Conv))
			}
		})
	}
}
