package model

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// ConversionKind is the cheapest mechanism that turns one layout of a
// tensor into another.
type ConversionKind int

const (
	ConvNone     ConversionKind = iota // the layouts are equal
	ConvRegister                       // every lane already holds what it needs
	ConvShuffle                        // data moves between lanes of one subgroup
	ConvShared                         // data moves between subgroups (or blocks): through shared memory
)

var convNames = [...]string{"none", "register", "shuffle", "shared"}

func (k ConversionKind) String() string {
	if k >= 0 && int(k) < len(convNames) {
		return convNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Conversion is the analysis of converting a tensor held in layout Src to
// layout Dst. Counts are per lane, the largest over all lanes, except the
// byte counts, which are for the whole tensor.
//
// Registers hold 32-bit words: elements narrower than 32 bits pack into a
// word when their value indices differ only in the lowest binary digits of
// the register axis (two f16 per word, as the mma fragments pack them);
// a 64-bit element takes two words.
type Conversion struct {
	Kind     ConversionKind
	ElemBits int

	// Words is the number of 32-bit words of the destination per lane.
	Words int
	// Moves counts destination words that are not an intact copy of a
	// source word and must be assembled (prmt/mov) from pieces; for a
	// round trip through shared memory, the byte permutes that assemble
	// the stored vectors' words and take the loaded ones apart.
	Moves int
	// Rounds counts the 32-bit words a lane must read from other lanes of
	// its subgroup: one shuffle (shfl.sync, ds_bpermute, sub-group
	// shuffle) each.
	Rounds int

	// For a round trip through shared memory: the scratch buffer holds the
	// tensor once, row major with ScratchOrder's first dimension fastest;
	// each lane writes its elements with StoreVector-element stores and
	// reads with LoadVector-element loads.
	//
	// Where ScratchRow is set, the scratch's 16-byte rows run along those
	// tensor digits instead, lowest first (digit k of the row is the
	// offset's bit k), and the tensor's remaining digits follow row
	// major in ScratchOrder (scratch_rows.go).
	ScratchBytes  int
	ScratchOrder  []int
	ScratchRow    []DigitRef
	StoreVector   int
	LoadVector    int
	Stores, Loads int // instructions per lane
	// StoreAccess and LoadAccess count the wavefronts of the round trip,
	// conflicts included, once CountScratch has placed the scratch
	// (ScratchPad elements of padding after each run of its fastest
	// dimension); zero before.
	StoreAccess, LoadAccess Access
	ScratchPad              int
	StoreBytes              int // distinct elements written, in bytes
	LoadBytes               int // elements read by all lanes, in bytes
	CrossesBlocks           bool
	// Transpositions is, for a conversion within a subgroup (ConvShuffle
	// as analysed), the register digits of the source that the
	// destination holds in lane digits (laneTranspositions); 0 where the
	// two layouts' digits differ (analysed element by element), and then
	// the target's limit is not applied (LowerShuffles).
	Transpositions int
	// StoreRecord and LoadRecord name the row-pointer records (stmatrix,
	// ldmatrix) a side of the round trip uses in place of plain vector
	// accesses, "" for plain ones (tryScratchRows).
	StoreRecord, LoadRecord string

	// reason names one destination element whose source forces the kind
	// (Reason), written only when asked: a solve analyses many more
	// conversions than its plan shows.
	reason func() string
	// why is the reason of a linear analysis, kept as it was found
	// (written into words only when asked): destination digit pos of
	// axis h selects y, which the source holds only in another need.
	why digitWhy
}

// digitWhy is a destination digit that sets a conversion's kind.
type digitWhy struct {
	dst     *Layout // nil: none
	h, need HwDim
	pos     int
	y       uint64
}

// Reason names one destination element whose source forces the kind: a
// destination hardware digit and where the source holds its data.
func (c *Conversion) Reason() string {
	switch {
	case c.reason != nil:
		return c.reason()
	case c.why.dst != nil:
		w := c.why
		return fmt.Sprintf("destination %s bit %d selects %s, which the source holds only in another %s", w.h, w.pos, w.dst.describeBits(w.y), w.need)
	}
	return ""
}

// Analyze classifies the conversion from src to dst for elements of
// elemBits bits, from the layouts alone. Layouts whose tensor, lane,
// subgroup and block digits agree are analysed with linear algebra over
// their images; others element by element, with the same definitions.
func Analyze(src, dst *Layout, elemBits int) (*Conversion, error) {
	if src.inShared || dst.inShared {
		if src.Equal(dst) {
			return &Conversion{Kind: ConvNone}, nil
		}
		return nil, errorf(CodeIncompatible, "layout", "a value left in shared memory for an instruction's descriptor is in no register: it is neither converted nor read into registers by a conversion")
	}
	if (src.opaque != "" || dst.opaque != "") && !src.Equal(dst) {
		if src.opaque == "" {
			return nil, dst.errOpaque()
		}
		return nil, src.errOpaque()
	}
	if err := checkConvertible(src, dst, elemBits); err != nil {
		return nil, err
	}
	if !comparableDigits(src, dst) {
		return analyzeByElements(src, dst, elemBits), nil
	}
	return analyzeLinear(src, dst, elemBits), nil
}

func checkConvertible(src, dst *Layout, elemBits int) error {
	if !slices.Equal(src.shape, dst.shape) {
		return errorf(CodeShapeMismatch, "", "the layouts cover different shapes: %v and %v", src.shape, dst.shape)
	}
	for _, h := range []HwDim{Lane, Subgroup, Block} {
		if src.Size(h) != dst.Size(h) {
			return errorf(CodeIncompatible, "", "the layouts have different %s counts: %d and %d", h, src.Size(h), dst.Size(h))
		}
	}
	switch {
	case elemBits <= 0 || elemBits > 64:
		return errorf(CodeBadValue, "dtype", "element width %d bits is outside 1..64", elemBits)
	case elemBits < 32 && 32%elemBits != 0, elemBits > 32 && elemBits != 64:
		return errorf(CodeBadValue, "dtype", "element width %d bits does not pack into 32-bit registers", elemBits)
	}
	return nil
}

// comparableDigits reports whether the two layouts read the tensor and the
// lane, subgroup and block ids in the same digits.
func comparableDigits(a, b *Layout) bool {
	return sameAxes(a.m.out.axes, b.m.out.axes) && sameAxes(a.m.in.axes[Lane:], b.m.in.axes[Lane:])
}

// packing is the number of lowest register digits whose values share a
// 32-bit word.
func packing(l *Layout, elemBits int) int {
	if elemBits >= 32 {
		return 0
	}
	want := log2(32 / elemBits)
	p := 0
	for _, r := range l.m.in.axes[Register].Radices {
		if r != 2 || p == want {
			break
		}
		p++
	}
	return p
}

// wordsPerLane is the number of 32-bit words a lane of l uses.
func wordsPerLane(l *Layout, elemBits int) int {
	if elemBits > 32 {
		return l.Size(Register) * 2
	}
	return l.Size(Register) >> uint(packing(l, elemBits))
}

func wordFactor(elemBits int) int {
	if elemBits > 32 {
		return 2
	}
	return 1
}

// hwBits returns the images of the binary digits of axis h, in digit order,
// and their positions in the axis.
// They are worked out when the layout is made (conversions between every
// pair of candidates read them) and capped, so that an append copies them.
func (l *Layout) hwBits(h HwDim) (imgs []uint64, pos []int) {
	imgs, pos = l.hw.imgs[h], l.hw.pos[h]
	return imgs[:len(imgs):len(imgs)], pos[:len(pos):len(pos)]
}

func (l *Layout) computeHwBits() hwDigits {
	var d hwDigits
	// One array of each for the four axes, each axis's part capped.
	allImgs, allPos := make([]uint64, 0, l.m.in.nBits), make([]int, 0, l.m.in.nBits)
	for h := range NumHwDims {
		start := len(allImgs)
		for p, r := range l.m.in.axes[h].Radices {
			if r == 2 {
				allImgs = append(allImgs, l.m.bitImg[l.m.in.digits[l.m.in.first[h]+p].flat])
				allPos = append(allPos, p)
			}
		}
		d.imgs[h], d.pos[h] = allImgs[start:len(allImgs):len(allImgs)], allPos[start:len(allPos):len(allPos)]
	}
	return d
}

// hwDigits is hwBits of every hardware axis.
type hwDigits struct {
	imgs [NumHwDims][]uint64
	pos  [NumHwDims][]int
}

// grades is the span of the images of l's binary hardware digits, added
// in axis order (registers, then lanes, …) as rows of an echelon basis
// that each remember the axis of the digit they were added for: a
// conversion from l asks it of every destination digit. Worked out when
// the layout is made.
type grades struct {
	rows  []uint64 // echelon in insertion order: a row holds no earlier row's pivot
	level []HwDim
	// full: the rows span every binary tensor digit, so that lowest never
	// exceeds the last row's axis.
	full bool
}

func (l *Layout) grades() *grades { return &l.graded }

func (l *Layout) computeGrades() grades {
	n := min(l.m.in.nBits, l.m.out.nBits)
	g := grades{rows: make([]uint64, 0, n), level: make([]HwDim, 0, n)}
	for h := range NumHwDims {
		imgs, _ := l.hwBits(h)
		for _, v := range imgs {
			if v = g.reduce(v); v != 0 {
				g.rows = append(g.rows, v)
				g.level = append(g.level, h)
			}
		}
	}
	g.full = len(g.rows) == l.m.out.nBits
	return g
}

func (g *grades) reduce(v uint64) uint64 {
	for _, r := range g.rows {
		if v&(uint64(1)<<uint(63-bits.LeadingZeros64(r))) != 0 {
			v ^= r
		}
	}
	return v
}

// lowest is the first axis h such that v lies in the span of the images
// of the digits of the axes up to h, NumHwDims where none does. The rows
// are a basis, so v has one way of being their sum, and the span of the
// axes up to h is that of the rows added for them: v needs the axis of
// the last row its sum takes.
func (g *grades) lowest(v uint64) HwDim {
	need := Register
	for i, r := range g.rows {
		if v&(uint64(1)<<uint(63-bits.LeadingZeros64(r))) != 0 {
			v ^= r
			need = max(need, g.level[i])
		}
	}
	if v != 0 {
		return NumHwDims
	}
	return need
}

// hwDigit is digit p of hardware axis h.
type hwDigit struct {
	h HwDim
	p int
}

// oddSource maps each tensor repetition digit (flat) to the hardware digit
// that produces it.
func (l *Layout) oddSource() []hwDigit {
	src := make([]hwDigit, l.m.out.nOdd)
	for _, d := range l.m.in.digits {
		if d.radix != 2 {
			if o := l.m.oddImg[d.flat]; o >= 0 {
				src[o] = hwDigit{HwDim(d.axis), d.pos}
			}
		}
	}
	return src
}

// describeBits names the tensor digits in a bit vector of l's binary
// tensor digits.
func (l *Layout) describeBits(v uint64) string {
	if v == 0 {
		return "nothing"
	}
	var parts []string
	for _, d := range l.m.out.digits {
		if d.radix == 2 && v>>uint(d.flat)&1 == 1 {
			parts = append(parts, fmt.Sprintf("dim%d bit %d", d.axis, d.pos))
		}
	}
	return strings.Join(parts, " ^ ")
}

func analyzeLinear(src, dst *Layout, elemBits int) *Conversion {
	c := &Conversion{ElemBits: elemBits, Words: wordsPerLane(dst, elemBits)}
	if equalComparable(src, dst) {
		c.Kind = ConvNone
		return c
	}
	// The source's images graded by axis: a destination digit needing
	// data outside the span of registers, lanes, … stays within a lane,
	// subgroup, … only if the source holds it there.
	grades := src.grades()
	// top is the most any digit below can need, where it is known: the
	// loop stops there, the first digit that needs it found.
	top := NumHwDims
	if grades.full {
		top = Register
		if n := len(grades.level); n > 0 {
			top = grades.level[n-1]
		}
		for h := range NumHwDims {
			if imgs, _ := dst.hwBits(h); len(imgs) > 0 {
				top = max(top, h)
			}
		}
	}
	level := Register
	// The reason for the level, written when asked: the destination bit
	// that set it (whyH < 0: none), or a repetition digit (whyOdd).
	whyH, whyPos, whyNeed := HwDim(-1), 0, Register
	var whyY uint64
	var whyOdd func() string
digits:
	for h := range NumHwDims {
		dImgs, dPos := dst.hwBits(h)
		sImgs, _ := src.hwBits(h)
		for i, y := range dImgs {
			// The lowest axis whose span, up to it, holds what this
			// digit selects. Below h the destination point and the
			// source holder share the digit (the source's image moves
			// with it: y ^ sImgs[i]); from h up the holder's digit is
			// free (y alone). Register digits are free from the start.
			need := NumHwDims
			if h > Register {
				need = grades.lowest(y ^ sImgs[i])
			}
			if need >= h {
				need = max(h, grades.lowest(y))
			}
			if need > level {
				level = need
				whyH, whyPos, whyY, whyNeed = h, dPos[i], y, need
				if level >= top {
					break digits
				}
			}
		}
	}
	// Repetition digits: a tensor repetition digit produced by a subgroup
	// or block digit of the source stays put only if the destination
	// produces it from the same digit.
	sOdd, dOdd := src.oddSource(), dst.oddSource()
	for o := range sOdd {
		s, d := sOdd[o], dOdd[o]
		if s.h == Register || s == d {
			continue
		}
		if s.h > level {
			level = s.h
			whyOdd = func() string {
				return fmt.Sprintf("a repeat the source spreads over %ss is held by %s digits in the destination", s.h, d.h)
			}
		}
	}
	switch {
	case whyOdd != nil:
		c.reason = whyOdd
	case whyH >= 0:
		c.why = digitWhy{dst: dst, h: whyH, need: whyNeed, pos: whyPos, y: whyY}
	}
	switch level {
	case Register:
		c.Kind = ConvRegister
		c.Moves = linearMoves(src, dst, elemBits, Register)
	case Lane:
		c.Kind = ConvShuffle
		c.Moves = linearMoves(src, dst, elemBits, Lane)
		c.Rounds = linearRounds(src, dst, elemBits)
		c.Transpositions = laneTranspositions(src, dst)
	default:
		c.Kind = ConvShared
		c.CrossesBlocks = level == Block
		sharedCounts(c, src, dst, elemBits)
	}
	return c
}

// equalComparable is src.Equal(dst) for layouts of comparable digits
// whose shapes and counts were checked: where the register digits agree
// too, equal maps.
func equalComparable(src, dst *Layout) bool {
	if src == dst {
		return true
	}
	if sameAxes(src.m.in.axes[:Lane], dst.m.in.axes[:Lane]) {
		return src.m.Equal(dst.m) && src.opaque == dst.opaque && src.inShared == dst.inShared
	}
	return src.Equal(dst)
}

// oddRegisterFactor is the product of the radices of the tensor repetition
// digits that dst holds in registers: a lane needs every value of them.
func oddRegisterFactor(dst *Layout) int {
	f := 1
	for _, d := range dst.m.in.digits {
		if d.radix != 2 && HwDim(d.axis) == Register && dst.m.oddImg[d.flat] >= 0 {
			f *= d.radix
		}
	}
	return f
}

// linearMoves counts destination words that are not intact copies of a
// source word held in the lane (region Register) or anywhere in the
// subgroup (region Lane).
func linearMoves(src, dst *Layout, elemBits int, region HwDim) int {
	words := wordsPerLane(dst, elemBits)
	ps, pd := packing(src, elemBits), packing(dst, elemBits)
	sReg, _ := src.hwBits(Register)
	dReg, _ := dst.hwBits(Register)
	if ps != pd || !slices.Equal(sReg[:ps], dReg[:pd]) {
		return words
	}
	// Words are intact when their first element is the first element of a
	// source word in the region: an affine subspace of the tensor.
	var bases basis
	bases.addAll(sReg[ps:])
	for h := Lane; h <= region; h++ {
		imgs, _ := src.hwBits(h)
		bases.addAll(imgs)
	}
	dHi := dReg[pd:]
	n := len(dHi)
	// Destination words whose base falls in the source bases: the kernel
	// of dHi modulo the bases.
	var quot basis
	for _, v := range dHi {
		quot.add(bases.reduce(v))
	}
	matched := 1 << uint(n-quot.dim())
	// Lanes whose offset leaves the bases match nothing; is there one?
	all := bases
	all.addAll(dHi)
	for h := Lane; h < NumHwDims; h++ {
		dImgs, _ := dst.hwBits(h)
		sImgs, _ := src.hwBits(h)
		for i := range dImgs {
			if !all.contains(dImgs[i] ^ sImgs[i]) {
				return words
			}
		}
	}
	return (1<<uint(n) - matched) * oddRegisterFactor(dst) * wordFactor(elemBits) * oddDupFactor(dst)
}

// oddDupFactor is the product of the radices of destination register
// repetition digits that select nothing (repeated values in a lane).
func oddDupFactor(dst *Layout) int {
	f := 1
	for _, d := range dst.m.in.digits {
		if d.radix != 2 && HwDim(d.axis) == Register && dst.m.oddImg[d.flat] < 0 {
			f *= d.radix
		}
	}
	return f
}

// linearRounds counts, for the worst lane, the source words it must read
// from other lanes. Source words are cosets of Q (the span of the source's
// packed digits); a lane needs the cosets that meet its destination
// elements and are not among its own source elements.
func linearRounds(src, dst *Layout, elemBits int) int {
	ps := packing(src, elemBits)
	sReg, _ := src.hwBits(Register)
	dReg, _ := dst.hwBits(Register)
	var q, eq, reach basis
	q.addAll(sReg[:ps])
	eq.addAll(dReg)
	reach = eq
	eq.addAll(sReg[:ps])
	reach.addAll(sReg)
	eqs := eq
	eqs.addAll(sReg)
	// dim(eq ∩ s) = dim eq + dim s - dim(eq + s), s the span of sReg.
	var s basis
	s.addAll(sReg)
	total := 1 << uint(eq.dim()-q.dim())
	local := 1 << uint(eq.dim()+s.dim()-eqs.dim()-q.dim())
	for h := Lane; h < NumHwDims; h++ {
		dImgs, _ := dst.hwBits(h)
		sImgs, _ := src.hwBits(h)
		for i := range dImgs {
			if !reach.contains(dImgs[i] ^ sImgs[i]) {
				local = 0
			}
		}
	}
	return (total - local) * oddRegisterFactor(dst) * wordFactor(elemBits)
}

// vectorWidth is the number of consecutive values of a lane that hold
// consecutive, aligned elements along dimension dim, up to 128 bits: the
// lowest register digits must select the lowest digits of dim, one each,
// and no other hardware digit may touch those.
func vectorWidth(l *Layout, dim, elemBits int) int {
	// From the limits worked out when l was made (widths that are no
	// power of two are computed each time).
	e := bits.TrailingZeros(uint(elemBits))
	if elemBits != 1<<uint(e) || e >= widthClasses {
		return vectorWidthOf(l, dim, elemBits)
	}
	w := l.widths[dim]
	k := min(int(w.run), widthClasses-e) // 1<<(k+1) <= 128/elemBits
	for ; k > 0 && w.clean>>uint(k)&1 == 0; k-- {
	}
	return 1 << uint(k)
}

// widthClasses is the number of element widths (1, 2, 4, … 64 bits)
// whose vector widths a layout's widthLimits give.
const widthClasses = 7

// widthLimits is what vectorWidth reads of one dimension: run is how
// many of the lowest register digits select the lowest digits of the
// dimension, one each (up to widthClasses); bit k of clean is set when
// no other hardware digit touches the dimension's k lowest digits.
type widthLimits struct {
	run   uint8
	clean uint8
}

func (l *Layout) computeWidths() [MaxRank]widthLimits {
	var ws [MaxRank]widthLimits
	regs := l.m.in.axes[Register].Radices
	for dim := range l.Rank() {
		rad := l.m.out.axes[dim].Radices
		k := 0
		for k < len(regs) && k < len(rad) && regs[k] == 2 && rad[k] == 2 && k < widthClasses {
			img := l.Image(Register, k)
			if len(img) != 1 || img[0] != (DigitRef{dim, k}) {
				break
			}
			k++
		}
		ws[dim].run = uint8(k)
		for j := 1; j <= k; j++ {
			if l.widthClean(dim, j) {
				ws[dim].clean |= 1 << uint(j)
			}
		}
	}
	return ws
}

// widthClean reports whether no hardware digit but the k lowest register
// digits touches the k lowest digits of dimension dim.
func (l *Layout) widthClean(dim, k int) bool {
	var mask uint64
	for _, d := range l.m.out.digits {
		if d.axis == dim && d.pos < k {
			mask |= 1 << uint(d.flat)
		}
	}
	for _, d := range l.m.in.digits {
		if d.radix != 2 || (HwDim(d.axis) == Register && d.pos < k) {
			continue
		}
		if l.m.bitImg[d.flat]&mask != 0 {
			return false
		}
	}
	return true
}

// vectorWidthOf is vectorWidth, computed.
func vectorWidthOf(l *Layout, dim, elemBits int) int {
	limit := max(128/elemBits, 1)
	rad := l.m.out.axes[dim].Radices
	regs := l.m.in.axes[Register].Radices
	k := 0
	for k < len(regs) && k < len(rad) && regs[k] == 2 && rad[k] == 2 && 1<<uint(k+1) <= limit {
		img := l.Image(Register, k)
		if len(img) != 1 || img[0] != (DigitRef{dim, k}) {
			break
		}
		k++
	}
	for ; k > 0; k-- {
		var mask uint64
		for _, d := range l.m.out.digits {
			if d.axis == dim && d.pos < k {
				mask |= 1 << uint(d.flat)
			}
		}
		clean := true
		for _, d := range l.m.in.digits {
			if d.radix != 2 || (HwDim(d.axis) == Register && d.pos < k) {
				continue
			}
			if l.m.bitImg[d.flat]&mask != 0 {
				clean = false
				break
			}
		}
		if clean {
			break
		}
	}
	return 1 << uint(k)
}

// sharedCounts fills in the round trip through shared memory.
func sharedCounts(c *Conversion, src, dst *Layout, elemBits int) {
	bytes := func(n int) int { return (n*elemBits + 7) / 8 }
	c.ScratchBytes = bytes(src.Elements())
	c.StoreBytes = bytes(src.Elements())
	lanes := dst.Size(Lane) * dst.Size(Subgroup) * dst.Size(Block)
	c.LoadBytes = bytes(lanes * distinctPerLane(dst))
	chooseScratch(c, src, dst, func(l *Layout, dim int) int { return vectorWidth(l, dim, elemBits) })
}

// chooseScratch picks the scratch buffer's fastest dimension: the one that
// needs the fewest store and load instructions per lane with the vector
// widths width gives (the last dimension on a tie), and fills in the
// vectors and counts.
func chooseScratch(c *Conversion, src, dst *Layout, width func(l *Layout, dim int) int) {
	best := -1
	for dim := dst.Rank() - 1; dim >= 0; dim-- {
		sv, lv := width(src, dim), width(dst, dim)
		st, ld := ceilDiv(src.Size(Register), sv), ceilDiv(dst.Size(Register), lv)
		if best < 0 || st+ld < c.Stores+c.Loads {
			best = dim
			c.StoreVector, c.LoadVector, c.Stores, c.Loads = sv, lv, st, ld
		}
	}
	c.ScratchOrder = append(make([]int, 0, dst.Rank()), best)
	for d := dst.Rank() - 1; d >= 0; d-- {
		if d != best {
			c.ScratchOrder = append(c.ScratchOrder, d)
		}
	}
}

// distinctPerLane is the number of distinct elements a lane of l holds.
func distinctPerLane(l *Layout) int {
	imgs, _ := l.hwBits(Register)
	var b basis
	b.addAll(imgs)
	return 1 << uint(b.dim()) * oddRegisterFactor(l)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// laneTranspositions counts the register digits of src that dst holds
// in lane digits: dim(S + D) - dim(D), S and D the spans of the two
// layouts' register images (a broadcast register digit, whose image is
// zero, adds nothing). Within a subgroup, where the lane and register
// digits together hold the same elements on both sides, it is the
// number of register-lane transpositions of Triton's decomposition of
// the conversion (getWarpLayoutConvertDecomposition's
// mixedTranspositions, lib/Analysis/Utility.cpp, triton 3.9).
func laneTranspositions(src, dst *Layout) int {
	sReg, _ := src.hwBits(Register)
	dReg, _ := dst.hwBits(Register)
	var d, sd basis
	d.addAll(dReg)
	sd.addAll(dReg)
	sd.addAll(sReg)
	return sd.dim() - d.dim()
}

// LowerShuffles makes c, from src to dst, what t's compiler lowers it to:
// a conversion within a subgroup that moves more register digits into
// lanes than t.ShuffleTranspositions becomes a round trip through shared
// memory. Triton lowers a conversion between lanes of one warp with warp
// shuffles only where its decomposition needs fewer than two
// register-lane transpositions, and through shared memory otherwise
// (cvtNeedsWarpShuffle and cvtNeedsSharedMemory, lib/Analysis/Utility.cpp);
// the flash attention plan of docs/compiled.md that read Q in a
// #ttg.dot_op of kWidth 8 and converted it to kWidth 2 (two
// transpositions) compiled to st.shared.v4 and ldmatrix, not shfl.sync.
func LowerShuffles(c *Conversion, src, dst *Layout, t *Target) {
	if c.Kind != ConvShuffle || t == nil || t.ShuffleTranspositions == 0 || c.Transpositions <= t.ShuffleTranspositions {
		return
	}
	n, most, name := c.Transpositions, t.ShuffleTranspositions, t.Name
	c.Kind, c.Moves, c.Rounds = ConvShared, 0, 0
	sharedCounts(c, src, dst, c.ElemBits)
	c.why = digitWhy{}
	c.reason = func() string {
		return fmt.Sprintf("it moves %d register digits into lanes, and %s's compiler moves at most %d with shuffles", n, name, most)
	}
}
