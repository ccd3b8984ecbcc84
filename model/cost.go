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
// round trip through shared memory (the stores' and loads' issue and
// wavefronts, assumed conflict-free, and the barrier between them; one
// more barrier when the data crosses blocks).
func ConversionCost(c *Conversion, t *Target, lanes int) int64 {
	w := t.Weights
	switch c.Kind {
	case ConvRegister:
		return int64(c.Moves) * w.Move
	case ConvShuffle:
		return int64(c.Rounds)*w.Shuffle + int64(c.Moves)*w.Move
	case ConvShared:
		bytes := (c.ElemBits + 7) / 8
		cost := int64(c.Stores)*(wavefronts(t, lanes, c.StoreVector*bytes)*w.SharedWavefront+w.Issue) +
			int64(c.Loads)*(wavefronts(t, lanes, c.LoadVector*bytes)*w.SharedWavefront+w.Issue) + w.Barrier
		if c.StoreAccess.Instructions > 0 {
			// The scratch is placed: count its wavefronts exactly, and
			// the byte permutes that gather a side's vectors (Moves).
			cost = vectorAccessCost(c.StoreAccess, t) + vectorAccessCost(c.LoadAccess, t) + w.Barrier +
				int64(c.Moves)*w.Move
		}
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
		cost += 2*int64(r.Results)*(wavefronts(t, l.Size(Lane), bytes)*w.SharedWavefront+w.Issue) + w.Barrier
		cost += int64(r.Subgroups-1) * int64(r.Results) * w.ALU
	}
	return cost
}

// GlobalAccessCost prices a load or store of global memory in layout l:
// each lane moves the widest aligned vector (up to 16 bytes) of values
// consecutive along the contiguous dimension, and every warp-wide
// instruction costs its issue and the distinct 32-byte sectors its lanes
// touch (lanes that read one sector share its transaction: CUDA C++
// Best Practices Guide, "Coalesced Access to Global Memory", a warp's
// request is served by the sectors it touches). The tensor is stored with
// dimension contiguous fastest, then the others in row-major order.
func GlobalAccessCost(l *Layout, contiguous int, elemBits int, t *Target) (cost int64, vector int) {
	sectors, n, v := globalAccess(l, contiguous, elemBits)
	return sectors*t.Weights.GlobalSector + n*t.Weights.Issue, v
}

// GlobalLoadCost is GlobalAccessCost for a load: the sectors that other
// subgroups of the block read too are priced with their reuse
// (ReusedSectorCost).
func GlobalLoadCost(l *Layout, contiguous int, elemBits int, t *Target) (cost int64, vector int) {
	sectors, n, v := globalAccess(l, contiguous, elemBits)
	return ReusedSectorCost(sectors*t.Weights.GlobalSector, l.SubgroupCopies(), t) + n*t.Weights.Issue, v
}

// globalAccess is what one subgroup's access of l moves: the sectors of
// its busiest subgroup, its instructions, and the vector width.
func globalAccess(l *Layout, contiguous int, elemBits int) (sectors, instructions int64, vector int) {
	v := vectorWidth(l, contiguous, elemBits)
	n := int64(ceilDiv(l.Size(Register), v))
	sectors, ok := sectorsLinear(l, contiguous, elemBits, v)
	if !ok {
		sectors = sectorsByElements(l, contiguous, elemBits, v)
	}
	return sectors, n, v
}

// ReusedSectorCost prices the sectors one subgroup's load reads, cost at
// the target's GlobalSector each, when copies subgroups of the block read
// the same ones (Layout.SubgroupCopies). A block's subgroups run on one
// core and share its L1 cache, so of the copies reads of a sector the
// first comes from L2 (GlobalSector) and the others hit L1 (L1Sector):
// NVIDIA's default global load caches at all levels, L1 and L2 (PTX ISA,
// "Cache Operators", ld.ca "cache at all levels, likely to be accessed
// again"); AMD's vector memory reads through the compute unit's vector L1
// (CDNA3 ISA, "Vector Memory Operations"); Intel's loads through the
// Xe-core's L1 (oneAPI GPU Optimization Guide, "Xe-core", L1 and SLM
// sharing one store). Subgroups run side by side, so each is charged the
// average: (GlobalSector + (copies-1) L1Sector) / copies a sector. The
// figure is applied to every kind of load alike, vector loads and block
// messages, whose record cost is their sectors at GlobalSector.
func ReusedSectorCost(cost int64, copies int, t *Target) int64 {
	w := t.Weights
	if copies <= 1 || w.GlobalSector <= 0 || w.L1Sector >= w.GlobalSector {
		return cost
	}
	total := cost * (w.GlobalSector + int64(copies-1)*w.L1Sector)
	per := int64(copies) * w.GlobalSector
	return (total + per - 1) / per
}

