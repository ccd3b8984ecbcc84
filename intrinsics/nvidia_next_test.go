package intrinsics

import (
	"fmt"
	"slices"
	"testing"

	"planner/model"
)

// Every wgmma f16 shape with both accumulators (sm_90a), against the PTX
// ISA. The fragment tables are the functions of nvidia_test.go: the PTX
// ISA's wgmma figures are written for every N.

// PTX ISA, "wgmma.mma_async", syntax for .f16 inputs: ".shape =
// {.m64n8k16, .m64n16k16, ..., .m64n256k16}", every N from 8 to 256 in
// steps of 8, and ".dtype = {.f16, .f32}".
func wgmmaF16Shapes() []int {
	var ns []int
	for n := 8; n <= 256; n += 8 {
		ns = append(ns, n)
	}
	return ns
}

func TestNvidiaWgmmaEveryShapeAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	ns := wgmmaF16Shapes()
	if len(ns) != 32 {
		t.Fatalf("%d shapes, the PTX ISA lists 32", len(ns))
	}
	for _, acc := range []string{"f32", "f16"} {
		for _, n := range ns {
			name := fmt.Sprintf("wgmma_m64n%dk16_%s_f16", n, acc)
			r := record(t, lib, name)
			if r.Kind != model.RecordMMA || r.M != 64 || r.N != n || r.K != 16 || r.SubgroupSize != 32 || r.Subgroups != 4 {
				t.Fatalf("%s: %s %dx%dx%d over %d subgroups of %d", name, r.Kind, r.M, r.N, r.K, r.Subgroups, r.SubgroupSize)
			}
			if want := fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n%dk16.%s.f16.f16", n, acc); r.Instruction != want {
				t.Fatalf("%s: instruction %q, want %q", name, r.Instruction, want)
			}
			// A: "four .f16x2 registers". D: "N/2 number of .f32
			// registers" or "N/4 number of .f16x2 registers", N/2 values
			// (d0 .. d(N/2-1)) either way.
			regs := n / 2
			if acc == "f16" {
				regs = n / 4
			}
			checkOperand(t, r, "a", "f16", 4, 8, 4, ptxWgmmaA)
			checkOperand(t, r, "c", acc, regs, n/2, 4, ptxWgmmaD)
			checkOperand(t, r, "d", acc, regs, n/2, 4, ptxWgmmaD)
			// "The input matrix B ... must be in the shared memory"; "their
			// starting addresses must be aligned to 16 bytes"; the
			// descriptor's swizzle modes: none, 128-Byte, 64-Byte, 32-Byte.
			b := r.Operands["b"]
			if b == nil || !b.Shared || b.Layout != nil || b.DType.Name != "f16" {
				t.Fatalf("%s b: %+v, want f16 in shared memory without a layout", name, b)
			}
			m := r.Memory
			modes := slices.Clone(m.Modes)
			slices.Sort(modes)
			if m.Rule != "swizzle" || m.Alignment != 16 || !slices.Equal(modes, []string{"128B", "32B", "64B", "none"}) {
				t.Fatalf("%s: memory %+v", name, m)
			}
			// The record's price: each warp's 16 x N x 16 FMAs at 512 FP16
			// FMAs per clock (H100 whitepaper), in issue slots of 2 cycles.
			if want := int64(16 * n * 16 / 512 / 2); r.Cost != want {
				t.Fatalf("%s: cost %d, want %d", name, r.Cost, want)
			}
		}
	}
}

// Facts a planner relies on, checked on the records: every wgmma
// accumulator is the mma m16n8k16 C fragment tiled N/8 times along N in
// registers and over the four warps along M, whatever N and the
// accumulator type.
func TestNvidiaFragmentFactsNext(t *testing.T) {
	lib := nvidiaLib(t)
	c16 := record(t, lib, "mma_m16n8k16_f32_f16").Operands["c"].Layout
	a16 := record(t, lib, "mma_m16n8k16_f32_f16").Operands["a"].Layout
	ta, err := model.Tile(a16, []int{64, 16}, []model.TileFactor{{Dim: 0, Count: 4, Hw: model.Subgroup}})
	if err != nil {
		t.Fatal(err)
	}
	for _, acc := range []string{"f32", "f16"} {
		for _, n := range wgmmaF16Shapes() {
			r := record(t, lib, fmt.Sprintf("wgmma_m64n%dk16_%s_f16", n, acc))
			tiled, err := model.Tile(c16, []int{64, n}, []model.TileFactor{{Dim: 1, Count: n / 8, Hw: model.Register}, {Dim: 0, Count: 4, Hw: model.Subgroup}})
			if err != nil {
				t.Fatal(err)
			}
			if !tiled.Equal(r.Operands["d"].Layout) {
				t.Fatalf("%s: the accumulator is not the m16n8k16 C fragment tiled:\n%v\n%v", r.Name, tiled, r.Operands["d"].Layout)
			}
			if !ta.Equal(r.Operands["a"].Layout) {
				t.Fatalf("%s: A is not the m16n8k16 A fragment tiled over the warps", r.Name)
			}
		}
	}
}
