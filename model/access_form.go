package model

import (
	"math/bits"
	"sync"
)

// Counting shared-memory accesses from the layout's bases instead of its
// elements.
//
// A warp-wide access moves, in instruction k, the element that register k
// of every lane holds. When the placement's address map is GF(2)-linear
// (a power-of-two row stride, no padding, any XOR swizzle) and the
// layout has only binary digits, the address of (lane, register) is
// addr(lane) XOR addr(register): every instruction is the first one's
// addresses XORed with one constant, which permutes the banks and keeps
// which lanes share a word. The wavefronts of one instruction are then a
// rank: the words of one phase form an affine subspace W of GF(2)
// vectors, the banks are its low bits, and every bank it reaches holds
// 2^(dim W - dim bank(W)) of its words (PhaseWavefronts counts the
// busiest bank).
//
// A padded placement is not GF(2)-linear, but it is additive: the offset
// of i + j is offset(i) + offset(j) whenever i and j share no digit of
// the tensor coordinates. Where the registers' digits share none with the
// lanes' and subgroups', the addresses of instruction k are the first
// instruction's moved by offset(register k), and moving an access by a
// multiple of the bank width rotates the banks without changing the
// count. So an instruction's count depends only on its offset modulo the
// bank width: a few instructions are counted, not every one.
//
// Everything else (repetition digits against a swizzle, sub-byte
// elements, padding that splits a digit) is counted element by element,
// and the tests hold every count here equal to that walk.

// accessCheck, when set, is given every access counted from bases with
// the element walk's count of the same access (CrossCheckAccesses).
var accessCheck func(fromBases, walked Access, what func() string)

// CrossCheckAccesses makes every shared-memory access counted from the
// layout's bases also be counted element by element, and calls check
// with both counts and a description of the access. It returns the
// function that turns the check off again. Tests use it to hold the
// counts from bases to the walk on every access a solve prices; it makes
// counting as slow as the walk, and must not run beside another solve.
// The solve counts on several goroutines; check is called by one at a
// time.
func CrossCheckAccesses(check func(fromBases, walked Access, what string)) (stop func()) {
	var mu sync.Mutex
	accessCheck = func(a, w Access, what func() string) {
		text := what()
		mu.Lock()
		defer mu.Unlock()
		check(a, w, text)
	}
	return func() { accessCheck = nil }
}

// addressForm says how a placement's element offsets combine.
type addressForm int

const (
	formWalk     addressForm = iota // neither: count element by element
	formXOR                         // GF(2)-linear in the index bits
	formAdditive                    // additive over digit-disjoint indices
)

// accessForm is the form of placement s's offsets for the elements of
// layout l (whose digits decide whether row padding splits one).
func (s *SharedLayout) accessForm(l *Layout) addressForm {
	if l.Rank() != 2 || !wholeBytes(s.ElemBits) || !s.rowMajor() {
		return formWalk
	}
	if s.swizzle().Bits > 0 {
		if !s.swizzleLinear() || !l.binary() {
			return formWalk
		}
		return formXOR
	}
	if s.Pad == 0 || s.PadEvery == 0 || padsWholeDigits(l.DimRadices(0), s.PadEvery) {
		return formAdditive
	}
	return formWalk
}

// swizzleLinear reports whether a swizzled placement's offsets are
// GF(2)-linear in the index bits: rows a power of two elements apart and
// at least a row wide (so row and column bits do not meet), no padding,
// and a swizzle that moves whole elements.
func (s *SharedLayout) swizzleLinear() bool {
	stride := s.stride()
	return isPow2(stride) && stride >= s.Cols && (s.Pad == 0 || s.PadEvery == 0) &&
		s.swizzle().Base >= bits.TrailingZeros(uint(s.ElemBits/8))
}

// wholeBytes reports whether elements of this width have power-of-two
// byte sizes, so that byte addresses keep the offsets' structure.
func wholeBytes(elemBits int) bool { return elemBits >= 8 && isPow2(elemBits) }

// padsWholeDigits reports whether padding after every `every` rows is
// additive over the row digits: every is a power of two and the digits
// below it are binary (or the rows end before it), so that row i / every
// is the value of the digits above.
func padsWholeDigits(rows Radices, every int) bool {
	if !isPow2(every) {
		return false
	}
	place := 1
	for _, r := range rows {
		if place >= every {
			return place == every
		}
		if r != 2 {
			return rows.Size() <= every
		}
		place *= r
	}
	return true
}

