package intrinsics

import (
	"testing"

	"planner/model"
)

// Intel Xe (PVC, Xe2) fragment tables, typed in from Intel's documents, one
// function per table: for a work item (lane) of a subgroup of 16 and a value
// index, the (row, column) it holds. They are written from the documents'
// wording, never from the records in intrinsics/intel/.

// Khronos cl_intel_subgroup_matrix_multiply_accumulate, the functions for a
// minimum subgroup size of 16:
//
//	float8 intel_sub_group_{bf16_bf16,f16_f16}_matrix_mad_k16(short8 a, int8 b, float8 acc)
//
// Section 6.13.X: M is the number of components of a and acc; N is the
// subgroup size; K = 16 for fp16 and bf16.

// a (8x16, M x K): component m is row m; each work item contributes one
// 16-bit short per row, so work item l holds column l.
func khrDpasA(lane, i int) []int { return []int{i, lane} }

// b (16x16, K x N): "each work item contributes one column"; the 256 bits
// of a column are packed into int8 b, component j holding rows 2j (low 16
// bits) and 2j+1 (high 16 bits). Value i is half i%2 of component i/2.
func khrDpasB(lane, i int) []int {
	j, half := i/2, i%2
	return []int{2*j + half, lane}
}

// acc and the result (8x16, M x N): "each work item contributes one column
// of accumulation values"; component m is row m.
func khrDpasC(lane, i int) []int { return []int{i, lane} }

// Khronos cl_intel_subgroup_2d_block_io 6.13.X.1 / 6.13.X.3 and
// SPV_INTEL_2d_block_io, "Mapping Block Data to Invocations".

// intel_sub_group_2d_block_read_16b_8r16x1c and _write_16b_8r16x1c: "each
// work item reads (writes) one data element per block row"; the 16-column
// block row is spread one element per invocation, lower columns to lower
// invocations. destination[r] is block row r.
func khrBlock16b8r16c(lane, i int) []int { return []int{i, lane} }

// intel_sub_group_2d_block_write_32b_8r16x1c: 32-bit data, "rows in [1,
// 2, 4, 8], columns in [16]" (New OpenCL C Functions); the 16 columns go one
// per invocation, lower columns to lower invocations (SPV_INTEL_2d_block_io,
// "Mapping Block Data to Invocations"); value[r] is block row r.
func khrBlockWrite32b8r16c(lane, i int) []int { return []int{i, lane} }

// intel_sub_group_2d_block_read_transform_16b_16r16x1c: "each work item in
// the sub-group reads one column of data. Values from first two rows of data
// are packed into the first component of the return value, then values from
// next two rows"; lower-numbered rows in the lower bits. Value i is half i%2
// of uint i/2.
func khrBlockTransform16b16r16c(lane, i int) []int {
	j, half := i/2, i%2
	return []int{2*j + half, lane}
}

// intel_sub_group_2d_block_read_transpose_32b_16r8x1c, in memory
// coordinates (16 rows x 8 columns pre-transpose): column c of the block
// becomes row c of the transposed block, whose 16 elements go one per
// invocation; destination[c] of work item l is memory (row l, column c).
func khrBlockTranspose32b16r8c(lane, i int) []int { return []int{lane, i} }

