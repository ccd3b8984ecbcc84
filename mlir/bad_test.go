package mlir

import (
	"testing"

	"planner/internal/golden"
	"planner/model"
)

// positioned checks that every error of err is at a file:line:col of
// file name, and gives err back.
func positioned(t *testing.T, name string, err error) error {
	t.Helper()
	if list, ok := model.Errors(err); ok {
		for _, e := range list {
			if e.Pos.File != name || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Errorf("error without a file:line:col: %#v", e)
			}
		}
	}
	return err
}

// TestBadMLIRFiles reads every file of testdata/bad/mlir: each must fail
// with exactly the errors its // want comments name, on their lines, every
// error at a file:line:col, and the full text must match
// testdata/bad/mlir.golden.
func TestBadMLIRFiles(t *testing.T) {
	bad := golden.Catalogue{Glob: "../testdata/bad/mlir/*.mlir", Least: 20, Comment: "//", Golden: "../testdata/bad/mlir.golden"}
	bad.Run(t, func(t *testing.T, name string, data []byte) error {
		_, err := ReadGraph(name, data, Options{Targets: testTargets, Offered: testOffered})
		return positioned(t, name, err)
	})
}
