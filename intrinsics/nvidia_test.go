package intrinsics

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"planner/model"
)

// Tables for the NVIDIA records added after the m16n8k16 and ldmatrix ones,
// typed in from the PTX ISA's formulas (and, for wgmma, from its figures),
// one function per figure: for a thread and a value index, the element it
// holds. They are written from the documents, never from the records.
// groupID = laneid >> 2, threadID_in_group = laneid % 4 throughout.

// PTX ISA, "Matrix Fragments for mma.m16n8k8", Figure "MMA .m16n8k8 fragment
// layout for matrix A with .f16 / .bf16 type": a0..a3 over 16x8 (M x K).
func ptxM16N8K8AF16(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := g
	if i >= 2 {
		row = g + 8
	}
	return []int{row, t*2 + i&1}
}

// Same section, Figure "... for matrix B with .f16 / .bf16 type": b0, b1
// over 8x8 (K x N).
func ptxM16N8K8BF16(lane, i int) []int {
	g, t := lane>>2, lane%4
	return []int{t*2 + i, g}
}

// Same section, Figure "... for matrix A with .tf32 type": a0..a3 over 16x8.
func ptxM16N8K8ATF32(lane, i int) []int {
	g, t := lane>>2, lane%4
	row, col := g, t
	if i == 1 || i == 3 {
		row = g + 8
	}
	if i >= 2 {
		col = t + 4
	}
	return []int{row, col}
}

// Same section, Figure "... for matrix B with .tf32 type": b0, b1 over 8x8.
func ptxM16N8K8BTF32(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := t
	if i == 1 {
		row = t + 4
	}
	return []int{row, g}
}

// Same section, Figure "MMA .m16n8k8 fragment layout for accumulator matrix
// C/D with .f16x2/.f32 type": c0..c3 over 16x8 (M x N).
func ptxM16N8K8C(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := g
	if i >= 2 {
		row = g + 8
	}
	return []int{row, t*2 + i&1}
}

// PTX ISA, "Matrix Fragments for mma.m16n8k32", Figure "MMA .m16n8k32
// fragment layout for matrix A with .u8 / .s8 ... type": a0..a15 over 16x32.
func ptxM16N8K32AI8(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := g + 8
	if i < 4 || (8 <= i && i < 12) {
		row = g
	}
	col := t*4 + i&3
	if i >= 8 {
		col += 16
	}
	return []int{row, col}
}

// Same section, Figures "... for rows 0-15 / rows 16-31 of matrix B with
// .u8 / .s8 ... type": b0..b7 over 32x8.
func ptxM16N8K32BI8(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := t*4 + i&3
	if i >= 4 {
		row += 16
	}
	return []int{row, g}
}

// Same section, Figure "MMA .m16n8k32 fragment layout for accumulator matrix
// C/D with .s32 / .f32 / .f16 type": c0..c3 over 16x8.
func ptxM16N8K32C(lane, i int) []int {
	g, t := lane>>2, lane%4
	row := g
	if i >= 2 {
		row = g + 8
	}
	return []int{row, t*2 + i&1}
}

// PTX ISA, "Warp-level matrix store instruction: stmatrix", Figure
// "stmatrix fragment layout for one 8x8 matrix with 16-bit elements": a
// group of four threads stores a row, thread 0 the first fragment (two
// 16-bit elements of its register).
func ptxStmatrix(lane, i int) []int { return []int{lane / 4, 2*(lane%4) + i} }

// With .trans "the matrix is stored in column-major format".
func ptxStmatrixTrans(lane, i int) []int { return []int{2*(lane%4) + i, lane / 4} }

// PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16", Figure "WGMMA
// .m64nNk16 register fragment layout for matrix A": thread = lane + 32 *
// warp of the warpgroup; warp w holds rows 16w .. 16w+15, a0..a7 placed as
// in the mma.m16n8k16 A figure (a2, a3, a6, a7 eight rows down, a4..a7
// eight columns right).
func ptxWgmmaA(thread, i int) []int {
	w, lane := thread/32, thread%32
	g, t := lane>>2, lane%4
	row := 16*w + g + 8*(i>>1&1)
	col := t*2 + i&1 + 8*(i>>2)
	return []int{row, col}
}

