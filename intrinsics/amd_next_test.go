package intrinsics

import (
	"slices"
	"testing"

	"planner/model"
)

// Tables for the current AMD generations: RDNA3 WMMA in wave64, RDNA4
// WMMA (gfx12), the CDNA4 (gfx950) MFMAs and gfx950's transposing LDS
// read. Each function is typed in from a documented formula, named at the
// function, and maps a matrix element to its (slot, lane) or a (lane,
// value) to its element; none reads a record.

// calcGfx11Input is InstCalcGfx11.__get_input_reg_lanes for either wave
// size (ROCm/amd_matrix_instruction_calculator 1.3.2): element (outer i,
// k) is 16-bit slot k of lanes i, i+16 (wave32) and also i+32, i+48
// (wave64: copies_to_return = 4).
func calcGfx11Input(wave, i, k int) (slot int, lanes []int) {
	copies := 2
	if wave == 64 {
		copies = 4
	}
	for c := range copies {
		lanes = append(lanes, i+16*c)
	}
	return k, lanes
}

// calcGfx11Output is InstCalcGfx11.__get_output_reg_lanes for a 32-bit
// output: rows_per_reg_slot = wave / 16, register floor(i /
// rows_per_reg_slot), rows_per_vgpr = wave*16/N, lane (N*(i %
// rows_per_vgpr) + j) % wave.
func calcGfx11Output(wave, n, i, j int) (reg, lane int) {
	rowsPerSlot := wave / 16
	rowsPerVGPR := wave * 16 / n
	return i / rowsPerSlot, (n*(i%rowsPerVGPR) + j) % wave
}

// calcGfx12Input is InstCalcGfx12 for a dense wave32 input
// (__get_input_reg and __get_input_lane): 16-bit data sits in register
// 2*floor(k/8) + floor(k/2)%2, half k%2, of lane 16*(floor(k/4)%2) + i;
// 8-bit data in register floor(k/4)%2, byte k%4, of lane 16*floor(k/8) + i.
// slot counts elements of the data size across a lane's registers.
func calcGfx12Input(bits, i, k int) (slot, lane int) {
	if bits == 16 {
		reg := 2*(k/8) + (k/2)%2
		return 2*reg + k%2, 16*((k/4)%2) + i
	}
	reg := (k / 4) % 2
	return 4*reg + k%4, 16*(k/8) + i
}

// calcGfx12Output is InstCalcGfx12.__get_output_reg_lanes, 32-bit, wave32:
// register i % 8, lane 16*floor(i/8) + j.
func calcGfx12Output(i, j int) (reg, lane int) { return i % 8, 16*(i/8) + j }

// tritonWMMAv2 is Triton's wmmaDotOperandToLinearLayout, version 2, for a
// 16x16x16 operand of one wave32 (triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): kWidth registers
// along k, 16 lanes along the outer dimension, depth = 2 lanes along k,
// then registers repeat along k. Lane l, value v: outer l%16, k = v%kWidth
// + kWidth*floor(l/16) + 2*kWidth*floor(v/kWidth).
func tritonWMMAv2(kWidth, l, v int) (outer, k int) {
	return l % 16, v%kWidth + kWidth*(l/16) + 2*kWidth*(v/kWidth)
}

// f8f6f4Input is the layout of an 8-bit operand of the CDNA4 F8F6F4 MFMAs
// as Triton states it (chooseScaledMfmaScaleLayout: for fp8, a lane's 32
// elements are "2 16-consecutive elements blocks"): the operand is two
// halves of 16 values, each laid out by the CDNA rule (gfx9Input) for
// K/2, the second half for k + K/2.
func f8f6f4Input(m, k, i, kk int) (slot, lane int) {
	half := kk / (k / 2)
	slot, lane = gfx9Input(m, k/2, 1, i, kk%(k/2), 0)
	return slot + 16*half, lane
}

