package solver

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"planner/model"
	"planner/solver/pbqp"
)

// The greedy baseline chooses layouts the way today's compilers do, over
// the same problem the search solves, so that its plan is priced by the
// same cost model and written and verified by the same code. It follows
// the survey in /work/shared/research/anchors.md:
//
//  1. Anchors (section 1.2, Triton RemoveLayoutConversions.cpp
//     isLayoutAnchor; section 5.1, IREE LLVMGPUConfigureTensorLayouts.cpp):
//     pinned values take their pin; every mma takes the cheapest
//     arrangement of its records on its own (Triton's AccelerateMatmul and
//     IREE's intrinsic choice look at the op alone); a global load and a
//     store take the cheapest of the coalesced layouts, vectors along the
//     contiguous dimension (Triton's Coalesce pass).
//  2. Forward propagation (section 1.2 step 1; section 5.1 phase 1): each
//     anchor's layout flows to its users through the ops' transfer rules
//     (a choice of the user that takes the layout without a conversion),
//     to a fixpoint; a value may collect several candidates.
//  3. Conflict resolution, first wins (section 5.1, IREE
//     VectorLayoutAnalysis.cpp "resolve" picks the first candidate;
//     section 5.2, XeGPU's lattice keeps the first layout assigned): in
//     program order each value takes the first candidate that arrived,
//     among those its producing op can make.
//  4. Backward propagation (section 5.1 phase 2; section 5.2, XeGPU's
//     backward analysis): a value no anchor reached takes the layout its
//     consumers want, the last consumer in program order first.
//  5. A conversion wherever two propagated layouts meet (section 1.2 step
//     3).
//  6. Backward rematerialisation (section 1.2 step 4, Triton
//     RemoveLayoutConversions.cpp backwardRematerialization,
//     getRematerializableSlice, isRematBeneficial, getConvertCost): for
//     each remaining conversion, the producer slice is recomputed in the
//     consumer's layout when it can be (it stops at values already in
//     that layout, and fails at anchors: mma results, pinned values,
//     global loads, loop-carried values) and when the conversion costs at
//     least what recomputing the ops used outside the slice costs, in
//     Triton's own units. A plan holds one layout per value, so a slice
//     with uses outside it cannot be duplicated as Triton does: it moves
//     only when that does not raise the plan's cost.
//  7. Hoisting above a broadcast or widening cast (section 1.2 step 5,
//     RemoveLayoutConversions.cpp hoistConvertOnTopOfExtOrBroadcast):
//     a conversion whose slice cannot be recomputed is moved above the
//     one broadcast or widening cast in its slice, converting the
//     smaller operand, when Triton's inequality holds with the new
//     conversion's cost; conversions to mma operands are left alone, as
//     Triton leaves them to hoistConvertDotOperand.
//
// Shared-memory placements are then chosen one buffer at a time for the
// layouts fixed above, the cheapest for their accesses (Triton chooses a
// shared encoding for its consumer, section 1.4). Where the plan still
// breaks a rule (a conversion at an anchor whose scratch does not fit in
// shared memory, a use that allows no conversion), a compiler stops with
// an error; the baseline instead moves the choices at that spot to the
// cheapest their neighbours allow, consumer first, and counts the moves,
// so that the comparison has a plan. Not modelled: Triton's hoisting of
// conversions into scf.if branches, and of mma operand conversions next
// to their loads for pipelining.

// BackendGreedy names the greedy baseline as a --solver backend.
const BackendGreedy = "greedy"

// GreedyResult is the greedy baseline's plan: a choice per node, its cost
// under the problem's cost model, and, when that cost is Inf, why.
type GreedyResult struct {
	Choice     []int
	Cost       int64
	Assignment *model.Assignment // nil when it found no plan
	NoPlan     string            // why it found no plan
	Remats     int               // conversions removed by rematerialisation
	Hoists     int               // conversions moved above a broadcast or widening cast
	Repairs    int               // choices moved because the plan broke a rule there
	Duration   time.Duration
	Candidates int           // the problem's candidate layouts over all values
	pb         *pbqp.Problem // the PBQP its cost is counted in (capped by its scratch)
}

