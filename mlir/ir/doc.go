// Package ir is MLIR's text as data: one lexer and parser for the generic
// and the custom forms of ops, for types, affine maps and attributes
// (dialect attributes' bodies read into trees, aliases resolved to their
// values), with file:line:col on every op, value, use and error; and the
// Rewriter that edits the text a module was parsed from. It knows no
// front end: the front ends read the Module it gives.
package ir
