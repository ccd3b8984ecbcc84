//go:build z3

package solver

import (
	"fmt"

	"github.com/aclements/go-z3/z3"
)

// Z3Conflict finds a minimal set of conflicting facts with Z3: a Boolean
// guard per fact, an integer choice per node, and every guarded entry
// asserted as "its facts imply the choice (or pair) is not taken". go-z3
// binds no unsat cores, so each subset of guards is asserted between Push
// and Pop and shrunk by deletion. An error inside Z3 (go-z3 panics) is
// returned with its message.
func Z3Conflict(p *Problem) (core []int, err error) {
	defer recoverZ3(&err, nil)
	if z3Panic != nil {
		panic(z3Panic)
	}
	ctx := z3.NewContext(z3.NewContextConfig())
	s := z3.NewSolver(ctx)
	num := func(n int) z3.Int { return ctx.FromInt(int64(n), ctx.IntSort()).(z3.Int) }
	sel := make([]z3.Bool, len(p.facts.list))
	for i := range sel {
		sel[i] = ctx.BoolConst(fmt.Sprintf("fact%d", i))
	}
	x := make([]z3.Int, len(p.Nodes))
	for n, node := range p.Nodes {
		x[n] = ctx.IntConst(fmt.Sprintf("x%d", n))
		s.Assert(x[n].GE(num(0)).And(x[n].LT(num(node.Choices()))))
	}
	facts := func(g int32) z3.Bool {
		b := ctx.FromBool(true)
		for _, id := range p.facts.guards[g] {
			b = b.And(sel[id])
		}
		return b
	}
	for n, fs := range p.facts.nodeForbid {
		for _, fb := range fs {
			s.Assert(facts(fb.Guard).Implies(x[n].NE(num(int(fb.I)))))
		}
	}
	for k, fs := range p.facts.edgeForbid {
		e := p.PBQP.Edges[k]
		for _, fb := range fs {
			s.Assert(facts(fb.Guard).Implies(x[e.A].Eq(num(int(fb.I))).And(x[e.B].Eq(num(int(fb.J)))).Not()))
		}
	}
	holds := func(ids []int) bool {
		s.Push()
		defer s.Pop()
		for _, id := range ids {
			s.Assert(sel[id])
		}
		ok, err := s.Check()
		if err != nil {
			panic(err)
		}
		return ok
	}
	return minimalCore(p, holds, nil), nil
}