func intelLib(t *testing.T) *Library {
	t.Helper()
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func intelRecord(t *testing.T, lib *Library, name string) *model.Record {
	t.Helper()
	r, ok := lib.Records[name]
	if !ok {
		t.Fatalf("no record %s (is intrinsics/intel/ embedded?)", name)
	}
	if r.Vendor != "intel" || r.SubgroupSize != 16 {
		t.Fatalf("%s: vendor %q, subgroup size %d; want intel, 16", name, r.Vendor, r.SubgroupSize)
	}
	return r
}

func TestIntelDpasAgainstKhronos(t *testing.T) {
	lib := intelLib(t)
	for _, c := range []struct {
		name string
		in   string
	}{{"dpas_m8n16k16_f32_bf16", "bf16"}, {"dpas_m8n16k16_f32_f16", "f16"}} {
		r := intelRecord(t, lib, c.name)
		if r.Kind != model.RecordMMA || r.M != 8 || r.N != 16 || r.K != 16 {
			t.Fatalf("%s: kind %s, shape M=%d N=%d K=%d; want mma 8x16x16", c.name, r.Kind, r.M, r.N, r.K)
		}
		for _, op := range []struct {
			name      string
			dtype     string
			values    int
			registers int // 32-bit registers per work item: short8, int8, float8, float8
			want      func(lane, i int) []int
		}{
			{"a", c.in, 8, 4, khrDpasA},
			{"b", c.in, 16, 8, khrDpasB},
			{"c", "f32", 8, 8, khrDpasC},
			{"d", "f32", 8, 8, khrDpasC},
		} {
			o := r.Operands[op.name]
			if o == nil {
				t.Fatalf("%s: no operand %s", c.name, op.name)
			}
			if o.DType.Name != op.dtype || o.Registers != op.registers {
				t.Fatalf("%s %s: dtype %s, %d registers; want %s, %d", c.name, op.name, o.DType.Name, o.Registers, op.dtype, op.registers)
			}
			checkTable(t, c.name+" "+op.name, o.Layout, op.values, 16, 1, op.want)
		}
	}
}

// khrBlockRule is the surface rule the records must carry: Khronos
// cl_intel_subgroup_2d_block_io 6.13.X.6 and SPV_INTEL_2d_block_io
// "Restrictions", with the readings chosen where the sources disagree
// (pitch a multiple of 16 bytes as the OpenCL extension and the MLIR Xe2
// uArch say, not 8 as the SPIR-V extension says; width and pitch at least
// 64 bytes as both extensions say, not 32 as the MLIR uArch allows).
var khrBlockRule = model.Block2DRule{
	BaseAlignment: 64,
	PitchMin:      64,
	PitchMax:      1 << 24,
	PitchMultiple: 16,
	WidthMin:      64,
	WidthMax:      1 << 24,
	WidthMultiple: 4,
	HeightMax:     1 << 24,
	XAlignment:    4,
}

func TestIntelBlockIOAgainstKhronos(t *testing.T) {
	lib := intelLib(t)
	for _, c := range []struct {
		name       string
		kind       model.RecordKind
		transform  string
		shape      []int // block rows x columns, in memory
		dtype      string
		values     int
		registers  int
		widthBytes int // block width in bytes, height, blocks: the 5.2.X table shape
		height     int
		want       func(lane, i int) []int
	}{
		{"block_load_2d_16b_8x16", model.RecordLoadGlobal, "none", []int{8, 16}, "b16", 8, 4, 32, 8, khrBlock16b8r16c},
		{"block_store_2d_16b_8x16", model.RecordStoreGlobal, "none", []int{8, 16}, "b16", 8, 4, 32, 8, khrBlock16b8r16c},
		{"block_store_2d_32b_8x16", model.RecordStoreGlobal, "none", []int{8, 16}, "b32", 8, 8, 64, 8, khrBlockWrite32b8r16c},
		{"block_load_2d_16b_16x16_vnni", model.RecordLoadGlobal, "vnni", []int{16, 16}, "b16", 16, 8, 32, 16, khrBlockTransform16b16r16c},
		{"block_load_2d_32b_16x8_transpose", model.RecordLoadGlobal, "transpose", []int{16, 8}, "b32", 8, 8, 32, 16, khrBlockTranspose32b16r8c},
	} {
		r := intelRecord(t, lib, c.name)
		if r.Kind != c.kind || r.Transform != c.transform || r.Matrices != 1 {
			t.Fatalf("%s: kind %s, transform %q, matrices %d; want %s, %q, 1", c.name, r.Kind, r.Transform, r.Matrices, c.kind, c.transform)
		}
		f := r.Fragment
		if f == nil || len(f.Shape) != 2 || f.Shape[0] != c.shape[0] || f.Shape[1] != c.shape[1] {
			t.Fatalf("%s: fragment %+v, want shape %v", c.name, f, c.shape)
		}
		if f.DType.Name != c.dtype || f.Registers != c.registers {
			t.Fatalf("%s: fragment dtype %s, %d registers; want %s, %d", c.name, f.DType.Name, f.Registers, c.dtype, c.registers)
		}
		checkTable(t, c.name, f.Layout, c.values, 16, 1, c.want)
		want := khrBlockRule
		want.BlockWidthBytes, want.BlockHeight, want.ArrayLength = c.widthBytes, c.height, 1
		if r.Memory.Rule != "block_2d" || r.Memory.Block2D != want {
			t.Fatalf("%s: memory rule %q %+v, want block_2d %+v", c.name, r.Memory.Rule, r.Memory.Block2D, want)
		}
	}
}

// pvc and bmg offer every subgroup-16 Intel record, and nothing else (dg2,
// whose subgroups are 8, is in intel_sg8_test.go).
func TestIntelTargets(t *testing.T) {
	lib := intelLib(t)
	for _, name := range []string{"pvc", "bmg"} {
		tg, ok := lib.Target(name)
		if !ok {
			t.Fatalf("no target %s", name)
		}
		if tg.Vendor != "intel" || tg.SubgroupSize != 16 || tg.MaxSubgroups != 64 || tg.SharedMemory != 128<<10 {
			t.Fatalf("%s: vendor %q, subgroup %d, %d subgroups, %d bytes of SLM", name, tg.Vendor, tg.SubgroupSize, tg.MaxSubgroups, tg.SharedMemory)
		}
		mma := recordsOf(t, lib, tg, model.RecordMMA)
		ld := recordsOf(t, lib, tg, model.RecordLoadGlobal)
		st := recordsOf(t, lib, tg, model.RecordStoreGlobal)
		fma := recordsOf(t, lib, tg, model.RecordFMA)
		if len(mma) != 2 || len(ld) != 3 || len(st) != 2 || len(fma) != 2 || len(tg.Records) != 9 {
			t.Fatalf("%s offers %d mma, %d global loads, %d global stores, %d fma (%d records), want 2, 3, 2, 2 (9)", name, len(mma), len(ld), len(st), len(fma), len(tg.Records))
		}
		for _, rn := range tg.Records {
			// An fma record runs in every lane, for any subgroup size.
			if r := lib.Records[rn]; r.Vendor != "intel" || r.SubgroupSize != tg.SubgroupSize && r.Kind != model.RecordFMA {
				t.Fatalf("%s offers %s (vendor %s, subgroup %d)", name, rn, r.Vendor, r.SubgroupSize)
			}
		}
	}
}

// Facts a planner relies on, from the same tables.
func TestIntelFragmentFacts(t *testing.T) {
	lib := intelLib(t)
	dpas := intelRecord(t, lib, "dpas_m8n16k16_f32_bf16")
	a, b, c := dpas.Operands["a"].Layout, dpas.Operands["b"].Layout, dpas.Operands["c"].Layout

	// 1. The accumulator feeds the next DPAS's A operand with no shuffle.
	// C (8x16, M x N) gives work item n column n of rows 0..7; the next
	// product reads it as A (8x16, M x K with K = the old N), and on a
	// subgroup of 16 the Khronos A operand is short8: work item k holds
	// column k of rows 0..7. After the in-lane f32 -> bf16 conversion every
	// work item already holds exactly its A elements: the layouts are the
	// same map, so the conversion is "none" (no shuffle, no cross-lane move).
	// This corrects the expectation that A needs pairs of K per lane: that
	// is the subgroup-size-8 form (int a: 8 lanes x 2 = 16 = K); with 16
	// lanes and K = 16 a pair per lane would need K = 32 (the 8-bit form).
	if !c.Equal(a) {
		t.Fatalf("the accumulator is not the A layout:\n%v\n%v", c, a)
	}
	conv, err := model.Analyze(c, a, 16)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Kind != model.ConvNone || conv.Rounds != 0 {
		t.Fatalf("C (as bf16) -> A is %s with %d shuffle rounds, want none", conv.Kind, conv.Rounds)
	}

	// 2. The accumulator feeds B too, without a shuffle: B (16x16, K x N)
	// gives work item n column n of all 16 K rows, and two accumulators
	// stacked along M (the second in values 8..15) give work item n column
	// n of 16 rows. Every lane holds its own B elements. In the
	// planner's word model (values 2j, 2j+1 share a word) the two are the
	// same map; on the hardware the bf16 rows must still be interleaved
	// into VNNI dwords inside each lane (movs, no cross-lane traffic).
	two, err := model.Tile(c, []int{16, 16}, []model.TileFactor{{Dim: 0, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !two.Equal(b) {
		t.Fatalf("two stacked accumulators are not the B layout:\n%v\n%v", two, b)
	}
	conv, err = model.Analyze(two, b, 16)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Kind == model.ConvShuffle || conv.Kind == model.ConvShared || conv.Rounds != 0 {
		t.Fatalf("two accumulators -> B is %s with %d shuffle rounds, want no cross-lane traffic", conv.Kind, conv.Rounds)
	}
	// One accumulator is not a B fragment: B needs 16 K rows per lane.
	if _, ok := model.MatchFragment(c, b); ok {
		t.Fatal("an 8x16 accumulator matched the 16x16 B fragment")
	}

	// 3. The VNNI block load gives exactly the DPAS B operand, for bf16 and
	// f16 alike.
	vnni := intelRecord(t, lib, "block_load_2d_16b_16x16_vnni").Fragment.Layout
	for _, name := range []string{"dpas_m8n16k16_f32_bf16", "dpas_m8n16k16_f32_f16"} {
		bb := intelRecord(t, lib, name).Operands["b"].Layout
		if !vnni.Equal(bb) {
			t.Fatalf("the VNNI block load is not %s's B:\n%v\n%v", name, vnni, bb)
		}
		if n, ok := model.MatchFragment(bb, vnni); !ok || n != 1 {
			t.Fatalf("%s's B is %d VNNI fragments (ok %v), want 1", name, n, ok)
		}
	}

	// 4. The plain 8x16 16-bit block load gives work item l column l of
	// rows 0..7: the accumulator-shaped layout (lane = column, value = row),
	// and therefore exactly the DPAS A operand on a subgroup of 16.
	plain := intelRecord(t, lib, "block_load_2d_16b_8x16").Fragment.Layout
	if !plain.Equal(c) || !plain.Equal(a) {
		t.Fatalf("the plain 8x16 block load is not the C / A layout:\n%v\n%v", plain, c)
	}
	store := intelRecord(t, lib, "block_store_2d_16b_8x16").Fragment.Layout
	if !store.Equal(c) {
		t.Fatal("the 8x16 block store does not take the accumulator layout")
	}
	// Two plain loads stacked are the same (lane, value) map as the VNNI
	// load: per work item, short r is row r, and the VNNI uint j holds rows
	// 2j and 2j+1. The transform changes where the halves sit in the
	// register file, not which lane holds what, so the planner sees no
	// layout difference between them (the cost of repacking is in-lane).
	twoPlain, err := model.Tile(plain, []int{16, 16}, []model.TileFactor{{Dim: 0, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !twoPlain.Equal(vnni) {
		t.Fatal("two stacked plain loads differ from the VNNI load as (lane, value) maps")
	}

	// 5. The transposed 32-bit load of a 16x8 block gives, read as the 8x16
	// transpose, the accumulator layout: lane = column, value = row.
	tr := intelRecord(t, lib, "block_load_2d_32b_16x8_transpose").Fragment.Layout
	trT, err := tr.Transpose([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !trT.Equal(c) {
		t.Fatalf("the transposed load, transposed, is not the accumulator layout:\n%v\n%v", trT, c)
	}
	if tr.Equal(plain) {
		t.Fatal("the transposed load equals the plain load")
	}
}

// intel_sub_group_2d_block_read_transpose_32b_16r8x1c read for 16-bit
// data, as upstream XeGPU reads a transposed 16-bit block (pairs of
// elements as one 32-bit element): destination[j] of work item l is memory
// (row l, 32-bit column j) (khrBlockTranspose32b16r8c), and a 32-bit
// column j of 16-bit data is the 16-bit columns 2j, in the low half, and
// 2j+1, in the high half (Intel GPUs are little-endian). Value i is half
// i%2 of uint i/2: memory (row l, 16-bit column i).
func khrBlockTranspose32bAs16b(lane, i int) []int {
	j, half := i/2, i%2
	return []int{lane, 2*j + half}
}

// The block records as the planner runs them on data of another width
// (model.BlockFragment), against the tables above, and the facts that make
// the transposing load the way to DPAS's B and the plain 32-bit store the
// way out of its accumulator.
func TestIntelBlockFragmentViews(t *testing.T) {
	lib := intelLib(t)
	tr := intelRecord(t, lib, "block_load_2d_32b_16x8_transpose")
	v16 := model.BlockFragment(tr, 16)
	if v16 == nil || v16.Shape()[0] != 16 || v16.Shape()[1] != 16 {
		t.Fatalf("the transposing load read for 16-bit data: %v, want a 16x16 fragment", v16)
	}
	checkTable(t, "block_load_2d_32b_16x8_transpose as 16-bit", v16, 16, 16, 1, khrBlockTranspose32bAs16b)
	if !model.PacksPairs(tr, 16) || model.PacksPairs(tr, 32) {
		t.Fatal("the transposing load packs pairs of 16-bit elements, and nothing of 32-bit ones")
	}
	if model.BlockFragment(tr, 32) != tr.Fragment.Layout || model.BlockFragment(tr, 64) != nil {
		t.Fatal("a record's own width is its own fragment; a wider element than the record's has none")
	}
	// Transposed (memory N x K to K x N), the view is DPAS's B operand.
	b := intelRecord(t, lib, "dpas_m8n16k16_f32_bf16").Operands["b"].Layout
	vt, err := v16.Transpose([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !vt.Equal(b) {
		t.Fatalf("the transposing load of 16-bit data, transposed, is not DPAS's B:\n%v\n%v", vt, b)
	}
	// The VNNI load packs, the plain one does not; the 32-bit store takes
	// the accumulator as it is.
	if !model.PacksPairs(intelRecord(t, lib, "block_load_2d_16b_16x16_vnni"), 16) || model.PacksPairs(intelRecord(t, lib, "block_load_2d_16b_8x16"), 16) {
		t.Fatal("only the VNNI load packs rows")
	}
	c := intelRecord(t, lib, "dpas_m8n16k16_f32_bf16").Operands["c"].Layout
	if st := intelRecord(t, lib, "block_store_2d_32b_8x16"); !model.BlockFragment(st, 32).Equal(c) {
		t.Fatal("the 32-bit 8x16 block store does not take the accumulator layout")
	}
}
