// Package vector reads a kernel in MLIR's vector dialect into the kernel
// graph, with memref, scf, IREE's to_layout and layouts, XeGPU's block
// ops and layouts, and the gpu, nvgpu and amdgpu matrix ops (subgroup and
// lane level), and writes a plan back into its text as to_layout anchors,
// XeGPU layouts and intrinsics (docs/mlir.md).
package vector