// greedy is the baseline's state while it chooses: a choice per node (or
// -1), which nodes are anchors, and the edges around each node.
type greedy struct {
	p        *Problem
	choice   []int // -1: not chosen yet
	anchor   []bool
	order    []int   // nodes in program order
	in, out  [][]int // conversion and link edges into and out of each node
	incident [][]int // every edge of each node
}

// runGreedy is Greedy's work.
func (p *Problem) runGreedy() *GreedyResult {
	start := time.Now()
	g := &greedy{p: p, choice: make([]int, len(p.Nodes)), anchor: make([]bool, len(p.Nodes)),
		in: make([][]int, len(p.Nodes)), out: make([][]int, len(p.Nodes)), incident: make([][]int, len(p.Nodes))}
	for i := range g.choice {
		g.choice[i] = -1
	}
	for k, e := range p.Edges {
		g.incident[e.From] = append(g.incident[e.From], k)
		g.incident[e.To] = append(g.incident[e.To], k)
		if e.Kind != EdgeAccess && e.Kind != EdgeDescriptor {
			g.out[e.From] = append(g.out[e.From], k)
			g.in[e.To] = append(g.in[e.To], k)
		}
	}
	g.order = p.programOrder()
	g.anchors()
	for round := 0; round < len(p.Nodes)+1; round++ {
		changed := g.forward()
		if g.backward() {
			changed = true
		}
		if !changed {
			break
		}
	}
	g.leftovers()
	res := &GreedyResult{Remats: g.rematerialise(false)}
	res.Hoists = g.rematerialise(true)
	g.placeBuffers()
	if res.Repairs = g.repair(); res.Repairs > 0 {
		g.placeBuffers()
	}
	res.Choice = g.choice
	res.Cost, res.pb, res.NoPlan = p.greedyCost(g.choice)
	if most, _ := p.ConversionBound(); res.Cost < Inf && p.OverConversions(g.choice) {
		// Propagation does not count its conversions: its plan breaks
		// the graph's bound.
		res.Cost, res.NoPlan = Inf, fmt.Sprintf("its plan converts %s, more than the %d that %s allows", times(p.Conversions(g.choice)), most, p.Graph.MaxConversionsFrom)
	}
	if res.Cost < Inf {
		res.Assignment = p.Assignment(res.Choice)
	}
	res.Duration = time.Since(start)
	res.Candidates = p.CandidateCount()
	return res
}

// GreedyAnswer is the answer of a solve whose search a limit (named by
// limit, of kind by: "time" or "memory") cut short before it answered:
// greedy's plan, feasible, not proven, with lower bound the bound proved
// before the search. It reads nothing of the problem that the abandoned
// search may still be changing.
func (p *Problem) GreedyAnswer(gr *GreedyResult, bound int64, limit, by string) *Result {
	return &Result{Problem: p, Status: StatusFeasible, Assignment: gr.Assignment, Cost: gr.Cost, LowerBound: min(bound, gr.Cost),
		Choice: gr.Choice, Candidates: gr.Candidates, Stopped: limit, StoppedBy: by,
		Stats: PStats{Nodes: len(p.Nodes), Edges: len(p.Edges), Duration: gr.Duration}}
}

// programOrder lists the nodes in the order the graph defines them: an
// op's own decision, then its result; a loop's carried values, its body,
// then its results; the buffer placements last.
func (p *Problem) programOrder() []int {
	seen := make([]bool, len(p.Nodes))
	var order []int
	add := func(n *Node) {
		if n != nil && !seen[n.ID] {
			seen[n.ID] = true
			order = append(order, n.ID)
		}
	}
	var walk func(ops []*model.Op)
	walk = func(ops []*model.Op) {
		for _, op := range ops {
			if lp := op.Body; lp != nil {
				for _, a := range lp.Args {
					add(p.ValueNode(a))
				}
				walk(lp.Ops)
				for _, r := range lp.Results {
					add(p.ValueNode(r))
				}
				continue
			}
			add(p.OpNode(op))
			if op.Result != nil {
				add(p.ValueNode(op.Result))
			}
		}
	}
	walk(p.Graph.Ops)
	for _, n := range p.Nodes {
		add(n)
	}
	return order
}

