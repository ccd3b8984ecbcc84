package model

import (
	"strings"
	"testing"
)

// wgmmaRecord is a wgmma-like record for the descriptor tests: an
// m64nNk16 f16 product over a warpgroup, B read from shared memory under
// the rule the PTX ISA gives wgmma ("Shared Memory Matrix Layout": modes
// none, 32B, 64B and 128B; 16-byte aligned matrices), K- or MN-major.
func wgmmaRecord(n int, majors ...string) *Record {
	f16, _ := ParseDType("f16")
	return &Record{Name: "wgmma_test", Kind: RecordMMA, Subgroups: 4, M: 64, N: n, K: 16, Cost: 16,
		Operands: map[string]*Operand{"a": {DType: f16}, "b": {DType: f16, Shared: true}},
		Memory:   MemoryRule{Rule: "swizzle", Modes: SwizzleModes, Majors: majors, Alignment: 16}}
}

// The canonical MN-major layouts a descriptor reads (NVIDIA/cutlass
// include/cute/atom/mma_traits_sm90_gmma.hpp, make_gmma_desc<Major::MN>:
// Swizzle<b,4,3> o ((T,2^b,m),(8,k)):((1,T,LBO),(2^b T,SBO)), T = 8 f16)
// are, in a row-major K x N buffer, rows of exactly 16, 32, 64 or 128
// bytes, XORed by the named mode; a wider B is atoms side by side, the
// buffer in column blocks one span wide (PTX ISA, "Shared Memory Matrix
// Layout": "The matrices in the shared memory are made up of one or more
// swizzle layout atom"), and an instruction tile spans whole atoms or
// lies within one.
func TestDescriptorAdmits(t *testing.T) {
	buf := func(rows, cols int, swz string) *SharedLayout {
		return &SharedLayout{Rows: rows, Cols: cols, ElemBits: 16, Swizzle: swz}
	}
	blocks := func(rows, cols, w int, swz string) *SharedLayout {
		return &SharedLayout{Rows: rows, Cols: cols, ElemBits: 16, Swizzle: swz, ColumnBlock: w}
	}
	colMajor := func(rows, cols, w int, swz string) *SharedLayout {
		return &SharedLayout{Rows: rows, Cols: cols, ElemBits: 16, Swizzle: swz, ColumnBlock: w, ColumnMajor: true}
	}
	cases := []struct {
		name   string
		r      *Record
		s      *SharedLayout
		reject string
	}{
		{"128B on 128-byte rows", wgmmaRecord(64, "k", "mn"), buf(64, 64, "128B"), ""},
		{"64B on 64-byte rows", wgmmaRecord(32, "k", "mn"), buf(64, 32, "64B"), ""},
		{"32B on 32-byte rows", wgmmaRecord(16, "k", "mn"), buf(64, 16, "32B"), ""},
		{"none on 16-byte rows", wgmmaRecord(8, "k", "mn"), buf(64, 8, "none"), ""},
		{"none on 128-byte rows", wgmmaRecord(64, "k", "mn"), buf(64, 64, "none"), "rows of 16 bytes; the buffer's rows are 128 bytes"},
		{"128B on 64-byte rows", wgmmaRecord(32, "k", "mn"), buf(64, 32, "128B"), "rows of 128 bytes; the buffer's rows are 64 bytes"},
		{"128B on 256-byte rows", wgmmaRecord(64, "k", "mn"), buf(64, 128, "128B"), "rows of 128 bytes; the buffer's rows are 256 bytes"},
		{"a K-major record", wgmmaRecord(64), buf(64, 64, "128B"), "mn-major"},
		{"a tile of half an atom (N = 32 starting at 0 or mid-atom)", wgmmaRecord(32, "k", "mn"), buf(64, 64, "128B"), ""},
		{"n128 over two 128B atoms", wgmmaRecord(128, "k", "mn"), blocks(64, 128, 64, "128B"), ""},
		{"n256 over four 128B atoms", wgmmaRecord(256, "k", "mn"), blocks(64, 256, 64, "128B"), ""},
		{"n64 on the second of two atoms", wgmmaRecord(64, "k", "mn"), blocks(64, 128, 64, "128B"), ""},
		{"n32 within an atom of two", wgmmaRecord(32, "k", "mn"), blocks(64, 128, 64, "128B"), ""},
		{"n128 over four 64B atoms", wgmmaRecord(128, "k", "mn"), blocks(64, 128, 32, "64B"), ""},
		{"n96 over 64-column atoms", wgmmaRecord(96, "k", "mn"), blocks(64, 192, 64, "128B"), "whole atoms or lies within one"},
		{"128B blocks of 64 bytes", wgmmaRecord(128, "k", "mn"), blocks(64, 128, 32, "128B"), "rows of 128 bytes; the buffer's rows are 64 bytes"},
		{"blocks of 4 rows", wgmmaRecord(128, "k", "mn"), blocks(4, 128, 64, "128B"), "whole atoms of 8 rows"},
		// Column major: B K-major, N rows of K (K = 64 f16: one 128B
		// atom row; K = 128: two atoms side by side along K, each
		// instruction's 16 of K within one).
		{"K-major n128 in 128B", wgmmaRecord(128, "k", "mn"), colMajor(64, 128, 0, "128B"), ""},
		{"K-major n256 over K = 128 in column blocks", wgmmaRecord(256, "k", "mn"), colMajor(128, 256, 64, "128B"), ""},
		{"K-major n8 in 32B", wgmmaRecord(8, "k", "mn"), colMajor(16, 64, 0, "32B"), ""},
		{"K-major for an MN-major record", wgmmaRecord(128, "mn"), colMajor(64, 128, 0, "128B"), "k-major"},
		{"K-major of 256-byte rows", wgmmaRecord(128, "k", "mn"), colMajor(128, 128, 0, "128B"), "rows of 128 bytes; the buffer's rows are 256 bytes"},
		{"the 128B XOR stated", wgmmaRecord(64, "k", "mn"), &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, XOR: Swizzle{3, 4, 3}}, ""},
		{"an XOR of no mode", wgmmaRecord(64, "k", "mn"), &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, XOR: Swizzle{2, 4, 4}}, "none of a descriptor's modes"},
		{"padded rows", wgmmaRecord(64, "k", "mn"), &SharedLayout{Rows: 64, Cols: 64, Stride: 72, ElemBits: 16, Swizzle: "none"}, "rows of 16 bytes; the buffer's rows are 144 bytes"},
	}
	for _, c := range cases {
		err := DescriptorAdmits(c.r, "b", c.s)
		switch {
		case c.reject == "" && err != nil:
			t.Errorf("%s: rejected: %v", c.name, err)
		case c.reject != "" && err == nil:
			t.Errorf("%s: admitted, want a rejection saying %q", c.name, c.reject)
		case c.reject != "" && !strings.Contains(err.Error(), c.reject):
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.reject)
		}
	}
}

