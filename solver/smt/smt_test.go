//go:build z3

package smt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"planner/model"
	"planner/plans"
	"planner/solver"
	"planner/solver/pbqp"
	"planner/solver/z3opt"
)

// Z3 and the gini search prove the same optimum on random problems, and
// agree with brute force.
func TestSMTAgreesOnRandomPBQPs(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for i := range 150 {
		p := pbqp.Random(r, 2+r.IntN(5), 1+r.IntN(4), []float64{0.3, 0.6, 1}[i%3])
		want, _ := p.BruteForce()
		smt, err := SolvePBQPSMT(p, pbqp.Options{NoReduce: i%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		sat := pbqp.Solve(p, pbqp.Options{})
		if want >= solver.Inf {
			if smt.Status != solver.StatusInfeasible || sat.Status != solver.StatusInfeasible {
				t.Fatalf("problem %d: infeasible, Z3 says %v, gini %v", i, smt.Status, sat.Status)
			}
			continue
		}
		if smt.Status != solver.StatusOptimal || smt.Cost != want || sat.Cost != want {
			t.Fatalf("problem %d: brute force %d, Z3 %v %d, gini %d", i, want, smt.Status, smt.Cost, sat.Cost)
		}
	}
}

// checkZ3Closed checks that the solves closed every Z3 context they
// made: as many are open as before.
func checkZ3Closed(t *testing.T, before int64) {
	if n := z3opt.Open(); n != before {
		t.Errorf("%d Z3 contexts open, %d before the solves", n, before)
	}
}

// densePBQP is n nodes of k choices, every pair joined, with random
// costs below 100: a core Z3 does not decide in seconds from n = 12.
func densePBQP(r *rand.Rand, n, k int) *pbqp.Problem {
	row := func() []int64 {
		c := make([]int64, k)
		for i := range c {
			c[i] = int64(r.IntN(100))
		}
		return c
	}
	p := &pbqp.Problem{}
	for range n {
		p.Cost = append(p.Cost, row())
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			m := make([][]int64, k)
			for i := range m {
				m[i] = row()
			}
			p.Edges = append(p.Edges, pbqp.Edge{A: a, B: b, M: m})
		}
	}
	return p
}

// Z3 deciding a core stops at the deadline and when the solve's context
// is cancelled (done closed, here before the core is handed over),
// without a proof.
func TestZ3CoreStops(t *testing.T) {
	p := densePBQP(rand.New(rand.NewPCG(5, 6)), 12, 6)
	done := make(chan struct{})
	close(done)
	for _, tc := range []struct {
		name     string
		deadline time.Time
		done     <-chan struct{}
	}{
		{"deadline", time.Now().Add(300 * time.Millisecond), nil},
		{"cancelled", time.Time{}, done},
	} {
		start := time.Now()
		st, _, _, err := Z3Core(p, tc.deadline, tc.done)
		if d := time.Since(start); err != nil || st == solver.StatusOptimal || st == solver.StatusInfeasible || d > 5*time.Second {
			t.Errorf("%s: status %v, error %v after %v", tc.name, st, err, d)
		}
	}
}

// smtSlowCore are test graphs whose core takes Z3 seconds to prove (a
// buffer node of 900 placements left in the core): the smt-symbolic
// backend, which proves the enumerated optimum before it searches the
// placements symbolically until its limit, gets a longer one on them.
var smtSlowCore = map[string]bool{"flash_attention_2waves_gfx942": true}

// On every test graph both backends reach the same proven optimum: the
// smt backend proves it with Z3's optimiser deciding the core the
// reductions leave, with nothing of gini's search. Its time is logged
// (docs/performance.md has the table).
func TestSMTAgreesOnTestGraphs(t *testing.T) {
	defer checkZ3Closed(t, z3opt.Open())
	for _, c := range testGraphs(t) {
		p, err := solver.Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		sat := solver.Solve(p, solver.Options{})
		giniTime := time.Since(start)
		start = time.Now()
		smt := solver.Solve(p, solver.Options{Backend: "smt"})
		smtTime := time.Since(start)
		verifyPlan(t, p, sat)
		verifyPlan(t, p, smt)
		if sat.Status != solver.StatusOptimal || smt.Status != solver.StatusOptimal || sat.Cost != smt.Cost || smt.Err != nil {
			t.Errorf("%s: gini %v %d, Z3 %v %d (%v)", c.name, sat.Status, sat.Cost, smt.Status, smt.Cost, smt.Err)
		}
		t.Logf("%s: gini %d in %v, smt %d in %v", c.name, sat.Cost, giniTime.Round(time.Millisecond), smt.Cost, smtTime.Round(time.Millisecond))
	}
}

// symbolicProves are test graphs on which the symbolic search proves,
// in well under a second of Z3, that no placement of the parametric
// family beats the enumerated optimum.
var symbolicProves = map[string]bool{"gemm_epilogue": true, "gfx1200_gemm": true, "seed001_fixed_placement": true, "seed002_ldmatrix_swizzle": true}

// On every test graph the smt-symbolic backend, within a time limit of
// its own, finds no placement beyond the enumerated ones that does
// better (where one did, solver.Placements would need it), says why where
// its model does not express the graph, and reaches gini's cost; on
// symbolicProves it proves the family has nothing cheaper.
// Stopped by its time limit, it keeps the enumerated optimum and says so.
func TestSMTSymbolicOnTestGraphs(t *testing.T) {
	defer checkZ3Closed(t, z3opt.Open())
	for _, c := range testGraphs(t) {
		p, err := solver.Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		sat := solver.Solve(p, solver.Options{})
		placed := slices.ContainsFunc(c.graph.Buffers, func(b *model.Buffer) bool { return p.Accessed(b) && !p.PlacementStated(b) })
		// The symbolic search runs until its limit where it does not
		// converge; with nothing to place, Z3 decides the enumerated core
		// and stops when it has proved it, so a busy machine gets time.
		limit := 5 * time.Second
		if smtSlowCore[c.name] {
			limit = 20 * time.Second
		}
		if !placed {
			limit = 2 * time.Minute
		}
		start := time.Now()
		smt := solver.Solve(p, solver.Options{Backend: "smt-symbolic", TimeLimit: limit})
		smtTime := time.Since(start)
		verifyPlan(t, p, smt)
		if smt.Status != solver.StatusOptimal || sat.Cost != smt.Cost || smt.Err != nil {
			t.Errorf("%s: gini %v %d, smt-symbolic %v %d (%v)", c.name, sat.Status, sat.Cost, smt.Status, smt.Cost, smt.Err)
		}
		if !placed && smt.Placements != solver.PlacementsNothingToPlace || placed && smt.Placements == solver.PlacementsNothingToPlace {
			t.Errorf("%s: the smt search says %q", c.name, smt.Search)
		}
		if smt.Placements == solver.PlacementsBeyond {
			t.Errorf("%s: %s: extend solver.Placements", c.name, smt.Search)
		}
		if symbolicProves[c.name] && smt.Placements != solver.PlacementsUnbeaten {
			t.Errorf("%s: %s, want the family proven to have nothing cheaper", c.name, smt.Search)
		}
		t.Logf("%s: %d in %v (%s)", c.name, smt.Cost, smtTime.Round(time.Millisecond), smt.Search)
	}
}

// Without the enumerated optimum as a bound, the symbolic search finds
// the optimum by itself: its cuts converge on seed 002's buffer (read by
// ldmatrix, written by 16-byte copies) to the enumerated search's cost,
// conflict free. With the placements it finds kept as they are (not
// moved to listed ones), the plan still adds up to the cost and replays
// in the verifier.
func TestSMTSymbolicRounds(t *testing.T) {
	gs := testGraphs(t)
	c := gs[slices.IndexFunc(gs, func(g testGraph) bool { return g.name == "seed002_ldmatrix_swizzle" })]
	p, err := solver.Build(c.graph, c.target, c.records)
	if err != nil {
		t.Fatal(err)
	}
	want := solver.Solve(p, solver.Options{})
	symbolicBounded = false
	defer func() { symbolicBounded, symbolicSnap = true, true }()
	for _, snap := range []bool{true, false} {
		symbolicSnap = snap
		got := solver.Solve(p, solver.Options{Backend: "smt-symbolic"})
		if got.Status != solver.StatusOptimal || got.Cost != want.Cost || got.Placements != solver.PlacementsSymbolic && got.Placements != solver.PlacementsBeyond {
			t.Fatalf("snap %v: gini %d, Z3 %v %d (%s)", snap, want.Cost, got.Status, got.Cost, got.Search)
		}
		plan, err := plans.Build(c.graph, c.target, got.Assignment, "")
		if err != nil {
			t.Fatal(err)
		}
		if plan.Cost != got.Cost {
			t.Errorf("snap %v: the plan adds up to %d, the search says %d", snap, plan.Cost, got.Cost)
		}
		if err := plans.Verify(c.graph, got.Assignment, plan); err != nil {
			t.Errorf("snap %v: %v", snap, err)
		}
		for _, b := range c.graph.Buffers {
			s := got.Assignment.Buffers[b]
			c.graph.Walk(func(op *model.Op) {
				if op.Buffer != b {
					return
				}
				var res *model.Layout
				if op.Result != nil {
					res = got.Assignment.Layouts[op.Result]
				}
				if a, ok := model.OpAccess(op, res, got.Assignment.Ops[op], c.target); !ok || a.Conflicts() != 0 {
					t.Errorf("snap %v: %s in %s: %v", snap, op.Name, s, a)
				}
			})
		}
		t.Logf("snap %v: %s, %v", snap, got.Search, got.Assignment.Buffers)
	}
}

// BenchmarkSolveTestdataSMT is BenchmarkSolveTestdata with Z3 deciding the
// core.
func BenchmarkSolveTestdataSMT(b *testing.B) {
	for _, c := range testGraphs(b) {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := solver.Build(c.graph, c.target, c.records)
				if err != nil {
					b.Fatal(err)
				}
				if res := solver.Solve(p, solver.Options{Backend: "smt"}); res.Status != solver.StatusOptimal {
					b.Fatalf("status %v", res.Status)
				}
			}
		})
	}
}

