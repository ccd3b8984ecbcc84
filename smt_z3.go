//go:build z3

package planner

// The Z3 backends (smt, smt-symbolic) register themselves in
// solver.Backends when the z3 tag builds them in.
import _ "planner/solver/smt"
