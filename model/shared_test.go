package model

import (
	"slices"
	"testing"
)

// Hand-checked tests of the shared-memory bank model in shared.go. Every
// expected number is worked out in the comment beside its case; none is
// produced by the code under test.
//
// Sources for the rules the arithmetic uses:
//
//   - Banks. CUDA C++ Programming Guide, "Compute Capability 5.x" and later,
//     "Shared Memory": 32 banks, successive 32-bit words in successive banks
//     (bank = (byte address / 4) mod 32); a request does not conflict
//     between two threads that access any address within the same 32-bit
//     word (the word is broadcast); distinct words of one bank are
//     serialized. The guide's wording is quoted in NervanaSystems/maxas
//     issue #8 (from guide v7.5, section G.5.3). The bank count and width
//     are those of intrinsics/targets/sm_80.toml and sm_90.toml.
//   - Phases of wide accesses. A 64-bit access is served per half warp and
//     a 128-bit access per quarter warp (lanes 0-7, 8-15, 16-23, 24-31),
//     and conflicts count only within a phase: NVIDIA/cutlass issue #328
//     (hwu36, ocwins), Dao-AILab/flash-attention issue #738 (citing NVIDIA's
//     GTC 2019 talk S9593, "128-bit accesses: thread 0-7 phase 1, 8-15
//     phase 2"), NervanaSystems/maxas issue #8 (scott-gray: a 128-bit load
//     takes at least two transactions).
//   - ldmatrix. PTX ISA 9.7.14.5.15 "Warp-level matrix load instruction:
//     ldmatrix": an 8x8 matrix of 16-bit elements is 8 rows of 16 bytes;
//     threads 0-7 give the row addresses of matrix 0 (8-15 of matrix 1, and
//     so on), each row 16-byte aligned.
//   - Swizzle. CuTe's Swizzle<BBits, MBase, SShift> (NVIDIA/cutlass
//     include/cute/swizzle.hpp): yyy_msk = ((1<<B)-1) << (M+S),
//     apply(o) = o ^ ((o & yyy_msk) >> S), so the B bits at M+S are XORed
//     into the B bits at M. PTX ISA 9.7.15.5.1.2 "Shared Memory Matrix
//     Layout": the 128B swizzle atom is 8 rows of 8 16-byte units (repeating
//     every 1024 bytes, tcgen05 "Shared Memory Descriptor" table 41), the
//     16-byte unit index XORed with the row index mod 8; over byte offsets
//     that is Swizzle<3,4,3>; 64B is Swizzle<2,4,3>, 32B Swizzle<1,4,3>.
//   - AMD LDS. 32 banks of 4 bytes (ROCm Compute Profiler, "Local data share
//     (LDS)"; intrinsics/targets/gfx90a.toml); a b32 access serves 32
//     adjacent lanes at once (nod-ai/amd-shark-ai pull request #121, the
//     AMDGPU kernel optimization guide: "a b32 access (single dword)
//     handles 32 adjacent threads"), so a wave64 b32 access takes two.

var (
	nvidiaTarget = &Target{Name: "sm_90", Banks: 32, BankBytes: 4, SubgroupSize: 32}
	amdTarget    = &Target{Name: "gfx90a", Banks: 32, BankBytes: 4, SubgroupSize: 64}
)

// seq returns n addresses start, start+stride, ...
func seq(n, start, stride int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = start + k*stride
	}
	return out
}

