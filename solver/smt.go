//go:build z3

package solver

import (
	"fmt"
	"time"

	"github.com/aclements/go-z3/z3"

	"planner/solver/pbqp"
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

// Z3Core minimises a core with Z3: the PBQP asserted by z3PBQP, minimised
// by z3Minimise. The deadline gives the best plan so far with status
// feasible, or unknown when there is none; an error inside Z3 is
// returned, with status unknown.
func Z3Core(p *pbqp.Problem, deadline time.Time) (status Status, choice []int, lb int64, err error) {
	defer recoverZ3(&err, &status)
	if z3Panic != nil {
		panic(z3Panic)
	}
	ctx := z3Context(deadline)
	s := z3.NewSolver(ctx)
	x, terms := z3PBQP(ctx, s, p)
	cost := z3Sum(ctx, terms)
	atMost := func(k int64) z3.Bool { return cost.LE(ctx.FromInt(k, ctx.IntSort()).(z3.Int)) }
	status, lb = z3Minimise(s, atMost, 0, deadline, func(m *z3.Model) int64 {
		choice = z3Choice(m, x)
		return p.Evaluate(choice)
	})
	return status, choice, lb, nil
}
