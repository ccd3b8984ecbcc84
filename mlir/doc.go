// Package mlir reads kernels written in MLIR's text: a pure-Go lexer and
// parser for the generic op form of any op, the builtin types and
// attributes (dialect attributes kept as written), #alias and !alias
// definitions, block arguments, and the custom forms of the ops a
// vector-dialect or XeGPU kernel uses (func, gpu.module and gpu.func,
// scf.for, arith, math, vector, memref, gpu, affine.apply,
// iree_vector_ext.to_layout, xegpu's block ops, dpas and convert_layout,
// and the matrix ops gpu.subgroup_mma_*, nvgpu.ldmatrix, nvgpu.mma.sync
// and amdgpu.mfma, mma.go),
// with file:line:col on every op, value, use and attribute; from one
// function, the kernel graph the planner solves (ReadGraph); and the
// kernel written back with its verified plan (a plans.Plan) in it
// (Kernel.Write, WritePlan). A module in Triton's
// TTGIR (the tt and ttg dialects, tensors with layout encodings) is read
// the same way, its tensors in the part of vectors (ttgir.go).
// docs/mlir.md and docs/triton.md say what is read, how each op maps onto
// the op table, and what is written.
package mlir