// tritonMFMADot is Triton's mfmaDotToLinearLayout (same file) for one
// wave64 tile: kWidth registers along k, mDim lanes along the outer
// dimension, the remaining lanes along k by kWidth, then registers repeat
// along k by kWidth*64/mDim. Lane l, value v: outer l % mDim,
// k = v%kWidth + kWidth*floor(l/mDim) + (kWidth*64/mDim)*floor(v/kWidth).
func tritonMFMADot(mDim, kWidth, l, v int) (outer, k int) {
	return l % mDim, v%kWidth + kWidth*(l/mDim) + (kWidth*64/mDim)*(v/kWidth)
}

// operandTable builds the (lane, value) -> element table of an A (M x K)
// or B (K x N) operand from a forward formula that gives an element's
// slot and lanes.
func operandTable(t *testing.T, op string, outer, k, lanes, values int, at func(i, kk int) (int, []int)) func(thread, i int) []int {
	t.Helper()
	tb := newAMDTable(lanes, values)
	for i := range outer {
		for kk := range k {
			slot, ls := at(i, kk)
			for _, l := range ls {
				if op == "a" {
					tb.put(t, l, slot, i, kk)
				} else {
					tb.put(t, l, slot, kk, i)
				}
			}
		}
	}
	return tb.want(t)
}

// outputTable builds the table of an M x N accumulator from a forward
// formula.
func outputTable(t *testing.T, m, n, lanes, values int, at func(i, j int) (int, int)) func(thread, i int) []int {
	t.Helper()
	tb := newAMDTable(lanes, values)
	for i := range m {
		for j := range n {
			reg, lane := at(i, j)
			tb.put(t, lane, reg, i, j)
		}
	}
	return tb.want(t)
}

// checkAMDOperand checks one operand's registers, duplication and layout.
func checkAMDOperand(t *testing.T, r *model.Record, op string, regs, values, lanes int, dup bool, want func(thread, i int) []int) {
	t.Helper()
	o := r.Operands[op]
	if o == nil || o.Registers != regs || o.Duplicated != dup {
		t.Fatalf("%s %s: %+v; want %d registers, duplicated %v", r.Name, op, o, regs, dup)
	}
	checkTable(t, r.Name+" "+op, o.Layout, values, lanes, 1, want)
}

func TestRDNA3WMMAWave64AgainstCalculator(t *testing.T) {
	lib := amdLibrary(t)
	for _, name := range []string{"wmma_f32_16x16x16_f16_wave64", "wmma_f32_16x16x16_bf16_wave64"} {
		r := amdRecord(t, lib, name)
		// Cost: the calculator's 32 cycles in wave64 units of two cycles.
		if r.SubgroupSize != 64 || r.M != 16 || r.N != 16 || r.K != 16 || r.Cost != 32/2 {
			t.Fatalf("%s: wave%d, %dx%dx%d, cost %d", name, r.SubgroupSize, r.M, r.N, r.K, r.Cost)
		}
		in := func(i, kk int) (int, []int) { return calcGfx11Input(64, i, kk) }
		checkAMDOperand(t, r, "a", 8, 16, 64, true, operandTable(t, "a", 16, 16, 64, 16, in))
		checkAMDOperand(t, r, "b", 8, 16, 64, true, operandTable(t, "b", 16, 16, 64, 16, in))
		for _, op := range []string{"c", "d"} {
			checkAMDOperand(t, r, op, 4, 4, 64, false, outputTable(t, 16, 16, 64, 4, func(i, j int) (int, int) { return calcGfx11Output(64, 16, i, j) }))
		}
		// The calculator's lane equation in words: "((16 * i) % 64) + j".
		checkTable(t, name+" c (closed form)", r.Operands["c"].Layout, 4, 64, 1, func(l, v int) []int {
			return []int{4*v + l/16, l % 16}
		})
	}
	// The wave32 formula, run through the same function, still gives the
	// wave32 record: the functions above are the calculator's, not the
	// wave64 record's.
	r := amdRecord(t, lib, "wmma_f32_16x16x16_f16")
	checkAMDOperand(t, r, "a", 8, 16, 32, true, operandTable(t, "a", 16, 16, 32, 16, func(i, kk int) (int, []int) { return calcGfx11Input(32, i, kk) }))
	checkAMDOperand(t, r, "c", 8, 8, 32, false, outputTable(t, 16, 16, 32, 8, func(i, j int) (int, int) { return calcGfx11Output(32, 16, i, j) }))
}

