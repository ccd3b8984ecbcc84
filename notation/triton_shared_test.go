package notation_test

import (
	"fmt"
	"strings"
	"testing"

	. "planner/model"
	"planner/notation"
)

// Triton's shared encodings as placements: every element's offset against
// the formulas of triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp, written here by
// hand: sharedToLinearLayoutNoLeadingOffset puts (r, c) at
// r·cols + (c XOR vec·((r / perPhase) mod maxPhase) mod cols);
// sharedToLinearLayoutLeadingOffset does the same with vec = 128 /
// elementBitWidth and (perPhase, maxPhase) = (4, 2), (2, 4), (1, 8) for
// 32, 64 and 128-byte swizzles; padded_shared adds pad elements after
// every interval elements. nvmmaSharedToLinearLayout lays rows wider
// than the swizzle out in tiles of 8 rows one swizzle wide, down all the
// rows (rows · w elements per column block) before the next block of w
// columns.
func TestTritonSharedPlacements(t *testing.T) {
	swizzled := func(vec, per, maxPh int) func(r, c, cols int) int {
		return func(r, c, cols int) int { return r*cols + (c ^ (vec*((r/per)%maxPh))%cols) }
	}
	tiled := func(rows, w, vec, per, maxPh int) func(r, c, cols int) int {
		return func(r, c, cols int) int {
			return (c/w)*rows*w + r*w + (c%w ^ vec*((r/per)%maxPh))
		}
	}
	padded := func(iv, pad int) func(r, c, cols int) int {
		return func(r, c, cols int) int { i := r*cols + c; return i + i/iv*pad }
	}
	tests := []struct {
		enc              string
		rows, cols, bits int
		want             func(r, c, cols int) int
	}{
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 32, 64, 16, swizzled(8, 1, 8)},
		{"#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>", 16, 32, 32, swizzled(4, 2, 4)},
		// Rows narrower than vec × maxPhase: the phase wraps (mod cols).
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 64, 16, 16, swizzled(8, 1, 8)},
		{"#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", 8, 24, 16, swizzled(1, 1, 1)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", 64, 64, 16, swizzled(8, 1, 8)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>", 16, 32, 16, swizzled(8, 2, 4)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>", 32, 32, 8, swizzled(16, 4, 2)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", 64, 128, 16, tiled(64, 64, 8, 1, 8)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", 16, 256, 16, tiled(16, 64, 8, 1, 8)},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>", 32, 64, 16, tiled(32, 32, 8, 2, 4)},
		// transposed = true: the transpose laid out so, (r, c) where (c, r)
		// of the cols x rows transpose lies.
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>", 64, 64, 16, func(r, c, _ int) int { return tiled(64, 64, 8, 1, 8)(c, r, 64) }},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>", 128, 64, 16, func(r, c, _ int) int { return tiled(64, 64, 8, 1, 8)(c, r, 128) }},
		{"#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [32, 64]}>", 32, 64, 16, padded(64, 4)},
		{"#ttg.padded_shared<[512:+16], {order = [1, 0], shape = [64, 128]}>", 64, 128, 16, padded(512, 16)},
		{"#ttg.padded_shared<[32:+1]>", 8, 16, 32, padded(32, 1)},
		// Rows 72 elements apart and 8 more every 8 rows: both pads.
		{"#ttg.padded_shared<[512:+8, 64:+8]>", 64, 64, 16, func(r, c, cols int) int { i := r*cols + c; return i + i/64*8 + i/512*8 }},
	}
	for _, tc := range tests {
		l, err := notation.ParseTritonShared(tc.enc, Pos{File: "enc", Line: 1, Col: 1}, tc.rows, tc.cols, tc.bits)
		if err != nil {
			t.Errorf("%s: %v", tc.enc, err)
			continue
		}
		check := func(what string, l *SharedLayout) {
			for r := range tc.rows {
				for c := range tc.cols {
					if got, want := l.Offset(r, c), tc.want(r, c, tc.cols); got != want {
						t.Fatalf("%s %s on %dx%d: (%d, %d) at %d, want %d", what, tc.enc, tc.rows, tc.cols, r, c, got, want)
					}
				}
			}
		}
		check("read", l)
		back, err := notation.TritonShared(l)
		if err != nil {
			t.Fatalf("%s: written back: %v", tc.enc, err)
		}
		l2, err := notation.ParseTritonShared(back, Pos{File: "enc", Line: 1, Col: 1}, tc.rows, tc.cols, tc.bits)
		if err != nil {
			t.Fatalf("%s written as %s does not read back: %v", tc.enc, back, err)
		}
		check("written as "+back+" from", l2)
	}
}

