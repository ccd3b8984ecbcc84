package ttgir

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// TestFp4ToFpRead reads ttg.fp4_to_fp as Triton defines it (TTG_Fp4ToFpOp;
// Fp4ToFpOp::verify in lib/Dialect/TritonGPU/IR/Ops.cpp: the source an
// i8 tensor, the result's axis twice the source's, bf16 or f16): an
// unpack of the source along the op's axis into f4e2m1, and an extf of
// that to the result's type which reads the unpack without conversion
// (no tensor of 4-bit elements is written between them); and refuses,
// at the op, a result of another element type, an axis out of range and
// a result encoding that is not the source's unpacked (the byte's pair in
// a new lowest register; along the rows a #ttg.linear, along a blocked's
// fastest dimension its sizePerThread doubled).
func TestFp4ToFpRead(t *testing.T) {
	const kernel = `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = RES_ENC
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%pa: !tt.ptr<i8>, %pc: !tt.ptr<ELEM>) {
    %ap = tt.splat %pa : !tt.ptr<i8> -> tensor<32x32x!tt.ptr<i8>, #blocked>
    %a = tt.load %ap : tensor<32x32x!tt.ptr<i8>, #blocked>
    %u = ttg.fp4_to_fp %a {axis = AXIS : i32} : tensor<32x32xi8, #blocked> -> tensor<RESxELEM, #r>
    %cp = tt.splat %pc : !tt.ptr<ELEM> -> tensor<RESx!tt.ptr<ELEM>, #r>
    tt.store %cp, %u : tensor<RESx!tt.ptr<ELEM>, #r>
    tt.return
  }
}
`
	const (
		source  = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
		columns = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
		rows    = "#ttg.linear<{register = [[1, 0], [0, 1], [0, 2], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>"
		higher  = "#ttg.linear<{register = [[0, 1], [0, 2], [1, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>"
	)
	for _, tc := range []struct {
		name  string
		axis  int
		elem  string
		shape []int
		enc   string
		err   string // "" when read
	}{
		{"along_rows_bf16", 0, "bf16", []int{64, 32}, rows, ""},
		{"along_columns_f16", 1, "f16", []int{32, 64}, columns, ""},
		{"to_f32", 1, "f32", []int{32, 64}, columns, "ttg.fp4_to_fp gives bf16 or f16"},
		{"axis_out_of_range", 2, "bf16", []int{32, 64}, columns, "ttg.fp4_to_fp's axis 2 is out of range"},
		{"source_encoding_kept", 1, "bf16", []int{32, 64}, source, "which is not its source's layout unpacked along 1"},
		{"pair_in_a_higher_register", 0, "bf16", []int{64, 32}, higher, "which is not its source's layout unpacked along 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("RES_ENC", tc.enc, "AXIS", fmt.Sprint(tc.axis), "ELEM", tc.elem,
				"RES", fmt.Sprintf("%dx%d", tc.shape[0], tc.shape[1])).Replace(kernel)
			g, err := readKernelGraph("fp4.ttgir", []byte(src), reader.Options{Targets: ttTargets})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), "fp4.ttgir:7:5: ttg.fp4_to_fp") || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("read: %v, want an error at 7:5 containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var unpack, ext *model.Op
			g.Walk(func(op *model.Op) {
				switch op.Kind {
				case model.OpUnpack:
					unpack = op
				case model.OpCast:
					ext = op
				}
			})
			if unpack == nil || ext == nil {
				t.Fatalf("graph has unpack %v and cast %v, want both", unpack, ext)
			}
			if unpack.Axis != tc.axis || unpack.Result.DType.Name != "f4e2m1" || unpack.Operands[0].Name != "a" {
				t.Errorf("unpack of %s along %d to %s, want of a along %d to f4e2m1", unpack.Operands[0].Name, unpack.Axis, unpack.Result.DType.Name, tc.axis)
			}
			if ext.Fn != "extf" || ext.Operands[0] != unpack.Result || ext.Result.Name != "u" || ext.Result.DType.Name != tc.elem || fmt.Sprint(ext.Result.Shape) != fmt.Sprint(tc.shape) {
				t.Errorf("cast %s of %s to %%%s %v %s, want extf of the unpack to %%u %v %s", ext.Fn, ext.Operands[0].Name, ext.Result.Name, ext.Result.Shape, ext.Result.DType.Name, tc.shape, tc.elem)
			}
			if len(ext.NoConvert) != 1 || !ext.NoConvert[0] {
				t.Errorf("the extf may convert the unpack's layout (NoConvert %v)", ext.NoConvert)
			}
		})
	}
}

