package model

import (
	"fmt"
	"slices"
	"strings"
)

// SharedLayout places a two-dimensional buffer in shared memory: element
// (i, j) lies Offset(i, j) elements from the buffer's start. Rows are
// Stride elements apart, Pad more elements follow every PadEvery rows
// (seed 002's "pad m elements every n lines"), and Swizzle, when not
// "none", permutes 16-byte chunks within each row the way the Hopper
// swizzle modes do. ColumnBlock, when set and less than Cols, cuts the
// rows into blocks of that many columns, each block all Rows high and
// dense, one after another: a wgmma operand wider than one swizzle atom
// (PTX ISA, "Shared Memory Matrix Layout": a matrix is made of swizzle
// atoms, repeated along MN at the descriptor's leading dimension byte
// offset), as Triton's #ttg.nvmma_shared lays out rows wider than its
// swizzle (nvmmaSharedToLinearLayout tiles 8 rows one swizzle wide down
// the rows first).
type SharedLayout struct {
	Rows, Cols int
	Stride     int // elements from one row to the next; Cols when 0
	Pad        int // elements added after every PadEvery rows
	PadEvery   int
	Swizzle    string // "none", "32B", "64B" or "128B"
	// ColumnBlock: columns per block, 0 (or Cols) for whole rows; set,
	// rows within a block are ColumnBlock elements apart and Stride, Pad
	// and PadEvery are 0.
	ColumnBlock int
	// ColumnMajor stores the buffer's transpose: element (i, j) lies where
	// the rest of the placement (Stride, Pad, Swizzle, ColumnBlock) puts
	// element (j, i) of a Cols x Rows buffer, rows of the stored buffer
	// being the buffer's columns. A K x N buffer of wgmma's B so placed
	// holds it K-major (Triton's transposed #ttg.nvmma_shared).
	ColumnMajor bool
	// XOR, when its Bits are set, is the swizzle applied instead of the
	// named mode's.
	XOR      Swizzle
	ElemBits int
}

// swizzleBits is the number of address bits a swizzle mode XORs: the
// 16-byte chunk index (address bits 4 and up) is XORed with the bits
// three above it, as the PTX ISA's "Shared Memory Matrix Layout" swizzle
// modes and the CUDA driver's CU_TENSOR_MAP_SWIZZLE_* modes do (a 128-byte
// swizzle spans 8 rows of 128 bytes).
func swizzleBits(mode string) int {
	switch mode {
	case "32B":
		return 1
	case "64B":
		return 2
	case "128B":
		return 3
	}
	return 0
}

func (s *SharedLayout) stride() int {
	if s.columnBlocked() {
		return s.ColumnBlock
	}
	if s.Stride == 0 {
		return s.storedCols()
	}
	return s.Stride
}

// storedRows and storedCols are the shape of the buffer as it is stored:
// its transpose where it is column major.
func (s *SharedLayout) storedRows() int {
	if s.ColumnMajor {
		return s.Cols
	}
	return s.Rows
}

func (s *SharedLayout) storedCols() int {
	if s.ColumnMajor {
		return s.Rows
	}
	return s.Cols
}

// StoredShape is the buffer's shape as it is stored: rows, then the
// elements of a row (Cols x Rows where it is column major).
func (s *SharedLayout) StoredShape() (rows, cols int) { return s.storedRows(), s.storedCols() }

// StoredByteOffset is where element (r, c) of the stored buffer starts,
// in bytes: element (c, r) where the buffer is column major.
func (s *SharedLayout) StoredByteOffset(r, c int) int {
	if s.ColumnMajor {
		return s.ByteOffset(c, r)
	}
	return s.ByteOffset(r, c)
}

// ContiguousDim is the dimension, of a layout of the given rank over the
// buffer, along which its elements lie next to each other: the last, or
// the first where the buffer is stored column major.
func (s *SharedLayout) ContiguousDim(rank int) int {
	if s.ColumnMajor {
		return rank - 2
	}
	return rank - 1
}

