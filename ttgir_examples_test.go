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
// refusal of an example it cannot read yet: the test checks that it still
// refuses it so, and fails once it reads it, so that the example joins
// the others. moreConversions says why the plan converts more often than
// the input does, where it does.
var ttgirExamples = []struct {
	name            string
	rejected        string
	moreConversions string
}{
	{name: "chained_dots_sm80"},
	{name: "flash_attention_fwd_sm80"},
	{name: "flash_attention_fwd_sm90", rejected: "ttng.warp_group_dot is not understood"},
	{name: "layernorm_sm80",
		moreConversions: "W and B (one f32 per column) cost 258 each loaded whole by every warp, as the input's slice of #blocked has them, against 33 loaded spread over the warps and 33 to convert"},
	{name: "matmul_bias_relu_gfx942"},
	{name: "matmul_bias_relu_sm80"},
	{name: "softmax_sm80"},
	{name: "transpose_smem_sm80"},
}

// convertOps counts the ttg.convert_layout ops of TTGIR text (the older
// triton_gpu. spelling too), comments left out.
func convertOps(text string) int { return len(convertRE.FindAllString(text, -1)) }

// Every example plans, to the golden plan under testdata/ttgir_plans (with
// --compare input's section); the plan costs no more than the input's own
// layout choice priced by the same model (--compare input: its encodings
// pinned, each ttg.convert_layout a conversion) and converts no more often than
// the input has ttg.convert_layout ops; written back with --format mlir
// (golden under testdata/ttgir_out) it has no more of them than the input
// and reads back to the same cost.
func TestTTGIRExamples(t *testing.T) {
	files, _ := filepath.Glob("examples/ttgir/*.ttgir")
	if len(files) != len(ttgirExamples) {
		t.Errorf("examples/ttgir has %d kernels, the table %d", len(files), len(ttgirExamples))
	}
	pl := testPlanner(t)
	ctx := context.Background()
	for _, ex := range ttgirExamples {
		t.Run(ex.name, func(t *testing.T) {
			path := filepath.Join("examples", "ttgir", ex.name+".ttgir")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pl.SolveText(ctx, path, data, Options{CompareInput: true})
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
			var text bytes.Buffer
			if err := res.Plan.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", "ttgir_plans", ex.name+".txt"), text.String())

			own := res.Plan.Compare
			if own == nil || own.NoPlan != "" {
				t.Fatalf("the input's own layouts are not priced: %+v", own)
			}
			if res.Plan.Cost > own.BaselineCost {
				t.Errorf("the plan costs %d, more than the input's own layouts (%d)", res.Plan.Cost, own.BaselineCost)
			}
			in := convertOps(string(data))
			if more := len(res.Plan.Conv) > in; more != (ex.moreConversions != "") {
				t.Errorf("the plan converts %d times, the input has %d ttg.convert_layout ops (the table says: %q)", len(res.Plan.Conv), in, ex.moreConversions)
			}
			t.Logf("plan %d with %d conversions; the input's own layouts %d with %d", res.Plan.Cost, len(res.Plan.Conv), own.BaselineCost, in)

			var out bytes.Buffer
			err = pl.WriteMLIR(&out, path, data, Input{}, res)
			if err != nil {
				t.Fatal(err)
			}
			back, err := pl.SolveText(ctx, path+".planned.ttgir", out.Bytes(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", "ttgir_out", ex.name+".ttgir"), out.String())
			if got := convertOps(out.String()); got > in && ex.moreConversions == "" {
				t.Errorf("written back with %d ttg.convert_layout ops, more than the input's %d", got, in)
			}
			if back.Plan == nil || back.Plan.Cost != res.Plan.Cost {
				t.Errorf("read back, the plan is %v, first %d", back.Plan, res.Plan.Cost)
			}
		})
	}
}
