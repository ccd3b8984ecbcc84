package intrinsics

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"planner/model"
)

// Tables for the Blackwell records (sm_100 tcgen05, sm_120 mma.sync kinds),
// typed in from the PTX ISA's formulas and, where its figures are images,
// from the CuTe layouts NVIDIA/cutlass writes for the same figures, one
// function per figure: for a lane and a register (or value) index, the
// element it holds. They are written from the documents, never from the
// records.

// PTX ISA, "Matrix fragments for shape .32x32b" (tcgen05.ld / tcgen05.st):
// a warp accesses 32 TMEM lanes, (32 * .num) bits of each. Lane l holds
// TMEM lane l, register r the r-th 32-bit column (NVIDIA/cutlass
// include/cute/atom/copy_traits_sm100.hpp, SM100_TMEM_LOAD_32dp32b1x:
// DstLayout (32,32):(32,1)). Coordinates: (TMEM lane, 32-bit column), over
// all .num repetitions.
func ptxTmem32x32b(l, r int) []int { return []int{l, r} }

// "Matrix fragments for shape .16x64b": 16 TMEM lanes, (64 * .num) bits
// each; lane l holds TMEM lane l/4 + 8(l%2), column (l/2)%2 of each 64-bit
// repetition (SM100_TMEM_LOAD_16dp64b1x: DstLayout ((2,2,8),32):((512,32,64),1)
// over 64 bits x 16 lanes).
func ptxTmem16x64b(l, r int) []int { return []int{l/4 + 8*(l%2), (l/2)%2 + 2*r} }

// "Matrix fragments for shape .16x128b": 16 lanes, (128 * .num) bits;
// register 2j + h holds TMEM lane l/4 + 8h, column l%4 of repetition j
// (SM100_TMEM_LOAD_16dp128b1x: ((4,8),(32,2)):((32,128),(1,1024))).
func ptxTmem16x128b(l, r int) []int { return []int{l/4 + 8*(r%2), l%4 + 4*(r/2)} }

// "Matrix fragments for shape .16x256b": 16 lanes, (256 * .num) bits;
// register 4j + 2h + c holds TMEM lane l/4 + 8h, column 2(l%4) + c of
// repetition j (SM100_TMEM_LOAD_16dp256b1x: ((4,8),(64,2)):((64,256),(1,2048));
// the 2x trait puts the second repetition 256 bits on, in registers 4..7).
func ptxTmem16x256b(l, r int) []int { return []int{l/4 + 8*((r/2)%2), r%2 + 2*(l%4) + 8*(r/4)} }

// PTX ISA, "Matrix Fragments for mma.m16n8k64", Figure "MMA .m16n8k64
// fragment layout for matrix A with .u4 / .s4 / .e2m1 type": a0..a31 over
// 16x64 (M x K).
func ptxM16N8K64AE2M1(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := g + 8
	if i < 8 || (16 <= i && i < 24) {
		row = g
	}
	col := t*8 + i&7
	if i >= 16 {
		col += 32
	}
	return []int{row, col}
}

// Same section, Figures "... for rows 0-31 / rows 32-63 of matrix B with
// .u4 / .s4 / .e2m1 type": b0..b15 over 64x8 (K x N).
func ptxM16N8K64BE2M1(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := t*8 + i&7
	if i >= 8 {
		row += 32
	}
	return []int{row, g}
}

// PTX ISA, "Block Scaling for mma.sync", with thread-id-a = byte-id-a = 0:
// lanes 4g and 4g+1 give the scale factors of rows g and g+8, byte j the
// j-th chunk along K; lanes 4g+2 and 4g+3 are not read, and the records
// write them as copies (NVIDIA/cutlass include/cute/atom/mma_traits_sm120.hpp,
// SFALayout ((2,2,8),K):((8,0,1),16)). Over scale_A (M x scale_vec).
func ptxScaleA(lane, i int) []int { return []int{lane/4 + 8*(lane%2), i} }

// Same, thread-id-b = byte-id-b = 0: lane 4n gives column n's scale
// factors, byte j for chunk j; the other lanes of the quad are not read
// (SFBLayout ((4,8),K):((0,1),8)). Over scale_B (scale_vec x N).
func ptxScaleB(lane, i int) []int { return []int{i, lane / 4} }