// rowMajor reports whether the placement stores the buffer row major in
// whole rows: no column blocks, not column major.
func (s *SharedLayout) rowMajor() bool { return !s.columnBlocked() && !s.ColumnMajor }

// RowStride is the distance between rows in elements: Stride, or Cols
// when Stride is 0, or ColumnBlock within a column block.
func (s *SharedLayout) RowStride() int { return s.stride() }

// columnBlocked reports whether the rows are cut into column blocks.
func (s *SharedLayout) columnBlocked() bool {
	return s.ColumnBlock > 0 && s.ColumnBlock < s.storedCols()
}

// ColumnBlocks is the number of column blocks the rows are cut into (1
// for whole rows).
func (s *SharedLayout) ColumnBlocks() int {
	if !s.columnBlocked() {
		return 1
	}
	return ceilDiv(s.storedCols(), s.ColumnBlock)
}

// BlockCols is the columns of one column block: ColumnBlock, or Cols for
// whole rows.
func (s *SharedLayout) BlockCols() int {
	if !s.columnBlocked() {
		return s.storedCols()
	}
	return s.ColumnBlock
}

// Offset is where element (i, j) lies, in elements.
func (s *SharedLayout) Offset(i, j int) int {
	o := s.unswizzled(i, j)
	if sw := s.swizzle(); sw.Bits > 0 && s.ElemBits > 0 {
		bits := o * s.ElemBits
		o = (sw.Apply(bits/8)*8 + bits%8) / s.ElemBits
	}
	return o
}

// Bytes is the buffer's footprint: one past its last byte.
func (s *SharedLayout) Bytes() int {
	last := 0
	if !s.Swizzled() {
		for i := range s.Rows {
			last = max(last, s.Offset(i, s.Cols-1)+1)
		}
		return last * s.ElemBits / 8
	}
	if s.Rows == 0 || s.Cols == 0 {
		return 0
	}
	// A swizzle changes only the address bits below Base+Bits: it
	// permutes 16-byte chunks within each aligned block of 2^(Base+Bits)
	// bytes. The last byte is then in the block of the highest address
	// before the swizzle, and where rows lie at least a row apart the
	// elements in that block are the last ones in row order: only they
	// are looked at (TestSwizzledBytesAreTheLastElements).
	sw := s.swizzle()
	block := func(i, j int) int { return s.unswizzled(i, j) * s.ElemBits / 8 >> uint(sw.Base+sw.Bits) }
	if !s.rowMajor() || s.stride() < s.Cols || s.Pad < 0 {
		for i := range s.Rows {
			for j := range s.Cols {
				last = max(last, s.Offset(i, j)+1)
			}
		}
		return last * s.ElemBits / 8
	}
	top := block(s.Rows-1, s.Cols-1)
	for i := s.Rows - 1; i >= 0; i-- {
		for j := s.Cols - 1; j >= 0; j-- {
			if block(i, j) < top {
				return last * s.ElemBits / 8
			}
			last = max(last, s.Offset(i, j)+1)
		}
	}
	return last * s.ElemBits / 8
}

// unswizzled is Offset before the swizzle.
func (s *SharedLayout) unswizzled(i, j int) int {
	if s.ColumnMajor {
		i, j = j, i
	}
	if s.columnBlocked() {
		w := s.ColumnBlock
		return (j/w)*s.storedRows()*w + i*w + j%w
	}
	o := i*s.stride() + j
	if s.PadEvery > 0 {
		o += (i / s.PadEvery) * s.Pad
	}
	return o
}

func (s *SharedLayout) String() string {
	out := fmt.Sprintf("%dx%d, rows %d elements apart", s.Rows, s.Cols, s.stride())
	if s.columnBlocked() {
		out += fmt.Sprintf(" in column blocks of %d", s.ColumnBlock)
	}
	if s.ColumnMajor {
		out += ", column major"
	}
	if s.PadEvery > 0 && s.Pad > 0 {
		out += fmt.Sprintf(", %d elements of padding every %d rows", s.Pad, s.PadEvery)
	}
	switch {
	case s.XOR.Bits > 0:
		out += ", swizzle " + s.XOR.String()
	case swizzleBits(s.Swizzle) > 0:
		out += ", swizzle " + s.Swizzle
	}
	return out
}

