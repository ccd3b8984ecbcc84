package plans

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
)

// The answers to the questions seed 004 asks of a plan: can a loop run
// in registers only, or which values cross shared memory in each trip
// and why; and for a reduction, how many lanes and subgroups combine
// each result and how many hold it afterwards.

// LoopPlan says how a loop's trips use shared memory.
type LoopPlan struct {
	// RegistersOnly: no value computed in the loop (its body, nested
	// loops included, and its carried values) passes through shared
	// memory; the loop may still read its inputs from buffers (Reads).
	RegistersOnly bool `json:"registers_only"`
	// Crossings are the values that pass through shared memory in each
	// trip, in program order.
	Crossings []Crossing `json:"crossings"`
	// Reads are the buffers the loop reads its inputs from, as
	// "value from buffer".
	Reads []string `json:"reads"`
}

// Crossing is one value passing through shared memory inside a loop.
type Crossing struct {
	Value string `json:"value"`
	Op    string `json:"op"` // the op at which it crosses
	// How: "conversion" (converted through a shared-memory scratch),
	// "reduction" (the partial results of subgroups combined through
	// shared memory) or "buffer" (stored to one of the graph's buffers).
	How string `json:"how"`
	Why string `json:"why"`
}

// heldBy counts the lanes of a subgroup and the subgroups that hold
// each element of a layout (all elements are held alike), and lists the
// lanes holding the first element in the first subgroup holding it.
func heldBy(l *model.Layout) (lanes, subgroups int, first []int) {
	if l == nil || l.InShared() || l.Opaque() != "" {
		return 0, 0, nil
	}
	holders := l.Holders(make([]int, l.Rank()))
	if len(holders) == 0 {
		return 0, 0, nil
	}
	var subs []int
	for _, h := range holders {
		if h.Block != holders[0].Block {
			continue
		}
		if !slices.Contains(subs, h.Subgroup) {
			subs = append(subs, h.Subgroup)
		}
		if h.Subgroup == holders[0].Subgroup && !slices.Contains(first, h.Lane) {
			first = append(first, h.Lane)
		}
	}
	slices.Sort(first)
	return len(first), len(subs), first
}

// answerLoops sets the Loop answer of every loop op of the plan.
func answerLoops(g *model.Graph, p *Plan) {
	ops := map[string]*OpPlan{}
	for i := range p.Ops {
		ops[p.Ops[i].Name] = &p.Ops[i]
	}
	g.Walk(func(op *model.Op) {
		if op.Body == nil || ops[op.Name] == nil {
			return
		}
		ops[op.Name].Loop = answerLoop(op, p, ops)
	})
}

func answerLoop(loop *model.Op, p *Plan, ops map[string]*OpPlan) *LoopPlan {
	var body []*model.Op
	var walk func([]*model.Op)
	walk = func(list []*model.Op) {
		for _, op := range list {
			body = append(body, op)
			if op.Body != nil {
				walk(op.Body.Ops)
			}
		}
	}
	walk(loop.Body.Ops)
	in := map[string]bool{}
	written := map[*model.Buffer][]string{}
	for _, op := range body {
		in[op.Name] = true
		if op.WritesShared() && op.Buffer != nil {
			written[op.Buffer] = append(written[op.Buffer], op.Name)
		}
	}
	lp := &LoopPlan{Crossings: []Crossing{}, Reads: []string{}}
	convs := map[string][]ConvPlan{}
	for _, c := range p.Conv {
		// A carried value's init is converted once, before the loop; its
		// yield in every trip.
		inside := in[c.Consumer] || c.Consumer == loop.Name && strings.HasPrefix(c.Operand, "yield of ")
		if c.Kind == model.ConvShared.String() && inside {
			convs[c.Consumer] = append(convs[c.Consumer], c)
		}
	}
	add := func(c Crossing) {
		lp.Crossings = append(lp.Crossings, c)
	}
	for _, op := range append(body, loop) {
		for _, c := range convs[op.Name] {
			why := fmt.Sprintf("%s (%s) requires %s", c.Consumer, c.Operand, c.Because)
			if c.Why != "" {
				why += "; " + c.Why
			}
			add(Crossing{Value: c.Value, Op: c.Consumer, How: "conversion", Why: why})
		}
		if op == loop {
			continue
		}
		if o := ops[op.Name]; o != nil && o.Subgroups > 1 && op.Result != nil {
			add(Crossing{Value: op.Result.Name, Op: op.Name, How: "reduction",
				Why: fmt.Sprintf("each result combines %d subgroups, whose partial results meet in shared memory", o.Subgroups)})
		}
		switch {
		case op.WritesShared() && op.Buffer != nil && len(op.Operands) > 0:
			var readers []string
			for _, r := range body {
				if r.ReadsShared() && r.Buffer == op.Buffer {
					readers = append(readers, r.Name)
				}
			}
			why := fmt.Sprintf("stored to buffer %s", op.Buffer.Name)
			if len(readers) > 0 {
				why += " and read back by " + strings.Join(readers, ", ")
			}
			add(Crossing{Value: op.Operands[0].Name, Op: op.Name, How: "buffer", Why: why})
		case op.ReadsShared() && op.Buffer != nil && op.Result != nil && written[op.Buffer] == nil:
			lp.Reads = append(lp.Reads, fmt.Sprintf("%s from %s", op.Result.Name, op.Buffer.Name))
		}
	}
	lp.RegistersOnly = len(lp.Crossings) == 0
	return lp
}

// heldText words who holds a reduction's results afterwards.
func heldText(o OpPlan) string {
	s := fmt.Sprintf("afterwards each result is held by %s", lanesOf(o.HeldLanes, o.HeldSubgroups))
	if len(o.HeldFirst) > 1 {
		s += fmt.Sprintf(" (%s hold the first)", holderList(o.HeldFirst))
	}
	return s
}

// lanesOf words lanes of a subgroup in so many subgroups.
func lanesOf(lanes, subgroups int) string {
	if subgroups == 1 {
		return plural(lanes, "lane") + " of one subgroup"
	}
	return fmt.Sprintf("%s in each of %d subgroups, %d lanes in all", plural(lanes, "lane"), subgroups, lanes*subgroups)
}

// holderList writes lane ids, a run of consecutive ones as "lanes 0–3".
func holderList(ids []int) string {
	if n := len(ids); n > 2 && ids[n-1]-ids[0] == n-1 {
		return fmt.Sprintf("lanes %d–%d", ids[0], ids[n-1])
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	last := len(parts) - 1
	return "lanes " + strings.Join(parts[:last], ", ") + " and " + parts[last]
}

// loopText words a loop's answer, one line each.
func loopText(lp *LoopPlan) []string {
	var out []string
	reads := ""
	if len(lp.Reads) > 0 {
		reads = "; reads " + strings.Join(lp.Reads, ", ")
	}
	if lp.RegistersOnly {
		return []string{"each trip runs in registers only: no value computed in the loop passes through shared memory" + reads}
	}
	out = append(out, fmt.Sprintf("each trip passes %s through shared memory%s:", plural(len(lp.Crossings), "value"), reads))
	for _, c := range lp.Crossings {
		out = append(out, fmt.Sprintf("  %%%s at %s (%s): %s", c.Value, c.Op, c.How, c.Why))
	}
	return out
}