// binary reports whether the layout has no repetition digits.
func (l *Layout) binary() bool { return l.m.in.nOdd == 0 && l.m.out.nOdd == 0 }

// axisBits is the union of the output bits that the binary digits of
// hardware axis h reach.
func (l *Layout) axisBits(h HwDim) uint64 {
	var u uint64
	imgs, _ := l.hwBits(h)
	for _, img := range imgs {
		u |= img
	}
	return u
}

// registersApart reports whether the registers' images share no bit with
// the lanes' and subgroups' images: the element of (register, lane,
// subgroup) is then the sum of the register's and the lane's and
// subgroup's elements.
func (l *Layout) registersApart() bool {
	return l.axisBits(Register)&(l.axisBits(Lane)|l.axisBits(Subgroup)) == 0
}

// axisIndexes is the element of every point along hardware axis h
// (Register or Lane) of subgroup sub, the other axes at zero, kept once
// computed.
func (tb *layoutTables) axisIndexes(h HwDim, sub int) [][]int {
	l := tb.l
	a := 0
	if h == Lane {
		a = 1
	}
	if idx, ok := tb.axisIdx[a].get(sub); ok {
		return idx
	}
	idx := make([][]int, l.Size(h))
	for i := range idx {
		p := HwPoint{Subgroup: sub}
		if h == Register {
			p.Value = i
		} else {
			p.Lane = i
		}
		idx[i] = l.Index(p)
	}
	tb.axisIdx[a].put(sub, idx)
	return idx
}

// offsetsOf lists offset(index) of every point along hardware axis h
// (the others at zero) of subgroup sub: from the bits' offsets bo in a
// binary layout, else from each point's element.
func (tb *layoutTables) offsetsOf(h HwDim, sub int, offset func(idx []int) int, bo *bitOffsets) []int {
	l := tb.l
	if bo == nil {
		idx := tb.axisIndexes(h, sub)
		out := make([]int, len(idx))
		for i, x := range idx {
			out[i] = offset(x)
		}
		return out
	}
	imgs, _ := l.hwBits(h)
	v, _ := l.m.in.point(HwPoint{Subgroup: sub}.coords())
	base := l.m.applyBits(v)
	out := make([]int, l.Size(h))
	for i := range out {
		x := base
		for b, img := range imgs {
			if i>>uint(b)&1 == 1 {
				x ^= img
			}
		}
		out[i] = bo.of(x)
	}
	return out
}

// bitOffsets is the offset of every output bit of a binary layout, under
// a GF(2)-linear or additive form: the offset of an element is then the
// XOR or the sum of its bits' offsets.
type bitOffsets struct {
	unit []int
	xor  bool
}

func (l *Layout) bitOffsets(offset func(idx []int) int, form addressForm) *bitOffsets {
	bo := &bitOffsets{unit: make([]int, l.m.out.nBits), xor: form == formXOR}
	at := make([]int, len(l.shape))
	for _, d := range l.m.out.digits {
		at[d.axis] = d.place
		bo.unit[d.flat] = offset(at)
		at[d.axis] = 0
	}
	return bo
}

// of is the offset of the element whose output bits are x.
func (bo bitOffsets) of(x uint64) int {
	o := 0
	for ; x != 0; x &= x - 1 {
		if u := bo.unit[bits.TrailingZeros64(x)]; bo.xor {
			o ^= u
		} else {
			o += u
		}
	}
	return o
}

// combine is the offset of two disjoint parts of an element.
func (ro registerOffsets) combine(a, b int) int {
	if ro.xor {
		return a ^ b
	}
	return a + b
}

// registerOffsets is where lane 0 of subgroup 0 finds each register's
// element: per register digit where the offset of register k combines
// its digits' offsets (always under a GF(2)-linear form; under an
// additive one when the digits' images are disjoint), else listed.
type registerOffsets struct {
	digits []int // offset of each register digit, or nil
	list   []int // every register's offset, when digits is nil
	xor    bool  // digits' offsets combine by XOR, else by sum
}

