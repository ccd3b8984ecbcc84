package mlir

import "planner/plans"

import (
	"io"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/mlir/ttgir"
	"planner/mlir/vector"
	"planner/model"
)

// ReadGraph reads MLIR text and builds the kernel graph of one of its
// functions: every vector value a model value and every op on vectors an op
// of the op table, positioned at its file:line:col.
func ReadGraph(file string, data []byte, opt Options) (*model.Graph, error) {
	k, err := ReadKernel(file, data, opt)
	if err != nil {
		return nil, err
	}
	return k.Graph(), nil
}

// Kernel is a kernel read once: its text, the module parsed from it, the
// graph of the function the options name and the map between the two,
// which the writer writes a plan back through (Kernel.Write) without
// reading the text again.
type Kernel struct {
	src  string
	mod  *ir.Module
	read reader.Kernel
}

// ReadKernel reads MLIR text and builds the graph of one of its
// functions, keeping what maps the IR onto it.
func ReadKernel(file string, data []byte, opt Options) (*Kernel, error) {
	m, err := ir.Parse(file, data)
	if err != nil {
		return nil, err
	}
	r, err := build(m, opt)
	if err != nil {
		return nil, err
	}
	return &Kernel{src: string(data), mod: m, read: r}, nil
}

// Graph is the graph of the kernel's function.
func (k *Kernel) Graph() *model.Graph { return k.read.Graph() }

// Module is the module the kernel's text parses to.
func (k *Kernel) Module() *ir.Module { return k.mod }

// Text is the kernel's text as read.
func (k *Kernel) Text() string { return k.src }

// Write writes the kernel back with the plan p in it, as WritePlan says:
// p is the verified plan of the kernel's graph (or of the graph of the
// same text read with the same options).
func (k *Kernel) Write(w io.Writer, p *plans.Plan) error {
	pl, err := reader.PlannedOf(p)
	if err != nil {
		return err
	}
	return k.read.Write(w, k.src, pl)
}

// BuildGraph builds the graph of the function opt.Func names.
func BuildGraph(m *ir.Module, opt Options) (*model.Graph, error) {
	r, err := build(m, opt)
	if err != nil {
		return nil, err
	}
	return r.Graph(), nil
}

// build reads the function opt.Func names by the front end of the
// module's dialects: TTGIR's (IsTTGIR) or the vector dialect's.
func build(m *ir.Module, opt Options) (reader.Kernel, error) {
	fn, err := reader.Choose(m, opt)
	if err != nil {
		return nil, err
	}
	if ttgir.Is(m) {
		return ttgir.Build(m, fn, opt)
	}
	return vector.Build(m, fn, opt)
}

// WritePlan writes the MLIR text data back with the plan in it: every
// vector value the plan lays out anchored by an iree_vector_ext.to_layout
// after its definition (its uses reading the anchor), each conversion an
// explicit to_layout before the op that reads the value in the new
// layout, the chosen intrinsic on every vector.contract and the placement
// on every shared-memory alloc; in TTGIR, the encodings and the
// conversions. Everything else is the input byte for byte. opt must be
// the options the graph was read with. It reads the text again:
// Kernel.Write writes into a kernel read once.
func WritePlan(w io.Writer, file string, data []byte, opt Options, p *plans.Plan) error {
	k, err := ReadKernel(file, data, opt)
	if err != nil {
		return err
	}
	return k.Write(w, p)
}
