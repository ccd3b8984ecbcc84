package model

import (
	"fmt"
	"slices"
)

// Blocked is Triton's #ttg.blocked: each thread holds size_per_thread
// contiguous elements, threads_per_warp lanes and warps_per_cta warps tile
// the tensor, order lists dimensions fastest first. A tensor larger than the
// tile repeats it in registers (the fastest dimension's repeats first); a
// smaller one makes the top warps, then lanes, then registers hold copies.
// This follows blockedToLinearLayout, ensureLayoutNotSmallerThan and
// ensureLayoutNotLargerThan in triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp. Unlike Triton, a
// tensor extent may be the tile times any whole number (96 = 3 × 32).
type Blocked struct {
	SizePerThread  []int
	ThreadsPerWarp []int
	WarpsPerCTA    []int
	Order          []int
}

func (b *Blocked) Kind() string { return "blocked" }

func (b *Blocked) Fields() []Field {
	return []Field{
		{Key: "size_per_thread", Ints: b.SizePerThread},
		{Key: "threads_per_warp", Ints: b.ThreadsPerWarp},
		{Key: "warps_per_cta", Ints: b.WarpsPerCTA},
		{Key: "order", Ints: b.Order},
	}
}

// Attr prints the layout as Triton writes it.
func (b *Blocked) Attr() string {
	return "#ttg.blocked<{sizePerThread = " + intsString(b.SizePerThread) +
		", threadsPerWarp = " + intsString(b.ThreadsPerWarp) +
		", warpsPerCTA = " + intsString(b.WarpsPerCTA) +
		", order = " + intsString(b.Order) + "}>"
}