// registerOffsets finds the registers' offsets from the bits' offsets bo
// (nil: the layout is not binary).
func (tb *layoutTables) registerOffsets(offset func(idx []int) int, bo *bitOffsets) registerOffsets {
	l := tb.l
	if bo == nil {
		return registerOffsets{list: tb.offsetsOf(Register, 0, offset, nil)}
	}
	ro := registerOffsets{xor: bo.xor, digits: []int{}}
	var seen uint64
	imgs, _ := l.hwBits(Register)
	for _, img := range imgs {
		if !bo.xor && seen&img != 0 {
			return registerOffsets{list: tb.offsetsOf(Register, 0, offset, bo), xor: bo.xor}
		}
		seen |= img
		ro.digits = append(ro.digits, bo.of(img))
	}
	return ro
}

// contiguous reports whether every group of vector registers (vector a
// power of two) lies at consecutive offsets.
func (ro registerOffsets) contiguous(vector int) bool {
	if ro.digits != nil {
		for b := 0; 1<<uint(b) < vector; b++ {
			if ro.digits[b] != 1<<uint(b) {
				return false
			}
		}
		return true
	}
	for k := 0; k+vector <= len(ro.list); k += vector {
		for m := 1; m < vector; m++ {
			if ro.list[k+m] != ro.list[k]+m {
				return false
			}
		}
	}
	return true
}

// starts counts the groups of vector registers by the offset, modulo
// mod (a power of two where the digits give the offsets), at which they
// start: starts[r] groups start at
// residue r.
func (ro registerOffsets) starts(vector, mod int) []int {
	h := make([]int, mod)
	if ro.digits == nil {
		for k := 0; k < len(ro.list); k += vector {
			h[ro.list[k]%mod]++
		}
		return h
	}
	h[0] = 1
	next := make([]int, mod)
	for b := bits.TrailingZeros(uint(vector)); b < len(ro.digits); b++ {
		clear(next)
		for r, n := range h {
			if n > 0 {
				next[r] += n
				next[ro.combine(r, ro.digits[b])&(mod-1)] += n
			}
		}
		h, next = next, h
	}
	return h
}

// bankGeometry is the target's banks and bank width, defaulting as
// PhaseWavefronts does.
func bankGeometry(t *Target) (banks, bankBytes int) {
	banks, bankBytes = t.Banks, t.BankBytes
	if banks <= 0 || bankBytes <= 0 {
		banks, bankBytes = 32, 4
	}
	return banks, bankBytes
}

// phaseWords is the number of wavefronts one phase of a GF(2)-linear
// access takes: its lanes' byte-address images gen (one per lane bit the
// phase spans), each lane moving width bytes from a width-aligned
// address. The words a phase touches are span(gen >> bank bits) plus the
// words within one lane's width; each bank reached holds 2^(dim W -
// dim bank(W)) of them.
func phaseWords(gen []uint64, width, banks, bankBytes int) int {
	shift := bits.TrailingZeros(uint(bankBytes))
	w := &span{}
	for _, g := range gen {
		w.add(g >> uint(shift))
	}
	for t := 1; t < width/bankBytes; t <<= 1 {
		w.add(uint64(t))
	}
	bank := &span{}
	mask := uint64(banks - 1)
	for _, r := range w.rows {
		bank.add(r & mask)
	}
	return 1 << uint(w.dim()-bank.dim())
}

