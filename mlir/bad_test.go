package mlir

import (
	"planner/mlir/mlirtest"
	"testing"

	"planner/internal/golden"
)

// TestBadMLIRFiles reads every file of testdata/bad/mlir: each must fail
// with exactly the errors its // want comments name, on their lines, every
// error at a file:line:col, and the full text must match
// testdata/bad/mlir.golden.
func TestBadMLIRFiles(t *testing.T) {
	bad := golden.Catalogue{Glob: "../testdata/bad/mlir/*.mlir", Least: 20, Comment: "//", Golden: "../testdata/bad/mlir.golden"}
	bad.Run(t, func(t *testing.T, name string, data []byte) error {
		_, err := ReadGraph(name, data, Options{Targets: mlirtest.Targets, Offered: mlirtest.Offered})
		return mlirtest.Positioned(t, name, err)
	})
}
