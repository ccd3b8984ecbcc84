package model

import "slices"

// MMATiling is how an mma's record fragments repeat over its operands for
// one arrangement of its warps (or groups of warps): the factors of A, of
// B and of the accumulator C, for Tile.
type MMATiling struct {
	A, B, C []TileFactor
}

// TileMMA gives the factors that repeat record r's fragments over an mma
// of m×k by k×n on wm warps along M and wn along N (ids along N first
// when nFirst; register repeats outside the warps when outer): the
// operand that lacks a dimension repeats over those warps, and where
// there are more warps than tiles the extra warps hold copies. The K
// repeats of A and B are the innermost registers, then A's M and B's N;
// the accumulator's register repeats run along N first, or along M first
// when accMFirst.
func TileMMA(r *Record, m, n, k, wm, wn int, nFirst, outer, accMFirst bool) MMATiling {
	sg := Subgroup
	reg := Register
	order := func(first, second []TileFactor) []TileFactor {
		if nFirst {
			return append(slices.Clone(first), second...)
		}
		return append(slices.Clone(second), first...)
	}
	// Warps along M (N) split the tiles along M (N): um (un) of them hold
	// other tiles, and where there are more warps than tiles, dm (dn)
	// warps hold copies of each (a factor of count 1 adds nothing).
	um, un := min(wm, m/r.M), min(wn, n/r.N)
	dm, dn := wm/max(um, 1), wn/max(un, 1)
	warpsM := []TileFactor{{Dim: 0, Count: um, Hw: sg}, {Dim: -1, Count: dm, Hw: sg}}
	warpsN := []TileFactor{{Dim: 1, Count: un, Hw: sg}, {Dim: -1, Count: dn, Hw: sg}}
	allM := []TileFactor{{Dim: -1, Count: wm, Hw: sg}}
	allN := []TileFactor{{Dim: -1, Count: wn, Hw: sg}}
	// Warps then register repeats, or register repeats then warps.
	arrange := func(warps, regs []TileFactor) []TileFactor {
		if outer {
			return append(slices.Clone(regs), warps...)
		}
		return append(slices.Clone(warps), regs...)
	}
	cRegs := []TileFactor{{Dim: 1, Count: n / max(r.N*un, 1), Hw: reg}, {Dim: 0, Count: m / max(r.M*um, 1), Hw: reg}}
	if accMFirst {
		slices.Reverse(cRegs)
	}
	return MMATiling{
		A: arrange(order(allN, warpsM), []TileFactor{{Dim: 1, Count: k / max(r.K, 1), Hw: reg}, {Dim: 0, Count: m / max(r.M*um, 1), Hw: reg}}),
		B: arrange(order(warpsN, allM), []TileFactor{{Dim: 0, Count: k / max(r.K, 1), Hw: reg}, {Dim: 1, Count: n / max(r.N*un, 1), Hw: reg}}),
		C: arrange(order(warpsN, warpsM), cRegs),
	}
}

// InterleaveK rearranges the K dimension kd of an operand tiled from a
// record of depth recordK: above its own lowest digits (own consecutive
// K per lane), the f K steps the instruction repeats come next, then the
// record's other K digits, then the remaining steps; the registers that
// hold the f steps move just above those holding the own digits, so each
// lane's register group holds own·f consecutive K. false when the digits
// do not split so.
func InterleaveK(l *Layout, kd, recordK, own, f int) (*Layout, bool) {
	rad := l.DimRadices(kd)
	lo, ok1 := digitsOf(rad, 0, own)
	tile, ok2 := digitsOf(rad, 0, recordK)
	steps, ok3 := digitsOf(rad, tile, f)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	// order lists the old digit positions of kd from the new lowest.
	var order []int
	order = append(order, intRange(0, lo)...)
	order = append(order, intRange(tile, steps)...)
	order = append(order, intRange(lo, tile)...)
	order = append(order, intRange(steps, len(rad))...)
	newPos := make([]int, len(rad))
	var dimRad Radices
	for n, o := range order {
		newPos[o] = n
		dimRad = append(dimRad, rad[o])
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for h := range NumHwDims {
		hw[h] = l.Radices(h)
		for p := range hw[h] {
			var img Image
			for _, ref := range l.Image(h, p) {
				if ref.Axis == kd {
					ref.Digit = newPos[ref.Digit]
				}
				img = append(img, ref)
			}
			images[h] = append(images[h], img)
		}
	}
	// The registers holding the steps move just above those holding the
	// own digits.
	isDigit := func(img Image, from, to int) bool {
		return len(img) == 1 && img[0].Axis == kd && img[0].Digit >= from && img[0].Digit < to
	}
	regs := hw[Register]
	var low, mid, rest []int
	for p := range regs {
		switch img := images[Register][p]; {
		case isDigit(img, 0, lo) && len(mid) == 0 && len(rest) == 0:
			low = append(low, p)
		case isDigit(img, lo, lo+steps-tile):
			mid = append(mid, p)
		default:
			rest = append(rest, p)
		}
	}
	if len(mid) != steps-tile {
		return nil, false
	}
	var nr Radices
	var ni []Image
	for _, p := range slices.Concat(low, mid, rest) {
		nr = append(nr, regs[p])
		ni = append(ni, images[Register][p])
	}
	hw[Register], images[Register] = nr, ni
	dims := make([]Radices, l.Rank())
	for d := range dims {
		dims[d] = l.DimRadices(d)
	}
	dims[kd] = dimRad
	out, err := NewLayout(hw, dims, images)
	return out, err == nil
}

// digitsOf is the position after the digits of rad from position from
// whose radices multiply to n; false if no run of digits does.
func digitsOf(rad Radices, from, n int) (int, bool) {
	p := from
	for size := 1; size < n; p++ {
		if p >= len(rad) {
			return 0, false
		}
		size *= rad[p]
		if n%size != 0 {
			return 0, false
		}
	}
	return p, true
}

func intRange(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// BatchLayout is a batched mma's operand or accumulator: l, the layout of
// one matrix of the batch, with a leading batch dimension of extent batch
// spread over warps subgroups above l's own and then over registers above
// l's own, as Triton's rank-3 #ttg.nvidia_mma and #ttg.amd_mfma hold the
// batch (their warpsPerCTA's first entry the outermost warps, the batch's
// repeats the outermost registers). warps must divide batch.
func BatchLayout(l *Layout, batch, warps int) (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	if batch < 1 || warps < 1 || batch%warps != 0 {
		return nil, errorf(CodeBadValue, "batch", "a batch of %d over %d warps", batch, warps)
	}
	e, err := l.ExpandDims(0)
	if err != nil {
		return nil, err
	}
	digits := RadicesOf(batch)
	hw, images := digitsByAxis(e)
	// The batch's low digits over the warps, its high ones over registers.
	held := 1
	for i, r := range digits {
		h := Register
		if held < warps {
			h = Subgroup
		}
		held *= r
		hw[h] = append(hw[h], r)
		images[h] = append(images[h], Image{{0, i}})
	}
	dims := make([]Radices, e.Rank())
	for i := range dims {
		dims[i] = e.DimRadices(i)
	}
	dims[0] = digits
	return NewLayout(hw, dims, images)
}
