//go:build z3

package solver

import (
	"fmt"
	"slices"
	"time"

	"github.com/aclements/go-z3/z3"

	"planner/solver/pbqp"
	"planner/solver/z3opt"
)

func init() {
	Backends["smt"] = smtBackend{}
}

// smtBackend is the Z3 backend: the whole problem in one model with the
// placements as unknowns where it can (smt_whole.go), else Z3 deciding
// the core of the enumerated search, and Z3's cores for explanations.
type smtBackend struct{}

func (smtBackend) Name() string { return "smt" }

func (smtBackend) DecideCore(core *pbqp.Problem, deadline time.Time) (Status, []int, int64, error) {
	return Z3Core(core, deadline)
}

func (smtBackend) SolveWhole(p *Problem, opt Options) (*Result, string, error) {
	return solveSymbolic(p, opt)
}

func (smtBackend) Conflict(p *Problem) ([]int, error) { return Z3Conflict(p) }

// SolvePBQPSMT minimises a PBQP with the same reductions as pbqp.Solve and
// Z3 (build tag z3) deciding the core in place of the gini search. It is
// the second backend: tests check that both prove the same optimum. An
// internal failure inside Z3 is returned as the error.
func SolvePBQPSMT(p *pbqp.Problem, opt pbqp.Options) (pbqp.Solution, error) {
	var failure error
	opt.Core = func(core *pbqp.Problem, deadline time.Time) (Status, []int, int64) {
		st, choice, lb, err := Z3Core(core, deadline)
		if err != nil && failure == nil {
			failure = err
		}
		return st, choice, lb
	}
	sol := pbqp.Solve(p, opt)
	return sol, failure
}

// z3Context is a context whose solver calls give up at the deadline.
func z3Context(deadline time.Time) *z3.Context {
	cfg := z3.NewContextConfig()
	if !deadline.IsZero() {
		cfg.SetUint("timeout", uint(max(time.Until(deadline).Milliseconds(), 1)))
	}
	return z3.NewContext(cfg)
}

// z3PBQP asserts a PBQP in s: an integer unknown per node for its choice,
// forbidden choices and pairs as constraints. It returns the unknowns and
// the cost as a sum of if-then-else terms.
func z3PBQP(ctx *z3.Context, s *z3.Solver, p *pbqp.Problem) (x []z3.Int, cost []z3.Int) {
	num := func(n int64) z3.Int { return ctx.FromInt(n, ctx.IntSort()).(z3.Int) }
	zero := num(0)
	x = make([]z3.Int, len(p.Cost))
	is := func(n, i int) z3.Bool { return x[n].Eq(num(int64(i))) }
	for n, costs := range p.Cost {
		x[n] = ctx.IntConst(fmt.Sprintf("x%d", n))
		s.Assert(x[n].GE(zero).And(x[n].LT(num(int64(len(costs))))))
		for i, c := range costs {
			switch {
			case c >= Inf:
				s.Assert(is(n, i).Not())
			case c > 0:
				cost = append(cost, is(n, i).IfThenElse(num(c), zero).(z3.Int))
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
					cost = append(cost, is(e.A, i).And(is(e.B, j)).IfThenElse(num(c), zero).(z3.Int))
				}
			}
		}
	}
	return x, cost
}

// z3Sum is the sum of terms (0 for none).
func z3Sum(ctx *z3.Context, terms []z3.Int) z3.Int {
	zero := ctx.FromInt(0, ctx.IntSort()).(z3.Int)
	if len(terms) == 0 {
		return zero
	}
	return zero.Add(terms...)
}

// bvSum adds bit-vectors of one width as a balanced tree; zero for none.
func bvSum(terms []z3.BV, zero z3.BV) z3.BV {
	switch len(terms) {
	case 0:
		return zero
	case 1:
		return terms[0]
	}
	h := len(terms) / 2
	return bvSum(terms[:h], zero).Add(bvSum(terms[h:], zero))
}

// z3Value reads an integer from a model.
func z3Value(m *z3.Model, v z3.Int) int64 {
	n, _, _ := m.Eval(v, true).(z3.Int).AsInt64()
	return n
}

// z3Choice reads the nodes' choices from a model.
func z3Choice(m *z3.Model, x []z3.Int) []int {
	out := make([]int, len(x))
	for n := range x {
		out[n] = int(z3Value(m, x[n]))
	}
	return out
}

// z3Minimise minimises a cost, known to be no less than lb (atMost(k)
// says it is at most k), by bisection on
// its bound, each bound tried between Push and Pop (go-z3 binds neither
// Optimize nor unsat cores). read is called with every model found, each
// cheaper than the last, and returns its cost. It returns the status and
// the lower bound proven (the minimum when optimal): an error inside Z3
// or the deadline after a model gives feasible; before one, unknown.
func z3Minimise(s *z3.Solver, atMost func(k int64) z3.Bool, lb int64, deadline time.Time, read func(*z3.Model) int64) (Status, int64) {
	if lb > 0 {
		// A bound known from an earlier search: try it first.
		s.Push()
		s.Assert(atMost(lb))
		ok, err := s.Check()
		if err == nil && ok {
			best := read(s.Model())
			s.Pop()
			return StatusOptimal, best
		}
		s.Pop()
		if err == nil {
			lb++
		}
	}
	ok, err := s.Check()
	switch {
	case err != nil:
		return StatusUnknown, 0
	case !ok:
		return StatusInfeasible, Inf
	}
	best := read(s.Model())
	for lb < best {
		if !deadline.IsZero() && time.Now().After(deadline) {
			return StatusFeasible, lb
		}
		k := lb + (best-lb-1)/2
		s.Push()
		s.Assert(atMost(k))
		ok, err := s.Check()
		switch {
		case err != nil:
			s.Pop()
			return StatusFeasible, lb
		case ok:
			best = read(s.Model())
		default:
			lb = k + 1
		}
		s.Pop()
	}
	return StatusOptimal, best
}

