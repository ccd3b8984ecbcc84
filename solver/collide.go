package solver

import (
	"fmt"
	"strings"

	"planner/model"
)

// collide says in plain words how a core's facts rule every plan out, and
// picks two layouts to draw side by side where a layout clash is the
// reason.
func (p *Problem) collide(core []*model.Fact) ([]string, *model.Clash) {
	in := map[*model.Fact]bool{}
	for _, f := range core {
		in[f] = true
	}
	ref := func(f *model.Fact) string { return "[" + f.Name + "]" }
	var says []string
	var clash *model.Clash
	chained := false
	for _, f := range core {
		switch f.Kind {
		case model.FactNoConvert:
			e := p.edgeWith(f)
			if e == nil {
				continue
			}
			v := e.Value
			consumer := opText(e.Use.Op)
			pin := p.facts.byName["pin:"+v.Name]
			switch {
			case pin != nil && in[pin] && v.Pin.Layout != nil:
				says = append(says, fmt.Sprintf("%%%s can only be in its pinned layout %s, %s needs it in another layout %s, and %s forbids converting it.",
					v.Name, ref(pin), consumer, ref(e.Rule), ref(f)))
				if r, j := p.requiredUnder(e, in); clash == nil && r != nil {
					caption := fmt.Sprintf("%%%s as %s needs it %s", v.Name, consumer, ref(e.Rule))
					if to := p.Nodes[e.To]; to.Kind == NodeMMA {
						caption = fmt.Sprintf("%%%s as %s needs it on %s %s", v.Name, consumer, to.MMA[j], ref(e.Rule))
					}
					clash = &model.Clash{Left: v.Pin.Layout, LeftCaption: fmt.Sprintf("%%%s as pinned %s", v.Name, ref(pin)),
						Right: r, RightCaption: caption}
				}
			default:
				says = append(says, fmt.Sprintf("%%%s enters %s unconverted %s, so it must already be in the layout %s needs %s.",
					v.Name, consumer, ref(f), consumer, ref(e.Rule)))
				chained = true
			}
		case model.FactBudget, model.FactCapacity:
			var needs []string
			for _, g := range core {
				if g.Kind == model.FactRule {
					needs = append(needs, ref(g))
				}
			}
			left := p.Graph.SharedBudget
			if f.Kind == model.FactCapacity {
				left = p.Target.SharedMemory
			}
			left -= p.Buffers
			if left < 0 {
				says = append(says, fmt.Sprintf("The buffers take %s, more than %s allows.", bytesText(p.Buffers), ref(f)))
				continue
			}
			says = append(says, fmt.Sprintf("The buffers take %s, which leaves %s of %s; every plan the other facts allow needs more than that for a trip through shared memory (%s).",
				bytesText(p.Buffers), bytesText(left), ref(f), strings.Join(needs, ", ")))
		case model.FactRecords:
			says = append(says, fmt.Sprintf("No record of %s can run the mma %s.", p.Target.Name, ref(f)))
		case model.FactVariant:
			says = append(says, fmt.Sprintf("No record of %s can run the mma as %s states.", p.Target.Name, ref(f)))
		case model.FactMemory:
			if d, ok := p.descriptorCollision(f, core, ref); ok {
				says = append(says, d...)
				continue
			}
			for _, g := range core {
				if g.Kind != model.FactIntrinsic {
					continue
				}
				placement := "every placement the planner considers for the buffer"
				if bufs := refsOf(core, model.FactBuffer); len(bufs) > 0 {
					placement = "the buffer's placement " + strings.Join(bufs, " ")
				}
				says = append(says, fmt.Sprintf("%s makes the load go through a record whose memory rule %s %s breaks.", ref(g), ref(f), placement))
				says = append(says, p.memoryBreaks(f, core)...)
			}
		case model.FactFragment:
			if _, family := p.families[strings.TrimPrefix(f.Name, "fragment:")]; family {
				by := strings.Join(refsOf(core, model.FactIntrinsic), " ")
				if by == "" {
					by = "These facts"
				}
				says = append(says, fmt.Sprintf("%s put a value in a fragment of unspecified lanes, which no conversion leaves and only its family's records read %s.", by, ref(f)))
				break
			}
			says = append(says, fmt.Sprintf("%s names a record whose result has no layout the planner can place %s.", strings.Join(refsOf(core, model.FactIntrinsic), " "), ref(f)))
		case model.FactRegisters:
			says = append(says, p.registersCollide(ref(f), len(core) == 1))
		case model.FactIntrinsic:
			if len(core) == 1 {
				if why := p.intrinsicMisfit(f); why != "" {
					says = append(says, why)
				}
			}
		case model.FactSubgroups:
			for _, g := range core {
				if g.Kind == model.FactPin {
					says = append(says, fmt.Sprintf("The pinned layout %s needs a block the graph does not run %s.", ref(g), ref(f)))
				}
			}
		}
	}
	if chained {
		says = append(says, "No choice of layouts meets every one of these steps at once.")
	}
	if len(says) == 0 && len(core) == 1 {
		says = append(says, fmt.Sprintf("%s alone rules out every choice the planner considers.", ref(core[0])))
	}
	if len(says) == 0 {
		var names []string
		for _, f := range core {
			names = append(names, ref(f))
		}
		says = append(says, fmt.Sprintf("Each of %s rules out some layouts; together they rule out all of them.", strings.Join(names, ", ")))
	}
	return says, clash
}