func TestRDNA4WMMAAgainstCalculator(t *testing.T) {
	lib := amdLibrary(t)
	for _, c := range []struct {
		name   string
		bits   int
		cycles int // dict_insts['rdna4'][...]['cycles']
	}{
		{"wmma_f32_16x16x16_f16_gfx12", 16, 16},
		{"wmma_f32_16x16x16_bf16_gfx12", 16, 16},
		{"wmma_f32_16x16x16_fp8_fp8_gfx12", 8, 8},
		{"wmma_f32_16x16x16_bf8_bf8_gfx12", 8, 8},
	} {
		r := amdRecord(t, lib, c.name)
		if r.SubgroupSize != 32 || r.M != 16 || r.N != 16 || r.K != 16 || r.Cost != int64(c.cycles) {
			t.Fatalf("%s: wave%d, %dx%dx%d, cost %d", c.name, r.SubgroupSize, r.M, r.N, r.K, r.Cost)
		}
		// 16x16 elements of c.bits over 32 lanes: 8 per lane, no copies.
		regs := 8 * c.bits / 32
		in := func(i, kk int) (int, []int) { s, l := calcGfx12Input(c.bits, i, kk); return s, []int{l} }
		checkAMDOperand(t, r, "a", regs, 8, 32, false, operandTable(t, "a", 16, 16, 32, 8, in))
		checkAMDOperand(t, r, "b", regs, 8, 32, false, operandTable(t, "b", 16, 16, 32, 8, in))
		for _, op := range []string{"c", "d"} {
			checkAMDOperand(t, r, op, 8, 8, 32, false, outputTable(t, 16, 16, 32, 8, calcGfx12Output))
		}
	}
}

// The K order of the RDNA4 16-bit WMMA (wmma_f32_16x16x16_f16_gfx12.toml):
// the record is Triton's version-2 layout at kWidth 4; Triton's own choice,
// kWidth 8 (which llama.cpp's RDNA4 tile shares: get_j = 4*(lane/16) + l
// in half2 units), is the record with K renumbered, the same renumbering
// in A and B, so the product is the same; for fp8 the two agree.
func TestRDNA4KOrder(t *testing.T) {
	lib := amdLibrary(t)
	a := amdLayout(t, lib, "wmma_f32_16x16x16_f16_gfx12", "a")
	b := amdLayout(t, lib, "wmma_f32_16x16x16_f16_gfx12", "b")
	checkTable(t, "f16 a (Triton kWidth 4)", a, 8, 32, 1, func(l, v int) []int { i, k := tritonWMMAv2(4, l, v); return []int{i, k} })
	checkTable(t, "f16 b (Triton kWidth 4)", b, 8, 32, 1, func(l, v int) []int { j, k := tritonWMMAv2(4, l, v); return []int{k, j} })
	// llama.cpp's tile<16, 8, half2> on RDNA4: lane l, half2 l2 holds row
	// lane%16, halves 2*(4*(lane/16) + l2) and +1: k = 8*(lane/16) + v.
	llama := func(l, v int) (int, int) { return l % 16, 2*(4*(l/16)+v/2) + v%2 }
	sigma := map[int]int{} // the record's k -> the libraries' k, per slot
	for l := range 32 {
		for v := range 8 {
			i8, k8 := tritonWMMAv2(8, l, v)
			if li, lk := llama(l, v); li != i8 || lk != k8 {
				t.Fatalf("llama.cpp and Triton kWidth 8 differ at lane %d value %d", l, v)
			}
			ka := a.Index(model.HwPoint{Value: v, Lane: l})
			kb := b.Index(model.HwPoint{Value: v, Lane: l})
			if ka[0] != i8 || kb[1] != i8 {
				t.Fatalf("lane %d value %d: rows/columns differ, not a K renumbering", l, v)
			}
			if ka[1] != kb[0] {
				t.Fatalf("lane %d value %d: A and B slots hold different k (%d, %d)", l, v, ka[1], kb[0])
			}
			if prev, ok := sigma[ka[1]]; ok && prev != k8 {
				t.Fatalf("k %d renumbered both to %d and %d", ka[1], prev, k8)
			}
			sigma[ka[1]] = k8
		}
	}
	// The renumbering is a permutation of 0..15 that moves something (the
	// orders do differ): swap of k bits 4 and 8.
	var img []int
	moved := false
	for k := range 16 {
		img = append(img, sigma[k])
		moved = moved || sigma[k] != k
		if want := k&^12 | (k&4)<<1 | (k&8)>>1; sigma[k] != want {
			t.Errorf("k %d -> %d, want %d (k bits 4 and 8 swapped)", k, sigma[k], want)
		}
	}
	slices.Sort(img)
	if !moved || !slices.Equal(img, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}) {
		t.Fatalf("renumbering %v is not a non-trivial permutation", sigma)
	}
	// fp8: the calculator's order is Triton's kWidth 8.
	f8 := amdLayout(t, lib, "wmma_f32_16x16x16_fp8_fp8_gfx12", "a")
	checkTable(t, "fp8 a (Triton kWidth 8)", f8, 8, 32, 1, func(l, v int) []int { i, k := tritonWMMAv2(8, l, v); return []int{i, k} })
}

