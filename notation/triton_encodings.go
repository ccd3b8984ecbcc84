package notation

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
)

// Triton writes a layout as one of Triton's TritonGPU encoding attributes:
// #ttg.blocked, #ttg.nvidia_mma, #ttg.dot_op, #ttg.slice, #ttg.amd_mfma or
// #ttg.linear. Each encoding's element mapping follows its conversion to a
// linear layout in triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (commit 1706ecf2):
// the encoding gives a layout of one CTA, which is then repeated in
// registers over a larger tensor (ensureLayoutNotSmallerThan, the
// dimensions in the encoding's repetition order) or has its bases beyond a
// smaller tensor set to zero, so that the top ids hold copies
// (ensureLayoutNotLargerThan, which drops register bases left all zero).
type Triton struct {
	Enc TritonEncoding
}

// TritonEncoding is one of Triton's distributed encodings.
type TritonEncoding interface {
	// TritonAttr prints the encoding in Triton's attribute syntax.
	TritonAttr() string
	// ll builds the encoding's linear layout for the frame.
	ll(f model.Frame) (*ll, error)
}

func (t *Triton) Kind() string { return "triton" }

func (t *Triton) Attr() string { return t.Enc.TritonAttr() }

func (t *Triton) Fields() []model.Field {
	return []model.Field{{Key: "encoding", Text: t.Enc.TritonAttr()}}
}

// Layout builds the canonical layout of t for frame f.
func (t *Triton) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if b, ok := t.Enc.(*TritonBlocked); ok && b.oneCTA() && !allPow2(f.Shape) {
		// Extents that are a whole number of tiles but not powers of
		// two, which Blocked takes.
		l, err := b.Blocked.Layout(f)
		return l, atEncoding(err)
	}
	if x, ok := t.Enc.(*Linear); ok {
		l, err := x.fitted(f.Shape).Layout(f)
		return l, atEncoding(err)
	}
	for d, s := range f.Shape {
		if !isPow2(s) {
			return nil, errorAt(model.CodeNotPowerOfTwo, "shape", d, "extent %d is not a power of two; Triton's encodings need powers of two", s)
		}
	}
	b, err := t.Enc.ll(f)
	if err != nil {
		return nil, atEncoding(err)
	}
	l, err := b.linear().Layout(f)
	if err != nil {
		return nil, atEncoding(err)
	}
	return l, nil
}

func allPow2(xs []int) bool {
	for _, x := range xs {
		if !isPow2(x) {
			return false
		}
	}
	return true
}

// atEncoding places an error about an encoding's fields on the encoding
// as a whole: the fields are inside one attribute string.
func atEncoding(err error) error {
	if err == nil {
		return nil
	}
	e, ok := err.(*model.Error)
	if !ok {
		return err
	}
	switch e.Field {
	case "shape", "subgroup_size", "subgroups", "blocks":
		return e
	}
	c := *e
	c.Field, c.Index = "encoding", -1
	return &c
}

// ll is a linear layout under construction: for each hardware axis the
// tensor coordinates its id bits select, the tensor extent covered so
// far, and the order in which dimensions take register repeats.
type ll struct {
	bases [model.NumHwDims][][]int
	size  []int
	order []int // output dimensions, fastest first
	// grown counts the register bits added to cover the tensor, cut the
	// coordinates set to zero beyond it.
	grown, cut int
}

func newLL(rank int, order []int) *ll {
	b := &ll{size: make([]int, rank), order: slices.Clone(order)}
	for d := range b.size {
		b.size[d] = 1
	}
	return b
}

// ident appends the bits of n ids of axis h, each selecting the next
// coordinate of dimension d (Triton's identity1D, multiplied on).
func (b *ll) ident(h model.HwDim, n, d int) {
	for k := 1; k < n; k *= 2 {
		v := make([]int, len(b.size))
		v[d] = b.size[d] * k
		b.bases[h] = append(b.bases[h], v)
	}
	b.size[d] *= n
}

// zeros appends the bits of n ids of axis h that select nothing: their
// holders hold copies (Triton's zeros1D).
func (b *ll) zeros(h model.HwDim, n int) {
	for k := 1; k < n; k *= 2 {
		b.bases[h] = append(b.bases[h], make([]int, len(b.size)))
	}
}

// add appends one basis given in full and grows the extents to cover it.
func (b *ll) add(h model.HwDim, v ...int) {
	b.bases[h] = append(b.bases[h], v)
	for d, c := range v {
		for b.size[d] <= c {
			b.size[d] *= 2
		}
	}
}

// notSmaller repeats the layout in registers until it covers shape, the
// dimensions in b's order (ensureLayoutNotSmallerThan).
func (b *ll) notSmaller(shape []int) {
	for _, d := range b.order {
		if b.size[d] < shape[d] {
			b.grown += log2(shape[d] / b.size[d])
			b.ident(model.Register, shape[d]/b.size[d], d)
		}
	}
}

// notLarger sets every coordinate beyond shape to zero and drops the
// register bases left all zero (ensureLayoutNotLargerThan in
// triton-lang/triton lib/Tools/LayoutUtils.cpp, without
// broadcastRegisters: registers beyond the tensor are removed, not kept as
// copies).
func (b *ll) notLarger(shape []int) {
	for h := range model.NumHwDims {
		for _, v := range b.bases[h] {
			for d := range v {
				if v[d] >= shape[d] {
					v[d] = 0
					b.cut++
				}
			}
		}
	}
	regs := b.bases[model.Register][:0]
	for _, v := range b.bases[model.Register] {
		if !allZero(v) {
			regs = append(regs, v)
		}
	}
	b.bases[model.Register] = regs
	for d := range b.size {
		b.size[d] = min(b.size[d], shape[d])
	}
}

// fit fits a CTA's layout to the tensor shape (combineCtaCgaWithShape for
// a single CTA).
func (b *ll) fit(shape []int) *ll {
	b.notSmaller(shape)
	b.notLarger(shape)
	return b
}

func (b *ll) linear() *Linear {
	x := &Linear{Register: [][]int{}, Lane: [][]int{}, Warp: [][]int{}, Block: [][]int{}}
	for h, dst := range []*[][]int{&x.Register, &x.Lane, &x.Warp, &x.Block} {
		*dst = append(*dst, b.bases[h]...)
	}
	return x
}

// identityND appends ids of axis h tiling shape, the dimensions in order
// (identityStandardND).
func (b *ll) identityND(h model.HwDim, shape, order []int) {
	for _, d := range order {
		b.ident(h, shape[d], d)
	}
}

