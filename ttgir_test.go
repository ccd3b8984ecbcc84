package planner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/plans"
)

// ttgirKernels are the TTGIR kernels the tests plan and write back.
func ttgirKernels(t *testing.T) []string {
	var files []string
	for _, glob := range []string{"mlir/testdata/ttgir/*.ttgir"} { // examples/ttgir: TestTTGIRExamples
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("%d TTGIR kernels, want at least 3", len(files))
	}
	return files
}

// --format mlir on TTGIR: each kernel written back with its plan (golden
// files under testdata/ttgir_out) reads back to the same cost, and
// written again has as many ttg.convert_layout ops, one for each
// conversion of a value the IR names.
func TestWriteTTGIRRoundTrip(t *testing.T) {
	pl := testPlanner(t)
	for _, path := range ttgirKernels(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first := solveMLIR(t, path, data, Input{})
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, Input{}, first); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", "ttgir_out", filepath.Base(path)), out.String())
			converts := func(s string) int {
				return strings.Count(s, "ttg.convert_layout") + strings.Count(s, "triton_gpu.convert_layout")
			}
			if in, got := converts(string(data)), converts(out.String()); got > in {
				t.Errorf("the plan has %d convert_layouts, more than the input's %d", got, in)
			}
			if got := converts(out.String()); got > len(first.Plan.Conv) {
				t.Errorf("%d convert_layouts written for a plan of %d conversions", got, len(first.Plan.Conv))
			}
			second := solveMLIR(t, path+".planned.ttgir", out.Bytes(), Input{})
			if second.Plan.Cost != first.Plan.Cost {
				t.Errorf("read back, the plan costs %d, first %d", second.Plan.Cost, first.Plan.Cost)
			}
			var again bytes.Buffer
			if err := pl.WriteMLIR(&again, path+".planned.ttgir", out.Bytes(), Input{}, second); err != nil {
				t.Fatal(err)
			}
			if a, b := converts(out.String()), converts(again.String()); a != b {
				t.Errorf("written again, %d ttg.convert_layout ops; first %d", b, a)
			}
		})
	}
}

// --compare input: the input's own layouts priced by the same model cost
// no less than the plan; they make at most one conversion per
// convert_layout of the input; the JSON plan carries them and follows its
// schema.
func TestCompareInput(t *testing.T) {
	pl := testPlanner(t)
	set := compileSchemas(t)
	for _, path := range ttgirKernels(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pl.SolveText(context.Background(), path, data, Options{CompareInput: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Plan == nil {
				t.Fatalf("no plan: %s", res.Why)
			}
			c := res.Plan.Compare
			if c == nil || c.Baseline != plans.BaselineInput || c.NoPlan != "" {
				t.Fatalf("no comparison with the input's layouts: %+v", c)
			}
			if c.BaselineCost < c.Cost {
				t.Errorf("the plan costs %d, more than the input's own layouts, %d", c.Cost, c.BaselineCost)
			}
			if in := strings.Count(string(data), "convert_layout"); len(c.Conversions) > in {
				t.Errorf("the input's layouts make %d conversions but it has %d convert_layouts", len(c.Conversions), in)
			}
			var js bytes.Buffer
			if err := res.Plan.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			if msg := set.Check("plan", js.Bytes()); msg != "" {
				t.Errorf("the plan's JSON breaks schema/plan.schema.json:\n%s", msg)
			}
		})
	}
	// A kernel in the vector dialect states no Triton layouts to price.
	data, err := os.ReadFile("examples/mlir/softmax_row.mlir")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.SolveText(context.Background(), "examples/mlir/softmax_row.mlir", data, Options{CompareInput: true}); err == nil || !strings.Contains(err.Error(), "not TTGIR") {
		t.Errorf("--compare input on the vector dialect: %v, want an error saying it is not TTGIR", err)
	}
}