func TestCDNA4MFMAAgainstDocumentedRules(t *testing.T) {
	lib := amdLibrary(t)
	const flopsPerSIMD16, flopsPerSIMD8, flopsPerSIMD4 = 1024, 2048, 4096 // MI355X peaks / (256 CUs x 4 SIMDs x 2.4 GHz)
	for _, c := range []struct {
		name    string
		m, k    int
		bits    int
		perSIMD int // dense FLOPs per SIMD per cycle for the data type
		fp8     bool
	}{
		{"mfma_f32_32x32x16_f16", 32, 16, 16, flopsPerSIMD16, false},
		{"mfma_f32_32x32x16_bf16", 32, 16, 16, flopsPerSIMD16, false},
		{"mfma_f32_16x16x32_f16", 16, 32, 16, flopsPerSIMD16, false},
		{"mfma_f32_16x16x32_bf16", 16, 32, 16, flopsPerSIMD16, false},
		{"mfma_f32_32x32x64_f8f6f4_fp8", 32, 64, 8, flopsPerSIMD8, true},
		{"mfma_scale_f32_32x32x64_f8f6f4_fp8", 32, 64, 8, flopsPerSIMD8, true},
		{"mfma_f32_16x16x128_f8f6f4_fp8", 16, 128, 8, flopsPerSIMD8, true},
		{"mfma_f32_32x32x64_f8f6f4_fp4", 32, 64, 4, flopsPerSIMD4, false},
		{"mfma_f32_16x16x128_f8f6f4_fp4", 16, 128, 4, flopsPerSIMD4, false},
	} {
		r := amdRecord(t, lib, c.name)
		if r.SubgroupSize != 64 || r.M != c.m || r.N != c.m || r.K != c.k || r.Blocks != 1 {
			t.Fatalf("%s: wave%d, %dx%dx%d", c.name, r.SubgroupSize, r.M, r.N, r.K)
		}
		// Cost in passes of 4 cycles: 2*M*N*K FLOPs at the peak rate.
		if cycles := 2 * c.m * c.m * c.k / c.perSIMD; r.Cost != int64(cycles/4) {
			t.Errorf("%s: cost %d, want %d cycles / 4", c.name, r.Cost, cycles)
		}
		values := c.m * c.k / 64
		in := func(i, kk int) (int, []int) { s, l := gfx9Input(c.m, c.k, 1, i, kk, 0); return s, []int{l} }
		if c.fp8 {
			in = func(i, kk int) (int, []int) { s, l := f8f6f4Input(c.m, c.k, i, kk); return s, []int{l} }
		}
		regs := values * c.bits / 32
		checkAMDOperand(t, r, "a", regs, values, 64, false, operandTable(t, "a", c.m, c.k, 64, values, in))
		checkAMDOperand(t, r, "b", regs, values, 64, false, operandTable(t, "b", c.m, c.k, 64, values, in))
		outRegs := c.m * c.m / 64
		for _, op := range []string{"c", "d"} {
			checkAMDOperand(t, r, op, outRegs, outRegs, 64, false, cdnaOperand(t, op, c.m, c.m, c.k, 1, outRegs))
		}
		// Triton's dot layout with the width it uses on gfx950: 8 for the
		// 16-bit forms, 16 for fp8, 32 (all of a lane's k) for fp4.
		kWidth := map[int]int{16: 8, 8: 16, 4: 32}[c.bits]
		checkTable(t, c.name+" a (Triton)", r.Operands["a"].Layout, values, 64, 1, func(l, v int) []int {
			i, k := tritonMFMADot(c.m, kWidth, l, v)
			return []int{i, k}
		})
	}
}

