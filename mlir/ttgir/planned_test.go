package ttgir

import (
	"io"
	"planner/mlir/reader"
	"planner/model"
	"planner/plans"
)

// plannedFrom is the plan a test writes: the layouts and placements of
// an assignment that gives only some values and buffers theirs (the
// input's own), which plans.Build, needing every value's, would refuse.
// Every value and op of g is named, a value with a nil layout where a
// gives none, as a plan names every value and op; no op has a record or
// reads a value in another layout than its own.
func plannedFrom(g *model.Graph, a *model.Assignment) *reader.Planned {
	pl := &reader.Planned{Layouts: map[string]*model.Layout{}, Ops: map[string]plans.OpPlan{}, Buffers: map[string]*model.SharedLayout{}}
	for _, v := range g.Values {
		pl.Layouts[v.Name] = a.Layouts[v]
	}
	g.Walk(func(op *model.Op) { pl.Ops[op.Name] = plans.OpPlan{Name: op.Name} })
	for _, b := range g.Buffers {
		if sl := a.Buffers[b]; sl != nil {
			pl.Buffers[b.Name] = sl
		}
	}
	return pl
}

// writeAssigned writes the TTGIR text data back with the layouts and
// placements of a in it, as a plan is written.
func writeAssigned(w io.Writer, file string, data []byte, opt reader.Options, g *model.Graph, a *model.Assignment) error {
	b, err := read(file, data, opt)
	if err != nil {
		return err
	}
	return b.Write(w, string(data), plannedFrom(g, a))
}