// A B buffer in column blocks is the canonical MN-major layout of the
// PTX ISA (9.7.15.5.1.2, "Shared Memory Matrix Layout"), written here
// from its text: a swizzle atom of the 128B mode is 8x8 128-bit elements
// (its table of atom layouts), 64 f16 along N by 8 rows along K, each
// row 128 bytes; within an atom the 16-byte chunk index (address bits 4
// to 6) is XORed with the row (bits 7 to 9); atoms repeat along K at the
// stride dimension byte offset, 1024 bytes when they lie one after
// another, and along N at the leading dimension byte offset ("Strides":
// for swizzled MN-major layouts, the stride from one atom's columns to
// the next), here all the buffer's rows of one atom column, rows x 128
// bytes. The 64B mode's atom is 4x8 128-bit elements: 32 f16 by 8 rows
// of 64 bytes, its chunks (bits 4 and 5) XORed with bits 7 and 8.
func TestColumnBlocksAreTheCanonicalLayout(t *testing.T) {
	// Worked by hand from the rules above for a 64x128 f16 B in the
	// 128B mode (LBO 64 x 128 = 8192 bytes, SBO 1024) and a 32x128 f16 B
	// in the 64B mode (LBO 32 x 64 = 2048 bytes, SBO 512).
	b128 := &SharedLayout{Rows: 64, Cols: 128, ElemBits: 16, Swizzle: "128B", ColumnBlock: 64}
	b64 := &SharedLayout{Rows: 32, Cols: 128, ElemBits: 16, Swizzle: "64B", ColumnBlock: 32}
	for _, c := range []struct {
		s          *SharedLayout
		k, n, byte int
	}{
		{b128, 0, 0, 0},
		{b128, 0, 63, 126},
		{b128, 0, 64, 8192},    // the second atom along N
		{b128, 1, 0, 144},      // row 1: chunk 0 XOR 1
		{b128, 1, 64, 8336},    // the same in the second atom
		{b128, 8, 0, 1024},     // the next atom along K: row 0 again
		{b128, 9, 70, 9372},    // 8192 + 1024 + 128 + chunk 0^1 (16) + 12
		{b128, 63, 127, 16270}, // 8192 + 7*1024 + 7*128 + chunk 7^7 (0) + 14
		{b128, 7, 8, 896 + 6*16},
		{b64, 0, 32, 2048},
		{b64, 2, 0, 2*64 ^ 16}, // row 2 lies in the 128-byte line 1: chunk 0^1
		{b64, 4, 0, 4*64 ^ 32}, // line 2: chunk 0^2
		{b64, 8, 40, 2048 + 512 + 16},
		{b64, 31, 127, 3*2048 + 3*512 + 7*64 + 62 - 48}, // chunk 3 in line 3: 3^3 = 0
	} {
		if got := c.s.ByteOffset(c.k, c.n); got != c.byte {
			t.Errorf("%s: (%d, %d) at byte %d, want %d", c.s, c.k, c.n, got, c.byte)
		}
	}
	// Every element of buffers of two and four atoms, against the atoms
	// written out.
	for _, s := range []*SharedLayout{b128, b64, {Rows: 16, Cols: 256, ElemBits: 16, Swizzle: "128B", ColumnBlock: 64}, {Rows: 64, Cols: 64, ElemBits: 32, Swizzle: "32B", ColumnBlock: 8}} {
		span := ModeSpan(s.Swizzle)
		atom := span * 8 / s.ElemBits
		for k := range s.Rows {
			for n := range s.Cols {
				addr := (n/atom)*s.Rows*span + (k/8)*8*span + (k%8)*span + (n%atom)*s.ElemBits/8
				chunks := span / 16
				chunk := addr / 16 % chunks
				addr += (chunk ^ addr/128%chunks - chunk) * 16
				if got := s.ByteOffset(k, n); got != addr {
					t.Fatalf("%s: (%d, %d) at byte %d, the canonical layout's %d", s, k, n, got, addr)
				}
			}
		}
		if _, err := s.CanonicalMode(); err != nil {
			t.Errorf("%s: %v", s, err)
		}
		if s.Bytes() != s.Rows*s.Cols*s.ElemBits/8 {
			t.Errorf("%s: %d bytes, want %d", s, s.Bytes(), s.Rows*s.Cols*s.ElemBits/8)
		}
	}
}

