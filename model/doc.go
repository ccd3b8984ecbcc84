// Package model is the planner's vocabulary: tensor shapes, distributed
// layouts with their exact algebra (GF(2)-linear maps on index bits plus
// repetition digits for extents that are not powers of two), the notations
// compiler engineers write layouts in, and the conversion analysis between two
// layouts of one tensor. It imports nothing of the planner and does no I/O.
package model