// TestFp4Encoding names a ttg.fp4_to_fp's result as Triton 3.9 infers it
// from its source's encoding (its DecomposeScaledBlocked for cuda:100, on
// testdata/want/dot_scaled_e2m1_sm100.ttgir, writes A's #ttg.blocked of
// sizePerThread [1, 16] unpacked along 1, its fastest dimension, as
// sizePerThread [1, 32]; B's of sizePerThread [1, 4], order [1, 0],
// unpacked along 0, which is not its fastest, as a #ttg.linear; and B's
// in sizePerThread [4, 1], order [0, 1], as sizePerThread [8, 1]): a
// blocked source unpacked along its
// fastest dimension gives the blocked of doubled sizePerThread there; any
// other the #ttg.linear of the result's layout, even where a blocked
// encoding would give that layout too.
func TestFp4Encoding(t *testing.T) {
	blocked := func(spt, tpw, wpc, order string) string {
		return fmt.Sprintf("#ttg.blocked<{sizePerThread = [%s], threadsPerWarp = [%s], warpsPerCTA = [%s], order = [%s]}>", spt, tpw, wpc, order)
	}
	for _, tc := range []struct {
		name     string
		src, res string // the result's layout as an encoding
		from     []int
		axis     int
		want     string
	}{
		{"fastest", blocked("1, 16", "8, 4", "4, 1", "1, 0"), blocked("1, 32", "8, 4", "4, 1", "1, 0"), []int{64, 64}, 1, blocked("1, 32", "8, 4", "4, 1", "1, 0")},
		{"fastest_column_major", blocked("4, 1", "1, 32", "2, 2", "0, 1"), blocked("8, 1", "1, 32", "2, 2", "0, 1"), []int{64, 64}, 0, blocked("8, 1", "1, 32", "2, 2", "0, 1")},
		{"slowest", blocked("1, 1", "1, 32", "4, 1", "1, 0"), blocked("2, 1", "1, 32", "4, 1", "1, 0"), []int{32, 64}, 0,
			"#ttg.linear<{register = [[1, 0], [0, 32], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[2, 0], [4, 0]], block = []}>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := notation.ParseTriton(tc.src, model.Pos{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := notation.ParseTriton(tc.res, model.Pos{})
			if err != nil {
				t.Fatal(err)
			}
			to := slices.Clone(tc.from)
			to[tc.axis] *= 2
			l, err := res.Layout(model.Frame{Shape: to, SubgroupSize: 32, Subgroups: 4})
			if err != nil {
				t.Fatal(err)
			}
			in, err := src.Layout(model.Frame{Shape: tc.from, SubgroupSize: 32, Subgroups: 4})
			if err != nil {
				t.Fatal(err)
			}
			if u := model.UnpackPairs(in, tc.axis); u == nil || !u.Equal(l) {
				t.Fatalf("%s is not %s unpacked along %d", tc.res, tc.src, tc.axis)
			}
			got := fp4Encoding(src.Enc, tc.axis, l)
			if got == nil || got.TritonAttr() != tc.want {
				t.Errorf("fp4Encoding = %v, want %s", got, tc.want)
			}
		})
	}
}