// TestCDNA4ScaledMFMAScales holds the block-scaled fp8 MFMA's scale
// operands to the rule of Triton's chooseScaledMfmaScaleLayout for 32x32
// tiles (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp), the layout
// Triton 3.9 gives tt.dot_scaled's scales on gfx950: one E8M0 scale per
// lane, lane l giving row (A) / column (B) l % 32 of block floor(l / 32)
// of 32 along K; A, B, C and D are the unscaled record's
// (TestCDNA4MFMAAgainstDocumentedRules).
func TestCDNA4ScaledMFMAScales(t *testing.T) {
	lib := amdLibrary(t)
	r := amdRecord(t, lib, "mfma_scale_f32_32x32x64_f8f6f4_fp8")
	if !r.Scaled() || r.ScaleVec != 2 || r.ScaleBlock() != 32 {
		t.Fatalf("%s: scale_vec %d, blocks of %d; want 2 blocks of 32 along K = 64", r.Name, r.ScaleVec, r.ScaleBlock())
	}
	plain := amdRecord(t, lib, "mfma_f32_32x32x64_f8f6f4_fp8")
	for _, op := range []string{"a", "b", "c", "d"} {
		if !r.Operands[op].Layout.Equal(plain.Operands[op].Layout) {
			t.Errorf("%s operand %s differs from %s's", r.Name, op, plain.Name)
		}
	}
	for _, op := range []string{"scale_a", "scale_b"} {
		if d := r.Operands[op].DType.Name; d != "ue8m0" {
			t.Errorf("%s: %s is %s, want ue8m0", r.Name, op, d)
		}
	}
	checkTable(t, "scale_a", r.Operands["scale_a"].Layout, 1, 64, 1, func(l, v int) []int { return []int{l % 32, l / 32} })
	checkTable(t, "scale_b", r.Operands["scale_b"].Layout, 1, 64, 1, func(l, v int) []int { return []int{l / 32, l % 32} })
}

