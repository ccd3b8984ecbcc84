package model

// A conversion's round trip through shared memory may read (or write) its
// scratch with a row-pointer record (ldmatrix, stmatrix) in place of plain
// vector accesses, as Triton lowers a layout conversion where the layouts
// allow it: ldmatrix (with .trans where the destination holds its elements
// across the scratch's rows) for the load, stmatrix on sm_90 for the store
// (triton-lang/triton, lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp
// and third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ConvertLayoutOpToLLVM.cpp,
// which try the ldmatrix/stmatrix lowering before the generic swizzled
// round trip; the compiled flash attention and transpose kernels of
// docs/compiled.md show ldmatrix.x4.trans reading a conversion's scratch).
//
// Which layouts a record serves is read from its fragment, never from its
// name: the fragment is one matrix of 8 rows (dimension 0, each row a
// RowBytes-long run of the scratch, at an address of its own) by the
// elements of a row (dimension 1). A layout fits when, for some choice of
// its registers, each of the fragment's register and lane digits that
// selects an element within a row is the layout's digit of the same place
// in the row, and the digits that select a row pick distinct rows: digits
// off the row, jointly independent. The remaining register digits pick
// the record's matrices.
//
// The tensor digits a row runs along (ScratchRow) need not be the lowest
// digits of one dimension. Triton 3.9 lays its conversion scratch out as
// a linear layout whose 16-byte units take whichever tensor digits the
// two sides' vectors share (lib/Tools/GenericSwizzling.cpp,
// optimalSwizzling; ConvertLayoutOpToLLVM.cpp, transferWithinBlockSwizzling),
// so that a transpose between two blocked layouts is stored in 16-byte
// vectors gathered from several of a lane's registers by byte permutes and
// read back with ldmatrix.trans: the compiled transpose of docs/compiled.md
// (testdata/triton/transpose_sm80) is 16 prmt.b32, 4 st.shared.v4.b32 and
// 4 ldmatrix.sync.aligned.m8n8.x4.trans per lane. A plain side whose
// vectors are not whole words of its registers pays those permutes as
// moves.

// rowAccess is one side of a round trip done with a row-pointer record.
type rowAccess struct {
	record *Record
	access Access
}

// scratchSide is one side of a round trip priced against a row: the
// access, the row-pointer record it uses ("" for plain vectors) and the
// byte permutes (prmt) a lane spends assembling or taking apart its
// vectors' words.
type scratchSide struct {
	access Access
	record string
	moves  int
}

func (s scratchSide) cost(t *Target) int64 {
	return vectorAccessCost(s.access, t) + int64(s.moves)*t.Weights.Move
}

// rowRecords are the target's row-pointer records of kind k whose
// fragment has the element width given.
func rowRecords(t *Target, k RecordKind, elemBits int) []*Record {
	var out []*Record
	for _, r := range t.ScratchRows {
		if r.Kind == k && r.Fragment != nil && r.Fragment.DType.Bits == elemBits {
			out = append(out, r)
		}
	}
	return out
}

// rowLength is the number of binary digits of a row of r's fragment
// (dimension 1), 0 where r is no row-pointer record.
func rowLength(r *Record) int {
	frag := r.Fragment.Layout
	if frag == nil || frag.Rank() != 2 || r.Memory.Rule != "row_pointers" {
		return 0
	}
	n := 0
	for _, d := range frag.m.out.digits {
		if d.axis == 1 {
			n++
		}
	}
	return n
}

// digitImage is l's image of tensor digit d: the flat bit of its binary
// digit, 0 where l has none.
func digitImage(l *Layout, d DigitRef) uint64 {
	for _, o := range l.m.out.digits {
		if o.axis == d.Axis && o.pos == d.Digit && o.radix == 2 {
			return 1 << uint(o.flat)
		}
	}
	return 0
}

// imageDigit is the tensor digit whose flat bit is img, false where img
// is not one binary digit of l.
func imageDigit(l *Layout, img uint64) (DigitRef, bool) {
	for _, o := range l.m.out.digits {
		if o.radix == 2 && img == 1<<uint(o.flat) {
			return DigitRef{o.axis, o.pos}, true
		}
	}
	return DigitRef{}, false
}

// rowImages is l's images of row's digits, false where one has none.
func rowImages(l *Layout, row []DigitRef) ([]uint64, bool) {
	out := make([]uint64, len(row))
	for i, d := range row {
		if out[i] = digitImage(l, d); out[i] == 0 {
			return nil, false
		}
	}
	return out, true
}