func TestPhaseWavefronts(t *testing.T) {
	cases := []struct {
		name   string
		addrs  []int
		width  int
		target *Target
		want   int
	}{
		// Lane k reads bytes 4k..4k+3: word k, bank k. 32 lanes, 32
		// banks, one word each: one wavefront.
		{"32 lanes consecutive 4-byte words", seq(32, 0, 4), 4, nvidiaTarget, 1},
		// All lanes read word 0: one word, broadcast (CUDA guide: no
		// conflict between threads accessing the same 32-bit word).
		{"32 lanes same word (broadcast)", seq(32, 0, 0), 4, nvidiaTarget, 1},
		// Lanes reading the same word as another lane, in pairs: lane k
		// reads word k/2, words 0..15 in banks 0..15, one word per bank.
		{"pairs of lanes share a word", []int{0, 0, 4, 4, 8, 8, 12, 12, 16, 16, 20, 20, 24, 24, 28, 28, 32, 32, 36, 36, 40, 40, 44, 44, 48, 48, 52, 52, 56, 56, 60, 60}, 4, nvidiaTarget, 1},
		// Lane k at byte 128k: word 32k, bank 32k mod 32 = 0 for all 32
		// lanes, 32 distinct words in bank 0: 32 wavefronts.
		{"stride 128 bytes: all bank 0", seq(32, 0, 128), 4, nvidiaTarget, 32},
		// Lane k at byte 8k: word 2k, bank 2k mod 32. Lanes k and k+16
		// both hit bank 2k (words 2k and 2k+32): a 2-way conflict.
		{"stride 8 bytes, 4-byte width", seq(32, 0, 8), 4, nvidiaTarget, 2},
		// 16-byte accesses: 128/16 = 8 lanes per phase (quarter warp), 4
		// phases. Phase p covers bytes 128p..128p+127, words 32p..32p+31,
		// one per bank: 1 wavefront per phase, 4 in all.
		{"16-byte consecutive, 32 lanes", seq(32, 0, 16), 16, nvidiaTarget, 4},
		// 8 lanes of 16 bytes at byte 128k: one phase. Lane k covers words
		// 32k..32k+3, banks 0..3. Each of banks 0..3 holds 8 distinct
		// words (k = 0..7): 8 wavefronts.
		{"16-byte, 8 lanes, stride 128", seq(8, 0, 128), 16, nvidiaTarget, 8},
		// 8-byte accesses: 128/8 = 16 lanes per phase (half warp), 2
		// phases, each covering 128 contiguous bytes, 32 words in 32
		// banks: 1 + 1 = 2.
		{"8-byte consecutive, 32 lanes", seq(32, 0, 8), 8, nvidiaTarget, 2},
		// 8-byte accesses at a 16-byte stride: phase 0 is lanes 0..15 at
		// bytes 0, 16, .., 240, words 4k and 4k+1, banks 4k mod 32 and
		// 4k+1 mod 32; lanes k and k+8 share banks (words 4k, 4k+32):
		// 2-way, 2 wavefronts per phase, 4 in all.
		{"8-byte, stride 16", seq(32, 0, 16), 8, nvidiaTarget, 4},
		// wave64 on AMD LDS, 32 banks of 4 bytes: a b32 access serves 32
		// lanes at once, so 64 lanes take two phases: lanes 0..31 words
		// 0..31 (banks 0..31), lanes 32..63 words 32..63 (banks 0..31):
		// 1 + 1 = 2.
		{"AMD wave64 consecutive 4-byte words", seq(64, 0, 4), 4, amdTarget, 2},
		// wave64, all lanes at a stride of 128 bytes: each phase of 32
		// lanes puts 32 distinct words in bank 0: 32 + 32 = 64.
		{"AMD wave64 stride 128", seq(64, 0, 128), 4, amdTarget, 64},
	}
	for _, c := range cases {
		if got := PhaseWavefronts(c.addrs, c.width, c.target); got != c.want {
			t.Errorf("%s: PhaseWavefronts = %d, want %d", c.name, got, c.want)
		}
	}
}

// idealWavefronts is ceil(lanes*width / (banks*bankBytes)), at least 1.
func TestIdealWavefronts(t *testing.T) {
	cases := []struct {
		lanes, width int
		target       *Target
		want         int
	}{
		{32, 4, nvidiaTarget, 1},  // 128 bytes / 128 = 1
		{32, 8, nvidiaTarget, 2},  // 256 / 128 = 2
		{32, 16, nvidiaTarget, 4}, // 512 / 128 = 4
		{8, 16, nvidiaTarget, 1},  // one ldmatrix 8x8: 128 / 128 = 1
		{32, 2, nvidiaTarget, 1},  // 64 bytes: less than one, so 1
		{64, 4, amdTarget, 2},     // 256 / 128 = 2
	}
	for _, c := range cases {
		if got := idealWavefronts(c.lanes, c.width, c.target); got != c.want {
			t.Errorf("idealWavefronts(%d lanes, %d bytes) = %d, want %d", c.lanes, c.width, got, c.want)
		}
	}
}

// cuteSwizzle is CuTe's Swizzle<B, M, S>::apply for S >= 0, transcribed
// from cute/swizzle.hpp: offset ^ ((offset & yyy_msk) >> S) with
// yyy_msk = ((1<<B)-1) << (M+S). The table below also writes out each
// result by hand, so the test does not lean on this transcription alone.
func cuteSwizzle(b, m, s, offset int) int {
	yyy := (1<<b - 1) << (m + s)
	return offset ^ (offset&yyy)>>s
}

