package model

import (
	"fmt"
	"slices"
)

// analyzeByElements computes a Conversion by walking every hardware point,
// with the definitions Analyze documents. Analyze uses it for layouts whose
// digits differ; tests use it to check the linear-algebra path.
func analyzeByElements(src, dst *Layout, elemBits int) *Conversion {
	c := &Conversion{ElemBits: elemBits, Words: wordsPerLane(dst, elemBits)}
	if src.Equal(dst) {
		return c
	}
	// Holders of each element in the source, by row-major element number.
	holders := make([][]HwPoint, src.Elements())
	src.Each(func(p HwPoint, idx []int) {
		e := LinearIndex(idx, src.shape)
		holders[e] = append(holders[e], p)
	})
	level := Register
	dst.Each(func(p HwPoint, idx []int) {
		need := Block
		for _, h := range holders[LinearIndex(idx, dst.shape)] {
			switch {
			case h.Block != p.Block:
			case h.Subgroup != p.Subgroup:
				need = min(need, Subgroup)
			case h.Lane != p.Lane:
				need = min(need, Lane)
			default:
				need = Register
			}
		}
		if need > level {
			level = need
			p, idx, need := p, slices.Clone(idx), need
			c.reason = func() string {
				return fmt.Sprintf("destination %v holds %v, which the source holds only in another %s", p, idx, need)
			}
		}
	})
	switch level {
	case Register:
		c.Kind = ConvRegister
		c.Moves = elementMoves(src, dst, elemBits, Register)
	case Lane:
		c.Kind = ConvShuffle
		c.Moves = elementMoves(src, dst, elemBits, Lane)
		c.Rounds = elementRounds(src, dst, elemBits, holders)
		if comparableDigits(src, dst) {
			// Counted on the digits, which layouts of other digits do not
			// share: theirs stays 0, no limit (LowerShuffles).
			c.Transpositions = laneTranspositions(src, dst)
		}
	default:
		c.Kind = ConvShared
		c.CrossesBlocks = level == Block
		elementShared(c, src, dst, elemBits)
	}
	return c
}

// LinearIndex numbers an element of a tensor of the given shape in row-major
// order.
func LinearIndex(idx, shape []int) int {
	e := 0
	for d, i := range idx {
		e = e*shape[d] + i
	}
	return e
}

// laneWords lists the 32-bit words of one lane: for each word the elements
// in it (row-major numbers), in value order.
func laneWords(l *Layout, elemBits int, block, subgroup, lane int) [][]int {
	p := 1 << uint(packing(l, elemBits))
	var words [][]int
	for v := 0; v < l.Size(Register); v += p {
		var w []int
		for k := range p {
			w = append(w, LinearIndex(l.Index(HwPoint{v + k, lane, subgroup, block}), l.shape))
		}
		words = append(words, w)
		if elemBits > 32 {
			words = append(words, w)
		}
	}
	return words
}

func wordKey(w []int) string { return fmt.Sprint(w) }

// elementMoves counts, for the worst lane, destination words that are not
// an intact source word of the lane (region Register) or of the subgroup
// (region Lane).
func elementMoves(src, dst *Layout, elemBits int, region HwDim) int {
	worst := 0
	for b := range dst.Size(Block) {
		for s := range dst.Size(Subgroup) {
			subgroupWords := map[string]bool{}
			if region == Lane {
				for lane := range src.Size(Lane) {
					for _, w := range laneWords(src, elemBits, b, s, lane) {
						subgroupWords[wordKey(w)] = true
					}
				}
			}
			for lane := range dst.Size(Lane) {
				have := subgroupWords
				if region == Register {
					have = map[string]bool{}
					for _, w := range laneWords(src, elemBits, b, s, lane) {
						have[wordKey(w)] = true
					}
				}
				n := 0
				for _, w := range laneWords(dst, elemBits, b, s, lane) {
					if !have[wordKey(w)] {
						n++
					}
				}
				worst = max(worst, n)
			}
		}
	}
	return worst
}

