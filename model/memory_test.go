package model

import (
	"strings"
	"testing"
)

// Seed 002 (TVM "Auto memory planning"): a 128x64 f16 buffer padded by 4
// elements every 2 rows, f(i, j) = i*64 + j + i/2*4. wmma.load takes one
// leading stride (PTX ISA, "wmma.load": the stride argument), so the
// layout is rejected. The seed says ldmatrix accepts it because it takes
// one pointer per row; the PTX ISA ("ldmatrix": "a group of four
// consecutive threads loads 16 bytes. The matrix addresses must be
// naturally aligned accordingly") also asks every row address to be
// 16-byte aligned, and rows 2, 3, 6, 7, ... of that layout start 8 bytes
// off. We follow the PTX ISA: the pointer-per-row structure is accepted,
// the alignment is not, and padding by 8 elements (16 bytes) every 2 rows
// is accepted by ldmatrix and still rejected by wmma.load.
// The rules are those of the records intrinsics/nvidia/wmma_load_a_*,
// ldmatrix_x4 and wgmma_* and intrinsics/amd/ds_read_b128, whose own test
// (intrinsics/memory_test.go) reads them from the records.
func TestMemoryRulesSeed002(t *testing.T) {
	wmma := &MemoryRule{Rule: "constant_stride", StrideMultiple: 16, Alignment: 32}
	ldmatrix := &MemoryRule{Rule: "row_pointers", RowBytes: 16, Alignment: 16}
	wgmma := &MemoryRule{Rule: "swizzle", Modes: []string{"none", "32B", "64B", "128B"}, Alignment: 16}
	dsRead := &MemoryRule{Rule: "vector", Bytes: 16, Alignment: 16}
	buf := func(stride, pad, every int, swz string) *SharedLayout {
		return &SharedLayout{Rows: 128, Cols: 64, Stride: stride, Pad: pad, PadEvery: every, Swizzle: swz, ElemBits: 16}
	}
	tile := [2]int{16, 16}
	cases := []struct {
		name   string
		buf    *SharedLayout
		rule   *MemoryRule
		reject string // "" when admitted
	}{
		{"seed pad 4 every 2 rows, wmma.load", buf(0, 4, 2, ""), wmma, "rows 0 and 1 are 64 elements apart but rows 1 and 2 are 68"},
		{"seed pad 4 every 2 rows, ldmatrix", buf(0, 4, 2, ""), ldmatrix, "row 2, column 0 starts at byte 264, which is not 16-byte aligned"},
		{"pad 8 every 2 rows, wmma.load", buf(0, 8, 2, ""), wmma, "one leading stride"},
		{"pad 8 every 2 rows, ldmatrix", buf(0, 8, 2, ""), ldmatrix, ""},
		{"pad 16 every row, wmma.load", buf(0, 16, 1, ""), wmma, ""},
		{"pad 8 every row, wmma.load", buf(0, 8, 1, ""), wmma, "72 elements, not a multiple of 16"},
		{"pad 8 every row, ldmatrix", buf(0, 8, 1, ""), ldmatrix, ""},
		{"row stride 80, wmma.load", buf(80, 0, 0, ""), wmma, ""},
		{"identity, wmma.load", buf(0, 0, 0, ""), wmma, ""},
		{"swizzle 128B, wmma.load", buf(0, 0, 0, "128B"), wmma, "not contiguous"},
		{"swizzle 128B, ldmatrix", buf(0, 0, 0, "128B"), ldmatrix, ""},
		{"swizzle 128B, wgmma", buf(0, 0, 0, "128B"), wgmma, ""},
		{"swizzle 64B on 128-byte rows, wgmma", buf(0, 0, 0, "64B"), wgmma, "rows of 64 bytes"},
		{"padded, wgmma", buf(0, 8, 1, "none"), wgmma, "padding"},
		{"pad 4 every 2 rows, ds_read_b128", buf(0, 4, 2, ""), dsRead, "not 16-byte aligned"},
		{"swizzle 128B, ds_read_b128", buf(0, 0, 0, "128B"), dsRead, ""},
	}
	for _, c := range cases {
		err := c.rule.Admits(c.buf, tile)
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

// The 128-byte swizzle moves 16-byte chunk c of row r to chunk c ^ (r % 8)
// (PTX ISA, "Shared Memory Matrix Layout", swizzle modes): checked on
// every element of an 8-row, 64-column f16 block.
func TestSwizzle128B(t *testing.T) {
	s := &SharedLayout{Rows: 8, Cols: 64, Swizzle: "128B", ElemBits: 16}
	for r := range 8 {
		for c := range 64 {
			chunk, within := c/8, c%8
			want := r*64 + (chunk^r)*8 + within
			if got := s.Offset(r, c); got != want {
				t.Fatalf("(%d, %d) at %d, want %d", r, c, got, want)
			}
		}
	}
}

func TestSurfaceRule(t *testing.T) {
	rule := &MemoryRule{Rule: "block_2d", Block2D: Block2DRule{BaseAlignment: 64, PitchMin: 64, PitchMax: 1 << 24, PitchMultiple: 16,
		WidthMin: 64, WidthMax: 1 << 24, WidthMultiple: 4, HeightMax: 1 << 24, XAlignment: 4, BlockWidthBytes: 64, BlockHeight: 32, ArrayLength: 4}}
	ok := Surface{Width: 4096, Height: 1024, Pitch: 4096, BaseAlignment: 64}
	if err := rule.AdmitsSurface(ok); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		s    Surface
		want string
	}{
		{Surface{Width: 4096, Height: 1024, Pitch: 4104, BaseAlignment: 64}, "not a multiple of 16"},
		{Surface{Width: 32, Height: 1024, Pitch: 64, BaseAlignment: 64}, "outside 64"},
		{Surface{Width: 4096, Height: 1024, Pitch: 4096, BaseAlignment: 32}, "64"},
		{Surface{Width: 8192, Height: 1024, Pitch: 4096, BaseAlignment: 64}, "more than"},
		{Surface{Width: 4096, Height: 1024, Pitch: 4096, BaseAlignment: 64, X: 2}, "multiple of 4"},
	} {
		err := rule.AdmitsSurface(bad.s)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want %q", bad.s, err, bad.want)
		}
	}
}