// Z3's conflicts are gini's: the same minimal core of facts on every
// unsat test graph (both shrink by deletion in the same order), but one
// whose bound on conversions is in the way: the bound is no clause of
// either (conversions.go), and its core is found by boundCore.
func TestSMTConflictsAgree(t *testing.T) {
	for _, c := range unsatGraphs(t) {
		p, err := solver.Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		if p.HasConversionBound() {
			continue
		}
		gini, err := solver.Core(p, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ids, err := Z3Conflict(p)
		if err != nil {
			t.Fatal(err)
		}
		var smt []*model.Fact
		for _, id := range ids {
			smt = append(smt, p.Facts()[id])
		}
		if !slices.Equal(slices.Sorted(slices.Values(names(gini))), slices.Sorted(slices.Values(names(smt)))) || len(smt) == 0 {
			t.Errorf("%s: gini core %v, Z3 core %v", c.name, names(gini), names(smt))
		}
	}
}

// A panic inside the Z3 backend (the binding reports Z3's own errors by
// panicking with Z3's message; anything else is a bug) reaches the caller
// as an error with its message, from a symbolic solve, a core decision
// and an explanation: never as a silent "unknown".
func TestSMTPanicIsAnError(t *testing.T) {
	defer func() { z3Panic = nil }()
	var solved *solver.Problem
	for _, c := range testGraphs(t) {
		if c.name == "seed002_ldmatrix_swizzle" { // the symbolic search runs on it
			p, err := solver.Build(c.graph, c.target, c.records)
			if err != nil {
				t.Fatal(err)
			}
			solved = p
		}
	}
	random := pbqp.Random(rand.New(rand.NewPCG(1, 2)), 5, 3, 1)
	unsat := unsatGraphs(t)[0]
	up, err := solver.Build(unsat.graph, unsat.target, unsat.records)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value any
		want  string
	}{
		{"invalid argument: sorts do not match", "internal error: Z3 failed: invalid argument: sorts do not match"},
		{fmt.Errorf("index out of range"), "internal error in the smt backend: index out of range"},
	} {
		z3Panic = tc.value
		res := solver.Solve(solved, solver.Options{Backend: "smt-symbolic"})
		if res.Err == nil || res.Err.Error() != tc.want || res.Status != solver.StatusUnknown || res.Assignment != nil {
			t.Errorf("solve after a panic %v: status %v, error %v, want %q", tc.value, res.Status, res.Err, tc.want)
		}
		if sol, err := SolvePBQPSMT(random, pbqp.Options{NoReduce: true}); err == nil || err.Error() != tc.want || sol.Status != solver.StatusUnknown {
			t.Errorf("core decision after a panic %v: status %v, error %v, want %q", tc.value, sol.Status, err, tc.want)
		}
		if _, err := solver.Explain(up, unsat.records, 1, solver.Options{Backend: "smt"}); err == nil || err.Error() != tc.want {
			t.Errorf("explanation after a panic %v: error %v, want %q", tc.value, err, tc.want)
		}
	}
}