// broadcastND is identityND with dimension kDim left out: ids along it
// hold copies (broadcastedDotOperandLayout).
func (b *ll) broadcastND(h model.HwDim, shape, order []int, kDim int) {
	for _, d := range order {
		if d == kDim {
			b.zeros(h, shape[d])
		} else {
			b.ident(h, shape[d], d)
		}
	}
}

// matrixOrder is Triton's getMatrixOrder: the last dimension fastest for
// row major, the last two swapped for column major, batch dimensions
// slowest.
func matrixOrder(rank int, rowMajor bool) []int {
	order := make([]int, rank)
	for i := range order {
		order[i] = rank - 1 - i
	}
	if !rowMajor && rank >= 2 {
		order[0], order[1] = order[1], order[0]
	}
	return order
}

// dotOrder is Triton's getOrderForDotOperand with k fastest: operand A
// ([m, k]) is row major, operand B ([k, n]) column major.
func dotOrder(opIdx, rank int) []int { return matrixOrder(rank, opIdx == 0) }

// checkInts checks that a list has rank entries, each a positive power of
// two.
func checkInts(key string, xs []int, rank int) error {
	if len(xs) != rank {
		return errorf(model.CodeRankMismatch, key, "%s has %d entries but the shape has rank %d", key, len(xs), rank)
	}
	for i, v := range xs {
		if v < 1 || !isPow2(v) {
			return errorAt(model.CodeNotPowerOfTwo, key, i, "%s %d is not a positive power of two", key, v)
		}
	}
	return nil
}

func checkWarps(warps []int, f model.Frame) error {
	if err := checkInts("warpsPerCTA", warps, len(f.Shape)); err != nil {
		return err
	}
	if p := product(warps); p != f.Subgroups {
		return errorf(model.CodeShapeMismatch, "warpsPerCTA", "warpsPerCTA %v covers %d warps but there are %d", warps, p, f.Subgroups)
	}
	return nil
}

func checkLanes(name string, want int, f model.Frame) error {
	if f.SubgroupSize != want {
		return errorf(model.CodeShapeMismatch, "encoding", "%s needs %d lanes per warp, not %d", name, want, f.SubgroupSize)
	}
	return nil
}

func checkMatrixRank(name string, f model.Frame) error {
	if r := len(f.Shape); r != 2 && r != 3 {
		return errorf(model.CodeRankMismatch, "shape", "%s is written for rank 2 or 3 (batch first), not rank %d", name, r)
	}
	return nil
}

// TritonBlocked is #ttg.blocked with its CTA layout: CTAsPerCGA blocks,
// CTASplitNum of which hold distinct parts of each dimension, taken in
// CTAOrder (makeCgaLayout). Empty CTA fields mean one block.
type TritonBlocked struct {
	Blocked
	CTAsPerCGA  []int
	CTASplitNum []int
	CTAOrder    []int
	// CGABases is the CTA layout as Triton 3.9 writes it, CGALayout =
	// [[...], ...]: for each bit of the CTA id, the CTA tile it moves to
	// along each dimension (zero: the CTAs hold copies). nil when the
	// fields above give it, or for one CTA.
	CGABases [][]int
}

func (b *TritonBlocked) oneCTA() bool {
	return product(b.CTAsPerCGA) == 1 && len(b.CGABases) == 0
}

// ctaFields returns the CTA fields, one CTA when they are left out.
func (b *TritonBlocked) ctaFields(rank int) (perCGA, split, order []int) {
	if len(b.CTAsPerCGA) == 0 && len(b.CTASplitNum) == 0 && len(b.CTAOrder) == 0 {
		return ones(rank), ones(rank), slices.Clone(b.Order)
	}
	return b.CTAsPerCGA, b.CTASplitNum, b.CTAOrder
}

func (b *TritonBlocked) TritonAttr() string {
	s := b.Blocked.Attr()
	if b.oneCTA() {
		return s
	}
	if b.CGABases != nil {
		return strings.TrimSuffix(s, "}>") + ", CGALayout = " + listsString(b.CGABases) + "}>"
	}
	return strings.TrimSuffix(s, "}>") + ", CTAsPerCGA = " + intsString(b.CTAsPerCGA) +
		", CTASplitNum = " + intsString(b.CTASplitNum) + ", CTAOrder = " + intsString(b.CTAOrder) + "}>"
}

// checkCTA checks the fields that lay out one CTA.
func (b *TritonBlocked) checkCTA(f model.Frame) error {
	r := len(f.Shape)
	if err := checkInts("sizePerThread", b.SizePerThread, r); err != nil {
		return err
	}
	if err := checkInts("threadsPerWarp", b.ThreadsPerWarp, r); err != nil {
		return err
	}
	if err := checkWarps(b.WarpsPerCTA, f); err != nil {
		return err
	}
	if !isPermutation(b.Order, r) {
		return errorf(model.CodeBadValue, "order", "%v is not a permutation of the %d dimensions", b.Order, r)
	}
	if p := product(b.ThreadsPerWarp); p != f.SubgroupSize {
		return errorf(model.CodeShapeMismatch, "threadsPerWarp", "threadsPerWarp covers %d lanes but a warp has %d", p, f.SubgroupSize)
	}
	return nil
}

// checkCGA checks the CTA layout against the frame's blocks.
func (b *TritonBlocked) checkCGA(f model.Frame, perCGA, split, ctaOrder []int) error {
	r := len(f.Shape)
	if b.CGABases != nil {
		if len(b.CGABases) > 30 || 1<<len(b.CGABases) != f.BlockCount() {
			return errorf(model.CodeShapeMismatch, "CGALayout", "CGALayout's %d bases give %d CTAs but there are %d", len(b.CGABases), 1<<min(len(b.CGABases), 30), f.BlockCount())
		}
		for i, v := range b.CGABases {
			if len(v) != r {
				return errorAt(model.CodeRankMismatch, "CGALayout", i, "basis %v has %d coordinates but the shape has rank %d", v, len(v), r)
			}
			for _, c := range v {
				if c < 0 || c > 1<<20 {
					return errorAt(model.CodeBadValue, "CGALayout", i, "basis %v has a coordinate outside 0..2^20", v)
				}
			}
		}
		return nil
	}
	if err := checkInts("CTAsPerCGA", perCGA, r); err != nil {
		return err
	}
	if err := checkInts("CTASplitNum", split, r); err != nil {
		return err
	}
	if !isPermutation(ctaOrder, r) {
		return errorf(model.CodeBadValue, "CTAOrder", "%v is not a permutation of the %d dimensions", ctaOrder, r)
	}
	if p := product(perCGA); p != f.BlockCount() {
		return errorf(model.CodeShapeMismatch, "CTAsPerCGA", "CTAsPerCGA covers %d blocks but there are %d", p, f.BlockCount())
	}
	for d := range r {
		if perCGA[d]%split[d] != 0 {
			return errorAt(model.CodeBadValue, "CTASplitNum", d, "CTASplitNum %d does not divide CTAsPerCGA %d", split[d], perCGA[d])
		}
	}
	return nil
}

