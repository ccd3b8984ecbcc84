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
// prints it after tritongpu-accelerate-matmul, and what the tool cannot do
// with each yet, as the message it gives: rejected, the reader's refusal;
// unwritten, the error of reading back what --format mlir writes. The
// test checks that each still fails so, and fails once it does not, so
// that the example joins the others. moreConversions says why the plan
// converts more often than the input does, where it does.
var ttgirExamples = []struct {
	name            string
	rejected        string
	unwritten       string
	moreConversions string
}{
	{name: "chained_dots_sm80", unwritten: "%ab is used as"},
	{name: "flash_attention_fwd_sm80", unwritten: "%k_ptrs is used as"},
	{name: "flash_attention_fwd_sm90", rejected: "ttng.warp_group_dot is not understood"},
	{name: "layernorm_sm80", unwritten: "is used as",
		moreConversions: "W and B (one f32 per column) cost 258 each loaded whole by every warp, as the input's slice of #blocked has them, against 33 loaded spread over the warps and 33 to convert"},
	{name: "matmul_bias_relu_gfx942", unwritten: "undefined attribute alias"},
	{name: "matmul_bias_relu_sm80", unwritten: "%b_ptrs is used as"},
	{name: "softmax_sm80"},
	{name: "transpose_smem_sm80"},
}

// convertOps counts the ttg.convert_layout ops of TTGIR text (the older
// triton_gpu. spelling too), comments left out.
func convertOps(text string) int {
	n := 0
	for _, line := range strings.Split(text, "\n") {
		if code, _, _ := strings.Cut(line, "//"); strings.Contains(code, "ttg.convert_layout ") || strings.Contains(code, "triton_gpu.convert_layout ") {
			n++
		}
	}
	return n
}

// knownFailure checks err against the failure a table entry expects (want
// its message, "" none) and says whether the test stops there.
func knownFailure(t *testing.T, err error, want, what string) bool {
	t.Helper()
	switch {
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("want %s with %q, got %v", what, want, err)
	case want == "" && err != nil:
		t.Fatal(err)
	}
	return want != ""
}

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
			if stop := knownFailure(t, err, ex.rejected, "the reader to refuse it"); stop {
				return
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
			var back *Result
			if err == nil {
				back, err = pl.SolveText(ctx, path+".planned.ttgir", out.Bytes(), Options{})
			}
			if stop := knownFailure(t, err, ex.unwritten, "writing it back to fail"); stop {
				return
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
