package planner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/model"
	"planner/plans"
)

// The sm_90 GEMM with A and B in shared memory runs on wgmma: B is left in
// its buffer, placed in the 128-byte swizzle the descriptor reads, and the
// plan costs less than the best one that must use mma.sync (which reads B
// through ldmatrix.trans) and no more than greedy.
func TestSm90GEMMUsesWgmma(t *testing.T) {
	path := "testdata/graphs/sm90_wgmma_gemm.toml"
	p := solveFile(t, path)
	acc := opPlan(t, p, "acc")
	if acc.Intrinsic != "wgmma_m64n64k16_f32_f16" || acc.Warps != "1×1 groups of 4 warps" || !strings.Contains(acc.Method, "b from buffer Bs through its descriptor (swizzle 128B)") {
		t.Errorf("mma acc runs %s on %s: %s", acc.Intrinsic, acc.Warps, acc.Method)
	}
	if b := valuePlan(t, p, "b"); b.Notation != "shared" || b.Values != 0 {
		t.Errorf("%%b is %s %s, want it left in shared memory", b.Notation, b.Layout)
	}
	if b := opPlan(t, p, "b"); b.Cost != 0 {
		t.Errorf("the load of %%b costs %d, want no load", b.Cost)
	}
	bs := bufferPlan(t, p, "Bs")
	if bs.Placement != "swizzle 128B" {
		t.Errorf("Bs is placed %s", bs.Placement)
	}
	found := false
	for _, a := range bs.Accesses {
		found = found || a.Op == "acc" && a.Wavefronts == 32 && a.Conflicts == 0
	}
	if !found {
		t.Errorf("Bs lists no conflict-free read by acc of 32 wavefronts per warp: %+v", bs.Accesses)
	}

	pl := testPlanner(t)
	g, err := pl.ReadGraph(path)
	if err != nil {
		t.Fatal(err)
	}
	g.Walk(func(op *model.Op) {
		if op.Name == "acc" {
			op.Intrinsic = "mma_m16n8k16_f32_f16"
		}
	})
	res, err := pl.Solve(context.Background(), g, planner.Options{})
	if err != nil || res.Plan == nil {
		t.Fatalf("with mma.sync: %v", err)
	}
	if sync := res.Plan.Cost; p.Cost >= sync {
		t.Errorf("the wgmma plan costs %d, the mma.sync one %d", p.Cost, sync)
	}
	res, err = pl.SolveFile(context.Background(), path, planner.Options{Backend: "greedy"})
	if err != nil || res.Plan == nil {
		t.Fatalf("greedy: %v", err)
	}
	if res.Plan.Cost < p.Cost {
		t.Errorf("greedy costs %d, the solver %d", res.Plan.Cost, p.Cost)
	}
}

// writeVariant writes the sm_90 GEMM with its text edited into a
// temporary graph file.
func writeVariant(t *testing.T, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/graphs/sm90_wgmma_gemm.toml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "variant.toml")
	if err := os.WriteFile(path, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// On 8 warps the two warpgroups split M; the plan verifies (SolveFile
// replays it) with A and C fragments over both groups.
func TestWgmmaTwoWarpgroups(t *testing.T) {
	path := writeVariant(t, func(s string) string { return golden.ReplaceOnce(t, s, "subgroups = 4", "subgroups = 8") })
	acc := opPlan(t, solveFile(t, path), "acc")
	if acc.Intrinsic != "wgmma_m64n64k16_f32_f16" || acc.WarpsM != 2 || acc.WarpsN != 1 || !strings.Contains(acc.Method, "× 4 per warp") {
		t.Errorf("mma acc runs %s on %s: %s", acc.Intrinsic, acc.Warps, acc.Method)
	}
}

// When %b has another reader in registers, it is loaded for that reader
// and the wgmma still reads its buffer through the descriptor.
func TestWgmmaOperandAlsoLoaded(t *testing.T) {
	path := writeVariant(t, func(s string) string { return s + "\n[[op]]\nkind = \"store\"\noperands = [\"b\"]\n" })
	p := solveFile(t, path)
	acc := opPlan(t, p, "acc")
	if acc.Intrinsic != "wgmma_m64n64k16_f32_f16" {
		t.Errorf("mma acc runs %s", acc.Intrinsic)
	}
	if b := valuePlan(t, p, "b"); b.Notation == "shared" {
		t.Errorf("%%b is left in shared memory, but a store reads it")
	}
	for _, c := range p.Conv {
		if c.Value == "b" && c.Consumer == "acc" {
			t.Errorf("%%b is converted for the wgmma: %+v", c)
		}
	}
}

// The verifier replays the descriptor read: an assignment whose B buffer
// is placed dense (rows of 128 bytes unswizzled, no mode of the
// descriptor) is refused, as is an mma whose choice reads another
// placement than the buffer's.
func TestVerifyRefusesAnUnswizzledWgmmaBuffer(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/sm90_wgmma_gemm.toml")
	g, a := res.Problem.Graph, res.Assignment
	var acc *model.Op
	g.Walk(func(op *model.Op) {
		if op.Name == "acc" {
			acc = op
		}
	})
	var bs *model.Buffer
	for _, b := range g.Buffers {
		if b.Name == "Bs" {
			bs = b
		}
	}
	ch := a.Ops[acc]
	placed := a.Buffers[bs]
	dense := &model.SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "none"}
	a.Buffers[bs] = dense
	err := plans.Verify(g, a, plan)
	var ve *plans.VerifyError
	if !errors.As(err, &ve) || ve.Value != "b" || !strings.Contains(err.Error(), "reads buffer Bs as") {
		t.Errorf("a buffer placed apart from what the wgmma reads verified: %v", err)
	}
	ch.Buffer = dense
	err = plans.Verify(g, a, plan)
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "cannot read buffer Bs as placed") {
		t.Errorf("an unswizzled wgmma buffer verified: %v", err)
	}
	a.Buffers[bs], ch.Buffer = placed, placed
}