// match reports whether edge k passes choice i of its source to choice j
// of its target as it is: a use with no conversion, or a link the op
// allows.
func (g *greedy) match(k, i, j int) bool {
	m := g.p.PBQP.Edges[k].M[i][j]
	if g.p.Edges[k].Kind == EdgeLink {
		return m < Inf
	}
	return m == 0 && !g.p.Converts(k, i, j) && !g.p.LoadedForDescriptor(k, i, j)
}

// linksAllow reports whether choice i of node n agrees with the links to
// and from the nodes already chosen: an op's result is what the op makes.
func (g *greedy) linksAllow(n, i int) bool {
	for _, k := range g.in[n] {
		e := g.p.Edges[k]
		if e.Kind == EdgeLink && g.choice[e.From] >= 0 && g.p.PBQP.Edges[k].M[g.choice[e.From]][i] >= Inf {
			return false
		}
	}
	for _, k := range g.out[n] {
		e := g.p.Edges[k]
		if e.Kind == EdgeLink && g.choice[e.To] >= 0 && g.p.PBQP.Edges[k].M[i][g.choice[e.To]] >= Inf {
			return false
		}
	}
	return true
}

// pick is the first of the candidates that node n can take (its own cost
// finite, its links kept), or -1.
func (g *greedy) pick(n int, cands []int) int {
	for _, i := range cands {
		if g.p.PBQP.Cost[n][i] < Inf && g.linksAllow(n, i) {
			return i
		}
	}
	return -1
}

// cheapest is the choice of n, among those allowed, with the least cost
// of its own and its edges to nodes already chosen, the first on ties;
// the cheapest of all choices when none allowed is possible; 0 when none
// is.
func (g *greedy) cheapest(n int, allowed func(i int) bool) int {
	best, bestCost := -1, Inf
	for pass := 0; pass < 2 && best < 0; pass++ {
		for i := range g.p.PBQP.Cost[n] {
			if pass == 0 && allowed != nil && !allowed(i) {
				continue
			}
			c := g.p.PBQP.Cost[n][i]
			for _, k := range g.incident[n] {
				e := g.p.PBQP.Edges[k]
				switch {
				case e.A == n && g.choice[e.B] >= 0:
					c = pbqp.AddSat(c, e.M[i][g.choice[e.B]])
				case e.B == n && g.choice[e.A] >= 0:
					c = pbqp.AddSat(c, e.M[g.choice[e.A]][i])
				}
			}
			if c < bestCost {
				best, bestCost = i, c
			}
		}
	}
	return max(best, 0)
}

// anchors fixes the anchors: pins, mma arrangements, coalesced loads and
// stores.
func (g *greedy) anchors() {
	p := g.p
	lanes, warps := p.Target.SubgroupSize, p.Graph.Subgroups
	coalesced := func(n *Node, v *model.Value, contiguous int) func(int) bool {
		vl := vectorLayouts(v.Shape, contiguous, v.DType.Bits, lanes, warps)
		return func(i int) bool {
			return slices.ContainsFunc(vl, func(l *model.Layout) bool { return l.Equal(n.Layouts[i]) })
		}
	}
	// An anchor looks at its own op alone: the cheapest choice it allows
	// by its own cost, the first on ties.
	fix := func(n int, allowed func(int) bool) {
		best, bestCost := -1, Inf
		for pass := 0; pass < 2 && best < 0; pass++ {
			for i, c := range p.PBQP.Cost[n] {
				if (pass > 0 || allowed == nil || allowed(i)) && c < bestCost {
					best, bestCost = i, c
				}
			}
		}
		g.choice[n] = max(best, 0)
		g.anchor[n] = true
	}
	for _, id := range g.order {
		n := p.Nodes[id]
		if n.Kind == NodeValue && n.Value.Pin != nil {
			fix(id, nil)
		}
	}
	desc := p.DescriptorEdges()
	for _, id := range g.order {
		n := p.Nodes[id]
		switch {
		case g.anchor[id]:
		case n.Kind == NodeMMA:
			fix(id, func(i int) bool {
				return n.MMA[i].Record != nil && g.linksAllow(id, i) && p.DescriptorReadable(desc[id], i)
			})
		case n.Kind == NodeValue && n.Value.Def != nil && n.Value.Def.Info().Memory == model.MemoryGlobal:
			fix(id, coalesced(n, n.Value, n.Value.Def.Contiguous))
		case n.Kind == NodeExec && n.Op.Info().Memory == model.MemoryGlobal:
			fix(id, coalesced(n, n.Op.Operands[0], n.Op.Contiguous))
		}
	}
}

