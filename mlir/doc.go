// Package mlir is the planner's door to kernels written in MLIR's text:
// it parses a module (package ir), reads the graph of one of its
// functions through the front end of the module's dialects (package
// vector for the vector dialect with IREE's, XeGPU's and the matrix ops,
// package ttgir for Triton's TTGIR), and writes the kernel back with its
// verified plan (a plans.Plan) in it (Kernel.Write, WritePlan).
// docs/mlir.md and docs/triton.md say what is read, how each op maps onto
// the op table, and what is written.
package mlir