func TestSwizzleApply(t *testing.T) {
	cases := []struct {
		name string
		sw   Swizzle
		in   int
		want int
	}{
		// Swizzle<3,4,3>: yyy_msk = 7<<7 = 0x380, zzz_msk = 7<<4 = 0x70.
		// 0: nothing set, 0.
		{"<3,4,3> 0", Swizzle{3, 4, 3}, 0, 0},
		// 16 = row 0, unit 1: 16 & 0x380 = 0, stays 16.
		{"<3,4,3> 16", Swizzle{3, 4, 3}, 16, 16},
		// 128 = row 1, unit 0: (128 & 0x380) >> 3 = 16; 128 ^ 16 = 144
		// (row 1, unit 0^1 = 1).
		{"<3,4,3> 128", Swizzle{3, 4, 3}, 128, 144},
		// 1008 = 0b11_1111_0000 = row 7, unit 7: (1008 & 0x380) = 896,
		// >> 3 = 112; 1008 ^ 112 = 896 (row 7, unit 7^7 = 0).
		{"<3,4,3> 1008", Swizzle{3, 4, 3}, 1008, 896},
		// 1702 = 1024 + 5*128 + 2*16 + 6: second atom, row 5, unit 2,
		// byte 6. (1702 & 0x380) = 512+128 = 640, >> 3 = 80; 1702 ^ 80 =
		// 1782 = 1024 + 640 + 7*16 + 6 (unit 2^5 = 7).
		{"<3,4,3> 1702", Swizzle{3, 4, 3}, 1702, 1782},
		// Swizzle<2,4,3> (64B): yyy_msk = 3<<7 = 0x180. 400 = 3*128 + 16:
		// (400 & 0x180) = 384, >> 3 = 48; 400 ^ 48 = 416 = 384 + 2*16
		// (unit 1^3 = 2).
		{"<2,4,3> 400", Swizzle{2, 4, 3}, 400, 416},
		// Swizzle<1,4,3> (32B): yyy_msk = 1<<7 = 128. 144 = 128 + 16:
		// (144 & 128) >> 3 = 16; 144 ^ 16 = 128 (unit 1^1 = 0).
		{"<1,4,3> 144", Swizzle{1, 4, 3}, 144, 128},
		// cute/swizzle.hpp's own examples: make_swizzle<0b1000, 0b0100>()
		// is Swizzle<1,2,1>: yyy = 8; 8 ^ (8>>1) = 12, 12 ^ 4 = 8.
		{"<1,2,1> 8", Swizzle{1, 2, 1}, 8, 12},
		{"<1,2,1> 12", Swizzle{1, 2, 1}, 12, 8},
		// make_swizzle<0b11000000, 0b00000110>() is Swizzle<2,1,5>:
		// yyy = 3<<6 = 192. 192 ^ (192>>5 = 6) = 198; 66: (66 & 192) =
		// 64, >> 5 = 2, 66 ^ 2 = 64.
		{"<2,1,5> 192", Swizzle{2, 1, 5}, 192, 198},
		{"<2,1,5> 66", Swizzle{2, 1, 5}, 66, 64},
		// No bits: the identity.
		{"none 1234", Swizzle{}, 1234, 1234},
	}
	for _, c := range cases {
		got := c.sw.Apply(c.in)
		if got != c.want {
			t.Errorf("%s: Apply(%d) = %d, want %d", c.name, c.in, got, c.want)
		}
		if c.sw.Bits > 0 {
			if cute := cuteSwizzle(c.sw.Bits, c.sw.Base, c.sw.Shift, c.in); cute != c.want {
				t.Errorf("%s: the hand value %d disagrees with CuTe's formula %d", c.name, c.want, cute)
			}
		}
	}
	// Apply agrees with CuTe's definition over two whole 128B atoms, and
	// is its own inverse (an XOR of bits that it does not change).
	for _, sw := range []Swizzle{{3, 4, 3}, {2, 4, 3}, {1, 4, 3}, {1, 2, 1}, {2, 1, 5}} {
		for a := range 2048 {
			if got, want := sw.Apply(a), cuteSwizzle(sw.Bits, sw.Base, sw.Shift, a); got != want {
				t.Fatalf("%v: Apply(%d) = %d, CuTe gives %d", sw, a, got, want)
			}
			if back := sw.Apply(sw.Apply(a)); back != a {
				t.Fatalf("%v: Apply(Apply(%d)) = %d", sw, a, back)
			}
		}
	}
}

