//go:build z3

package solver

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Z3 and the gini search prove the same optimum on random problems, and
// agree with brute force.
func TestSMTAgreesOnRandomPBQPs(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for i := range 150 {
		p := randomPBQP(r, 2+r.IntN(5), 1+r.IntN(4), []float64{0.3, 0.6, 1}[i%3])
		want, _ := p.BruteForce()
		smt := SolvePBQPSMT(p, PBQPOptions{NoReduce: i%2 == 0})
		sat := SolvePBQP(p, PBQPOptions{})
		if want >= Inf {
			if smt.Status != StatusInfeasible || sat.Status != StatusInfeasible {
				t.Fatalf("problem %d: infeasible, Z3 says %v, gini %v", i, smt.Status, sat.Status)
			}
			continue
		}
		if smt.Status != StatusOptimal || smt.Cost != want || sat.Cost != want {
			t.Fatalf("problem %d: brute force %d, Z3 %v %d, gini %d", i, want, smt.Status, smt.Cost, sat.Cost)
		}
	}
}

// On every test graph both backends reach the same proven optimum.
func TestSMTAgreesOnTestGraphs(t *testing.T) {
	for _, c := range testGraphs(t) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		sat := Solve(p, Options{})
		smt := Solve(p, Options{Backend: "smt"})
		verifyPlan(t, p, sat)
		verifyPlan(t, p, smt)
		if sat.Status != StatusOptimal || smt.Status != StatusOptimal || sat.Cost != smt.Cost {
			t.Errorf("%s: gini %v %d, Z3 %v %d", c.name, sat.Status, sat.Cost, smt.Status, smt.Cost)
		}
	}
}

// BenchmarkSolveTestdataSMT is BenchmarkSolveTestdata with Z3 deciding the
// core.
func BenchmarkSolveTestdataSMT(b *testing.B) {
	for _, c := range testGraphs(b) {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := Build(c.graph, c.target, c.records)
				if err != nil {
					b.Fatal(err)
				}
				if res := Solve(p, Options{Backend: "smt"}); res.Status != StatusOptimal {
					b.Fatalf("status %v", res.Status)
				}
			}
		})
	}
}

// Z3's conflicts are gini's: the same minimal core of facts on every
// unsat test graph (both shrink by deletion in the same order).
func TestSMTConflictsAgree(t *testing.T) {
	for _, c := range unsatGraphs(t) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		gini := newFeasibility(p).core()
		smt := Z3Conflict(p)
		if !slices.Equal(gini, smt) || len(smt) == 0 {
			t.Errorf("%s: gini core %v, Z3 core %v", c.name, gini, smt)
		}
	}
}