// Admits reports whether an instruction with this memory rule can access
// a tile of the given shape (rows x columns, elements) at every
// tile-aligned position of buffer s, and if not, the first place where it
// cannot and why.
func (m *MemoryRule) Admits(s *SharedLayout, tile [2]int) error {
	bytesOf := func(elems int) int { return elems * s.ElemBits / 8 }
	switch m.Rule {
	case "row_pointers", "vector":
		width := m.RowBytes
		if m.Rule == "vector" {
			width = m.Bytes
		}
		n := width * 8 / s.ElemBits
		if n < 1 || s.Cols%n != 0 {
			return fmt.Errorf("rows of %d bytes do not divide the buffer's %d columns of %d-bit elements", width, s.Cols, s.ElemBits)
		}
		for i := range s.Rows {
			for c0 := 0; c0 < s.Cols; c0 += n {
				base := s.Offset(i, c0)
				for j := 1; j < n; j++ {
					if s.Offset(i, c0+j) != base+j {
						return fmt.Errorf("row %d, columns %d..%d are not contiguous: a %d-byte access needs them together", i, c0, c0+n-1, width)
					}
				}
				if a := bytesOf(base); m.Alignment > 0 && a%m.Alignment != 0 {
					return fmt.Errorf("row %d, column %d starts at byte %d, which is not %d-byte aligned", i, c0, a, m.Alignment)
				}
			}
		}
	case "constant_stride":
		if s.Rows%tile[0] != 0 || s.Cols%tile[1] != 0 {
			return fmt.Errorf("the %dx%d tile does not divide the %dx%d buffer", tile[0], tile[1], s.Rows, s.Cols)
		}
		for r0 := 0; r0 < s.Rows; r0 += tile[0] {
			for c0 := 0; c0 < s.Cols; c0 += tile[1] {
				base := s.Offset(r0, c0)
				ld := s.Offset(r0+1, c0) - base
				for i := range tile[0] {
					for j := range tile[1] {
						if got := s.Offset(r0+i, c0+j); got != base+i*ld+j {
							if j == 0 {
								prev := s.Offset(r0+i-1, c0)
								return fmt.Errorf("in the tile at (%d, %d), rows %d and %d are %d elements apart but rows %d and %d are %d: the instruction takes one leading stride",
									r0, c0, r0, r0+1, ld, r0+i-1, r0+i, got-prev)
							}
							return fmt.Errorf("in the tile at (%d, %d), row %d is not contiguous at column %d: the instruction reads rows of consecutive elements", r0, c0, r0+i, c0+j)
						}
					}
				}
				if m.StrideMultiple > 0 && ld%m.StrideMultiple != 0 {
					return fmt.Errorf("the leading stride is %d elements, not a multiple of %d", ld, m.StrideMultiple)
				}
				if a := bytesOf(base); m.Alignment > 0 && a%m.Alignment != 0 {
					return fmt.Errorf("the tile at (%d, %d) starts at byte %d, which is not %d-byte aligned", r0, c0, a, m.Alignment)
				}
			}
		}
	case "swizzle":
		mode, err := s.DescriptorMode()
		if err != nil {
			return err
		}
		if !slices.Contains(m.Modes, mode) {
			return fmt.Errorf("the buffer's swizzle is %s; the instruction's descriptor names one of %v", mode, m.Modes)
		}
		return s.canonicalIn(mode)
	case "block_2d":
		return fmt.Errorf("a 2D block message reads a global surface, not shared memory")
	default:
		return fmt.Errorf("the record has no memory rule")
	}
	return nil
}