func TestModeSwizzle(t *testing.T) {
	// PTX ISA "Shared Memory Matrix Layout": 16-byte units (bit 4 up)
	// XORed with the row (bit 7 up) mod 8, 4 or 2 for 128B, 64B, 32B.
	cases := map[string]Swizzle{
		"128B": {Bits: 3, Base: 4, Shift: 3},
		"64B":  {Bits: 2, Base: 4, Shift: 3},
		"32B":  {Bits: 1, Base: 4, Shift: 3},
		"none": {},
		"":     {},
	}
	for mode, want := range cases {
		if got := ModeSwizzle(mode); got != want {
			t.Errorf("ModeSwizzle(%q) = %+v, want %+v", mode, got, want)
		}
	}
}

func TestSharedSwizzledOffset(t *testing.T) {
	// 64x64 f16, 128B swizzle: row i starts at byte 128i; element (i, j)
	// is at byte a = 2*(64i + j), unit u = (j/8), and the swizzled byte is
	// 128i + 16*(u ^ (i mod 8)) + 2*(j mod 8).
	s := &SharedLayout{Rows: 64, Cols: 64, Swizzle: "128B", ElemBits: 16}
	cases := []struct {
		i, j      int
		wantBytes int
	}{
		{0, 0, 0},     // unit 0 ^ 0 = 0
		{0, 9, 18},    // row 0 is unswizzled: 2*9 = 18
		{1, 0, 144},   // 128 + 16*(0^1) = 144
		{1, 8, 128},   // 128 + 16*(1^1) = 128
		{3, 17, 402},  // unit 2, byte 2: 384 + 16*(2^3) + 2 = 384 + 16 + 2 = 402
		{7, 0, 1008},  // 896 + 16*(0^7) = 1008
		{9, 63, 1262}, // row 9 (9 mod 8 = 1), unit 7, byte 14: 1152 + 16*6 + 14 = 1262
		{63, 5, 8186}, // row 63 (mod 8 = 7), unit 0, byte 10: 8064 + 16*(0^7) + 10 = 8186
	}
	for _, c := range cases {
		if got := s.ByteOffset(c.i, c.j); got != c.wantBytes {
			t.Errorf("128B swizzle: ByteOffset(%d, %d) = %d, want %d", c.i, c.j, got, c.wantBytes)
		}
		if got := s.Offset(c.i, c.j); got != c.wantBytes/2 {
			t.Errorf("128B swizzle: Offset(%d, %d) = %d, want %d elements", c.i, c.j, got, c.wantBytes/2)
		}
	}
	// The explicit XOR takes precedence over the named mode: Swizzle
	// "128B" with XOR {1,4,3} is the 32B pattern: (1, 0) -> 128 + 16*(0^1)
	// = 144, (2, 0) -> 256 + 16*(0 ^ (2 mod 2)) = 256.
	x := &SharedLayout{Rows: 64, Cols: 64, Swizzle: "128B", XOR: Swizzle{1, 4, 3}, ElemBits: 16}
	if got := x.ByteOffset(1, 0); got != 144 {
		t.Errorf("XOR {1,4,3}: ByteOffset(1, 0) = %d, want 144", got)
	}
	if got := x.ByteOffset(2, 0); got != 256 {
		t.Errorf("XOR {1,4,3}: ByteOffset(2, 0) = %d, want 256", got)
	}
	// Padding: stride 72 f16, (2, 3) at 2*(144 + 3) = 294; pad 4 every 2
	// rows, (3, 1) at 2*(3*64 + 1 + (3/2)*4) = 2*197 = 394.
	if got := (&SharedLayout{Rows: 64, Cols: 64, Stride: 72, ElemBits: 16}).ByteOffset(2, 3); got != 294 {
		t.Errorf("stride 72: ByteOffset(2, 3) = %d, want 294", got)
	}
	if got := (&SharedLayout{Rows: 64, Cols: 64, Pad: 4, PadEvery: 2, ElemBits: 16}).ByteOffset(3, 1); got != 394 {
		t.Errorf("pad 4 every 2: ByteOffset(3, 1) = %d, want 394", got)
	}
}

// blocked64 is a 64x64 tile held by one warp of 32 lanes in a blocked
// layout with size_per_thread [1, 8] and the given threads_per_warp.
// (written here by its bases: registers, then lanes).
func blocked64(t *testing.T, tpw []int) *Layout {
	t.Helper()
	f := Frame{Shape: []int{64, 64}, SubgroupSize: 32, Subgroups: 1}
	switch {
	case slices.Equal(tpw, []int{8, 4}):
		return basesLayout(t, f, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 32}, {8, 0}, {16, 0}, {32, 0}}, [][]int{{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}})
	case slices.Equal(tpw, []int{4, 8}):
		return basesLayout(t, f, [][]int{{0, 1}, {0, 2}, {0, 4}, {4, 0}, {8, 0}, {16, 0}, {32, 0}}, [][]int{{0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}})
	}
	t.Fatalf("no bases for threads_per_warp %v", tpw)
	return nil
}

