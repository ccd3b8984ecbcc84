package intrinsics

import (
	"slices"
	"testing"

	"planner/model"
)

// Intel Xe-HPG (DG2) DPAS on a subgroup of 8, typed in from the Khronos
// extension cl_intel_subgroup_matrix_multiply_accumulate, never from the
// records in intrinsics/intel/. The functions for devices whose minimum
// subgroup size is 8 ("New OpenCL C Functions", first list):
//
//	float8 intel_sub_group_{bf16_bf16,f16_f16}_matrix_mad_k16(int8 a, int8 b, float8 acc)
//	int8   intel_sub_group_i8_i8_matrix_mad_k32(int8 a, int8 b, int8 acc)
//
// Section 6.13.X: M is the number of components of a and acc, N the
// subgroup size (8), K is in the name; "each work item is contributing 32
// bits (the size of a uint) of data per row" of a, so 32 / bits elements of
// a row per work item; b is "one column" per work item, K values packed into
// the eight 32-bit components; acc and the result are "one column of
// accumulation values" per work item, component m being row m. The coding
// sample fixes the order inside a 32-bit value: work item i's bits of a are
// k block i (sub_group_broadcast(v, i)), split lowest bits first
// (as_char4), and component i of b is the same k block.

// sg8DpasA is a (M x K): component m of work item l holds the per32 = 32 /
// bits elements l*per32 .. l*per32 + per32-1 of row m, lowest bits first.
// Value i is element i%per32 of component i/per32.
func sg8DpasA(per32 int) func(lane, i int) []int {
	return func(lane, i int) []int {
		m, c := i/per32, i%per32
		return []int{m, lane*per32 + c}
	}
}

// sg8DpasB is b (K x N): work item l holds column l; component j packs the
// per32 rows j*per32 .. j*per32 + per32-1, lowest bits first.
func sg8DpasB(per32 int) func(lane, i int) []int {
	return func(lane, i int) []int {
		j, c := i/per32, i%per32
		return []int{j*per32 + c, lane}
	}
}

// sg8DpasC is acc and the result (M x N): component m of work item l is
// (row m, column l).
func sg8DpasC(lane, i int) []int { return []int{i, lane} }

func sg8Record(t *testing.T, lib *Library, name string) *model.Record {
	t.Helper()
	r, ok := lib.Records[name]
	if !ok {
		t.Fatalf("no record %s (is intrinsics/intel/ embedded?)", name)
	}
	if r.Vendor != "intel" || r.SubgroupSize != 8 || r.Subgroups > 1 {
		t.Fatalf("%s: vendor %q, subgroup size %d, %d subgroups; want intel, 8, 1", name, r.Vendor, r.SubgroupSize, r.Subgroups)
	}
	return r
}

func TestIntelSG8DpasAgainstKhronos(t *testing.T) {
	lib := intelLib(t)
	for _, c := range []struct {
		name     string
		in, acc  string
		k, per32 int // K and elements per 32-bit component of a and b
	}{
		{"dpas_m8n8k16_f32_bf16", "bf16", "f32", 16, 2},
		{"dpas_m8n8k16_f32_f16", "f16", "f32", 16, 2},
		{"dpas_m8n8k32_i32_i8", "i8", "i32", 32, 4},
	} {
		r := sg8Record(t, lib, c.name)
		// M = 8 (eight components), N = 8 (the subgroup size), K from the name.
		if r.Kind != model.RecordMMA || r.M != 8 || r.N != 8 || r.K != c.k || r.Blocks > 1 {
			t.Fatalf("%s: kind %s, shape M=%d N=%d K=%d, %d blocks; want mma 8x8x%d", c.name, r.Kind, r.M, r.N, r.K, r.Blocks, c.k)
		}
		for _, op := range []struct {
			name   string
			dtype  string
			values int // per work item: 8 components x 32 bits of a and b, 8 of acc
			want   func(lane, i int) []int
		}{
			{"a", c.in, 8 * c.per32, sg8DpasA(c.per32)},
			{"b", c.in, 8 * c.per32, sg8DpasB(c.per32)},
			{"c", c.acc, 8, sg8DpasC},
			{"d", c.acc, 8, sg8DpasC},
		} {
			o := r.Operands[op.name]
			if o == nil {
				t.Fatalf("%s: no operand %s", c.name, op.name)
			}
			// int8 a, int8 b, float8 / int8 acc and result: 8 registers each.
			if o.DType.Name != op.dtype || o.Registers != 8 {
				t.Fatalf("%s %s: dtype %s, %d registers; want %s, 8", c.name, op.name, o.DType.Name, o.Registers, op.dtype)
			}
			checkTable(t, c.name+" "+op.name, o.Layout, op.values, 8, 1, op.want)
		}
	}
}

