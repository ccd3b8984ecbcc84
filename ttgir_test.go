package planner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
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
