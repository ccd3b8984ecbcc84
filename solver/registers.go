package solver

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"planner/model"
	"planner/solver/pbqp"
)

// The register budget: at every program point the values live there
// (model.Live) hold at most the target's registers per lane
// (model.Target.RegisterBudget), each counted under the layout its node
// chooses (model.RegisterWords). The budget is a sum over many
// decisions, which a PBQP cannot state; it is enforced in two parts.
// Each choice whose registers, with the fewest every other value live
// beside it can hold, already overflow the budget is forbidden under the
// registers fact (registerForbids): that alone decides most graphs and
// is what explanations see. A plan that still overflows at some point is
// cut away exactly by branching on caps (solveWithinRegisters): the
// values live at that point are each capped at one of their register
// counts, the caps summing within the budget, and each capped problem is
// solved; the cheapest plan within the budget over all branches is the
// answer, and it is proven optimal when every branch is.

// registerUse is what the budget needs of a problem; nil when no budget
// applies (the target states none, no plan can exceed it, or the
// budget's fact is relaxed).
type registerUse struct {
	budget int
	fact   *model.Fact // nil when the graph allows spilling
	// spill is set when the graph allows spilling: the budget is then a
	// price (model.SpillCost), and room, when set, caps each program
	// point at what a spill cost no higher than a bound allows
	// (solveSpilling); without room no point is capped.
	spill bool
	room  []int
	live  *model.Liveness
	// node is, per value (graph order), the node whose choice decides
	// its registers, -1 for none: its own, or for a value streamed into
	// an mma (model.StreamedUse) the mma's, whose choice decides the
	// layout and the K step it is read in; words the value's registers
	// per lane under each of that node's choices.
	node  []int
	words [][]int
	// branches counts the capped problems solved (solveWithinRegisters);
	// limited is set when it stopped at maxRegisterBranches.
	branches int
	limited  bool
}

// maxRegisterBranches bounds the capped problems solved for one plan.
var maxRegisterBranches = 256 // a variable only so that a test can reach it

// limit is the most registers per lane point k may hold: the budget, or
// under spilling its room (no limit without one).
func (ru *registerUse) limit(k int) int {
	switch {
	case !ru.spill:
		return ru.budget
	case ru.room != nil:
		return ru.room[k]
	}
	return math.MaxInt
}

// registersFact is the fact of the target's register budget.
func (p *Problem) registersFact(budget int) *model.Fact {
	t, g := p.Target, p.Graph
	text := fmt.Sprintf("%s gives each lane at most %d 32-bit registers", t.Name, t.Registers)
	if budget < t.Registers || t.Registers == 0 {
		text = fmt.Sprintf("%s gives each lane of a block of %d subgroups at most %d 32-bit registers (register_file %d over %d lanes)",
			t.Name, g.Subgroups, budget, t.RegisterFile, g.Subgroups*t.SubgroupSize)
	}
	return p.fact(model.FactRegisters, "registers", t.RegistersPos, text+`; registers = "spill" in a graph file, or solve --registers spill, lets a plan exceed it`)
}

