// Package reader is what the MLIR front ends share in reading a function
// into the kernel graph: the options, the function chosen, where the
// target and subgroup count come from, the graph value each IR value reads
// as, the errors, and the ops every dialect's kernel has (arith, math,
// arith.constant, scf.for, shape casts). A front end embeds its Builder
// and reads its dialects' ops (Front).
package reader
