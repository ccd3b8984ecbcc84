//go:build z3

package smt

import (
	"fmt"
	"time"

	"planner/solver"
	"planner/solver/z3opt"
)

// Z3Conflict finds a minimal set of conflicting facts with Z3: a Boolean
// guard per fact, a Boolean per choice of each node with exactly one per
// node (pseudo-Boolean), and every guarded entry asserted as "its facts
// imply the choice (or pair) is not taken". Each subset of facts is
// checked as assumptions, and Z3's unsat core of a failed check names the
// facts the deletion goes on with, as gini's Why does
// (feasibility.core). An error inside Z3 is returned with its message.
func Z3Conflict(p *solver.Problem) (core []int, err error) {
	defer recoverZ3(&err, nil)
	if z3Panic != nil {
		panic(z3Panic)
	}
	ctx := z3opt.NewContext()
	defer ctx.Close()
	s := ctx.NewSolver(time.Time{})
	sel := make([]z3opt.Bool, len(p.Facts()))
	for i := range sel {
		sel[i] = ctx.Var(fmt.Sprintf("fact%d", i))
	}
	x := make([][]z3opt.Bool, len(p.Nodes))
	for n, node := range p.Nodes {
		x[n] = make([]z3opt.Bool, node.Choices())
		for i := range x[n] {
			x[n][i] = ctx.Var(fmt.Sprintf("x%d_%d", n, i))
		}
		s.Assert(ctx.ExactlyOne(x[n]...))
	}
	facts := func(ids []int) z3opt.Bool {
		var b []z3opt.Bool
		for _, id := range ids {
			b = append(b, sel[id])
		}
		return ctx.And(b...)
	}
	for n := range p.Nodes {
		for _, fb := range p.NodeForbids(n) {
			s.Assert(ctx.Implies(facts(fb.Facts), ctx.Not(x[n][fb.Choice])))
		}
	}
	for k, e := range p.PBQP.Edges {
		for _, fb := range p.EdgeForbids(k) {
			s.Assert(ctx.Implies(facts(fb.Facts), ctx.Or(ctx.Not(x[e.A][fb.Choice]), ctx.Not(x[e.B][fb.Other]))))
		}
	}
	// The register budget, exactly: at each point where it can
	// overflow, the chosen registers above the fewest fit the room left.
	if fact, rows := p.RegisterBudget(); fact != nil {
		for _, row := range rows {
			bs := make([]z3opt.Bool, len(row.Node))
			for k, n := range row.Node {
				bs[k] = x[n][row.Choice[k]]
			}
			s.Assert(ctx.Implies(sel[fact.ID], ctx.PBLe(bs, row.Excess, row.Room)))
		}
	}
	var last []int // the facts of the last check
	holds := func(ids []int) bool {
		last = ids
		as := make([]z3opt.Bool, len(ids))
		for k, id := range ids {
			as[k] = sel[id]
		}
		switch s.Check(as...) {
		case z3opt.Sat:
			return true
		case z3opt.Unsat:
			return false
		}
		panic("Z3 could not decide a set of facts")
	}
	why := func() []int {
		as := make([]z3opt.Bool, len(last))
		for k, id := range last {
			as[k] = sel[id]
		}
		var out []int
		for _, k := range s.Core(as) {
			out = append(out, last[k])
		}
		return out
	}
	return p.MinimalCore(holds, why), nil
}