func (b *TritonBlocked) ll(f model.Frame) (*ll, error) {
	r := len(f.Shape)
	perCGA, split, ctaOrder := b.ctaFields(r)
	if err := b.checkCTA(f); err != nil {
		return nil, err
	}
	if err := b.checkCGA(f, perCGA, split, ctaOrder); err != nil {
		return nil, err
	}
	// makeCgaLayout: per dimension in CTAOrder, split blocks take
	// distinct parts, the rest hold copies; then fitted to the shape.
	cga := newLL(r, ctaOrder)
	if b.CGABases != nil {
		for _, v := range b.CGABases {
			cga.add(model.Block, slices.Clone(v)...)
		}
	} else {
		for _, d := range ctaOrder {
			cga.ident(model.Block, split[d], d)
			cga.zeros(model.Block, perCGA[d]/split[d])
		}
	}
	cga.notLarger(f.Shape)
	ctaShape := make([]int, r)
	for d := range r {
		ctaShape[d] = max(1, f.Shape[d]/cga.size[d])
	}
	cta := newLL(r, b.Order)
	cta.identityND(model.Register, b.SizePerThread, b.Order)
	cta.identityND(model.Lane, b.ThreadsPerWarp, b.Order)
	cta.identityND(model.Subgroup, b.WarpsPerCTA, b.Order)
	cta.fit(ctaShape)
	for _, v := range cga.bases[model.Block] {
		w := make([]int, r)
		for d := range r {
			w[d] = v[d] * ctaShape[d]
		}
		cta.bases[model.Block] = append(cta.bases[model.Block], w)
	}
	return cta, nil
}

// NvidiaMMA is #ttg.nvidia_mma, the accumulator of mma.sync (version 2)
// and wgmma (version 3): per instruction tile, two consecutive columns in
// registers, 4 lanes along the columns, 8 lanes along the rows, register
// repeats down the tile's rows in steps of 8 and then along its columns
// (nvidiaMmaTile); warps tile the result row major for version 2 and
// column major for version 3 (NvidiaMmaEncodingAttr::getWarpOrder in
// lib/Dialect/TritonGPU/IR/Dialect.cpp); larger tensors repeat the tile
// columns first (getRepOrder, row major). The tile is the instrShape's
// last two entries for version 2 (one entry per dimension of the tensor:
// [16, 8] for a matrix, [1, 16, 8] batched, as mmaVersionToInstrShape
// writes them, and any other multiples of 8 Triton's verifier takes, such
// as [16, 16]; [16, 8] on a batched tensor is read too, though Triton
// lays out only one entry per dimension) and its first two, M and N of [M, N, K], for version 3
// (NvidiaMmaEncodingAttr::toLinearLayout in LinearLayoutConversions.cpp;
// Triton 3.9 lays out a tile whose extents are powers of two only).
type NvidiaMMA struct {
	VersionMajor, VersionMinor int
	WarpsPerCTA                []int
	InstrShape                 []int
}

func (m *NvidiaMMA) TritonAttr() string {
	return fmt.Sprintf("#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = %s, instrShape = %s}>",
		m.VersionMajor, m.VersionMinor, intsString(m.WarpsPerCTA), intsString(m.InstrShape))
}

// tile is the accumulator's instruction tile (rows, columns) for a tensor
// of rank dims.
func (m *NvidiaMMA) tile(rank int) ([2]int, error) {
	is := m.InstrShape
	var t [2]int
	if m.VersionMajor != 2 && m.VersionMajor != 3 {
		return t, errorf(model.CodeBadValue, "versionMajor", "versionMajor %d: expected 2 (mma.sync) or 3 (wgmma), as Triton's verifier does", m.VersionMajor)
	}
	switch {
	case m.VersionMajor == 2 && (len(is) == rank || len(is) == 2):
		t = [2]int{is[len(is)-2], is[len(is)-1]}
	case m.VersionMajor == 3 && (len(is) == 3 || len(is) == 2 && rank == 2):
		t = [2]int{is[0], is[1]}
	default:
		return t, errorf(model.CodeBadValue, "instrShape", "versionMajor %d with instrShape %v on a rank-%d tensor: expected one entry per dimension for version 2 ([16, 8], or [1, 16, 8] batched) and [16, n, k] for version 3", m.VersionMajor, m.InstrShape, rank)
	}
	if t[0] < 8 || t[1] < 8 || !isPow2(t[0]) || !isPow2(t[1]) || t[1] > 256 || t[0] > 256 {
		return t, errorf(model.CodeBadValue, "instrShape", "instrShape %v: the tile's rows and columns must be powers of two from 8 to 256 (a tile of 8-row, 8-column quads, as Triton lays it out)", m.InstrShape)
	}
	if m.VersionMajor == 3 && t[0] != 16 {
		return t, errorf(model.CodeBadValue, "instrShape", "instrShape %v: a wgmma tile has 16 rows per warp", m.InstrShape)
	}
	return t, nil
}

func (m *NvidiaMMA) check(f model.Frame) error {
	if err := checkMatrixRank("#ttg.nvidia_mma", f); err != nil {
		return err
	}
	if err := checkLanes("#ttg.nvidia_mma", 32, f); err != nil {
		return err
	}
	if err := checkWarps(m.WarpsPerCTA, f); err != nil {
		return err
	}
	_, err := m.tile(len(f.Shape))
	return err
}

func (m *NvidiaMMA) warpOrder(rank int) []int { return matrixOrder(rank, m.VersionMajor != 3) }

// mmaTile is nvidiaMmaTile: kWidth registers and 4 lanes along the inner
// dimension, 8 lanes and then rows/8 registers along the outer one, then
// registers along the inner one to the tile's width.
func mmaTile(rank int, rows, cols, kWidth int, order, repOrder []int) (*ll, error) {
	inner, outer := order[0], order[1]
	if rows%8 != 0 || cols%(kWidth*4) != 0 {
		return nil, errorf(model.CodeShapeMismatch, "kWidth", "the tile %d × %d does not split into 8 rows and %d × 4 columns", rows, cols, kWidth)
	}
	b := newLL(rank, repOrder)
	b.ident(model.Register, kWidth, inner)
	b.ident(model.Lane, 4, inner)
	b.ident(model.Lane, 8, outer)
	b.ident(model.Register, rows/8, outer)
	b.ident(model.Register, cols/(kWidth*4), inner)
	return b, nil
}