// rowFit says how many instructions a lane of l needs to move its
// registers through record r when a row of the scratch runs along the
// tensor digits row, lowest first, and whether r fits l at all.
func rowFit(l *Layout, row []DigitRef, r *Record) (instructions int, ok bool) {
	frag := r.Fragment.Layout
	if rowLength(r) != len(row) || !l.Radices(Lane).IsPow2() || !l.Radices(Register).IsPow2() {
		return 0, false
	}
	within, ok := rowImages(l, row) // l's image of place c of a row
	if !ok {
		return 0, false
	}
	var rowMask uint64
	for _, w := range within {
		rowMask |= w
	}
	fr, _ := frag.hwBits(Register)
	fl, _ := frag.hwBits(Lane)
	lr, _ := l.hwBits(Register)
	ll, _ := l.hwBits(Lane)
	if len(fl) != len(ll) || len(fr) > len(lr) {
		return 0, false
	}
	rows := &basis{}
	// need checks one digit of l against the fragment digit img selects.
	need := func(img, have uint64) bool {
		for _, d := range frag.m.out.digits {
			if img != 1<<uint(d.flat) {
				continue
			}
			if d.axis == 1 {
				return have == within[d.pos]
			}
			return have != 0 && have&rowMask == 0 && rows.add(have)
		}
		return false
	}
	for i, img := range fl {
		if !need(img, ll[i]) {
			return 0, false
		}
	}
	used := make([]bool, len(lr))
	for _, img := range fr {
		found := false
		for j, have := range lr {
			if used[j] {
				continue
			}
			snapshot := *rows
			if need(img, have) {
				used[j], found = true, true
				break
			}
			*rows = snapshot
		}
		if !found {
			return 0, false
		}
	}
	per := frag.Size(Register) * max(r.Matrices, 1)
	return ceilDiv(distinctPerLane(l), per), true
}

// rowSide prices moving l's registers through the best row-pointer
// record of kind k that fits it with rows along row: every instruction
// moves its matrices' rows, one wavefront per Banks × BankBytes bytes,
// assumed free of bank conflicts (Triton swizzles the scratch of an
// ldmatrix/stmatrix conversion for that: its getSharedLayout/optimalSwizzling
// in lib/Tools/GenericSwizzling.cpp).
func rowSide(l *Layout, row []DigitRef, elemBits int, k RecordKind, t *Target) (rowAccess, bool) {
	var best rowAccess
	found := false
	for _, r := range rowRecords(t, k, elemBits) {
		n, ok := rowFit(l, row, r)
		if !ok {
			continue
		}
		rowsPer := r.Fragment.Layout.shape[0]
		waves := ceilDiv(rowsPer*r.Memory.RowBytes, max(t.Banks*t.BankBytes, 1)) * max(r.Matrices, 1)
		a := Access{Instructions: n, Wavefronts: n * waves, Ideal: n * waves,
			Bytes: r.Fragment.Layout.Size(Register) * max(r.Matrices, 1) * elemBits / 8}
		a.Vector = a.Bytes * 8 / elemBits
		if !found || vectorAccessCost(a, t) < vectorAccessCost(best.access, t) {
			best, found = rowAccess{r, a}, true
		}
	}
	return best, found
}

// plainSide prices plain vector accesses of l through a scratch whose
// rows run along row, free of bank conflicts (the swizzled scratch a
// row-pointer side shares with them): a vector is the longest start of
// the row that l holds in a lane's registers, each of its digits a
// register digit of l that no other hardware digit touches. Where the
// vector's 32-bit words are not words of l's registers (elements packed
// two or four a word along l's lowest register digits), each word is
// assembled from, or taken apart into, the words that hold its elements:
// one byte permute per pair of source words, at least one.
func plainSide(l *Layout, row []DigitRef, elemBits int, t *Target) (Access, int) {
	within, _ := rowImages(l, row)
	lr, _ := l.hwBits(Register)
	var others []uint64 // every hardware digit's image but the registers a row digit is
	for h := range NumHwDims {
		imgs, _ := l.hwBits(HwDim(h))
		for _, img := range imgs {
			if HwDim(h) != Register || !slicesContains(within, img) {
				others = append(others, img)
			}
		}
	}
	regOf := func(img uint64) int {
		for j, have := range lr {
			if have == img {
				return j
			}
		}
		return -1
	}
	k := 0
	var mask uint64
	for k < len(within) && within[k] != 0 && regOf(within[k]) >= 0 {
		m := mask | within[k]
		clean := true
		for _, o := range others {
			if o&m != 0 {
				clean = false
				break
			}
		}
		if !clean {
			break
		}
		mask = m
		k++
	}
	v := 1 << uint(k)
	n := ceilDiv(l.Size(Register), v)
	w := int(wavefronts(t, l.Size(Lane), v*elemBits/8))
	a := Access{Instructions: n, Wavefronts: n * w, Ideal: n * w, Vector: v, Bytes: v * elemBits / 8}
	return a, packMoves(within[:k], lr, n, v, elemBits)
}

