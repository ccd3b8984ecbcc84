package model

import (
	"sync"
	"sync/atomic"
)

// Memo remembers the layout operations of one planning run: what an op's
// transfer rule makes of a layout, the conversion between two layouts, how a layout repeats a fragment, and
// what a layout's accesses of a shared-memory placement cost. A large
// graph gives many ops the same few layouts, so a build and the replay
// of its plan ask the same questions many times.
//
// The solver's build and the plan's verifier each keep one (or share one)
// and ask it only about layouts: nothing of the solver's encoding is in
// it. Goroutines may share a Memo. A nil *Memo remembers nothing: every
// method then works its answer out.
type Memo struct {
	derived  kept[derivedKey, *Layout]
	convs    kept[convKey, convAnswer]
	matches  kept[[2]*Layout, fragmentMatch]
	accesses kept[layoutAccessKey, Access]
	tables   kept[*Layout, *layoutTables]
}

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{} }

// derivedKey names a layout derived from l by rule how.
type derivedKey struct {
	l   *Layout
	how string
}

// Derive is fn(l), worked out once per layout and rule how (how names
// the rule and its parameters, as Transfer.Key does); nil where the rule
// does not apply to l.
func (m *Memo) Derive(l *Layout, how string, fn func(*Layout) *Layout) *Layout {
	if m == nil {
		return fn(l)
	}
	k := derivedKey{l, how}
	if r, ok := m.derived.get(k); ok {
		return r
	}
	r := fn(l)
	m.derived.put(k, r)
	return r
}

// Transfer is tr.Apply(op, l), worked out once per layout and rule.
func (m *Memo) Transfer(op *Op, tr *Transfer, l *Layout) *Layout {
	return m.Derive(l, tr.Key(op), func(l *Layout) *Layout { return tr.Apply(op, l) })
}

// convKey names the conversion between two layouts for elements of bits
// bits.
type convKey struct {
	from, to *Layout
	bits     int
}

type convAnswer struct {
	c   *Conversion
	err error
}

// Analyze is Analyze(from, to, bits), worked out once per pair and
// element width. The conversion is shared: callers must not change it
// (CountScratch fills in a conversion's scratch counts: count them in a
// copy, as UseCost does).
func (m *Memo) Analyze(from, to *Layout, bits int) (*Conversion, error) {
	if m == nil {
		return Analyze(from, to, bits)
	}
	k := convKey{from, to, bits}
	if a, ok := m.convs.get(k); ok {
		return a.c, a.err
	}
	c, err := Analyze(from, to, bits)
	m.convs.put(k, convAnswer{c, err})
	return c, err
}

// MatchFragment is MatchFragment(l, frag), worked out once per pair.
func (m *Memo) MatchFragment(l, frag *Layout) (int, bool) {
	if m == nil {
		return MatchFragment(l, frag)
	}
	k := [2]*Layout{l, frag}
	r, ok := m.matches.get(k)
	if !ok {
		r.copies, r.ok = MatchFragment(l, frag)
		m.matches.put(k, r)
	}
	return r.copies, r.ok
}

// layoutAccessKey names a count of AccessVectors of a layout.
type layoutAccessKey struct {
	l *Layout
	vectorAccessKey
}

// AccessVectors is s.AccessVectors(l, vector, t), worked out once per
// layout, placement, vector and target (the cross-check of
// CrossCheckAccesses counts every time).
func (m *Memo) AccessVectors(s *SharedLayout, l *Layout, vector int, t *Target) Access {
	tb := tablesOf(m, l)
	if m == nil || accessCheck != nil {
		return s.accessVectors(tb, vector, t)
	}
	k := layoutAccessKey{l, vectorAccessKey{*s, vector, t}}
	if a, ok := m.accesses.get(k); ok {
		return a
	}
	a := s.accessVectors(tb, vector, t)
	m.accesses.put(k, a)
	return a
}

// layoutTables is what counting a layout's shared-memory accesses reads
// of it, kept by a Memo for each layout (or made for one count where
// there is no memo): the element each point holds, by subgroup, and the
// subgroups that hold distinct parts of the tensor. Goroutines share a
// memo's tables; each part is worked out once (two goroutines working
// out the same part at once keep either).
type layoutTables struct {
	l *Layout
	// held[sub][lane][value] is the element a value of subgroup sub holds
	// in block 0.
	held  kept[int, [][][]int]
	apart atomic.Pointer[[]int] // SubgroupsApart
	// axisIdx[h][sub] is the element of every point along hardware axis
	// h (register or lane) of subgroup sub, the other axes at zero:
	// counting accesses from bases reads it for every placement tried.
	axisIdx [2]kept[int, [][]int]
}

// tablesOf is m's tables of l, or new ones where m is nil.
func tablesOf(m *Memo, l *Layout) *layoutTables {
	if m == nil {
		return &layoutTables{l: l}
	}
	return m.tables.getOrPut(l, func() *layoutTables { return &layoutTables{l: l} })
}

// heldBy is l.heldBy(sub), kept once computed.
func (tb *layoutTables) heldBy(sub int) [][][]int {
	if h, ok := tb.held.get(sub); ok {
		return h
	}
	h := tb.l.heldBy(sub)
	tb.held.put(sub, h)
	return h
}

// subgroupsApart is l.SubgroupsApart(), kept once computed.
func (tb *layoutTables) subgroupsApart() []int {
	if a := tb.apart.Load(); a != nil {
		return *a
	}
	a := tb.l.SubgroupsApart()
	tb.apart.Store(&a)
	return a
}

// kept is a map filled as it is asked, under its own lock.
type kept[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *kept[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *kept[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// getOrPut is the value kept under k, or mk(), kept there.
func (c *kept[K, V]) getOrPut(k K, mk func() V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	if c.m == nil {
		c.m = map[K]V{}
	}
	v := mk()
	c.m[k] = v
	return v
}
