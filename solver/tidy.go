package solver

import (
	"slices"

	"planner/model"
	"planner/solver/pbqp"
)

// tidy breaks ties among equally cheap plans in favour of fewer
// conversions: it moves one node at a time to another choice when that
// keeps the total cost and removes conversions, until no move does. Every
// move is checked against the exact cost, so the plan stays optimal.
func (p *Problem) tidy(choice []int) {
	incident := make([][]int, len(p.Nodes))
	for k, e := range p.PBQP.Edges {
		incident[e.A] = append(incident[e.A], k)
		incident[e.B] = append(incident[e.B], k)
	}
	local := func(n int) (int64, int) {
		c := p.PBQP.Cost[n][choice[n]]
		conv := 0
		for _, k := range incident[n] {
			e := p.PBQP.Edges[k]
			c = pbqp.AddSat(c, e.M[choice[e.A]][choice[e.B]])
			if p.converts(k, choice[e.A], choice[e.B]) {
				conv++
			}
		}
		return c, conv
	}
	defer p.tidyBuffers(choice, incident)
	for pass := 0; pass < 8; pass++ {
		changed := false
		for n := range p.Nodes {
			cost, conv := local(n)
			orig := choice[n]
			best := orig
			for i := range p.PBQP.Cost[n] {
				if i == orig {
					continue
				}
				choice[n] = i
				c, k := local(n)
				if c == cost && k < conv {
					best, conv = i, k
				}
			}
			choice[n] = best
			changed = changed || best != orig
		}
		if !changed {
			return
		}
	}
}

// tidyMMA moves each mma of a plan to the arrangement of fewest
// instructions per subgroup among those that keep the total cost, the
// register budget and the conversions: of m64n64k16 twice and m64n128k16 once, which
// cost the same math and the same reads of B, the wider one, as Triton
// takes the widest instruction N that divides the warps' tile
// (mmaVersionToInstrShape in lib/Dialect/TritonGPU/Transforms/Utility.cpp
// of triton-lang/triton). The mma moves together with its result, which
// its choice fixes, and with the operands that took the layout it
// required (the wider record tiles C and D in another register order);
// the nodes next to those then settle on their cheapest choices. pb is
// the PBQP the plan was solved in (the problem's, or a capped one).
func (p *Problem) tidyMMA(pb *pbqp.Problem, choice []int) {
	incident := make([][]int, len(p.Nodes))
	for k, e := range p.PBQP.Edges {
		incident[e.A] = append(incident[e.A], k)
		incident[e.B] = append(incident[e.B], k)
	}
	tiled := func(ch *MMAChoice) bool {
		return ch.Record != nil && ch.Record.Kind == model.RecordMMA && ch.Record.K > 0
	}
	// A trial changes a few nodes of choice in place and is undone; its
	// cost and conversions are compared on those nodes and the edges
	// that touch them alone, which is where a total over the whole plan
	// can differ (the spill price and the register budget, which depend
	// on every live value, are checked on the whole plan, only for a
	// trial that keeps the local cost and conversions).
	seen := make([]int, len(p.PBQP.Edges))
	mark := 0
	local := func(nodes []int) (int64, int) {
		mark++
		var c int64
		conv := 0
		for _, v := range nodes {
			c = pbqp.AddSat(c, pb.Cost[v][choice[v]])
			for _, k := range incident[v] {
				if seen[k] == mark {
					continue
				}
				seen[k] = mark
				e := pb.Edges[k]
				c = pbqp.AddSat(c, e.M[choice[e.A]][choice[e.B]])
				if pe := p.Edges[k]; pe.Kind == EdgeConversion && p.counted(k, choice[pe.From], choice[pe.To]) {
					conv++
				}
			}
		}
		return c, conv
	}
	for n, node := range p.Nodes {
		if node.Kind != NodeMMA || !tiled(node.MMA[choice[n]]) {
			continue
		}
		instructions := func(i int) int {
			ch := node.MMA[i]
			return model.MMAInstructions(node.Op, &model.OpChoice{Record: ch.Record, WarpsM: ch.WarpsM, WarpsN: ch.WarpsN})
		}
		var best []move
		fewest := instructions(choice[n])
		spill := int64(-1) // the plan's spill price, once asked
		for i, ch := range node.MMA {
			if !tiled(ch) || instructions(i) >= fewest {
				continue
			}
			moves := p.movedMMA(choice, n, i, incident[n])
			if moves == nil {
				continue
			}
			apply(choice, moves)
			moves = append(moves, p.settle(choice, nodesOf(moves), n, incident)...)
			nodes := nodesOf(moves)
			after, afterConv := local(nodes)
			undo(choice, moves)
			before, beforeConv := local(nodes)
			keeps := after == before && afterConv <= beforeConv
			if keeps && p.regs != nil {
				if spill < 0 {
					spill = p.spillCost(choice)
				}
				apply(choice, moves)
				keeps = p.spillCost(choice) == spill && !p.overRegisters(choice)
				undo(choice, moves)
			}
			if keeps {
				best, fewest = moves, instructions(i)
			}
		}
		apply(choice, best)
	}
}

