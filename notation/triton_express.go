package notation

import (
	"errors"
	"slices"
	"strings"

	"planner/model"
)

// TritonRole narrows the encodings ExpressTritonAs tries to those of one
// operand of a dot: some layouts are both an accumulator and an operand
// (mma.sync's 16 × 16 A fragment is also the accumulator of a 16 × 16
// wgmma; mfma 16x16's B fragment with kWidth 4 is also its accumulator).
type TritonRole int

const (
	AnyRole TritonRole = iota
	OperandA
	OperandB
	Accumulator
	// Plain: #ttg.linear, never a matrix or blocked encoding: a
	// block-scaled dot's scales, which Triton writes so and its AMD
	// lowering reads only so (a tt.dot_scaled on gfx950 whose scale is
	// the same layout written #ttg.blocked does not compile in Triton 3.9).
	Plain
)

// ExpressTriton writes l as a Triton encoding: a named encoding where one
// gives l exactly, else #ttg.linear. Only layouts no linear layout can
// write (an extent or hardware count that is not a power of two, other
// than a blocked layout's whole tiles) have none.
func ExpressTriton(l *model.Layout) (*Triton, error) { return ExpressTritonAs(l, AnyRole) }

// ExpressTritonAs is ExpressTriton trying, among the matrix encodings, only
// those of the given role.
func ExpressTritonAs(l *model.Layout, role TritonRole) (*Triton, error) {
	return ExpressTritonFor(l, role, TritonTarget{WarpgroupMMA: true})
}

// TritonTarget is what naming a layout as Triton would needs to know of
// the target beyond the layout's frame: its vendor, whose matrix encodings
// alone are tried (#ttg.nvidia_mma on "nvidia", #ttg.amd_mfma and
// #ttg.amd_wmma on "amd", #ttig.dpas on "intel"; every vendor's where it
// is empty, as for a layout named with no target), and whether it runs
// warpgroup mma (Hopper's wgmma, the only mma whose accumulator is
// #ttg.nvidia_mma version 3).
type TritonTarget struct {
	Vendor       string
	WarpgroupMMA bool
}

// TritonTargetOf is the TritonTarget of t for a plan that does or does
// not run warpgroup mma.
func TritonTargetOf(t *model.Target, warpgroupMMA bool) TritonTarget {
	tt := TritonTarget{WarpgroupMMA: warpgroupMMA}
	if t != nil {
		tt.Vendor = t.Vendor
	}
	return tt
}

// vendors reports whether the target is of vendor v or names none.
func (tt TritonTarget) vendors(v string) bool { return tt.Vendor == "" || tt.Vendor == v }

// ExpressTritonFor is ExpressTritonAs for a target: only the target's
// vendor's matrix encodings are tried, so that a plan for a 32-lane
// NVIDIA warp is never named by an AMD wave32 encoding of the same map,
// and the warpgroup encodings (#ttg.nvidia_mma version 3) only where the
// target runs warpgroup mma, so that a plan for sm_80 prints the version 2
// tile that Triton's mma.sync lowering uses even where a wgmma tile would
// give the same map with fewer repeats.
func ExpressTritonFor(l *model.Layout, role TritonRole, tt TritonTarget) (*Triton, error) {
	if enc := namedTriton(l, role, tt); enc != nil {
		return &Triton{Enc: enc}, nil
	}
	if b, err := ExpressBlocked(l); err == nil && role != Plain {
		// Blocked keeps registers beyond a small tensor as copies where
		// Triton drops them: only a blocked layout that Triton builds
		// the same is written as #ttg.blocked.
		t := &Triton{Enc: &TritonBlocked{Blocked: *b}}
		if back, err := t.Layout(model.FrameOf(l)); err == nil && back.Equal(l) {
			return t, nil
		}
	}
	x, err := ExpressLinear(l)
	if err != nil {
		why := err.Error()
		var e *model.Error
		if errors.As(err, &e) {
			why = e.Msg
		}
		return nil, notExpressible("triton", "no Triton encoding fits, and as #ttg.linear: %s", strings.TrimPrefix(why, "not expressible as linear: "))
	}
	return &Triton{Enc: x}, nil
}

