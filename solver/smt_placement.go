//go:build z3

package solver

import (
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/aclements/go-z3/z3"

	"planner/model"
)

// zplace is one buffer's placement with its parameters as Z3 bit-vector
// unknowns: rows Cols+p elements apart (p < 64), q more elements after
// every 2^e rows (e from 1 to 4, or none), and an XOR of b bits (0 to 3)
// of the 16-byte chunk index with the address bits from 4+sh up (sh from
// b to 12). Every placement placements() lists for a buffer of whole-byte
// elements is one of these.
type zplace struct {
	ctx                 *z3.Context
	s                   *z3.Solver
	rows, cols, eb      int
	p, q, e, b, sh      z3.BV
	usePad              z3.Bool
	banks, bankBytes    int
	plainMemo, addrMemo map[[2]int]z3.BV
	phases              map[string]*phase
	name                string
}

// zwidth is the bit-vector width of addresses: enough for any buffer the
// capacity admits (16 MiB), with room for the padding unknowns.
const zwidth = 24

func newZPlace(ctx *z3.Context, s *z3.Solver, name string, rows, cols, elemBits int, t *model.Target) *zplace {
	z := &zplace{ctx: ctx, s: s, rows: rows, cols: cols, eb: elemBits / 8,
		plainMemo: map[[2]int]z3.BV{}, addrMemo: map[[2]int]z3.BV{}, phases: map[string]*phase{}, name: name}
	z.banks, z.bankBytes = t.Banks, t.BankBytes
	if z.banks <= 0 || z.bankBytes <= 0 {
		z.banks, z.bankBytes = 32, 4
	}
	z.p = ctx.BVConst(name+"_pad", zwidth)
	z.q = ctx.BVConst(name+"_rowpad", zwidth)
	z.e = ctx.BVConst(name+"_every", zwidth)
	z.b = ctx.BVConst(name+"_bits", zwidth)
	z.sh = ctx.BVConst(name+"_shift", zwidth)
	z.usePad = ctx.BoolConst(name + "_row_dependent")
	s.Assert(z.p.ULT(z.bv(64)))
	s.Assert(z.usePad.IfThenElse(z.q.UGT(z.bv(0)).And(z.q.ULT(z.bv(64))).And(z.e.UGE(z.bv(1))).And(z.e.ULE(z.bv(4))), z.q.Eq(z.bv(0)).And(z.e.Eq(z.bv(1)))).(z3.Bool))
	s.Assert(z.b.ULE(z.bv(3)).And(z.sh.UGE(z.b)).And(z.sh.ULE(z.bv(12))))
	return z
}

func (z *zplace) bv(n int) z3.BV { return z.ctx.FromInt(int64(n), z.ctx.BVSort(zwidth)).(z3.BV) }

// plain is the byte address of element (i, j) before the swizzle.
func (z *zplace) plain(i, j int) z3.BV {
	if a, ok := z.plainMemo[[2]int{i, j}]; ok {
		return a
	}
	// (i >> e) * q, linear in q for each of e's four values.
	rowPad := z.bv(0)
	for k := 4; k >= 1; k-- {
		rowPad = z.e.Eq(z.bv(k)).IfThenElse(z.q.Mul(z.bv(i>>k)), rowPad).(z3.BV)
	}
	a := z.p.Mul(z.bv(i)).Add(z.bv(i*z.cols + j)).Add(rowPad).Mul(z.bv(z.eb))
	z.plainMemo[[2]int{i, j}] = a
	return a
}

// addr is the byte address of element (i, j).
func (z *zplace) addr(i, j int) z3.BV {
	if a, ok := z.addrMemo[[2]int{i, j}]; ok {
		return a
	}
	a := z.plain(i, j)
	mask := z.bv(1).Lsh(z.b).Sub(z.bv(1))
	a = a.Xor(a.URsh(z.bv(4).Add(z.sh)).And(mask).Lsh(z.bv(4)))
	z.addrMemo[[2]int{i, j}] = a
	return a
}

// aligned says every element of elems starts on a multiple of align
// bytes (a power of two). The swizzle moves only address bits 4 and up,
// so up to 16 bytes the address before it decides.
func (z *zplace) aligned(elems [][2]int, align int) z3.Bool {
	out := z.ctx.FromBool(true)
	if align <= 1 {
		return out
	}
	seen := map[[2]int]bool{}
	for _, el := range elems {
		if align <= 16 && 16%z.eb == 0 {
			el[1] %= 16 / z.eb // the low bits depend on the column modulo 16 bytes only
		}
		if seen[el] {
			continue
		}
		seen[el] = true
		a := z.plain(el[0], el[1])
		if align > 16 {
			a = z.addr(el[0], el[1])
		}
		out = out.And(a.And(z.bv(align - 1)).Eq(z.bv(0)))
	}
	return out
}

// phase is one phase's wavefront unknown: the distinct elements whose
// accesses of width bytes it counts.
type phase struct {
	elems [][2]int
	width int
	wf    z3.Int
}

