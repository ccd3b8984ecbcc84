//go:build z3

package solver

import (
	"fmt"
	"time"

	"github.com/aclements/go-z3/z3"
)

func init() { Backends["smt"] = Backend{Core: Z3Core, Conflict: Z3Conflict} }

// SolvePBQPSMT minimises a PBQP with the same reductions as SolvePBQP and
// Z3 (build tag z3) deciding the core in place of the gini search. It is
// the second backend: tests check that both prove the same optimum.
func SolvePBQPSMT(p *PBQP, opt PBQPOptions) PSolution {
	opt.Core = Z3Core
	return SolvePBQP(p, opt)
}

// Z3Core minimises a core with Z3: an integer unknown per node for its
// choice, forbidden choices and pairs as constraints, the cost as a sum
// of if-then-else terms, and the minimum found by bisection on the bound,
// each bound tried between Push and Pop (go-z3 binds neither Optimize
// nor unsat cores). An error inside Z3, which go-z3 reports by panicking,
// or the deadline gives the best plan so far with status feasible, or
// unknown when there is none.
func Z3Core(p *PBQP, deadline time.Time) (status Status, choice []int, lb int64) {
	defer func() {
		if r := recover(); r != nil {
			if choice == nil {
				status = StatusUnknown
			} else {
				status = StatusFeasible
			}
		}
	}()
	cfg := z3.NewContextConfig()
	if !deadline.IsZero() {
		cfg.SetUint("timeout", uint(max(time.Until(deadline).Milliseconds(), 1)))
	}
	ctx := z3.NewContext(cfg)
	s := z3.NewSolver(ctx)
	num := func(n int64) z3.Int { return ctx.FromInt(n, ctx.IntSort()).(z3.Int) }
	zero := num(0)
	x := make([]z3.Int, len(p.Cost))
	is := func(n, i int) z3.Bool { return x[n].Eq(num(int64(i))) }
	var terms []z3.Int
	for n, costs := range p.Cost {
		x[n] = ctx.IntConst(fmt.Sprintf("x%d", n))
		s.Assert(x[n].GE(zero).And(x[n].LT(num(int64(len(costs))))))
		for i, c := range costs {
			switch {
			case c >= Inf:
				s.Assert(is(n, i).Not())
			case c > 0:
				terms = append(terms, is(n, i).IfThenElse(num(c), zero).(z3.Int))
			}
		}
	}
	for _, e := range p.Edges {
		for i, row := range e.M {
			for j, c := range row {
				switch {
				case c >= Inf:
					s.Assert(is(e.A, i).And(is(e.B, j)).Not())
				case c > 0:
					terms = append(terms, is(e.A, i).And(is(e.B, j)).IfThenElse(num(c), zero).(z3.Int))
				}
			}
		}
	}
	cost := zero
	if len(terms) > 0 {
		cost = zero.Add(terms...)
	}
	read := func() []int {
		m := s.Model()
		out := make([]int, len(x))
		for n := range x {
			v, _, _ := m.Eval(x[n], true).(z3.Int).AsInt64()
			out[n] = int(v)
		}
		return out
	}
	late := func() bool { return !deadline.IsZero() && time.Now().After(deadline) }
	ok, err := s.Check()
	switch {
	case err != nil:
		return StatusUnknown, nil, 0
	case !ok:
		return StatusInfeasible, nil, Inf
	}
	choice = read()
	best := p.Evaluate(choice)
	for lb < best {
		if late() {
			return StatusFeasible, choice, lb
		}
		k := lb + (best-lb-1)/2
		s.Push()
		s.Assert(cost.LE(num(k)))
		ok, err := s.Check()
		switch {
		case err != nil:
			s.Pop()
			return StatusFeasible, choice, lb
		case ok:
			choice = read()
			best = p.Evaluate(choice)
		default:
			lb = k + 1
		}
		s.Pop()
	}
	return StatusOptimal, choice, best
}