// PTX ISA, "Matrix Shape", table "Various combinations of .kind and
// shapes": .kind::f16, no .ws, CTA group 1, dense, f32 D: M = 64 or 128,
// N = 8 .. 256 in steps of 8, K = 16.
func ptxTcgen05F16Shape(m, n, k int) bool {
	return (m == 64 || m == 128) && n%8 == 0 && 8 <= n && n <= 256 && k == 16
}

func TestTcgen05LoadStoreAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	tables := map[string]struct {
		lanes, cols, regs int // per repetition
		want              func(l, r int) []int
	}{
		"32x32b":  {32, 1, 1, ptxTmem32x32b},
		"16x64b":  {16, 2, 1, ptxTmem16x64b},
		"16x128b": {16, 4, 2, ptxTmem16x128b},
		"16x256b": {16, 8, 4, ptxTmem16x256b},
	}
	for _, c := range []struct {
		name, shape string
		kind        model.RecordKind
		num         int
	}{
		{"tcgen05_ld_32x32b_x1", "32x32b", model.RecordLoadTensorMemory, 1},
		{"tcgen05_ld_32x32b_x4", "32x32b", model.RecordLoadTensorMemory, 4},
		{"tcgen05_ld_16x64b_x1", "16x64b", model.RecordLoadTensorMemory, 1},
		{"tcgen05_ld_16x128b_x1", "16x128b", model.RecordLoadTensorMemory, 1},
		{"tcgen05_ld_16x256b_x1", "16x256b", model.RecordLoadTensorMemory, 1},
		{"tcgen05_ld_16x256b_x2", "16x256b", model.RecordLoadTensorMemory, 2},
		{"tcgen05_st_32x32b_x1", "32x32b", model.RecordStoreTensorMemory, 1},
		{"tcgen05_st_16x64b_x1", "16x64b", model.RecordStoreTensorMemory, 1},
		{"tcgen05_st_16x128b_x1", "16x128b", model.RecordStoreTensorMemory, 1},
		{"tcgen05_st_16x256b_x1", "16x256b", model.RecordStoreTensorMemory, 1},
	} {
		r := record(t, lib, c.name)
		tb := tables[c.shape]
		op := "ld"
		if c.kind == model.RecordStoreTensorMemory {
			op = "st"
		}
		if r.Kind != c.kind || r.Matrices != c.num || r.Instruction != fmt.Sprintf("tcgen05.%s.sync.aligned.%s.x%d.b32", op, c.shape, c.num) {
			t.Fatalf("%s: kind %s, matrices %d, instruction %q", c.name, r.Kind, r.Matrices, r.Instruction)
		}
		// "A vector expression containing .num number of .b32 registers"
		// per 32 bits of each lane: one repetition is lanes x cols cells.
		f := r.Fragment
		if f == nil || !slices.Equal(f.Shape, []int{tb.lanes, tb.cols}) || f.DType.Name != "b32" || f.Registers != tb.regs {
			t.Fatalf("%s: fragment %+v, want %dx%d b32 in %d registers", c.name, f, tb.lanes, tb.cols, tb.regs)
		}
		// A warp reaches the 32 TMEM lanes of its sub-partition.
		if m := r.Memory; m.Rule != "tensor_memory" || m.WarpLanes != 32 {
			t.Fatalf("%s: memory %+v", c.name, m)
		}
		checkTable(t, c.name, f.Layout, tb.regs, 32, 1, tb.want)
		// The repetition rule: the whole access, .num repetitions side by
		// side along the columns, against the same table.
		all, err := model.TensorMemoryAccess(r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(all.Shape(), []int{tb.lanes, tb.cols * c.num}) {
			t.Fatalf("%s: the access is %v", c.name, all.Shape())
		}
		checkTable(t, c.name+" (all repetitions)", all, tb.regs*c.num, 32, 1, tb.want)
	}
	// The repetition rule has consequences the tables show: .32x32b.x4 is
	// four .x1 side by side, .16x256b.x2 holds the second block's columns
	// 8..15 in registers 4..7.
	x4, err := model.TensorMemoryAccess(record(t, lib, "tcgen05_ld_32x32b_x4"))
	if err != nil {
		t.Fatal(err)
	}
	if got := x4.Index(model.HwPoint{Value: 3, Lane: 5}); !slices.Equal(got, []int{5, 3}) {
		t.Fatalf("32x32b.x4 lane 5 register 3 holds %v", got)
	}
}

