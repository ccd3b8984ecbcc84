package solver

import (
	"fmt"

	"planner/model"
	"planner/solver/pbqp"
)

// edges connects the nodes: a conversion edge for every use of a value,
// and a link wherever a choice fixes a produced layout. The ops are
// walked in batches: each batch first lists the pairs of layouts its
// uses convert between that no earlier batch analysed, analyses them on
// every CPU at once (pricePending), then makes its edges in walk order
// from the priced pairs.
func (p *Problem) edges() error {
	g := p.Graph
	var err error
	var steps []func() error
	later := func(f func() error) { steps = append(steps, f) }
	conversion := func(v *model.Value, use model.Use, to *Node, required func(j int) *model.Layout) {
		later(p.conversion(v, use, to, required))
	}
	flush := func() {
		if err == nil {
			p.memo.listPairs()
			err = p.pricePending()
		}
		for _, f := range steps {
			if err != nil {
				break
			}
			err = f()
		}
		steps = steps[:0]
	}
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
				conversion(v, model.Use{Op: op, Index: i}, res(), same(res()))
			}
		case model.FlowRelabel:
			tr := info.Backward
			how := tr.Key(op)
			for i, v := range op.Operands {
				conversion(v, model.Use{Op: op, Index: i}, res(), func(j int) *model.Layout {
					return p.memo.derive(res().Layouts[j], how, func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
				})
			}
		case model.FlowExec:
			exec := p.opNode[op]
			conversion(op.Operands[0], model.Use{Op: op}, exec, same(exec))
			for i := 1; i < len(op.Operands); i++ {
				conversion(op.Operands[i], model.Use{Op: op, Index: i}, res(), same(res()))
			}
			later(func() error {
				if tr := info.Forward; tr != nil && op.Result != nil {
					how := tr.Key(op)
					p.link(exec, res(), func(i, j int) bool {
						s := p.memo.derive(exec.Layouts[i], how, func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
						return s != nil && s.Equal(res().Layouts[j])
					}, op, opText(op)+" "+info.Makes(op))
				}
				if p.placed(op) {
					return p.accessEdge(op, exec, p.loadRecs)
				}
				return nil
			})
		case model.FlowFree:
			if p.placed(op) {
				later(func() error { return p.accessEdge(op, res(), p.loadRecs) })
			}
		case model.FlowRecord:
			n := p.opNode[op]
			pick := map[string]func(*MMAChoice) *model.Layout{
				"a":       func(c *MMAChoice) *model.Layout { return c.A },
				"b":       func(c *MMAChoice) *model.Layout { return c.B },
				"c":       func(c *MMAChoice) *model.Layout { return c.C },
				"scale_a": func(c *MMAChoice) *model.Layout { return c.ScaleA },
				"scale_b": func(c *MMAChoice) *model.Layout { return c.ScaleB },
			}
			for i, v := range op.Operands {
				f := pick[model.RoleName(op, i)]
				conversion(v, model.Use{Op: op, Index: i}, n, func(j int) *model.Layout { return f(n.MMA[j]) })
			}
			later(func() error {
				if err := p.descriptorEdge(op, n); err != nil {
					return err
				}
				p.link(n, res(), func(i, j int) bool { return n.MMA[i].C.Equal(res().Layouts[j]) }, op,
					fmt.Sprintf("%s produces %%%s in the accumulator fragment of its record, tiled over the warps: %s", opText(op), op.Result.Name, mmaRecordList(n.MMA)))
				if rule := p.ruleFact(op, "result", ""); len(rule.Also) == 0 {
					rule.Also = recordLines(n.MMA, "d")
				}
				return nil
			})
		case model.FlowCarry:
			lp := op.Body
			for i, arg := range lp.Args {
				an := p.valueNode[arg]
				conversion(lp.Inits[i], model.Use{Op: op, Index: i}, an, same(an))
				// A value carried unchanged (the yield is the carried value
				// itself) is in its own layout: no edge, which would join
				// the node to itself.
				if lp.Yields[i] != arg {
					conversion(lp.Yields[i], model.Use{Op: op, Index: i, Yield: true}, an, same(an))
				}
				rn := p.valueNode[lp.Results[i]]
				later(func() error {
					p.link(an, rn, func(a, b int) bool { return an.Layouts[a].Equal(rn.Layouts[b]) }, op,
						fmt.Sprintf("loop %s leaves its results in the layouts it carries them in", op.Name))
					return nil
				})
			}
		}
		if len(steps) >= edgeBatch {
			flush()
		}
	})
	flush()
	return err
}

// edgeBatch is the number of edge-making steps listed before their pairs
// are priced and their edges made: enough pairs to share out over the
// CPUs, few enough steps to hold at once in a graph of a million ops.
const edgeBatch = 4096