func (m *NvidiaMMA) ll(f model.Frame) (*ll, error) {
	if err := m.check(f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	t, _ := m.tile(r)
	b, err := mmaTile(r, t[0], t[1], 2, matrixOrder(r, true), matrixOrder(r, true))
	if err != nil {
		return nil, err
	}
	b.identityND(model.Subgroup, m.WarpsPerCTA, m.warpOrder(r))
	return b.fit(f.Shape), nil
}

// AMDMFMA is #ttg.amd_mfma, the accumulator of AMD's mfma instructions on
// 64 lanes (AMDMfmaEncodingAttr::toLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): each lane holds
// 4 consecutive rows (1 for 64-bit elements, ElementBitWidth), lanes run
// along the instruction's N columns and then down its rows, and registers
// repeat that down the rest of the M × N tile; transposed, rows and
// columns swap parts. A warp computes TilesPerWarp tiles, those along N
// first; the warps along N follow, then register repeats along the rest
// of N, the warp's tiles along M and the warps along M, so that a warp's
// tiles are consecutive along N across the tensor. The instruction tiles
// are 32 × 32, 16 × 16, 4 × 64 and (transposed only) 64 × 4, as Triton
// 3.9's verifier takes them.
type AMDMFMA struct {
	Version      int
	WarpsPerCTA  []int
	InstrShape   []int
	IsTransposed bool
	// TilesPerWarp is the tiles one warp computes along each dimension;
	// nil for one.
	TilesPerWarp []int
	// ElementBitWidth is the accumulator's element width when it is 64
	// (an f64 mfma); 0 for 32.
	ElementBitWidth int
}

func (m *AMDMFMA) TritonAttr() string {
	s := fmt.Sprintf("#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %t",
		m.Version, intsString(m.WarpsPerCTA), intsString(m.InstrShape), m.IsTransposed)
	if product(m.TilesPerWarp) > 1 {
		s += ", tilesPerWarp = " + intsString(m.TilesPerWarp)
	}
	if m.ElementBitWidth != 0 && m.ElementBitWidth != 32 {
		s += fmt.Sprintf(", elementBitWidth = %d", m.ElementBitWidth)
	}
	return s + "}>"
}

// mn is the instruction's M and N.
func (m *AMDMFMA) mn() (int, int) { return m.InstrShape[0], m.InstrShape[1] }

func (m *AMDMFMA) check(f model.Frame) error {
	if err := checkMatrixRank("#ttg.amd_mfma", f); err != nil {
		return err
	}
	if err := checkLanes("#ttg.amd_mfma", 64, f); err != nil {
		return err
	}
	if m.Version < 1 || m.Version > 4 {
		return errorf(model.CodeBadValue, "version", "mfma version %d is outside 1..4", m.Version)
	}
	if len(m.InstrShape) < 2 {
		return errorf(model.CodeBadValue, "instrShape", "instrShape %v: expected [M, N, K]", m.InstrShape)
	}
	switch mm, n := m.mn(); {
	case mm == n && (mm == 32 || mm == 16), mm == 4 && n == 64:
	case mm == 64 && n == 4:
		if !m.IsTransposed {
			return errorf(model.CodeBadValue, "instrShape", "instrShape %v: a 64 × 4 mfma is written transposed (isTransposed = true)", m.InstrShape)
		}
	default:
		return errorf(model.CodeBadValue, "instrShape", "instrShape %v: expected M × N of 32 × 32, 16 × 16, 4 × 64 or 64 × 4", m.InstrShape)
	}
	if m.ElementBitWidth != 0 && m.ElementBitWidth != 32 && m.ElementBitWidth != 64 {
		return errorf(model.CodeBadValue, "elementBitWidth", "elementBitWidth %d is neither 32 nor 64", m.ElementBitWidth)
	}
	if m.TilesPerWarp != nil {
		if err := checkInts("tilesPerWarp", m.TilesPerWarp, len(f.Shape)); err != nil {
			return err
		}
	}
	return checkWarps(m.WarpsPerCTA, f)
}

func (m *AMDMFMA) ll(f model.Frame) (*ll, error) {
	if err := m.check(f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	rows, cols := r-2, r-1
	mm, n := m.mn()
	height := 4
	if m.ElementBitWidth == 64 {
		height = 1
	}
	b := newLL(r, matrixOrder(r, true))
	// The instruction's tile: height elements per lane along one
	// dimension, lanes along the other and then along the first.
	along, across, lanes := rows, cols, n
	if m.IsTransposed {
		along, across, lanes = cols, rows, mm
	}
	b.ident(model.Register, height, along)
	b.ident(model.Lane, lanes, across)
	b.ident(model.Lane, 64/lanes, along)
	if t := mm * n / (64 * height); t > 1 {
		b.ident(model.Register, t, along)
	}
	tiles := m.TilesPerWarp
	if tiles == nil {
		tiles = ones(r)
	}
	warps := m.WarpsPerCTA
	b.ident(model.Register, tiles[cols], cols)
	b.ident(model.Subgroup, warps[cols], cols)
	if rest := f.Shape[cols] / (n * warps[cols] * tiles[cols]); rest > 1 {
		b.grown += log2(rest) // repeats over the tensor, as notSmaller's
		b.ident(model.Register, rest, cols)
	}
	b.ident(model.Register, tiles[rows], rows)
	b.ident(model.Subgroup, warps[rows], rows)
	if r == 3 {
		b.ident(model.Subgroup, warps[0], 0)
	}
	return b.fit(f.Shape), nil
}

// accTile is an AMD accumulator: registers select regRows, lanes the first
// cols columns and then laneRows (rows and columns swapped when
// transposed); warps and repeats row major.
func accTile(f model.Frame, transposed bool, regRows []int, cols int, laneRows []int, warps []int) *ll {
	r := len(f.Shape)
	b := newLL(r, matrixOrder(r, true))
	at := func(h model.HwDim, row, col int) {
		v := make([]int, r)
		v[r-2], v[r-1] = row, col
		if transposed {
			v[r-2], v[r-1] = col, row
		}
		b.add(h, v...)
	}
	for _, row := range regRows {
		at(model.Register, row, 0)
	}
	for col := 1; col < cols; col *= 2 {
		at(model.Lane, 0, col)
	}
	for _, row := range laneRows {
		at(model.Lane, row, 0)
	}
	b.identityND(model.Subgroup, warps, matrixOrder(r, true))
	return b.fit(f.Shape)
}

// AMDWMMA is #ttg.amd_wmma, the accumulator of RDNA's wmma instructions
// on 32 lanes, 16 × 16 per instruction (AMDWmmaEncodingAttr::toLinearLayout
// in lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): lanes along
// the columns; version 1 (RDNA3) keeps every other row in registers and
// lanes 16..31 the rows between, versions 2 (RDNA4) and 3 (gfx1250) eight
// consecutive rows in registers and lanes 16..31 the next eight;
// isTranspose swaps rows and columns. Triton 3.9 writes the warps as
// ctaLayout = {warp = [[...], ...]}, one basis per warp bit counted in
// instruction tiles (WarpBases); earlier Triton wrote warpsPerCTA, warps
// row major. Repeats are row major (getRepOrder in
// lib/Dialect/TritonGPU/IR/Dialect.cpp).
type AMDWMMA struct {
	Version     int
	WarpsPerCTA []int
	// IsTranspose, InstrShape and WarpBases are Triton 3.9's fields: the
	// tile transposed, the instruction's [M, N, K] (nil: [16, 16, 16])
	// and the warps' bases in tiles; WarpBases is nil in the earlier
	// form, which gives WarpsPerCTA.
	IsTranspose bool
	InstrShape  []int
	WarpBases   [][]int
}

func (m *AMDWMMA) TritonAttr() string {
	if m.WarpBases == nil {
		return fmt.Sprintf("#ttg.amd_wmma<{version = %d, warpsPerCTA = %s}>", m.Version, intsString(m.WarpsPerCTA))
	}
	return fmt.Sprintf("#ttg.amd_wmma<{version = %d, isTranspose = %t, ctaLayout = {warp = %s}, instrShape = %s}>",
		m.Version, m.IsTranspose, listsString(m.WarpBases), intsString(m.instrShape()))
}

// instrShape is the instruction's [M, N, K].
func (m *AMDWMMA) instrShape() []int {
	if len(m.InstrShape) == 3 {
		return m.InstrShape
	}
	return []int{16, 16, 16}
}

func (m *AMDWMMA) check(f model.Frame) error {
	if err := checkMatrixRank("#ttg.amd_wmma", f); err != nil {
		return err
	}
	if err := checkLanes("#ttg.amd_wmma", 32, f); err != nil {
		return err
	}
	if m.WarpBases == nil {
		if m.Version != 1 && m.Version != 2 {
			return errorf(model.CodeBadValue, "version", "wmma version %d is neither 1 nor 2", m.Version)
		}
		return checkWarps(m.WarpsPerCTA, f)
	}
	if m.Version < 1 || m.Version > 3 {
		return errorf(model.CodeBadValue, "version", "wmma version %d is outside 1..3", m.Version)
	}
	if is := m.instrShape(); len(is) != 3 || is[0] != 16 || is[1] != 16 {
		return errorf(model.CodeBadValue, "instrShape", "instrShape %v: a wmma tile is 16 × 16, [16, 16, K]", m.InstrShape)
	}
	if 1<<len(m.WarpBases) != f.Subgroups {
		return errorf(model.CodeShapeMismatch, "warp", "ctaLayout's %d warp bases give %d warps but there are %d", len(m.WarpBases), 1<<len(m.WarpBases), f.Subgroups)
	}
	for _, v := range m.WarpBases {
		if len(v) != len(f.Shape) {
			return errorf(model.CodeRankMismatch, "warp", "ctaLayout's warp basis %v has %d coordinates but the shape %v has rank %d", v, len(v), f.Shape, len(f.Shape))
		}
		for _, c := range v {
			if c < 0 || c > 1<<20 {
				return errorf(model.CodeBadValue, "warp", "ctaLayout's warp basis %v has a coordinate outside 0..2^20", v)
			}
		}
	}
	return nil
}

func (m *AMDWMMA) ll(f model.Frame) (*ll, error) {
	if err := m.check(f); err != nil {
		return nil, err
	}
	if m.WarpBases == nil {
		if m.Version == 1 {
			return accTile(f, false, []int{2, 4, 8}, 16, []int{1}, m.WarpsPerCTA), nil
		}
		return accTile(f, false, []int{1, 2, 4}, 16, []int{8}, m.WarpsPerCTA), nil
	}
	r := len(f.Shape)
	b := newLL(r, matrixOrder(r, true))
	at := func(h model.HwDim, row, col int) {
		v := make([]int, r)
		v[r-2], v[r-1] = row, col
		if m.IsTranspose {
			v[r-2], v[r-1] = col, row
		}
		b.add(h, v...)
	}
	regRows, laneRow := []int{1, 2, 4}, 8
	if m.Version == 1 {
		regRows, laneRow = []int{2, 4, 8}, 1
	}
	for _, row := range regRows {
		at(model.Register, row, 0)
	}
	for col := 1; col < 16; col *= 2 {
		at(model.Lane, 0, col)
	}
	at(model.Lane, laneRow, 0)
	is := m.instrShape()
	for _, v := range m.WarpBases {
		w := slices.Clone(v)
		w[r-2], w[r-1] = v[r-2]*is[0], v[r-1]*is[1]
		b.add(model.Subgroup, w...)
	}
	return b.fit(f.Shape), nil
}

// IntelDPAS is Intel's #ttig.dpas, the accumulator of the dpas
// instruction (DPAStoLinearLayout in intel/intel-xpu-backend-for-triton
// third_party/intel/lib/Dialect/TritonIntelGPU/IR/LinearLayoutConversions.cpp,
// commit fb9cbf62): executionSize columns in lanes, the lanes beyond them
// and registers down the repeatCount rows, repCluster instruction tiles in
// registers, warps row major, repeats columns first. Its dot operands
// follow the same function with opIdx 0 and 1.
type IntelDPAS struct {
	RepeatCount, SystolicDepth, ExecutionSize, OpsPerChan, ThreadsPerWarp int
	WarpsPerCTA, RepCluster                                               []int
}

func (m *IntelDPAS) TritonAttr() string {
	r0, r1 := 1, 1
	if len(m.RepCluster) == 2 {
		r0, r1 = m.RepCluster[0], m.RepCluster[1]
	}
	a := []int{m.RepeatCount * r0, m.SystolicDepth * m.OpsPerChan}
	b := []int{m.SystolicDepth * m.OpsPerChan, m.ExecutionSize * r1}
	c := []int{m.RepeatCount * r0, m.ExecutionSize * r1}
	return fmt.Sprintf("#ttig.dpas<{repeatCount = %d, systolicDepth = %d, executionSize = %d, opsPerChan = %d, threadsPerWarp = %d, warpsPerCTA = %s, repCluster = %s, A = %s, B = %s, C = %s}>",
		m.RepeatCount, m.SystolicDepth, m.ExecutionSize, m.OpsPerChan, m.ThreadsPerWarp, intsString(m.WarpsPerCTA), intsString(m.RepCluster),
		intsString(a), intsString(b), intsString(c))
}

func (m *IntelDPAS) check(f model.Frame) error {
	if len(f.Shape) != 2 {
		return errorf(model.CodeRankMismatch, "shape", "#ttig.dpas is written for rank 2, not rank %d", len(f.Shape))
	}
	for _, x := range []struct {
		key string
		v   int
	}{{"repeatCount", m.RepeatCount}, {"systolicDepth", m.SystolicDepth}, {"executionSize", m.ExecutionSize}, {"opsPerChan", m.OpsPerChan}, {"threadsPerWarp", m.ThreadsPerWarp}} {
		if x.v < 1 || x.v > 64 || !isPow2(x.v) {
			return errorf(model.CodeBadValue, x.key, "%s %d is not a power of two from 1 to 64", x.key, x.v)
		}
	}
	if err := checkLanes("#ttig.dpas", m.ThreadsPerWarp, f); err != nil {
		return err
	}
	if m.ThreadsPerWarp < m.ExecutionSize || m.ThreadsPerWarp < m.SystolicDepth || m.RepeatCount*m.SystolicDepth < m.ThreadsPerWarp {
		return errorf(model.CodeShapeMismatch, "threadsPerWarp", "threadsPerWarp %d must be at least executionSize %d and systolicDepth %d and at most repeatCount × systolicDepth", m.ThreadsPerWarp, m.ExecutionSize, m.SystolicDepth)
	}
	if err := checkInts("repCluster", m.RepCluster, 2); err != nil {
		return err
	}
	return checkWarps(m.WarpsPerCTA, f)
}

// ll builds operand opIdx (0: A, 1: B, 2: the accumulator).
func (m *IntelDPAS) operand(f model.Frame, opIdx int) (*ll, error) {
	if err := m.check(f); err != nil {
		return nil, err
	}
	kDim := 1
	if opIdx == 1 {
		kDim = 0
	}
	b := newLL(2, []int{kDim, 1 - kDim})
	threads, ops, depth := m.ThreadsPerWarp, m.OpsPerChan, m.SystolicDepth
	switch opIdx {
	case 0: // DPASRegBasesA, DPASLaneBasesA
		rows := threads / depth
		for o := 1; o < ops; o *= 2 {
			b.add(model.Register, 0, o)
		}
		for w := 1; w < m.RepeatCount/rows; w *= 2 {
			b.add(model.Register, w*rows, 0)
		}
		for t := 1; t < depth; t *= 2 {
			b.add(model.Lane, 0, ops*t)
		}
		for t := depth; t < threads; t *= 2 {
			b.add(model.Lane, t/depth, 0)
		}
		b.ident(model.Register, m.RepCluster[0], 0)
		b.zeros(model.Subgroup, m.WarpsPerCTA[1])
		b.ident(model.Subgroup, m.WarpsPerCTA[0], 0)
	case 1: // DPASRegBasesB, DPASLaneBasesB
		rows := threads / m.ExecutionSize
		for o := 1; o < ops; o *= 2 {
			b.add(model.Register, o, 0)
		}
		for r := rows; r < depth; r *= 2 {
			b.add(model.Register, r*ops, 0)
		}
		for t := 1; t < m.ExecutionSize; t *= 2 {
			b.add(model.Lane, 0, t)
		}
		for r := 1; r < rows; r *= 2 {
			b.add(model.Lane, r*ops, 0)
		}
		b.ident(model.Register, m.RepCluster[1], 1)
		b.ident(model.Subgroup, m.WarpsPerCTA[1], 1)
		b.zeros(model.Subgroup, m.WarpsPerCTA[0])
	default: // DPASRegBasesC, DPASLaneBasesC
		rows := threads / m.ExecutionSize
		for r := rows; r < m.RepeatCount; r *= 2 {
			b.add(model.Register, r, 0)
		}
		for t := 1; t < m.ExecutionSize; t *= 2 {
			b.add(model.Lane, 0, t)
		}
		for r := 1; r < rows; r *= 2 {
			b.add(model.Lane, r, 0)
		}
		b.ident(model.Register, m.RepCluster[1], 1)
		b.ident(model.Register, m.RepCluster[0], 0)
		b.ident(model.Subgroup, m.WarpsPerCTA[1], 1)
		b.ident(model.Subgroup, m.WarpsPerCTA[0], 0)
	}
	return b.fit(f.Shape), nil
}

func (m *IntelDPAS) ll(f model.Frame) (*ll, error) { return m.operand(f, 2) }

// DotOperand is #ttg.dot_op: operand A (opIdx 0, [m, k]) or B (opIdx 1,
// [k, n]) of a dot whose result has encoding Parent, with kWidth
// consecutive k elements per register group. Warps along k hold copies.
type DotOperand struct {
	OpIdx  int
	Parent TritonEncoding
	KWidth int
}

func (d *DotOperand) TritonAttr() string {
	s := fmt.Sprintf("#ttg.dot_op<{opIdx = %d, parent = %s", d.OpIdx, d.Parent.TritonAttr())
	if _, ok := d.Parent.(*TritonBlocked); !ok || d.KWidth != 0 {
		s += fmt.Sprintf(", kWidth = %d", d.KWidth)
	}
	return s + "}>"
}

func (d *DotOperand) ll(f model.Frame) (*ll, error) {
	if d.OpIdx != 0 && d.OpIdx != 1 {
		return nil, errorf(model.CodeBadValue, "opIdx", "opIdx %d is neither 0 (A) nor 1 (B)", d.OpIdx)
	}
	if err := checkMatrixRank("#ttg.dot_op", f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	kDim := r - 1
	if d.OpIdx == 1 {
		kDim = r - 2
	}
	if _, ok := d.Parent.(*TritonBlocked); !ok && (d.KWidth < 1 || !isPow2(d.KWidth) || d.KWidth > 64) {
		return nil, errorf(model.CodeBadValue, "kWidth", "kWidth %d is not a power of two from 1 to 64", d.KWidth)
	}
	switch p := d.Parent.(type) {
	case *NvidiaMMA:
		return d.mma(p, f, kDim)
	case *AMDMFMA:
		return d.mfma(p, f, kDim)
	case *AMDWMMA:
		return d.wmma(p, f, kDim)
	case *IntelDPAS:
		return p.operand(f, d.OpIdx)
	case *TritonBlocked:
		return d.fma(p, f, kDim)
	}
	return nil, errorf(model.CodeBadValue, "parent", "a dot operand's parent must be #ttg.nvidia_mma, #ttg.amd_mfma, #ttg.amd_wmma, #ttig.dpas or #ttg.blocked, not %s", d.Parent.TritonAttr())
}

// mma is nvidiaDotToLinearLayout: A's tile is 16 × 8·kWidth, B's
// 8·kWidth × 8, both k-major; warps follow the parent with copies along k.
func (d *DotOperand) mma(p *NvidiaMMA, f model.Frame, kDim int) (*ll, error) {
	if err := p.check(f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	if d.OpIdx == 1 && p.VersionMajor != 2 {
		return nil, errorf(model.CodeBadValue, "opIdx", "operand B of a version %d #ttg.nvidia_mma is read from shared memory, not registers", p.VersionMajor)
	}
	order := dotOrder(d.OpIdx, r)
	var rows, cols int // tile extents along order[1] and order[0]
	if d.OpIdx == 0 {
		rows, cols = 16, 8*d.KWidth
	} else {
		rows, cols = 8, 8*d.KWidth
	}
	b, err := mmaTile(r, rows, cols, d.KWidth, order, order)
	if err != nil {
		return nil, err
	}
	b.broadcastND(model.Subgroup, p.WarpsPerCTA, p.warpOrder(r), kDim)
	return b.fit(f.Shape), nil
}

// mfma is mfmaDotToLinearLayout: kWidth consecutive k in registers,
// lanes along the instruction's non-k extent (M for A, N for B), the rest
// of the 64 lanes along k in steps of kWidth (for the 64-wide operand of
// a 4 × 64 or 64 × 4 mfma, 16 such steps in registers too); registers
// then cover the whole k extent, so warps along k hold copies; a warp's
// tiles (tilesPerWarp) along the non-k dimension in registers after them.
func (d *DotOperand) mfma(p *AMDMFMA, f model.Frame, kDim int) (*ll, error) {
	if err := p.check(f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	nonK := 2*r - 3 - kDim
	mm, n := p.mn()
	nonKDim := mm
	if d.OpIdx == 1 {
		nonKDim = n
	}
	// Repeats k first, then the non-k dimension, then the batch
	// (combineCtaCgaWithShape in the order [k, nonk, batch]).
	order := []int{kDim, nonK}
	for i := r - 3; i >= 0; i-- {
		order = append(order, i)
	}
	b := newLL(r, order)
	b.ident(model.Register, d.KWidth, kDim)
	b.ident(model.Lane, nonKDim, nonK)
	b.ident(model.Lane, 64/nonKDim, kDim)
	if mm == 64 && n == 4 && d.OpIdx == 0 || mm == 4 && n == 64 && d.OpIdx == 1 {
		b.ident(model.Register, 16, kDim)
	}
	if k := f.Shape[kDim] / b.size[kDim]; k > 1 {
		b.ident(model.Register, k, kDim)
	}
	if p.TilesPerWarp != nil {
		b.ident(model.Register, p.TilesPerWarp[nonK], nonK)
	}
	b.identityND(model.Subgroup, p.WarpsPerCTA, matrixOrder(r, true))
	return b.fit(f.Shape), nil
}

// operandTile is the part AMD's operand layouts share: kWidth consecutive
// k in registers, lanes along the first nLanes of the non-k dimension,
// then along k by laneK; order is the order of register repeats.
func (d *DotOperand) operandTile(f model.Frame, kDim int, order []int, nLanes int, laneK []int) *ll {
	r := len(f.Shape)
	b := newLL(r, order)
	for k := 1; k < d.KWidth; k *= 2 {
		b.add(model.Register, d.kAt(r, kDim, k)...)
	}
	for n := 1; n < nLanes; n *= 2 {
		v := make([]int, r)
		v[2*r-3-kDim] = n
		b.add(model.Lane, v...)
	}
	for _, k := range laneK {
		b.add(model.Lane, d.kAt(r, kDim, k)...)
	}
	return b
}

// kAt is the basis of offset k along dimension kDim (0: a copy).
func (d *DotOperand) kAt(r, kDim, k int) []int {
	v := make([]int, r)
	v[kDim] = k
	return v
}

// wmma is wmmaDotOperandToLinearLayout: kWidth k in registers, 16 lanes
// along the non-k dimension, lanes 16..31 copies of them (version 1) or
// the next kWidth k (version 2); warps with copies along k; repeats k
// first.
func (d *DotOperand) wmma(p *AMDWMMA, f model.Frame, kDim int) (*ll, error) {
	if err := p.check(f); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	if p.WarpBases != nil {
		return d.wmmaTiled(p, f, kDim), nil
	}
	laneK := 0 // version 1: lanes 16..31 hold copies
	if p.Version == 2 {
		laneK = d.KWidth
	}
	b := d.operandTile(f, kDim, dotOrder(d.OpIdx, r), 16, []int{laneK})
	// broadcastedDotOperandLayout with the parent's row-major warp order.
	b.broadcastND(model.Subgroup, p.WarpsPerCTA, matrixOrder(r, true), kDim)
	return b.fit(f.Shape), nil
}

// wmmaTiled is wmmaDotOperandToLinearLayout for Triton 3.9's form: kWidth
// k in registers, the tile's 16 rows or columns in lanes, the other 16
// lanes the next kWidth k (versions 2 and 3) or copies (version 1),
// registers to the instruction's K; the parent's warps with their k
// coordinate dropped (copies along k); repeats k first.
func (d *DotOperand) wmmaTiled(p *AMDWMMA, f model.Frame, kDim int) *ll {
	r := len(f.Shape)
	is := p.instrShape()
	nonK := 2*r - 3 - kDim
	order := []int{kDim, nonK}
	for i := r - 3; i >= 0; i-- {
		order = append(order, i)
	}
	b := newLL(r, order)
	nonKDim := is[0]
	if d.OpIdx == 1 {
		nonKDim = is[1]
	}
	depth := 32 / nonKDim
	b.ident(model.Register, d.KWidth, kDim)
	b.ident(model.Lane, nonKDim, nonK)
	if p.Version == 1 {
		b.zeros(model.Lane, depth)
	} else {
		b.ident(model.Lane, depth, kDim)
	}
	if n := is[2] / (depth * d.KWidth); n > 1 {
		b.ident(model.Register, n, kDim)
	}
	for _, v := range p.WarpBases {
		w := make([]int, r)
		copy(w, v)
		w[r-2], w[r-1] = v[r-2]*is[0], v[r-1]*is[1]
		w[kDim] = 0
		b.add(model.Subgroup, w...)
	}
	return b.fit(f.Shape)
}

// fma is fmaDotToLinearLayout: the blocked parent with each thread holding
// the whole k extent and lanes and warps along k holding copies.
func (d *DotOperand) fma(p *TritonBlocked, f model.Frame, kDim int) (*ll, error) {
	r := len(f.Shape)
	if !p.oneCTA() {
		return nil, errorf(model.CodeBadValue, "parent", "a dot operand of a blocked parent over several CTAs is not handled")
	}
	if err := p.checkCTA(f); err != nil {
		return nil, err
	}
	spt := slices.Clone(p.SizePerThread)
	spt[kDim] = f.Shape[kDim]
	b := newLL(r, p.Order)
	b.identityND(model.Register, spt, p.Order)
	b.broadcastND(model.Lane, p.ThreadsPerWarp, p.Order, kDim)
	b.broadcastND(model.Subgroup, p.WarpsPerCTA, p.Order, kDim)
	return b.fit(f.Shape), nil
}

// SliceEncoding is #ttg.slice: the parent's layout over the shape with an
// extent-1 dimension Dim inserted, that dimension then dropped; register
// bases left selecting nothing are dropped (sliceToLinearLayout).
type SliceEncoding struct {
	Dim    int
	Parent TritonEncoding
}

func (s *SliceEncoding) TritonAttr() string {
	return fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", s.Dim, s.Parent.TritonAttr())
}

func (s *SliceEncoding) ll(f model.Frame) (*ll, error) {
	r := len(f.Shape)
	if s.Dim < 0 || s.Dim > r {
		return nil, errorf(model.CodeBadValue, "dim", "slice dim %d is outside 0..%d", s.Dim, r)
	}
	pf := f
	pf.Shape = slices.Insert(slices.Clone(f.Shape), s.Dim, 1)
	if len(pf.Shape) > model.MaxRank {
		return nil, errorf(model.CodeTooLarge, "dim", "the parent's rank %d is more than %d", len(pf.Shape), model.MaxRank)
	}
	pb, err := s.Parent.ll(pf)
	if err != nil {
		return nil, err
	}
	out := newLL(r, nil)
	out.cut, out.grown = pb.cut, pb.grown
	for h := range model.NumHwDims {
		for _, v := range pb.bases[h] {
			w := slices.Delete(slices.Clone(v), s.Dim, s.Dim+1)
			if h == model.Register && allZero(w) {
				continue
			}
			out.bases[h] = append(out.bases[h], w)
		}
	}
	return out, nil
}

func ones(n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = 1
	}
	return xs
}

// ll makes Linear a Triton encoding, #ttg.linear, fitted to the frame's
// shape (fitted).
func (x *Linear) ll(f model.Frame) (*ll, error) {
	r := len(f.Shape)
	for _, src := range [][][]int{x.Register, x.Lane, x.Warp, x.Block} {
		for _, v := range src {
			if len(v) != r {
				return nil, errorf(model.CodeRankMismatch, "encoding", "basis %v has %d coordinates but the shape %v has rank %d", v, len(v), f.Shape, r)
			}
		}
	}
	b := x.bases(r)
	if !b.fits(f.Shape) {
		b.fit(f.Shape)
	}
	return b, nil
}

// bases is x's bases as a layout under construction, the tensor extent it
// covers grown to hold every coordinate, and its repetition order that of
// LinearEncodingAttr::getOrder in lib/Dialect/TritonGPU/IR/Dialect.cpp
// (orderPerDim of the register bases: each basis's first non-zero
// dimension, in the order the bases come, then the rest last first).
func (x *Linear) bases(r int) *ll {
	var order []int
	for _, v := range x.Register {
		if i := slices.IndexFunc(v, func(c int) bool { return c != 0 }); i >= 0 && !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	for d := r - 1; d >= 0; d-- {
		if !slices.Contains(order, d) {
			order = append(order, d)
		}
	}
	b := newLL(r, order)
	for h, src := range [][][]int{x.Register, x.Lane, x.Warp, x.Block} {
		for _, v := range src {
			b.add(model.HwDim(h), slices.Clone(v)...)
		}
	}
	return b
}

// fits reports whether the bases cover exactly shape: no coordinate
// beyond it and every extent reached.
func (b *ll) fits(shape []int) bool {
	return slices.Equal(b.size, shape)
}

// fitted is x as Triton lays it out over a tensor of the given shape when
// its bases cover another extent (LinearEncodingAttr::toLinearLayout in
// lib/Dialect/TritonGPU/IR/Dialect.cpp): repeated in registers over a
// larger tensor, the dimensions in x's repetition order
// (ensureLayoutNotSmallerThan), and over a smaller one every coordinate
// beyond the tensor set to zero, so that the ids it selected hold copies,
// with the register bases left selecting nothing dropped
// (ensureLayoutNotLargerThan without broadcastRegisters). x itself when it
// covers the shape exactly, or a basis does not have the shape's rank
// (Layout reports it).
func (x *Linear) fitted(shape []int) *Linear {
	r := len(shape)
	for _, src := range [][][]int{x.Register, x.Lane, x.Warp, x.Block} {
		for _, v := range src {
			if len(v) != r || slices.ContainsFunc(v, func(c int) bool { return c < 0 }) {
				return x
			}
		}
	}
	b := x.bases(r)
	if b.fits(shape) {
		return x
	}
	return b.fit(shape).linear()
}

// TritonAttr prints x as Triton writes #ttg.linear.
func (x *Linear) TritonAttr() string { return x.Attr() }

// Counts returns the warps and the lanes per warp t is written for, 0 for
// a count it does not fix or that no frame can have.
func (t *Triton) Counts() (warps, lanes int) {
	return tritonCounts(t.Enc)
}

func tritonCounts(enc TritonEncoding) (warps, lanes int) {
	capped := func(xs []int) int {
		p := 1
		for _, x := range xs {
			if x < 1 || p*x > 1024 {
				return 0
			}
			p *= x
		}
		return p
	}
	switch e := enc.(type) {
	case *TritonBlocked:
		return capped(e.WarpsPerCTA), capped(e.ThreadsPerWarp)
	case *NvidiaMMA:
		return capped(e.WarpsPerCTA), 32
	case *AMDMFMA:
		return capped(e.WarpsPerCTA), 64
	case *AMDWMMA:
		if e.WarpBases != nil {
			if len(e.WarpBases) > 10 {
				return 0, 32
			}
			return 1 << len(e.WarpBases), 32
		}
		return capped(e.WarpsPerCTA), 32
	case *IntelDPAS:
		return capped(e.WarpsPerCTA), e.ThreadsPerWarp
	case *DotOperand:
		return tritonCounts(e.Parent)
	case *SliceEncoding:
		return tritonCounts(e.Parent)
	case *Linear:
		ids := func(k int) int {
			if k > 10 {
				return 0
			}
			return 1 << k
		}
		return ids(len(e.Warp)), ids(len(e.Lane))
	}
	return 0, 0
}