// registerForbids sets up the register budget and forbids every choice
// that overflows it whatever the other values choose.
func (p *Problem) registerForbids() {
	g := p.Graph
	budget := p.Target.RegisterBudget(g.Subgroups)
	if budget == 0 {
		return
	}
	live := model.LiveOn(g, p.Target)
	ru := &registerUse{budget: budget, spill: g.SpillRegisters, live: live, words: make([][]int, len(live.Ranges))}
	if !ru.spill {
		ru.fact = p.registersFact(budget)
		if p.relaxed(ru.fact) {
			return
		}
	}
	edges := p.useEdges()
	least := make([]int, len(ru.words)) // the fewest registers each value can hold, whatever else holds
	most := make([]int, len(ru.words))
	for i, v := range g.Values {
		ru.node = append(ru.node, -1)
		if ru.live.Holder[i] != i {
			continue
		}
		n, ws := p.heldWords(v, edges)
		if n == nil {
			continue
		}
		ru.node[i], ru.words[i] = n.ID, ws
		least[i], most[i] = slices.Min(ws), slices.Max(ws)
	}
	for j, h := range ru.live.Holdings {
		i := len(g.Values) + j
		n, ws := p.holdingWords(h)
		ru.node = append(ru.node, -1)
		if n != nil {
			ru.node[i] = n.ID
		}
		ru.words[i] = ws
		least[i], most[i] = slices.Min(ws), slices.Max(ws)
	}
	points := len(ru.live.Points)
	leastAt, mostAt := make([]int, points+1), make([]int, points+1)
	for i, rs := range ru.live.Ranges {
		for _, r := range rs {
			leastAt[r[0]] += least[i]
			leastAt[r[1]+1] -= least[i]
			mostAt[r[0]] += most[i]
			mostAt[r[1]+1] -= most[i]
		}
	}
	for k := 1; k <= points; k++ {
		leastAt[k] += leastAt[k-1]
		mostAt[k] += mostAt[k-1]
	}
	if slices.Max(append(mostAt[:points:points], 0)) <= budget {
		return // no plan can overflow
	}
	p.regs = ru
	if ru.spill {
		return // a price, not a rule: nothing is forbidden
	}
	guard := p.guard(ru.fact)
	room := newMinTable(leastAt[:points], budget)
	for i, rs := range ru.live.Ranges {
		n := ru.node[i]
		if n < 0 || len(rs) == 0 {
			continue
		}
		slack := budget // the most v may hold above its least anywhere it lives
		for _, r := range rs {
			slack = min(slack, room.min(r[0], r[1]))
		}
		var row []int64 // the node's row is the build's shared copy: changed in a copy
		for c, w := range ru.words[i] {
			if w-least[i] > slack {
				p.facts.nodeForbid[n] = append(p.facts.nodeForbid[n], forbid{I: int32(c), Guard: guard})
				if row == nil {
					row = slices.Clone(p.PBQP.Cost[n])
				}
				row[c] = Inf
			}
		}
		if row != nil {
			p.PBQP.Cost[n] = p.memo.row(row)
		}
	}
}

// heldWords is the node whose choice decides v's registers per lane and
// those registers under each of its choices (model.HeldWords): v's own
// node and its layouts; for a value streamed into an mma's operand the
// mma's node, each choice reading it in its operand layout one K step of
// its record at a time (a choice with no record holds none). nil for a
// value with no node. edges are the problem's conversion edges by use
// (useEdges).
func (p *Problem) heldWords(v *model.Value, edges map[model.Use]*Edge) (*Node, []int) {
	if u, ok := model.StreamedUse(v); ok && u.Op.Info().Flow == model.FlowRecord {
		if n, e := p.opNode[u.Op], edges[u]; n != nil && e != nil {
			ws := make([]int, len(n.MMA))
			for c, ch := range n.MMA {
				if ch.Record != nil {
					ws[c] = model.HeldWords(v, model.RegisterWords(e.Required[c], v.DType.Bits), ch.Record.KStep())
				}
			}
			return n, ws
		}
	}
	n := p.valueNode[v]
	if n == nil {
		return nil, nil
	}
	ws := make([]int, len(n.Layouts))
	for c, l := range n.Layouts {
		ws[c] = model.HeldWords(v, model.RegisterWords(l, v.DType.Bits), 0)
	}
	return n, ws
}

// holdingWords is the node whose choice decides the registers of a
// thing the compiled code holds besides the values (model.Holding), and
// those registers under each of its choices: its value's node and
// layouts; nil and one count for a holding of fixed size (or whose
// value has no node).
func (p *Problem) holdingWords(h model.Holding) (*Node, []int) {
	if h.Value != nil {
		if n := p.valueNode[h.Value]; n != nil {
			ws := make([]int, len(n.Layouts))
			for c, l := range n.Layouts {
				ws[c] = h.Words(p.Target, l)
			}
			return n, ws
		}
	}
	return nil, []int{h.Words(p.Target, nil)}
}

// fixedWords is the registers of entry i of the liveness when no node
// decides them: a holding of fixed size's one count, else 0.
func (ru *registerUse) fixedWords(i int) int {
	if ru.node[i] < 0 && len(ru.words[i]) == 1 {
		return ru.words[i][0]
	}
	return 0
}

// useEdges are the problem's conversion edges by the use each is of.
func (p *Problem) useEdges() map[model.Use]*Edge {
	out := map[model.Use]*Edge{}
	for _, e := range p.Edges {
		if e.Kind == EdgeConversion {
			out[e.Use] = e
		}
	}
	return out
}

// minTable answers the least of budget - used[k] over a span of points
// in constant time (a sparse table: the minimum of each power-of-two
// span), so that the slack of long-lived values costs no scan.
type minTable [][]int

func newMinTable(used []int, budget int) minTable {
	row := make([]int, len(used))
	for k, u := range used {
		row[k] = budget - u
	}
	t := minTable{row}
	for w := 1; 2*w <= len(row); w *= 2 {
		prev := t[len(t)-1]
		next := make([]int, len(prev)-w)
		for k := range next {
			next[k] = min(prev[k], prev[k+w])
		}
		t = append(t, next)
	}
	return t
}

