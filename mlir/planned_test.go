package mlir

import (
	"io"
	"strings"
	"testing"

	"planner/model"
	"planner/plans"
)

// plannedFrom is the plan a test writes: the layouts and placements of
// an assignment that gives only some values and buffers theirs (the
// input's own), which plans.Build, needing every value's, would refuse.
// Every value and op of g is named, a value with a nil layout where a
// gives none, as a plan names every value and op; no op has a record or
// reads a value in another layout than its own.
func plannedFrom(g *model.Graph, a *model.Assignment) *planned {
	pl := &planned{layouts: map[string]*model.Layout{}, ops: map[string]plans.OpPlan{}, buffers: map[string]*model.SharedLayout{}}
	for _, v := range g.Values {
		pl.layouts[v.Name] = a.Layouts[v]
	}
	g.Walk(func(op *model.Op) { pl.ops[op.Name] = plans.OpPlan{Name: op.Name} })
	for _, b := range g.Buffers {
		if sl := a.Buffers[b]; sl != nil {
			pl.buffers[b.Name] = sl
		}
	}
	return pl
}

// writeAssigned writes the MLIR text data back with the layouts and
// placements of a in it, as WritePlan writes a plan.
func writeAssigned(w io.Writer, file string, data []byte, opt Options, g *model.Graph, a *model.Assignment) error {
	k, err := ReadKernel(file, data, opt)
	if err != nil {
		return err
	}
	return k.write(w, plannedFrom(g, a))
}

// A plan that holds only its text (no value's exact layout) is refused,
// not written as a kernel with every layout missing.
func TestWriteRefusesPlanWithoutLayouts(t *testing.T) {
	opt := Options{Targets: ttTargets, InputLayouts: true}
	k, err := ReadKernel("k.ttgir", []byte(twoNames), opt)
	if err != nil {
		t.Fatal(err)
	}
	p := &plans.Plan{File: "k.ttgir", Values: []plans.ValuePlan{{Name: "sa", Layout: "#blocked"}}}
	var out strings.Builder
	err = k.Write(&out, p)
	if err == nil || !strings.Contains(err.Error(), "no layout for %sa") {
		t.Errorf("a plan without layouts: got %v, want an error naming %%sa", err)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes of a plan it refused", out.Len())
	}
}