// Facts planners rely on: one .16x256b access is the mma m16n8 accumulator
// fragment, so an epilogue reading an f32 accumulator out of tensor memory
// with it gets the mma.sync C layout (and, for M = 64, wgmma's); .32x32b
// gives one row per thread; the store mirrors the load.
func TestTcgen05Facts(t *testing.T) {
	lib := nvidiaLib(t)
	c := record(t, lib, "mma_m16n8k16_f32_f16").Operands["c"].Layout
	if !record(t, lib, "tcgen05_ld_16x256b_x1").Fragment.Layout.Equal(c) {
		t.Fatal("the .16x256b fragment is not the m16n8 accumulator fragment")
	}
	// An M = 64 accumulator (PTX ISA "Data Path Layout Organization",
	// Layout F: row m in TMEM lane 32(m/16) + m%16, column j in column j;
	// CUTLASS mma_traits_sm100_frag.hpp, ((16,4),N):((1,32),1)) read by the
	// four warps of a warpgroup with .16x256b.x32 (warp w from lane 32w on)
	// lands in exactly wgmma m64n256's accumulator layout.
	layoutFRow := func(lane int) int { return 16*(lane/32) + lane%32 }
	wg := record(t, lib, "wgmma_m64n256k16_f32_f16").Operands["d"].Layout
	for w := range 4 {
		for l := range 32 {
			for r := range 128 {
				tl, col := ptxTmem16x256b(l, r)[0], ptxTmem16x256b(l, r)[1]
				want := []int{layoutFRow(32*w + tl), col}
				if got := wg.Index(model.HwPoint{Value: r, Lane: l, Subgroup: w}); !slices.Equal(got, want) {
					t.Fatalf("warp %d lane %d register %d: .16x256b reads %v of an M = 64 accumulator, wgmma holds %v there", w, l, r, want, got)
				}
			}
		}
	}
	// An M = 128 accumulator (Layout D: row i in lane i) read with
	// .32x32b.x4 by four warps: thread 32w + l holds row 32w + l, register
	// j column j, one row per thread.
	x4, err := model.TensorMemoryAccess(record(t, lib, "tcgen05_ld_32x32b_x4"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := model.Tile(x4, []int{128, 4}, []model.TileFactor{{Dim: 0, Count: 4, Hw: model.Subgroup}})
	if err != nil {
		t.Fatal(err)
	}
	checkTable(t, "Layout D through .32x32b.x4", rows, 4, 32, 4, func(thread, j int) []int { return []int{thread, j} })
	for _, s := range []string{"32x32b", "16x64b", "16x128b", "16x256b"} {
		ld, st := record(t, lib, "tcgen05_ld_"+s+"_x1"), record(t, lib, "tcgen05_st_"+s+"_x1")
		if !ld.Fragment.Layout.Equal(st.Fragment.Layout) || ld.Memory.Rule != st.Memory.Rule {
			t.Fatalf("tcgen05.st .%s does not mirror tcgen05.ld", s)
		}
	}
}

func TestTcgen05MMAAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	for _, c := range []struct {
		name     string
		m, n     int
		dtype    string
		aInTMEM  bool
		dataPath string
	}{
		{"tcgen05_mma_m64n64k16_f32_f16", 64, 64, "f16", false, "Layout F"},
		{"tcgen05_mma_m64n128k16_f32_f16", 64, 128, "f16", false, "Layout F"},
		{"tcgen05_mma_m64n256k16_f32_f16", 64, 256, "f16", false, "Layout F"},
		{"tcgen05_mma_m128n64k16_f32_f16", 128, 64, "f16", false, "Layout D"},
		{"tcgen05_mma_m128n128k16_f32_f16", 128, 128, "f16", false, "Layout D"},
		{"tcgen05_mma_m128n256k16_f32_f16", 128, 256, "f16", false, "Layout D"},
		{"tcgen05_mma_m128n256k16_f32_bf16", 128, 256, "bf16", false, "Layout D"},
		{"tcgen05_mma_m128n256k16_f32_f16_tmem_a", 128, 256, "f16", true, "Layout D"},
	} {
		r := record(t, lib, c.name)
		if r.Kind != model.RecordMMA || r.M != c.m || r.N != c.n || r.K != 16 || !ptxTcgen05F16Shape(r.M, r.N, r.K) {
			t.Fatalf("%s: %s %dx%dx%d", c.name, r.Kind, r.M, r.N, r.K)
		}
		if !strings.HasPrefix(r.Instruction, "tcgen05.mma.cta_group::1.kind::f16 ") || !strings.Contains(r.Notes, c.dataPath) {
			t.Fatalf("%s: instruction %q, notes %q", c.name, r.Instruction, r.Notes)
		}
		// D in tensor memory; A in tensor memory ([a-tmem]) or shared
		// memory (a-desc); B in shared memory (b-desc). None has a
		// register layout.
		for _, o := range []struct {
			name, dtype  string
			shared, tmem bool
		}{
			{"a", c.dtype, !c.aInTMEM, c.aInTMEM}, {"b", c.dtype, true, false},
			{"c", "f32", false, true}, {"d", "f32", false, true},
		} {
			op := r.Operands[o.name]
			if op == nil || op.DType.Name != o.dtype || op.Shared != o.shared || op.TensorMemory != o.tmem || op.Layout != nil {
				t.Fatalf("%s %s: %+v, want %s, shared %v, tensor memory %v, no layout", c.name, o.name, op, o.dtype, o.shared, o.tmem)
			}
		}
		// The shared-memory descriptor: 16-byte aligned start, swizzle
		// none, 32B, 64B or 128B.
		m := r.Memory
		modes := slices.Clone(m.Modes)
		slices.Sort(modes)
		if m.Rule != "swizzle" || m.Alignment != 16 || !slices.Equal(modes, []string{"128B", "32B", "64B", "none"}) {
			t.Fatalf("%s: memory %+v", c.name, m)
		}
		// Twice the Hopper rate: M*N*16 FMAs at 4096 per clock, in slots
		// of 2 cycles.
		if r.Cost != int64(c.m*c.n*16/4096/2) {
			t.Fatalf("%s: cost %d", c.name, r.Cost)
		}
		if r.Unplanned() == "" {
			t.Fatalf("%s: a record with operands in tensor memory is offered to the planner", c.name)
		}
	}
}

func TestSM120MMAAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	for _, c := range []struct {
		name, dtype string
		k           int
		scaleVec    int
		scaleType   string
	}{
		{"mma_f8f6f4_m16n8k32_f32_e4m3", "f8e4m3", 32, 0, ""},
		{"mma_f8f6f4_m16n8k32_f32_e5m2", "f8e5m2", 32, 0, ""},
		// PTX ISA, table "Valid combinations of .scale_vec_size and .kind
		// qualifier": mxf8f6f4 takes ue8m0 at 1X, mxf4 ue8m0 at 2X,
		// mxf4nvf4 ue4m3 at 4X.
		{"mma_mxf8f6f4_m16n8k32_f32_e4m3_ue8m0", "f8e4m3", 32, 1, "ue8m0"},
		{"mma_mxf4_m16n8k64_f32_e2m1_ue8m0", "f4e2m1", 64, 2, "ue8m0"},
		{"mma_mxf4nvf4_m16n8k64_f32_e2m1_ue4m3", "f4e2m1", 64, 4, "ue4m3"},
	} {
		r := record(t, lib, c.name)
		if r.Kind != model.RecordMMA || r.M != 16 || r.N != 8 || r.K != c.k || r.ScaleVec != c.scaleVec {
			t.Fatalf("%s: %s %dx%dx%d, scale_vec %d", c.name, r.Kind, r.M, r.N, r.K, r.ScaleVec)
		}
		if c.k == 32 {
			// Four .b32 registers of four 8-bit elements, two for B.
			checkOperand(t, r, "a", c.dtype, 4, 16, 1, ptxM16N8K32AI8)
			checkOperand(t, r, "b", c.dtype, 2, 8, 1, ptxM16N8K32BI8)
		} else {
			// Four .b32 registers of eight .e2m1, two for B.
			checkOperand(t, r, "a", c.dtype, 4, 32, 1, ptxM16N8K64AE2M1)
			checkOperand(t, r, "b", c.dtype, 2, 16, 1, ptxM16N8K64BE2M1)
		}
		checkOperand(t, r, "c", "f32", 4, 4, 1, ptxM16N8K32C)
		checkOperand(t, r, "d", "f32", 4, 4, 1, ptxM16N8K32C)
		if c.scaleVec == 0 {
			if r.Operands["scale_a"] != nil || r.Operands["scale_b"] != nil || r.Unplanned() != "" {
				t.Fatalf("%s: an mma without block scaling has scale operands or is not planned", c.name)
			}
			continue
		}
		// Table "Shapes for scale matrices": scale_A is M x scale_vec,
		// scale_B scale_vec x N.
		for _, s := range []struct {
			name  string
			shape []int
			want  func(lane, i int) []int
		}{{"scale_a", []int{16, c.scaleVec}, ptxScaleA}, {"scale_b", []int{c.scaleVec, 8}, ptxScaleB}} {
			op := r.Operands[s.name]
			if op == nil || op.DType.Name != c.scaleType || !slices.Equal(op.Shape, s.shape) || !op.Duplicated {
				t.Fatalf("%s %s: %+v, want %v %s, lanes not read written as copies", c.name, s.name, op, s.shape, c.scaleType)
			}
			checkTable(t, c.name+" "+s.name, op.Layout, c.scaleVec, 32, 1, s.want)
		}
		// Planned, for the block-scaled products alone (model.ScaleMisfit).
		if !r.Scaled() || r.Unplanned() != "" || r.ScaleBlock() != 32 && r.ScaleBlock() != 16 {
			t.Fatalf("%s: a block-scaled record that is not planned (%q), or scale blocks of %d", c.name, r.Unplanned(), r.ScaleBlock())
		}
	}
}