// The hand arithmetic below assumes where the blocked layouts put values;
// check that first (Triton's blockedToLinearLayout: registers take
// size_per_thread, lanes threads_per_warp, fastest dimension first, then
// register repeats).
//
// [8,4]: lane = a + 4r holds row r (0..7) mod 8, columns 8a..8a+7 of each
// 32-column half; value v = c + 8h + 16b is column 32h + 8a + c of row
// 8b + r. So lane 6 (a = 2, r = 1), value 8*1+16*3+5 = 61 (c 5, h 1, b 3)
// is row 25, column 32 + 16 + 5 = 53.
//
// [4,8]: lane = a + 8r holds row r (0..3) mod 4, columns 8a..8a+7; value
// v = c + 8b is row 4b + r. Lane 13 (a = 5, r = 1), value 8*7+2 = 58 is row
// 29, column 42.
func TestSharedBlockedAssumption(t *testing.T) {
	if got := blocked64(t, []int{8, 4}).Held(0, 0, 6)[61].Index; !slices.Equal(got, []int{25, 53}) {
		t.Fatalf("blocked [8,4]: lane 6 value 61 holds %v, the tests assume [25 53]", got)
	}
	if got := blocked64(t, []int{4, 8}).Held(0, 0, 13)[58].Index; !slices.Equal(got, []int{29, 42}) {
		t.Fatalf("blocked [4,8]: lane 13 value 58 holds %v, the tests assume [29 42]", got)
	}
	if n := blocked64(t, []int{8, 4}).Size(Register); n != 128 {
		t.Fatalf("blocked [8,4] holds %d values per lane, want 64*64/32 = 128", n)
	}
}

func TestAccessRows(t *testing.T) {
	// ldmatrix over a 64x64 f16 buffer held in full by one warp: 8 rows
	// of 16 bytes (8 f16) per phase, so (64/8) x (64/8) = 64 phases, each
	// ideally 8*16 = 128 bytes = 1 wavefront: Ideal 64, Instructions (8x8
	// matrices) 64, Vector 8, Bytes 16.
	l := blocked64(t, []int{8, 4})
	cases := []struct {
		name string
		buf  *SharedLayout
		want int
	}{
		// Dense: row r at byte 128r, word 32r: the 16 bytes at column
		// block c are words 32r + 4c..+3, banks 4c..4c+3 for every r. Eight
		// rows: 8 distinct words in each of 4 banks, 8 wavefronts per
		// matrix, 64*8 = 512.
		{"dense", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16}, 512},
		// Stride 72 f16 = 144 bytes = 36 words (16-byte aligned: 144 =
		// 9*16). Row r, column block c starts at word 36r + 4c, bank
		// (4r + 4c) mod 32; the 8 rows of a matrix start at 8 distinct
		// multiples of 4 and cover banks 0..31 once: 1 per matrix, 64.
		{"stride 72", &SharedLayout{Rows: 64, Cols: 64, Stride: 72, ElemBits: 16}, 64},
		// Pad 8 elements (16 bytes) every row is the same placement as
		// stride 72: 64.
		{"pad 8 every row", &SharedLayout{Rows: 64, Cols: 64, Pad: 8, PadEvery: 1, ElemBits: 16}, 64},
		// 128B swizzle: row r, block c at byte 128r + 16*(c ^ (r mod 8)),
		// banks 4*(c ^ r mod 8)..+3; over the 8 rows of a matrix, c ^ r
		// takes all 8 values: banks 0..31 once, 1 per matrix, 64.
		{"swizzle 128B", &SharedLayout{Rows: 64, Cols: 64, Swizzle: "128B", ElemBits: 16}, 64},
		// 64B swizzle: unit c ^ (r mod 4) (units 4..7 keep their upper
		// bit): rows r and r+4 of a matrix land on the same unit, 2
		// distinct words per bank, 2 per matrix, 128.
		{"swizzle 64B", &SharedLayout{Rows: 64, Cols: 64, Swizzle: "64B", ElemBits: 16}, 128},
	}
	for _, c := range cases {
		a := c.buf.AccessRows(l, 8, 16, nvidiaTarget)
		want := Access{Instructions: 64, Wavefronts: c.want, Ideal: 64, Vector: 8, Bytes: 16}
		if a != want {
			t.Errorf("ldmatrix rows, %s: %+v, want %+v", c.name, a, want)
		}
		if a.Conflicts() != c.want-64 {
			t.Errorf("ldmatrix rows, %s: Conflicts = %d, want %d", c.name, a.Conflicts(), c.want-64)
		}
	}
	// The rows read do not depend on the register layout, only on the
	// blocks it holds: the [4,8] layout gives the same counts (dense 512).
	if a := (&SharedLayout{Rows: 64, Cols: 64, ElemBits: 16}).AccessRows(blocked64(t, []int{4, 8}), 8, 16, nvidiaTarget); a.Wavefronts != 512 {
		t.Errorf("ldmatrix rows, [4,8] dense: %d wavefronts, want 512", a.Wavefronts)
	}
}

