// Package mlirtest holds what the tests of the MLIR packages share: the
// targets a kernel is read for, the records they offer, and the checks
// and printouts of what a front end reads. It is imported only by tests.
package mlirtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"planner/intrinsics"
	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// Targets stand in for the planner's targets: a reader needs only a
// target's name, lanes per subgroup, most subgroups and shared memory.
var Targets = map[string]*model.Target{
	"sm_80":  {Name: "sm_80", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 166912},
	"gfx942": {Name: "gfx942", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 65536},
	"pvc":    {Name: "pvc", SubgroupSize: 16, MaxSubgroups: 64, SharedMemory: 131072},
}

// library is the planner's built-in records, read once.
var library = sync.OnceValues(intrinsics.Builtin)

// Offered gives the records the planner's target of a test target's name
// offers, which the matrix ops of the gpu, nvgpu and amdgpu dialects
// name.
func Offered(t *model.Target) ([]*model.Record, error) {
	lib, err := library()
	if err != nil {
		return nil, err
	}
	target, ok := lib.Targets[t.Name]
	if !ok {
		return nil, fmt.Errorf("the planner has no target %s", t.Name)
	}
	return lib.Offered(target)
}

// Function parses a kernel's text and chooses the function opt names,
// as the mlir door does before it hands both to a front end's build.
func Function(file string, data []byte, opt reader.Options) (*ir.Module, *ir.Op, error) {
	m, err := ir.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	fn, err := reader.Choose(m, opt)
	if err != nil {
		return nil, nil, err
	}
	return m, fn, nil
}

// Positioned checks that every error of err is at a file:line:col of
// file name, and gives err back.
func Positioned(t *testing.T, name string, err error) error {
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

// Signature writes a graph's ops one a line, loops' bodies indented: the
// op's name and kind (with its function), its operands, its result's
// name, shape and element type, and the keys it has.
func Signature(g *model.Graph) string {
	var b strings.Builder
	var walk func(ops []*model.Op, indent string)
	walk = func(ops []*model.Op, indent string) {
		for _, op := range ops {
			fmt.Fprintf(&b, "%s%s = %s", indent, op.Name, op.Kind)
			if op.Fn != "" {
				fmt.Fprintf(&b, " %s", op.Fn)
			}
			var names []string
			for _, o := range op.Operands {
				names = append(names, "%"+o.Name)
			}
			if len(names) > 0 {
				fmt.Fprintf(&b, " %s", strings.Join(names, ", "))
			}
			if r := op.Result; r != nil {
				fmt.Fprintf(&b, " -> %%%s %v %s", r.Name, r.Shape, r.DType.Name)
			}
			if op.Info().Memory == model.MemoryGlobal {
				fmt.Fprintf(&b, " contiguous=%d", op.Contiguous)
			}
			if op.Buffer != nil {
				fmt.Fprintf(&b, " buffer=%s%v", op.Buffer.Name, op.Buffer.Shape)
			}
			if op.Info().Combines {
				fmt.Fprintf(&b, " axis=%d", op.Axis)
			}
			if op.Perm != nil {
				fmt.Fprintf(&b, " perm=%v", op.Perm)
			}
			if op.Dims != nil {
				fmt.Fprintf(&b, " dims=%v", op.Dims)
			}
			if r := op.Result; r != nil && r.Pin != nil {
				fmt.Fprintf(&b, " pinned")
			}
			if l := op.Body; l != nil {
				var args, inits, yields, results []string
				for i := range l.Args {
					args = append(args, "%"+l.Args[i].Name)
					inits = append(inits, "%"+l.Inits[i].Name)
					yields = append(yields, "%"+l.Yields[i].Name)
					results = append(results, "%"+l.Results[i].Name)
				}
				fmt.Fprintf(&b, " trips=%d", l.Trips)
				if l.Dynamic {
					fmt.Fprintf(&b, " (assumed)")
				}
				fmt.Fprintf(&b, " args(%s) = (%s) yields(%s) results(%s)\n", strings.Join(args, ", "), strings.Join(inits, ", "), strings.Join(yields, ", "), strings.Join(results, ", "))
				walk(l.Ops, indent+"  ")
				continue
			}
			b.WriteString("\n")
		}
	}
	walk(g.Ops, "")
	return b.String()
}