// What has no placement, or no Triton encoding, says why.
func TestTritonSharedRefusals(t *testing.T) {
	for _, tc := range []struct {
		enc        string
		rows, cols int
		want       string
	}{
		{"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>", 64, 64, "row major"},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>", 96, 64, "tiles of 8 rows 128 bytes wide"},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", 64, 96, "tiles of 8 rows 128 bytes wide"},
		{"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", 4, 64, "tiles of 8 rows 128 bytes wide"},
		{"#ttg.padded_shared<[32:+4]>", 64, 64, "whole number"},
		{"#ttg.padded_shared<[64:+3]>", 64, 64, "powers of two"},
		{"#ttg.padded_shared<[128:+8, 256:+4]>", 64, 64, "one interval"},
		{"#ttg.padded_shared<[64:+8, 128:+4, 256:+4]>", 64, 64, "3 paddings"},
		{"#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>", 8, 8, "unknown shared encoding"},
	} {
		_, err := notation.ParseTritonShared(tc.enc, Pos{File: "enc", Line: 1, Col: 1}, tc.rows, tc.cols, 16)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.enc, err, tc.want)
		}
	}
	// A row stride is a pad after every row, where the pad is a power of
	// two; a stride of 68 + 8 = 76 is not.
	l := &SharedLayout{Rows: 8, Cols: 64, Stride: 76, ElemBits: 16, Swizzle: "none"}
	if _, err := notation.TritonShared(l); err == nil || !strings.Contains(err.Error(), "powers of two") {
		t.Errorf("a row stride of 76: %v", err)
	}
	l = &SharedLayout{Rows: 8, Cols: 64, Stride: 72, ElemBits: 16, Swizzle: "none"}
	if enc, err := notation.TritonShared(l); err != nil || enc != "#ttg.padded_shared<[64:+8] {order = [1, 0], shape = [8, 64]}>" {
		t.Errorf("a row stride of 72: %s, %v", enc, err)
	}
}

