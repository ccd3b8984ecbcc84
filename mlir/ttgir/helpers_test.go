package ttgir

import (
	"os"
	"testing"

	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// readKernelGraph reads a TTGIR kernel into its graph.
func readKernelGraph(file string, data []byte, opt reader.Options) (*model.Graph, error) {
	b, err := read(file, data, opt)
	if err != nil {
		return nil, err
	}
	return b.Graph(), nil
}

// read reads a TTGIR kernel.
func read(file string, data []byte, opt reader.Options) (*ttBuilder, error) {
	m, fn, err := mlirtest.Function(file, data, opt)
	if err != nil {
		return nil, err
	}
	return build(m, fn, opt)
}

// TestMain runs the tests from planner/mlir, the directory the kernels'
// paths in the expected errors and goldens are written from.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
