package mlir

import (
	"planner/mlir/ir"
)

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