// Same section, Figure "WGMMA .m64nNk16 register fragment layout for
// accumulator matrix D": d0..d(N/2-1); every group of four values covers
// the next 8 columns, within it as in the mma m16n8 C figure.
func ptxWgmmaD(thread, i int) []int {
	w, lane := thread/32, thread%32
	g, t := lane>>2, lane%4
	row := 16*w + g + 8*(i>>1&1)
	col := 8*(i>>2) + t*2 + i&1
	return []int{row, col}
}

func nvidiaLib(t *testing.T) *Library {
	t.Helper()
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func record(t *testing.T, lib *Library, name string) *model.Record {
	t.Helper()
	r, ok := lib.Records[name]
	if !ok {
		t.Fatalf("no record %s", name)
	}
	return r
}

// checkOperand compares one operand with a vendor table and with the
// 32-bit register count the vendor's fragment table gives.
func checkOperand(t *testing.T, r *model.Record, name string, dtype string, registers, values, subgroups int, want func(thread, i int) []int) {
	t.Helper()
	op := r.Operands[name]
	if op == nil {
		t.Fatalf("%s: no operand %s", r.Name, name)
	}
	what := r.Name + " " + name
	if op.DType.Name != dtype || op.Registers != registers {
		t.Fatalf("%s: %s in %d registers, want %s in %d", what, op.DType.Name, op.Registers, dtype, registers)
	}
	checkTable(t, what, op.Layout, values, 32, subgroups, want)
}

func TestNvidiaMMASyncAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)

	r := record(t, lib, "mma_m16n8k8_f32_f16")
	if r.Kind != model.RecordMMA || r.M != 16 || r.N != 8 || r.K != 8 {
		t.Fatalf("%s: %s %dx%dx%d", r.Name, r.Kind, r.M, r.N, r.K)
	}
	// "two .f16x2 registers", "a single .f16x2 register", "four .f32 registers".
	checkOperand(t, r, "a", "f16", 2, 4, 1, ptxM16N8K8AF16)
	checkOperand(t, r, "b", "f16", 1, 2, 1, ptxM16N8K8BF16)
	checkOperand(t, r, "c", "f32", 4, 4, 1, ptxM16N8K8C)
	checkOperand(t, r, "d", "f32", 4, 4, 1, ptxM16N8K8C)

	r = record(t, lib, "mma_m16n8k8_f32_tf32")
	if r.M != 16 || r.N != 8 || r.K != 8 {
		t.Fatalf("%s: %dx%dx%d", r.Name, r.M, r.N, r.K)
	}
	// tf32 takes a whole .b32 register: "four .b32 registers", "two .b32 registers".
	checkOperand(t, r, "a", "tf32", 4, 4, 1, ptxM16N8K8ATF32)
	checkOperand(t, r, "b", "tf32", 2, 2, 1, ptxM16N8K8BTF32)
	checkOperand(t, r, "c", "f32", 4, 4, 1, ptxM16N8K8C)
	checkOperand(t, r, "d", "f32", 4, 4, 1, ptxM16N8K8C)

	r = record(t, lib, "mma_m16n8k32_s32_s8")
	if r.M != 16 || r.N != 8 || r.K != 32 {
		t.Fatalf("%s: %dx%dx%d", r.Name, r.M, r.N, r.K)
	}
	// Four s8 per .b32: "four .b32 registers" (16 values), "two .b32
	// registers" (8 values); "four .s32 registers".
	checkOperand(t, r, "a", "s8", 4, 16, 1, ptxM16N8K32AI8)
	checkOperand(t, r, "b", "s8", 2, 8, 1, ptxM16N8K32BI8)
	checkOperand(t, r, "c", "s32", 4, 4, 1, ptxM16N8K32C)
	checkOperand(t, r, "d", "s32", 4, 4, 1, ptxM16N8K32C)
}

func TestNvidiaStmatrixAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	for _, n := range []int{1, 2, 4} {
		for _, trans := range []bool{false, true} {
			name := fmt.Sprintf("stmatrix_x%d", n)
			want := ptxStmatrix
			if trans {
				name += "_trans"
				want = ptxStmatrixTrans
			}
			r := record(t, lib, name)
			if r.Kind != model.RecordStoreShared || r.Matrices != n || r.Trans != trans {
				t.Fatalf("%s: kind %s, matrices %d, trans %v", name, r.Kind, r.Matrices, r.Trans)
			}
			// "a group of four consecutive threads stores 16 bytes. The
			// matrix addresses must be naturally aligned accordingly."
			m := r.Memory
			if m.Rule != "row_pointers" || m.RowBytes != 16 || m.Alignment != 16 {
				t.Fatalf("%s: memory %+v", name, m)
			}
			f := r.Fragment
			if f == nil || !slices.Equal(f.Shape, []int{8, 8}) || f.DType.Bits != 16 || f.Registers != 1 {
				t.Fatalf("%s: fragment %+v", name, f)
			}
			checkTable(t, name, f.Layout, 2, 32, 1, want)
		}
	}
}

func TestNvidiaWMMARecords(t *testing.T) {
	lib := nvidiaLib(t)
	// PTX ISA, "Matrix Fragments for WMMA": the distribution is
	// unspecified; .f16 A or B is "eight .f16x2 registers", .f32 C or D
	// "eight .f32 registers".
	mma := record(t, lib, "wmma_mma_m16n16k16_f32_f16")
	if mma.Kind != model.RecordMMA || mma.M != 16 || mma.N != 16 || mma.K != 16 {
		t.Fatalf("%s: %s %dx%dx%d", mma.Name, mma.Kind, mma.M, mma.N, mma.K)
	}
	// The planner gives each unspecified fragment a stand-in marked with
	// its family: 8 registers of f16x2 are 16 values per lane, 512 slots
	// for the 256 elements of a 16x16 tile (each held twice); 8 f32
	// registers are 8 values per lane, each element once. The loads and
	// the store name the same families as the mma's operands.
	families := map[string]string{}
	for _, c := range []struct {
		op, dtype string
		perLane   int
	}{{"a", "f16", 16}, {"b", "f16", 16}, {"c", "f32", 8}, {"d", "f32", 8}} {
		op := mma.Operands[c.op]
		if op == nil || !op.Unspecified || op.Layout == nil || op.Layout.Opaque() == "" || op.DType.Name != c.dtype || op.Registers != 8 {
			t.Fatalf("%s %s: %+v, want an unspecified %s fragment in 8 registers with a stand-in of its family", mma.Name, c.op, op, c.dtype)
		}
		l := op.Layout
		if l.Size(model.Register) != c.perLane || l.Size(model.Lane) != 32 || !slices.Equal(l.Shape(), []int{16, 16}) || l.Duplicated() != (c.perLane*32 > 256) {
			t.Fatalf("%s %s: stand-in %v, want %d values in each of 32 lanes over 16x16", mma.Name, c.op, l, c.perLane)
		}
		families[c.op] = l.Opaque()
	}
	want := map[string]string{"a": "wmma.m16n16k16.a.row.f16", "b": "wmma.m16n16k16.b.row.f16",
		"c": "wmma.m16n16k16.accumulator.f32", "d": "wmma.m16n16k16.accumulator.f32"}
	if !maps.Equal(families, want) {
		t.Fatalf("families %v, want %v", families, want)
	}
	// PTX ISA, "Matrix Storage for WMMA": every row start aligned to the
	// fragment's bytes (32 here); for f16, "p is a multiple of 32" and
	// "2*s is a multiple of 32" (s a multiple of 16 elements), for the f32
	// accumulator 4*s a multiple of 32 (s a multiple of 8).
	for _, c := range []struct {
		name   string
		kind   model.RecordKind
		dtype  string
		stride int
		family string
	}{
		{"wmma_load_a_m16n16k16_f16", model.RecordLoadShared, "f16", 16, "wmma.m16n16k16.a.row.f16"},
		{"wmma_load_b_m16n16k16_f16", model.RecordLoadShared, "f16", 16, "wmma.m16n16k16.b.row.f16"},
		{"wmma_store_d_m16n16k16_f32", model.RecordStoreShared, "f32", 8, "wmma.m16n16k16.accumulator.f32"},
	} {
		r := record(t, lib, c.name)
		if r.Kind != c.kind {
			t.Fatalf("%s: kind %s, want %s", c.name, r.Kind, c.kind)
		}
		m := r.Memory
		if m.Rule != "constant_stride" || m.StrideMultiple != c.stride || m.Alignment != 32 {
			t.Fatalf("%s: memory %+v, want constant_stride, stride multiple %d, alignment 32", c.name, m, c.stride)
		}
		f := r.Fragment
		if f == nil || !f.Unspecified || f.Layout == nil || f.Layout.Opaque() != c.family || !slices.Equal(f.Shape, []int{16, 16}) || f.DType.Name != c.dtype || f.Registers != 8 {
			t.Fatalf("%s: fragment %+v, want an unspecified 16x16 %s fragment in 8 registers of family %s", c.name, f, c.dtype, c.family)
		}
	}
}

