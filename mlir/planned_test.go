package mlir

import (
	"os"
	"planner/mlir/mlirtest"
	"strings"
	"testing"

	"planner/plans"
)

// A plan that holds only its text (no value's exact layout) is refused,
// not written as a kernel with every layout missing.
func TestWriteRefusesPlanWithoutLayouts(t *testing.T) {
	const path = "testdata/ttgir/matmul_sm80.ttgir"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ReadKernel(path, data, Options{Targets: mlirtest.Targets, InputLayouts: true})
	if err != nil {
		t.Fatal(err)
	}
	p := &plans.Plan{File: path, Values: []plans.ValuePlan{{Name: "sa", Layout: "#blocked"}}}
	var out strings.Builder
	err = k.Write(&out, p)
	if err == nil || !strings.Contains(err.Error(), "no layout for %sa") {
		t.Errorf("a plan without layouts: got %v, want an error naming %%sa", err)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes of a plan it refused", out.Len())
	}
}