// TestCDNA4ScaledMFMAFP4 holds the block-scaled MFMA with fp4 operands
// (v_mfma_scale_f32_32x32x64_f8f6f4, CBSZ = BLGP = 4) to tables written
// here from its sources, the CDNA4 ISA guide not being at hand: Triton's
// chooseScaledMfmaScaleLayout (lib/Dialect/TritonGPU/IR/
// LinearLayoutConversions.cpp: "for ROCDL::mfma_scale_f32_32x32x64_f8f6f4
// with fp4 input, each lane takes 32 consecutive elements from A alone K
// dimension. The first 32 lanes collectively handle A[0:32][0:32], and the
// other 32 lanes collectively handle A[0:32][32:64]"), and Modular's MAX
// kernel mxfp4_matmul_amd ("MFMA lane-to-data mapping": a lane loads 16
// contiguous bytes of its row, row = lane % M, at byte 16 * floor(lane /
// M)). A's element (row i, k) is value k % 32 of lane i + 32 * floor(k /
// 32), B's (k, column j) the same with j for i; the bytes Triton packs
// them in (two e2m1 a byte along K, the lower first) are that lane's
// bytes 0..15 at K byte 16 * floor(lane / 32) + q, Triton's #ttg.dot_op
// of kWidth 16 that it writes for tt.dot_scaled's i8 operands on
// hip:gfx950. The scales are the fp8 record's (TestCDNA4ScaledMFMAScales),
// lane l's block floor(l / 32) the one its own 32 elements are in.
func TestCDNA4ScaledMFMAFP4(t *testing.T) {
	lib := amdLibrary(t)
	r := amdRecord(t, lib, "mfma_scale_f32_32x32x64_f8f6f4_fp4")
	if !r.Scaled() || r.ScaleVec != 2 || r.ScaleBlock() != 32 || r.M != 32 || r.N != 32 || r.K != 64 || r.SubgroupSize != 64 {
		t.Fatalf("%s: %dx%dx%d wave%d, scale_vec %d, blocks of %d; want 32x32x64 wave64, 2 blocks of 32 along K", r.Name, r.M, r.N, r.K, r.SubgroupSize, r.ScaleVec, r.ScaleBlock())
	}
	for _, op := range []string{"a", "b"} {
		if d := r.Operands[op].DType; d.Name != "f4e2m1" || d.Bits != 4 || r.Operands[op].Registers != 4 {
			t.Errorf("%s %s: %s (%d bits) in %d registers, want f4e2m1 in 4 (32 elements a lane)", r.Name, op, d.Name, d.Bits, r.Operands[op].Registers)
		}
	}
	elem := func(l, v int) (outer, k int) { return l % 32, 32*(l/32) + v }
	checkTable(t, r.Name+" a", r.Operands["a"].Layout, 32, 64, 1, func(l, v int) []int { i, k := elem(l, v); return []int{i, k} })
	checkTable(t, r.Name+" b", r.Operands["b"].Layout, 32, 64, 1, func(l, v int) []int { j, k := elem(l, v); return []int{k, j} })
	for _, c := range []struct {
		op   string
		kDim int
	}{{"a", 1}, {"b", 0}} {
		packed := model.PackPairs(r.Operands[c.op].Layout, c.kDim)
		if packed == nil {
			t.Fatalf("%s %s: no byte pairs along K in each lane's lowest register", r.Name, c.op)
		}
		checkTable(t, r.Name+" "+c.op+" bytes", packed, 16, 64, 1, func(l, q int) []int {
			at := []int{l % 32, 16*(l/32) + q}
			if c.kDim == 0 {
				at[0], at[1] = at[1], at[0]
			}
			return at
		})
		if back := model.UnpackPairs(packed, c.kDim); back == nil || !back.Equal(r.Operands[c.op].Layout) {
			t.Errorf("%s %s: unpacking its bytes gives %v, not the fragment", r.Name, c.op, back)
		}
	}
	// Its C and D, and its scales, are the fp8 scaled record's.
	fp8 := amdRecord(t, lib, "mfma_scale_f32_32x32x64_f8f6f4_fp8")
	for _, op := range []string{"c", "d", "scale_a", "scale_b"} {
		if !r.Operands[op].Layout.Equal(fp8.Operands[op].Layout) || r.Operands[op].DType.Name != fp8.Operands[op].DType.Name {
			t.Errorf("%s operand %s differs from %s's", r.Name, op, fp8.Name)
		}
	}
	// Triton's dot layout of 32 elements a lane (TestCDNA4MFMAAgainstDocumentedRules'
	// kWidth for fp4) is the fragment.
	checkTable(t, r.Name+" a (Triton)", r.Operands["a"].Layout, 32, 64, 1, func(l, v int) []int {
		i, k := tritonMFMADot(32, 32, l, v)
		return []int{i, k}
	})
}

