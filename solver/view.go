package solver

import (
	"slices"
	"time"

	"planner/model"
	"planner/solver/pbqp"
)

// The view: what a backend outside this package (solver/smt), and the
// greedy baseline and the explanations inside it (greedy.go, explain.go;
// TestGreedyAndExplainReadTheView checks they read nothing else), read
// of a built problem, as exported, read-only accessors. Beside the exported fields (Graph,
// Target, Budget, Nodes, Edges, PBQP, which a reader must not change) and
// Facts, it gives
//
//   - provenance: NodeForbids and EdgeForbids, each forbidden choice or
//     pair with the facts that together forbid it;
//   - the decisions: ValueNode and OpNode (a value's or an op's), and
//     InForce (whether a Forbid's facts are all in force);
//   - the budgets no cost matrix holds: RegisterBudget (the register
//     budget as pseudo-Boolean rows), HasConversionBound and
//     ConversionBound, HasScratch, BuffersCombined, PeakScratch,
//     ScratchCaps and Capped (the shared-memory scratch);
//   - the conversions: PricedConversion (as the build priced it),
//     Converts and LoadedForDescriptor (what a pair of an edge does),
//     DescriptorEdges and DescriptorReadable (an mma's descriptor reads);
//   - the register budget of a choice: SpillCost, OverflowText,
//     RegisterFact and RegisterCut, and SolveUnderRegisters (a solve
//     that keeps the budget);
//   - the explanations' words: Collision (how a core's facts collide)
//     and ConversionBoundCore (the core where the bound on conversions
//     is in the way);
//   - the buffers: BufferNodes, BufferDecision, Accessed, PlacementStated,
//     LoadRecords, NamedLoad, Admits, AccessCost, RejectedLoads, and
//     Placements and RecordTile;
//   - the baseline: Greedy, run once and kept by the problem;
//   - the solve: Deadline and Done (the solve's limits), Finish and
//     CandidateCount (a result read from a solution), MinimalCore (an
//     explanation's core from a conflict check).
//
// The build's caches (layouts, accesses, records' rules) stay inside the
// package: none of these hands one out.

// Forbid is one forbidden entry of the problem and the facts (IDs into
// Facts) that together forbid it: choice Choice of a node (Other unused),
// or the pair (Choice, Other) of an edge, Choice at the edge's first end.
// The PBQP holds Inf there while every one of Facts is in force.
type Forbid struct {
	Choice, Other int
	Facts         []int // read only
}

// NodeForbids lists the forbidden choices of node n with their facts.
func (p *Problem) NodeForbids(n int) []Forbid {
	fs := p.facts.nodeForbid[n]
	out := make([]Forbid, len(fs))
	for i, f := range fs {
		out[i] = Forbid{Choice: int(f.I), Facts: p.facts.guards[f.Guard]}
	}
	return out
}

// EdgeForbids lists the forbidden pairs of PBQP edge k (the same index in
// Edges) with their facts.
func (p *Problem) EdgeForbids(k int) []Forbid {
	fs := p.edgeForbids(k)
	out := make([]Forbid, len(fs))
	for i, f := range fs {
		out[i] = Forbid{Choice: int(f.I), Other: int(f.J), Facts: p.facts.guards[f.Guard]}
	}
	return out
}

// RegisterBudget is the register budget as its fact and, one row per
// program point where some plan could overflow it, a pseudo-Boolean
// constraint over the choices. The fact is nil (and there are no rows)
// where no budget applies or the graph allows spilling.
func (p *Problem) RegisterBudget() (*model.Fact, []RegisterRow) {
	f := p.RegisterFact()
	if f == nil {
		return nil, nil
	}
	return f, p.registerRows()
}

// RegisterFact is the fact of the register budget, nil where no budget
// applies or the graph allows spilling (the budget is then a price).
func (p *Problem) RegisterFact() *model.Fact {
	if p.regs == nil || p.regs.spill {
		return nil
	}
	return p.regs.fact
}

