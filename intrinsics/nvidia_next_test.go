package intrinsics

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"planner/model"
)

// The FP8 mma.sync m16n8k32 records (sm_89), every wgmma f16 shape with
// both accumulators (sm_90a) and the sm_89 target, against the PTX ISA and
// the CUDA C++ Programming Guide. The fragment tables are the functions of
// nvidia_test.go: PTX ISA draws the FP8 operands of mma.m16n8k32 in the
// same figures as the 8-bit integer ones ("MMA .m16n8k32 fragment layout
// for matrix A with .u8 / .s8 / .e4m3 / .e5m2 / .e3m2 / .e2m3 / .e2m1
// type", likewise for B, and "... accumulator matrix C/D with .s32 / .f32
// / .f16 type"), and its wgmma figures are written for every N.

// PTX ISA, "Matrix Fragments for mma.m16n8k32": the element types of an
// FP8 record and its accumulator, with the 32-bit registers each operand
// takes ("four .b32 registers" of A, "two .b32 registers" of B, each with
// four 8-bit elements; "four .f32 registers" or "two .f16x2 registers" of
// C and D).
var ptxFP8Types = map[string]string{"e4m3": "f8e4m3", "e5m2": "f8e5m2"}

func TestNvidiaFP8MMAAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	n := 0
	for _, acc := range []struct {
		name      string
		registers int
	}{{"f32", 4}, {"f16", 2}} {
		// PTX ISA, mma: ".f8type = {.e4m3, .e5m2}" for A and for B.
		for _, ta := range []string{"e4m3", "e5m2"} {
			for _, tb := range []string{"e4m3", "e5m2"} {
				name := fmt.Sprintf("mma_m16n8k32_%s_%s_%s", acc.name, ta, tb)
				r := record(t, lib, name)
				n++
				if r.Kind != model.RecordMMA || r.Vendor != "nvidia" || r.M != 16 || r.N != 8 || r.K != 32 || r.SubgroupSize != 32 || r.Subgroups != 1 {
					t.Fatalf("%s: %s %s %dx%dx%d over %d subgroups of %d", name, r.Vendor, r.Kind, r.M, r.N, r.K, r.Subgroups, r.SubgroupSize)
				}
				want := fmt.Sprintf("mma.sync.aligned.m16n8k32.row.col.%s.%s.%s.%s", acc.name, ta, tb, acc.name)
				if r.Instruction != want {
					t.Fatalf("%s: instruction %q, want %q", name, r.Instruction, want)
				}
				checkOperand(t, r, "a", ptxFP8Types[ta], 4, 16, 1, ptxM16N8K32AI8)
				checkOperand(t, r, "b", ptxFP8Types[tb], 2, 8, 1, ptxM16N8K32BI8)
				checkOperand(t, r, "c", acc.name, acc.registers, 4, 1, ptxM16N8K32C)
				checkOperand(t, r, "d", acc.name, acc.registers, 4, 1, ptxM16N8K32C)
			}
		}
	}
	if n != 8 {
		t.Fatalf("checked %d FP8 records, want 8", n)
	}
}

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