// namedTriton finds the matrix encoding (nvidia_mma, amd_mfma, amd_wmma
// or a dot operand of one), or else a slice of an accumulator, that gives
// l, or nil. When several do, it prefers the one whose tile fits the
// tensor best (the fewest bases cut off by a smaller tensor, then the
// fewest register repeats), then an mma.sync, mfma or wmma accumulator,
// then an operand, then a wgmma or transposed mfma accumulator, then the
// first tried.
func namedTriton(l *model.Layout, role TritonRole, tt TritonTarget) TritonEncoding {
	r := l.Rank()
	if r > 3 || l.Size(model.Block) != 1 || role == Plain {
		return nil
	}
	want, err := ExpressLinear(l)
	if err != nil {
		return nil
	}
	f := model.FrameOf(l)
	var best TritonEncoding
	bestScore := -1
	try := func(c tritonCandidate) {
		b, err := c.enc.ll(f)
		if err != nil || !sameBases(b.linear(), want) {
			return
		}
		if s := (b.cut*64+b.grown)*4 + c.tier; bestScore < 0 || s < bestScore {
			best, bestScore = c.enc, s
		}
	}
	if r >= 2 {
		for _, c := range matrixCandidates(f.SubgroupSize, f.Subgroups, r, tt) {
			d, isDot := c.enc.(*DotOperand)
			switch {
			case role == Accumulator && isDot, role == OperandA && (!isDot || d.OpIdx != 0), role == OperandB && (!isDot || d.OpIdx != 1):
				continue
			}
			try(c)
		}
	}
	if best != nil || role == OperandA || role == OperandB || r+1 < 2 {
		return best
	}
	// A reduction's result: a slice of an accumulator.
	for _, c := range matrixCandidates(f.SubgroupSize, f.Subgroups, r+1, tt) {
		if _, isDot := c.enc.(*DotOperand); isDot {
			continue
		}
		for dim := range r + 1 {
			try(tritonCandidate{&SliceEncoding{Dim: dim, Parent: c.enc}, c.tier})
		}
	}
	return best
}

// tritonCandidate is an encoding the writer tries, with its rank in the
// preference among equally good fits.
type tritonCandidate struct {
	enc  TritonEncoding
	tier int
}

