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
// fastest, ScratchPad elements after each run of it, ScratchBytes in all;
// or, with a ScratchRow, rows along the row's digits and the rest in
// ScratchOrder), with StoreVector-element stores of consecutive registers
// (with a ScratchRow, of any registers of a lane that fill a whole
// aligned vector, as byte permutes gather them), then reads the
// destination layout back with LoadVector-element loads, and checks that
// every register receives its element.
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
	walk := eachVector
	if len(c.ScratchRow) > 0 {
		rowed, err := rowOffset(v, c)
		if err != nil {
			return err
		}
		offset, walk = rowed, eachGathered
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
	err := walk(from, c.StoreVector, offset, func(i, e, at int) error {
		switch {
		case at < 0:
			p := from.point(i)
			return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(p), What: fmt.Sprintf("its lane holds only part of the %d-element run of the scratch it belongs to, so no %d-element vector store writes it", c.StoreVector, c.StoreVector)}
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
	return walk(to, c.LoadVector, offset, func(i, want, at int) error {
		if at < 0 {
			p := to.point(i)
			return &VerifyError{Value: v.Name, Element: unlinear(want, v.Shape), Point: pointAt(p), What: fmt.Sprintf("its lane takes only part of the %d-element run of the scratch it belongs to, so no %d-element vector load reads it", c.LoadVector, c.LoadVector)}
		}
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

// rowOffset is the element offset in a scratch whose rows run along the
// tensor digits of c.ScratchRow (digit k of the row is bit k of the
// offset) and whose other digits follow row major in c.ScratchOrder,
// fastest first: each dimension with the row's digits taken out.
func rowOffset(v *model.Value, c *ConvPlan) (func(e int) int, error) {
	rank := len(v.Shape)
	taken := make([]uint, rank) // the row's bits of each dimension
	for _, d := range c.ScratchRow {
		if d.Axis < 0 || d.Axis >= rank || d.Digit < 0 || 1<<uint(d.Digit) >= v.Shape[d.Axis] || taken[d.Axis]>>uint(d.Digit)&1 != 0 {
			return nil, &VerifyError{Value: v.Name, What: fmt.Sprintf("the scratch row %v names digit %d of dimension %d, which is no distinct binary digit of the %v tensor", rowPairs(c.ScratchRow), d.Digit, d.Axis, v.Shape)}
		}
		taken[d.Axis] |= 1 << uint(d.Digit)
	}
	for d, n := range v.Shape {
		if n&(n-1) != 0 {
			return nil, &VerifyError{Value: v.Name, What: fmt.Sprintf("a scratch row runs along binary digits, and dimension %d of the %v tensor is no power of two", d, v.Shape)}
		}
	}
	if c.ScratchPad != 0 {
		return nil, &VerifyError{Value: v.Name, What: "a scratch of rows along chosen digits is dense, and the plan pads it"}
	}
	idx := make([]int, rank)
	return func(e int) int {
		coords(e, v.Shape, idx)
		row := 0
		for k, d := range c.ScratchRow {
			row |= (idx[d.Axis] >> uint(d.Digit) & 1) << uint(k)
		}
		o, stride := 0, 1
		for _, d := range c.ScratchOrder {
			rest, size, out := idx[d], v.Shape[d], 0
			for b, kept := 0, 0; 1<<uint(b) < v.Shape[d]; b++ {
				if taken[d]>>uint(b)&1 != 0 {
					size /= 2
					continue
				}
				out |= (rest >> uint(b) & 1) << uint(kept)
				kept++
			}
			o += out * stride
			stride *= size
		}
		return o<<uint(len(c.ScratchRow)) | row
	}, nil
}

// rowPairs writes a scratch row as [dimension, digit] pairs.
func rowPairs(row []model.DigitRef) [][]int {
	out := make([][]int, len(row))
	for i, d := range row {
		out[i] = []int{d.Axis, d.Digit}
	}
	return out
}

// eachGathered walks the registers of a layout in vectors of n elements
// of one lane that fill an n-aligned run of the scratch, in whatever
// registers the lane holds them (byte permutes gather them into a
// vector's words): fn gets each register's flat point, its element and
// its scratch offset. A lane whose elements leave a run part filled
// cannot move it in one vector: fn gets that register with offset -1.
func eachGathered(t *points, n int, offset func(e int) int, fn func(i, e, at int) error) error {
	for first := 0; first < len(t.elems); first += t.regs {
		runs := map[int]map[int]bool{} // run → the offsets of it the lane holds
		for i := first; i < first+t.regs; i++ {
			at := offset(t.elems[i])
			if runs[at/n] == nil {
				runs[at/n] = map[int]bool{}
			}
			runs[at/n][at] = true
		}
		for i := first; i < first+t.regs; i++ {
			at := offset(t.elems[i])
			if len(runs[at/n]) != n {
				at = -1
			}
			if err := fn(i, t.elems[i], at); err != nil {
				return err
			}
		}
	}
	return nil
}