// storageOrder lists the dimensions from the fastest in memory: the
// contiguous one, then the others from the last.
func storageOrder(rank, contiguous int) []int {
	order := []int{contiguous}
	for d := rank - 1; d >= 0; d-- {
		if d != contiguous {
			order = append(order, d)
		}
	}
	return order
}

// sectorsLinear counts the sectors one warp touches when every extent is
// a power of two: the element's address is then a concatenation of its
// coordinates' bits, so the sectors of one instruction (all lanes, one
// vector of registers) are an affine image whose size is a rank, the same
// for every instruction and every warp.
func sectorsLinear(l *Layout, contiguous, elemBits, v int) (int64, bool) {
	if elemBits%8 != 0 || elemBits > 256 {
		return 0, false
	}
	for d := range l.Rank() {
		if !l.DimRadices(d).IsPow2() {
			return 0, false
		}
	}
	if !l.Radices(Register).IsPow2() {
		return 0, false
	}
	// Address bit of every binary tensor digit.
	addrBit := make([]int, l.m.out.nBits)
	pos := 0
	for _, d := range storageOrder(l.Rank(), contiguous) {
		for _, dg := range l.m.out.digits {
			if dg.axis == d {
				addrBit[dg.flat] = pos + dg.pos
			}
		}
		pos += len(l.m.out.axes[d].Radices)
	}
	shift := 5 - log2(elemBits/8) // element-address bits below a 32-byte sector
	toSector := func(img uint64) uint64 {
		var s uint64
		for f := 0; f < len(addrBit); f++ {
			if img>>uint(f)&1 == 1 && addrBit[f] >= shift {
				s |= 1 << uint(addrBit[f]-shift)
			}
		}
		return s
	}
	sp := &span{}
	lanes, _ := l.hwBits(Lane)
	for _, img := range lanes {
		sp.add(toSector(img))
	}
	regs, _ := l.hwBits(Register)
	for _, img := range regs[:log2(v)] {
		sp.add(toSector(img))
	}
	instructions := int64(l.Size(Register) / v)
	return instructions << uint(sp.dim()), true
}

// sectorsByElements counts the sectors of the worst warp by walking every
// element.
func sectorsByElements(l *Layout, contiguous, elemBits, v int) int64 {
	bytes := (elemBits + 7) / 8
	shape := l.Shape()
	order := storageOrder(len(shape), contiguous)
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
	return worst
}

// SharedAccessCost prices plain vector loads or stores of a row-major
// shared buffer in layout l: the widest aligned vector along the last
// dimension, each warp-wide access its issue and its wavefronts (free of
// bank conflicts). Lanes that hold the same elements read the same words,
// and one wavefront serves them all: threads reading within one 32-bit
// word cause no conflict, the word is broadcast to them (CUDA C++
// Programming Guide, Compute Capabilities, "Shared Memory" of compute
// capability 5.x, which 8.x and 9.0 keep). Only the bytes of distinct
// lanes (Layout.DistinctLanes) count.
func SharedAccessCost(l *Layout, elemBits int, t *Target) (cost int64, vector int) {
	v := vectorWidth(l, l.Rank()-1, elemBits)
	bytes := (elemBits + 7) / 8
	n := int64(ceilDiv(l.Size(Register), v))
	return n * (wavefronts(t, l.DistinctLanes(), v*bytes)*t.Weights.SharedWavefront + t.Weights.Issue), v
}
