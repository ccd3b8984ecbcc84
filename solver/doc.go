// Package solver turns a kernel graph and the target's intrinsic records
// into a constraint problem (a finite candidate set of layouts for every
// value, a choice of intrinsic and warp arrangement for every matrix op,
// and costs on every edge from the conversion analysis) and finds its
// proven minimum: exact PBQP reductions first, then a SAT search with gini
// over what remains, with a pseudo-boolean bound on the cost.
package solver
