// Package modeltest draws random layouts for property tests: from random
// notation fields, so that every notation's construction is exercised, and
// as raw random linear maps (XOR-swizzled, duplicated) that no tiled
// notation writes. The draws depend only on the random source given.
package modeltest

import (
	"math/bits"
	"math/rand/v2"

	"planner/model"
	"planner/notation"
)

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func log2(n int) int { return bits.Len(uint(n)) - 1 }

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func product(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

// splitPow2 splits 2^bits into n powers of two at random.
func splitPow2(r *rand.Rand, bits, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	for range bits {
		out[r.IntN(n)] *= 2
	}
	return out
}

// Frame draws a frame of rank 1 to 3: power-of-two extents, and when odd
// is set maybe one extent with a factor 3 or 5.
func Frame(r *rand.Rand, odd bool) model.Frame {
	rank := 1 + r.IntN(3)
	shape := make([]int, rank)
	for d := range shape {
		shape[d] = 1 << uint(r.IntN(5))
	}
	if odd && r.IntN(2) == 0 {
		shape[r.IntN(rank)] *= pick(r, 3, 5)
	}
	return model.Frame{Shape: shape, SubgroupSize: pick(r, 4, 8, 16, 32), Subgroups: pick(r, 1, 2, 4)}
}

func oddPart(n int) int {
	for n%2 == 0 {
		n /= 2
	}
	return n
}

// Nested draws nested fields for f.
func Nested(r *rand.Rand, f model.Frame) *notation.Nested {
	rank := len(f.Shape)
	mk := func() []int { return make([]int, rank) }
	n := &notation.Nested{SubgroupTile: mk(), BatchTile: mk(), OuterTile: mk(), ThreadTile: mk(), ElementTile: mk(), SubgroupStrides: mk(), ThreadStrides: mk()}
	for d, s := range f.Shape {
		odd := oddPart(s)
		parts := splitPow2(r, log2(s/odd), 5)
		n.ElementTile[d], n.ThreadTile[d], n.OuterTile[d], n.BatchTile[d], n.SubgroupTile[d] = parts[0], parts[1], parts[2], parts[3], parts[4]
		// The odd part goes to outer or batch (registers).
		if r.IntN(2) == 0 {
			n.BatchTile[d] *= odd
		} else {
			n.OuterTile[d] *= odd
		}
	}
	// Fit thread and subgroup tiles into the hardware by moving bits to
	// batch when they do not fit.
	fit := func(tiles []int, room int) {
		for product(tiles) > 1<<uint(room) {
			for d := range tiles {
				if tiles[d] > 1 {
					tiles[d] /= 2
					n.BatchTile[d] *= 2
					break
				}
			}
		}
	}
	fit(n.ThreadTile, log2(f.SubgroupSize))
	fit(n.SubgroupTile, log2(f.Subgroups))
	// Strides: the fields in a random order, with a one-bit gap below a
	// field when the ids have room for it.
	strides := func(tiles, strides []int, room int) {
		spare := room - log2(product(tiles))
		place := 1
		for _, d := range r.Perm(rank) {
			if tiles[d] == 1 {
				strides[d] = 0
				continue
			}
			if spare > 0 && r.IntN(3) == 0 {
				place *= 2
				spare--
			}
			strides[d] = place
			place *= tiles[d]
		}
	}
	strides(n.ThreadTile, n.ThreadStrides, log2(f.SubgroupSize))
	strides(n.SubgroupTile, n.SubgroupStrides, log2(f.Subgroups))
	return n
}

// XeGPU draws xegpu fields for f.
func XeGPU(r *rand.Rand, f model.Frame) *notation.XeGPU {
	rank := len(f.Shape)
	mk := func() []int { return make([]int, rank) }
	x := &notation.XeGPU{SgLayout: mk(), SgData: mk(), InstData: mk(), LaneLayout: mk(), LaneData: mk(), Order: r.Perm(rank)}
	laneRoom, sgRoom := log2(f.SubgroupSize), log2(f.Subgroups)
	for d, s := range f.Shape {
		odd := oddPart(s)
		// lane_data, lane_layout, lane units, inst tiles, subgroups
		parts := splitPow2(r, log2(s/odd), 5)
		ll := parts[1]
		for log2(ll) > laneRoom {
			ll /= 2
			parts[2] *= 2
		}
		laneRoom -= log2(ll)
		sg := parts[4]
		for log2(sg) > sgRoom {
			sg /= 2
			parts[3] *= 2
		}
		sgRoom -= log2(sg)
		x.LaneData[d] = parts[0]
		x.LaneLayout[d] = ll
		x.InstData[d] = parts[0] * ll * parts[2]
		x.SgData[d] = x.InstData[d] * parts[3]
		x.SgLayout[d] = sg
		// The odd part becomes instruction tiles or round-robin repeats.
		if r.IntN(2) == 0 {
			x.SgData[d] *= odd
		}
		// Sometimes share: more subgroups than blocks.
		if sgRoom > 0 && r.IntN(4) == 0 && x.SgData[d]*x.SgLayout[d] == s {
			x.SgLayout[d] *= 2
			sgRoom--
		}
	}
	if r.IntN(3) == 0 {
		x.InstData = nil
	}
	return x
}

// Blocked draws blocked fields for f.
func Blocked(r *rand.Rand, f model.Frame) *notation.Blocked {
	rank := len(f.Shape)
	b := &notation.Blocked{SizePerThread: make([]int, rank), Order: r.Perm(rank)}
	b.ThreadsPerWarp = splitPow2(r, log2(f.SubgroupSize), rank)
	b.WarpsPerCTA = splitPow2(r, log2(f.Subgroups), rank)
	for d := range rank {
		b.SizePerThread[d] = 1 << uint(r.IntN(3))
	}
	return b
}

// Linear draws random bases for a power-of-two frame: a random injection
// of the tensor's bits into hardware bits (so every element is held), XOR
// noise on some bits, and spare register bits that duplicate.
func Linear(r *rand.Rand, f model.Frame) *notation.Linear {
	tbits := 0
	for _, s := range f.Shape {
		tbits += log2(s)
	}
	laneBits, sgBits := log2(f.SubgroupSize), log2(f.Subgroups)
	regBits := max(0, tbits-laneBits-sgBits) + r.IntN(3)
	hw := regBits + laneBits + sgBits
	// coordOf turns a flat tensor bit number into a basis vector.
	coordOf := func(v uint64) []int {
		c := make([]int, len(f.Shape))
		k := 0
		for d, s := range f.Shape {
			for b := range log2(s) {
				if v>>uint(k)&1 == 1 {
					c[d] |= 1 << uint(b)
				}
				k++
			}
		}
		return c
	}
	imgs := make([]uint64, hw)
	slots := r.Perm(hw)
	for t := range min(tbits, hw) {
		imgs[slots[t]] = 1 << uint(t)
	}
	// Noise: XOR a later bit into an earlier one keeps the images
	// spanning every tensor bit only if the map stays onto; add noise
	// between images (column operations keep the span).
	for i := range imgs {
		if r.IntN(4) == 0 {
			j := r.IntN(hw)
			if j != i {
				imgs[i] ^= imgs[j]
			}
		}
	}
	l := &notation.Linear{Register: [][]int{}, Lane: [][]int{}, Warp: [][]int{}, Block: [][]int{}}
	for i, v := range imgs {
		switch {
		case i < regBits:
			l.Register = append(l.Register, coordOf(v))
		case i < regBits+laneBits:
			l.Lane = append(l.Lane, coordOf(v))
		default:
			l.Warp = append(l.Warp, coordOf(v))
		}
	}
	return l
}

// Layout draws a layout for f from a random notation (raw linear bases
// only when every extent is a power of two) and describes where it came
// from. It returns nil when no draw fits f.
func Layout(r *rand.Rand, f model.Frame) (*model.Layout, string) {
	pow2 := true
	for _, s := range f.Shape {
		pow2 = pow2 && isPow2(s)
	}
	for range 20 {
		var n model.Notation
		switch r.IntN(4) {
		case 0:
			n = Nested(r, f)
		case 1:
			n = XeGPU(r, f)
		case 2:
			if !pow2 {
				continue
			}
			n = Blocked(r, f)
		case 3:
			if !pow2 {
				continue
			}
			n = Linear(r, f)
		}
		l, err := n.Layout(f)
		if err == nil {
			return l, n.Kind() + " " + n.Attr()
		}
	}
	return nil, ""
}