// A column-major B buffer is the canonical K-major layout of the PTX ISA
// ("Shared Memory Matrix Layout"), written from its text: the 128B
// mode's K-major atom is 8x8 128-bit elements, 8 rows along N of 64 f16
// along K, 128 bytes each, the 16-byte chunk index XORed with the row;
// atoms repeat along N at the stride dimension byte offset (1024 bytes
// one after another); the leading dimension byte offset is not used by a
// swizzled K-major layout ("Strides"), an instruction's 16 of K lying in
// one atom, and the atoms along K of a K = 128 buffer lie one block of
// all N rows after the other, as Triton's transposed #ttg.nvmma_shared
// puts them.
func TestColumnMajorIsTheKMajorLayout(t *testing.T) {
	b := &SharedLayout{Rows: 64, Cols: 128, ElemBits: 16, Swizzle: "128B", ColumnMajor: true}                     // K = 64, N = 128
	wide := &SharedLayout{Rows: 128, Cols: 64, ElemBits: 16, Swizzle: "128B", ColumnMajor: true, ColumnBlock: 64} // K = 128, N = 64
	for _, c := range []struct {
		s          *SharedLayout
		k, n, byte int
	}{
		{b, 0, 0, 0},
		{b, 1, 0, 2},        // along K: contiguous
		{b, 0, 1, 128 + 16}, // row 1 (n = 1): chunk 0 XOR 1
		{b, 8, 1, 128},      // chunk 1 XOR 1
		{b, 0, 8, 1024},     // the next atom along N
		{b, 63, 127, 16270}, // 15*1024 + 7*128 + chunk 7^7 (0) + 14
		{wide, 64, 0, 8192}, // the second atom along K: after all 64 rows of N
		{wide, 70, 9, 8192 + 1024 + 128 + 16 + 12},
	} {
		if got := c.s.ByteOffset(c.k, c.n); got != c.byte {
			t.Errorf("%s: (%d, %d) at byte %d, want %d", c.s, c.k, c.n, got, c.byte)
		}
	}
	if b.Bytes() != 16384 || wide.Bytes() != 16384 {
		t.Errorf("footprints %d and %d, want 16384", b.Bytes(), wide.Bytes())
	}
	// The tensor core's reads of a 64x128 K-major B by m64n128k16: 4 K
	// tiles of 128 rows of N by 32 bytes, 16 x 2 core matrices each, one
	// wavefront each (every row in its own banks under the swizzle), once
	// per M tile (2), shared by the warpgroup's 4 warps: 4*32*2/4 = 64.
	op := descriptorGEMM()
	op.Operands[1].Shape = []int{64, 128}
	op.Operands[2].Shape = []int{128, 128}
	op.Result.Shape = []int{128, 128}
	a, ok := DescriptorAccess(op, &OpChoice{Record: wgmmaRecord(128, "k", "mn"), WarpsM: 1, WarpsN: 1, Buffer: b}, &Target{Banks: 32, BankBytes: 4})
	if !ok || a.Wavefronts != 64 || a.Ideal != 64 {
		t.Errorf("K-major reads: %+v (ok %v), want 64 wavefronts, 64 conflict free", a, ok)
	}
}

