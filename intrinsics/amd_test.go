package intrinsics

import (
	"slices"
	"testing"

	"planner/model"
)

// AMD register tables, typed in from the formulas of
// ROCm/amd_matrix_instruction_calculator (matrix_calculator.py), which
// reproduces the ISA guides' MFMA and WMMA operand tables. The calculator
// maps a matrix element to its (register slot, lane); the tests run those
// formulas over every element and invert the result into the (lane, value)
// -> element table that checkTable compares with a record. Nothing here is
// read from the records.

// gfx9Input is InstCalcGfx9.__get_input_reg_lanes (CDNA1, CDNA2; the same
// rule gives the CDNA3 shapes): element (outer i, k) of block b of an
// M x K (A) or K x N (B, outer = column) input, with `blocks` blocks, is
// slot k % E of lane b*M + floor(k/E)*M*blocks + i, where
// E = K / (64 / (M*blocks)) elements sit in a lane's contiguous registers.
func gfx9Input(m, k, blocks, i, kk, b int) (slot, lane int) {
	e := k / (64 / (m * blocks))
	return kk % e, b*m + (kk/e)*m*blocks + i
}

// gfx9Output is InstCalcGfx9.__get_output_reg_lanes for 32-bit outputs:
// rows come in groups of 4 consecutive registers; 64/N such groups, and
// ceil(64 / (M*N/4)) blocks, share one register across the lanes.
func gfx9Output(m, n, i, j, b int) (reg, lane int) {
	const height = 4
	multirows := 64 / n
	perGroup := m * n / height
	blocksPerReg := (64 + perGroup - 1) / perGroup
	reg = b*(m*n/64) + (i/(height*multirows))*height + i%height
	lane = (b%blocksPerReg)*n + ((i/height)%multirows)*blocksPerReg*n + j
	return reg, lane
}

// gfx11Input is InstCalcGfx11.__get_input_reg_lanes for wave32: element
// (outer i, k) is slot k of lanes i and i + 16.
func gfx11Input(i, k int) (slot int, lanes []int) { return k, []int{i, i + 16} }

// gfx11Output is InstCalcGfx11.__get_output_reg_lanes for a 32-bit output
// of width N in wave32: register i / (32/16), lane (N*(i % (32*16/N)) + j) % 32.
func gfx11Output(n, i, j int) (reg, lane int) {
	rowsPerSlot := 32 / 16
	rowsPerVGPR := 32 * 16 / n
	return i / rowsPerSlot, (n*(i%rowsPerVGPR) + j) % 32
}

// amdTable collects (lane, value) -> element from a forward formula.
type amdTable struct {
	lanes, values int
	at            map[[2]int][]int
}

func newAMDTable(lanes, values int) *amdTable {
	return &amdTable{lanes: lanes, values: values, at: map[[2]int][]int{}}
}

func (tb *amdTable) put(t *testing.T, lane, value int, elem ...int) {
	t.Helper()
	if lane < 0 || lane >= tb.lanes || value < 0 || value >= tb.values {
		t.Fatalf("table: element %v maps to lane %d value %d, outside %d lanes x %d values", elem, lane, value, tb.lanes, tb.values)
	}
	k := [2]int{lane, value}
	if prev, ok := tb.at[k]; ok {
		t.Fatalf("table: lane %d value %d holds both %v and %v", lane, value, prev, elem)
	}
	tb.at[k] = slices.Clone(elem)
}

func (tb *amdTable) want(t *testing.T) func(thread, i int) []int {
	t.Helper()
	if len(tb.at) != tb.lanes*tb.values {
		t.Fatalf("table: %d of %d hardware points filled", len(tb.at), tb.lanes*tb.values)
	}
	return func(thread, i int) []int { return tb.at[[2]int{thread, i}] }
}

