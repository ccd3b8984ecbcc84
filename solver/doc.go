// Package solver turns a kernel graph and the target's intrinsic records
// into a constraint problem (a finite candidate set of layouts for every
// value, a choice of intrinsic and warp arrangement for every matrix op, a
// placement for every shared-memory buffer, and costs on every edge from
// the conversion and bank-conflict analyses) and finds its proven minimum:
// exact PBQP reductions first, then a SAT search with gini (or Z3, package solver/smt) over
// what remains. Every forbidden choice carries the facts that forbid it,
// so that an unsat graph is explained as a minimal set of facts with the
// cheapest ways out.
package solver