// packedByte is a table of e2m1 elements read as the bytes Triton packs
// them in (two to an i8 along K, DotScaledOp::verify in
// lib/Dialect/Triton/IR/Ops.cpp): byte q of a lane holds its elements 2q
// and 2q + 1, which the PTX ISA's table (each .b32 register eight .e2m1,
// a0..a7 consecutive along K) puts side by side along K. The byte is at
// the pair's row (A) or column (B) and at half its K.
func packedByte(t *testing.T, elems func(lane, i int) []int, kDim int) func(lane, q int) []int {
	return func(lane, q int) []int {
		lo, hi := elems(lane, 2*q), elems(lane, 2*q+1)
		if lo[1-kDim] != hi[1-kDim] || hi[kDim] != lo[kDim]+1 || lo[kDim]%2 != 0 {
			t.Fatalf("lane %d elements %d and %d are at %v and %v: not one byte's pair along K", lane, 2*q, 2*q+1, lo, hi)
		}
		b := slices.Clone(lo)
		b[kDim] /= 2
		return b
	}
}

// TestMXF4PackedOperands holds the bytes of the mxf4 record's A and B, as
// the planner reads a tt.dot_scaled's e2m1 operands (model.PackPairs), to
// the PTX ISA's fragments of mma.m16n8k64 (ptxM16N8K64AE2M1,
// ptxM16N8K64BE2M1) read two elements to a byte, and unpacked back to the
// record's fragment. The bytes are the 8-bit m16n8k32 fragments, which
// Triton writes as a #ttg.dot_op of kWidth 4 for i8 and e4m3 alike.
func TestMXF4PackedOperands(t *testing.T) {
	r := record(t, nvidiaLib(t), "mma_mxf4_m16n8k64_f32_e2m1_ue8m0")
	for _, c := range []struct {
		operand string
		kDim    int
		bytes   int
		table   func(lane, i int) []int
		i8      func(lane, i int) []int
	}{
		{"a", 1, 16, ptxM16N8K64AE2M1, ptxM16N8K32AI8},
		{"b", 0, 8, ptxM16N8K64BE2M1, ptxM16N8K32BI8},
	} {
		l := r.Operands[c.operand].Layout
		packed := model.PackPairs(l, c.kDim)
		if packed == nil {
			t.Fatalf("%s: the record's fragment does not hold a K pair in each lane's lowest register", c.operand)
		}
		checkTable(t, r.Name+" "+c.operand+" packed", packed, c.bytes, 32, 1, packedByte(t, c.table, c.kDim))
		checkTable(t, r.Name+" "+c.operand+" packed as i8", packed, c.bytes, 32, 1, c.i8)
		if back := model.UnpackPairs(packed, c.kDim); back == nil || !back.Equal(l) {
			t.Errorf("%s: unpacking the bytes gives %v, not the record's fragment", c.operand, back)
		}
	}
	// A fragment whose lowest register is not along K has no bytes.
	if model.PackPairs(r.Operands["c"].Layout, 0) != nil {
		t.Errorf("the accumulator's fragment, two f32 of a row in its lowest register along N, packs along M")
	}
}