// dsReadTrB16 is what ds_read_b64_tr_b16 gives the lanes of one group of
// 16: lane j of the group reads the 8 bytes (four 16-bit elements) at row
// floor(j/4), columns 4*(j%4) .. +3 of its group's 4 x 16 tile (Triton's
// read-side bases in chooseDotDsReadB64TrLayout: lanes 1, 2 step 4 and 8
// columns, lanes 4, 8 step rows 1, 2), and the transposition hands lane i
// column i of the tile, its value r being row r (Triton: "each thread ends
// up with kWidthTransRead elements along the K dimension"; Modular's
// ds_read_tr16_b64_row: "each lane gets a column of the tile"). The
// group's tile origin is where its addresses point.
func dsReadTrB16(origin func(group int) [2]int) func(lane, v int) []int {
	read := func(group, j, e int) []int { // element e of what lane j reads
		o := origin(group)
		return []int{o[0] + j/4, o[1] + 4*(j%4) + e}
	}
	return func(lane, v int) []int {
		g, i := lane/16, lane%16
		// Lane i's value v is element i%4 of the piece that lane 4v + i/4 read.
		return read(g, 4*v+i/4, i%4)
	}
}

func TestDSReadB64TrB16(t *testing.T) {
	lib := amdLibrary(t)
	r := amdRecord(t, lib, "ds_read_b64_tr_b16")
	if r.Kind != model.RecordLoadShared || r.SubgroupSize != 64 || !r.Trans || r.Matrices != 1 {
		t.Fatalf("%s: kind %s, wave%d, trans %v, matrices %d", r.Name, r.Kind, r.SubgroupSize, r.Trans, r.Matrices)
	}
	if m := r.Memory; m.Rule != "row_pointers" || m.RowBytes != 8 || m.Alignment != 8 {
		t.Fatalf("%s: memory %+v; want one 8-byte, 8-byte aligned piece per lane", r.Name, m)
	}
	f := r.Fragment
	if f == nil || f.DType.Bits != 16 || f.Registers != 2 || !slices.Equal(f.Shape, []int{4, 16}) {
		t.Fatalf("%s: fragment %+v", r.Name, f)
	}
	// One group of 16 lanes, its tile at the origin.
	checkTable(t, r.Name, f.Layout, 4, 16, 1, dsReadTrB16(func(int) [2]int { return [2]int{0, 0} }))
	// Cost: 64 lanes x 8 bytes in 128-byte wavefronts at gfx950's weight.
	tg, ok := lib.Target("gfx950")
	if !ok {
		t.Fatal("no target gfx950")
	}
	if w := int64(64*8/128) * tg.Weights.SharedWavefront; r.Cost != w {
		t.Fatalf("%s: cost %d, want %d", r.Name, r.Cost, w)
	}
	// What it is for: the B operands of the MFMAs, read from a row-major
	// K x N buffer, the groups placed by their addresses: the whole wave's
	// table for each, typed from the same group rule, is the operand.
	for _, c := range []struct {
		record string
		reads  int                      // instructions per operand
		origin func(read, g int) [2]int // where read number `read` of group g starts
	}{
		// 32x32x8: lanes 16-31 the next 16 columns, lanes 32-63 rows 4-7.
		{"mfma_f32_32x32x8_f16", 1, func(_, g int) [2]int { return [2]int{4 * (g / 2), 16 * (g % 2)} }},
		// 32x32x16: read q covers rows 4q..4q+3 of lanes 0-31 and
		// 8+4q.. of lanes 32-63 (eight consecutive k per lane).
		{"mfma_f32_32x32x16_f16", 2, func(q, g int) [2]int { return [2]int{8*(g/2) + 4*q, 16 * (g % 2)} }},
		// 16x16x16: group g holds rows 4g..4g+3.
		{"mfma_f32_16x16x16_f16", 1, func(_, g int) [2]int { return [2]int{4 * g, 0} }},
		// 16x16x32: group g holds rows 8g..8g+7, read q rows 8g+4q...
		{"mfma_f32_16x16x32_f16", 2, func(q, g int) [2]int { return [2]int{8*g + 4*q, 0} }},
	} {
		b := amdLayout(t, lib, c.record, "b")
		values := 4 * c.reads
		checkTable(t, c.record+" b read by "+r.Name, b, values, 64, 1, func(l, v int) []int {
			return dsReadTrB16(func(g int) [2]int { return c.origin(v/4, g) })(l, v%4)
		})
		if n, ok := model.LoadInstructions(b, r); !ok || n != c.reads {
			t.Errorf("%s B: %d instructions (ok %v), want %d", c.record, n, ok, c.reads)
		}
	}
	// It is not a plain read: a layout holding consecutive columns in a
	// lane (the A operand, k along the row in registers) is not made by it.
	if _, ok := model.LoadInstructions(amdLayout(t, lib, "mfma_f32_32x32x16_f16", "a"), r); ok {
		t.Error("the A operand of a row-major A buffer matched the transposing read")
	}
}

