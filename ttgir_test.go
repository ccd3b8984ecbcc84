package planner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/plans"
)

// convertRE finds the convert_layout ops of TTGIR text (not its comments).
var convertRE = regexp.MustCompile(`(?m)^\s*%[^=/]*=\s*"?(ttg|triton_gpu)\.convert_layout`)

// ttgirRefused are the examples the reader refuses (TestTTGIRExamples
// checks why): Hopper's ttng.warp_group_dot reads its operands from
// shared memory, which the reader does not follow.
var ttgirRefused = []string{"flash_attention_fwd_sm90.ttgir"}

// ttgirKernels are the TTGIR kernels the tests plan and write back.
func ttgirKernels(t *testing.T) []string {
	var files []string
	for _, glob := range []string{"mlir/testdata/ttgir/*.ttgir", "examples/ttgir/*.ttgir"} {
		m, _ := filepath.Glob(glob)
		for _, f := range m {
			if !slices.Contains(ttgirRefused, filepath.Base(f)) {
				files = append(files, f)
			}
		}
	}
	if len(files) < 3 {
		t.Fatalf("%d TTGIR kernels, want at least 3", len(files))
	}
	return files
}

// --format mlir on TTGIR: each kernel written back with its plan (golden
// files under testdata/ttgir_out) reads back to the same cost, has at
// most one ttg.convert_layout per conversion of the plan, and written
// again has as many.
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
			converts := func(s string) int { return len(convertRE.FindAllString(s, -1)) }
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
// no less than the plan; they convert the values the IR names at most
// once per convert_layout of the input; the JSON plan carries them and follows its
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
			named := 0 // conversions of values the IR names, not of those the reader makes (%x@mem)
			for _, cv := range c.Conversions {
				if !strings.Contains(cv.Value, "@") {
					named++
				}
			}
			if in := len(convertRE.FindAllString(string(data), -1)); named > in {
				t.Errorf("the input's layouts make %d conversions of its values but it has %d convert_layouts", named, in)
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
