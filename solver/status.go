package solver

import "planner/solver/pbqp"

// The search's status and statistics keep the names other packages know
// them by; they are the PBQP's own.
type (
	Status = pbqp.Status
	PStats = pbqp.Stats
)

const (
	StatusOptimal    = pbqp.StatusOptimal
	StatusFeasible   = pbqp.StatusFeasible
	StatusInfeasible = pbqp.StatusInfeasible
	StatusUnknown    = pbqp.StatusUnknown
	// Inf marks a forbidden choice or pair of choices.
	Inf = pbqp.Inf
)