func TestNvidiaWgmmaAgainstPTX(t *testing.T) {
	lib := nvidiaLib(t)
	for _, n := range []int{64, 128, 256} {
		r := record(t, lib, fmt.Sprintf("wgmma_m64n%dk16_f32_f16", n))
		if r.M != 64 || r.N != n || r.K != 16 || r.SubgroupSize != 32 || r.Subgroups != 4 {
			t.Fatalf("%s: %dx%dx%d over %d subgroups of %d", r.Name, r.M, r.N, r.K, r.Subgroups, r.SubgroupSize)
		}
		// A: "four .f16x2 registers"; D (.f32): "N/2 number of .f32 registers".
		checkOperand(t, r, "a", "f16", 4, 8, 4, ptxWgmmaA)
		checkOperand(t, r, "c", "f32", n/2, n/2, 4, ptxWgmmaD)
		checkOperand(t, r, "d", "f32", n/2, n/2, 4, ptxWgmmaD)
		// "The input matrix B ... must be in the shared memory"; "their
		// starting addresses must be aligned to 16 bytes"; the descriptor's
		// swizzle modes: none, 128-Byte, 64-Byte, 32-Byte.
		b := r.Operands["b"]
		if b == nil || !b.Shared || b.Layout != nil || b.DType.Name != "f16" {
			t.Fatalf("%s b: %+v, want f16 in shared memory without a layout", r.Name, b)
		}
		m := r.Memory
		modes := slices.Clone(m.Modes)
		slices.Sort(modes)
		if m.Rule != "swizzle" || m.Alignment != 16 || !slices.Equal(modes, []string{"128B", "32B", "64B", "none"}) {
			t.Fatalf("%s: memory %+v", r.Name, m)
		}
	}
}

