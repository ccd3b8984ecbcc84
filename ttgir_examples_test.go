package planner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
)

// The Triton kernels of examples/ttgir (docs/triton.md), each as Triton
// prints it after tritongpu-accelerate-matmul. rejected is the reader's
// message for an example it cannot read yet: the test checks that it
// still says so, and fails once the example reads, to be moved among the
// planned ones.
var ttgirExamples = []struct {
	name     string
	rejected string
}{
	{"chained_dots_sm80", ""},
	{"flash_attention_fwd_sm80", ""},
	{"flash_attention_fwd_sm90", ""},
	{"layernorm_sm80", ""},
	{"matmul_bias_relu_gfx942", ""},
	{"matmul_bias_relu_sm80", ""},
	{"softmax_sm80", ""},
	{"transpose_smem_sm80", ""},
}

// Every example plans, to the golden plan under testdata/ttgir_plans, and
// the plan costs no more than the input's own layout choice priced by the
// same model (its encodings pinned, each ttg.convert_layout a conversion:
// what planner solve --compare input prices).
func TestTTGIRExamples(t *testing.T) {
	files, _ := filepath.Glob("examples/ttgir/*.ttgir")
	if len(files) != len(ttgirExamples) {
		t.Errorf("examples/ttgir has %d kernels, the table %d", len(files), len(ttgirExamples))
	}
	pl := testPlanner(t)
	for _, ex := range ttgirExamples {
		t.Run(ex.name, func(t *testing.T) {
			path := filepath.Join("examples", "ttgir", ex.name+".ttgir")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pl.SolveText(context.Background(), path, data, Options{})
			if ex.rejected != "" {
				if err == nil || !strings.Contains(err.Error(), ex.rejected) {
					t.Fatalf("want the reader to refuse it with %q, got %v", ex.rejected, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Plan == nil || res.Plan.Status != "optimal" {
				t.Fatalf("no optimal plan: %s", res.Why)
			}
			var out bytes.Buffer
			if err := res.Plan.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", "ttgir_plans", ex.name+".txt"), out.String())

			own, err := pl.SolveText(context.Background(), path, data, Options{Input: Input{InputLayouts: true}})
			if err != nil {
				t.Fatal(err)
			}
			if own.Plan == nil {
				t.Fatalf("the input's own layouts cannot be priced: %s", own.Why)
			}
			if res.Plan.Cost > own.Plan.Cost {
				t.Errorf("the plan costs %d, more than the input's own layouts (%d)", res.Plan.Cost, own.Plan.Cost)
			}
			t.Logf("plan %d, input's own layouts %d", res.Plan.Cost, own.Plan.Cost)
		})
	}
}