// elementRounds counts, for the worst lane, the distinct source words it
// must read from other lanes of its subgroup to obtain the elements it
// lacks.
func elementRounds(src, dst *Layout, elemBits int, holders [][]HwPoint) int {
	worst := 0
	for b := range dst.Size(Block) {
		for s := range dst.Size(Subgroup) {
			// The content of every source word of the subgroup, by element.
			wordOf := map[int][]string{}
			for lane := range src.Size(Lane) {
				for _, w := range laneWords(src, elemBits, b, s, lane) {
					sorted := slices.Clone(w)
					slices.Sort(sorted)
					sorted = slices.Compact(sorted)
					for _, e := range w {
						wordOf[e] = append(wordOf[e], fmt.Sprint(lane, sorted))
					}
				}
			}
			for lane := range dst.Size(Lane) {
				local := map[int]bool{}
				for v := range src.Size(Register) {
					local[LinearIndex(src.Index(HwPoint{v, lane, s, b}), src.shape)] = true
				}
				// Remote words needed: group the missing elements by the
				// content of the words that hold them.
				need := map[string]bool{}
				for v := range dst.Size(Register) {
					e := LinearIndex(dst.Index(HwPoint{v, lane, s, b}), dst.shape)
					if local[e] {
						continue
					}
					var content string
					for _, k := range wordOf[e] {
						// Strip the lane: words with the same elements are
						// interchangeable.
						_, rest := splitLane(k)
						if content == "" || rest < content {
							content = rest
						}
					}
					need[content] = true
				}
				worst = max(worst, len(need)*wordFactor(elemBits))
			}
		}
	}
	return worst
}

func splitLane(k string) (string, string) {
	for i := range len(k) {
		if k[i] == ' ' {
			return k[:i], k[i+1:]
		}
	}
	return k, ""
}

// elementShared fills in the round trip through shared memory by walking
// every point.
func elementShared(c *Conversion, src, dst *Layout, elemBits int) {
	bytes := func(n int) int { return (n*elemBits + 7) / 8 }
	c.ScratchBytes = bytes(src.Elements())
	c.StoreBytes = bytes(src.Elements())
	loads := 0
	for b := range dst.Size(Block) {
		for s := range dst.Size(Subgroup) {
			for lane := range dst.Size(Lane) {
				seen := map[int]bool{}
				for v := range dst.Size(Register) {
					seen[LinearIndex(dst.Index(HwPoint{v, lane, s, b}), dst.shape)] = true
				}
				loads += len(seen)
			}
		}
	}
	c.LoadBytes = bytes(loads)
	chooseScratch(c, src, dst, func(l *Layout, dim int) int { return elementVector(l, dim, elemBits) })
}

// elementVector is the largest power of two w (up to 128 bits of elements)
// such that every aligned group of w values of every lane holds w
// consecutive, aligned elements along dim.
func elementVector(l *Layout, dim, elemBits int) int {
	limit := max(128/elemBits, 1)
	regs, rad := l.Radices(Register), l.DimRadices(dim)
	w, k := 1, 0
	// Vectors are read in binary: the lowest digits of the values and of
	// the dimension must be binary for a group to be a power of two.
	for w*2 <= limit && k < len(regs) && k < len(rad) && regs[k] == 2 && rad[k] == 2 && groupsContiguous(l, dim, w*2) {
		w *= 2
		k++
	}
	return w
}

func groupsContiguous(l *Layout, dim, w int) bool {
	ok := true
	l.Each(func(p HwPoint, idx []int) {
		if !ok || p.Value%w != 0 {
			return
		}
		if idx[dim]%w != 0 {
			ok = false
			return
		}
		for k := 1; k < w; k++ {
			next := l.Index(HwPoint{p.Value + k, p.Lane, p.Subgroup, p.Block})
			for d := range idx {
				want := idx[d]
				if d == dim {
					want += k
				}
				if next[d] != want {
					ok = false
					return
				}
			}
		}
	})
	return ok
}
