// Package model is the planner's vocabulary: tensor shapes, distributed
// layouts with their exact algebra (GF(2)-linear maps on index bits plus
// repetition digits for extents that are not powers of two), the
// conversion analysis between two layouts of one tensor, graphs, records
// and targets. The notations layouts are written in live in package
// notation; model names only their interface (Notation), which graphs and
// records hold. It imports nothing of the planner and does no I/O.
package model