func TestAccessVectors(t *testing.T) {
	buf := func(stride, pad, every int, swz string) *SharedLayout {
		return &SharedLayout{Rows: 64, Cols: 64, Stride: stride, Pad: pad, PadEvery: every, Swizzle: swz, ElemBits: 16}
	}
	w84 := blocked64(t, []int{8, 4})
	w48 := blocked64(t, []int{4, 8})
	cases := []struct {
		name string
		buf  *SharedLayout
		l    *Layout
		want Access
	}{
		// threads_per_warp [4,8]: 8 lanes x 8 f16 = one whole 64-column
		// row per quarter warp. 128 values / 8 = 16 instructions of 16
		// bytes; each has 4 quarter-warp phases, phase p = lanes 8p..8p+7
		// = row 4b + p, units 0..7, the row's 128 contiguous bytes: banks
		// 0..31 once, 1 per phase. 16 * 4 = 64 wavefronts; ideal 32*16/128
		// = 4 per instruction, 64.
		{"[4,8] dense", buf(0, 0, 0, ""), w48, Access{Instructions: 16, Wavefronts: 64, Ideal: 64, Vector: 8, Bytes: 16}},
		// 128B swizzle permutes the 8 units within each row: a phase still
		// reads one row's 8 units, banks 0..31 once: 64.
		{"[4,8] swizzle 128B", buf(0, 0, 0, "128B"), w48, Access{Instructions: 16, Wavefronts: 64, Ideal: 64, Vector: 8, Bytes: 16}},
		// Stride 72: a phase reads 128 contiguous bytes from byte 144r,
		// 32 consecutive words, one per bank: 64. Offsets 72i + 8a stay
		// 8-aligned, so the vector stays 8.
		{"[4,8] stride 72", buf(72, 0, 0, ""), w48, Access{Instructions: 16, Wavefronts: 64, Ideal: 64, Vector: 8, Bytes: 16}},
		// threads_per_warp [8,4]: lane = a + 4r, so a quarter warp
		// (lanes 8p..8p+7) is rows 2p and 2p+1, 4 lanes x 16 bytes = the
		// same 64-byte half h of each row. Dense: row R's half h is words
		// 32R + 16h..+15, banks 16h..16h+15 for both rows, 2 distinct
		// words per bank: 2 per phase, 8 per instruction, 16 * 8 = 128
		// (ideal 64).
		{"[8,4] dense", buf(0, 0, 0, ""), w84, Access{Instructions: 16, Wavefronts: 128, Ideal: 64, Vector: 8, Bytes: 16}},
		// 128B swizzle: unit (4h + a) ^ (R mod 8). XOR with R maps the
		// aligned group {4h..4h+3} to the group h ^ (R mod 8)/4, the same
		// for R = 2p and 2p+1 (they differ in bit 0 only): both rows
		// again share 16 banks, 2 per phase, 128.
		{"[8,4] swizzle 128B", buf(0, 0, 0, "128B"), w84, Access{Instructions: 16, Wavefronts: 128, Ideal: 64, Vector: 8, Bytes: 16}},
		// Stride 72 (144-byte rows, 36 words): row R's half h starts at
		// bank (36R + 16h) mod 32 = (4R + 16h) mod 32; rows R and R+1
		// cover banks [s, s+16) and [s+4, s+20): 12 banks with 2 words, 2
		// per phase, 128.
		{"[8,4] stride 72", buf(72, 0, 0, ""), w84, Access{Instructions: 16, Wavefronts: 128, Ideal: 64, Vector: 8, Bytes: 16}},
		// Stride 96 (192-byte rows, 48 words): rows R and R+1 start 48
		// words = 16 banks apart, [s, s+16) and [s+16, s+32): disjoint, 1
		// per phase, 64. Offsets 96i + 8a stay 8-aligned.
		{"[8,4] stride 96", buf(96, 0, 0, ""), w84, Access{Instructions: 16, Wavefronts: 64, Ideal: 64, Vector: 8, Bytes: 16}},
		// Pad 4 f16 (8 bytes) every row: offset 68i + j. Row 1's first
		// vector starts at element 68, 68 mod 8 = 4: not 8-aligned, so
		// the 16-byte vector is halved to 4 elements (68 mod 4 = 0, and
		// 68i + j..j+3 is contiguous). 128 / 4 = 32 instructions of 8
		// bytes; 8-byte accesses run in half-warp phases of 16 lanes.
		// Value v = 4g + 8h + 16b (g = v/4 mod 2): lane a + 4r reads
		// row R = 8b + r at column 32h + 8a + 4g, byte 136R + 64h + 16a +
		// 8g, words 34R + 16h + 4a + 2g and +1, banks (2R + 16h + 4a +
		// 2g + {0,1}) mod 32. Phase 0 (r = 0..3, a = 0..3): 2r + 4a takes
		// 0, 2, 4(x2), 6(x2), 8(x2), 10(x2), 12(x2), 14(x2), 16, 18, the
		// doubled ones from different rows (distinct words), span under
		// 32: 2 wavefronts; phase 1 (r = 4..7) the same shifted by 8: 2.
		// 32 * 4 = 128; ideal 32 lanes * 8 bytes / 128 = 2 per
		// instruction, 64.
		{"[8,4] pad 4 every row (vector halved)", buf(0, 4, 1, ""), w84, Access{Instructions: 32, Wavefronts: 128, Ideal: 64, Vector: 4, Bytes: 8}},
		// The same padding under [4,8]: lane a + 8r reads row R = 4b + r
		// at column 8a + 4g, byte 136R + 16a + 8g, banks (2R + 4a + 2g +
		// {0,1}) mod 32 = (8b + 2g) + 2r + 4a + {0,1}. Phase 0 = lanes
		// 0..15 = r in {0, 1}, a = 0..7: r = 0 takes banks 4a + {0,1}
		// (0, 1, 4, 5, .., 28, 29), r = 1 takes 4a + 2 + {0,1} (2, 3, 6,
		// 7, .., 30, 31): all 32 banks once (the constant only rotates
		// them), 1. Phase 1 (r = 2, 3): the same rotated by 4, 1. 32 * 2
		// = 64; ideal 2 per instruction, 64.
		{"[4,8] pad 4 every row (vector halved)", buf(0, 4, 1, ""), w48, Access{Instructions: 32, Wavefronts: 64, Ideal: 64, Vector: 4, Bytes: 8}},
	}
	for _, c := range cases {
		if a := c.buf.AccessVectors(c.l, 8, nvidiaTarget); a != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, a, c.want)
		}
	}
}