// min is the least entry from point a to point b, both included.
func (t minTable) min(a, b int) int {
	j := bits.Len(uint(b-a+1)) - 1
	return min(t[j][a], t[j][b-(1<<j)+1])
}

// RegisterRow is the register budget at one program point as a
// pseudo-Boolean constraint over choices: the sum of Excess over the
// chosen (Node, Choice) pairs is at most Room. Excess is a choice's
// registers above its value's fewest, Room the budget less the fewest
// of every value live there. A pair appears once for each value its node
// decides (an mma's node decides the values streamed into it).
type RegisterRow struct {
	Node, Choice, Excess []int
	Room                 int
}

// registerRows states the register budget exactly, one row per program
// point where some plan could overflow it; nil where no budget applies.
func (p *Problem) registerRows() []RegisterRow {
	ru := p.regs
	if ru == nil || ru.spill {
		return nil
	}
	var rows []RegisterRow
	for at := range ru.live.Points {
		row := RegisterRow{Room: ru.budget}
		most := 0
		for i, n := range ru.node {
			if !ru.live.LiveAt(i, at) {
				continue
			}
			if n < 0 {
				row.Room -= ru.fixedWords(i)
				continue
			}
			least := slices.Min(ru.words[i])
			row.Room -= least
			most += slices.Max(ru.words[i]) - least
			for c, w := range ru.words[i] {
				if w > least {
					row.Node, row.Choice, row.Excess = append(row.Node, n), append(row.Choice, c), append(row.Excess, w-least)
				}
			}
		}
		if most > row.Room {
			rows = append(rows, row)
		}
	}
	return rows
}

// registerWords is the registers per lane of every value under a choice
// of the problem (graph order).
func (p *Problem) registerWords(choice []int) []int {
	ru := p.regs
	out := make([]int, len(ru.node))
	for i, n := range ru.node {
		if n >= 0 {
			out[i] = ru.words[i][choice[n]]
		} else {
			out[i] = ru.fixedWords(i)
		}
	}
	return out
}

// overflow is the program point where a choice holds the most registers
// per lane over its limit (registerUse.limit) and its registers there;
// ok is false when it holds none too many anywhere.
func (p *Problem) overflow(choice []int) (model.RegisterPeak, bool) {
	ru := p.regs
	if ru == nil || choice == nil || (ru.spill && ru.room == nil) {
		return model.RegisterPeak{}, false
	}
	words := p.registerWords(choice)
	if !ru.spill {
		peak := ru.live.Peak(p.Graph, words)
		return peak, peak.Registers > ru.budget
	}
	worst, at := 0, -1
	for k, used := range ru.live.Usage(words) {
		if over := used - ru.limit(k); over > worst {
			worst, at = over, k
		}
	}
	if at < 0 {
		return model.RegisterPeak{}, false
	}
	return ru.live.PeakAt(p.Graph, words, at), true
}

// spillCost is the spill cost of a choice (0 unless the graph allows
// spilling and some plan can exceed the budget).
func (p *Problem) spillCost(choice []int) int64 {
	ru := p.regs
	if ru == nil || !ru.spill || choice == nil {
		return 0
	}
	return ru.live.SpillCost(p.Target, ru.budget, p.registerWords(choice)).Cost
}

// total is a choice's cost in pb with its spill cost.
func (p *Problem) total(pb *pbqp.Problem, choice []int) int64 {
	c := pb.Evaluate(choice)
	if c >= Inf {
		return c
	}
	return c + p.spillCost(choice)
}

// overRegisters reports whether a choice holds more registers per lane than
// the budget somewhere.
func (p *Problem) overRegisters(choice []int) bool {
	_, over := p.overflow(choice)
	return over
}

// overflowText says where a choice overflows the register budget, for a
// plan refused.
func (p *Problem) overflowText(choice []int) string {
	if p.regs != nil && p.regs.spill {
		return "" // spilling is priced, never refused
	}
	peak, over := p.overflow(choice)
	if !over {
		return ""
	}
	return fmt.Sprintf("its values hold %d registers per lane %s, over the budget of %d (%s: %s)",
		peak.Registers, peak.Point, p.regs.budget, p.regs.fact.Pos, p.regs.fact.Text)
}