// forward propagates the chosen layouts to the users that have none,
// collects every candidate that reaches them, and resolves each in program
// order to the first candidate it can take.
func (g *greedy) forward() bool {
	p := g.p
	cands := make([][]int, len(p.Nodes))
	var queue []int
	queued := make([]bool, len(p.Nodes))
	for _, id := range g.order {
		if g.choice[id] >= 0 {
			cands[id] = []int{g.choice[id]}
			queue = append(queue, id)
			queued[id] = true
		}
	}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		queued[a] = false
		for _, k := range g.out[a] {
			b := p.Edges[k].To
			if g.choice[b] >= 0 {
				continue
			}
			grew := false
			for _, i := range cands[a] {
				for j := range p.PBQP.Cost[b] {
					if !slices.Contains(cands[b], j) && g.match(k, i, j) {
						cands[b] = append(cands[b], j)
						grew = true
					}
				}
			}
			if grew && !queued[b] {
				queue = append(queue, b)
				queued[b] = true
			}
		}
	}
	changed := false
	for _, id := range g.order {
		if g.choice[id] >= 0 || len(cands[id]) == 0 {
			continue
		}
		if i := g.pick(id, cands[id]); i >= 0 {
			g.choice[id] = i
		} else {
			// None it can take: its op decides (an op's result is
			// what the op makes).
			g.choice[id] = g.cheapest(id, func(i int) bool { return g.linksAllow(id, i) })
		}
		changed = true
	}
	return changed
}

// backward gives a node no anchor reached the layout its consumers want,
// walking the program backwards; the first consumer seen (the last in
// program order) wins.
func (g *greedy) backward() bool {
	p := g.p
	changed := false
	for o := len(g.order) - 1; o >= 0; o-- {
		id := g.order[o]
		if g.choice[id] >= 0 {
			continue
		}
		var cands []int
		for x := len(g.out[id]) - 1; x >= 0; x-- {
			k := g.out[id][x]
			to := p.Edges[k].To
			if g.choice[to] < 0 {
				continue
			}
			for i := range p.PBQP.Cost[id] {
				if !slices.Contains(cands, i) && g.match(k, i, g.choice[to]) {
					cands = append(cands, i)
				}
			}
		}
		if i := g.pick(id, cands); i >= 0 {
			g.choice[id] = i
			changed = true
		}
	}
	return changed
}

// leftovers chooses what propagation left open (buffer placements, values
// nothing constrains) as the cheapest given what is chosen.
func (g *greedy) leftovers() {
	for _, id := range g.order {
		if g.choice[id] < 0 {
			g.choice[id] = g.cheapest(id, nil)
		}
	}
}

// placeBuffers rechooses each buffer placement for the final layouts.
func (g *greedy) placeBuffers() {
	for _, n := range g.p.BufferNodes() {
		g.choice[n.ID] = -1
	}
	for _, n := range g.p.BufferNodes() {
		g.choice[n.ID] = g.cheapest(n.ID, nil)
	}
}

// repair moves the choices where the plan is forbidden to the cheapest
// their neighbours allow: a node whose own choice is forbidden, and the
// consumer (then the producer) of a forbidden pair. Pins stay. It returns
// how many choices it moved.
func (g *greedy) repair() int {
	p := g.p
	moved := 0
	redo := func(n int) bool {
		if p.Nodes[n].Kind == NodeValue && p.Nodes[n].Value.Pin != nil {
			return false
		}
		old := g.choice[n]
		g.choice[n] = -1
		g.choice[n] = g.cheapest(n, nil)
		if g.choice[n] != old {
			moved++
		}
		return true
	}
	for pass := 0; pass < 4; pass++ {
		bad := false
		for _, n := range g.order {
			if p.PBQP.Cost[n][g.choice[n]] >= Inf {
				bad = redo(n) || bad
			}
		}
		for _, e := range p.PBQP.Edges {
			if e.M[g.choice[e.A]][g.choice[e.B]] >= Inf {
				bad = redo(e.B) || bad
				if e.M[g.choice[e.A]][g.choice[e.B]] >= Inf {
					bad = redo(e.A) || bad
				}
			}
		}
		if !bad {
			break
		}
	}
	return moved
}

