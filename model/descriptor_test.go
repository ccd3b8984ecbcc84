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
// bytes, XORed by the named mode, with instruction tiles as wide as a row.
func TestDescriptorAdmits(t *testing.T) {
	buf := func(rows, cols int, swz string) *SharedLayout {
		return &SharedLayout{Rows: rows, Cols: cols, ElemBits: 16, Swizzle: swz}
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
		{"a tile narrower than the row", wgmmaRecord(32, "k", "mn"), buf(64, 64, "128B"), "spans whole rows"},
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