// cdnaOperand builds the table of one MFMA operand from the gfx9 formulas.
// Coordinates are [row, col] (or [block, row, col] when blocks > 1).
func cdnaOperand(t *testing.T, op string, m, n, k, blocks, values int) func(thread, i int) []int {
	t.Helper()
	tb := newAMDTable(64, values)
	coords := func(b, r, c int) []int {
		if blocks > 1 {
			return []int{b, r, c}
		}
		return []int{r, c}
	}
	for b := range blocks {
		switch op {
		case "a": // M x K, outer dimension = row i
			for i := range m {
				for kk := range k {
					slot, lane := gfx9Input(m, k, blocks, i, kk, b)
					tb.put(t, lane, slot, coords(b, i, kk)...)
				}
			}
		case "b": // K x N, outer dimension = column j
			for kk := range k {
				for j := range n {
					slot, lane := gfx9Input(n, k, blocks, j, kk, b)
					tb.put(t, lane, slot, coords(b, kk, j)...)
				}
			}
		default: // c, d: M x N, 32-bit
			for i := range m {
				for j := range n {
					reg, lane := gfx9Output(m, n, i, j, b)
					tb.put(t, lane, reg, coords(b, i, j)...)
				}
			}
		}
	}
	return tb.want(t)
}

// rdna3Operand builds the table of one v_wmma_*_16x16x16 operand (wave32).
func rdna3Operand(t *testing.T, op string) func(thread, i int) []int {
	t.Helper()
	const m, n, k = 16, 16, 16
	values := 16
	if op == "c" || op == "d" {
		values = 8
	}
	tb := newAMDTable(32, values)
	switch op {
	case "a":
		for i := range m {
			for kk := range k {
				slot, lanes := gfx11Input(i, kk)
				for _, lane := range lanes {
					tb.put(t, lane, slot, i, kk)
				}
			}
		}
	case "b":
		for kk := range k {
			for j := range n {
				slot, lanes := gfx11Input(j, kk)
				for _, lane := range lanes {
					tb.put(t, lane, slot, kk, j)
				}
			}
		}
	default:
		for i := range m {
			for j := range n {
				reg, lane := gfx11Output(n, i, j)
				tb.put(t, lane, reg, i, j)
			}
		}
	}
	return tb.want(t)
}

