// Package pbqp solves partitioned boolean quadratic problems: every node
// picks one of its choices, and node and edge cost tables (with Inf for a
// forbidden choice or pair) add up to the cost to minimise. Solve applies
// the exact reductions of PBQP register allocators (degree 0, 1 and 2, and
// dominance), then decides what remains by branch and bound (one node's
// choices in turn, each folded into its neighbours for the reductions to
// take the rest) while its counted work stays within a bound, and beyond
// that by a core-guided MaxSAT search on gini, proving the optimum or,
// under a limit, reporting the best plan with a lower bound. It knows
// nothing of layouts; package solver builds its problems.
package pbqp