// accessVectorsByForm is accessVectors counted from the layout's bases
// where the placement's form allows it; false where it does not.
func accessVectorsByForm(tb *layoutTables, vector, elemBits int, offset func(idx []int) int, form addressForm, t *Target, subs []int) (Access, bool) {
	l := tb.l
	banks, bankBytes := bankGeometry(t)
	if form == formWalk || !isPow2(banks) || !isPow2(bankBytes) || !wholeBytes(elemBits) {
		return Access{}, false
	}
	if form == formXOR && !l.binary() || form == formAdditive && !l.registersApart() {
		return Access{}, false
	}
	regs, lanes := l.Size(Register), l.Size(Lane)
	bytes := elemBits / 8
	var bo *bitOffsets
	if l.binary() {
		bo = l.bitOffsets(offset, form)
	}
	ro := tb.registerOffsets(offset, bo)
	laneOff := make([][]int, len(subs))
	for i, sub := range subs {
		laneOff[i] = tb.offsetsOf(Lane, sub, offset, bo)
	}
	vector = max(1, min(vector, regs))
	for vector > 1 && !keepsVectorsByForm(ro, laneOff, vector, form) {
		vector /= 2
	}
	width := vector * bytes
	a := Access{Vector: vector, Bytes: width}
	a.Instructions = ceilDiv(regs, vector)
	a.Ideal = a.Instructions * idealWavefronts(lanes, width, t)
	per := max(1, banks*bankBytes/max(width, bankBytes))
	if form == formXOR { // a binary layout: lanes a power of two
		// Every instruction of every subgroup is the first one's
		// addresses XORed with a width-aligned constant.
		var gen []uint64
		for b := 1; b < min(per, lanes); b <<= 1 {
			gen = append(gen, uint64(laneOff[0][b]*bytes))
		}
		a.Wavefronts = a.Instructions * ceilDiv(lanes, per) * phaseWords(gen, width, banks, bankBytes)
		return a, true
	}
	// Additive: instruction k is the first moved by the offset of its
	// registers; count each residue of the move modulo the bank width
	// once per subgroup.
	starts := ro.starts(vector, bankBytes)
	var busiest Access
	for i := range subs {
		first := make([]int, lanes)
		for lane, o := range laneOff[i] {
			first[lane] = o * bytes
		}
		moved := newMovedCounter(t, first, width)
		b := a
		for r, n := range starts {
			if n > 0 {
				b.Wavefronts += n * moved.count(r*bytes)
			}
		}
		moved.release()
		if i == 0 || b.Wavefronts > busiest.Wavefronts {
			busiest = b
		}
	}
	return busiest, true
}

// movedCounter counts the wavefronts of one instruction's byte addresses
// moved by any offset: moving by a multiple of the bank width only
// rotates the banks, so each residue of the move is counted once.
type movedCounter struct {
	bc        *bankCounter
	first     []int
	width     int
	bankBytes int
	addrs     []int
	counted   []int // by residue of the move: the wavefronts + 1, 0 until counted
}

func newMovedCounter(t *Target, first []int, width int) *movedCounter {
	_, bankBytes := bankGeometry(t)
	return &movedCounter{bc: newBankCounter(t), first: first, width: width, bankBytes: bankBytes,
		addrs: make([]int, len(first)), counted: make([]int, bankBytes)}
}

// release gives the counter's bank counter back; the counter is not used
// after.
func (m *movedCounter) release() { m.bc.release() }

// count is the wavefronts of the first addresses moved by move bytes.
func (m *movedCounter) count(move int) int {
	r := move % m.bankBytes
	if r < 0 {
		r += m.bankBytes
	}
	if m.counted[r] == 0 {
		for i, a := range m.first {
			m.addrs[i] = a + r
		}
		m.counted[r] = m.bc.wavefronts(m.addrs, m.width) + 1
	}
	return m.counted[r] - 1
}

// keepsVectorsByForm is keepsVectors from the offsets of the registers
// (lane 0, subgroup 0) and of the lanes (register 0) of each subgroup:
// every group of vector registers must lie at consecutive offsets, and
// every lane's group must start vector-aligned: the offset of (lane,
// group) combines the lane's and the group's, so every combination of
// their residues must be aligned.
func keepsVectorsByForm(ro registerOffsets, laneOff [][]int, vector int, form addressForm) bool {
	if !ro.contiguous(vector) {
		return false
	}
	starts := ro.starts(vector, vector)
	for _, lo := range laneOff {
		for _, o := range lo {
			for r, n := range starts {
				if n > 0 && (form == formXOR && (o^r)%vector != 0 || form == formAdditive && (o+r)%vector != 0) {
					return false
				}
			}
		}
	}
	return true
}

// rowsForm is the form of placement s's row addresses for a row-pointer
// access of blocks of rows rows: the layout's digits do not matter (a
// block's rows are literal rows), but rows and any padding period must be
// powers of two so that a block's first row and its other rows add up.
func (s *SharedLayout) rowsForm(rows, cols int) addressForm {
	if !wholeBytes(s.ElemBits) || !isPow2(rows) || !isPow2(cols) || !s.rowMajor() {
		return formWalk
	}
	if s.swizzle().Bits > 0 {
		if !s.swizzleLinear() {
			return formWalk
		}
		return formXOR
	}
	if s.Pad == 0 || s.PadEvery == 0 || isPow2(s.PadEvery) {
		return formAdditive
	}
	return formWalk
}

