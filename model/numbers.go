package model

import "math/bits"

// ElementNumbers evaluates the layout at every hardware point at once: the
// row-major number of the element each point holds, with the points in
// the order Each visits them (block, subgroup, lane, then value fastest).
// It gives what Index and LinearIndex give point by point, in a small
// fraction of the time, for checkers that walk every point of many
// layouts.
func (l *Layout) ElementNumbers() []int {
	m := l.m
	// place[k] is what output binary digit k adds to the row-major
	// number; oddPlace[o] what one unit of output repetition digit o adds.
	strides := make([]int, len(l.shape))
	s := 1
	for d := len(l.shape) - 1; d >= 0; d-- {
		strides[d] = s
		s *= l.shape[d]
	}
	place := make([]int, m.out.nBits)
	oddPlace := make([]int, m.out.nOdd)
	for _, d := range m.out.digits {
		if d.radix == 2 {
			place[d.flat] = d.place * strides[d.axis]
		} else {
			oddPlace[d.flat] = d.place * strides[d.axis]
		}
	}
	// Per hardware axis and coordinate: the output bits it sets and what
	// its repetition digits add.
	var img [NumHwDims][]uint64
	var add [NumHwDims][]int
	for h := range NumHwDims {
		n := l.Size(HwDim(h))
		img[h], add[h] = make([]uint64, n), make([]int, n)
		for c := range n {
			x := c
			for p, r := range m.in.axes[h].Radices {
				d := m.in.digits[m.in.first[h]+p]
				q := x % r
				x /= r
				switch {
				case r == 2 && q == 1:
					img[h][c] ^= m.bitImg[d.flat]
				case r != 2:
					if o := m.oddImg[d.flat]; o >= 0 {
						add[h][c] += q * oddPlace[o]
					}
				}
			}
		}
	}
	out := make([]int, 0, l.Size(Register)*l.Size(Lane)*l.Size(Subgroup)*l.Size(Block))
	for b := range l.Size(Block) {
		for sg := range l.Size(Subgroup) {
			for ln := range l.Size(Lane) {
				hi := img[Block][b] ^ img[Subgroup][sg] ^ img[Lane][ln]
				base := add[Block][b] + add[Subgroup][sg] + add[Lane][ln]
				for v := range l.Size(Register) {
					r := hi ^ img[Register][v]
					e := base + add[Register][v]
					for r != 0 {
						e += place[bits.TrailingZeros64(r)]
						r &= r - 1
					}
					out = append(out, e)
				}
			}
		}
	}
	return out
}