// local is the cost of the nodes in moves, and of their edges, with the
// moves applied or not.
func (g *greedy) local(moves map[int]int, apply bool) int64 {
	at := func(n int) int {
		if c, ok := moves[n]; ok && apply {
			return c
		}
		return g.choice[n]
	}
	var c int64
	seen := map[int]bool{}
	for n := range moves {
		c = pbqp.AddSat(c, g.p.PBQP.Cost[n][at(n)])
		for _, k := range g.incident[n] {
			if !seen[k] {
				seen[k] = true
				e := g.p.PBQP.Edges[k]
				c = pbqp.AddSat(c, e.M[at(e.A)][at(e.B)])
			}
		}
	}
	return c
}

// rematerialise removes conversions by recomputing their producers in the
// consumer's layout, as Triton's backward rematerialisation does, until
// none is removed; with hoist, as Triton's
// hoistConvertOnTopOfExtOrBroadcast does, the slice may end at one
// broadcast or widening cast whose operand is converted instead, a smaller
// tensor. It returns how many conversions it removed or moved.
func (g *greedy) rematerialise(hoist bool) int {
	p := g.p
	removed := 0
	for pass := 0; pass < 8; pass++ {
		changed := false
		for k, e := range p.Edges {
			if e.Kind != EdgeConversion || !p.Converts(k, g.choice[e.From], g.choice[e.To]) {
				continue
			}
			if hoist && p.Nodes[e.To].Kind == NodeMMA && e.Use.Index < 2 {
				continue // Triton leaves conversions to mma operands to hoistConvertDotOperand
			}
			t := -1
			for i := range p.PBQP.Cost[e.From] {
				if g.match(k, i, g.choice[e.To]) {
					t = i
					break
				}
			}
			moves := map[int]int{}
			var cut []int
			cuts := (*[]int)(nil)
			if hoist {
				cuts = &cut
			}
			if t < 0 || !g.slice(e.From, t, moves, cuts) || (hoist && len(cut) != 1) {
				continue // Triton hoists above a single ext or broadcast only
			}
			if g.local(moves, true) >= Inf {
				continue // the recomputed slice breaks a rule: no valid rewrite
			}
			var newConvert int64
			if hoist {
				c := p.Edges[cut[0]]
				newConvert = g.tritonConvertCost(c.Value, p.Nodes[c.From].Layouts[g.choice[c.From]], c.Required[moves[c.To]])
			}
			outside := g.usedOutside(moves, k)
			if !g.rematBeneficial(k, moves, outside, newConvert) {
				continue
			}
			if len(outside) > 0 && g.local(moves, true) > g.local(moves, false) {
				continue
			}
			for n, c := range moves {
				g.choice[n] = c
			}
			removed++
			changed = true
		}
		if !changed {
			break
		}
	}
	return removed
}

// slice adds to moves the nodes whose choices change when node n is
// recomputed in choice t, and reports whether the slice can be
// recomputed: it stops where a producer is already in the layout needed
// and fails at anchors and loop-carried values. With cut, a broadcast or
// widening cast whose operand cannot follow keeps it, and the operand's
// edge is added to cut: that use converts instead.
func (g *greedy) slice(n, t int, moves map[int]int, cut *[]int) bool {
	if c, ok := moves[n]; ok {
		return c == t
	}
	if g.choice[n] == t {
		return true
	}
	node := g.p.Nodes[n]
	if g.anchor[n] || node.Kind == NodeMMA || node.Kind == NodeBuffers {
		return false
	}
	v := node.Value
	if v != nil && (v.Arg != nil || (v.Def != nil && v.Def.Info().Flow == model.FlowCarry)) {
		return false // a block argument or loop result: Triton's slice stops there
	}
	widens := v != nil && v.Def != nil && v.Def.Info().Widens != nil && v.Def.Info().Widens(v.Def)
	moves[n] = t
	for _, k := range g.in[n] {
		from := g.p.Edges[k].From
		cur := g.choice[from]
		if c, ok := moves[from]; ok {
			cur = c
		}
		if g.match(k, cur, t) {
			continue
		}
		want := -1
		for i := range g.p.PBQP.Cost[from] {
			if g.match(k, i, t) {
				want = i
				break
			}
		}
		var before map[int]int
		if cut != nil && widens {
			before = maps.Clone(moves)
		}
		if want >= 0 && g.slice(from, want, moves, cut) {
			continue
		}
		if before == nil || g.p.Edges[k].Kind != EdgeConversion {
			return false
		}
		clear(moves)
		maps.Copy(moves, before)
		*cut = append(*cut, k)
	}
	return true
}