// dg2 offers the subgroup-8 DPAS forms and nothing else: no 2D block loads
// (cl_intel_subgroup_2d_block_io is for devices whose minimum subgroup size
// is 16) and no shared-memory load records. Its limits, from Intel's GPU
// occupancy calculator (oneAPI-samples, "xe_hpg_dg2_arc"): subgroups of 8
// (Subgroup_Sizes [32, 16, 8], the minimum being what DPAS requires), work
// groups of 1024 work-items = 128 subgroups, 64 KiB of SLM per work-group;
// 16 banks of 4 bytes (oneAPI GPU Optimization Guide, "Shared Local Memory").
func TestIntelSG8Target(t *testing.T) {
	lib := intelLib(t)
	tg, ok := lib.Target("dg2")
	if !ok {
		t.Fatal("no target dg2")
	}
	if tg.Vendor != "intel" || tg.SubgroupSize != 8 || tg.MaxSubgroups != 1024/8 || tg.SharedMemory != 64<<10 || tg.Banks != 16 || tg.BankBytes != 4 {
		t.Fatalf("dg2: vendor %q, subgroup %d, %d subgroups, %d bytes of SLM, %d banks of %d bytes; want intel, 8, 128, 65536, 16 x 4",
			tg.Vendor, tg.SubgroupSize, tg.MaxSubgroups, tg.SharedMemory, tg.Banks, tg.BankBytes)
	}
	var mma []string
	for _, r := range recordsOf(t, lib, tg, model.RecordMMA) {
		mma = append(mma, r.Name)
	}
	slices.Sort(mma)
	if want := []string{"dpas_m8n8k16_f32_bf16", "dpas_m8n8k16_f32_f16", "dpas_m8n8k32_i32_i8"}; !slices.Equal(mma, want) || len(tg.Records) != len(want) {
		t.Fatalf("dg2 offers mma %v (%d records in all), want %v and nothing else", mma, len(tg.Records), want)
	}
	for _, rn := range tg.Records {
		sg8Record(t, lib, rn)
	}
	// The subgroup-8 forms are dg2's alone: pvc and bmg run subgroups of 16.
	for _, rn := range tg.Records {
		if by := lib.OfferedBy(rn); !slices.Equal(by, []string{"dg2"}) {
			t.Fatalf("%s is offered by %v, want dg2 only", rn, by)
		}
	}
	// The cost unit is one SIMD8 ALU instruction; a DPAS is worth several.
	if tg.Weights.ALU != 1 {
		t.Fatalf("dg2: alu weight %d, want 1 (the unit of the DPAS records' cost)", tg.Weights.ALU)
	}
}

// Facts a planner relies on, from the same tables.
func TestIntelSG8FragmentFacts(t *testing.T) {
	lib := intelLib(t)
	f16 := sg8Record(t, lib, "dpas_m8n8k16_f32_f16")
	a, b, c := f16.Operands["a"].Layout, f16.Operands["b"].Layout, f16.Operands["c"].Layout

	// 1. bf16 and f16 share every layout; only the element type differs.
	bf16 := sg8Record(t, lib, "dpas_m8n8k16_f32_bf16")
	for _, op := range []string{"a", "b", "c", "d"} {
		if !bf16.Operands[op].Layout.Equal(f16.Operands[op].Layout) {
			t.Fatalf("operand %s: the bf16 and f16 layouts differ", op)
		}
	}

	// 2. Unlike the subgroup-16 form, the accumulator does not feed the
	// next DPAS's A in place. Two accumulators side by side along N make
	// the 8x16 A tile, but work item l then holds columns l and l + 8 of a
	// row, while A wants columns 2l and 2l + 1 (int a, two halves): half of
	// every row changes lanes.
	two, err := model.Tile(c, []int{8, 16}, []model.TileFactor{{Dim: 1, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if two.Equal(a) {
		t.Fatal("two accumulators side by side equal the subgroup-8 A layout")
	}
	conv, err := model.Analyze(two, a, 16)
	if err != nil {
		t.Fatal(err)
	}
	if conv.Kind != model.ConvShuffle || conv.Rounds == 0 {
		t.Fatalf("two accumulators -> A is %s with %d shuffle rounds, want a shuffle within the subgroup", conv.Kind, conv.Rounds)
	}

	// 3. Two accumulators stacked along M give B (16x8, K x N): work item
	// n holds column n of all 16 K rows, no cross-lane traffic.
	stacked, err := model.Tile(c, []int{16, 8}, []model.TileFactor{{Dim: 0, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !stacked.Equal(b) {
		t.Fatalf("two stacked accumulators are not the B layout:\n%v\n%v", stacked, b)
	}

	// 4. A row of A is one contiguous 32-byte piece of a row-major tile,
	// work item l reading bytes 4l .. 4l+3: the 8-bit A holds 4 columns per
	// work item where the 16-bit A holds 2, the same 32 bits.
	i8 := sg8Record(t, lib, "dpas_m8n8k32_i32_i8")
	for _, r := range []*model.Record{f16, i8} {
		al := r.Operands["a"].Layout
		per32 := 32 / r.Operands["a"].DType.Bits
		for lane := range 8 {
			for k := range per32 {
				if got := al.Index(model.HwPoint{Value: k, Lane: lane}); !slices.Equal(got, []int{0, lane*per32 + k}) {
					t.Fatalf("%s: work item %d value %d holds %v, want row 0 column %d", r.Name, lane, k, got, lane*per32+k)
				}
			}
		}
	}
}
