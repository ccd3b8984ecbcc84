package vector

import (
	"testing"

	"planner/mlir/ir"
)

// Every op the reader builds has a row of mlir/ir stating its syntax.
func TestOpsHaveRows(t *testing.T) {
	for name := range handlers {
		if !ir.HasRow(name) {
			t.Errorf("%s is built but has no row", name)
		}
	}
}
