package pbqp

import (
	"fmt"
	"slices"
	"time"
)

// Inf marks a forbidden choice or pair of choices.
const Inf = int64(1) << 60

// Problem is a partitioned boolean quadratic problem (PBQP): every node picks one of
// its choices; a node's choice costs Cost[node][choice] and every edge
// adds M[choice of A][choice of B]. Inf forbids.
type Problem struct {
	Cost  [][]int64
	Edges []Edge
}

// Edge is a cost matrix between the choices of nodes A and B.
type Edge struct {
	A, B int
	M    [][]int64
}

// Status says how far the search got.
type Status int

const (
	StatusOptimal    Status = iota // the cost is the minimum
	StatusFeasible                 // a plan was found; the time limit stopped the proof
	StatusInfeasible               // no choice satisfies every constraint
	StatusUnknown                  // the time limit stopped the search before any plan
)

func (s Status) String() string {
	return [...]string{"optimal", "feasible", "unsat", "unknown"}[s]
}

// Solution is the answer to a PBQP.
type Solution struct {
	Status     Status
	Choice     []int
	Cost       int64
	LowerBound int64
	Stats      Stats
}

// Stats counts what the search did.
type Stats struct {
	Nodes, Edges, Choices int // of the problem
	Reduced               int // nodes removed by the degree-0/1/2 reductions
	Pruned                int // choices removed as forbidden or dominated
	CoreNodes             int // nodes the reductions leave (the core)
	Branches              int // choices tried by branching on the core
	Variables, Clauses    int // of the SAT encoding, where the SAT search decided the core
	Solves                int // SAT calls
	Duration              time.Duration
}

// AddSat returns a+b, saturating at Inf.
func AddSat(a, b int64) int64 {
	if a >= Inf || b >= Inf {
		return Inf
	}
	if s := a + b; s < Inf {
		return s
	}
	return Inf
}

// Evaluate returns the cost of a full assignment (Inf if forbidden).
func (p *Problem) Evaluate(choice []int) int64 {
	var c int64
	for n, i := range choice {
		c = AddSat(c, p.Cost[n][i])
	}
	for _, e := range p.Edges {
		c = AddSat(c, e.M[choice[e.A]][choice[e.B]])
	}
	return c
}

// Check reports a malformed problem.
func (p *Problem) Check() error {
	for _, e := range p.Edges {
		if e.A == e.B || e.A < 0 || e.B < 0 || e.A >= len(p.Cost) || e.B >= len(p.Cost) {
			return fmt.Errorf("edge between %d and %d", e.A, e.B)
		}
		if len(e.M) != len(p.Cost[e.A]) {
			return fmt.Errorf("edge %d-%d: %d rows for %d choices", e.A, e.B, len(e.M), len(p.Cost[e.A]))
		}
		for _, row := range e.M {
			if len(row) != len(p.Cost[e.B]) {
				return fmt.Errorf("edge %d-%d: %d columns for %d choices", e.A, e.B, len(row), len(p.Cost[e.B]))
			}
		}
	}
	return nil
}

// BruteForce finds the minimum by trying every assignment. For tests.
func (p *Problem) BruteForce() (int64, []int) {
	n := len(p.Cost)
	choice := make([]int, n)
	best := Inf
	var bestChoice []int
	for {
		if c := p.Evaluate(choice); c < best {
			best = c
			bestChoice = slices.Clone(choice)
		}
		i := 0
		for ; i < n; i++ {
			choice[i]++
			if choice[i] < len(p.Cost[i]) {
				break
			}
			choice[i] = 0
		}
		if i == n {
			return best, bestChoice
		}
	}
}
