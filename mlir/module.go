package mlir

import (
	"planner/mlir/ir"
	"planner/mlir/reader"
)

// The parsed module's types, under the names the rest of the planner
// reads them by (the grammar is package ir's).
type (
	Module     = ir.Module
	Op         = ir.Op
	Type       = ir.Type
	TensorType = ir.TensorType
	IntAttr    = ir.IntAttr
)

// Options say how to read a kernel graph from MLIR (reader.Options).
type Options = reader.Options

// Parse reads MLIR text into a module (ir.Parse): any error is a
// *model.Error at its file:line:col.
func Parse(file string, data []byte) (*Module, error) { return ir.Parse(file, data) }

// Funcs lists the module's functions in the order they are written
// (ir.Funcs).
func Funcs(m *Module) []*Op { return ir.Funcs(m) }

// FuncName is a function's symbol name (ir.FuncName).
func FuncName(f *Op) string { return ir.FuncName(f) }
