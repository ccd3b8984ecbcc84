package mlir

import (
	"os"
	"testing"

	"planner/mlir/ir"
)

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

// walkOps lists a module's ops in the order they are written, nested ops
// after the op whose region holds them.
func walkOps(ops []*ir.Op) []*ir.Op {
	var out []*ir.Op
	for _, op := range ops {
		out = append(out, op)
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				out = append(out, walkOps(b.Ops)...)
			}
		}
	}
	return out
}