// registersCollide says how the register budget rules plans out: where
// the values live hold more registers per lane than the budget under
// their smallest layouts, or, where the other facts of the core force
// larger ones, that those overflow it.
func (p *Problem) registersCollide(ref string, alone bool) string {
	ru := p.regs
	if ru == nil {
		return fmt.Sprintf("Every plan the other facts allow holds more registers per lane than %s allows.", ref)
	}
	least := make([]int, len(ru.node))
	for i, n := range ru.node {
		if n >= 0 {
			least[i] = slices.Min(ru.words[i])
		} else {
			least[i] = ru.fixedWords(i)
		}
	}
	peak := ru.live.Peak(p.Graph, least)
	var live []string
	for _, lv := range peak.Live {
		live = append(live, lv.String())
	}
	if peak.Registers > ru.budget {
		return fmt.Sprintf("The values live %s hold at least %d 32-bit registers per lane in any layout (%s), more than the %d %s allows.",
			peak.Point, peak.Registers, strings.Join(live, ", "), ru.budget, ref)
	}
	if alone {
		return fmt.Sprintf("The values live at one point of the program hold more than the %d registers per lane %s allows in every combination of their layouts.", ru.budget, ref)
	}
	return fmt.Sprintf("The layouts the other facts leave hold more than the %d registers per lane %s allows where their values are live together; with every value at its fewest registers the peak would be %d (%s).",
		ru.budget, ref, peak.Registers, peak.Point)
}

// solveWithinRegisters solves base with search and, while the plan it
// finds overflows the register budget, branches on caps at the point of
// the overflow (solveWithinRegisters' doc above). It gives the best
// solution within the budget and the PBQP its cost is counted in.
func (p *Problem) solveWithinRegisters(base *pbqp.Problem, search func(*pbqp.Problem) (pbqp.Solution, *pbqp.Problem)) (pbqp.Solution, *pbqp.Problem) {
	sol, pb := search(base)
	peak, over := p.overflow(sol.Choice)
	if !over || (sol.Status != StatusOptimal && sol.Status != StatusFeasible) {
		return sol, pb
	}
	best := pbqp.Solution{Status: StatusInfeasible, Cost: Inf, LowerBound: Inf, Stats: sol.Stats}
	bestPB := base
	proven := sol.Status == StatusOptimal
	branches := 0
	var branch func(b *pbqp.Problem, peak model.RegisterPeak) bool
	branch = func(b *pbqp.Problem, peak model.RegisterPeak) bool {
		for _, caps := range p.registerCaps(b, peak) {
			if branches++; branches > maxRegisterBranches {
				p.regs.limited = true
				return false
			}
			p.regs.branches++
			cb := p.capRegisters(b, caps)
			s, spb := search(cb)
			if s.Status != StatusOptimal && s.Status != StatusInfeasible {
				proven = false
			}
			if s.Status != StatusOptimal && s.Status != StatusFeasible {
				continue
			}
			if s.Cost >= best.Cost {
				continue // capping only raises a branch's cost
			}
			if pk, over := p.overflow(s.Choice); over {
				if !branch(cb, pk) {
					return false
				}
				continue
			}
			best.Choice, best.Cost, best.Stats, bestPB = s.Choice, s.Cost, s.Stats, spb
		}
		return true
	}
	if !branch(base, peak) {
		proven = false
	}
	return settled(best, proven, sol.LowerBound), bestPB
}

// settled gives the best plan a branch and bound found its status: proven
// when every branch was searched to the end, with bound the lower bound of
// the unrestricted search (which holds for every branch).
func settled(best pbqp.Solution, proven bool, bound int64) pbqp.Solution {
	switch {
	case best.Choice == nil && proven:
		best.Status = StatusInfeasible
	case best.Choice == nil:
		best.Status, best.LowerBound = StatusUnknown, bound
	case proven:
		best.Status, best.LowerBound = StatusOptimal, best.Cost
	default:
		best.Status, best.LowerBound = StatusFeasible, min(bound, best.Cost)
	}
	return best
}

// regCap caps a node's choices at those where a value holds at most
// some registers per lane.
type regCap struct{ node, value, words int }