// Z3 interrupted at the deadline (its "canceled" error) stops a search,
// which answers unknown with no error; a conflict search, which has no
// unknown to answer, still fails with the message.
func TestSMTCanceledIsAStop(t *testing.T) {
	defer func() { z3Panic = nil }()
	z3Panic = z3Canceled
	random := pbqp.Random(rand.New(rand.NewPCG(1, 2)), 5, 3, 1)
	if sol, err := SolvePBQPSMT(random, pbqp.Options{NoReduce: true}); err != nil || sol.Status != solver.StatusUnknown {
		t.Errorf("core decision interrupted: status %v, error %v, want unknown and no error", sol.Status, err)
	}
	unsat := unsatGraphs(t)[0]
	up, err := solver.Build(unsat.graph, unsat.target, unsat.records)
	if err != nil {
		t.Fatal(err)
	}
	want := "internal error: Z3 failed: " + z3Canceled
	if _, err := solver.Explain(up, unsat.records, 1, solver.Options{Backend: "smt"}); err == nil || err.Error() != want {
		t.Errorf("explanation interrupted: error %v, want %q", err, want)
	}
}

// normalizedPBQP keeps every plan's cost: on random problems (random
// costs, forbidden entries, edges) every assignment costs the same after
// it. (pbqp.WithoutDominated, Z3Core's other rewriting, has its own test
// in package pbqp.)
func TestNormalizedPBQPKeepsEveryCost(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 300 {
		p := pbqp.Random(r, 2+r.IntN(4), 5, 0.6)
		norm := normalizedPBQP(p)
		choice := make([]int, len(p.Cost))
		var walk func(n int)
		walk = func(n int) {
			if n == len(p.Cost) {
				c := p.Evaluate(choice)
				if got := norm.Evaluate(choice); got != c && (got < solver.Inf || c < solver.Inf) {
					t.Fatalf("normalised, %v costs %d, not %d", choice, got, c)
				}
				return
			}
			for i := range p.Cost[n] {
				choice[n] = i
				walk(n + 1)
			}
		}
		walk(0)
	}
}

// names are the facts' names.
func names(fs []*model.Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}
