package pbqp

import (
	"slices"
	"sort"
)

// adjacency is a node's edges in the reducer, sorted by the neighbour's
// number: most nodes of a large problem have two or three, which a map
// per node would hold in several times the memory.
type adjacency []adjEntry

type adjEntry struct {
	nb int
	e  *redge
}

// find is where nb is, or would be inserted, and whether it is there.
func (a adjacency) find(nb int) (int, bool) {
	k := sort.Search(len(a), func(k int) bool { return a[k].nb >= nb })
	return k, k < len(a) && a[k].nb == nb
}

// get is the edge to nb, nil when there is none.
func (a adjacency) get(nb int) *redge {
	if k, ok := a.find(nb); ok {
		return a[k].e
	}
	return nil
}

// set adds the edge to nb, which has none yet.
func (a *adjacency) set(nb int, e *redge) {
	k, _ := a.find(nb)
	*a = slices.Insert(*a, k, adjEntry{nb, e})
}

// remove drops the edge to nb, if any.
func (a *adjacency) remove(nb int) {
	if k, ok := a.find(nb); ok {
		*a = slices.Delete(*a, k, k+1)
	}
}