// descriptorGEMM is a 128x64x64 f16 mma whose B comes from buffer Bs.
func descriptorGEMM() *Op {
	f16, _ := ParseDType("f16")
	f32, _ := ParseDType("f32")
	bs := &Buffer{Name: "Bs", Shape: []int{64, 64}, DType: f16}
	load := &Op{Name: "b", Kind: OpLoadShared, Buffer: bs}
	b := &Value{Name: "b", Shape: []int{64, 64}, DType: f16, Def: load}
	load.Result = b
	a := &Value{Name: "a", Shape: []int{128, 64}, DType: f16}
	c := &Value{Name: "c", Shape: []int{128, 64}, DType: f32}
	return &Op{Name: "acc", Kind: OpMMA, Operands: []*Value{a, b, c}, Result: &Value{Name: "acc", Shape: []int{128, 64}, DType: f32}}
}

// Counted by hand: B (64x64 f16) is 4 tiles of 16x64, each 2 x 8 core
// matrices of 8 rows of 16 bytes; each tile is read once per M tile (2),
// by the warpgroup's 4 warps together: 4*16*2/4 = 32 wavefronts per warp
// when every core matrix's rows fall in distinct banks. Rows 128 bytes
// apart without a swizzle put all 8 rows of a core matrix in the same 4
// banks: 8 wavefronts each, 256 per warp.
func TestDescriptorAccess(t *testing.T) {
	tgt := &Target{Banks: 32, BankBytes: 4}
	op := descriptorGEMM()
	r := wgmmaRecord(64, "k", "mn")
	for _, c := range []struct {
		name        string
		s           *SharedLayout
		waves, want int
	}{
		{"128B swizzle", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "128B"}, 32, 32},
		{"dense, unswizzled", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "none"}, 256, 32},
	} {
		a, ok := DescriptorAccess(op, &OpChoice{Record: r, WarpsM: 1, WarpsN: 1, Buffer: c.s}, tgt)
		if !ok || a.Wavefronts != c.waves || a.Ideal != c.want || a.Instructions != 8 {
			t.Errorf("%s: %+v (ok %v), want %d wavefronts, %d ideal, 8 instructions", c.name, a, ok, c.waves, c.want)
		}
	}
	if _, ok := DescriptorAccess(op, &OpChoice{Record: r, WarpsM: 1, WarpsN: 1}, tgt); ok {
		t.Errorf("counted without a placement")
	}
}

// A value left in shared memory equals only such a layout of its shape,
// has no notation, and converts into nothing.
func TestLeftInShared(t *testing.T) {
	l, err := LeftInShared([]int{64, 64})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := LeftInShared([]int{64, 64})
	regs, err := StandIn("x", []int{64, 64}, 128, 32)
	if err != nil {
		t.Fatal(err)
	}
	regs.opaque = ""
	switch {
	case !l.InShared() || !l.Equal(m) || l.Key() != m.Key():
		t.Errorf("two layouts left in shared memory differ")
	case l.Equal(regs) || regs.Equal(l) || l.Key() == regs.Key():
		t.Errorf("a layout left in shared memory equals a register layout")
	}
	if _, err := Analyze(regs, l, 16); err == nil {
		t.Errorf("a register layout converts into shared memory")
	}
	if c, err := Analyze(l, m, 16); err != nil || c.Kind != ConvNone {
		t.Errorf("a value left in shared memory needs a conversion to itself: %v %v", c, err)
	}
}