// RegisterCut is, where a choice overflows the register budget (whose
// fact is RegisterFact), the nodes live at its peak whose choices hold
// more than their fewest registers, in graph order: with every other
// value there at its fewest, as in the choice, they alone overflow it,
// so no plan within the budget takes all their choices together. Nil
// where the choice keeps the budget or no budget applies.
func (p *Problem) RegisterCut(choice []int) []int {
	ru := p.regs
	if p.RegisterFact() == nil {
		return nil
	}
	peak, over := p.overflow(choice)
	if !over {
		return nil
	}
	at := slices.Index(ru.live.Points, peak.Point)
	var out []int
	for i, n := range ru.node {
		if n >= 0 && ru.live.LiveAt(i, at) && ru.words[i][choice[n]] > slices.Min(ru.words[i]) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// SolveUnderRegisters solves base (the problem's PBQP or one restricted
// from it) with search, keeping the register budget exactly, or where
// the graph allows spilling for the least cost plus spill cost, and
// gives the PBQP the solution's cost is counted in. The problem is left
// as it was; no other solve of it may run at the same time.
func (p *Problem) SolveUnderRegisters(base *pbqp.Problem, search func(*pbqp.Problem) (pbqp.Solution, *pbqp.Problem)) (pbqp.Solution, *pbqp.Problem) {
	return p.solveSpilling(base, search)
}

// Collision says in plain words how a core's facts (as Core gives them)
// rule every plan out, and the two layouts to draw side by side where a
// layout clash is the reason (nil where none is).
func (p *Problem) Collision(core []*model.Fact) ([]string, *model.Clash) { return p.collide(core) }

// ConversionBoundCore is, where the graph's bound on conversions is what
// rules every plan out, the facts that with the bound do (each needed),
// sorted as a reader meets them, and the fewest conversions they allow;
// nil where the bound is not in the way. It builds the graph again
// without each fact in turn (with records) and leaves the problem as it
// was.
func (p *Problem) ConversionBoundCore(records []*model.Record, opt Options) ([]*model.Fact, int, error) {
	return p.boundCore(records, opt)
}

// HasConversionBound reports whether the graph bounds its conversions
// (conversions.go): a constraint kept by the search, with no fact of the
// clauses behind it.
func (p *Problem) HasConversionBound() bool { return p.convBudget != nil }

// HasScratch reports whether some choice or pair of choices uses
// shared-memory scratch (conversions or reductions through shared memory).
func (p *Problem) HasScratch() bool { return len(p.scratch) > 0 }

// PeakScratch is the most scratch a choice's conversions and reductions
// use.
func (p *Problem) PeakScratch(choice []int) int {
	most := 0
	for _, u := range p.scratch {
		used := u.Edge < 0 && choice[u.Node] == int(u.I)
		if u.Edge >= 0 {
			e := p.PBQP.Edges[u.Edge]
			used = choice[e.A] == int(u.I) && choice[e.B] == int(u.J)
		}
		if used {
			most = max(most, u.Bytes)
		}
	}
	return most
}

// ScratchCaps lists the scratch sizes a plan may peak at: none, and each
// size some choice needs, ascending.
func (p *Problem) ScratchCaps() []int { return p.scratchCaps() }

// Capped is a new PBQP with at most limit bytes of scratch: the choices
// and pairs needing more forbidden, and the buffer placements that leave
// less forbidden. The problem's own PBQP is not changed.
func (p *Problem) Capped(limit int) *pbqp.Problem { return p.capped(limit) }

// BufferNodes are the decisions that hold the buffers' placements.
func (p *Problem) BufferNodes() []*Node { return p.bufNodes }

// BufferDecision is the decision holding buffer b's placement and b's
// position in its sets of placements (Node.Buffers, Node.Placements);
// nil where b's placement is no decision.
func (p *Problem) BufferDecision(b *model.Buffer) (*Node, int) {
	n := p.bufNode[b]
	if n == nil {
		return nil, -1
	}
	return n, p.bufSlot[b]
}

// Accessed reports whether some op reads or writes buffer b.
func (p *Problem) Accessed(b *model.Buffer) bool { return p.accessed(b) }

// PlacementStated reports whether the graph states buffer b's placement
// and the fact that it does is in force (not relaxed).
func (p *Problem) PlacementStated(b *model.Buffer) bool {
	f := p.bufferFact(b)
	return f != nil && !p.relaxed(f)
}

// LoadRecords are the target's shared-memory load records.
func (p *Problem) LoadRecords() []*model.Record { return p.loadRecs }

// NamedLoad is the load record op names (nil where it names none the
// target has), whether its rule must admit the buffer's placement (need:
// the facts that say so are in force), and whether the record is the
// op's way to read (use: the op's intrinsic fact is in force and the
// record's fragment is specified).
func (p *Problem) NamedLoad(op *model.Op) (r *model.Record, need, use bool) {
	intr := p.intrinsicFact(op)
	if intr == nil {
		return nil, false, false
	}
	r = p.namedLoad(op, p.loadRecs)
	if r == nil {
		return nil, false, false
	}
	need = p.inForce(p.guard(intr, p.memoryFact(r)))
	use = !p.relaxed(intr) && r.Fragment != nil && r.Fragment.Layout != nil
	return r, need, use
}

// Admits is record r's memory rule checked against placement s: nil
// where it admits s, else why not.
func (p *Problem) Admits(r *model.Record, s *model.SharedLayout) error { return p.admits(r, s) }

// AccessCost is the cost of op accessing its buffer in placement s with
// layout l (the copy's execution layout, the load's result), and the
// record it reads or writes with: named where the op names a record that
// admits s (refused says it does not), else the cheapest way. A pair the
// facts in force forbid costs Inf, one only relaxed facts forbid 0, both
// with no record.
func (p *Problem) AccessCost(op *model.Op, l *model.Layout, s *model.SharedLayout, named *model.Record, refused bool) (int64, *model.Record, error) {
	c, rec, guard, err := p.accessCost(op, l, s, named, refused, p.loadRecs)
	switch {
	case guard >= 0 && p.inForce(guard):
		return Inf, nil, err
	case guard >= 0:
		return 0, nil, err
	}
	return c, rec, err
}

// RejectedLoads lists the load records that placement s rules out for
// op, each with the reason, as a plan states them.
func (p *Problem) RejectedLoads(op *model.Op, s *model.SharedLayout) []string {
	return rejectedFor(op, s, p.loadRecs)
}

// Placements lists the placements the enumerated search considers for
// buffer b.
func Placements(b *model.Buffer) []*model.SharedLayout { return placements(b) }

// RecordTile is the tile a load record moves, for its memory rule.
func RecordTile(r *model.Record) [2]int { return recordTile(r) }

// Deadline is when the solve's limits stop it (zero: no deadline), for a
// problem built with BuildWithin.
func (p *Problem) Deadline() time.Time {
	if p.watch == nil {
		return time.Time{}
	}
	return p.watch.deadline
}

// Done is closed when the solve's context is (nil: never).
func (p *Problem) Done() <-chan struct{} {
	if p.watch == nil {
		return nil
	}
	return p.watch.ctx.Done()
}

// CandidateCount counts the candidate layouts over all values (the
// number a Result states).
func (p *Problem) CandidateCount() int { return p.candidateCount() }

// Finish fills in res from the solution of pb (the problem's PBQP, or a
// Capped one): its status and cost, and its plan with ties broken as
// Solve breaks them.
func (p *Problem) Finish(res *Result, pb *pbqp.Problem, sol pbqp.Solution) { p.finish(res, pb, sol) }

// MinimalCore finds a minimal set of facts (IDs into Facts) that leave no
// plan, by deletion, as an explanation's core: holds checks whether a
// set of facts leaves a plan; why, when not nil, names a sufficient
// subset of the facts of the last call that failed. Nil if all facts
// leave a plan.
func (p *Problem) MinimalCore(holds func([]int) bool, why func() []int) []int {
	return minimalCore(p, holds, why)
}

// ValueNode is the decision of value v's layout (nil where v has none).
func (p *Problem) ValueNode(v *model.Value) *Node { return p.valueNode[v] }

// OpNode is the decision of op's mma record or execution layout (nil
// where op has none).
func (p *Problem) OpNode(op *model.Op) *Node { return p.opNode[op] }

// BuffersCombined reports whether one decision holds every buffer's
// placement, so that buffers and scratch share the budget: a plan's
// cost is then counted in Capped(PeakScratch(choice)).
func (p *Problem) BuffersCombined() bool { return p.combined }

// ConversionBound is the most conversions the graph allows, and whether
// it bounds them at all (HasConversionBound).
func (p *Problem) ConversionBound() (int, bool) {
	if p.convBudget == nil {
		return 0, false
	}
	return p.convBudget.max, true
}

// InForce reports whether facts (IDs into Facts, as a Forbid lists
// them) are all in force: the build relaxed none of them.
func (p *Problem) InForce(facts []int) bool {
	for _, id := range facts {
		if p.relaxed(p.facts.list[id]) {
			return false
		}
	}
	return true
}

// PricedConversion is the conversion the build priced from layout from to
// layout to for elements of bits bits: nil where it priced none or they
// do not convert. Read only.
func (p *Problem) PricedConversion(from, to *model.Layout, bits int) *model.Conversion {
	return p.memo.priced(from, to, bits)
}

// Converts reports whether the pair (i, j) of conversion edge k converts
// the value (false for the other kinds of edge). A use whose consumer
// requires no layout counts as converting.
func (p *Problem) Converts(k, i, j int) bool { return p.converts(k, i, j) }

// LoadedForDescriptor reports whether the pair (i, j) of conversion edge
// k passes a value loaded into registers to an mma that reads its
// buffer through a descriptor instead.
func (p *Problem) LoadedForDescriptor(k, i, j int) bool { return p.loadedForDescriptor(k, i, j) }

// DescriptorEdges lists, for each mma node that reads an operand through
// a descriptor, the indices of its descriptor edges. The map is the
// caller's.
func (p *Problem) DescriptorEdges() map[int][]int { return p.descriptorEdges() }

// DescriptorReadable reports whether choice i of an mma node can read
// each descriptor operand (edges: the node's descriptor edges, from
// DescriptorEdges) from some placement its buffer may take; true where
// it reads none.
func (p *Problem) DescriptorReadable(edges []int, i int) bool { return p.descriptorReadable(edges, i) }

// SpillCost is the spill cost of a choice (0 unless the graph allows
// spilling and some plan can exceed the register budget).
func (p *Problem) SpillCost(choice []int) int64 { return p.spillCost(choice) }

// OverflowText says where a choice overflows the register budget, empty
// where it does not or the graph allows spilling.
func (p *Problem) OverflowText(choice []int) string { return p.overflowText(choice) }

// Greedy runs the greedy baseline (greedy.go) on the problem, once: later
// calls give the first answer again (with a choice of their own to
// change). The problem keeps the answer, so that the search, which is
// never worse than it (notWorseThanGreedy), and a caller see one plan.
func (p *Problem) Greedy() *GreedyResult {
	if p.greedy == nil {
		p.greedy = p.runGreedy()
	}
	gr := *p.greedy
	gr.Choice = slices.Clone(gr.Choice)
	return &gr
}