// conversion lists the pairs of layouts the edge for one use of v
// converts between that no one priced (pricePending prices them) and
// returns the step that makes the edge: the consumer node to, whose
// choice j requires layout required(j) (nil: no layout of v can serve).
// The consumer's rule guards every pair it rules out; a no-conversion fact
// or the shared-memory budget guard the conversions it forbids.
func (p *Problem) conversion(v *model.Value, use model.Use, to *Node, required func(j int) *model.Layout) func() error {
	from := p.valueNode[v]
	placeholder := func(j int) bool { return to.Kind == NodeMMA && to.MMA[j].Record == nil }
	req := make([]*model.Layout, 0, to.Choices())
	for j := range to.Choices() {
		if placeholder(j) {
			req = append(req, nil)
			continue
		}
		req = append(req, required(j))
	}
	req = p.memo.list(req)
	tab := p.memo.pairs.table(from.Layouts, req, v.DType.Bits)
	if !tab.listed {
		tab.listed = true
		p.memo.unlisted = append(p.memo.unlisted, unlistedTable{tab, from.Layouts, req, v.DType.Bits})
	}
	return func() error {
		if tab.err != nil {
			return fmt.Errorf("%s: converting %s: %v", v.Pos, v.Name, tab.err)
		}
		return p.conversionEdge(v, use, to, from, req, tab)
	}
}

// analysed reports whether a use converting from l into r is priced by
// the analysis of the pair (pairCost): the cases conversionEdge leaves
// to its default.
func analysed(l, r *model.Layout) bool {
	return !r.InShared() && !l.InShared() && !((l.Opaque() != "" || r.Opaque() != "") && !l.Equal(r))
}

// conversionEdge makes the edge conversion listed.
func (p *Problem) conversionEdge(v *model.Value, use model.Use, to, from *Node, required []*model.Layout, tab *pairTable) error {
	rule := p.useRule(v, use, to)
	noconv := p.noConvertFact(v, use)
	e := &Edge{Kind: EdgeConversion, From: from.ID, To: to.ID, Value: v, Use: use, Rule: rule, NoConv: noconv, Required: required}
	m := p.memo.mats.zero(len(from.Layouts), to.Choices())
	placeholder := func(j int) bool { return to.Kind == NodeMMA && to.MMA[j].Record == nil }
	var forbids []forbid
	trips := model.ValueTrips(v)
	ruleOff := p.relaxed(rule) // without its rule the use needs nothing
	ruleGuard := int32(-1)
	guardRule := func() int32 {
		if ruleGuard < 0 {
			ruleGuard = p.guard(rule)
		}
		return ruleGuard
	}
	var guardBuf [4]int32
	for i, l := range from.Layouts {
		for j, r := range e.Required {
			if placeholder(j) {
				continue // an mma with no record requires nothing
			}
			guards := guardBuf[:0]
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
				pc := p.pairCost(tab.at[i][j])
				if pc.err != nil {
					return fmt.Errorf("%s: converting %s: %v", v.Pos, v.Name, pc.err)
				}
				c, conv := pc.cost*trips, pc.c
				if conv.Kind == model.ConvNone {
					conv = nil // nothing to convert
				}
				if !ruleOff {
					m[i][j] = c
				}
				if conv != nil && noconv != nil {
					guards = append(guards, p.guard(noconv, rule))
				}
				if conv != nil && conv.Kind == model.ConvShared {
					guards = p.overBudget(guards, conv.ScratchBytes, rule)
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

// pairCost is the pair of layouts the memo numbers n (priced by
// pricePending) with the cost of one trip converting a value between
// them, worked out once.
func (p *Problem) pairCost(n int32) *pricedConv {
	pc := &p.memo.convs[n]
	if !pc.costed && pc.err == nil {
		pc.costed = true
		if pc.c.Kind != model.ConvNone {
			pc.cost = model.ConversionCost(pc.c, p.Target, pc.pair.from.Size(model.Lane))
		}
	}
	return pc
}

// analyse analyses a conversion and counts its scratch accesses with
// cache; goroutines may call it at once, each with a view of p.build.access.
func (p *Problem) analyse(pair convPair, cache *model.AccessCache) (*model.Conversion, error) {
	c, err := model.Analyze(pair.from, pair.to, pair.bits)
	if err != nil {
		return nil, err
	}
	model.LowerShuffles(c, pair.from, pair.to, p.Target)
	model.CountScratch(c, pair.from, pair.to, p.Target, cache)
	return c, nil
}

// pricePending analyses every pair conversion listed since the last call,
// on every CPU (inParallel): each pair's analysis reads only its two
// layouts, whose lazily computed parts are safe to share. The results do
// not depend on how the pairs were shared out.
func (p *Problem) pricePending() error {
	pend := p.memo.pending
	p.memo.pending = pend[:0]
	convs := p.memo.convs
	return p.inParallel(len(pend), pairChunk, func(cache *model.AccessCache, lo, hi int) {
		for _, n := range pend[lo:hi] {
			pc := &convs[n]
			pc.c, pc.err = p.analyse(pc.pair, cache)
		}
	})
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
