package vector

import (
	"os"
	"testing"

	"planner/mlir/ir"
	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// readKernelGraph reads a kernel in the vector dialect into its graph.
func readKernelGraph(file string, data []byte, opt reader.Options) (*model.Graph, error) {
	k, err := read(file, data, opt)
	if err != nil {
		return nil, err
	}
	return k.Graph(), nil
}

// read reads a kernel in the vector dialect.
func read(file string, data []byte, opt reader.Options) (*builder, error) {
	m, fn, err := mlirtest.Function(file, data, opt)
	if err != nil {
		return nil, err
	}
	return build(m, fn, opt)
}

// buildGraph builds the graph of a parsed kernel in the vector dialect.
func buildGraph(m *ir.Module, opt reader.Options) (*model.Graph, error) {
	fn, err := reader.Choose(m, opt)
	if err != nil {
		return nil, err
	}
	b, err := build(m, fn, opt)
	if err != nil {
		return nil, err
	}
	return b.Graph(), nil
}

func parseFile(t *testing.T, path string) *ir.Module {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.Parse(path, data)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m
}

// walkOps lists a module's ops in the order they are written, nested
// ops after the op whose region holds them.
func walkOps(ops []*ir.Op) []*ir.Op {
	var out []*ir.Op
	ir.Visit(ops, func(op *ir.Op) bool {
		out = append(out, op)
		return true
	})
	return out
}

// TestMain runs the tests from planner/mlir, the directory the kernels'
// paths in the expected errors and goldens are written from.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
