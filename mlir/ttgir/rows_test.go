package ttgir

import (
	"testing"

	"planner/mlir/ir"
)

// Every op the reader builds, but those Triton prints only in the
// generic form, has a row of mlir/ir stating its syntax.
func TestOpsHaveRows(t *testing.T) {
	genericOnly := map[string]bool{
		// No assemblyFormat in TritonOps.td (tt.reduce) or not read in
		// custom form (the others are read as any unknown op, and passed
		// over).
		"tt.reduce": true, "tt.assert": true, "tt.print": true, "ttng.fence_async_shared": true,
	}
	for name := range ttHandlers {
		if !ir.HasRow(name) && !genericOnly[name] {
			t.Errorf("%s is built but has no row", name)
		}
	}
}
