// Package ttgir reads a kernel in Triton's TTGIR (the tt and ttg
// dialects: tensors whose types carry Triton's layout encodings) into the
// kernel graph, its tensors in the part of vectors, and writes a plan back
// as encodings and ttg.convert_layout ops (docs/triton.md).
package ttgir
