package solver

import (
	"fmt"

	"planner/model"
)

// edges connects the nodes: a conversion edge for every use of a value,
// and a link wherever a choice fixes a produced layout.
func (p *Problem) edges() error {
	g := p.Graph
	var err error
	g.Walk(func(op *model.Op) {
		if err != nil {
			return
		}
		res := func() *Node { return p.valueNode[op.Result] }
		same := func(to *Node) func(j int) *model.Layout { return func(j int) *model.Layout { return to.Layouts[j] } }
		switch op.Kind {
		case model.OpElementwise, model.OpCast:
			for i, v := range op.Operands {
				err = p.conversion(v, model.Use{Op: op, Index: i}, res(), same(res()))
			}
		case model.OpTranspose:
			inv := transposeInverse(op.Perm)
			err = p.conversion(op.Operands[0], model.Use{Op: op}, res(), func(j int) *model.Layout {
				l, _ := res().Layouts[j].Transpose(inv)
				return l
			})
		case model.OpBroadcast:
			err = p.conversion(op.Operands[0], model.Use{Op: op}, res(), func(j int) *model.Layout { return sliceDims(res().Layouts[j], op.Dims) })
		case model.OpShapeCast:
			err = p.conversion(op.Operands[0], model.Use{Op: op}, res(), func(j int) *model.Layout {
				l, _ := res().Layouts[j].Reshape(op.Operands[0].Shape)
				return l
			})
		case model.OpReduce:
			exec := p.opNode[op]
			err = p.conversion(op.Operands[0], model.Use{Op: op}, exec, same(exec))
			if err == nil && len(op.Operands) == 2 {
				err = p.conversion(op.Operands[1], model.Use{Op: op, Index: 1}, res(), same(res()))
			}
			p.link(exec, res(), func(i, j int) bool {
				s, e := exec.Layouts[i].Slice(op.Axis)
				return e == nil && s.Equal(res().Layouts[j])
			}, op.Pos)
		case model.OpStore, model.OpCopyToShared:
			exec := p.opNode[op]
			err = p.conversion(op.Operands[0], model.Use{Op: op}, exec, same(exec))
		case model.OpMMA:
			n := p.opNode[op]
			pick := []func(*MMAChoice) *model.Layout{
				func(c *MMAChoice) *model.Layout { return c.A },
				func(c *MMAChoice) *model.Layout { return c.B },
				func(c *MMAChoice) *model.Layout { return c.C },
			}
			for i, v := range op.Operands {
				f := pick[i]
				if err = p.conversion(v, model.Use{Op: op, Index: i}, n, func(j int) *model.Layout { return f(n.MMA[j]) }); err != nil {
					return
				}
			}
			p.link(n, res(), func(i, j int) bool { return n.MMA[i].C.Equal(res().Layouts[j]) }, op.Pos)
		case model.OpLoop:
			lp := op.Body
			for i, arg := range lp.Args {
				an := p.valueNode[arg]
				if err = p.conversion(lp.Inits[i], model.Use{Op: op, Index: i}, an, same(an)); err != nil {
					return
				}
				if err = p.conversion(lp.Yields[i], model.Use{Op: op, Index: i, Yield: true}, an, same(an)); err != nil {
					return
				}
				rn := p.valueNode[lp.Results[i]]
				p.link(an, rn, func(a, b int) bool { return an.Layouts[a].Equal(rn.Layouts[b]) }, op.Pos)
			}
		}
	})
	return err
}

// conversion adds the edge for one use of v: the consumer node to, whose
// choice j requires layout required(j) (nil: no layout of v can serve).
func (p *Problem) conversion(v *model.Value, use model.Use, to *Node, required func(j int) *model.Layout) error {
	from := p.valueNode[v]
	e := &Edge{Kind: EdgeConversion, From: from.ID, To: to.ID, Value: v, Use: use, Pos: use.Op.Pos}
	switch {
	case p.Graph.NoConversions:
		e.Forbid = fmt.Sprintf("conversions are forbidden everywhere (%s)", p.Graph.NoConvPos)
	case use.Index < len(use.Op.NoConvert) && use.Op.NoConvert[use.Index] && !use.Yield:
		e.Forbid = fmt.Sprintf("%s allows no conversion of %s (%s)", use.Op.Name, v.Name, use.Op.Pos)
	}
	m := make([][]int64, len(from.Layouts))
	for j := range to.Choices() {
		e.Required = append(e.Required, required(j))
	}
	for i, l := range from.Layouts {
		m[i] = make([]int64, to.Choices())
		for j, r := range e.Required {
			c, err := p.useCost(v, l, r, e.Forbid != "")
			if err != nil {
				return err
			}
			m[i][j] = c
		}
	}
	p.Edges = append(p.Edges, e)
	p.PBQP.Edges = append(p.PBQP.Edges, PEdge{A: from.ID, B: to.ID, M: m})
	return nil
}

// useCost prices converting v from one layout to another, Inf when no
// conversion may be made or the scratch would overflow shared memory.
func (p *Problem) useCost(v *model.Value, from, to *model.Layout, forbid bool) (int64, error) {
	if to == nil {
		return Inf, nil
	}
	k := convKey{from.Key(), to.Key(), v.DType.Bits}
	c, ok := p.convs[k]
	if !ok {
		var err error
		c, err = model.Analyze(from, to, v.DType.Bits)
		if err != nil {
			return 0, fmt.Errorf("%s: converting %s: %v", v.Pos, v.Name, err)
		}
		p.convs[k] = c
	}
	if c.Kind == model.ConvNone {
		return 0, nil
	}
	if forbid || (c.Kind == model.ConvShared && p.Buffers+c.ScratchBytes > p.Budget) {
		return Inf, nil
	}
	return model.ConversionCost(c, p.Target, from.Size(model.Lane)) * model.ValueTrips(v), nil
}

// link forbids every pair of choices of a and b that ok rejects.
func (p *Problem) link(a, b *Node, ok func(i, j int) bool, pos model.Pos) {
	m := make([][]int64, a.Choices())
	for i := range m {
		m[i] = make([]int64, b.Choices())
		for j := range m[i] {
			if !ok(i, j) {
				m[i][j] = Inf
			}
		}
	}
	p.Edges = append(p.Edges, &Edge{Kind: EdgeLink, From: a.ID, To: b.ID, Pos: pos})
	p.PBQP.Edges = append(p.PBQP.Edges, PEdge{A: a.ID, B: b.ID, M: m})
}