// With B's buffer stated padded (rows of 144 bytes, no mode of the
// descriptor), neither the solver nor the greedy baseline takes wgmma:
// greedy anchors the mma on a record whose operands it can read, and
// finds a plan.
func TestWgmmaRefusedForAPaddedBuffer(t *testing.T) {
	path := writeVariant(t, func(s string) string {
		return golden.ReplaceOnce(t, s, "[buffers.Bs]\n", "[buffers.Bs]\nrow_stride = 72\n")
	})
	p := solveFile(t, path)
	if acc := opPlan(t, p, "acc"); strings.HasPrefix(acc.Intrinsic, "wgmma") {
		t.Errorf("mma acc runs %s on a padded B buffer", acc.Intrinsic)
	}
	res, err := testPlanner(t).SolveFile(context.Background(), path, planner.Options{Backend: "greedy"})
	if err != nil || res.Plan == nil {
		t.Fatalf("greedy found no plan: %v", err)
	}
	if acc := opPlan(t, res.Plan, "acc"); strings.HasPrefix(acc.Intrinsic, "wgmma") || res.Plan.Cost < p.Cost {
		t.Errorf("greedy runs %s at %d, the solver %d", acc.Intrinsic, res.Plan.Cost, p.Cost)
	}
}

// Triton's sm_90 GEMMs whose B is several 128-byte swizzle atoms (N =
// 128 and 256 f16, Triton's instrShape [16, 128, 16] and [16, 256, 16]),
// held MN-major or K-major, and two warpgroups reading N = 32 slices of
// one atom (Triton's own instrShape [16, 32, 16] for 8 warps): B stays in shared memory, placed as Triton's
// #ttg.nvmma_shared places it (column blocks of 64, or column major),
// and the dot runs on the record Triton picks. Each failed on the code
// before: B's placement had to be one atom wide, MN-major, the tile as
// wide as the buffer's rows.
func TestWgmmaOperandsOfSeveralAtoms(t *testing.T) {
	for _, tc := range []struct {
		path, mma, buf, intrinsic, placement string
	}{
		{"testdata/want/wgmma_n128_sm90.ttgir", "acc_28", "b_27", "wgmma_m64n128k16_f32_f16", "column blocks of 64, swizzle 128B"},
		{"testdata/want/wgmma_n256_sm90.ttgir", "acc_29", "b_28", "wgmma_m64n256k16_f32_f16", "column blocks of 64, swizzle 128B"},
		{"testdata/want/wgmma_n128_kmajor_sm90.ttgir", "acc_28", "b_27", "wgmma_m64n128k16_f32_f16", "column major, swizzle 128B"},
		{"testdata/want/wgmma_n32_mid_atom_sm90.toml", "acc", "Bs", "wgmma_m64n32k16_f32_f16", "swizzle 128B"},
		// Triton's 8-warp GEMM: instrShape [16, 32, 16] on warpsPerCTA
		// [4, 2], the second group's 32 columns of B from the middle of
		// its 64-column atom.
		{"mlir/testdata/ttgir/matmul_64x64_w8_sm90.ttgir", "acc_69", "b_68", "wgmma_m64n32k16_f32_f16", "swizzle 128B"},
	} {
		p := solveFile(t, tc.path)
		if acc := opPlan(t, p, tc.mma); acc.Intrinsic != tc.intrinsic || !strings.Contains(acc.Method, "through its descriptor") {
			t.Errorf("%s: mma %s runs %s: %s", tc.path, tc.mma, acc.Intrinsic, acc.Method)
		}
		if bs := bufferPlan(t, p, tc.buf); bs.Placement != tc.placement {
			t.Errorf("%s: %s is placed %s, want %s", tc.path, tc.buf, bs.Placement, tc.placement)
		}
	}
}