// A placement a matrix descriptor reads is written as #ttg.nvmma_shared
// where it is its descriptor mode's canonical layout (rows exactly the
// mode's span, no padding), reading back as the same placement; any
// other placement has no such encoding and says why.
func TestTritonNVMMAShared(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *SharedLayout
		want string // the encoding, or a word of the refusal
		ok   bool
	}{
		{"128B on rows of 64 f16", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "128B"},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", true},
		{"64B on rows of 16 f32", &SharedLayout{Rows: 32, Cols: 16, ElemBits: 32, Swizzle: "64B"},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>", true},
		{"32B as its XOR on rows of 32 i8", &SharedLayout{Rows: 32, Cols: 32, ElemBits: 8, Swizzle: "none", XOR: ModeSwizzle("32B")},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>", true},
		{"dense rows of 16 bytes", &SharedLayout{Rows: 64, Cols: 8, ElemBits: 16, Swizzle: "none"},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>", true},
		{"128B in column blocks of 64 f16", &SharedLayout{Rows: 64, Cols: 256, ElemBits: 16, Swizzle: "128B", ColumnBlock: 64},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", true},
		{"128B column major (a K-major B)", &SharedLayout{Rows: 64, Cols: 128, ElemBits: 16, Swizzle: "128B", ColumnMajor: true},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>", true},
		{"128B column major in column blocks", &SharedLayout{Rows: 128, Cols: 64, ElemBits: 16, Swizzle: "128B", ColumnMajor: true, ColumnBlock: 64},
			"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>", true},
		{"column blocks of 4 rows", &SharedLayout{Rows: 4, Cols: 128, ElemBits: 16, Swizzle: "128B", ColumnBlock: 64}, "whole atoms of 8 rows", false},
		{"column blocks wider than the swizzle", &SharedLayout{Rows: 64, Cols: 256, ElemBits: 16, Swizzle: "64B", ColumnBlock: 64}, "rows of 64 bytes", false},
		{"dense rows of 128 bytes", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "none"}, "rows of 16 bytes", false},
		{"rows padded", &SharedLayout{Rows: 64, Cols: 64, Stride: 72, ElemBits: 16, Swizzle: "none"}, "rows of 16 bytes", false},
		{"a pad every 8 rows", &SharedLayout{Rows: 64, Cols: 64, Pad: 8, PadEvery: 8, ElemBits: 16, Swizzle: "128B"}, "padding every 8 rows", false},
		{"64B on rows of 128 bytes", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "64B"}, "rows of 64 bytes", false},
		{"an XOR of no mode", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16, Swizzle: "none", XOR: Swizzle{Bits: 2, Base: 4, Shift: 4}}, "none of a descriptor's modes", false},
	} {
		enc, err := notation.TritonNVMMAShared(tc.l)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.ok && enc != tc.want:
			t.Errorf("%s: %s, want %s", tc.name, enc, tc.want)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %q, %v; want an error saying %q", tc.name, enc, err, tc.want)
		}
		if !tc.ok || err != nil {
			continue
		}
		back, err := notation.ParseTritonShared(enc, Pos{File: "enc", Line: 1, Col: 1}, tc.l.Rows, tc.l.Cols, tc.l.ElemBits)
		if err != nil {
			t.Errorf("%s: %s does not read back: %v", tc.name, enc, err)
			continue
		}
		for r := range tc.l.Rows {
			for c := range tc.l.Cols {
				if got, want := back.Offset(r, c), tc.l.Offset(r, c); got != want {
					t.Fatalf("%s: %s puts (%d, %d) at %d, the placement at %d", tc.name, enc, r, c, got, want)
				}
			}
		}
	}
}

// A #ttg.nvmma_shared read as a placement puts each element where
// Triton 3.9 puts it: the offset bases below are Triton's own
// toLinearLayout of the encoding on the shape
// (GluonOpBuilder.to_linear_layout of get_nvmma_shared_layout, the
// python binding of nvmmaSharedToLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp), offset bit k
// holding element base[k], so that the placement's offset of base[k] is
// 2^k. They cover rows wider than the swizzle (column blocks), the
// transposed encoding (column major) and both at once.
func TestNVMMASharedAgainstTritonBases(t *testing.T) {
	type bases = [][2]int
	for _, tc := range []struct {
		width      int
		transposed bool
		shape      [2]int
		offset     bases
	}{
		{128, false, [2]int{64, 128}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}, {16, 0}, {32, 0}, {0, 64}}},
		{128, false, [2]int{64, 256}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}, {16, 0}, {32, 0}, {0, 64}, {0, 128}}},
		{128, false, [2]int{16, 256}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}, {0, 64}, {0, 128}}},
		{64, false, [2]int{32, 128}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}, {8, 0}, {16, 0}, {0, 32}, {0, 64}}},
		{128, true, [2]int{64, 128}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}}},
		{128, true, [2]int{128, 64}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4}, {0, 8}, {0, 16}, {0, 32}, {64, 0}}},
		{32, true, [2]int{64, 32}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}, {8, 4}, {0, 8}, {0, 16}, {16, 0}, {32, 0}}},
	} {
		enc := fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %t, elementBitWidth = 16}>", tc.width, tc.transposed)
		l, err := notation.ParseTritonShared(enc, Pos{File: "enc", Line: 1, Col: 1}, tc.shape[0], tc.shape[1], 16)
		if err != nil {
			t.Errorf("%s on %v: %v", enc, tc.shape, err)
			continue
		}
		for k, b := range tc.offset {
			if got := l.Offset(b[0], b[1]); got != 1<<k {
				t.Errorf("%s on %v, placed %s: %v at %d, Triton's offset %d", enc, tc.shape, l, b, got, 1<<k)
			}
		}
		if _, err := l.CanonicalMode(); err != nil {
			t.Errorf("%s on %v: no descriptor mode: %v", enc, tc.shape, err)
		}
	}
}
