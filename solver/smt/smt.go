//go:build z3

package smt

import (
	"fmt"
	"slices"
	"time"

	"planner/solver"
	"planner/solver/pbqp"
	"planner/solver/z3opt"
)

func init() {
	solver.Backends["smt"] = smtBackend{}
	solver.Backends["smt-symbolic"] = smtSymbolicBackend{}
}

// smtBackend is the Z3 backend: the exact reductions, then Z3's
// optimiser deciding the core they leave (Z3Core) over the enumerated
// placements, and Z3's unsat cores for explanations.
type smtBackend struct{}

func (smtBackend) Name() string { return "smt" }

func (smtBackend) DecideCore(core *pbqp.Problem, deadline time.Time, done <-chan struct{}) (solver.Status, []int, int64, error) {
	return Z3Core(core, deadline, done)
}

func (smtBackend) Conflict(p *solver.Problem) ([]int, error) { return Z3Conflict(p) }

// smtSymbolicBackend is smt with the buffers' placements as unknowns
// where the model expresses the graph (whole.go): it proves the
// enumerated optimum with smt, then looks for a placement of the
// parametric family that beats it, for as long as the time limit lets
// it. It is how the enumeration is checked for placements it lacks.
type smtSymbolicBackend struct{ smtBackend }

func (smtSymbolicBackend) Name() string { return "smt-symbolic" }

func (smtSymbolicBackend) SolveWhole(p *solver.Problem, opt solver.Options) (*solver.Result, string, error) {
	return solveSymbolic(p, opt)
}

// SolvePBQPSMT minimises a PBQP with the same reductions as pbqp.Solve and
// Z3 (build tag z3) deciding the core in place of the gini search. It is
// the second backend: tests check that both prove the same optimum. An
// internal failure inside Z3 is returned as the error.
func SolvePBQPSMT(p *pbqp.Problem, opt pbqp.Options) (pbqp.Solution, error) {
	var failure error
	opt.Core = func(core *pbqp.Problem, deadline time.Time) (solver.Status, []int, int64) {
		st, choice, lb, err := Z3Core(core, deadline, nil)
		if err != nil && failure == nil {
			failure = err
		}
		return st, choice, lb
	}
	sol := pbqp.Solve(p, opt)
	return sol, failure
}

// recoverZ3, deferred at the boundary of the Z3 backend, turns a panic
// into an error that keeps its message: the binding (z3opt) reports Z3's
// own errors by panicking with Z3's message, and any other panic is a
// bug in this package. Either is an internal failure:
// it is never read as "unknown", which would hide it. The status, when
// given, becomes unknown. It must be deferred itself (recover works only
// in the deferred call).
func recoverZ3(err *error, status *solver.Status) {
	r := recover()
	if r != nil && status != nil {
		*status = solver.StatusUnknown
	}
	switch r := r.(type) {
	case nil:
	case string:
		if r == z3Canceled && status != nil {
			// Z3 was interrupted: only the deadline and the caller's
			// done channel interrupt it (InterruptAt, InterruptOn), so
			// a search that can answer unknown was stopped, not failed.
			// Where there is no status to say so (a conflict search),
			// an interrupted answer stays an error.
			return
		}
		*err = fmt.Errorf("internal error: Z3 failed: %s", r)
	default:
		*err = fmt.Errorf("internal error in the smt backend: %v", r)
	}
}

// z3Canceled is the message of the error Z3 raises in a call it was
// interrupted in.
const z3Canceled = "canceled"

// z3Panic, when set by a test, panics inside the Z3 backend with its
// value, to show that the failure reaches the caller.
var z3Panic any

