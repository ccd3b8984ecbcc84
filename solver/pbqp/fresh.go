package pbqp

import (
	"time"

	"github.com/irifrance/gini"
	"github.com/irifrance/gini/inter"
	"github.com/irifrance/gini/z"
)

// SAT is a gini solver asked one question at a time: it keeps every clause
// added, and answers each question after the first on a fresh solver
// given them all, under that question's assumptions. gini v1.0.1, asked
// again after an unsat answer under assumptions (as a core-guided search
// and an explanation's deletion search ask), was seen to answer sat with
// a model that violates one of its clauses and to end the process over it
// ("didn't satisfy c1 [...]", "internal error in solve: sat model";
// testdata/gini_reuse.cnf, TestSATAnswersAfterUnsat). The model's values
// and Why read the solver of the last question.
type SAT struct {
	g       *gini.Gini
	cnf     []z.Lit // every clause added, each ended by 0
	assumed []z.Lit // the assumptions of the next question
	asked   bool
}

// NewSAT is an empty solver.
func NewSAT() *SAT { return &SAT{g: gini.New()} }

// Add adds a literal of a clause, 0 ending it.
func (s *SAT) Add(m z.Lit) {
	s.cnf = append(s.cnf, m)
	if !s.asked {
		s.g.Add(m)
	}
}

// Assume assumes literals for the next question.
func (s *SAT) Assume(ms ...z.Lit) { s.assumed = append(s.assumed, ms...) }

// ready gives the question a solver: the first, or a fresh one given every
// clause, with the question's assumptions.
func (s *SAT) ready() *gini.Gini {
	if s.asked {
		s.g = gini.New()
		for _, m := range s.cnf {
			s.g.Add(m)
		}
	}
	s.asked = true
	s.g.Assume(s.assumed...)
	s.assumed = s.assumed[:0]
	return s.g
}

// Solve answers the question: 1 sat, -1 unsat.
func (s *SAT) Solve() int { return s.ready().Solve() }

// Try answers it within d: 1 sat, -1 unsat, 0 unknown.
func (s *SAT) Try(d time.Duration) int { return s.ready().Try(d) }

// GoSolve answers it in the background.
func (s *SAT) GoSolve() inter.Solve { return s.ready().GoSolve() }

// Value is m's value in the last question's model.
func (s *SAT) Value(m z.Lit) bool { return s.g.Value(m) }

// Why is the last question's failed assumptions.
func (s *SAT) Why(dst []z.Lit) []z.Lit { return s.g.Why(dst) }
