package solver

import (
	"fmt"

	"planner/model"
	"planner/solver/pbqp"
)

// edges connects the nodes: a conversion edge for every use of a value,
// and a link wherever a choice fixes a produced layout.
func (p *Problem) edges() error {
	g := p.Graph
	var err error
	p.watch.phase("build", "edges", p.ops())
	g.Walk(func(op *model.Op) {
		if err == nil {
			err = p.watch.step()
		}
		if err != nil {
			return
		}
		res := func() *Node { return p.valueNode[op.Result] }
		same := func(to *Node) func(j int) *model.Layout { return func(j int) *model.Layout { return to.Layouts[j] } }
		info := op.Info()
		switch info.Flow {
		case model.FlowSame:
			for i, v := range op.Operands {
				err = p.conversion(v, model.Use{Op: op, Index: i}, res(), same(res()))
			}
		case model.FlowRelabel:
			tr := info.Backward
			how := tr.Key(op)
			err = p.conversion(op.Operands[0], model.Use{Op: op}, res(), func(j int) *model.Layout {
				return p.memo.derive(res().Layouts[j], how, func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
			})
		case model.FlowExec:
			exec := p.opNode[op]
			err = p.conversion(op.Operands[0], model.Use{Op: op}, exec, same(exec))
			for i := 1; err == nil && i < len(op.Operands); i++ {
				err = p.conversion(op.Operands[i], model.Use{Op: op, Index: i}, res(), same(res()))
			}
			if tr := info.Forward; tr != nil && op.Result != nil {
				how := tr.Key(op)
				p.link(exec, res(), func(i, j int) bool {
					s := p.memo.derive(exec.Layouts[i], how, func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
					return s != nil && p.memo.equalLayouts(s, res().Layouts[j])
				}, op, opText(op)+" "+info.Makes(op))
			}
			if err == nil && p.placed(op) {
				err = p.accessEdge(op, exec, p.loadRecs)
			}
		case model.FlowFree:
			if p.placed(op) {
				err = p.accessEdge(op, res(), p.loadRecs)
			}
		case model.FlowRecord:
			n := p.opNode[op]
			pick := map[string]func(*MMAChoice) *model.Layout{
				"a": func(c *MMAChoice) *model.Layout { return c.A },
				"b": func(c *MMAChoice) *model.Layout { return c.B },
				"c": func(c *MMAChoice) *model.Layout { return c.C },
			}
			for i, v := range op.Operands {
				f := pick[model.RoleName(op, i)]
				if err = p.conversion(v, model.Use{Op: op, Index: i}, n, func(j int) *model.Layout { return f(n.MMA[j]) }); err != nil {
					return
				}
			}
			if err = p.descriptorEdge(op, n); err != nil {
				return
			}
			p.link(n, res(), func(i, j int) bool { return p.memo.equalLayouts(n.MMA[i].C, res().Layouts[j]) }, op,
				fmt.Sprintf("%s produces %%%s in the accumulator fragment of its record, tiled over the warps: %s", opText(op), op.Result.Name, mmaRecordList(n.MMA)))
			if rule := p.ruleFact(op, "result", ""); len(rule.Also) == 0 {
				rule.Also = recordLines(n.MMA, "d")
			}
		case model.FlowCarry:
			lp := op.Body
			for i, arg := range lp.Args {
				an := p.valueNode[arg]
				if err = p.conversion(lp.Inits[i], model.Use{Op: op, Index: i}, an, same(an)); err != nil {
					return
				}
				// A value carried unchanged (the yield is the carried value
				// itself) is in its own layout: no edge, which would join
				// the node to itself.
				if lp.Yields[i] != arg {
					if err = p.conversion(lp.Yields[i], model.Use{Op: op, Index: i, Yield: true}, an, same(an)); err != nil {
						return
					}
				}
				rn := p.valueNode[lp.Results[i]]
				p.link(an, rn, func(a, b int) bool { return p.memo.equalLayouts(an.Layouts[a], rn.Layouts[b]) }, op,
					fmt.Sprintf("loop %s leaves its results in the layouts it carries them in", op.Name))
			}
		}
	})
	return err
}

// conversion adds the edge for one use of v: the consumer node to, whose
// choice j requires layout required(j) (nil: no layout of v can serve).
// The consumer's rule guards every pair it rules out; a no-conversion fact
// or the shared-memory budget guard the conversions it forbids.
func (p *Problem) conversion(v *model.Value, use model.Use, to *Node, required func(j int) *model.Layout) error {
	from := p.valueNode[v]
	rule := p.useRule(v, use, to)
	noconv := p.noConvertFact(v, use)
	e := &Edge{Kind: EdgeConversion, From: from.ID, To: to.ID, Value: v, Use: use, Rule: rule, NoConv: noconv}
	m := p.memo.mats.zero(len(from.Layouts), to.Choices())
	placeholder := func(j int) bool { return to.Kind == NodeMMA && to.MMA[j].Record == nil }
	e.Required = make([]*model.Layout, 0, to.Choices())
	for j := range to.Choices() {
		if placeholder(j) {
			e.Required = append(e.Required, nil)
			continue
		}
		e.Required = append(e.Required, required(j))
	}
	e.Required = p.memo.list(e.Required)
	var forbids []forbid
	tab := p.memo.pairs.table(from.Layouts, e.Required, v.DType.Bits)
	trips := model.ValueTrips(v)
	ruleOff := p.relaxed(rule) // without its rule the use needs nothing
	ruleGuard := int32(-1)
	guardRule := func() int32 {
		if ruleGuard < 0 {
			ruleGuard = p.guard(rule)
		}
		return ruleGuard
	}
	for i, l := range from.Layouts {
		for j, r := range e.Required {
			if placeholder(j) {
				continue // an mma with no record requires nothing
			}
			var guards []int32
			switch {
			case r == nil:
				guards = append(guards, guardRule())
			case r.InShared():
				// The mma reads the operand's buffer through its
				// descriptor: nothing to convert, whether the value is
				// left there or also loaded for other consumers.
			case l.InShared():
				// Left in shared memory: nothing but a descriptor reads it.
				guards = append(guards, guardRule())
			case (l.Opaque() != "" || r.Opaque() != "") && !l.Equal(r):
				// No conversion reaches or leaves an unspecified fragment.
				guards = append(guards, p.guard(rule, p.familyFact(l, r)))
			default:
				pe := &tab.at[i][j]
				if !pe.done {
					pe.cost, pe.conv, pe.err = p.pairCost(v.DType.Bits, l, r)
					pe.done = true
				}
				if pe.err != nil {
					return fmt.Errorf("%s: converting %s: %v", v.Pos, v.Name, pe.err)
				}
				c, conv := pe.cost*trips, pe.conv
				if !ruleOff {
					m[i][j] = c
				}
				if conv != nil && noconv != nil {
					guards = append(guards, p.guard(noconv, rule))
				}
				if conv != nil && conv.Kind == model.ConvShared {
					guards = append(guards, p.overBudget(conv.ScratchBytes, rule)...)
					if p.combined && !ruleOff { // only a combined placement decision reads them
						p.scratch = append(p.scratch, scratchUse{Edge: len(p.PBQP.Edges), I: int32(i), J: int32(j), Bytes: conv.ScratchBytes})
					}
				}
			}
			for _, g := range guards {
				forbids = append(forbids, forbid{I: int32(i), J: int32(j), Guard: g})
				if p.inForce(g) {
					m[i][j] = Inf
				}
			}
		}
	}
	p.Edges = append(p.Edges, e)
	p.PBQP.Edges = append(p.PBQP.Edges, pbqp.Edge{A: from.ID, B: to.ID, M: p.memo.mats.shared(m)})
	p.facts.edgeForbid = append(p.facts.edgeForbid, forbids)
	return nil
}

// pairCost prices converting elements of bits bits from one layout to
// another for one trip, with the conversion (nil when the layouts agree).
func (p *Problem) pairCost(bits int, from, to *model.Layout) (int64, *model.Conversion, error) {
	pair := convPair{from, to, bits} // by pointer: cheaper than by key, for the layouts seen before
	c, ok := p.memo.convs[pair]
	if !ok {
		k := convKey{from.Key(), to.Key(), bits}
		if c, ok = p.convs[k]; !ok {
			var err error
			c, err = model.Analyze(from, to, bits)
			if err != nil {
				return 0, nil, err
			}
			model.CountScratch(c, from, to, p.Target, p.access)
			p.convs[k] = c
		}
		p.memo.convs[pair] = c
	}
	if c.Kind == model.ConvNone {
		return 0, nil, nil
	}
	return model.ConversionCost(c, p.Target, from.Size(model.Lane)), c, nil
}

// link forbids every pair of choices of a and b that ok rejects, under the
// op's rule for its result.
func (p *Problem) link(a, b *Node, ok func(i, j int) bool, op *model.Op, text string) {
	rule := p.ruleFact(op, "result", text)
	m := p.memo.mats.zero(a.Choices(), b.Choices())
	var forbids []forbid
	g := p.guard(rule)
	force := p.inForce(g)
	for i := range m {
		if a.Kind == NodeMMA && a.MMA[i].Record == nil {
			continue // an mma with no record makes nothing
		}
		for j := range m[i] {
			if !ok(i, j) {
				forbids = append(forbids, forbid{I: int32(i), J: int32(j), Guard: g})
				if force {
					m[i][j] = Inf
				}
			}
		}
	}
	p.Edges = append(p.Edges, &Edge{Kind: EdgeLink, From: a.ID, To: b.ID, Rule: rule})
	if force {
		// The matrix's Inf entries are the forbids (edgeForbids).
		if p.facts.linkGuard == nil {
			p.facts.linkGuard = map[int]int32{}
		}
		p.facts.linkGuard[len(p.PBQP.Edges)] = g
		forbids = nil
	}
	p.PBQP.Edges = append(p.PBQP.Edges, pbqp.Edge{A: a.ID, B: b.ID, M: p.memo.mats.shared(m)})
	p.facts.edgeForbid = append(p.facts.edgeForbid, forbids)
}

// matrix is a zero rows×cols cost matrix in one allocation.
func matrix(rows, cols int) [][]int64 {
	flat := make([]int64, rows*cols)
	m := make([][]int64, rows)
	for i := range m {
		m[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return m
}
