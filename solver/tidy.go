package solver

import (
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