// usedOutside lists the moved nodes with uses outside the slice (other
// than the conversion k being removed).
func (g *greedy) usedOutside(moves map[int]int, k int) []int {
	var out []int
	for n := range moves {
		for _, x := range g.out[n] {
			if _, in := moves[g.p.Edges[x].To]; !in && x != k {
				out = append(out, n)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// rematBeneficial is Triton's inequality (anchors.md section 1.2,
// RemoveLayoutConversions.cpp isRematBeneficial and getConvertCost): the
// conversion's cost, 32 per byte of the tensor counted at no fewer than
// 32 elements of 32 bits (0 for a register reordering), is at least the
// cost of duplicating the slice's ops whose results are used outside it
// and of their operands in the slice: constants free, shared-memory loads
// 8 per byte, element-wise math 1 per byte (8 for transcendentals) times
// the growth in elements per lane, reductions the data combined within a
// subgroup plus 8 times the data exchanged across subgroups.
func (g *greedy) rematBeneficial(k int, moves map[int]int, outside []int, newConvert int64) bool {
	p := g.p
	e := p.Edges[k]
	convert := g.tritonConvertCost(e.Value, p.Nodes[e.From].Layouts[g.choice[e.From]], e.Required[g.choice[e.To]])
	// The values that survive outside the slice, and their operands in it.
	dup := map[int]bool{}
	work := slices.Clone(outside)
	for len(work) > 0 {
		n := work[0]
		work = work[1:]
		if dup[n] {
			continue
		}
		dup[n] = true
		for _, x := range g.in[n] {
			if _, in := moves[p.Edges[x].From]; in {
				work = append(work, p.Edges[x].From)
			}
		}
	}
	remat := newConvert
	for n := range dup {
		node := p.Nodes[n]
		v := node.Value
		if v == nil || v.Def == nil {
			continue
		}
		op := v.Def
		switch op.Info().Remat {
		case model.RematLoad:
			remat += 8 * tritonBytes(v, 0, 0)
		case model.RematCompute:
			mul := int64(1)
			if op.Func().SFU {
				mul = 8
			}
			oldL, newL := node.Layouts[g.choice[n]], node.Layouts[moves[n]]
			factor := max(int64(1), int64(newL.Size(model.Register)/max(oldL.Size(model.Register), 1)))
			remat += mul * tritonBytes(v, 0, 0) * factor
		case model.RematCombine:
			ex := p.OpNode(op)
			l := ex.Layouts[moves[ex.ID]]
			remat += tritonBytes(op.Operands[0], 0, 0) + 8*int64(reduceScratch(l, op.Axis, op.Operands[0].DType.Bits))
		}
	}
	return convert >= remat
}

// tritonBytes is a tensor's size in bytes, counted at no fewer than
// minElems elements of minBits bits (RemoveLayoutConversions.cpp
// getByteCount).
func tritonBytes(v *model.Value, minElems, minBits int) int64 {
	return int64(max(v.Elements(), minElems)) * int64(max(v.DType.Bits, minBits)) / 8
}

// tritonConvertCost is Triton's price of converting v between two layouts
// (RemoveLayoutConversions.cpp getConvertCost): 0 when it only reorders
// registers, else 32 per byte of the tensor counted at no fewer than 32
// elements of 32 bits (a shared-memory round trip, synchronised).
func (g *greedy) tritonConvertCost(v *model.Value, from, to *model.Layout) int64 {
	if c := g.p.PricedConversion(from, to, v.DType.Bits); c != nil && c.Kind <= model.ConvRegister {
		return 0
	}
	return 32 * tritonBytes(v, 32, 32)
}

// greedyCost is the cost of a full choice, the PBQP it is counted in (with
// the scratch the choice needs when buffers and scratch share the budget),
// and why it is Inf when it is.
func (p *Problem) greedyCost(choice []int) (int64, *pbqp.Problem, string) {
	pb := p.PBQP
	peak := 0
	if p.BuffersCombined() && p.HasScratch() {
		peak = p.PeakScratch(choice)
		pb = p.Capped(peak)
	}
	c := pb.Evaluate(choice)
	if c < Inf {
		if why := p.OverflowText(choice); why != "" {
			return Inf, pb, why
		}
		return c + p.SpillCost(choice), pb, ""
	}
	return c, pb, p.whyForbidden(pb, choice, peak)
}

// whyForbidden names the first forbidden part of a choice and the facts
// that forbid it.
func (p *Problem) whyForbidden(pb *pbqp.Problem, choice []int, peak int) string {
	facts := p.Facts()
	because := func(fs []Forbid, i, j int, edge bool) string {
		for _, f := range fs {
			if f.Choice == i && (!edge || f.Other == j) && p.InForce(f.Facts) {
				var parts []string
				for _, id := range f.Facts {
					fact := facts[id]
					parts = append(parts, fmt.Sprintf("%s (%s: %s)", fact.Name, fact.Pos, fact.Text))
				}
				return joinNames(parts)
			}
		}
		return ""
	}
	for n, i := range choice {
		if p.PBQP.Cost[n][i] >= Inf {
			return fmt.Sprintf("its choice for %s breaks %s", p.Nodes[n].Name(), because(p.NodeForbids(n), i, 0, false))
		}
	}
	for k, e := range p.PBQP.Edges {
		if e.M[choice[e.A]][choice[e.B]] >= Inf {
			a, b := p.Nodes[e.A].Name(), p.Nodes[e.B].Name()
			return fmt.Sprintf("its choices for %s and %s break %s", a, b, because(p.EdgeForbids(k), choice[e.A], choice[e.B], true))
		}
	}
	for _, n := range p.BufferNodes() {
		if pb.Cost[n.ID][choice[n.ID]] >= Inf {
			return fmt.Sprintf("its buffers take %d bytes and its conversions %d bytes of scratch, over the budget of %d bytes", n.Bytes[choice[n.ID]], peak, p.Budget)
		}
	}
	return "its plan is forbidden"
}

// solveGreedy answers a solve with the greedy baseline's plan: feasible,
// never proven, with no lower bound above 0.
func (p *Problem) solveGreedy(res *Result) *Result {
	gr := p.Greedy()
	res.Baseline, res.NoPlan = BackendGreedy, gr.NoPlan
	res.Stats = PStats{Nodes: len(p.Nodes), Edges: len(p.Edges), Duration: gr.Duration}
	for _, c := range p.PBQP.Cost {
		res.Stats.Choices += len(c)
	}
	res.Cost = gr.Cost
	if gr.Cost >= Inf {
		res.Status = StatusUnknown
		return res
	}
	res.Status, res.Choice, res.Assignment = StatusFeasible, gr.Choice, gr.Assignment
	return res
}

// notWorseThanGreedy keeps a search the time limit cut short from
// answering worse than the greedy baseline: when its plan costs more than
// greedy's, or it has none, greedy's plan is the answer, still not
// proven, with the search's lower bound. pb is the PBQP the search's cost
// is counted in; the one the answer's cost is counted in comes back.
func (p *Problem) notWorseThanGreedy(sol pbqp.Solution, pb *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) {
	if sol.Status != StatusFeasible && sol.Status != StatusUnknown {
		return sol, pb
	}
	if gr := p.Greedy(); gr.Cost < sol.Cost {
		sol.Choice, sol.Cost, sol.Status, pb = gr.Choice, gr.Cost, StatusFeasible, gr.pb
	}
	return sol, pb
}
