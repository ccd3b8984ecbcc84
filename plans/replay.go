package plans

import (
	"fmt"
	"slices"

	"planner/model"
)

// The replays below move a tensor's elements the way a conversion's code
// would, register by register, and check that each lane ends with what
// the destination layout puts in it. They derive every step from the two
// layouts and the plan's claims (rounds, scratch order, padding, vector
// widths), never from the conversion analysis that produced the claims.

// wordRegs is how many consecutive registers of l share one 32-bit word
// for elements of bits bits: the lowest register digits of radix 2, up to
// 32/bits of them, as model.Conversion defines packing and as mma
// fragments hold two f16 in each .f16x2 register (PTX ISA, "Matrix
// Fragments for mma.m16n8k16 with floating point type").
func wordRegs(l *model.Layout, bits int) int {
	n := 1
	for _, r := range l.Radices(model.Register) {
		if r != 2 || n*2*bits > 32 {
			break
		}
		n *= 2
	}
	return n
}

// replayShuffle moves, for every lane, the words it lacks from other
// lanes of its subgroup, one word per round (a shfl.sync or ds_bpermute
// reads one 32-bit register of one source lane; a 64-bit element takes two
// rounds). Each round takes the word that holds the lane's first missing
// element and as many other missing ones as possible. After the claimed
// number of rounds every destination register must hold its element;
// the worst lane must need exactly the claimed number.
func replayShuffle(v *model.Value, from, to *points, claimed int) error {
	bits := v.DType.Bits
	per, halves := wordRegs(from.l, bits), 1
	if bits > 32 {
		halves = 2
	}
	// have[e] == stamp: the lane being replayed holds element e.
	have := make([]int, v.Elements())
	stamp, worst := 0, 0
	for lane := 0; lane*to.regs < len(to.elems); lane++ {
		stamp++
		own := from.elems[lane*from.regs : (lane+1)*from.regs]
		for _, e := range own {
			have[e] = stamp
		}
		rounds := 0
		for j := lane * to.regs; j < (lane+1)*to.regs; j++ {
			e := to.elems[j]
			if have[e] == stamp {
				continue
			}
			w, ok := bestWord(from, e, lane, per, have, stamp)
			p := to.point(j)
			switch {
			case !ok:
				return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(p), What: fmt.Sprintf("no other lane of subgroup %d holds it, so no shuffle can bring it", p.Subgroup)}
			case rounds+halves > claimed:
				src := from.point(w)
				return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(p), What: fmt.Sprintf("after the %d shuffle rounds the plan claims, the lane still lacks it (it is in lane %d, register %d)", claimed, src.Lane, src.Value)}
			}
			for _, x := range from.elems[w : w+per] {
				have[x] = stamp
			}
			rounds += halves
		}
		worst = max(worst, rounds)
	}
	if worst != claimed {
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan claims %d shuffle rounds, but every element arrives in %d", claimed, worst)}
	}
	return nil
}

// bestWord picks, among the source words holding element e in other lanes
// of lane's subgroup, the one that brings the most elements the lane
// still lacks (the lowest lane and register on a tie). A word is per
// registers of one lane, aligned; the result is its first flat point.
func bestWord(from *points, e, lane, per int, have []int, stamp int) (int, bool) {
	best, bestN := -1, 0
	for _, h := range from.holders(e) {
		if from.lane(h) == lane || from.subgroup(h) != lane/from.lanes {
			continue
		}
		w := h - (h%from.regs)%per
		n := 0
		for _, x := range from.elems[w : w+per] {
			if have[x] != stamp {
				n++
			}
		}
		if best < 0 || n > bestN {
			best, bestN = w, n
		}
	}
	return best, best >= 0
}

