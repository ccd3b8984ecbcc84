package model

import (
	"fmt"
	"slices"
	"strings"
)

// KOrder renumbers the K index of a dot's operands: bit i of the K
// position the record's fragments, tiled over the dot, give an element
// is bit KOrder[i] of the element's K index in A and in B. The bits
// above len(KOrder), and the odd factor of a K that is not a power of
// two, keep their place. nil is the record's own order.
//
// A dot computes D[m][n] = C[m][n] + Σ_k A[m][k]·B[k][n], and the sum
// does not depend on the order in which k is numbered: where A and B
// hold K renumbered by the same KOrder, each instruction multiplies the
// A and B elements of one k, so the dot is the same. Compilers rely on
// it: Triton's #ttg.dot_op kWidth and IREE's MMA operand layouts hold K
// in orders of their own (IREE's RDNA4 WMMA operands give lanes 0-15 the
// k 0-7 that AMD's tables spread over k 0-3 and 8-11:
// getSingleSubgroupLayout in
// compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/IREEGPUAttrs.cpp of
// iree-org/iree). Only bit permutations are offered: they are the orders
// a lane's registers, its lanes and its subgroups can hold by renaming
// alone, and they cover both compilers' orders.
type KOrder []int

// Identity reports whether o keeps every bit in place.
func (o KOrder) Identity() bool {
	for i, b := range o {
		if b != i {
			return false
		}
	}
	return true
}

// Valid reports whether o is a permutation of the K bits 0 … len(o)-1,
// no more than the binary digits, bits, of a K.
func (o KOrder) Valid(bits int) bool {
	if len(o) > bits {
		return false
	}
	seen := make([]bool, len(o))
	for _, b := range o {
		if b < 0 || b >= len(o) || seen[b] {
			return false
		}
		seen[b] = true
	}
	return true
}

// Index is the K index of the element at record K position p.
func (o KOrder) Index(p int) int {
	return o.move(p, false)
}

// Position is the record K position of the element of K index k.
func (o KOrder) Position(k int) int {
	return o.move(k, true)
}

func (o KOrder) move(x int, back bool) int {
	n := len(o)
	out := x &^ (1<<n - 1)
	for i, b := range o {
		from, to := i, b
		if back {
			from, to = b, i
		}
		if x>>from&1 == 1 {
			out |= 1 << to
		}
	}
	return out
}

// String writes o as the plan's text does: "k bits 0 1 3 2".
func (o KOrder) String() string {
	parts := make([]string, len(o))
	for i, b := range o {
		parts[i] = fmt.Sprint(b)
	}
	return "k bits " + strings.Join(parts, " ")
}

// Words says what o does in words: which K indices the instruction's
// first positions hold ("positions 0-3 hold k 0-3, 4-7 hold k 8-11, …"),
// for plans whose notation cannot write the order.
func (o KOrder) Words() string {
	n := 1 << len(o)
	var parts []string
	for lo := 0; lo < n; {
		hi := lo
		for hi+1 < n && o.Index(hi+1) == o.Index(hi)+1 {
			hi++
		}
		parts = append(parts, fmt.Sprintf("%s hold k %s", kSpan(lo, hi), kSpan(o.Index(lo), o.Index(hi))))
		lo = hi + 1
	}
	return "the record's K positions " + strings.Join(parts, ", ")
}

