package pbqp

import "math/rand/v2"

// Random draws a problem for tests and benchmarks, as gini's gen.RandS
// does for SAT: nodes with 1 to maxK choices, random costs, some forbidden
// entries, and an edge between each pair of nodes with probability
// density, so that cycles leave a core for the search.
func Random(r *rand.Rand, nodes, maxK int, density float64) *Problem {
	p := &Problem{}
	for range nodes {
		k := 1 + r.IntN(maxK)
		c := make([]int64, k)
		for i := range c {
			c[i] = int64(r.IntN(20))
			if r.IntN(10) == 0 {
				c[i] = Inf
			}
		}
		p.Cost = append(p.Cost, c)
	}
	for a := range nodes {
		for b := a + 1; b < nodes; b++ {
			if r.Float64() > density {
				continue
			}
			m := make([][]int64, len(p.Cost[a]))
			for i := range m {
				m[i] = make([]int64, len(p.Cost[b]))
				for j := range m[i] {
					m[i][j] = int64(r.IntN(30))
					if r.IntN(6) == 0 {
						m[i][j] = Inf
					}
				}
			}
			p.Edges = append(p.Edges, Edge{A: a, B: b, M: m})
		}
	}
	return p
}
