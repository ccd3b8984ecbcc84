package model

// The cost model: every cost in a plan is a count of warp-wide
// instructions or memory transactions, per warp, times a target weight
// (Weights). Warps run in parallel, so a count per warp stands for time;
// the largest count over the warps of a block is taken.

// wavefronts is how many shared-memory wavefronts one warp-wide access of
// bytesPerLane bytes per lane takes when it is free of bank conflicts:
// the banks serve Banks × BankBytes bytes per wavefront.
func wavefronts(t *Target, lanes, bytesPerLane int) int64 {
	per := t.Banks * t.BankBytes
	if per <= 0 {
		per = 128
	}
	return int64(ceilDiv(lanes*bytesPerLane, per))
}

// ConversionCost prices a conversion: register moves, shuffle rounds, or a
// round trip through shared memory (the stores' and loads' wavefronts,
// assumed conflict-free, and the barrier between them; one more barrier
// when the data crosses blocks).
func ConversionCost(c *Conversion, t *Target, lanes int) int64 {
	w := t.Weights
	switch c.Kind {
	case ConvRegister:
		return int64(c.Moves) * w.Move
	case ConvShuffle:
		return int64(c.Rounds)*w.Shuffle + int64(c.Moves)*w.Move
	case ConvShared:
		bytes := (c.ElemBits + 7) / 8
		cost := int64(c.Stores)*wavefronts(t, lanes, c.StoreVector*bytes)*w.SharedWavefront +
			int64(c.Loads)*wavefronts(t, lanes, c.LoadVector*bytes)*w.SharedWavefront + w.Barrier
		if c.CrossesBlocks {
			cost += w.Barrier
		}
		return cost
	}
	return 0
}

// ElementwiseCost is one instruction per value a lane holds (values that
// repeat in several lanes are computed in each).
func ElementwiseCost(l *Layout, fn string, t *Target) int64 {
	w := t.Weights.ALU
	if ElementwiseIsSFU(fn) {
		w = t.Weights.SFU
	}
	return int64(l.Size(Register)) * w
}

// Reduction describes how a reduction along one axis runs in a layout.
type Reduction struct {
	Values    int // values a lane combines in registers
	Results   int // results a lane holds afterwards
	Lanes     int // lanes that take part in each result
	Subgroups int // subgroups that take part in each result
}

// DescribeReduction reads a reduction along axis off the layout it runs in.
func DescribeReduction(l *Layout, axis int) Reduction {
	var mask uint64
	for _, d := range l.m.out.digits {
		if d.axis == axis && d.radix == 2 {
			mask |= 1 << uint(d.flat)
		}
	}
	part := func(h HwDim) int {
		imgs, _ := l.hwBits(h)
		s := &span{}
		for _, v := range imgs {
			s.add(v & mask)
		}
		n := 1 << uint(s.dim())
		// A repetition digit of this axis produced by h takes part too.
		for _, d := range l.m.in.digits {
			if HwDim(d.axis) == h && d.radix != 2 {
				if o := l.m.oddImg[d.flat]; o >= 0 && l.oddOut(o).axis == axis {
					n *= d.radix
				}
			}
		}
		return n
	}
	r := Reduction{Values: l.Size(Register), Lanes: part(Lane), Subgroups: part(Subgroup)}
	r.Results = r.Values / part(Register)
	if r.Results < 1 {
		r.Results = 1
	}
	return r
}

func (l *Layout) oddOut(flat int) digit {
	for _, d := range l.m.out.digits {
		if d.radix != 2 && d.flat == flat {
			return d
		}
	}
	return digit{axis: -1}
}

// ReduceCost prices a reduction: combines within a lane, a butterfly of
// shuffles over the lanes that share a result, and, when subgroups share
// one, a round trip of the partial results through shared memory.
func ReduceCost(l *Layout, axis int, elemBits int, t *Target) int64 {
	r := DescribeReduction(l, axis)
	w := t.Weights
	cost := int64(r.Values-r.Results) * w.ALU
	rounds := int64(log2(r.Lanes))
	cost += rounds * int64(r.Results) * (w.Shuffle + w.ALU)
	if r.Subgroups > 1 {
		bytes := (elemBits + 7) / 8
		cost += 2*int64(r.Results)*wavefronts(t, l.Size(Lane), bytes)*w.SharedWavefront + w.Barrier
		cost += int64(r.Subgroups-1) * int64(r.Results) * w.ALU
	}
	return cost
}

// GlobalAccessCost prices a load or store of global memory in layout l:
// each lane moves the widest aligned vector (up to 16 bytes) of values
// consecutive along the contiguous dimension, and every warp-wide
// instruction costs the distinct 32-byte sectors its lanes touch. The
// tensor is stored with dimension contiguous fastest, then the others in
// row-major order.
func GlobalAccessCost(l *Layout, contiguous int, elemBits int, t *Target) (cost int64, vector int) {
	v := vectorWidth(l, contiguous, elemBits)
	bytes := (elemBits + 7) / 8
	shape := l.Shape()
	order := []int{contiguous}
	for d := len(shape) - 1; d >= 0; d-- {
		if d != contiguous {
			order = append(order, d)
		}
	}
	addr := func(idx []int) int {
		a, stride := 0, 1
		for _, d := range order {
			a += idx[d] * stride
			stride *= shape[d]
		}
		return a * bytes
	}
	var worst int64
	for b := range l.Size(Block) {
		for s := range l.Size(Subgroup) {
			var sectors int64
			for base := 0; base < l.Size(Register); base += v {
				seen := map[int]bool{}
				for lane := range l.Size(Lane) {
					for k := range v {
						seen[addr(l.Index(HwPoint{base + k, lane, s, b}))/32] = true
					}
				}
				sectors += int64(len(seen))
			}
			worst = max(worst, sectors)
		}
	}
	return worst * t.Weights.GlobalSector, v
}

// SharedAccessCost prices plain vector loads or stores of a row-major
// shared buffer in layout l: the widest aligned vector along the last
// dimension, each warp-wide access its wavefronts (free of bank
// conflicts).
func SharedAccessCost(l *Layout, elemBits int, t *Target) (cost int64, vector int) {
	v := vectorWidth(l, l.Rank()-1, elemBits)
	bytes := (elemBits + 7) / 8
	n := int64(ceilDiv(l.Size(Register), v))
	return n * wavefronts(t, l.Size(Lane), v*bytes) * t.Weights.SharedWavefront, v
}
