// Package notation holds what front ends share about the notations a
// layout is written in, beyond building the layout itself: reading a pin
// written for another frame than the graph's as a pin no plan can meet.
// It imports only model, so that every front end (the graph file's TOML,
// MLIR) can use it without the others.
package notation
