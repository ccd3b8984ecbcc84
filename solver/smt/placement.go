//go:build z3

package smt

import (
	"fmt"
	"math/bits"
	"slices"
	"time"

	"planner/model"
	"planner/solver/z3opt"
)

// zplace is one buffer's placement with its parameters as Z3 bit-vector
// unknowns: rows Cols+p elements apart (p < 64), q more elements after
// every 2^e rows (e from 1 to 4, or none), and an XOR of b bits (0 to 3)
// of the 16-byte chunk index with the address bits from 4+sh up (sh from
// b to 12). Every placement solver.Placements lists for a buffer of whole-byte
// elements is one of these.
type zplace struct {
	ctx                 *z3opt.Context
	assert              func(z3opt.Bool) // adds a constraint to the search
	rows, cols, eb      int
	p, q, e, b, sh      z3opt.BV
	usePad              z3opt.Bool
	banks, bankBytes    int
	plainMemo, addrMemo map[[2]int]z3opt.BV
	lowMemo             map[[7]int]z3opt.BV
	phases              map[string]*phase
	name                string
}

// zwidth is the bit-vector width of addresses: enough for any buffer the
// capacity admits (16 MiB), with room for the padding unknowns.
const zwidth = 24

func newZPlace(ctx *z3opt.Context, assert func(z3opt.Bool), name string, rows, cols, elemBits int, t *model.Target) *zplace {
	z := &zplace{ctx: ctx, assert: assert, rows: rows, cols: cols, eb: elemBits / 8,
		plainMemo: map[[2]int]z3opt.BV{}, addrMemo: map[[2]int]z3opt.BV{}, lowMemo: map[[7]int]z3opt.BV{}, phases: map[string]*phase{}, name: name}
	z.banks, z.bankBytes = t.Banks, t.BankBytes
	if z.banks <= 0 || z.bankBytes <= 0 {
		z.banks, z.bankBytes = 32, 4
	}
	z.p = ctx.BVConst(name+"_pad", zwidth)
	z.q = ctx.BVConst(name+"_rowpad", zwidth)
	z.e = ctx.BVConst(name+"_every", zwidth)
	z.b = ctx.BVConst(name+"_bits", zwidth)
	z.sh = ctx.BVConst(name+"_shift", zwidth)
	z.usePad = ctx.Var(name + "_row_dependent")
	assert(z.p.ULT(z.bv(64)))
	assert(z.usePad.Ite(z.q.UGT(z.bv(0)).And(z.q.ULT(z.bv(64)), z.e.UGE(z.bv(1)), z.e.ULE(z.bv(4))), z.q.Eq(z.bv(0)).And(z.e.Eq(z.bv(1)))))
	assert(z.b.ULE(z.bv(3)).And(z.sh.UGE(z.b), z.sh.ULE(z.bv(12))))
	return z
}

func (z *zplace) bv(n int) z3opt.BV { return z.ctx.BVNum(int64(n), zwidth) }

// plain is the byte address of element (i, j) before the swizzle.
func (z *zplace) plain(i, j int) z3opt.BV {
	if a, ok := z.plainMemo[[2]int{i, j}]; ok {
		return a
	}
	// (i >> e) * q, linear in q for each of e's four values.
	rowPad := z.bv(0)
	for k := 4; k >= 1; k-- {
		rowPad = z.e.Eq(z.bv(k)).IfThenElse(z.q.Mul(z.bv(i>>k)), rowPad)
	}
	a := z.p.Mul(z.bv(i)).Add(z.bv(i*z.cols + j)).Add(rowPad).Mul(z.bv(z.eb))
	z.plainMemo[[2]int{i, j}] = a
	return a
}

// addr is the byte address of element (i, j).
func (z *zplace) addr(i, j int) z3opt.BV {
	if a, ok := z.addrMemo[[2]int{i, j}]; ok {
		return a
	}
	a := z.plain(i, j)
	mask := z.bv(1).Lsh(z.b).Sub(z.bv(1))
	a = a.Xor(a.URsh(z.bv(4).Add(z.sh)).And(mask).Lsh(z.bv(4)))
	z.addrMemo[[2]int{i, j}] = a
	return a
}