func refsOf(core []*model.Fact, kinds ...model.FactKind) []string {
	var out []string
	for _, f := range core {
		for _, k := range kinds {
			if f.Kind == k {
				out = append(out, "["+f.Name+"]")
			}
		}
	}
	return out
}

// edgeWith finds the conversion edge a no-conversion fact belongs to.
func (p *Problem) edgeWith(f *model.Fact) *Edge {
	for _, e := range p.Edges {
		if e.NoConv == f {
			return e
		}
	}
	return nil
}

// requiredUnder is a layout the consumer of edge e requires when it takes
// a choice that no node guard made of the facts in force forbids: the
// other side of a clash.
func (p *Problem) requiredUnder(e *Edge, in map[*model.Fact]bool) (*model.Layout, int) {
	forbidden := map[int32]bool{}
	for _, fb := range p.facts.nodeForbid[e.To] {
		all := true
		for _, id := range p.facts.guards[fb.Guard] {
			all = all && in[p.facts.list[id]]
		}
		if all {
			forbidden[fb.I] = true
		}
	}
	for j, r := range e.Required {
		if r != nil && !forbidden[int32(j)] {
			return r, j
		}
	}
	return nil, -1
}

// memoryBreaks says where each buffer placement of the core breaks the
// memory rule of fact f.
func (p *Problem) memoryBreaks(f *model.Fact, core []*model.Fact) []string {
	name := strings.TrimPrefix(f.Name, "memory:")
	var r *model.Record
	for _, rec := range p.loadRecs {
		if rec.Name == name {
			r = rec
		}
	}
	var out []string
	for _, g := range core {
		if g.Kind != model.FactBuffer || r == nil {
			continue
		}
		for _, b := range p.Graph.Buffers {
			if "buffer:"+b.Name != g.Name {
				continue
			}
			if err := p.admits(r, b.Layout); err != nil {
				out = append(out, fmt.Sprintf("Buffer %s as placed (%s) breaks it: %v.", b.Name, b.Layout, err))
			}
		}
	}
	return out
}

// intrinsicMisfit says why the record an op names (fact f) runs it in no
// way the planner considers: an mma record the planner does not plan, or,
// for a shared-memory load, the record's element size, its fragments not
// tiling the value, or the value not a whole number of instructions; ""
// where it cannot say.
func (p *Problem) intrinsicMisfit(f *model.Fact) string {
	var op *model.Op
	p.Graph.Walk(func(o *model.Op) {
		if o.Intrinsic != "" && "intrinsic:"+o.Name == f.Name {
			op = o
		}
	})
	if op == nil || op.Result == nil {
		return ""
	}
	for _, r := range p.plainMMA {
		if why := r.Unplanned(); r.Name == op.Intrinsic && why != "" {
			return fmt.Sprintf("[%s] makes %s use %s, a record the planner does not plan (%s), and rules out every other record.", f.Name, opText(op), r.Name, why)
		}
		if why := model.ScaleMisfit(op, r); r.Name == op.Intrinsic && why != "" {
			return fmt.Sprintf("[%s] makes %s use %s, which it cannot run (%s), and rules out every other record.", f.Name, opText(op), r.Name, why)
		}
	}
	if op.Info().Records != model.RecordLoadShared {
		return ""
	}
	r := p.namedLoad(op, p.loadRecs)
	if r == nil || r.Fragment == nil || r.Fragment.Layout == nil {
		return ""
	}
	v, fs := op.Result, r.Fragment.Shape
	lead := fmt.Sprintf("[%s] makes %s (%s %s) use %s", f.Name, opText(op), dims(v.Shape), v.DType.Name, r.Name)
	switch {
	case r.Fragment.DType.Bits != v.DType.Bits:
		return fmt.Sprintf("%s, which loads %d-bit elements.", lead, r.Fragment.DType.Bits)
	case len(fs) != 2 || len(v.Shape) != 2 || v.Shape[0]%fs[0] != 0 || v.Shape[1]%fs[1] != 0:
		return fmt.Sprintf("%s, whose %s fragments do not tile it.", lead, dims(fs))
	}
	if n := v.Shape[0] / fs[0] * v.Shape[1] / fs[1]; n%max(r.Matrices, 1) != 0 {
		return fmt.Sprintf("%s, which loads %d of its %s fragments at a time: %%%s is %d of them, not a whole number of instructions.",
			lead, max(r.Matrices, 1), dims(fs), v.Name, n)
	}
	return fmt.Sprintf("%s, and no layout of %%%s the planner considers is that record's %s fragment repeated.", lead, v.Name, dims(fs))
}