// packMoves counts the byte permutes n vectors of v elements need where
// a 32-bit word of the vector holds the elements of the row's lowest
// digits (vector) and a word of the layout's registers those of its
// lowest register digits (regs): none where they agree digit for digit.
func packMoves(vector, regs []uint64, n, v, elemBits int) int {
	per := 0
	for 1<<uint(per+1)*elemBits <= 32 {
		per++ // digits of a word
	}
	if per == 0 || len(vector) < per || len(regs) < per {
		return 0
	}
	sources, intact := 1, true
	for i, img := range vector[:per] {
		if img != regs[i] {
			intact = false
		}
		if !slicesContains(regs[:per], img) {
			sources *= 2
		}
	}
	if intact {
		return 0
	}
	words := n * v * elemBits / 32
	return words * max(sources-1, 1)
}

func slicesContains(s []uint64, x uint64) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// scratchRowCandidate is a layout of the scratch to price: its rows run
// along row, the rest of each dimension follows in order, fastest first.
type scratchRowCandidate struct {
	row   []DigitRef
	order []int
	along bool // row is the lowest digits of order[0]: a row-major scratch
}

// scratchRowCandidates are the scratch layouts a round trip from src to
// dst is priced in: for each row length of the target's row-pointer
// records, rows along the lowest digits of each dimension, and rows along
// the digits a record's within-row fragment digits take in either layout
// (the transposing round trip Triton lowers with ldmatrix.trans after
// permuted vector stores).
func scratchRowCandidates(src, dst *Layout, elemBits int, t *Target, cache *AccessCache) []scratchRowCandidate {
	var out []scratchRowCandidate
	seen := map[string]bool{}
	add := func(c scratchRowCandidate) {
		key := fmtDigits(c.row)
		if !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	rank := dst.Rank()
	orderFrom := func(fast int) []int {
		order := []int{fast}
		for d := rank - 1; d >= 0; d-- {
			if d != fast {
				order = append(order, d)
			}
		}
		return order
	}
	lengths := map[int]bool{}
	var recs []*Record
	for _, k := range []RecordKind{RecordLoadShared, RecordStoreShared} {
		recs = append(recs, rowRecords(t, k, elemBits)...)
	}
	for _, r := range recs {
		if n := rowLength(r); n > 0 {
			lengths[n] = true
		}
	}
	for fast := rank - 1; fast >= 0; fast-- {
		for n := range maxRowLength(lengths) + 1 {
			if !lengths[n] || !dst.DimRadices(fast).IsPow2() || !src.DimRadices(fast).IsPow2() {
				continue
			}
			row := make([]DigitRef, n)
			for i := range row {
				row[i] = DigitRef{fast, i}
			}
			add(scratchRowCandidate{row, orderFrom(fast), true})
		}
	}
	for d := range rank {
		if !dst.DimRadices(d).IsPow2() || !src.DimRadices(d).IsPow2() {
			return out // a transposing row is addressed by binary digits
		}
	}
	for _, l := range []*Layout{src, dst} {
		for _, row := range cache.recordRows(l, recs, elemBits) {
			add(scratchRowCandidate{row, orderFrom(rank - 1), false})
		}
	}
	return out
}

// sideKey names one side of a round trip through rows along row.
type sideKey struct {
	layout   *Layout // the solver's layouts are one copy each
	row      string  // fmtDigits
	kind     RecordKind
	elemBits int
}

type layoutRowsKey struct {
	layout   *Layout
	elemBits int
}

// recordRows are the rows the records' fragments give l (recordRow),
// worked out once per layout.
func (c *AccessCache) recordRows(l *Layout, recs []*Record, elemBits int) [][]DigitRef {
	return c.shared.rows.getOrPut(layoutRowsKey{l, elemBits}, func() [][]DigitRef {
		var out [][]DigitRef
		for _, r := range recs {
			if row, ok := recordRow(l, r); ok {
				out = append(out, row)
			}
		}
		return out
	})
}

// side is bestScratchSide, worked out once per layout, row and kind.
func (c *AccessCache) side(l *Layout, row []DigitRef, elemBits int, k RecordKind, t *Target) scratchSide {
	key := sideKey{l, fmtDigits(row), k, elemBits}
	if s, ok := c.shared.sides.get(key); ok {
		return s
	}
	s := bestScratchSide(l, row, elemBits, k, t)
	c.shared.sides.put(key, s)
	return s
}

func maxRowLength(lengths map[int]bool) int {
	m := 0
	for n := range lengths {
		m = max(m, n)
	}
	return m
}

func fmtDigits(row []DigitRef) string {
	b := make([]byte, 0, 4*len(row))
	for _, d := range row {
		b = append(b, byte(d.Axis), byte(d.Digit), ',')
	}
	return string(b)
}

// recordRow is the row along which record r's fragment would hold l: the
// tensor digits l's hardware digits take at the fragment's within-row
// places (a lane digit as l's lane digit of the same position, a register
// digit as l's register digit of the same position).
func recordRow(l *Layout, r *Record) ([]DigitRef, bool) {
	n := rowLength(r)
	if n == 0 {
		return nil, false
	}
	frag := r.Fragment.Layout
	row := make([]DigitRef, n)
	set := make([]bool, n)
	for _, h := range []HwDim{Register, Lane} {
		fi, _ := frag.hwBits(h)
		li, _ := l.hwBits(h)
		for i, img := range fi {
			for _, d := range frag.m.out.digits {
				if d.axis != 1 || img != 1<<uint(d.flat) {
					continue
				}
				if i >= len(li) {
					return nil, false
				}
				ref, ok := imageDigit(l, li[i])
				if !ok {
					return nil, false
				}
				row[d.pos], set[d.pos] = ref, true
			}
		}
	}
	for _, s := range set {
		if !s {
			return nil, false
		}
	}
	return row, true
}

// tryScratchRows replaces c's plain round trip (counted by CountScratch)
// with one that reads or writes the scratch with row-pointer records
// where that costs less, choosing the scratch's layout anew.
func tryScratchRows(c *Conversion, src, dst *Layout, t *Target, cache *AccessCache) {
	if len(t.ScratchRows) == 0 || c.ElemBits%8 != 0 {
		return
	}
	cost := vectorAccessCost(c.StoreAccess, t) + vectorAccessCost(c.LoadAccess, t)
	for _, cand := range scratchRowCandidates(src, dst, c.ElemBits, t, cache) {
		store := cache.side(src, cand.row, c.ElemBits, RecordStoreShared, t)
		load := cache.side(dst, cand.row, c.ElemBits, RecordLoadShared, t)
		if store.record == "" && load.record == "" {
			continue
		}
		total := store.cost(t) + load.cost(t)
		if total >= cost {
			continue
		}
		cost = total
		c.ScratchOrder = cand.order // fresh: a copied Conversion shares the old one
		c.ScratchRow = nil
		if !cand.along {
			c.ScratchRow = cand.row
		}
		if c.ScratchPad > 0 {
			c.ScratchBytes = (src.Elements()*c.ElemBits + 7) / 8
		}
		c.ScratchPad = 0
		c.StoreAccess, c.LoadAccess = store.access, load.access
		c.StoreRecord, c.LoadRecord = store.record, load.record
		c.Moves = store.moves + load.moves
		// The data each lane moves, element by element, for the
		// verifier's replay: a row-pointer side is replayed one
		// element at a time (it moves the same elements).
		c.StoreVector, c.Stores = 1, store.access.Instructions
		if store.record == "" {
			c.StoreVector = store.access.Vector
		}
		c.LoadVector, c.Loads = 1, load.access.Instructions
		if load.record == "" {
			c.LoadVector = load.access.Vector
		}
	}
}

// bestScratchSide is the cheaper of plain vectors and the best
// row-pointer record of kind k for l's side of a round trip whose rows
// run along row.
func bestScratchSide(l *Layout, row []DigitRef, elemBits int, k RecordKind, t *Target) scratchSide {
	a, moves := plainSide(l, row, elemBits, t)
	plain := scratchSide{access: a, moves: moves}
	if r, ok := rowSide(l, row, elemBits, k, t); ok {
		if s := (scratchSide{access: r.access, record: r.record.Name}); s.cost(t) < plain.cost(t) {
			return s
		}
	}
	return plain
}
