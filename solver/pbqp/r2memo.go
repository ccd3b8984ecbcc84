package pbqp

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
)

// R2 folds a node of degree two into a matrix between its neighbours,
// the min-plus product of its two edges through its costs: for k live
// choices of each of the three nodes, k³ sums. Problems made of repeated
// parts (the heads and layers of a generated attention graph, the
// branches of the brancher, which fold one node and reduce the rest
// again) fold the same node, with the same costs, between the same
// matrices many times; r2Memo keeps each product once and gives it again,
// the matrix shared (an edge borrows it, copied before any write: addEdge)
// and the picks read only by backSubstitute.

// r2Memo holds R2 products by what they are computed from.
type r2Memo struct {
	seed    maphash.Seed
	entries map[r2Key][]*r2Entry
}

func newR2Memo() *r2Memo { return &r2Memo{seed: maphash.MakeSeed(), entries: map[r2Key][]*r2Entry{}} }

// r2Key names a product cheaply: the two edge matrices (by the address of
// their first row) and which end of each the node is, the neighbours'
// numbers of choices, and a hash of the node's live costs and the three
// live sets. Entries under one key are compared whole.
type r2Key struct {
	m1, m2      *[]int64
	nodeA1      bool
	nodeA2      bool
	k1, k2      int
	fingerprint uint64
}

// r2Entry is one product and what it was computed from.
type r2Entry struct {
	cost                  []int64 // the node's costs at its live choices
	alive, alive1, alive2 []int
	mat                   [][]int64
	pick                  [][]int
}

// r2Product is the R2 matrix between node n's neighbours m1 and m2 (live
// choices alive1 and alive2 of k1 and k2) through its edges e1 and e2,
// with the node's best choice for each pair; fresh is false when the
// matrix comes from the memo and is shared.
func (r *reducer) r2Product(n int, e1, e2 *redge, alive1, alive2 []int, k1, k2 int) (mat [][]int64, pick [][]int, fresh bool) {
	node := r.nodes[n]
	if r.memo == nil || !e1.borrowed || !e2.borrowed || len(e1.m) == 0 || len(e2.m) == 0 {
		// Only matrices nobody writes (borrowed: the problem's, or the
		// memo's own) name a product by their address.
		mat, pick = r2Compute(n, node, e1, e2, alive1, alive2, k1, k2)
		return mat, pick, true
	}
	cost := make([]int64, len(node.alive))
	for x, i := range node.alive {
		cost[x] = node.cost[i]
	}
	var h maphash.Hash
	h.SetSeed(r.memo.seed)
	for _, part := range [][]int{node.alive, alive1, alive2} {
		for _, v := range part {
			maphash.WriteComparable(&h, v)
		}
		h.WriteByte(0)
	}
	for _, c := range cost {
		maphash.WriteComparable(&h, c)
	}
	key := r2Key{m1: &e1.m[0], m2: &e2.m[0], nodeA1: e1.a == n, nodeA2: e2.a == n, k1: k1, k2: k2, fingerprint: h.Sum64()}
	for _, en := range r.memo.entries[key] {
		if slices.Equal(en.cost, cost) && slices.Equal(en.alive, node.alive) && slices.Equal(en.alive1, alive1) && slices.Equal(en.alive2, alive2) {
			return en.mat, en.pick, false
		}
	}
	mat, pick = r2Compute(n, node, e1, e2, alive1, alive2, k1, k2)
	r.memo.entries[key] = append(r.memo.entries[key], &r2Entry{cost: cost, alive: slices.Clone(node.alive),
		alive1: slices.Clone(alive1), alive2: slices.Clone(alive2), mat: mat, pick: pick})
	return mat, pick, false // the memo keeps it: edges only borrow it
}

// r2Split is the terms (rows × columns × the node's choices) from which
// r2Compute shares its rows with a second goroutine: about 10 µs of work
// here, far more than starting one.
const r2Split = 1 << 13

// r2Compute is the product itself. Where no cost is negative (the
// problems of package solver), a plain sum of two terms each at most Inf
// reaches Inf exactly where AddSat's does, and cannot overflow; else
// AddSat.
func r2Compute(n int, node *rnode, e1, e2 *redge, alive1, alive2 []int, k1, k2 int) ([][]int64, [][]int) {
	mat, pick := make([][]int64, k1), make([][]int, k1)
	costs, picks := make([]int64, k1*k2), make([]int, k1*k2)
	for x := range costs {
		costs[x], picks[x] = Inf, -1
	}
	for a := range mat {
		mat[a], pick[a] = costs[a*k2:(a+1)*k2:(a+1)*k2], picks[a*k2:(a+1)*k2:(a+1)*k2]
	}
	// The node's live choices in a row: its cost with e1 at each choice
	// a of m1, and e2 at each choice b of m2.
	alive := node.alive
	nonneg := true
	cols := make([][]int64, k2)
	back := make([]int64, len(alive2)*len(alive))
	for _, b := range alive2 {
		cols[b], back = back[:len(alive):len(alive)], back[len(alive):]
		for x, i := range alive {
			c := e2.at(n, i, b)
			cols[b][x] = c
			nonneg = nonneg && c >= 0
		}
	}
	// The rows of the product: with many terms, half of them on another
	// goroutine (each row is its own; the answer does not depend on who
	// wrote it).
	rows := func(alive1 []int, nonneg bool) {
		row := make([]int64, len(alive))
		for _, a := range alive1 {
			for x, i := range alive {
				row[x] = AddSat(node.cost[i], e1.at(n, i, a))
				nonneg = nonneg && row[x] >= 0
			}
			ma, pa := mat[a], pick[a]
			for _, b := range alive2 {
				best, bx := Inf, -1
				if nonneg {
					for x, c := range cols[b] {
						if c += row[x]; c < best {
							best, bx = c, x
						}
					}
				} else {
					for x, c := range cols[b] {
						if c = AddSat(row[x], c); c < best {
							best, bx = c, x
						}
					}
				}
				if bx >= 0 {
					ma[b], pa[b] = best, alive[bx]
				}
			}
		}
	}
	if len(alive1)*len(alive2)*len(alive) >= r2Split && len(alive1) >= 2 && runtime.GOMAXPROCS(0) > 1 {
		half := len(alive1) / 2
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows(alive1[half:], nonneg)
		}()
		rows(alive1[:half], nonneg)
		wg.Wait()
	} else {
		rows(alive1, nonneg)
	}
	return mat, pick
}
