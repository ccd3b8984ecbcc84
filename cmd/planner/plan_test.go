package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/plans"
)

func solveFile(t *testing.T, path string) *plans.Plan {
	t.Helper()
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	plan, _, err := solveGraph(lib, path, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func opPlan(t *testing.T, p *plans.Plan, name string) plans.OpPlan {
	t.Helper()
	for _, o := range p.Ops {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no op %s", name)
	return plans.OpPlan{}
}

// Seed 004's questions, with 2 warps splitting the rows: everything stays
// in registers, nothing converts between the two mmas, K comes through
// ldmatrix and V through ldmatrix.trans, and each row reduction combines
// the 4 lanes of a quad.
func TestFlashAttention2Warps(t *testing.T) {
	p := solveFile(t, "../../testdata/graphs/flash_attention_2warps.toml")
	if p.Status != "optimal" {
		t.Fatalf("status %s", p.Status)
	}
	if p.Shared.Scratch != 0 {
		t.Errorf("a conversion uses %d bytes of shared memory", p.Shared.Scratch)
	}
	for _, c := range p.Conv {
		if !c.Free {
			t.Errorf("conversion %%%s -> %s (%s) costs %d", c.Value, c.Consumer, c.Kind, c.Cost)
		}
		switch c.Consumer {
		case "d", "p", "pn", "pf", "acc_new":
			if c.Value == "s" || c.Value == "d" || c.Value == "p" || c.Value == "pn" || c.Value == "pf" {
				t.Errorf("%%%s is converted on its way from the first mma to the second", c.Value)
			}
		}
	}
	if k := opPlan(t, p, "k"); !strings.HasPrefix(k.Intrinsic, "ldmatrix_") || strings.HasSuffix(k.Intrinsic, "_trans") {
		t.Errorf("K is read with %q, want plain ldmatrix", k.Intrinsic)
	}
	if v := opPlan(t, p, "v"); !strings.HasPrefix(v.Intrinsic, "ldmatrix_") || !strings.HasSuffix(v.Intrinsic, "_trans") {
		t.Errorf("V is read with %q, want ldmatrix .trans", v.Intrinsic)
	}
	for _, name := range []string{"m_new", "l_new"} {
		if r := opPlan(t, p, name); r.Lanes != 4 || r.Subgroups != 1 {
			t.Errorf("reduction %s combines %d lanes and %d subgroups, want 4 and 1", name, r.Lanes, r.Subgroups)
		}
	}
	for _, name := range []string{"s", "acc_new"} {
		if o := opPlan(t, p, name); o.Warps != "2×1" {
			t.Errorf("mma %s uses %s warps, want the rows split (2×1)", name, o.Warps)
		}
	}
}

// With 4 warps over 32 rows the columns of S must split over warps: the
// plan says which values cross warps, by which mechanism, at what cost,
// and why.
func TestFlashAttention4Warps(t *testing.T) {
	p := solveFile(t, "../../testdata/graphs/flash_attention_4warps.toml")
	if p.Status != "optimal" {
		t.Fatalf("status %s", p.Status)
	}
	var crossing []plans.ConvPlan
	for _, c := range p.Conv {
		if c.Kind == "shared" {
			crossing = append(crossing, c)
		}
	}
	if len(crossing) == 0 {
		t.Fatal("no value crosses warps")
	}
	for _, c := range crossing {
		if c.Cost <= 0 || !strings.Contains(c.Why, "another subgroup") || c.Because == "" {
			t.Errorf("crossing %%%s -> %s lacks its cost or reasons: %+v", c.Value, c.Consumer, c)
		}
	}
	for _, name := range []string{"m_new", "l_new"} {
		if r := opPlan(t, p, name); r.Subgroups != 2 {
			t.Errorf("reduction %s combines %d subgroups, want 2", name, r.Subgroups)
		}
	}
	if s := opPlan(t, p, "s"); len(s.Considered) < 2 {
		t.Errorf("mma s lists %d arrangements considered", len(s.Considered))
	}
}

// Every graph under testdata/graphs solves to a proven optimum and its plan
// matches testdata/plans/<name>.txt and .json; the same input gives the
// same bytes twice.
func TestGoldenPlans(t *testing.T) {
	graphs, _ := filepath.Glob("../../testdata/graphs/*.toml")
	if len(graphs) < 8 {
		t.Fatalf("only %d graphs", len(graphs))
	}
	root, _ := filepath.Abs("../..")
	for _, g := range graphs {
		name := strings.TrimSuffix(filepath.Base(g), ".toml")
		t.Run(name, func(t *testing.T) {
			t.Chdir(root)
			rel := "testdata/graphs/" + name + ".toml"
			for _, format := range []string{"text", "json"} {
				var out, again bytes.Buffer
				if code := Main([]string{"solve", "--format", format, rel}, &out, &out); code != 0 {
					t.Fatalf("exit %d: %s", code, out.String())
				}
				Main([]string{"solve", "--format", format, rel}, &again, &again)
				if out.String() != again.String() {
					t.Fatalf("%s: two runs differ", format)
				}
				if format == "text" && !strings.Contains(out.String(), "status optimal") {
					t.Fatalf("not proven optimal:\n%s", out.String())
				}
				ext := map[string]string{"text": ".txt", "json": ".json"}[format]
				goldenCompare(t, filepath.Join("testdata/plans", name+ext), out.String())
			}
		})
	}
}

func goldenCompare(t *testing.T, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if err == nil && string(want) == got {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s differs (go test -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
}
