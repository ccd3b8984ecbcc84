package model

import "fmt"

// TileFactor is one level of repeating a fragment over a bigger tensor:
// Count copies along tensor dimension Dim, held by hardware axis Hw
// (Register or Subgroup). A Dim of -1 repeats nothing: the Count ids of Hw
// hold the same data (the subgroups of an mma's other dimension, for an
// operand they all read).
type TileFactor struct {
	Dim   int
	Count int
	Hw    HwDim
}

// Tile repeats a fragment layout over shape: the fragment's digits stay the
// lowest of every axis; the factors follow, least significant first within
// each hardware axis and each tensor dimension. Every extent of shape must
// be the fragment's extent times the product of its factors.
func Tile(frag *Layout, shape []int, factors []TileFactor) (*Layout, error) {
	r := frag.Rank()
	if len(shape) != r {
		return nil, fmt.Errorf("tile: shape %v for a rank-%d fragment", shape, r)
	}
	dims := make([]Radices, r)
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for _, f := range factors {
		if f.Count < 1 || (f.Hw != Register && f.Hw != Subgroup) || f.Dim >= r {
			return nil, fmt.Errorf("tile: bad factor %+v", f)
		}
		for _, rad := range RadicesOf(f.Count) {
			var img Image
			if f.Dim >= 0 {
				img = Image{{f.Dim, len(dims[f.Dim])}}
				dims[f.Dim] = append(dims[f.Dim], rad)
			}
			hw[f.Hw] = append(hw[f.Hw], rad)
			images[f.Hw] = append(images[f.Hw], img)
		}
	}
	for d := range r {
		if frag.shape[d]*dims[d].Size() != shape[d] {
			return nil, fmt.Errorf("tile: dimension %d: fragment %d times %d repeats is not %d", d, frag.shape[d], dims[d].Size(), shape[d])
		}
	}
	lanes := Radices(nil)
	tile, err := NewLayout([NumHwDims]Radices{hw[Register], lanes, hw[Subgroup], nil}, dims, images)
	if err != nil {
		return nil, err
	}
	return TileBy(frag, tile)
}

// TileBy repeats a fragment as tiles says: tiles maps registers and
// subgroups (no lanes) onto the grid of fragment tiles. An unspecified
// fragment gives an opaque layout that keeps tiles.
func TileBy(frag, tiles *Layout) (*Layout, error) {
	if tiles.Size(Lane) != 1 || tiles.Rank() != frag.Rank() {
		return nil, fmt.Errorf("tile: the tiles of a rank-%d fragment are a rank-%d layout over registers and subgroups, found rank %d over %d lanes", frag.Rank(), frag.Rank(), tiles.Rank(), tiles.Size(Lane))
	}
	if frag.opaque == "" {
		return frag.Product(tiles)
	}
	// An unspecified fragment repeated: the stand-in's product, marked
	// with its family and the layout of its tiles.
	m, err := frag.m.Product(tiles.m)
	if err != nil {
		return nil, err
	}
	return layoutOf(m, marks{opaque: frag.opaque, tiles: tiles})
}

// MatchFragment reports whether l is fragment frag repeated: l's lowest
// register digits and its lowest lane digits select exactly what frag's
// do, in the lowest digits of each dimension, and no other hardware digit
// of l touches those digits. A fragment over fewer lanes than l (a load
// whose groups of lanes each read where their addresses point) repeats
// over l's other lane digits as over its other registers. It returns how
// many fragments a lane holds.
func MatchFragment(l, frag *Layout) (int, bool) {
	if l.opaque != frag.opaque || l.Rank() != frag.Rank() || frag.Size(Subgroup) != 1 || frag.Size(Block) != 1 {
		return 0, false
	}
	low := make([]int, l.Rank()) // how many lowest digits of each dimension are frag's
	for d := range l.Rank() {
		fr, lr := frag.DimRadices(d), l.DimRadices(d)
		if len(fr) > len(lr) {
			return 0, false
		}
		for k := range fr {
			if fr[k] != lr[k] {
				return 0, false
			}
		}
		low[d] = len(fr)
	}
	for _, h := range []HwDim{Register, Lane} {
		fr, lr := frag.Radices(h), l.Radices(h)
		if len(fr) > len(lr) {
			return 0, false
		}
		for p := range fr {
			if fr[p] != lr[p] || !sameImage(frag.Image(h, p), l.Image(h, p)) {
				return 0, false
			}
		}
	}
	for h := range NumHwDims {
		start := 0
		if h == Register {
			start = len(frag.Radices(Register))
		}
		if h == Lane {
			start = len(frag.Radices(Lane))
		}
		for p := start; p < len(l.Radices(h)); p++ {
			for _, ref := range l.Image(h, p) {
				if ref.Digit < low[ref.Axis] {
					return 0, false
				}
			}
		}
	}
	return l.Size(Register) / frag.Size(Register), true
}

func sameImage(a, b Image) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
