//go:build z3

package solver

import (
	"fmt"
	"math/bits"

	"github.com/aclements/go-z3/z3"

	"planner/model"
)

// PlacementSMT searches a buffer's placement with its parameters as Z3
// bit-vector unknowns instead of a list: rows Cols+p elements apart (p <
// 64), q more elements after every 2^e rows (e from 1 to 4, or none), and
// an XOR of b bits (0 to 3) of the 16-byte chunk index with the address
// bits from 4+sh up (sh from b to 12). Every access of patterns must stay
// aligned to its width (so that it stays one access, as the enumerated
// placements are checked) and to its rule's alignment; the total
// wavefronts, counted exactly per phase (the
// distinct bank units of the busiest bank group), are minimised by
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
	const width = 32
	bv := func(n int) z3.BV { return ctx.FromInt(int64(n), ctx.BVSort(width)).(z3.BV) }
	p := ctx.BVConst("pad", width)
	q := ctx.BVConst("rowpad", width)
	e := ctx.BVConst("every", width)
	b := ctx.BVConst("bits", width)
	sh := ctx.BVConst("shift", width)
	usePad := ctx.BoolConst("row_dependent")
	sv.Assert(p.ULT(bv(64)))
	sv.Assert(usePad.IfThenElse(q.UGT(bv(0)).And(q.ULT(bv(64))).And(e.UGE(bv(1))).And(e.ULE(bv(4))), q.Eq(bv(0)).And(e.Eq(bv(1)))).(z3.Bool))
	sv.Assert(b.ULE(bv(3)).And(sh.UGE(b)).And(sh.ULE(bv(12))))
	eb := elemBits / 8
	addr := func(i, j int) z3.BV {
		// (i >> e) * q, linear in q for each of e's four values.
		rowPad := bv(0)
		for k := 4; k >= 1; k-- {
			rowPad = e.Eq(bv(k)).IfThenElse(q.Mul(bv(i>>k)), rowPad).(z3.BV)
		}
		elems := p.Mul(bv(i)).Add(bv(i * cols)).Add(bv(j)).Add(rowPad)
		a := elems.Mul(bv(eb))
		mask := bv(1).Lsh(b).Sub(bv(1))
		return a.Xor(a.URsh(bv(4).Add(sh)).And(mask).Lsh(bv(4)))
	}
	banks, bankBytes := t.Banks, t.BankBytes
	if banks <= 0 || bankBytes <= 0 {
		banks, bankBytes = 32, 4
	}
	zero := ctx.FromInt(0, ctx.IntSort()).(z3.Int)
	one := ctx.FromInt(1, ctx.IntSort()).(z3.Int)
	var total []z3.Int
	for k, pat := range patterns {
		unit := max(pat.Width, bankBytes)
		shift := bits.TrailingZeros(uint(unit))
		groups := banks * bankBytes / unit
		for n, phase := range pat.Phases {
			us := make([]z3.BV, len(phase))
			gs := make([]z3.BV, len(phase))
			for m, el := range phase {
				a := addr(el[0], el[1])
				sv.Assert(a.URem(bv(max(pat.Width, pat.Align))).Eq(bv(0)))
				us[m] = a.URsh(bv(shift))
				gs[m] = us[m].URem(bv(groups))
			}
			wf := ctx.IntConst(fmt.Sprintf("wf_%d_%d", k, n))
			sv.Assert(wf.GE(one))
			first := make([]z3.Bool, len(phase))
			for m := range phase {
				f := ctx.FromBool(true)
				for m2 := range m {
					f = f.And(us[m2].NE(us[m]))
				}
				first[m] = f
			}
			for m := range phase {
				terms := []z3.Int{}
				for m2 := range phase {
					terms = append(terms, gs[m2].Eq(gs[m]).And(first[m2]).IfThenElse(one, zero).(z3.Int))
				}
				sv.Assert(wf.GE(zero.Add(terms...)))
			}
			total = append(total, wf)
		}
	}
	cost := zero.Add(total...)
	ok, err := sv.Check()
	switch {
	case err != nil:
		return nil, 0, err
	case !ok:
		return nil, 0, fmt.Errorf("no placement keeps the accesses aligned")
	}
	read := func() (*model.SharedLayout, int) {
		m := sv.Model()
		val := func(x z3.BV) int {
			v, _, _ := m.Eval(x, true).(z3.BV).AsInt64()
			return int(v)
		}
		c, _, _ := m.Eval(cost, true).(z3.Int).AsInt64()
		l := &model.SharedLayout{Rows: rows, Cols: cols, ElemBits: elemBits, Swizzle: "none", Stride: cols + val(p)}
		if rp, _ := m.Eval(usePad, true).(z3.Bool).AsBool(); rp {
			l.Pad, l.PadEvery = val(q), 1<<val(e)
		}
		if nb := val(b); nb > 0 {
			l.XOR = model.Swizzle{Bits: nb, Base: 4, Shift: val(sh)}
		}
		return l, int(c)
	}
	best, bestCost := read()
	lb := 0
	for lb < bestCost {
		k := lb + (bestCost-lb-1)/2
		sv.Push()
		sv.Assert(cost.LE(ctx.FromInt(int64(k), ctx.IntSort()).(z3.Int)))
		ok, err := sv.Check()
		switch {
		case err != nil:
			sv.Pop()
			return best, bestCost, err
		case ok:
			best, bestCost = read()
		default:
			lb = k + 1
		}
		sv.Pop()
	}
	return best, bestCost, nil
}
