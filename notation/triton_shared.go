package notation

import (
	"fmt"
	"slices"

	"planner/model"
)

// TritonSharedEncoding is one of Triton's shared-memory encodings, read:
// its name and the fields the planner reads of it (a front end reads the
// text, Placement says what it places).
type TritonSharedEncoding struct {
	Name string // "swizzled_shared", "nvmma_shared", "padded_shared"
	// #ttg.swizzled_shared
	Vec, PerPhase, MaxPhase int
	Order                   []int // also #ttg.padded_shared's; nil when not written
	// #ttg.nvmma_shared
	SwizzlingByteWidth, ElementBitWidth int
	Transposed, FP4Padded               bool
	// #ttg.padded_shared: its interval:+pad pairs
	Pads [][2]int
}

// Placement is the placement e gives a rows × cols buffer of
// elemBits-bit elements, or why it has none: only row-major placements
// (order [1, 0], transposed = false) have a SharedLayout.
func (e *TritonSharedEncoding) Placement(rows, cols, elemBits int) (*model.SharedLayout, error) {
	l := &model.SharedLayout{Rows: rows, Cols: cols, ElemBits: elemBits, Swizzle: "none"}
	switch e.Name {
	case "swizzled_shared":
		vec, per, maxPh := e.Vec, e.PerPhase, e.MaxPhase
		if err := rowMajorOrder(e.Order); err != nil {
			return nil, err
		}
		for _, x := range []struct {
			key string
			v   int
		}{{"vec", vec}, {"perPhase", per}, {"maxPhase", maxPh}} {
			if x.v < 1 || x.v > 1024 || !isPow2(x.v) {
				return nil, errorf(model.CodeBadValue, "encoding", "%s %d is not a power of two from 1 to 1024", x.key, x.v)
			}
		}
		if maxPh == 1 {
			return l, nil
		}
		if !isPow2(cols) || vec > cols || vec*elemBits%8 != 0 {
			return nil, errorf(model.CodeBadValue, "encoding", "a swizzle of %d-element vectors needs rows of a power of two elements, at least vec, and vectors of whole bytes (rows of %d %d-bit elements)", vec, cols, elemBits)
		}
		// The phase's bits beyond the row are dropped (mod cols).
		bits := min(log2(maxPh), log2(cols/vec))
		if bits == 0 {
			return l, nil
		}
		base := log2(vec * elemBits / 8)
		l.XOR = model.Swizzle{Bits: bits, Base: base, Shift: log2(cols * per / vec)}
		return l, nil
	case "nvmma_shared":
		width, bitsW := e.SwizzlingByteWidth, e.ElementBitWidth
		if e.Transposed {
			// The tile's transpose, laid out as below: the buffer column
			// major (nvmmaSharedToLinearLayout swaps the dimensions).
			l, err := (&TritonSharedEncoding{Name: e.Name, SwizzlingByteWidth: width, ElementBitWidth: bitsW, FP4Padded: e.FP4Padded}).Placement(cols, rows, elemBits)
			if err != nil {
				return nil, err
			}
			l.Rows, l.Cols, l.ColumnMajor = rows, cols, true
			return l, nil
		}
		switch {
		case e.FP4Padded:
			return nil, errorf(model.CodeBadValue, "encoding", "fp4Padded placements are not read")
		case bitsW != elemBits:
			return nil, errorf(model.CodeShapeMismatch, "encoding", "elementBitWidth %d but the buffer's elements have %d bits", bitsW, elemBits)
		case width == 0:
			return l, nil
		}
		mode := fmt.Sprintf("%dB", width)
		if model.ModeSwizzle(mode).Bits == 0 {
			return nil, errorf(model.CodeBadValue, "encoding", "swizzlingByteWidth %d is none of 0, 32, 64, 128", width)
		}
		if cols*elemBits%(width*8) != 0 || rows%8 != 0 {
			return nil, errorf(model.CodeShapeMismatch, "encoding", "a %d-byte swizzle lays out tiles of 8 rows %d bytes wide; the buffer is %d rows of %d bytes", width, width, rows, cols*elemBits/8)
		}
		// Rows wider than the swizzle: tiles down all the rows first, then
		// the next column block (nvmmaSharedToLinearLayout).
		if cols*elemBits > width*8 {
			l.ColumnBlock = width * 8 / elemBits
		}
		l.Swizzle = mode
		return l, nil
	case "padded_shared":
		if e.Order != nil {
			if err := rowMajorOrder(e.Order); err != nil {
				return nil, err
			}
		}
		pads := slices.Clone(e.Pads)
		slices.SortStableFunc(pads, func(a, b [2]int) int { return a[0] - b[0] })
		for _, p := range pads {
			iv, pad := p[0], p[1]
			if !isPow2(iv) || !isPow2(pad) {
				return nil, errorf(model.CodeNotPowerOfTwo, "encoding", "padding %d elements every %d: Triton's intervals and paddings are powers of two", pad, iv)
			}
			if iv%cols != 0 {
				return nil, errorf(model.CodeBadValue, "encoding", "padding %d elements every %d: the interval must be a positive whole number of %d-element rows", pad, iv, cols)
			}
		}
		switch {
		case len(pads) == 1:
			l.Pad, l.PadEvery = pads[0][1], pads[0][0]/cols
		case len(pads) == 2 && pads[0][0] == cols && pads[1][0] > cols:
			// Every offset is padded by each pair (Triton adds the pads
			// of every interval it passes): a pad after each row is a
			// row stride, the other a pad every few rows.
			l.Stride = cols + pads[0][1]
			l.Pad, l.PadEvery = pads[1][1], pads[1][0]/cols
		default:
			return nil, errorf(model.CodeBadValue, "encoding", "%d paddings: the planner's placements pad at one interval, or after every row and at one interval of several rows", len(pads))
		}
		return l, nil
	}
	return nil, errorf(model.CodeUnknownName, "encoding", "unknown shared encoding #ttg.%s (known: swizzled_shared, nvmma_shared, padded_shared)", e.Name)
}