// low is the address of element (i, j) before the swizzle modulo 2^k
// (k from 1 to 4), as a k-bit vector: the low bits of sums and products
// depend on the operands' low bits only, so the conditions on them are
// small (alignment, the offset in a 16-byte chunk). Elements whose row
// and column agree modulo 2^k in every term share one term.
func (z *zplace) low(i, j, k int) z3opt.BV {
	mod := 1<<k - 1
	key := z.lowKey(i, j, k)
	if a, ok := z.lowMemo[key]; ok {
		return a
	}
	c := func(n int) z3opt.BV { return z.ctx.BVNum(int64(n&mod), k) }
	p, q := z.p.Extract(k-1, 0), z.q.Extract(k-1, 0)
	rowPad := c(0)
	for s := 4; s >= 1; s-- {
		rowPad = z.e.Eq(z.bv(s)).IfThenElse(q.Mul(c(key[2+s])), rowPad)
	}
	a := p.Mul(c(key[1])).Add(c(key[2])).Add(rowPad).Mul(c(z.eb))
	z.lowMemo[key] = a
	return a
}

// lowKey names low's term: its width and its constants.
func (z *zplace) lowKey(i, j, k int) [7]int {
	mod := 1<<k - 1
	key := [7]int{k, i & mod, (i*z.cols + j) & mod}
	for s := 1; s <= 4; s++ {
		key[2+s] = (i >> s) & mod
	}
	return key
}

// aligned says every element of elems starts on a multiple of align
// bytes (a power of two). The swizzle moves only address bits 4 and up,
// so up to 16 bytes the address before it decides, modulo align.
func (z *zplace) aligned(elems [][2]int, align int) z3opt.Bool {
	out := z.ctx.Const(true)
	if align <= 1 {
		return out
	}
	if align <= 16 {
		k := bits.TrailingZeros(uint(align))
		zero := z.ctx.BVNum(0, k)
		return z.lowAll(elems, k, func(a z3opt.BV) z3opt.Bool { return a.Eq(zero) })
	}
	seen := map[[2]int]bool{}
	for _, el := range elems {
		if !seen[el] {
			seen[el] = true
			a := z.addr(el[0], el[1])
			out = out.And(a.And(z.bv(align - 1)).Eq(z.bv(0)))
		}
	}
	return out
}

// lowAll is the conjunction of cond on the k low bits of the addresses
// of elems (low), each distinct term once.
func (z *zplace) lowAll(elems [][2]int, k int, cond func(z3opt.BV) z3opt.Bool) z3opt.Bool {
	out := z.ctx.Const(true)
	seen := map[[7]int]bool{}
	for _, el := range elems {
		key := z.lowKey(el[0], el[1], k)
		if !seen[key] {
			seen[key] = true
			out = out.And(cond(z.low(el[0], el[1], k)))
		}
	}
	return out
}

// phase is one phase's wavefront count, in order encoding: at least
// one, and at least l+2 where levels[l] holds (each level implies the one
// below), raised by cuts (refine). Its cost is paid on its levels.
type phase struct {
	elems  [][2]int
	width  int
	levels []z3opt.Bool
	name   string
}