func kSpan(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// OperandKWidth is how many consecutive K elements each lane holds in
// its lowest registers of A and B under choice ch: its kWidth, the run its
// K order gives the record's fragments (RDNA4's WMMA with k bits 0 1 3 2:
// 8, Triton's kWidth 8 on one instruction along K), or the record's own;
// 0 when A and B disagree.
func (ch *OpChoice) OperandKWidth() int {
	r := ch.Record
	switch {
	case ch.KWidth > 0:
		return ch.KWidth
	case ch.KOrder == nil || r == nil:
		return r.OwnKWidth()
	}
	a, b := r.Operands["a"], r.Operands["b"]
	if a == nil || b == nil || a.Layout == nil || b.Layout == nil || a.Layout.Rank() != 2 || b.Layout.Rank() != 2 {
		return 0
	}
	// The order within one record tile: the bits of the tile's K, which
	// must stay among themselves.
	tile := KBits(a.Layout, 1)
	o := ch.KOrder
	if len(o) > tile {
		o = o[:tile]
	}
	if !o.Valid(tile) {
		return 0
	}
	ra, ea := RenumberK(a.Layout, 1, o)
	rb, eb := RenumberK(b.Layout, 0, o)
	if ea != nil || eb != nil {
		return 0
	}
	wa, wb := consecutive(ra, 1), consecutive(rb, 0)
	if wa != wb {
		return 0
	}
	return wa
}

// KBits is how many binary digits dimension kd of l has below its odd
// factor: the K bits an order may renumber.
func KBits(l *Layout, kd int) int {
	n := 0
	for _, r := range l.DimRadices(kd) {
		if r != 2 {
			break
		}
		n++
	}
	return n
}

// RenumberK is operand layout l (K along dimension kd) with its K
// renumbered by o: the hardware that held record K position p holds K
// index o.Index(p).
func RenumberK(l *Layout, kd int, o KOrder) (*Layout, error) {
	if !o.Valid(KBits(l, kd)) {
		return nil, errorf(CodeBadValue, "k_order", "%v is not a permutation of the K bits of a K of %d", []int(o), l.Shape()[kd])
	}
	return l.remap(dimRadicesOf(l), func(r DigitRef) (DigitRef, bool) {
		if r.Axis == kd && r.Digit < len(o) {
			r.Digit = o[r.Digit]
		}
		return r, true
	})
}

func dimRadicesOf(l *Layout) []Radices {
	dims := make([]Radices, l.Rank())
	for d := range dims {
		dims[d] = l.DimRadices(d)
	}
	return dims
}

// DeriveKOrder finds the order o in which l holds K (dimension kd) where
// frag, a record's fragments tiled over the operand, holds it in the
// record's: l = RenumberK(frag, kd, o). false when l differs from frag in
// anything else, or by more than a permutation of K bits.
func DeriveKOrder(frag, l *Layout, kd int) (KOrder, bool) {
	if frag == nil || l == nil || frag.opaque != "" || l.opaque != "" || !slices.Equal(frag.Shape(), l.Shape()) || kd >= l.Rank() {
		return nil, false
	}
	bits := KBits(frag, kd)
	o := make(KOrder, bits)
	for i := range o {
		o[i] = -1
	}
	used := make([]bool, bits)
	isK := func(r DigitRef) bool { return r.Axis == kd && r.Digit < bits }
	for h := range NumHwDims {
		if !slices.Equal(frag.Radices(h), l.Radices(h)) {
			return nil, false
		}
		for p := range frag.Radices(h) {
			fi, li := frag.Image(h, p), l.Image(h, p)
			fk, fo := splitRefs(fi, isK)
			lk, lo := splitRefs(li, isK)
			if !slices.Equal(fo, lo) || len(fk) != len(lk) || len(fk) > 1 {
				return nil, false
			}
			if len(fk) == 1 {
				f, t := fk[0].Digit, lk[0].Digit
				if o[f] != -1 && o[f] != t || o[f] == -1 && used[t] {
					return nil, false
				}
				o[f], used[t] = t, true
			}
		}
	}
	for i := range o {
		if o[i] == -1 {
			if used[i] {
				return nil, false
			}
			o[i], used[i] = i, true
		}
	}
	got, err := RenumberK(frag, kd, o)
	if err != nil || !got.Equal(l) {
		return nil, false
	}
	return o, true
}

// splitRefs splits an image into the references isK picks and the rest,
// each sorted.
func splitRefs(img Image, isK func(DigitRef) bool) (k, rest []DigitRef) {
	for _, r := range img {
		if isK(r) {
			k = append(k, r)
		} else {
			rest = append(rest, r)
		}
	}
	cmp := func(a, b DigitRef) int {
		if a.Axis != b.Axis {
			return a.Axis - b.Axis
		}
		return a.Digit - b.Digit
	}
	slices.SortFunc(k, cmp)
	slices.SortFunc(rest, cmp)
	return k, rest
}

// LaneContiguousK is the order that numbers the K bits of one record
// tile (recordK wide) as the hardware of operand layout l (K along
// dimension kd) holds them: first the registers' (lowest register
// first), then the lanes', then the subgroups', so that each lane's
// lowest registers hold consecutive k. Offered only where the registers
// holding the tile's K are a lane's lowest ones, so the renumbered lane
// holds one run of consecutive k in consecutive registers, and where the
// order differs from the record's (false otherwise). run is how many
// consecutive k each lane's lowest registers then hold. On RDNA4's WMMA
// it is the order Triton (kWidth 8), IREE and llama.cpp use.
func LaneContiguousK(l *Layout, kd, recordK int) (o KOrder, run int, ok bool) {
	bits := 0
	for 1<<bits < recordK {
		bits++
	}
	if 1<<bits != recordK || bits > KBits(l, kd) {
		return nil, 0, false
	}
	o = make(KOrder, bits)
	next, inRegs := 0, 0
	for h := range NumHwDims {
		for p, r := range l.Radices(h) {
			img := l.Image(h, p)
			if r != 2 || len(img) != 1 || img[0].Axis != kd || img[0].Digit >= bits {
				if h == Register && next < bits && hasTileK(l, kd, bits, p+1) {
					return nil, 0, false // a register above holds tile K: no run
				}
				continue
			}
			o[img[0].Digit] = next
			next++
			if h == Register {
				inRegs++
			}
		}
	}
	if next != bits || o.Identity() {
		return nil, 0, false
	}
	return o, 1 << inRegs, true
}

// hasTileK: some register digit from p up holds one of the lowest bits
// K bits alone.
func hasTileK(l *Layout, kd, bits, p int) bool {
	for ; p < len(l.Radices(Register)); p++ {
		img := l.Image(Register, p)
		if len(img) == 1 && img[0].Axis == kd && img[0].Digit < bits {
			return true
		}
	}
	return false
}