// Facts a planner relies on, checked on the records: the FP8 fragments are
// the 8-bit integer ones, and every wgmma accumulator is the mma m16n8k16
// C fragment tiled N/8 times along N in registers and over the four warps
// along M, whatever N and the accumulator type.
func TestNvidiaFragmentFactsNext(t *testing.T) {
	lib := nvidiaLib(t)
	s8 := record(t, lib, "mma_m16n8k32_s32_s8")
	c16 := record(t, lib, "mma_m16n8k16_f32_f16").Operands["c"].Layout
	for _, name := range lib.RecordNames() {
		if !strings.HasPrefix(name, "mma_m16n8k32_f") {
			continue
		}
		r := lib.Records[name]
		for _, op := range []string{"a", "b"} {
			if !r.Operands[op].Layout.Equal(s8.Operands[op].Layout) {
				t.Fatalf("%s %s is not the s8 %s fragment", name, op, op)
			}
		}
		if !r.Operands["d"].Layout.Equal(c16) {
			t.Fatalf("%s: the accumulator is not the m16n8k16 one", name)
		}
	}
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

// The NVIDIA targets' facts and which records each offers: sm_89 has the
// sm_80 set and the FP8 mma.sync (PTX ISA, mma, Target ISA Notes: sm_89 or
// higher), no stmatrix (sm_90) and no wgmma (sm_90a); sm_90 has every wgmma
// f16 shape and the FP8 mma.sync; sm_80 has no FP8.
func TestNvidiaTargetsNext(t *testing.T) {
	lib := nvidiaLib(t)
	var fp8, wgmma []string
	for _, acc := range []string{"f32", "f16"} {
		for _, ab := range []string{"e4m3_e4m3", "e4m3_e5m2", "e5m2_e4m3", "e5m2_e5m2"} {
			fp8 = append(fp8, fmt.Sprintf("mma_m16n8k32_%s_%s", acc, ab))
		}
		for _, n := range wgmmaF16Shapes() {
			wgmma = append(wgmma, fmt.Sprintf("wgmma_m64n%dk16_%s_f16", n, acc))
		}
	}
	stmatrix := []string{"stmatrix_x1", "stmatrix_x2", "stmatrix_x4", "stmatrix_x1_trans", "stmatrix_x2_trans", "stmatrix_x4_trans"}
	sm80, ok := lib.Target("sm_80")
	if !ok {
		t.Fatal("no target sm_80")
	}
	for _, c := range []struct {
		name   string
		shared int
		offers [][]string
		lacks  [][]string
	}{
		// CUDA C++ Programming Guide, "Compute Capabilities": a block of
		// compute capability 8.9 may use up to 99 KB of shared memory, of
		// 9.0 up to 227 KB.
		{"sm_89", 99 << 10, [][]string{sm80.Records, fp8}, [][]string{stmatrix, wgmma}},
		{"sm_90", 227 << 10, [][]string{fp8, wgmma, stmatrix}, nil},
		{"sm_80", 163 << 10, nil, [][]string{fp8, wgmma, stmatrix}},
	} {
		tg, ok := lib.Target(c.name)
		if !ok {
			t.Fatalf("no target %s", c.name)
		}
		// Warp size 32, at most 1024 threads per block, 32 banks of 4
		// bytes (same guide, and "Shared Memory and Memory Banks").
		if tg.Vendor != "nvidia" || tg.SubgroupSize != 32 || tg.MaxSubgroups*tg.SubgroupSize != 1024 ||
			tg.SharedMemory != c.shared || tg.Banks != 32 || tg.BankBytes != 4 {
			t.Fatalf("%s: %+v", c.name, tg)
		}
		for _, list := range c.offers {
			for _, n := range list {
				if !slices.Contains(tg.Records, n) {
					t.Errorf("%s does not offer %s", c.name, n)
				}
			}
		}
		for _, list := range c.lacks {
			for _, n := range list {
				if slices.Contains(tg.Records, n) {
					t.Errorf("%s offers %s", c.name, n)
				}
			}
		}
		for _, n := range tg.Records {
			// An fma record is written for no subgroup: every lane runs it
			// on its own elements.
			if r := lib.Records[n]; r.Vendor != "nvidia" || r.SubgroupSize != 32 && r.Kind != model.RecordFMA {
				t.Errorf("%s offers %s (vendor %s, subgroup size %d)", c.name, n, r.Vendor, r.SubgroupSize)
			}
		}
		if tg.Weights.ALU != 1 {
			t.Errorf("%s: the alu weight is the unit, found %d", c.name, tg.Weights.ALU)
		}
	}
	// sm_89 prices like sm_80: the same throughput table rows (64 32-bit
	// integer results per cycle per SM, 32 shuffles, 16 SFU results).
	sm89, _ := lib.Target("sm_89")
	if sm89.Weights != sm80.Weights {
		t.Errorf("sm_89 weights %+v, sm_80 %+v", sm89.Weights, sm80.Weights)
	}
}