func TestAccessVectorsWave64(t *testing.T) {
	// A 64x64 f32 buffer on AMD LDS, one wave of 64 lanes, blocked
	// size_per_thread [1,1], threads_per_warp [1,64]: lane k holds column
	// k of every row, 64 values. Each instruction (one value per lane,
	// 4 bytes) reads one row, 256 contiguous bytes; b32 phases of 32
	// lanes read words 64R..64R+31 and 64R+32..64R+63, each once per
	// bank: 2 per instruction, 64 * 2 = 128; ideal 64*4/128 = 2, 128.
	wave := Frame{Shape: []int{64, 64}, SubgroupSize: 64, Subgroups: 1}
	l := basesLayout(t, wave, [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}})
	s := &SharedLayout{Rows: 64, Cols: 64, ElemBits: 32}
	want := Access{Instructions: 64, Wavefronts: 128, Ideal: 128, Vector: 1, Bytes: 4}
	if a := s.AccessVectors(l, 1, amdTarget); a != want {
		t.Errorf("wave64 rows: %+v, want %+v", a, want)
	}
	// Reading down columns: threads_per_warp [64,1], lane k holds row k,
	// value v column v. Instruction v: lane k at word 64k + v (rows of 64
	// words), bank v mod 32 for every lane: each b32 phase of 32 lanes
	// puts 32 distinct words in one bank, 32 + 32 = 64 per instruction,
	// 64 * 64 = 4096 (ideal 128). Padding rows to 65 words (CUDA guide's
	// transpose padding): word 65k + v, bank (k + v) mod 32, distinct over
	// 32 consecutive lanes: 1 + 1 = 2 per instruction, 128.
	lc := basesLayout(t, wave, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}}, [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}})
	if a := s.AccessVectors(lc, 1, amdTarget); a != (Access{Instructions: 64, Wavefronts: 4096, Ideal: 128, Vector: 1, Bytes: 4}) {
		t.Errorf("wave64 columns, dense: %+v, want 64 instructions, 4096 wavefronts, ideal 128", a)
	}
	s65 := &SharedLayout{Rows: 64, Cols: 64, Stride: 65, ElemBits: 32}
	if a := s65.AccessVectors(lc, 1, amdTarget); a != (Access{Instructions: 64, Wavefronts: 128, Ideal: 128, Vector: 1, Bytes: 4}) {
		t.Errorf("wave64 columns, stride 65: %+v, want 64 instructions, 128 wavefronts, ideal 128", a)
	}
}

