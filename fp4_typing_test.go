package planner_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"planner"
)

// TestFp4ToFpTyping holds the typing check's rule for ttg.fp4_to_fp
// (fp4Unpacked) to the encodings Triton 3.9 itself writes: its
// DecomposeScaledBlocked, run by tritongpu-accelerate-matmul for cuda:100
// on testdata/want/dot_scaled_e2m1_sm100.ttgir, gives A's bytes in
// #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4],
// warpsPerCTA = [4, 1], order = [1, 0]}> unpacked along 1 the #ttg.blocked
// of sizePerThread [1, 32], and B's in sizePerThread [1, 4],
// threadsPerWarp [32, 1], warpsPerCTA [2, 2] unpacked along 0 the
// #ttg.linear below; and to layouts Triton's verifier refuses ("Src and
// Dst encodings are not compatible"): the pair in a higher register, a
// row of lanes left out.
func TestFp4ToFpTyping(t *testing.T) {
	const (
		a      = "#ttg.blocked<{sizePerThread=[1,16],threadsPerWarp=[8,4],warpsPerCTA=[4,1],order=[1,0]}>"
		aUp    = "#ttg.blocked<{sizePerThread=[1,32],threadsPerWarp=[8,4],warpsPerCTA=[4,1],order=[1,0]}>"
		b      = "#ttg.blocked<{sizePerThread=[1,4],threadsPerWarp=[32,1],warpsPerCTA=[2,2],order=[1,0]}>"
		bUp    = "#ttg.linear<{register=[[1,0],[0,1],[0,2],[0,8],[0,16],[0,32],[128,0]],lane=[[2,0],[4,0],[8,0],[16,0],[32,0]],warp=[[0,4],[64,0]],block=[]}>"
		bHigh  = "#ttg.linear<{register=[[0,1],[1,0],[0,2],[0,8],[0,16],[0,32]],lane=[[2,0],[4,0],[8,0],[16,0],[32,0]],warp=[[0,4],[64,0]],block=[]}>"
		w      = "#ttg.blocked<{sizePerThread=[1,4],threadsPerWarp=[4,8],warpsPerCTA=[4,1],order=[1,0]}>"
		wShort = "#ttg.linear<{register=[[1,0],[0,1],[0,2]],lane=[[0,4],[0,8],[0,16],[2,0],[4,0]],warp=[[8,0],[16,0]],block=[]}>"
	)
	for _, tc := range []struct {
		name     string
		in, out  string
		from, to []int
		axis     int
		bad      string // "" when Triton accepts it
	}{
		{"a_along_k", a, aUp, []int{64, 64}, []int{64, 128}, 1, ""},
		{"b_along_k", b, bUp, []int{64, 64}, []int{128, 64}, 0, ""},
		{"pair_not_lowest", b, bHigh, []int{64, 64}, []int{128, 64}, 0, "not the source unpacked"},
		{"blocked_unchanged", a, a, []int{64, 64}, []int{64, 128}, 1, "not the source unpacked"},
		{"rows_left_out", w, wShort, []int{32, 64}, []int{64, 64}, 0, "not the source unpacked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := fp4Unpacked(tc.in, tc.out, tc.from, tc.to, tc.axis, 4)
			if tc.bad == "" && why != "" || tc.bad != "" && !strings.Contains(why, tc.bad) {
				t.Errorf("fp4Unpacked = %q, want %q", why, tc.bad)
			}
		})
	}
}

// TestFp4ToFpWrittenTyping writes back each kernel of testdata/want with a
// ttg.fp4_to_fp, as its own op or in an sm_100 tt.dot_scaled's
// decomposition, and holds what is written to Triton's typing, the
// fp4_to_fp rule among the rest (the compiled judgement is
// TestCompilersJudgeWantKernels').
func TestFp4ToFpWrittenTyping(t *testing.T) {
	pl := testPlanner(t)
	for _, path := range []string{
		"testdata/want/fp4_weights_dot_sm80.ttgir",
		"testdata/want/dot_scaled_e2m1_sm100.ttgir",
		"testdata/want/dot_scaled_e2m1_e4m3_sm100.ttgir",
	} {
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res := solveMLIR(t, path, data, planner.Input{})
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, planner.Input{}, res); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out.String(), "= ttg.fp4_to_fp "); n == 0 {
				t.Fatalf("no ttg.fp4_to_fp written back")
			}
			bad, err := tritonTyping(path+".planned.ttgir", out.Bytes())
			if err != nil || len(bad) > 0 {
				t.Errorf("written back, it breaks Triton's typing: %v\n%s", err, strings.Join(bad, "\n"))
			}
		})
	}
}
