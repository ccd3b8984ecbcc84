package planner_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner"
)

// TestDotScaledDecomposedOnSM100 holds a tt.dot_scaled on sm_100 to the
// decomposition Triton applies where no block-scaled mma runs one
// (triton-lang/triton lib/Dialect/TritonGPU/Transforms/DecomposeScaledBlocked.cpp):
// scaleArg upcasts each side with tt.fp_to_fp, an e2m1 side (an i8 tensor
// of two elements a byte along K) with ttg.fp4_to_fp along K; scaleTo16 makes a ue8m0
// scale a bf16 factor with arith.extui to i16, arith.shli by a splat of 7
// (bf16's mantissa width) and tt.bitcast; maskNan, unless fastMath, makes
// a scale of 0xFF NaN (arith.constant, arith.cmpi eq, arith.select; the
// planner selects a NaN's bits into the factor, whose product is NaN as
// the select of the product is); broadcastScale spreads it over the block
// of K with tt.expand_dims, tt.broadcast and tt.reshape (B's scale, N ×
// K/32, transposed to K × N, here after the reshape); arith.mulf
// multiplies it in, and a tt.dot of the two replaces the op. The plan
// says what it decomposed and why; the kernel written back holds those
// ops in that order, each on a line of its own in place of the
// tt.dot_scaled, its tt.dot on mma.sync's bf16 record; read again, it
// plans to the same cost.
func TestDotScaledDecomposedOnSM100(t *testing.T) {
	for _, k := range []struct {
		path   string
		line   string // the tt.dot_scaled's line:col
		up     [2]string
		upcast string // the provenance's upcasts
	}{
		{"testdata/want/dot_scaled_sm100.ttgir", "61:5", [2]string{"tt.fp_to_fp", "tt.fp_to_fp"}, "(tt.fp_to_fp)"},
		{"testdata/want/dot_scaled_e2m1_sm100.ttgir", "68:5", [2]string{"ttg.fp4_to_fp", "ttg.fp4_to_fp"}, "(ttg.fp4_to_fp)"},
		{"testdata/want/dot_scaled_e2m1_e4m3_sm100.ttgir", "59:5", [2]string{"ttg.fp4_to_fp", "tt.fp_to_fp"}, "(ttg.fp4_to_fp and tt.fp_to_fp)"},
	} {
		t.Run(filepath.Base(k.path), func(t *testing.T) { decomposedOnSM100(t, k.path, k.line, k.up, k.upcast) })
	}
}

func decomposedOnSM100(t *testing.T, path, line string, up [2]string, upcast string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scale := []string{"arith.extui", "arith.constant", "arith.shli"}
	nan := []string{"arith.constant", "arith.cmpi", "arith.constant", "arith.select"}
	spread := []string{"tt.bitcast", "tt.expand_dims", "tt.broadcast", "tt.reshape"}
	side := func(masked bool, transposed bool) []string {
		ops := append([]string{up[0]}, scale...)
		if transposed {
			ops[0] = up[1]
		}
		if masked {
			ops = append(ops, nan...)
		}
		ops = append(ops, spread...)
		if transposed {
			ops = append(ops, "tt.trans")
		}
		return append(ops, "arith.mulf")
	}
	for _, tc := range []struct {
		name     string
		fastMath string
		ops      []string
	}{
		{"nan_masked", "false", slices.Concat(side(true, false), side(true, true), []string{"tt.dot"})},
		{"fast_math", "true", slices.Concat(side(false, false), side(false, true), []string{"tt.dot"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.ReplaceAll(src, []byte("fastMath = false"), []byte("fastMath = "+tc.fastMath))
			pl := testPlanner(t)
			res := solveMLIR(t, path, data, planner.Input{})
			if !slices.ContainsFunc(res.Plan.Provenance, func(l string) bool {
				return strings.Contains(l, "tt.dot_scaled %d at "+path+":"+line+" decomposed") && strings.Contains(l, "upcast to bf16 "+upcast) && strings.Contains(l, "tcgen05.mma ... block_scale")
			}) {
				t.Errorf("the plan's provenance does not say the tt.dot_scaled at %s was decomposed, with %s, and why: %q", line, upcast, res.Plan.Provenance)
			}
			for _, op := range res.Plan.Ops {
				if op.Name == "d" && op.Intrinsic != "mma_m16n8k16_f32_bf16" {
					t.Errorf("the decomposition's tt.dot runs on %q, want mma_m16n8k16_f32_bf16", op.Intrinsic)
				}
			}
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, planner.Input{}, res); err != nil {
				t.Fatal(err)
			}
			written := out.String()
			if slices.ContainsFunc(strings.Split(written, "\n"), func(l string) bool {
				return strings.Contains(l, "= tt.dot_scaled")
			}) {
				t.Errorf("the kernel written back keeps the tt.dot_scaled")
			}
			var ops []string
			for _, l := range strings.Split(written, "\n") {
				if !strings.HasPrefix(l, "    %d_") && !strings.HasPrefix(l, "    %d =") {
					continue
				}
				f := strings.Fields(l)
				if len(f) < 3 || strings.Count(l, " = ") < 1 {
					t.Errorf("not one op a line: %q", l)
					continue
				}
				if f[2] != "ttg.convert_layout" { // the plan's conversions
					ops = append(ops, f[2])
				}
			}
			if !slices.Equal(ops, tc.ops) {
				t.Errorf("written ops in place of the tt.dot_scaled:\n got %q\nwant %q", ops, tc.ops)
			}
			again := solveMLIR(t, path, out.Bytes(), planner.Input{})
			if again.Plan.Cost != res.Plan.Cost {
				t.Errorf("the written kernel plans to %d, the kernel to %d", again.Plan.Cost, res.Plan.Cost)
			}
		})
	}
}
