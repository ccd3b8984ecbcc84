// Package notation holds the notations a layout is written in, each a
// view of model's Layout: IREE's nested layouts, XeGPU's (and its slices
// of them, which the MLIR writer chooses where a reduction makes one),
// Triton's blocked, linear and named encodings (and its shared encodings
// as placements), CuTe's thread-value layouts and explicit tables. Each
// builds a layout over a frame (Layout) and is recovered from one
// (Express); Triton's encodings are read from MLIR's attribute trees (a
// TTGIR kernel's, or a layout or graph file's encoding string, parsed by
// mlir/ir), and a pin written for another frame than the graph's is read
// as a pin no plan can meet (PinLayout). It imports only model and the
// grammar mlir/ir, so that every front end (tomlio, mlir/vector,
// mlir/ttgir) can use it without the others.
package notation