func rowMajorOrder(order []int) error {
	if len(order) != 2 || order[0] != 1 || order[1] != 0 {
		return errorf(model.CodeBadValue, "encoding", "order %v: the planner's placements are row major (order [1, 0])", order)
	}
	return nil
}

// TritonShared writes the placement as a Triton shared encoding, or says
// why it has none: a padded row stride, or padding together with a
// swizzle.
func TritonShared(s *model.SharedLayout) (string, error) {
	no := func(format string, args ...any) (string, error) {
		return "", notExpressible("triton", format, args...)
	}
	sw := s.XORSwizzle()
	if s.ColumnBlocks() > 1 || s.ColumnMajor {
		return TritonNVMMAShared(s)
	}
	if s.RowStride() != s.Cols {
		// A row stride is a pad after every row: [cols:+(stride-cols)],
		// with the pad every few rows as a second interval.
		rowPad := s.RowStride() - s.Cols
		switch {
		case sw.Bits > 0:
			return no("the placement both pads and swizzles")
		case !isPow2(s.Cols) || rowPad < 0 || !isPow2(rowPad):
			return no("rows %d elements apart hold %d: Triton pads by intervals and paddings that are powers of two", s.RowStride(), s.Cols)
		case s.PadEvery > 0 && s.Pad > 0 && (!isPow2(s.PadEvery*s.Cols) || !isPow2(s.Pad) || s.PadEvery == 1):
			return no("a pad of %d every %d rows on rows %d elements apart", s.Pad, s.PadEvery, s.RowStride())
		case s.PadEvery > 0 && s.Pad > 0:
			return fmt.Sprintf("#ttg.padded_shared<[%d:+%d, %d:+%d] {order = [1, 0], shape = [%d, %d]}>", s.Cols, rowPad, s.PadEvery*s.Cols, s.Pad, s.Rows, s.Cols), nil
		}
		return fmt.Sprintf("#ttg.padded_shared<[%d:+%d] {order = [1, 0], shape = [%d, %d]}>", s.Cols, rowPad, s.Rows, s.Cols), nil
	}
	switch {
	case s.PadEvery > 0 && s.Pad > 0 && sw.Bits > 0:
		return no("the placement both pads and swizzles")
	case s.PadEvery > 0 && s.Pad > 0:
		return fmt.Sprintf("#ttg.padded_shared<[%d:+%d] {order = [1, 0], shape = [%d, %d]}>", s.PadEvery*s.Cols, s.Pad, s.Rows, s.Cols), nil
	case sw.Bits == 0:
		return "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", nil
	}
	if span := model.ModeSpan(s.Swizzle); s.XOR.Bits == 0 && s.Cols*s.ElemBits == span*8 {
		return fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = false, elementBitWidth = %d}>", span, s.ElemBits), nil
	}
	// An XOR of byte-address bits as vec, perPhase and maxPhase.
	vecBits := 8 << sw.Base
	rowBytesLog := log2(s.Cols * s.ElemBits / 8)
	if !isPow2(s.Cols) || s.Cols*s.ElemBits%8 != 0 || vecBits%s.ElemBits != 0 || sw.Base+sw.Shift < rowBytesLog || sw.Base+sw.Bits > rowBytesLog {
		return no("the swizzle %s does not XOR whole vectors of a row with bits of its row index", sw)
	}
	vec := vecBits / s.ElemBits
	per := 1 << (sw.Base + sw.Shift - rowBytesLog)
	return fmt.Sprintf("#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = [1, 0]}>", vec, per, 1<<sw.Bits), nil
}

// TritonNVMMAShared writes a placement a matrix descriptor reads as the
// #ttg.nvmma_shared encoding of it, or says why it has none: Triton's
// ttng.warp_group_dot takes its B operand, and A when it reads A from
// shared memory, only in that encoding (WarpGroupDotOp::verify in
// triton-lang/triton lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp: "WGMMA B
// operand must have NVMMA shared layout"). The encoding is the placement
// exactly where the placement is its mode's canonical layout
// (CanonicalMode): Triton lays 8-row tiles of swizzlingByteWidth bytes
// out one after another (0: no swizzle, rows dense), the 16-byte chunks
// of row r XORed with r mod 8 over the tile's width
// (nvmmaSharedToLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp), which is a
// row-major buffer whose rows are one tile wide, or, for wider rows, the
// tiles down all the rows of one column block one tile wide before the
// next block (model.SharedLayout.ColumnBlock); a column-major placement
// is the transposed encoding (transposed = true lays the tile's
// transpose out so).
func TritonNVMMAShared(s *model.SharedLayout) (string, error) {
	mode, err := s.CanonicalMode()
	if err != nil {
		return "", notExpressible("triton", "#ttg.nvmma_shared: %v", err)
	}
	width := 0
	if mode != "none" {
		width = model.ModeSpan(mode)
	}
	return fmt.Sprintf("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %t, elementBitWidth = %d}>", width, s.ColumnMajor, s.ElemBits), nil
}