// Layout builds the canonical layout of b for frame f.
func (b *Blocked) Layout(f Frame) (*Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	for _, fl := range b.Fields() {
		if len(fl.Ints) != r {
			return nil, errorf(CodeRankMismatch, fl.Key, "%s has %d entries but the shape %v has rank %d", fl.Key, len(fl.Ints), f.Shape, r)
		}
		if fl.Key == "order" {
			continue
		}
		for i, v := range fl.Ints {
			if v < 1 {
				return nil, errorAt(CodeBadValue, fl.Key, i, "%s %d is not positive", fl.Key, v)
			}
			if !isPow2(v) {
				return nil, errorAt(CodeNotPowerOfTwo, fl.Key, i, "%s %d is not a power of two (Triton's blocked layouts need powers of two)", fl.Key, v)
			}
		}
	}
	if !isPermutation(b.Order, r) {
		return nil, errorf(CodeBadValue, "order", "%v is not a permutation of the %d dimensions", b.Order, r)
	}
	if p := product(b.ThreadsPerWarp); p != f.SubgroupSize {
		return nil, errorf(CodeShapeMismatch, "threads_per_warp", "threads_per_warp covers %d lanes but a warp has %d", p, f.SubgroupSize)
	}
	if p := product(b.WarpsPerCTA); p != f.Subgroups {
		return nil, errorf(CodeShapeMismatch, "warps_per_cta", "warps_per_cta covers %d warps but there are %d", p, f.Subgroups)
	}
	if f.blocks() != 1 {
		return nil, errorf(CodeBadValue, "blocks", "a blocked layout here has no CTA layout; write layouts over %d blocks in linear notation", f.blocks())
	}
	// Tensor digits of dimension d before fitting: size_per_thread bits,
	// lane bits, warp bits, then repeats.
	kept := make([]int, r) // binary digits of the tile that stay
	reps := make([]int, r)
	dims := make([]Radices, r)
	for d := range r {
		tile := b.SizePerThread[d] * b.ThreadsPerWarp[d] * b.WarpsPerCTA[d]
		bits := log2(tile)
		switch {
		case f.Shape[d] >= tile:
			if f.Shape[d]%tile != 0 {
				// The tile is a power of two, so an extent it does not
				// divide is not one.
				return nil, errorAt(CodeShapeMismatch, "size_per_thread", d, "extent %d is not a power of two, nor a multiple of the tile %d × %d × %d = %d: a blocked layout repeats its tile a whole number of times",
					f.Shape[d], b.SizePerThread[d], b.ThreadsPerWarp[d], b.WarpsPerCTA[d], tile)
			}
			kept[d] = bits
			reps[d] = f.Shape[d] / tile
		default:
			if !isPow2(f.Shape[d]) {
				return nil, errorAt(CodeShapeMismatch, "size_per_thread", d, "extent %d is smaller than the tile %d and not a power of two, so no copies can fill the tile", f.Shape[d], tile)
			}
			kept[d] = log2(f.Shape[d])
			reps[d] = 1
		}
		for range kept[d] {
			dims[d] = append(dims[d], 2)
		}
		dims[d] = append(dims[d], RadicesOf(reps[d])...)
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	level := func(h HwDim, sizes []int, below func(d int) int) {
		for _, d := range b.Order {
			for k := range log2(sizes[d]) {
				hw[h] = append(hw[h], 2)
				var img Image
				if t := below(d) + k; t < kept[d] {
					img = Image{{d, t}}
				}
				images[h] = append(images[h], img)
			}
		}
	}
	level(Register, b.SizePerThread, func(int) int { return 0 })
	level(Lane, b.ThreadsPerWarp, func(d int) int { return log2(b.SizePerThread[d]) })
	level(Subgroup, b.WarpsPerCTA, func(d int) int { return log2(b.SizePerThread[d] * b.ThreadsPerWarp[d]) })
	for _, d := range b.Order {
		for k, rad := range RadicesOf(reps[d]) {
			hw[Register] = append(hw[Register], rad)
			images[Register] = append(images[Register], Image{{d, kept[d] + k}})
		}
	}
	return NewLayout(hw, dims, images)
}

func product(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

// ExpressBlocked writes l as a blocked layout, or says why it has none.
func ExpressBlocked(l *Layout) (*Blocked, error) {
	const kind = "blocked"
	if l.Size(Block) > 1 {
		return nil, notExpressible(kind, "it spans %d blocks; blocked layouts here have no CTA layout", l.Size(Block))
	}
	for _, h := range []HwDim{Lane, Subgroup} {
		if !l.m.in.axes[h].Radices.IsPow2() {
			return nil, notExpressible(kind, "%d %ss is not a power of two", l.Size(h), h)
		}
	}
	o, err := monomialOwners(l, kind)
	if err != nil {
		return nil, err
	}
	r := l.Rank()
	for d := range r {
		if _, ok := o.matchRuns(d, []HwDim{Register, Lane, Subgroup, Register}); !ok {
			return nil, notExpressible(kind, "dimension %d is held, from its innermost digits out, by %s; a blocked layout holds each dimension as size_per_thread, threads_per_warp, warps_per_cta, then register repeats",
				d, runsString(o.runs(d)))
		}
		// A repetition digit can only be a register repeat at the top.
		rad := l.DimRadices(d)
		for k, x := range rad {
			if x != 2 && k != len(rad)-1 {
				return nil, notExpressible(kind, "dimension %d has a repetition digit below binary digits", d)
			}
		}
	}
	f := FrameOf(l)
	regs := o.hw[Register]
	for _, order := range permutations(r) {
		laneSplits := splitAxis(o.hw[Lane], order, l.Rank())
		warpSplits := splitAxis(o.hw[Subgroup], order, l.Rank())
		// The register axis is size_per_thread blocks, then repeats.
		for cut := 0; cut <= len(regs); cut++ {
			if !l.m.in.axes[Register].Radices[:cut].IsPow2() {
				break
			}
			sptSplits := splitAxis(regs[:cut], order, r)
			if len(sptSplits) == 0 {
				continue
			}
			for _, spt := range sptSplits {
				for _, tpw := range laneSplits {
					for _, wpc := range warpSplits {
						b := &Blocked{SizePerThread: pow2s(spt), ThreadsPerWarp: pow2s(tpw), WarpsPerCTA: pow2s(wpc), Order: slices.Clone(order)}
						back, err := b.Layout(f)
						if err == nil && back.Equal(l) {
							return b, nil
						}
					}
				}
			}
		}
	}
	if why := blockedOrderConflict(o); why != "" {
		return nil, notExpressible(kind, "%s; a blocked layout uses one order, fastest dimension first, for registers, lanes, warps and repeats", why)
	}
	return nil, notExpressible(kind, "no size_per_thread, threads_per_warp, warps_per_cta and order reproduce it (each hardware axis must take the dimensions in one order, fastest first, with copies only at the top of a dimension's share)")
}

// blockedOrderConflict names two levels of l that take two dimensions in
// opposite orders, or returns "".
func blockedOrderConflict(o *owners) string {
	r := o.l.Rank()
	// A register digit below the dimension's first lane or warp digit is
	// size_per_thread, one above is a repeat; dimensions without lanes or
	// warps are left out (their registers could be either).
	firstThread := make([]int, r)
	for d := range r {
		firstThread[d] = -1
		for k, hd := range o.of[d] {
			if hd.h == Lane || hd.h == Subgroup {
				firstThread[d] = k
				break
			}
		}
	}
	type level struct {
		name string
		dims []int
	}
	seq := func(name string, h HwDim, keep func(ref DigitRef) bool) level {
		lv := level{name: name}
		for _, ref := range o.hw[h] {
			if ref.Axis >= 0 && keep(ref) && !slices.Contains(lv.dims, ref.Axis) {
				lv.dims = append(lv.dims, ref.Axis)
			}
		}
		return lv
	}
	all := func(DigitRef) bool { return true }
	levels := []level{
		seq("size_per_thread registers", Register, func(ref DigitRef) bool {
			return firstThread[ref.Axis] >= 0 && ref.Digit < firstThread[ref.Axis]
		}),
		seq("lanes", Lane, all),
		seq("warps", Subgroup, all),
		seq("register repeats", Register, func(ref DigitRef) bool {
			return firstThread[ref.Axis] >= 0 && ref.Digit > firstThread[ref.Axis]
		}),
	}
	for i, a := range levels {
		for _, b := range levels[i+1:] {
			for x, d := range a.dims {
				for _, e := range a.dims[x+1:] {
					if ib, ie := slices.Index(b.dims, d), slices.Index(b.dims, e); ib >= 0 && ie >= 0 && ie < ib {
						return fmt.Sprintf("its %s take dimension %d before %d but its %s take %d before %d", a.name, d, e, b.name, e, d)
					}
				}
			}
		}
	}
	return ""
}

// splitAxis cuts a hardware axis (the tensor digit each digit selects, or
// none) into one block per dimension in the given order, each block the
// dimension's digits followed by digits that select nothing, and returns
// every such cut as the number of digits per dimension.
func splitAxis(refs []DigitRef, order []int, rank int) [][]int {
	var out [][]int
	counts := make([]int, rank)
	var rec func(pos, oi int)
	rec = func(pos, oi int) {
		if len(out) > 64 {
			return
		}
		if oi == len(order) {
			if pos == len(refs) {
				out = append(out, slices.Clone(counts))
			}
			return
		}
		d := order[oi]
		// d's own digits first.
		p := pos
		for p < len(refs) && refs[p].Axis == d {
			p++
		}
		// Then any number of digits that select nothing.
		for q := p; ; q++ {
			counts[d] = q - pos
			rec(q, oi+1)
			if q >= len(refs) || refs[q].Axis >= 0 {
				break
			}
		}
		counts[d] = 0
	}
	rec(0, 0)
	return out
}

func pow2s(bits []int) []int {
	out := make([]int, len(bits))
	for i, b := range bits {
		out[i] = 1 << uint(b)
	}
	return out
}
