package ttgir

import (
	"os"
	"slices"
	"testing"

	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// TestScaledOperandsConvertWhereTheKernelCan reads tt.dot_scaled kernels
// and holds the block-scaled mma's operands that the kernel written back
// has no tensor for to no_convert: an e2m1 side read through its unpack
// (the i8 tensor converts, before it) and B's scale read through its
// transpose (Triton's N×K/32 tensor converts, before it). Operands of
// one element each (e4m3), C and A's scale convert where they are read.
func TestScaledOperandsConvertWhereTheKernelCan(t *testing.T) {
	for _, c := range []struct {
		path string
		want []bool // a, b, c, scale_a, scale_b
	}{
		{"../testdata/want/dot_scaled_gfx950.ttgir", []bool{false, false, false, false, true}},
		{"../testdata/want/dot_scaled_e2m1_gfx950.ttgir", []bool{true, true, false, false, true}},
		{"../testdata/want/dot_scaled_e2m1_sm120.ttgir", []bool{true, true, false, false, true}},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := read(c.path, data, reader.Options{Targets: ttTargets, Offered: mlirtest.Offered})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		found := 0
		b.Graph().Walk(func(op *model.Op) {
			if op.Kind != model.OpMMAScaled {
				return
			}
			found++
			if got := op.NoConvert; !slices.Equal(got, c.want) {
				t.Errorf("%s: no_convert %v, want %v", c.path, got, c.want)
			}
		})
		if found != 1 {
			t.Errorf("%s: %d block-scaled mma ops, want 1", c.path, found)
		}
	}
}