// recoverZ3, deferred at the boundary of the Z3 backend, turns a panic
// into an error that keeps its message: go-z3 reports Z3's own errors by
// panicking with Z3's message (z3/context.go, goZ3ErrorHandler), and any
// other panic is a bug in this package. Either is an internal failure:
// it is never read as "unknown", which would hide it. The status, when
// given, becomes unknown. It must be deferred itself (recover works only
// in the deferred call).
func recoverZ3(err *error, status *Status) {
	r := recover()
	if r != nil && status != nil {
		*status = StatusUnknown
	}
	switch r := r.(type) {
	case nil:
	case string:
		*err = fmt.Errorf("internal error: Z3 failed: %s", r)
	default:
		*err = fmt.Errorf("internal error in the smt backend: %v", r)
	}
}

// z3Panic, when set by a test, panics inside the Z3 backend with its
// value, to show that the failure reaches the caller.
var z3Panic any

// Z3Core minimises a core with Z3's optimiser (MaxSMT): a Boolean
// unknown per allowed choice of each node, exactly one per node as a
// pseudo-Boolean constraint, forbidden pairs as clauses, and every cost
// a soft constraint whose weight is paid where it fails: "not this
// choice" for a node's cost, "not both" for a pair's. The deadline stops
// Z3 (its timeout, and an interrupt at the deadline) with the best plan
// found so far as feasible, or unknown when there is none; an error
// inside Z3 is returned, with status unknown.
func Z3Core(p *pbqp.Problem, deadline time.Time) (status Status, choice []int, lb int64, err error) {
	defer recoverZ3(&err, &status)
	if z3Panic != nil {
		panic(z3Panic)
	}
	ctx := z3opt.NewContext()
	defer ctx.Close()
	ctx.InterruptAt(deadline)
	o := ctx.NewOptimize(deadline)
	x, obj := maxSATPBQP(ctx, o, p)
	r := o.Check()
	if r == z3opt.Unsat {
		return StatusInfeasible, nil, Inf, nil
	}
	if m := o.Model(); m != nil {
		choice = maxSATChoice(m, x)
	}
	cost := Inf
	if choice != nil {
		cost = p.Evaluate(choice)
	}
	if r == z3opt.Sat && cost < Inf {
		if obj >= 0 {
			if up, ok := o.Upper(obj); !ok || up != cost {
				panic(fmt.Sprintf("Z3's optimum %d is not the plan's cost %d", up, cost))
			}
		}
		return StatusOptimal, choice, cost, nil
	}
	if obj >= 0 {
		if lo, ok := o.Lower(obj); ok {
			lb = max(lo, 0)
		}
	}
	if cost < Inf {
		return StatusFeasible, choice, min(lb, cost), nil
	}
	return StatusUnknown, nil, lb, nil
}

// maxSATPBQP asserts a PBQP in o (see Z3Core): x[n][i] is node n's
// choice i, the zero Bool where the choice is forbidden. It returns the
// objective of the soft constraints, -1 where nothing costs.
func maxSATPBQP(ctx *z3opt.Context, o *z3opt.Optimize, p *pbqp.Problem) (x [][]z3opt.Bool, obj int) {
	obj = -1
	soft := func(b z3opt.Bool, c int64) { obj = o.AssertSoft(b, c, "cost") }
	x = make([][]z3opt.Bool, len(p.Cost))
	for n, costs := range p.Cost {
		x[n] = make([]z3opt.Bool, len(costs))
		var allowed []z3opt.Bool
		for i, c := range costs {
			if c >= Inf {
				continue
			}
			x[n][i] = ctx.Var(fmt.Sprintf("x%d_%d", n, i))
			allowed = append(allowed, x[n][i])
			if c > 0 {
				soft(ctx.Not(x[n][i]), c)
			}
		}
		o.Assert(ctx.ExactlyOne(allowed...))
	}
	var none z3opt.Bool
	for _, e := range p.Edges {
		for i, row := range e.M {
			for j, c := range row {
				a, b := x[e.A][i], x[e.B][j]
				if c == 0 || a == none || b == none {
					continue
				}
				notBoth := ctx.Or(ctx.Not(a), ctx.Not(b))
				if c >= Inf {
					o.Assert(notBoth)
				} else {
					soft(notBoth, c)
				}
			}
		}
	}
	return x, obj
}

// maxSATChoice reads the nodes' choices from a model, nil where a node
// has none.
func maxSATChoice(m *z3opt.Model, x [][]z3opt.Bool) []int {
	var none z3opt.Bool
	out := make([]int, len(x))
	for n, xs := range x {
		out[n] = slices.IndexFunc(xs, func(b z3opt.Bool) bool { return b != none && m.Value(b) })
		if out[n] < 0 {
			return nil
		}
	}
	return out
}
