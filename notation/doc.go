// Package notation holds what front ends share about the notations a
// layout is written in, beyond building the layout itself: Triton's
// encodings read from MLIR's attribute trees (a TTGIR kernel's, or a
// layout or graph file's encoding string, parsed by mlir/ir), and a pin
// written for another frame than the graph's read as a pin no plan can
// meet. It imports only model and the grammar mlir/ir, so that every
// front end (tomlio, mlir/vector, mlir/ttgir) can use it without the
// others.
package notation
