package planner // internal: it hands the external tests two internals of the write-back (the kept kernel, the MLIR options)

import "planner/mlir"

// KeptKernel reports whether a result keeps the kernel its solve read,
// which WriteMLIR writes into without reading the text again.
func KeptKernel(res *Result) bool { return res.kernel != nil }

// MLIROptions are the options the planner reads a kernel in MLIR with.
func (pl *Planner) MLIROptions(in Input) mlir.Options { return pl.mlirOptions(in) }
