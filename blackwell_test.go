package planner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
)

// On sm_100 and sm_120 a GEMM plans with mma.sync: the tcgen05 records
// (operands in tensor memory) are described but never chosen, nor even
// considered, and the block-scaled records (scale operands) run the
// block-scaled products alone (mma_scaled); a plain mma naming one has no
// plan rather than a crash.
func TestBlackwellRecordsAreNotPlanned(t *testing.T) {
	src, err := os.ReadFile("testdata/graphs/gemm_epilogue.toml")
	if err != nil {
		t.Fatal(err)
	}
	// An fp8 GEMM on sm_120: the plain kind::f8f6f4 record runs it; the
	// block-scaled mxf8f6f4 one has the same operands and layouts but
	// scale operands, and is not considered.
	p := solveFile(t, writeGraph(t, "fp8.toml", fp8GEMM))
	d := opPlan(t, p, "acc")
	if d.Intrinsic != "mma_f8f6f4_m16n8k32_f32_e4m3" || len(d.Considered) == 0 {
		t.Errorf("the fp8 mma runs %q among %v", d.Intrinsic, d.Considered)
	}
	for _, c := range d.Considered {
		if strings.Contains(c.Record, "mxf") {
			t.Errorf("the fp8 mma considered %s", c)
		}
	}
	for _, target := range []string{"sm_100", "sm_120"} {
		g := golden.ReplaceOnce(t, string(src), `target = "sm_80"`, `target = "`+target+`"`)
		path := writeGraph(t, target+".toml", g)
		p := solveFile(t, path)
		d := opPlan(t, p, "acc")
		if !strings.HasPrefix(d.Intrinsic, "mma_m16n8k16_f32_f16") {
			t.Errorf("%s: the mma runs %s", target, d.Intrinsic)
		}
		for _, c := range d.Considered {
			if strings.Contains(c.Record, "tcgen05") || strings.Contains(c.Record, "mxf") || strings.Contains(c.Record, "f8f6f4") {
				t.Errorf("%s: the mma considered %s", target, c)
			}
		}

		named := golden.ReplaceOnce(t, g, `result = "acc"`, "result = \"acc\"\nintrinsic = \"tcgen05_mma_m128n128k16_f32_f16\"")
		if target == "sm_120" {
			named = golden.ReplaceOnce(t, g, `result = "acc"`, "result = \"acc\"\nintrinsic = \"mma_mxf8f6f4_m16n8k32_f32_e4m3_ue8m0\"")
		}
		if err := os.WriteFile(path, []byte(named), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := testPlanner(t).SolveFile(context.Background(), path, planner.Options{})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if res.Plan != nil || res.Why == "" {
			t.Errorf("%s: an mma naming a record it cannot run on got a plan (%v) or no reason (%q)", target, res.Plan != nil, res.Why)
		}
		// The explanation's fact gives the record's own reason: where its
		// operands live, or its scale operands.
		ex, err := testPlanner(t).Explain(context.Background(), res, 0, planner.Options{})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		want := map[string]string{"sm_100": "lives in tensor memory", "sm_120": "a block-scaled mma, which multiplies A and B by scale operands this product has not"}[target]
		var texts []string
		for _, f := range ex.Core {
			texts = append(texts, f.Text)
		}
		if !strings.Contains(strings.Join(texts, "\n"), want) {
			t.Errorf("%s: no fact of the explanation says %q: %q", target, want, texts)
		}
	}
}

func writeGraph(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const fp8GEMM = `target = "sm_120"
subgroups = 4

[[op]]
kind = "load"
result = "a"
shape = [64, 32]
dtype = "f8e4m3"
contiguous = 1

[[op]]
kind = "load"
result = "b"
shape = [32, 64]
dtype = "f8e4m3"
contiguous = 0

[[op]]
kind = "constant"
result = "zero"
shape = [64, 64]
dtype = "f32"

[[op]]
kind = "mma"
a = "a"
b = "b"
c = "zero"
result = "acc"

[[op]]
kind = "store"
operands = ["acc"]
contiguous = 1
`