// blocksHeld lists the blocks of rows x cols elements (as block row and
// block column) that subgroup sub holds in a binary layout: the blocks
// are the projection of the subgroup's elements, an affine subspace
// spanned by the registers' and lanes' images.
func (l *Layout) blocksHeld(rows, cols, sub int) [][2]int {
	// The output bits at or above the block size of each dimension.
	var keep uint64
	for _, d := range l.m.out.digits {
		if d.axis == 0 && d.place >= rows || d.axis == 1 && d.place >= cols {
			keep |= 1 << uint(d.flat)
		}
	}
	gens := &span{}
	for _, d := range l.m.in.digits {
		if d.axis == int(Register) || d.axis == int(Lane) {
			gens.add(l.m.bitImg[d.flat] & keep)
		}
	}
	v, _ := l.m.in.point(HwPoint{Subgroup: sub}.coords())
	base := l.m.applyBits(v) & keep
	out := make([][2]int, 0, 1<<uint(gens.dim()))
	for c := 0; c < 1<<uint(gens.dim()); c++ {
		x := base
		for i, r := range gens.rows {
			if c>>uint(i)&1 == 1 {
				x ^= r
			}
		}
		idx := l.m.out.coords(x, nil)
		out = append(out, [2]int{idx[0] / rows, idx[1] / cols})
	}
	return out
}

// accessRowsByForm is AccessRows counted from the layout's bases where
// the placement's form allows it; false where it does not.
func (s *SharedLayout) accessRowsByForm(l *Layout, rowsPerPhase, rowBytes int, t *Target, subs []int) (Access, bool) {
	banks, bankBytes := bankGeometry(t)
	cols := max(1, rowBytes*8/s.ElemBits)
	form := s.rowsForm(rowsPerPhase, cols)
	if form == formWalk || !l.binary() || l.Rank() != 2 || !isPow2(banks) || !isPow2(bankBytes) || !isPow2(rowBytes) {
		return Access{}, false
	}
	per := max(1, banks*bankBytes/max(rowBytes, bankBytes))
	rowOff := make([]int, rowsPerPhase)
	for i := range rowOff {
		rowOff[i] = s.ByteOffset(i, 0)
	}
	var busiest Access
	for n, sub := range subs {
		blocks := l.blocksHeld(rowsPerPhase, cols, sub)
		a := Access{Vector: cols, Bytes: rowBytes, Instructions: len(blocks)}
		a.Ideal = len(blocks) * idealWavefronts(rowsPerPhase, rowBytes, t)
		if form == formXOR {
			// Every block's rows are the first block's XORed with its
			// first row's address; all must start rowBytes-aligned.
			var gen []uint64
			for b := 1; b < rowsPerPhase; b <<= 1 {
				if rowOff[b]%rowBytes != 0 {
					return Access{}, false
				}
				if b < per {
					gen = append(gen, uint64(rowOff[b]))
				}
			}
			for _, b := range blocks {
				if s.ByteOffset(b[0]*rowsPerPhase, b[1]*cols)%rowBytes != 0 {
					return Access{}, false
				}
			}
			a.Wavefronts = len(blocks) * ceilDiv(rowsPerPhase, per) * phaseWords(gen, rowBytes, banks, bankBytes)
		} else {
			moved := newMovedCounter(t, rowOff, rowBytes)
			for _, b := range blocks {
				a.Wavefronts += moved.count(s.ByteOffset(b[0]*rowsPerPhase, b[1]*cols))
			}
			moved.release()
		}
		if n == 0 || a.Wavefronts > busiest.Wavefronts {
			busiest = a
		}
	}
	return busiest, true
}

// scratchForm is the form of a conversion's scratch offsets: a sum of
// index times stride per dimension, additive for whole-byte elements.
func scratchForm(elemBits int) addressForm {
	if wholeBytes(elemBits) {
		return formAdditive
	}
	return formWalk
}