// replayShared writes every element of the source layout into a scratch
// buffer laid out as the plan claims (ScratchOrder's first dimension
// fastest, ScratchPad elements after each run of it, ScratchBytes in all),
// with StoreVector-element stores of consecutive registers, then reads
// the destination layout back with LoadVector-element loads, and checks
// that every register receives its element.
func replayShared(v *model.Value, from, to *points, c *ConvPlan) error {
	bits := v.DType.Bits
	rank := len(v.Shape)
	order := slices.Clone(c.ScratchOrder)
	slices.Sort(order)
	for d := range order {
		if order[d] != d || len(order) != rank {
			return &VerifyError{Value: v.Name, What: fmt.Sprintf("the scratch order %v is not an order of the %d dimensions", c.ScratchOrder, rank)}
		}
	}
	for _, vec := range []struct {
		what string
		n    int
		t    *points
	}{{"store", c.StoreVector, from}, {"load", c.LoadVector, to}} {
		if vec.n < 1 || vec.t.regs%vec.n != 0 {
			return &VerifyError{Value: v.Name, What: fmt.Sprintf("%d-element %s vectors do not divide the %d registers of a lane", vec.n, vec.what, vec.t.regs)}
		}
	}
	idx := make([]int, rank)
	offset := func(e int) int {
		coords(e, v.Shape, idx)
		o, stride := 0, 1
		for k, d := range c.ScratchOrder {
			o += idx[d] * stride
			stride *= v.Shape[d]
			if k == 0 {
				stride += c.ScratchPad
			}
		}
		return o
	}
	size := c.ScratchBytes * 8 / max(bits, 1)
	// The scratch by element address: what each store left there (-1:
	// nothing). No vector reaches past the last run's padding and a
	// vector beyond it, however many bytes the plan claims.
	elems := v.Elements()
	runs := elems
	if len(c.ScratchOrder) > 0 {
		runs = elems / max(v.Shape[c.ScratchOrder[0]], 1)
	}
	scratch := make([]int, min(size, elems+c.ScratchPad*runs+c.StoreVector+c.LoadVector))
	for k := range scratch {
		scratch[k] = -1
	}
	err := eachVector(from, c.StoreVector, offset, func(i, e, at int) error {
		switch {
		case at >= size || at >= len(scratch):
			p := from.point(i)
			return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(p), What: fmt.Sprintf("its store writes scratch byte %d, outside the %d bytes of scratch the plan claims", at*bits/8, c.ScratchBytes)}
		case scratch[at] >= 0 && scratch[at] != e:
			p := from.point(i)
			return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(p), What: fmt.Sprintf("its %d-element vector store writes it at scratch byte %d, where element %v belongs", c.StoreVector, at*bits/8, unlinear(scratch[at], v.Shape))}
		}
		scratch[at] = e
		return nil
	})
	if err != nil {
		return err
	}
	return eachVector(to, c.LoadVector, offset, func(i, want, at int) error {
		got, ok := -1, false
		if at < len(scratch) {
			got = scratch[at]
			ok = got >= 0
		}
		if ok && got == want {
			return nil
		}
		brings := "nothing"
		if ok {
			brings = fmt.Sprintf("element %v", unlinear(got, v.Shape))
		}
		p := to.point(i)
		return &VerifyError{Value: v.Name, Element: unlinear(want, v.Shape), Point: pointAt(p), What: fmt.Sprintf("its %d-element vector load from scratch byte %d brings %s", c.LoadVector, at*bits/8, brings)}
	})
}

// eachVector walks the registers of a layout in vectors of n consecutive
// registers of a lane, as vector stores and loads move them: fn gets each
// register's flat point, its element and its scratch offset (the vector's
// first element's offset plus its place in the vector). The first error
// stops the walk.
func eachVector(t *points, n int, offset func(e int) int, fn func(i, e, at int) error) error {
	for first := 0; first < len(t.elems); first += n {
		base := offset(t.elems[first])
		for k := range n {
			if err := fn(first+k, t.elems[first+k], base+k); err != nil {
				return err
			}
		}
	}
	return nil
}