// phaseOf is the unknown for the wavefronts of one phase in which each of
// elems starts a width-byte access: at least one, and raised by cuts
// (refine). Phases touching the same elements share it.
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
	ph := &phase{elems: uniq, width: width, wf: z.ctx.IntConst(fmt.Sprintf("%s_wf%d", z.name, len(z.phases)))}
	z.phases[key] = ph
	z.s.Assert(ph.wf.GE(z.ctx.FromInt(1, z.ctx.IntSort()).(z3.Int)))
	return ph
}

// wavefronts is the sum of a pattern's phase unknowns.
func (z *zplace) wavefronts(pat model.AccessPattern) z3.Int {
	var terms []z3.Int
	for _, p := range pat.Phases {
		terms = append(terms, z.phaseOf(p, pat.Width).wf)
	}
	return z3Sum(z.ctx, terms)
}

// refine compares each phase of pat in a model with its exact wavefronts
// in placement s (the model's), and where the model counts fewer, adds a
// cut: when the busiest bank group's accesses again fall in one group as
// distinct units, the phase takes at least that many wavefronts. The cut
// holds for every placement, so the model stays a relaxation of the
// exact count, and it excludes the model: it reports whether it cut.
//
// An access is a unit of max(width, bank word) bytes, aligned to its
// width; its group is the unit's address bits below the banks' span
// (model.PhaseWavefronts). A placement maps distinct elements to distinct
// bytes, so accesses of a bank word or more at distinct elements are
// distinct units; narrower ones share a word only with elements less
// than a word away before the swizzle (which moves whole 16-byte chunks),
// in their row or across a row's end.
func (z *zplace) refine(m *z3.Model, pat model.AccessPattern, s *model.SharedLayout) bool {
	unit := max(pat.Width, z.bankBytes)
	shift := bits.TrailingZeros(uint(unit))
	top := bits.TrailingZeros(uint(z.banks * z.bankBytes))
	groups := max(1, z.banks*z.bankBytes/unit)
	cut := false
	for _, p := range pat.Phases {
		ph := z.phaseOf(p, pat.Width)
		have := z3Value(m, ph.wf)
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
		premise := z.ctx.FromBool(true)
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
		z.s.Assert(premise.Implies(ph.wf.GE(z.ctx.FromInt(int64(len(L)), z.ctx.IntSort()).(z3.Int))))
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
func (z *zplace) layout(m *z3.Model, elemBits int) *model.SharedLayout {
	val := func(x z3.BV) int {
		v, _, _ := m.Eval(x, true).(z3.BV).AsInt64()
		return int(v)
	}
	l := &model.SharedLayout{Rows: z.rows, Cols: z.cols, ElemBits: elemBits, Swizzle: "none"}
	if p := val(z.p); p > 0 {
		l.Stride = z.cols + p
	}
	if rp, _ := m.Eval(z.usePad, true).(z3.Bool).AsBool(); rp {
		l.Pad, l.PadEvery = val(z.q), 1<<val(z.e)
	}
	if nb := val(z.b); nb > 0 {
		l.XOR = model.Swizzle{Bits: nb, Base: 4, Shift: val(z.sh)}
	}
	return canonical(l)
}

// canonical drops the parameters of a placement that move no element and
// names a swizzle by its Hopper mode where it is one, as placements()
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
// the total wavefronts, counted exactly per phase, are minimised by
// bisection between Push and Pop. It returns the placement and its
// wavefronts.
func PlacementSMT(rows, cols, elemBits int, patterns []model.AccessPattern, t *model.Target) (s *model.SharedLayout, wavefronts int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("z3: %v", r)
		}
	}()
	cfg := z3.NewContextConfig()
	cfg.SetUint("timeout", 60000)
	ctx := z3.NewContext(cfg)
	sv := z3.NewSolver(ctx)
	z := newZPlace(ctx, sv, "b", rows, cols, elemBits, t)
	var terms []z3.Int
	for _, pat := range patterns {
		for _, phase := range pat.Phases {
			sv.Assert(z.aligned(phase, max(pat.Width, pat.Align)))
		}
		terms = append(terms, z.wavefronts(pat))
	}
	cost := z3Sum(ctx, terms)
	atMost := func(k int64) z3.Bool { return cost.LE(ctx.FromInt(k, ctx.IntSort()).(z3.Int)) }
	lb := int64(0)
	for {
		var m *z3.Model
		status, opt := z3Minimise(sv, atMost, lb, time.Time{}, func(mm *z3.Model) int64 {
			m = mm
			return z3Value(mm, cost)
		})
		switch status {
		case StatusInfeasible:
			return nil, 0, fmt.Errorf("no placement keeps the accesses aligned")
		case StatusOptimal:
		default:
			return nil, 0, fmt.Errorf("z3 gave no answer")
		}
		// The minimum of a relaxation: optimal once the exact count agrees.
		lb = opt
		s = z.layout(m, elemBits)
		cut := false
		for _, pat := range patterns {
			cut = z.refine(m, pat, s) || cut
		}
		if !cut {
			return s, int(opt), nil
		}
	}
}
