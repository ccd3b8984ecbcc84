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

// shuffleWord is one 32-bit word of a source lane: its lane, first
// register and the elements in it (row-major numbers).
type shuffleWord struct {
	lane, reg int
	elems     []int
}

// replayShuffle moves, for every lane, the words it lacks from other
// lanes of its subgroup, one word per round (a shfl.sync or ds_bpermute
// reads one 32-bit register of one source lane; a 64-bit element takes two
// rounds). Each round takes the word that holds the lane's first missing
// element and as many other missing ones as possible. After the claimed
// number of rounds every destination register must hold its element;
// the worst lane must need exactly the claimed number.
func replayShuffle(v *model.Value, from, to *model.Layout, claimed int) error {
	bits := v.DType.Bits
	per, halves := wordRegs(from, bits), 1
	if bits > 32 {
		halves = 2
	}
	worst := 0
	for b := range to.Size(model.Block) {
		for s := range to.Size(model.Subgroup) {
			holders := map[int][]shuffleWord{}
			for lane := range from.Size(model.Lane) {
				for r := 0; r < from.Size(model.Register); r += per {
					w := shuffleWord{lane: lane, reg: r}
					for k := range per {
						w.elems = append(w.elems, model.LinearIndex(from.Index(model.HwPoint{Value: r + k, Lane: lane, Subgroup: s, Block: b}), v.Shape))
					}
					for _, e := range w.elems {
						holders[e] = append(holders[e], w)
					}
				}
			}
			for lane := range to.Size(model.Lane) {
				have := map[int]bool{}
				for r := range from.Size(model.Register) {
					have[model.LinearIndex(from.Index(model.HwPoint{Value: r, Lane: lane, Subgroup: s, Block: b}), v.Shape)] = true
				}
				rounds := 0
				for r := range to.Size(model.Register) {
					p := model.HwPoint{Value: r, Lane: lane, Subgroup: s, Block: b}
					idx := to.Index(p)
					e := model.LinearIndex(idx, v.Shape)
					if have[e] {
						continue
					}
					w, ok := bestWord(holders[e], lane, have)
					switch {
					case !ok:
						return &VerifyError{Value: v.Name, Element: idx, Point: &p, What: fmt.Sprintf("no other lane of subgroup %d holds it, so no shuffle can bring it", s)}
					case rounds+halves > claimed:
						return &VerifyError{Value: v.Name, Element: idx, Point: &p, What: fmt.Sprintf("after the %d shuffle rounds the plan claims, the lane still lacks it (it is in lane %d, register %d)", claimed, w.lane, w.reg)}
					}
					for _, x := range w.elems {
						have[x] = true
					}
					rounds += halves
				}
				worst = max(worst, rounds)
			}
		}
	}
	if worst != claimed {
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan claims %d shuffle rounds, but every element arrives in %d", claimed, worst)}
	}
	return nil
}

// bestWord picks, among the words holding an element, one in another lane
// that brings the most elements the lane still lacks (the lowest lane and
// register on a tie).
func bestWord(ws []shuffleWord, lane int, have map[int]bool) (shuffleWord, bool) {
	best, found, bestN := shuffleWord{}, false, 0
	for _, w := range ws {
		if w.lane == lane {
			continue
		}
		n := 0
		for _, x := range w.elems {
			if !have[x] {
				n++
			}
		}
		if !found || n > bestN {
			best, found, bestN = w, true, n
		}
	}
	return best, found
}

// replayShared writes every element of the source layout into a scratch
// buffer laid out as the plan claims (ScratchOrder's first dimension
// fastest, ScratchPad elements after each run of it, ScratchBytes in all),
// with StoreVector-element stores of consecutive registers, then reads
// the destination layout back with LoadVector-element loads, and checks
// that every register receives its element.
func replayShared(v *model.Value, from, to *model.Layout, c *ConvPlan) error {
	bits := v.DType.Bits
	rank := len(v.Shape)
	order := slices.Clone(c.ScratchOrder)
	slices.Sort(order)
	for d := range order {
		if order[d] != d || len(order) != rank {
			return &VerifyError{Value: v.Name, What: fmt.Sprintf("the scratch order %v is not an order of the %d dimensions", c.ScratchOrder, rank)}
		}
	}
	for _, vec := range [][3]any{{"store", c.StoreVector, from}, {"load", c.LoadVector, to}} {
		n, l := vec[1].(int), vec[2].(*model.Layout)
		if n < 1 || l.Size(model.Register)%n != 0 {
			return &VerifyError{Value: v.Name, What: fmt.Sprintf("%d-element %s vectors do not divide the %d registers of a lane", n, vec[0], l.Size(model.Register))}
		}
	}
	offset := func(idx []int) int {
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
	// The scratch by element address: what each store left there.
	scratch := map[int]int{}
	err := eachVector(from, c.StoreVector, offset, func(q model.HwPoint, el []int, at int) error {
		e := model.LinearIndex(el, v.Shape)
		switch {
		case at >= size:
			return &VerifyError{Value: v.Name, Element: el, Point: &q, What: fmt.Sprintf("its store writes scratch byte %d, outside the %d bytes of scratch the plan claims", at*bits/8, c.ScratchBytes)}
		case scratch[at] != e && has(scratch, at):
			return &VerifyError{Value: v.Name, Element: el, Point: &q, What: fmt.Sprintf("its %d-element vector store writes it at scratch byte %d, where element %v belongs", c.StoreVector, at*bits/8, unlinear(scratch[at], v.Shape))}
		}
		scratch[at] = e
		return nil
	})
	if err != nil {
		return err
	}
	return eachVector(to, c.LoadVector, offset, func(q model.HwPoint, want []int, at int) error {
		got, ok := scratch[at]
		if ok && got == model.LinearIndex(want, v.Shape) {
			return nil
		}
		brings := "nothing"
		if ok {
			brings = fmt.Sprintf("element %v", unlinear(got, v.Shape))
		}
		return &VerifyError{Value: v.Name, Element: want, Point: &q, What: fmt.Sprintf("its %d-element vector load from scratch byte %d brings %s", c.LoadVector, at*bits/8, brings)}
	})
}

func has(m map[int]int, k int) bool {
	_, ok := m[k]
	return ok
}

// eachVector walks the registers of l in vectors of n consecutive
// registers of a lane, as vector stores and loads move them: fn gets each
// register's point, its element and its scratch offset (the vector's first
// element's offset plus its place in the vector). The first error stops
// the walk.
func eachVector(l *model.Layout, n int, offset func([]int) int, fn func(q model.HwPoint, el []int, at int) error) error {
	var err error
	l.Each(func(p model.HwPoint, idx []int) {
		if err != nil || p.Value%n != 0 {
			return
		}
		base := offset(idx)
		for k := range n {
			q := p
			q.Value += k
			if err = fn(q, l.Index(q), base+k); err != nil {
				return
			}
		}
	})
	return err
}
