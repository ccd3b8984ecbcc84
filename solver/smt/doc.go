// Package smt is the planner's Z3 backends, registered in
// solver.Backends by this package's init when the binary is built with
// the z3 tag (libz3-dev, through the binding in solver/z3opt):
//
//   - "smt": the exact reductions, then Z3's optimiser deciding the core
//     they leave over the enumerated placements (Z3Core), and Z3's unsat
//     cores for explanations (Z3Conflict);
//   - "smt-symbolic": smt with the buffers' placements as unknowns where
//     the model expresses the graph (whole.go), and PlacementSMT, one
//     buffer's placement searched the same way.
//
// It reads a built problem only through what package solver exports
// (the view, solver/view.go). Without the z3 tag the package is empty:
// a program has the Z3 backends when it imports this package (the
// library does, in its smt_z3.go) and is built with -tags z3.
package smt