func amdLibrary(t *testing.T) *Library {
	t.Helper()
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func amdRecord(t *testing.T, lib *Library, name string) *model.Record {
	t.Helper()
	r, ok := lib.Records[name]
	if !ok {
		t.Fatalf("no record %q", name)
	}
	return r
}

func amdLayout(t *testing.T, lib *Library, name, op string) *model.Layout {
	t.Helper()
	o := amdRecord(t, lib, name).Operands[op]
	if o == nil || o.Layout == nil {
		t.Fatalf("%s: operand %s has no layout", name, op)
	}
	return o.Layout
}

func TestAMDMFMAAgainstCalculator(t *testing.T) {
	lib := amdLibrary(t)
	// Registers per lane: the calculator's _get_instruction_num_gprs, i.e.
	// M*K*blocks*bits / (64*32) for an input and M*N*blocks / 64 for a
	// 32-bit output ("GPRs required for A/B/C/D" in --detail-instruction).
	for _, c := range []struct {
		name          string
		m, n, k, blks int
		bits          int // input element width
		cycles        int // calculator / CDNA3 figure; the record's cost is cycles / 4
	}{
		{"mfma_f32_32x32x8_f16", 32, 32, 8, 1, 16, 64},
		{"mfma_f32_16x16x16_f16", 16, 16, 16, 1, 16, 32},
		{"mfma_f32_32x32x8_bf16_1k", 32, 32, 8, 1, 16, 64},
		{"mfma_f32_16x16x16_bf16_1k", 16, 16, 16, 1, 16, 32},
		{"mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 1, 8, 32},
		{"mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 1, 8, 16},
		{"mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, 16, 8},
	} {
		r := amdRecord(t, lib, c.name)
		if r.SubgroupSize != 64 || r.M != c.m || r.N != c.n || r.K != c.k || r.Blocks != c.blks {
			t.Fatalf("%s: wave%d, shape %dx%dx%d, %d blocks; want wave64, %dx%dx%d, %d blocks",
				c.name, r.SubgroupSize, r.M, r.N, r.K, r.Blocks, c.m, c.n, c.k, c.blks)
		}
		if r.Cost != int64(c.cycles/4) {
			t.Errorf("%s: cost %d, want %d cycles / 4 = %d passes", c.name, r.Cost, c.cycles, c.cycles/4)
		}
		inRegs := c.m * c.k * c.blks * c.bits / (64 * 32)
		outRegs := c.m * c.n * c.blks / 64
		perLaneIn := c.k * c.m * c.blks / 64 // input values per lane
		for _, op := range []string{"a", "b", "c", "d"} {
			o := r.Operands[op]
			regs, values := inRegs, perLaneIn
			if op == "c" || op == "d" {
				regs, values = outRegs, outRegs
			}
			if o == nil || o.Registers != regs {
				t.Fatalf("%s %s: registers %v, the calculator says %d", c.name, op, o, regs)
			}
			if o.Duplicated {
				t.Fatalf("%s %s: MFMA operands hold every element once", c.name, op)
			}
			checkTable(t, c.name+" "+op, o.Layout, values, 64, 1, cdnaOperand(t, op, c.m, c.n, c.k, c.blks, values))
		}
	}
}

// Triton's reading of the fp8 operands (triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
// mfmaDotToLinearLayout, kWidth = 8): a lane holds kWidth consecutive k
// of row / column lane % mDim, and the lane digits above mDim step k by
// kWidth. A second, independent table for the CDNA3 shapes, since the
// stored calculator predates CDNA3.
func TestAMDFP8AgainstTriton(t *testing.T) {
	lib := amdLibrary(t)
	const kWidth = 8
	for _, c := range []struct {
		name string
		mDim int
	}{{"mfma_f32_32x32x16_fp8_fp8", 32}, {"mfma_f32_16x16x32_fp8_fp8", 16}} {
		a := amdLayout(t, lib, c.name, "a")
		b := amdLayout(t, lib, c.name, "b")
		checkTable(t, c.name+" a (Triton)", a, kWidth, 64, 1, func(l, v int) []int {
			return []int{l % c.mDim, kWidth*(l/c.mDim) + v}
		})
		checkTable(t, c.name+" b (Triton)", b, kWidth, 64, 1, func(l, v int) []int {
			return []int{kWidth*(l/c.mDim) + v, l % c.mDim}
		})
	}
}

func TestAMDWMMAAgainstCalculator(t *testing.T) {
	lib := amdLibrary(t)
	const name = "wmma_f32_16x16x16_f16"
	r := amdRecord(t, lib, name)
	if r.SubgroupSize != 32 || r.M != 16 || r.N != 16 || r.K != 16 || r.Cost != 32 {
		t.Fatalf("%s: wave%d, %dx%dx%d, cost %d", name, r.SubgroupSize, r.M, r.N, r.K, r.Cost)
	}
	for _, op := range []string{"a", "b", "c", "d"} {
		o := r.Operands[op]
		values, regs, dup := 16, 8, true
		if op == "c" || op == "d" {
			values, dup = 8, false
		}
		if o == nil || o.Registers != regs || o.Duplicated != dup {
			t.Fatalf("%s %s: %+v; want %d registers, duplicated %v", name, op, o, regs, dup)
		}
		checkTable(t, name+" "+op, o.Layout, values, 32, 1, rdna3Operand(t, op))
	}
	// The formula in words (brief and calculator agree): lane l, register v
	// of the f32 accumulator holds row 2*v + l/16, column l%16.
	checkTable(t, name+" c (closed form)", r.Operands["c"].Layout, 8, 32, 1, func(l, v int) []int {
		return []int{2*v + l/16, l % 16}
	})
}

func TestAMDSharedReads(t *testing.T) {
	lib := amdLibrary(t)
	for _, c := range []struct {
		name   string
		wave   int
		bytes  int
		cost   int64
		target string
	}{
		{"ds_read_b64", 64, 8, 4, "gfx90a"},
		{"ds_read_b128", 64, 16, 8, "gfx942"},
		{"ds_read_b64_wave32", 32, 8, 4, "gfx1100"},
		{"ds_read_b128_wave32", 32, 16, 8, "gfx1100"},
	} {
		r := amdRecord(t, lib, c.name)
		if r.Kind != model.RecordLoadShared || r.Memory.Rule != "vector" || r.Fragment != nil {
			t.Fatalf("%s: kind %s, rule %q, fragment %v", c.name, r.Kind, r.Memory.Rule, r.Fragment)
		}
		if r.SubgroupSize != c.wave || r.Memory.Bytes != c.bytes || r.Memory.Alignment != c.bytes {
			t.Fatalf("%s: wave%d, %d bytes aligned to %d; want wave%d, %d bytes naturally aligned",
				c.name, r.SubgroupSize, r.Memory.Bytes, r.Memory.Alignment, c.wave, c.bytes)
		}
		// Cost: 128-byte LDS wavefronts times the target's weight.
		tg, ok := lib.Target(c.target)
		if !ok {
			t.Fatalf("no target %s", c.target)
		}
		if w := int64(c.wave*c.bytes/128) * tg.Weights.SharedWavefront; r.Cost != c.cost || r.Cost != w {
			t.Fatalf("%s: cost %d, want %d (= %d wavefronts x %d)", c.name, r.Cost, c.cost, c.wave*c.bytes/128, tg.Weights.SharedWavefront)
		}
	}
}

func TestAMDTargets(t *testing.T) {
	lib := amdLibrary(t)
	for _, c := range []struct {
		name      string
		wave, max int
		offers    []string
		lacks     []string
	}{
		{"gfx90a", 64, 16,
			[]string{"mfma_f32_32x32x8_f16", "mfma_f32_16x16x16_f16", "mfma_f32_32x32x8_bf16_1k", "mfma_f32_16x16x16_bf16_1k", "mfma_f32_4x4x4_16b_f16", "ds_read_b64", "ds_read_b128"},
			[]string{"mfma_f32_32x32x16_fp8_fp8", "mfma_f32_16x16x32_fp8_fp8", "wmma_f32_16x16x16_f16"}},
		{"gfx942", 64, 16,
			[]string{"mfma_f32_32x32x8_f16", "mfma_f32_16x16x16_f16", "mfma_f32_32x32x16_fp8_fp8", "mfma_f32_16x16x32_fp8_fp8", "ds_read_b64", "ds_read_b128"},
			[]string{"wmma_f32_16x16x16_f16"}},
		{"gfx1100", 32, 32,
			[]string{"wmma_f32_16x16x16_f16", "ds_read_b64_wave32", "ds_read_b128_wave32"},
			[]string{"mfma_f32_32x32x8_f16", "ds_read_b64"}},
	} {
		tg, ok := lib.Target(c.name)
		if !ok {
			t.Fatalf("no target %s", c.name)
		}
		// 1024 work-items per workgroup, 64 KiB of LDS, 32 banks of 4 bytes.
		if tg.Vendor != "amd" || tg.SubgroupSize != c.wave || tg.MaxSubgroups != c.max || tg.MaxSubgroups*tg.SubgroupSize != 1024 ||
			tg.SharedMemory != 65536 || tg.Banks != 32 || tg.BankBytes != 4 {
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
		if tg.Weights.ALU != 1 {
			t.Errorf("%s: the alu weight is the unit, found %d", c.name, tg.Weights.ALU)
		}
	}
}

// Which MFMA / WMMA accumulators can feed the next instruction's A or B
// operand with no lane exchange (after converting f32 to f16 in place,
// which packs values 2v and 2v+1 of a lane: a register-only step).
func TestAMDAccumulatorAsOperand(t *testing.T) {
	lib := amdLibrary(t)
	transpose := func(l *model.Layout) *model.Layout {
		t.Helper()
		tl, err := l.Transpose([]int{1, 0})
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	tile := func(frag *model.Layout, shape []int, dim, count int) *model.Layout {
		t.Helper()
		l, err := model.Tile(frag, shape, []model.TileFactor{{Dim: dim, Count: count, Hw: model.Register}})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	kind := func(src, dst *model.Layout, bits int) model.ConversionKind {
		t.Helper()
		c, err := model.Analyze(src, dst, bits)
		if err != nil {
			t.Fatal(err)
		}
		return c.Kind
	}

	// 32x32x8 f16. The accumulator's lane l, register v holds row
	// 8*(v/4) + 4*(l/32) + v%4 of column l%32. Cut its 32 rows into four
	// K-chunks of 8: chunk q is registers 4q..4q+3, and within it lane l
	// holds rows 4*(l/32) + v%4 of column l%32, which is exactly the B
	// operand (k = 4*(l/32) + v, column l%32). So C, read as a 32x32 K x N
	// matrix, is four B operands of the next 32x32x8: YES for B.
	c := amdLayout(t, lib, "mfma_f32_32x32x8_f16", "c")
	b := amdLayout(t, lib, "mfma_f32_32x32x8_f16", "b")
	a := amdLayout(t, lib, "mfma_f32_32x32x8_f16", "a")
	if !tile(b, []int{32, 32}, 0, 4).Equal(c) {
		t.Error("32x32x8: four B operands stacked along k should be the accumulator")
	}
	// As A (M x K, k along the columns) it is NOT: A wants a lane to hold
	// one row and four consecutive columns, the accumulator gives a lane one
	// column and rows. Converting takes lane exchanges within the wave.
	a4 := tile(a, []int{32, 32}, 1, 4)
	if a4.Equal(c) {
		t.Error("32x32x8: the accumulator should not be the A operand")
	}
	if k := kind(c, a4, 16); k != model.ConvShuffle {
		t.Errorf("32x32x8: accumulator -> A is %v, want shuffle", k)
	}
	// The transposed accumulator (the D^T = B^T A^T product) is the A
	// operand: rows and columns swap roles.
	if !transpose(c).Equal(a4) {
		t.Error("32x32x8: the transposed accumulator should be four A operands")
	}

	// 16x16x16 f16. Lane l, register v of C holds row 4*(l/16) + v of
	// column l%16; B holds k = 4*(l/16) + v of column l%16. The same map:
	// the accumulator IS the B operand of the next 16x16x16, and is NOT
	// its A operand (A wants row l%16), though its transpose is.
	c16 := amdLayout(t, lib, "mfma_f32_16x16x16_f16", "c")
	b16 := amdLayout(t, lib, "mfma_f32_16x16x16_f16", "b")
	a16 := amdLayout(t, lib, "mfma_f32_16x16x16_f16", "a")
	if !c16.Equal(b16) {
		t.Error("16x16x16: the accumulator should be the B operand")
	}
	if c16.Equal(a16) {
		t.Error("16x16x16: the accumulator should not be the A operand")
	}
	if k := kind(c16, a16, 16); k != model.ConvShuffle {
		t.Errorf("16x16x16: accumulator -> A is %v, want shuffle", k)
	}
	if !transpose(c16).Equal(a16) {
		t.Error("16x16x16: the transposed accumulator should be the A operand")
	}

	// 32x32x16 fp8 (CDNA3): B wants eight consecutive k per lane
	// (k = 8*(l/32) + v), but the accumulator's lane halves split rows at 4
	// (row 4*(l/32) + v%4 within each group of 8): the upper half-wave holds
	// rows 4-7 where B wants rows 8-15. Not B without a lane exchange.
	c8 := amdLayout(t, lib, "mfma_f32_32x32x16_fp8_fp8", "c")
	b8 := tile(amdLayout(t, lib, "mfma_f32_32x32x16_fp8_fp8", "b"), []int{32, 32}, 0, 2)
	if c8.Equal(b8) {
		t.Error("32x32x16 fp8: the accumulator should not be the B operand")
	}
	if k := kind(c8, b8, 8); k != model.ConvShuffle {
		t.Errorf("32x32x16 fp8: accumulator -> B is %v, want shuffle", k)
	}

	// RDNA3 WMMA: lane l, register v of C holds row 2*v + l/16 of column
	// l%16. A needs lane l (and l+16) to hold all 16 k of row l%16; B needs
	// all 16 k of column l%16. C gives a lane one column (so not A) and only
	// the even or odd rows of it (so not B either: half comes from lane
	// l^16). Both need lane exchanges.
	cw := amdLayout(t, lib, "wmma_f32_16x16x16_f16", "c")
	aw := amdLayout(t, lib, "wmma_f32_16x16x16_f16", "a")
	bw := amdLayout(t, lib, "wmma_f32_16x16x16_f16", "b")
	if cw.Equal(aw) || cw.Equal(bw) {
		t.Error("wmma: the accumulator should be neither operand")
	}
	if k := kind(cw, aw, 16); k != model.ConvShuffle {
		t.Errorf("wmma: accumulator -> A is %v, want shuffle", k)
	}
	if k := kind(cw, bw, 16); k != model.ConvShuffle {
		t.Errorf("wmma: accumulator -> B is %v, want shuffle", k)
	}
}