// A move sets one node of a choice from one candidate to another.
type move struct{ node, from, to int }

// apply makes moves in choice, in order.
func apply(choice []int, moves []move) {
	for _, m := range moves {
		choice[m.node] = m.to
	}
}

// undo takes moves back out of choice, last first.
func undo(choice []int, moves []move) {
	for i := len(moves) - 1; i >= 0; i-- {
		choice[moves[i].node] = moves[i].from
	}
}

// nodesOf are the distinct nodes moves set, in their first order.
func nodesOf(moves []move) []int {
	var out []int
	for _, m := range moves {
		if !slices.Contains(out, m.node) {
			out = append(out, m.node)
		}
	}
	return out
}

// movedMMA are the moves that put mma node n at choice i, its result at
// the layout i makes and each operand that had the layout the old choice
// required at the one i requires; nil when one has no such candidate.
func (p *Problem) movedMMA(choice []int, n, i int, edges []int) []move {
	moves := []move{{n, choice[n], i}}
	for _, k := range edges {
		e, m := p.Edges[k], p.PBQP.Edges[k].M
		switch {
		case e.Kind == EdgeLink && e.From == n:
			j := slices.IndexFunc(m[i], func(c int64) bool { return c < Inf })
			if j < 0 {
				return nil
			}
			moves = append(moves, move{e.To, choice[e.To], j})
		case e.Kind == EdgeConversion && e.To == n:
			from := p.Nodes[e.From]
			old, req := e.Required[choice[n]], e.Required[i]
			if old == nil || req == nil || from.Kind != NodeValue || !from.Layouts[choice[e.From]].Equal(old) {
				continue
			}
			j := slices.IndexFunc(from.Layouts, req.Equal)
			if j < 0 {
				return nil
			}
			moves = append(moves, move{e.From, choice[e.From], j})
		}
	}
	return moves
}

// settle moves the nodes next to the moved ones (but not mma node n) to
// their cheapest choices given their neighbours, a few rounds outward,
// and returns the moves it made: the consumers of a moved result take its
// new layout where that is cheaper.
func (p *Problem) settle(choice, moved []int, n int, incident [][]int) []move {
	local := func(v int) int64 {
		c := p.PBQP.Cost[v][choice[v]]
		for _, k := range incident[v] {
			e := p.PBQP.Edges[k]
			c = pbqp.AddSat(c, e.M[choice[e.A]][choice[e.B]])
		}
		return c
	}
	done := map[int]bool{n: true}
	for _, v := range moved {
		done[v] = true
	}
	var made []move
	for round := 0; round < 3 && len(moved) > 0; round++ {
		var next []int
		for _, v := range moved {
			for _, k := range incident[v] {
				e := p.PBQP.Edges[k]
				w := e.A
				if w == v {
					w = e.B
				}
				if done[w] || p.Nodes[w].Kind == NodeBuffers || p.Nodes[w].Kind == NodeMMA {
					continue
				}
				done[w] = true
				orig := choice[w]
				best, cost := orig, local(w)
				for j := range p.PBQP.Cost[w] {
					choice[w] = j
					if c := local(w); c < cost {
						best, cost = j, c
					}
				}
				choice[w] = best
				if best != orig {
					next = append(next, w)
					made = append(made, move{w, orig, best})
				}
			}
		}
		moved = next
	}
	return made
}

// tidyBuffers moves each buffer decision to the smallest placements that
// cost the same: of two conflict-free placements, the one without
// padding.
func (p *Problem) tidyBuffers(choice []int, incident [][]int) {
	for _, n := range p.bufNodes {
		local := func() int64 {
			c := p.PBQP.Cost[n.ID][choice[n.ID]]
			for _, k := range incident[n.ID] {
				e := p.PBQP.Edges[k]
				c = pbqp.AddSat(c, e.M[choice[e.A]][choice[e.B]])
			}
			return c
		}
		cost, orig := local(), choice[n.ID]
		best := orig
		for i := range n.Placements {
			choice[n.ID] = i
			if local() == cost && n.Bytes[i] < n.Bytes[best] {
				best = i
			}
		}
		choice[n.ID] = best
	}
}