func TestSharedFormula(t *testing.T) {
	cases := []struct {
		name string
		buf  *SharedLayout
		want string
	}{
		// Dense f16: 2 bytes per element, rows 64 elements apart.
		{"dense", &SharedLayout{Rows: 64, Cols: 64, ElemBits: 16}, "addr(i, j) = 2*(i*64 + j)"},
		// Stride 72.
		{"stride 72", &SharedLayout{Rows: 64, Cols: 64, Stride: 72, ElemBits: 16}, "addr(i, j) = 2*(i*72 + j)"},
		// Pad 4 every row: i*64 + j + 4i.
		{"pad every row", &SharedLayout{Rows: 64, Cols: 64, Pad: 4, PadEvery: 1, ElemBits: 16}, "addr(i, j) = 2*(i*64 + j + i*4)"},
		// Seed 002: pad 4 every 2 rows.
		{"pad every 2 rows", &SharedLayout{Rows: 128, Cols: 64, Pad: 4, PadEvery: 2, ElemBits: 16}, "addr(i, j) = 2*(i*64 + j + (i/2)*4)"},
		// 128B: Swizzle<3,4,3>: bits 7..9 (>> 7, & 7) into bits 4..6 (<< 4).
		{"swizzle 128B", &SharedLayout{Rows: 64, Cols: 64, Swizzle: "128B", ElemBits: 16}, "addr(i, j) = a ^ (((a >> 7) & 7) << 4), a = 2*(i*64 + j)"},
		// 64B: Swizzle<2,4,3>: & 3.
		{"swizzle 64B", &SharedLayout{Rows: 32, Cols: 32, Swizzle: "64B", ElemBits: 16}, "addr(i, j) = a ^ (((a >> 7) & 3) << 4), a = 2*(i*32 + j)"},
		// f32, 4 bytes per element.
		{"f32 dense", &SharedLayout{Rows: 16, Cols: 32, ElemBits: 32}, "addr(i, j) = 4*(i*32 + j)"},
		// An explicit XOR: Swizzle<1,2,1> over bytes: (a >> 3) & 1 << 2.
		{"explicit xor", &SharedLayout{Rows: 16, Cols: 32, XOR: Swizzle{1, 2, 1}, ElemBits: 32}, "addr(i, j) = a ^ (((a >> 3) & 1) << 2), a = 4*(i*32 + j)"},
	}
	for _, c := range cases {
		if got := c.buf.Formula(); got != c.want {
			t.Errorf("%s: Formula() = %q, want %q", c.name, got, c.want)
		}
	}
	// The swizzled formula evaluated by hand at (3, 17): a = 2*(192 + 17)
	// = 418, (418 >> 7) & 7 = 3, 3 << 4 = 48, 418 ^ 48 = 402, the
	// ByteOffset worked out in TestSharedSwizzledOffset.
	s := &SharedLayout{Rows: 64, Cols: 64, Swizzle: "128B", ElemBits: 16}
	if got := s.ByteOffset(3, 17); got != 402 {
		t.Errorf("ByteOffset(3, 17) = %d, want 402 (the formula's value)", got)
	}
}

// Sub-byte elements under a swizzle. An 8x256 buffer of 4-bit elements
// has 128-byte rows; 128B swizzle moves whole 16-byte units and must keep
// an element's position within its byte. Element (0, 1) is the high half
// of byte 0 of row 0, which the swizzle leaves in place: offset 1.
// Element (1, 0) is at byte 128, swizzled to 128 + 16*(0^1) = 144, offset
// 288; (1, 1) is the other half of the same byte, offset 289.
func TestSharedSwizzledSubByte(t *testing.T) {
	s := &SharedLayout{Rows: 8, Cols: 256, Swizzle: "128B", ElemBits: 4}
	cases := []struct{ i, j, want int }{
		{0, 0, 0},
		{0, 1, 1},
		{1, 0, 288},
		{1, 1, 289},
	}
	for _, c := range cases {
		if got := s.Offset(c.i, c.j); got != c.want {
			t.Errorf("4-bit, 128B swizzle: Offset(%d, %d) = %d, want %d", c.i, c.j, got, c.want)
		}
	}
}
