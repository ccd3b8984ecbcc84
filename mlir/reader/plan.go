package reader

import (
	"fmt"
	"io"

	"planner/model"
	"planner/plans"
)

// Kernel is a function a front end read: its graph, and the writer of a
// plan back into the text src it was read from.
type Kernel interface {
	Graph() *model.Graph
	Write(w io.Writer, src string, pl *Planned) error
}

// Planned is what the writers read of a verified plan (plans.Plan),
// looked up by the names of the graph it was built from: the kernel's
// own, or one read from the same text with the same options, whose
// values, ops and buffers have the same names.
type Planned struct {
	Layouts map[string]*model.Layout       // each value's layout (ValuePlan.Exact)
	Ops     map[string]plans.OpPlan        // each op's record and the layouts its uses read
	Buffers map[string]*model.SharedLayout // each placed buffer's placement
	Conv    []plans.ConvPlan               // the conversions, in the plan's order
}

// PlannedOf indexes the plan p by name for writing. A plan whose values
// or conversions lack their exact layouts (one not built from a graph)
// cannot be written.
func PlannedOf(p *plans.Plan) (*Planned, error) {
	pl := &Planned{Layouts: map[string]*model.Layout{}, Ops: map[string]plans.OpPlan{}, Buffers: map[string]*model.SharedLayout{}, Conv: p.Conv}
	for _, v := range p.Values {
		l := v.Exact()
		if l == nil {
			return nil, fmt.Errorf("%s: the plan holds no layout for %%%s: only a plan built from the kernel's graph can be written into it", p.File, v.Name)
		}
		pl.Layouts[v.Name] = l
	}
	for _, o := range p.Ops {
		pl.Ops[o.Name] = o
	}
	for _, c := range p.Conv {
		if c.Use().Op == nil || c.From() == nil || c.Required() == nil {
			return nil, fmt.Errorf("%s: the plan holds no layouts for the conversion of %%%s before %s: only a plan built from the kernel's graph can be written into it", p.File, c.Value, c.Consumer)
		}
	}
	for _, b := range p.Shared.Placed {
		if sl := b.SharedLayout(); sl != nil {
			pl.Buffers[b.Name] = sl
		}
	}
	return pl, nil
}