func TestBlackwellTargets(t *testing.T) {
	lib := nvidiaLib(t)
	for _, c := range []struct {
		name            string
		shared          int
		lanes, columns  int
		offers, lacks   []string
		tensorMemoryOps bool
	}{
		// CUDA C++ Programming Guide, Compute Capabilities: 227 KB per
		// block on 10.0, 99 KB on 12.0; PTX ISA, "Tensor Memory": 128
		// lanes x 512 columns per CTA on sm_100, none on sm_120.
		{"sm_100", 227 * 1024, 128, 512,
			[]string{"tcgen05_mma_m128n256k16_f32_f16", "tcgen05_ld_32x32b_x1", "tcgen05_st_16x256b_x1", "mma_m16n8k16_f32_f16", "ldmatrix_x4", "stmatrix_x4"},
			[]string{"wgmma_m64n64k16_f32_f16", "mma_mxf4nvf4_m16n8k64_f32_e2m1_ue4m3"}, true},
		{"sm_120", 99 * 1024, 0, 0,
			[]string{"mma_f8f6f4_m16n8k32_f32_e4m3", "mma_mxf8f6f4_m16n8k32_f32_e4m3_ue8m0", "mma_mxf4_m16n8k64_f32_e2m1_ue8m0",
				"mma_mxf4nvf4_m16n8k64_f32_e2m1_ue4m3", "mma_m16n8k16_f32_f16", "ldmatrix_x4", "stmatrix_x4"},
			[]string{"wgmma_m64n64k16_f32_f16", "tcgen05_mma_m128n256k16_f32_f16", "tcgen05_ld_32x32b_x1"}, false},
	} {
		tg, ok := lib.Target(c.name)
		if !ok {
			t.Fatalf("no target %s", c.name)
		}
		if tg.Vendor != "nvidia" || tg.SubgroupSize != 32 || tg.MaxSubgroups != 32 || tg.SharedMemory != c.shared || tg.Banks != 32 || tg.BankBytes != 4 ||
			tg.TensorMemoryLanes != c.lanes || tg.TensorMemoryColumns != c.columns {
			t.Fatalf("%s: %d lanes, %d warps, %d bytes of shared memory in %d banks of %d bytes, tensor memory %dx%d",
				c.name, tg.SubgroupSize, tg.MaxSubgroups, tg.SharedMemory, tg.Banks, tg.BankBytes, tg.TensorMemoryLanes, tg.TensorMemoryColumns)
		}
		for _, r := range c.offers {
			if !slices.Contains(tg.Records, r) {
				t.Errorf("%s does not offer %s", c.name, r)
			}
		}
		for _, r := range c.lacks {
			if slices.Contains(tg.Records, r) {
				t.Errorf("%s offers %s", c.name, r)
			}
		}
		// Every tensor-memory record is on a target with tensor memory.
		for _, n := range tg.Records {
			r := record(t, lib, n)
			tm := r.Kind.TensorMemory()
			for _, op := range r.Operands {
				tm = tm || op.TensorMemory
			}
			if tm && !c.tensorMemoryOps {
				t.Errorf("%s offers %s, which uses tensor memory", c.name, n)
			}
		}
	}
}