// matrixCandidates lists the matrix encodings of a rank for the lanes and
// warps on the target: accumulators of every warp split, and their
// operands.
func matrixCandidates(lanes, warps, rank int, tt TritonTarget) []tritonCandidate {
	var out []tritonCandidate
	add := func(enc TritonEncoding, tier int) { out = append(out, tritonCandidate{enc, tier}) }
	dots := func(parent TritonEncoding, ops int) {
		for op := range ops {
			for k := 1; k <= 16; k *= 2 {
				add(&DotOperand{OpIdx: op, Parent: parent, KWidth: k}, 1)
			}
		}
	}
	for _, w := range warpSplits(warps, rank) {
		switch lanes {
		case 32:
			if tt.vendors("nvidia") {
				// One instrShape entry per dimension, batch
				// dimensions 1 (mmaVersionToInstrShape in
				// lib/Dialect/TritonGPU/Transforms/Utility.cpp):
				// NvidiaMmaEncodingAttr::toLinearLayout takes no other.
				v2 := &NvidiaMMA{VersionMajor: 2, WarpsPerCTA: w, InstrShape: append(ones(rank-2), 16, 8)}
				add(v2, 0)
				dots(v2, 2)
			}
			for v := 1; v <= 2 && tt.vendors("amd"); v++ {
				wm := wmmaOf(v, w)
				add(wm, 0)
				dots(wm, 2)
			}
			// A version 3 mma's warps come in groups of 4 along M: "For
			// MMAv3, the smallest indivisible unit of warp shape is
			// (4, 1)" (warpsPerTileV3 in
			// lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp of
			// triton-lang/triton), and wgmma runs on a warpgroup.
			for n := 8; n <= 256 && tt.WarpgroupMMA && tt.vendors("nvidia") && w[len(w)-2]%4 == 0; n *= 2 {
				v3 := &NvidiaMMA{VersionMajor: 3, WarpsPerCTA: w, InstrShape: []int{16, n, 16}}
				add(v3, 2)
				dots(v3, 1) // B of a wgmma is read from shared memory
			}
		case 8, 16:
			if !tt.vendors("intel") {
				break
			}
			// Intel: dpas with 8 rows per instruction, 8 systolic
			// steps, 8 or 16 columns (32-lane dpas layouts are read but
			// not tried here, where NVIDIA's and AMD's are).
			for _, exec := range []int{8, 16} {
				// 16-bit operands (2 per channel) first: an accumulator
				// alone does not tell the operands' width.
				for _, ops := range []int{2, 1, 4} {
					for _, rc := range [][]int{{1, 1}, {2, 1}, {4, 1}, {1, 2}, {2, 2}, {4, 2}} {
						m := &IntelDPAS{RepeatCount: 8, SystolicDepth: 8, ExecutionSize: exec, OpsPerChan: ops, ThreadsPerWarp: lanes, WarpsPerCTA: w, RepCluster: rc}
						add(m, 0)
						for op := range 2 {
							add(&DotOperand{OpIdx: op, Parent: m, KWidth: ops}, 1)
						}
					}
				}
			}
		case 64:
			if !tt.vendors("amd") {
				break
			}
			for _, mn := range []int{32, 16} {
				m := &AMDMFMA{Version: 3, WarpsPerCTA: w, InstrShape: []int{mn, mn}}
				add(m, 0)
				dots(m, 2) // operands do not depend on isTransposed
				add(&AMDMFMA{Version: 3, WarpsPerCTA: w, InstrShape: []int{mn, mn}, IsTransposed: true}, 2)
			}
		}
	}
	return out
}

// warpSplits lists the ways to spread n warps (a power of two) over rank
// dimensions as powers of two, the last dimension's share growing first.
func warpSplits(n, rank int) [][]int {
	if !isPow2(n) {
		return nil
	}
	var out [][]int
	var rec func(d, left int, cur []int)
	rec = func(d, left int, cur []int) {
		if d == rank-1 {
			out = append(out, append(slices.Clone(cur), left))
			return
		}
		for k := 1; k <= left; k *= 2 {
			rec(d+1, left/k, append(cur, k))
		}
	}
	rec(0, n, nil)
	return out
}

func sameBases(a, b *Linear) bool {
	eq := func(x, y [][]int) bool {
		return slices.EqualFunc(x, y, func(p, q []int) bool { return slices.Equal(p, q) })
	}
	return eq(a.Register, b.Register) && eq(a.Lane, b.Lane) && eq(a.Warp, b.Warp) && eq(a.Block, b.Block)
}

// wmmaOf is a wmma accumulator of version v with warps w, written as
// Triton 3.9 writes it (its verifier refuses warpsPerCTA): the warps as
// ctaLayout bases in tiles, those along the columns first (row major, as
// warpsPerCTA laid them), the tile not transposed, instrShape [16, 16, 16].
func wmmaOf(v int, w []int) *AMDWMMA {
	return &AMDWMMA{Version: v, WarpBases: rowMajorWarpBases(w), InstrShape: []int{16, 16, 16}}
}

// rowMajorWarpBases is the warp bases, in tiles, of warps w laid row major
// (the last dimension first), as warpsPerCTA lays them.
func rowMajorWarpBases(w []int) [][]int {
	r := len(w)
	var bases [][]int
	for _, d := range matrixOrder(r, true) {
		for k := 1; k < w[d]; k *= 2 {
			b := make([]int, r)
			b[d] = k
			bases = append(bases, b)
		}
	}
	if bases == nil {
		bases = [][]int{}
	}
	return bases
}