// phaseOf is the count of one phase in which each of elems starts a
// width-byte access. Phases touching the same elements share it.
func (z *zplace) phaseOf(elems [][2]int, width int) *phase {
	uniq := slices.Clone(elems)
	slices.SortFunc(uniq, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	uniq = slices.Compact(uniq)
	key := fmt.Sprint(width, uniq)
	if ph, ok := z.phases[key]; ok {
		return ph
	}
	ph := &phase{elems: uniq, width: width, name: fmt.Sprintf("%s_wf%d", z.name, len(z.phases))}
	z.phases[key] = ph
	return ph
}

// atLeast is the level saying the phase takes at least n wavefronts (n
// at least 2), made with the levels below it where they are new; made
// is called with each new level.
func (z *zplace) atLeast(ph *phase, n int, made func(*phase, z3opt.Bool)) z3opt.Bool {
	for len(ph.levels) < n-1 {
		g := z.ctx.Var(fmt.Sprintf("%s_ge%d", ph.name, len(ph.levels)+2))
		if len(ph.levels) > 0 {
			z.assert(g.Implies(ph.levels[len(ph.levels)-1]))
		}
		ph.levels = append(ph.levels, g)
		if made != nil {
			made(ph, g)
		}
	}
	return ph.levels[n-2]
}

// count is a phase's wavefronts in a model.
func (ph *phase) count(m *z3opt.Model) int64 {
	n := int64(1)
	for _, g := range ph.levels {
		if m.Value(g) {
			n++
		}
	}
	return n
}

// extra is the levels of a pattern's phases, each as often as the
// pattern has the phase: the pattern's wavefronts beyond one per phase
// are the number of them that hold.
func (z *zplace) extra(pat model.AccessPattern) []z3opt.Bool {
	var out []z3opt.Bool
	for _, p := range pat.Phases {
		out = append(out, z.phaseOf(p, pat.Width).levels...)
	}
	return out
}

// refine compares each phase of pat in a model with its exact wavefronts
// in placement s (the model's), and where the model counts fewer, adds a
// cut: when the busiest bank group's accesses again fall in one group as
// distinct units, the phase takes at least that many wavefronts. The cut
// holds for every placement, so the model stays a relaxation of the
// exact count, and it excludes the model: it reports whether it cut.
// made is called with each level the cuts add.
//
// An access is a unit of max(width, bank word) bytes, aligned to its
// width; its group is the unit's address bits below the banks' span
// (model.PhaseWavefronts). A placement maps distinct elements to distinct
// bytes, so accesses of a bank word or more at distinct elements are
// distinct units; narrower ones share a word only with elements less
// than a word away before the swizzle (which moves whole 16-byte chunks),
// in their row or across a row's end.
func (z *zplace) refine(m *z3opt.Model, pat model.AccessPattern, s *model.SharedLayout, made func(*phase, z3opt.Bool)) bool {
	unit := max(pat.Width, z.bankBytes)
	shift := bits.TrailingZeros(uint(unit))
	top := bits.TrailingZeros(uint(z.banks * z.bankBytes))
	groups := max(1, z.banks*z.bankBytes/unit)
	cut := false
	for _, p := range pat.Phases {
		ph := z.phaseOf(p, pat.Width)
		have := ph.count(m)
		// The distinct units of each group, with an element of each.
		byGroup := make([][][2]int, groups)
		units := make([][]int, groups)
		for _, el := range ph.elems {
			u := s.ByteOffset(el[0], el[1]) >> shift
			g := u % groups
			if !slices.Contains(units[g], u) {
				units[g] = append(units[g], u)
				byGroup[g] = append(byGroup[g], el)
			}
		}
		busiest := 0
		for g := range byGroup {
			if len(byGroup[g]) > len(byGroup[busiest]) {
				busiest = g
			}
		}
		L := byGroup[busiest]
		if int64(len(L)) <= have {
			continue
		}
		cut = true
		premise := z.ctx.Const(true)
		for k, el := range L {
			if k > 0 && top > shift {
				premise = premise.And(z.addr(el[0], el[1]).Extract(top-1, shift).Eq(z.addr(L[0][0], L[0][1]).Extract(top-1, shift)))
			}
			for _, prev := range L[:k] {
				if z.near(prev, el, pat.Width) {
					premise = premise.And(z.plain(prev[0], prev[1]).Extract(zwidth-1, shift).NE(z.plain(el[0], el[1]).Extract(zwidth-1, shift)))
				}
			}
		}
		z.assert(premise.Implies(z.atLeast(ph, len(L), made)))
	}
	return cut
}

// near reports whether accesses of width bytes at elements a and b (b
// after a) may share a bank word.
func (z *zplace) near(a, b [2]int, width int) bool {
	if width >= z.bankBytes {
		return false
	}
	if a[0] > b[0] || a[0] == b[0] && a[1] > b[1] {
		a, b = b, a
	}
	switch b[0] - a[0] {
	case 0:
		return (b[1]-a[1])*z.eb < z.bankBytes
	case 1:
		return (z.cols-a[1]+b[1])*z.eb < z.bankBytes
	}
	return false
}

// layout reads the placement a model gives: the named Hopper mode where
// the swizzle is one, and without parameters that move no element.
func (z *zplace) layout(m *z3opt.Model, elemBits int) *model.SharedLayout {
	val := func(x z3opt.BV) int { return int(m.BV(x)) }
	l := &model.SharedLayout{Rows: z.rows, Cols: z.cols, ElemBits: elemBits, Swizzle: "none"}
	if p := val(z.p); p > 0 {
		l.Stride = z.cols + p
	}
	if m.Value(z.usePad) {
		l.Pad, l.PadEvery = val(z.q), 1<<val(z.e)
	}
	if nb := val(z.b); nb > 0 {
		l.XOR = model.Swizzle{Bits: nb, Base: 4, Shift: val(z.sh)}
	}
	return canonical(l)
}

// canonical drops the parameters of a placement that move no element and
// names a swizzle by its Hopper mode where it is one, as solver.Placements
// writes it.
func canonical(l *model.SharedLayout) *model.SharedLayout {
	same := func(c *model.SharedLayout) bool {
		for i := range l.Rows {
			for j := range l.Cols {
				if c.ByteOffset(i, j) != l.ByteOffset(i, j) {
					return false
				}
			}
		}
		return true
	}
	if l.PadEvery > 0 {
		c := *l
		c.Pad, c.PadEvery = 0, 0
		if same(&c) {
			l = &c
		}
	}
	if l.XOR.Bits > 0 {
		c := *l
		c.XOR = model.Swizzle{}
		if same(&c) {
			return &c
		}
		if l.XOR.Shift == 3 && l.PadEvery == 0 && c.ByteOffset(1, 0) == 16<<l.XOR.Bits {
			c.Swizzle = []string{"", "32B", "64B", "128B"}[l.XOR.Bits]
			if same(&c) {
				return &c
			}
		}
	}
	return l
}

// PlacementSMT searches a buffer's placement with its parameters as Z3
// bit-vector unknowns (zplace) instead of a list. Every access of
// patterns must stay aligned to its width (so that it stays one access,
// as the enumerated placements are checked) and to its rule's alignment;
// the total wavefronts are minimised by Z3's optimiser, each phase's
// levels soft, and counted exactly per phase by cuts (refine) until the
// model's count is the placement's. It returns the placement and its
// wavefronts.
func PlacementSMT(rows, cols, elemBits int, patterns []model.AccessPattern, t *model.Target) (s *model.SharedLayout, wavefronts int, err error) {
	defer recoverZ3(&err, nil)
	ctx := z3opt.NewContext()
	defer ctx.Close()
	deadline := time.Now().Add(time.Minute)
	ctx.InterruptAt(deadline)
	o := ctx.NewOptimize(deadline)
	z := newZPlace(ctx, o.Assert, "b", rows, cols, elemBits, t)
	uses := map[*phase]int64{} // how many accesses' phases each phase is
	base := 0
	for _, pat := range patterns {
		for _, p := range pat.Phases {
			o.Assert(z.aligned(p, max(pat.Width, pat.Align)))
			uses[z.phaseOf(p, pat.Width)]++
			base++
		}
	}
	obj := -1
	made := func(ph *phase, g z3opt.Bool) { obj = o.AssertSoft(g.Not(), uses[ph], "wavefronts") }
	for {
		switch o.Check() {
		case z3opt.Unsat:
			return nil, 0, fmt.Errorf("no placement keeps the accesses aligned")
		case z3opt.Unknown:
			return nil, 0, fmt.Errorf("z3 gave no answer: %s", o.ReasonUnknown())
		}
		m := o.Model()
		total := int64(base)
		if obj >= 0 {
			up, _ := o.Upper(obj)
			total += up
		}
		// The minimum of a relaxation: optimal once the exact count agrees.
		s = z.layout(m, elemBits)
		cut := false
		for _, pat := range patterns {
			cut = z.refine(m, pat, s, made) || cut
		}
		if !cut {
			return s, int(total), nil
		}
	}
}
