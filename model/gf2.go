package model

import "math/bits"

// span is a subspace of GF(2)^64 in fully reduced echelon form: every row has
// a distinct pivot (its highest set bit) and no other row has that bit set.
// Each row remembers which of the generators added so far sum to it, so the
// span can also solve "which generators give v".
type span struct {
	rows  []uint64
	combo []uint64 // combo[i]: generators (by insertion order) whose sum is rows[i]
	n     int      // generators added
}

// add inserts generator number s.n and reports whether it was independent of
// the generators before it.
func (s *span) add(v uint64) bool {
	c := uint64(1) << uint(s.n)
	s.n++
	v, cc := s.reduce(v)
	c ^= cc
	if v == 0 {
		return false
	}
	p := uint64(1) << uint(63-bits.LeadingZeros64(v))
	for i, r := range s.rows {
		if r&p != 0 {
			s.rows[i] ^= v
			s.combo[i] ^= c
		}
	}
	s.rows = append(s.rows, v)
	s.combo = append(s.combo, c)
	return true
}

// reduce returns the smallest element of v + span and the generators whose
// sum was added to v to reach it.
func (s *span) reduce(v uint64) (uint64, uint64) {
	var c uint64
	for i, r := range s.rows {
		p := uint64(1) << uint(63-bits.LeadingZeros64(r))
		if v&p != 0 {
			v ^= r
			c ^= s.combo[i]
		}
	}
	return v, c
}

func (s *span) contains(v uint64) bool {
	r, _ := s.reduce(v)
	return r == 0
}

// dim is the dimension of the span.
func (s *span) dim() int { return len(s.rows) }

// newSpan is an empty span with room for n rows.
func newSpan(n int) *span {
	return &span{rows: make([]uint64, 0, n), combo: make([]uint64, 0, n)}
}

// spanOf builds the span of vs, generators numbered in order.
func spanOf(vs ...uint64) *span {
	s := newSpan(len(vs))
	for _, v := range vs {
		s.add(v)
	}
	return s
}

func parity(v uint64) int { return bits.OnesCount64(v) & 1 }

// basis is a subspace of GF(2)^64 for membership and dimension questions
// only, held by value (no generator bookkeeping, no allocation): the
// conversion analysis asks them of every pair of candidate layouts.
type basis struct {
	rows [64]uint64 // rows[:n], echelon: distinct pivots (highest set bits)
	n    int
}

// add inserts v and reports whether it was independent of the rows.
func (b *basis) add(v uint64) bool {
	v = b.reduce(v)
	if v == 0 {
		return false
	}
	b.rows[b.n] = v
	b.n++
	return true
}

// addAll inserts every vector of vs.
func (b *basis) addAll(vs []uint64) {
	for _, v := range vs {
		b.add(v)
	}
}

// reduce is v less every row whose pivot it holds, zero exactly when v
// is in the span. A row was reduced by the rows before it when it was
// added, so it holds none of their pivots: one pass in insertion order
// clears every pivot.
func (b *basis) reduce(v uint64) uint64 {
	for _, r := range b.rows[:b.n] {
		if v&(uint64(1)<<uint(63-bits.LeadingZeros64(r))) != 0 {
			v ^= r
		}
	}
	return v
}

func (b *basis) contains(v uint64) bool { return b.reduce(v) == 0 }

func (b *basis) dim() int { return b.n }