// Facts planners rely on, checked on the records.
func TestNvidiaFragmentFactsHopper(t *testing.T) {
	lib := nvidiaLib(t)

	// stmatrix stores exactly the fragment ldmatrix loads, with and
	// without .trans, so an ldmatrix / stmatrix round trip is free.
	for _, n := range []int{1, 2, 4} {
		for _, suf := range []string{"", "_trans"} {
			st := record(t, lib, fmt.Sprintf("stmatrix_x%d%s", n, suf))
			ld := record(t, lib, fmt.Sprintf("ldmatrix_x%d%s", n, suf))
			if !st.Fragment.Layout.Equal(ld.Fragment.Layout) {
				t.Fatalf("%s and %s hold different fragments:\n%v\n%v", st.Name, ld.Name, st.Fragment.Layout, ld.Fragment.Layout)
			}
			if st.Matrices != ld.Matrices || st.Trans != ld.Trans || st.Memory.RowBytes != ld.Memory.RowBytes {
				t.Fatalf("%s does not mirror %s", st.Name, ld.Name)
			}
		}
	}
	if record(t, lib, "stmatrix_x1").Fragment.Layout.Equal(record(t, lib, "stmatrix_x1_trans").Fragment.Layout) {
		t.Fatal("stmatrix .trans has the non-transposed fragment")
	}

	// The m16n8k8 f16 A fragment is ldmatrix_x2: two 8x8 matrices stacked
	// along rows, matrix i in register i; its B is one transposed matrix.
	x1 := record(t, lib, "ldmatrix_x2").Fragment.Layout
	a8 := record(t, lib, "mma_m16n8k8_f32_f16").Operands["a"].Layout
	x2, err := model.Tile(x1, []int{16, 8}, []model.TileFactor{{Dim: 0, Count: 2, Hw: model.Register}})
	if err != nil {
		t.Fatal(err)
	}
	if !x2.Equal(a8) {
		t.Fatalf("ldmatrix x2 stacked along rows is not the m16n8k8 A fragment:\n%v\n%v", x2, a8)
	}
	if k, ok := model.MatchFragment(a8, x1); !ok || k != 2 {
		t.Fatalf("the m16n8k8 A fragment is %d ldmatrix fragments (ok %v), want 2", k, ok)
	}
	if !record(t, lib, "mma_m16n8k8_f32_f16").Operands["b"].Layout.Equal(record(t, lib, "ldmatrix_x1_trans").Fragment.Layout) {
		t.Fatal("the m16n8k8 B fragment is not the transposed ldmatrix fragment")
	}

	// The m16n8k32 s8 accumulator is the m16n8k16 one.
	c16 := record(t, lib, "mma_m16n8k16_f32_f16").Operands["c"].Layout
	for _, op := range []string{"c", "d"} {
		if !record(t, lib, "mma_m16n8k32_s32_s8").Operands[op].Layout.Equal(c16) {
			t.Fatalf("the m16n8k32 s8 %s is not the m16n8k16 accumulator", op)
		}
	}

	// wgmma: warp w, columns 8j .. 8j+7 of the accumulator (values 4j ..
	// 4j+3) hold exactly the mma m16n8k16 C fragment, shifted by (16w, 8j);
	// and the whole accumulator is that fragment tiled N/8 times along N in
	// registers and 4 times along M over the warps. Likewise A is the
	// m16n8k16 A fragment tiled over the warps.
	a16 := record(t, lib, "mma_m16n8k16_f32_f16").Operands["a"].Layout
	for _, n := range []int{64, 128, 256} {
		r := record(t, lib, fmt.Sprintf("wgmma_m64n%dk16_f32_f16", n))
		d := r.Operands["d"].Layout
		for w := range 4 {
			for j := range n / 8 {
				for lane := range 32 {
					for i := range 4 {
						got := d.Index(model.HwPoint{Value: 4*j + i, Lane: lane, Subgroup: w})
						want := c16.Index(model.HwPoint{Value: i, Lane: lane})
						if got[0]-16*w != want[0] || got[1]-8*j != want[1] {
							t.Fatalf("%s: warp %d block %d lane %d value %d holds %v, the m16n8k16 C fragment %v shifted by (%d, %d)",
								r.Name, w, j, lane, i, got, want, 16*w, 8*j)
						}
					}
				}
			}
		}
		tiled, err := model.Tile(c16, []int{64, n}, []model.TileFactor{{Dim: 1, Count: n / 8, Hw: model.Register}, {Dim: 0, Count: 4, Hw: model.Subgroup}})
		if err != nil {
			t.Fatal(err)
		}
		if !tiled.Equal(d) {
			t.Fatalf("%s: the accumulator is not the m16n8k16 C fragment tiled:\n%v\n%v", r.Name, tiled, d)
		}
		ta, err := model.Tile(a16, []int{64, 16}, []model.TileFactor{{Dim: 0, Count: 4, Hw: model.Subgroup}})
		if err != nil {
			t.Fatal(err)
		}
		if !ta.Equal(r.Operands["a"].Layout) {
			t.Fatalf("%s: A is not the m16n8k16 A fragment tiled over the warps", r.Name)
		}
	}
}