func TestAMDNextTargets(t *testing.T) {
	lib := amdLibrary(t)
	for _, c := range []struct {
		name             string
		wave, max, lds   int
		banks, bankBytes int
		offers, lacks    []string
		sharedWavefrontW int64
	}{
		{"gfx1100_wave64", 64, 16, 64 << 10, 32, 4,
			[]string{"wmma_f32_16x16x16_f16_wave64", "wmma_f32_16x16x16_bf16_wave64", "ds_read_b64", "ds_read_b128"},
			[]string{"wmma_f32_16x16x16_f16", "ds_read_b64_wave32"}, 1},
		{"gfx1200", 32, 32, 64 << 10, 32, 4,
			[]string{"wmma_f32_16x16x16_f16_gfx12", "wmma_f32_16x16x16_bf16_gfx12", "wmma_f32_16x16x16_fp8_fp8_gfx12", "wmma_f32_16x16x16_bf8_bf8_gfx12", "ds_read_b64_wave32", "ds_read_b128_wave32"},
			[]string{"wmma_f32_16x16x16_f16", "ds_read_b64"}, 2},
		// gfx950: LDS 160 KiB (AMD GPU specifications; LLVM
		// getAddressableLocalMemorySize 163840).
		{"gfx950", 64, 16, 160 << 10, 32, 4,
			[]string{"mfma_f32_32x32x16_f16", "mfma_f32_16x16x32_f16", "mfma_f32_32x32x16_bf16", "mfma_f32_16x16x32_bf16",
				"mfma_f32_32x32x64_f8f6f4_fp8", "mfma_f32_16x16x128_f8f6f4_fp8", "mfma_f32_32x32x64_f8f6f4_fp4", "mfma_f32_16x16x128_f8f6f4_fp4",
				"mfma_scale_f32_32x32x64_f8f6f4_fp8", "mfma_scale_f32_32x32x64_f8f6f4_fp4", "mfma_f32_32x32x8_f16", "ds_read_b64", "ds_read_b128", "ds_read_b64_tr_b16"},
			[]string{"wmma_f32_16x16x16_f16", "mfma_f32_32x32x16_fp8_fp8"}, 1},
	} {
		tg, ok := lib.Target(c.name)
		if !ok {
			t.Fatalf("no target %s", c.name)
		}
		if tg.Vendor != "amd" || tg.SubgroupSize != c.wave || tg.MaxSubgroups != c.max || tg.MaxSubgroups*tg.SubgroupSize != 1024 ||
			tg.SharedMemory != c.lds || tg.Banks != c.banks || tg.BankBytes != c.bankBytes {
			t.Fatalf("%s: %+v", c.name, tg)
		}
		for _, n := range c.offers {
			if !slices.Contains(tg.Records, n) {
				t.Errorf("%s does not offer %s", c.name, n)
			}
		}
		for _, n := range c.lacks {
			if slices.Contains(tg.Records, n) {
				t.Errorf("%s offers %s", c.name, n)
			}
		}
		for _, n := range tg.Records {
			// An fma record is written for no wave size: every lane runs it
			// on its own elements.
			if r := amdRecord(t, lib, n); r.SubgroupSize != c.wave && r.Kind != model.RecordFMA {
				t.Errorf("%s offers %s, a wave%d record", c.name, n, r.SubgroupSize)
			}
		}
		if tg.Weights.ALU != 1 || tg.Weights.SharedWavefront != c.sharedWavefrontW {
			t.Errorf("%s: alu %d, shared_wavefront %d; want 1, %d", c.name, tg.Weights.ALU, tg.Weights.SharedWavefront, c.sharedWavefrontW)
		}
	}
}
