package model

import (
	"math/rand/v2"
)

// Random layouts for property tests, built from random notation fields so
// that every notation's construction is exercised, plus raw random linear
// maps (XOR-swizzled, duplicated) that no tiled notation writes.

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

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

// randomFrame draws a frame: power-of-two extents unless odd is set, in
// which case one extent may carry a factor 3 or 5.
func randomFrame(r *rand.Rand, odd bool) Frame {
	rank := 1 + r.IntN(3)
	shape := make([]int, rank)
	for d := range shape {
		shape[d] = 1 << uint(r.IntN(5))
	}
	if odd && r.IntN(2) == 0 {
		shape[r.IntN(rank)] *= pick(r, 3, 5)
	}
	return Frame{Shape: shape, SubgroupSize: pick(r, 4, 8, 16, 32), Subgroups: pick(r, 1, 2, 4)}
}

// randomNested draws nested fields for f, or nil when f does not suit.
func randomNested(r *rand.Rand, f Frame) *Nested {
	rank := len(f.Shape)
	n := &Nested{make([]int, rank), make([]int, rank), make([]int, rank), make([]int, rank), make([]int, rank), make([]int, rank), make([]int, rank)}
	laneBits, sgBits := log2(f.SubgroupSize), log2(f.Subgroups)
	for d, s := range f.Shape {
		oddPart := s
		for oddPart%2 == 0 {
			oddPart /= 2
		}
		bits := log2(s / oddPart)
		// Deal the dimension's bits out to the five levels.
		parts := splitPow2(r, bits, 5)
		n.ElementTile[d], n.ThreadTile[d], n.OuterTile[d], n.BatchTile[d], n.SubgroupTile[d] = parts[0], parts[1], parts[2], parts[3], parts[4]
		// The odd part goes to outer or batch (registers).
		if r.IntN(2) == 0 {
			n.BatchTile[d] *= oddPart
		} else {
			n.OuterTile[d] *= oddPart
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
	fit(n.ThreadTile, laneBits)
	fit(n.SubgroupTile, sgBits)
	strides := func(tiles, strides []int, room int) {
		perm := r.Perm(rank)
		place := 1
		used := 0
		for _, d := range perm {
			if tiles[d] == 1 {
				strides[d] = 0
				continue
			}
			// Maybe leave a gap of one bit below this field.
			if r.IntN(3) == 0 && used+log2(tiles[d])+1 <= room-(log2(product(tiles))-log2(tiles[d])-usedTiles(tiles, strides, d)) {
				place *= 2
				used++
			}
			strides[d] = place
			place *= tiles[d]
			used += log2(tiles[d])
		}
	}
	strides(n.ThreadTile, n.ThreadStrides, laneBits)
	strides(n.SubgroupTile, n.SubgroupStrides, sgBits)
	return n
}

// usedTiles is a helper for gap placement: bits of fields already placed.
func usedTiles(tiles, strides []int, skip int) int {
	b := 0
	for d := range tiles {
		if d != skip && strides[d] != 0 {
			b += log2(tiles[d])
		}
	}
	return b
}

func randomXeGPU(r *rand.Rand, f Frame) *XeGPU {
	rank := len(f.Shape)
	x := &XeGPU{SgLayout: make([]int, rank), SgData: make([]int, rank), InstData: make([]int, rank),
		LaneLayout: make([]int, rank), LaneData: make([]int, rank), Order: r.Perm(rank)}
	laneRoom, sgRoom := log2(f.SubgroupSize), log2(f.Subgroups)
	for d, s := range f.Shape {
		oddPart := s
		for oddPart%2 == 0 {
			oddPart /= 2
		}
		bits := log2(s / oddPart)
		parts := splitPow2(r, bits, 5) // lane_data, lane_layout, lane units, inst tiles, subgroups
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
		// The odd part becomes round-robin repeats or instruction tiles.
		if r.IntN(2) == 0 {
			x.SgData[d] *= oddPart
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

func randomBlocked(r *rand.Rand, f Frame) *Blocked {
	rank := len(f.Shape)
	b := &Blocked{SizePerThread: make([]int, rank), Order: r.Perm(rank)}
	b.ThreadsPerWarp = splitPow2(r, log2(f.SubgroupSize), rank)
	b.WarpsPerCTA = splitPow2(r, log2(f.Subgroups), rank)
	for d := range rank {
		b.SizePerThread[d] = 1 << uint(r.IntN(3))
	}
	return b
}

// randomLinearMap draws a layout for a power-of-two frame whose images are
// random: a surjective core plus XOR noise and duplicated digits.
func randomLinearMap(r *rand.Rand, f Frame) *Layout {
	var dims []Radices
	tbits := 0
	for _, s := range f.Shape {
		dims = append(dims, RadicesOf(s))
		tbits += log2(s)
	}
	tensor := newSpace(TensorAxes(dims))
	laneBits, sgBits := log2(f.SubgroupSize), log2(f.Subgroups)
	regBits := max(0, tbits-laneBits-sgBits) + r.IntN(3)
	hwBits := regBits + laneBits + sgBits
	for {
		imgs := make([]uint64, hwBits)
		// A random injection of tensor bits into hardware digits.
		slots := r.Perm(hwBits)
		for t := range min(tbits, hwBits) {
			imgs[slots[t]] = 1 << uint(t)
		}
		for i := range imgs {
			if r.IntN(4) == 0 && tbits > 0 {
				imgs[i] ^= r.Uint64() & (1<<uint(tbits) - 1)
			}
		}
		if spanOf(imgs...).dim() != tbits {
			continue
		}
		var hw [NumHwDims]Radices
		var images [NumHwDims][]Image
		sizes := [NumHwDims]int{regBits, laneBits, sgBits, 0}
		k := 0
		for h := range NumHwDims {
			for range sizes[h] {
				hw[h] = append(hw[h], 2)
				var img Image
				for _, d := range tensor.digits {
					if imgs[k]>>uint(d.flat)&1 == 1 {
						img = append(img, DigitRef{d.axis, d.pos})
					}
				}
				images[h] = append(images[h], img)
				k++
			}
		}
		l, err := NewLayout(hw, dims, images)
		if err != nil {
			panic(err)
		}
		return l
	}
}

// randomLayout draws a layout for f from a random source: one of the
// notations, or a raw linear map when f is all powers of two.
func randomLayout(r *rand.Rand, f Frame) (*Layout, string) {
	pow2 := true
	for _, s := range f.Shape {
		pow2 = pow2 && isPow2(s)
	}
	for range 20 {
		var n Notation
		switch r.IntN(4) {
		case 0:
			n = randomNested(r, f)
		case 1:
			n = randomXeGPU(r, f)
		case 2:
			if !pow2 {
				continue
			}
			n = randomBlocked(r, f)
		case 3:
			if !pow2 {
				continue
			}
			return randomLinearMap(r, f), "random linear"
		}
		l, err := n.Layout(f)
		if err == nil {
			return l, n.Kind() + " " + n.Attr()
		}
	}
	return nil, ""
}