// Surface is a 2D global-memory surface a block message reads: bytes per
// row of data (Width), rows (Height), bytes from one row to the next
// (Pitch), the alignment of its base address and the byte offset of the
// block's first column.
type Surface struct {
	Width, Height, Pitch, BaseAlignment, X int
}

// AdmitsSurface checks a surface against a block_2d rule.
func (m *MemoryRule) AdmitsSurface(s Surface) error {
	if m.Rule != "block_2d" {
		return fmt.Errorf("rule %s does not describe a global surface", m.Rule)
	}
	b := m.Block2D
	switch {
	case s.BaseAlignment%b.BaseAlignment != 0:
		return fmt.Errorf("the base is %d-byte aligned; the message needs %d", s.BaseAlignment, b.BaseAlignment)
	case s.Pitch < b.PitchMin || s.Pitch > b.PitchMax:
		return fmt.Errorf("a pitch of %d bytes is outside %d..%d", s.Pitch, b.PitchMin, b.PitchMax)
	case s.Pitch%b.PitchMultiple != 0:
		return fmt.Errorf("a pitch of %d bytes is not a multiple of %d", s.Pitch, b.PitchMultiple)
	case s.Width < b.WidthMin || s.Width > b.WidthMax:
		return fmt.Errorf("a width of %d bytes is outside %d..%d", s.Width, b.WidthMin, b.WidthMax)
	case s.Width%b.WidthMultiple != 0:
		return fmt.Errorf("a width of %d bytes is not a multiple of %d", s.Width, b.WidthMultiple)
	case s.Width > s.Pitch:
		return fmt.Errorf("a width of %d bytes is more than the %d-byte pitch", s.Width, s.Pitch)
	case s.Height < 1 || s.Height > b.HeightMax:
		return fmt.Errorf("a height of %d rows is outside 1..%d", s.Height, b.HeightMax)
	case s.X%b.XAlignment != 0:
		return fmt.Errorf("the block starts %d bytes into its row, not a multiple of %d", s.X, b.XAlignment)
	}
	return nil
}

// Describe says what the rule asks of memory, in words.
func (m MemoryRule) Describe() string {
	switch m.Rule {
	case "row_pointers":
		return fmt.Sprintf("one pointer per lane to a %d-byte row, %d-byte aligned; rows may lie anywhere", m.RowBytes, m.Alignment)
	case "constant_stride":
		return fmt.Sprintf("one base pointer, %d-byte aligned, and one leading stride for the whole tile, a multiple of %d elements", m.Alignment, m.StrideMultiple)
	case "swizzle":
		majors := m.Majors
		if len(majors) == 0 {
			majors = []string{"k"}
		}
		return fmt.Sprintf("a descriptor naming one swizzle mode of %s, the buffer's rows exactly the mode's span (none 16 bytes, 32B 32, 64B 64, 128B 128) or in column blocks of it, no padding, the operand %s-major; the tile's start %d-byte aligned",
			strings.Join(m.Modes, ", "), strings.Join(majors, "- or "), m.Alignment)
	case "vector":
		return fmt.Sprintf("each lane moves %d contiguous bytes, %d-byte aligned", m.Bytes, m.Alignment)
	case "block_2d":
		b := m.Block2D
		return fmt.Sprintf("a 2D block on a surface: base %d-byte aligned, pitch %d..%d bytes in multiples of %d, width %d..%d bytes in multiples of %d, height up to %d rows, start column aligned to %d bytes; blocks up to %d bytes x %d rows, %d side by side",
			b.BaseAlignment, b.PitchMin, b.PitchMax, b.PitchMultiple, b.WidthMin, b.WidthMax, b.WidthMultiple, b.HeightMax, b.XAlignment, b.BlockWidthBytes, b.BlockHeight, b.ArrayLength)
	case "tensor_memory":
		return fmt.Sprintf("warp w reaches only the %d TMEM lanes from %d * (w %% 4) on; repetitions lie side by side along the columns", m.WarpLanes, m.WarpLanes)
	}
	return ""
}