// Z3Core minimises a core with Z3's optimiser (MaxSMT): a Boolean
// unknown per allowed choice of each node, exactly one per node as a
// pseudo-Boolean constraint, forbidden pairs as clauses, and every cost
// a soft constraint whose weight is paid where it fails: "not this
// choice" for a node's cost, "not both" for a pair's. The deadline stops
// Z3 (its timeout, and an interrupt at the deadline) with the best plan
// found so far as feasible, or unknown when there is none, and so does
// closing done (nil: never); an error inside Z3 is returned, with status
// unknown.
func Z3Core(p *pbqp.Problem, deadline time.Time, done <-chan struct{}) (status solver.Status, choice []int, lb int64, err error) {
	defer recoverZ3(&err, &status)
	if z3Panic != nil {
		panic(z3Panic)
	}
	ctx := z3opt.NewContext()
	defer ctx.Close()
	ctx.InterruptAt(deadline)
	ctx.InterruptOn(done)
	o := ctx.NewOptimize(deadline)
	x, obj := maxSATPBQP(ctx, o, pbqp.WithoutDominated(p))
	r := o.Check()
	if r == z3opt.Unsat {
		return solver.StatusInfeasible, nil, solver.Inf, nil
	}
	if m := o.Model(); m != nil {
		choice = maxSATChoice(m, x)
	}
	cost := solver.Inf
	if choice != nil {
		cost = p.Evaluate(choice)
	}
	if r == z3opt.Sat && cost < solver.Inf {
		if obj >= 0 {
			if up, ok := o.Upper(obj); !ok || up != cost {
				panic(fmt.Sprintf("Z3's optimum %d is not the plan's cost %d", up, cost))
			}
		}
		return solver.StatusOptimal, choice, cost, nil
	}
	if obj >= 0 {
		if lo, ok := o.Lower(obj); ok {
			lb = max(lo, 0)
		}
	}
	if cost < solver.Inf {
		return solver.StatusFeasible, choice, min(lb, cost), nil
	}
	return solver.StatusUnknown, nil, lb, nil
}

// maxSATPBQP asserts a PBQP in o (see Z3Core): x[n][i] is node n's
// choice i, the zero Bool where the choice is forbidden. It returns the
// objective of the soft constraints, -1 where nothing costs.
func maxSATPBQP(ctx *z3opt.Context, o *z3opt.Optimize, p *pbqp.Problem) (x [][]z3opt.Bool, obj int) {
	p = normalizedPBQP(p)
	obj = -1
	soft := func(b z3opt.Bool, c int64) { obj = o.AssertSoft(b, c, "cost") }
	x = make([][]z3opt.Bool, len(p.Cost))
	for n, costs := range p.Cost {
		x[n] = make([]z3opt.Bool, len(costs))
		var allowed []z3opt.Bool
		for i, c := range costs {
			if c >= solver.Inf {
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
				if c >= solver.Inf {
					o.Assert(notBoth)
				} else {
					soft(notBoth, c)
				}
			}
		}
	}
	return x, obj
}

// normalizedPBQP is p with each edge's row minima moved into its first
// end's costs and then its column minima into its second end's, over the
// choices each end allows: every plan costs the same, but most edge
// entries become 0, and a soft clause is asserted only for an entry
// above 0 (Z3's MaxSAT search slows with the number of weighted soft
// clauses more than with their weights).
func normalizedPBQP(p *pbqp.Problem) *pbqp.Problem {
	q := &pbqp.Problem{Cost: make([][]int64, len(p.Cost))}
	for n, c := range p.Cost {
		q.Cost[n] = slices.Clone(c)
	}
	allowed := func(n, i int) bool { return p.Cost[n][i] < solver.Inf }
	for _, e := range p.Edges {
		if e.A == e.B {
			q.Edges = append(q.Edges, e) // a node's edge to itself: only its diagonal counts
			continue
		}
		m := make([][]int64, len(e.M))
		for i, row := range e.M {
			m[i] = slices.Clone(row)
		}
		for i, row := range m {
			if !allowed(e.A, i) {
				continue
			}
			low := solver.Inf
			for j, c := range row {
				if allowed(e.B, j) {
					low = min(low, c)
				}
			}
			if low <= 0 || low >= solver.Inf {
				continue
			}
			q.Cost[e.A][i] = pbqp.AddSat(q.Cost[e.A][i], low)
			for j, c := range row {
				if c < solver.Inf {
					row[j] = c - low
				}
			}
		}
		for j := range q.Cost[e.B] {
			if !allowed(e.B, j) {
				continue
			}
			low := solver.Inf
			for i, row := range m {
				if allowed(e.A, i) {
					low = min(low, row[j])
				}
			}
			if low <= 0 || low >= solver.Inf {
				continue
			}
			q.Cost[e.B][j] = pbqp.AddSat(q.Cost[e.B][j], low)
			for _, row := range m {
				if row[j] < solver.Inf {
					row[j] -= low
				}
			}
		}
		q.Edges = append(q.Edges, pbqp.Edge{A: e.A, B: e.B, M: m})
	}
	return q
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