// registerCaps lists the ways to keep the values live at the peak's
// point within the budget: for each value whose choices (live in b) hold
// different numbers of registers, one count to cap it at, the counts
// summing within the budget with every other value at its fewest. Only
// maximal sets of caps are listed (a lower cap leaves fewer plans).
func (p *Problem) registerCaps(b *pbqp.Problem, peak model.RegisterPeak) [][]regCap {
	ru := p.regs
	at := -1
	for k, pt := range ru.live.Points {
		if pt == peak.Point {
			at = k
			break
		}
	}
	type level struct {
		node, value int
		counts      []int // distinct counts of the value's registers over its node's live choices, ascending
	}
	var levels []level
	fixed := 0
	for i, n := range ru.node {
		if !ru.live.LiveAt(i, at) {
			continue
		}
		if n < 0 {
			fixed += ru.fixedWords(i)
			continue
		}
		var counts []int
		for c, w := range ru.words[i] {
			if b.Cost[n][c] < Inf && !slices.Contains(counts, w) {
				counts = append(counts, w)
			}
		}
		slices.Sort(counts)
		if len(counts) == 0 {
			continue
		}
		fixed += counts[0]
		if len(counts) > 1 {
			levels = append(levels, level{n, i, counts})
		}
	}
	limit := ru.limit(at)
	if fixed > limit {
		return nil // not even the fewest registers fit
	}
	var out [][]regCap
	var pick func(k, used int, caps []regCap)
	pick = func(k, used int, caps []regCap) {
		if k == len(levels) {
			// Maximal: no cap can rise a level and stay within the budget.
			for j, c := range caps {
				lv := levels[j]
				if i := slices.Index(lv.counts, c.words); i+1 < len(lv.counts) && used-c.words+lv.counts[i+1] <= limit {
					return
				}
			}
			out = append(out, slices.Clone(caps))
			return
		}
		lv := levels[k]
		for _, w := range lv.counts {
			if used+w-lv.counts[0] > limit {
				break
			}
			pick(k+1, used+w-lv.counts[0], append(caps, regCap{lv.node, lv.value, w}))
		}
	}
	pick(0, fixed, nil)
	return out
}

// capRegisters is b with every choice over its node's cap forbidden.
func (p *Problem) capRegisters(b *pbqp.Problem, caps []regCap) *pbqp.Problem {
	cb := &pbqp.Problem{Cost: slices.Clone(b.Cost), Edges: b.Edges}
	for _, c := range caps {
		row := slices.Clone(cb.Cost[c.node])
		for k, w := range p.regs.words[c.value] {
			if w > c.words {
				row[k] = Inf
			}
		}
		cb.Cost[c.node] = row
	}
	return cb
}

// solveSpilling finds the plan of least cost plus spill cost
// (model.SpillCost) when the graph allows spilling. A plan's spill cost
// is its dearest point's, so the plans whose spill cost is at most E are
// those holding at each point no more than the budget plus E over that
// point's price per register: a cap per point, kept exactly by
// solveWithinRegisters. The search starts with no cap; while its plan
// spills at a cost s, the plans left to beat spill at less, so the next
// search caps at s-1. It stops when a plan spills nothing, when no plan
// fits the caps, or when the capped optimum alone costs at least the best
// total found (every plan left costs at least that much). The answer is
// proven when every search was.
func (p *Problem) solveSpilling(base *pbqp.Problem, search func(*pbqp.Problem) (pbqp.Solution, *pbqp.Problem)) (pbqp.Solution, *pbqp.Problem) {
	ru := p.regs
	if ru == nil || !ru.spill {
		return p.solveWithinRegisters(base, search)
	}
	defer func() { ru.room = nil }() // the caps hold only while it runs
	sol, pb := search(base)
	if sol.Status != StatusOptimal && sol.Status != StatusFeasible {
		return sol, pb
	}
	price := make([]int64, len(ru.live.Points))
	for k, pt := range ru.live.Points {
		price[k] = model.SpillPrice(p.Target, model.PointTrips(pt))
	}
	spill := p.spillCost(sol.Choice)
	best, bestPB := sol, pb
	best.Cost += spill
	proven := sol.Status == StatusOptimal
	bound := sol.LowerBound // no plan costs less, spill or not
	for spill > 0 {
		ru.room = make([]int, len(price))
		for k := range ru.room {
			ru.room[k] = ru.budget + int(min((spill-1)/price[k], int64(math.MaxInt32)))
		}
		s, spb := p.solveWithinRegisters(base, search)
		if s.Status != StatusOptimal && s.Status != StatusInfeasible {
			proven = false
		}
		if s.Status != StatusOptimal && s.Status != StatusFeasible {
			break
		}
		if s.Cost >= best.Cost {
			break // every plan left costs at least s.Cost before its spill
		}
		spill = p.spillCost(s.Choice)
		if s.Cost+spill < best.Cost {
			best.Choice, best.Cost, best.Stats, bestPB = s.Choice, s.Cost+spill, s.Stats, spb
		}
	}
	switch {
	case proven:
		best.Status, best.LowerBound = StatusOptimal, best.Cost
	default:
		best.Status, best.LowerBound = StatusFeasible, min(bound, best.Cost)
	}
	return best, bestPB
}
