package oracle

import (
	"strings"
	"testing"
)

// A small TTGIR kernel written for this test: a 32x32 f32 tile loaded and
// stored back doubled, in one #ttg.blocked encoding, on sm_80 with 4 warps
// (the syntax of include/triton/Dialect/Triton/IR/TritonOps.td in
// triton-lang/triton).
const goodTTGIR = `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @double(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %k = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %rk = arith.muli %r2, %k : tensor<32x1xi32, #blocked>
    %rb = tt.broadcast %rk : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %off : tensor<32x32x!tt.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
    %x = tt.load %ptrs : tensor<32x32x!tt.ptr<f32>, #blocked>
    %y = arith.addf %x, %x : tensor<32x32xf32, #blocked>
    tt.store %ptrs, %y : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
`

// The judge accepts a valid kernel and refuses broken ones at the stage
// that breaks, with Triton's message: a use typed otherwise than its
// definition (another encoding) and an unknown op both fail the parse.
func TestJudgeTTGIR(t *testing.T) {
	mixed := strings.Replace(goodTTGIR, "%y = arith.addf %x, %x : tensor<32x32xf32, #blocked>",
		"%x2 = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>>\n    %y = arith.addf %x, %x2 : tensor<32x32xf32, #blocked>", 1)
	if mixed == goodTTGIR {
		t.Fatal("the edit of the good kernel did not happen")
	}
	unknown := strings.Replace(goodTTGIR, "tt.return", "tt.no_such_op\n    tt.return", 1)
	jobs := []Job{
		{Name: "good.ttgir", Text: []byte(goodTTGIR), Compile: true},
		{Name: "mixed.ttgir", Text: []byte(mixed), Compile: true},
		{Name: "unknown.ttgir", Text: []byte(unknown), Compile: true},
		{Name: "retargeted.ttgir", Text: []byte(goodTTGIR), Target: "hip:gfx942", Compile: true},
	}
	v := TTGIR(t, jobs)
	if !v[0].OK {
		t.Errorf("a valid kernel refused: %v", v[0])
	}
	for _, bad := range v[1:3] {
		if bad.OK || bad.Stage != "parse" || !strings.Contains(bad.Message, "error") {
			t.Errorf("%s: want refused at parse with Triton's error, got %+v", bad.Job.Name, bad)
		}
	}
	if !v[3].OK || v[3].Target != "hip:gfx942" {
		t.Errorf("the job's target is not the one compiled for: %+v", v[3])
	}
}

// IREE's own context knows its attributes and refuses what it does not
// know, even in a dialect it has.
func TestJudgeIREE(t *testing.T) {
	good := `#layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [4, 1], subgroup_strides = [0, 0], thread_strides = [16, 1]>
func.func @anchor(%v: vector<16x16xf16>) -> vector<16x16xf16> {
  %a = iree_vector_ext.to_layout %v to layout(#layout) : vector<16x16xf16>
  return %a : vector<16x16xf16>
}
`
	bad := strings.Replace(good, "thread_tile", "lane_tile", 1)
	v := IREE(t, []Job{{Name: "good.mlir", Text: []byte(good)}, {Name: "bad.mlir", Text: []byte(bad)}})
	if !v[0].OK {
		t.Errorf("a valid module refused: %v", v[0])
	}
	if v[1].OK {
		t.Errorf("a nested_layout with an unknown field accepted")
	}
}

func TestTritonTarget(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sm_80", "cuda:80"}, {"sm_90", "cuda:90"}, {"gfx942", "hip:gfx942"}, {"gfx1100_wave64", ""}, {"pvc", ""},
	} {
		if got := TritonTarget(c.in); got != c.want {
			t.Errorf("TritonTarget(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// scaledTTGIR is an MXFP8 product for cuda:100 as it stands before
// Triton's AccelerateMatmul: a tt.dot_scaled of blocked tensors.
const scaledTTGIR = `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%pa: !tt.ptr<f8E4M3FN>, %ps: !tt.ptr<i8>, %pc: !tt.ptr<f32>) {
    %ap = tt.splat %pa : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>
    %a = tt.load %ap : tensor<64x64x!tt.ptr<f8E4M3FN>, #blocked>
    %sp = tt.splat %ps : !tt.ptr<i8> -> tensor<64x2x!tt.ptr<i8>, #blocked>
    %s = tt.load %sp : tensor<64x2x!tt.ptr<i8>, #blocked>
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot_scaled %a scale %s, %a scale %s, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E4M3FN, #blocked>, tensor<64x2xi8, #blocked> * tensor<64x64xf8E4M3FN, #blocked>, tensor<64x2xi8, #blocked> -> tensor<64x64xf32, #blocked>
    %cp = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %cp, %d : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
`

// A tt.dot_scaled for cuda:100 before AccelerateMatmul: no stage after
// ttgir lowers it, so compiled from there it is refused; compiled after
// AccelerateMatmul and the rest of make_ttgir (Accelerate) it is
// accepted.
func TestJudgeAccelerate(t *testing.T) {
	v := TTGIR(t, []Job{
		{Name: "straight.ttgir", Text: []byte(scaledTTGIR), Compile: true},
		{Name: "accelerated.ttgir", Text: []byte(scaledTTGIR), Compile: true, Accelerate: true},
	})
	if v[0].OK {
		t.Errorf("a tt.dot_scaled for cuda:100 compiled from the ttgir stage: %v", v[0])
	}
	if !v[1].OK {
		t.Errorf("refused after AccelerateMatmul: %v", v[1])
	}
}
