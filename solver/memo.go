package solver

import (
	"encoding/binary"
	"fmt"
	"slices"

	"planner/model"
)

// layoutMemo remembers what a build makes of its layouts: the layout
// operations (ops, a model.Memo: large graphs repeat the same shapes and
// ops many times, and without it a build recomputes the same
// transposes, slices and broadcasts once per op and per round of the
// candidate closure), and the build's own numbering of layouts, pairs,
// lists and cost rows.
type layoutMemo struct {
	ops *model.Memo
	// convs holds every pair of layouts listed for analysis, numbered in
	// convAt by convKey; pending numbers those listed since the last
	// pricing (pricePending).
	convs    []pricedConv
	convAt   map[uint64]int32
	pending  []int32
	unlisted []unlistedTable // tables whose pairs listPairs has yet to list
	mats     matrices
	pairs    pairTables
	scratch  map[scratchKey]int         // reduceScratch of each layout, axis and width
	lists    map[string][]*model.Layout // one copy of each list of layouts (list)
	rows     map[string][]int64         // one copy of each row of costs (row)
	buf      []byte
}

// convPair is a conversion between two layouts of a value of bits bits.
type convPair struct {
	from, to *model.Layout
	bits     int
}

// pricedConv is a pair's conversion, or why the layouts do not convert.
type pricedConv struct {
	pair   convPair
	c      *model.Conversion
	err    error
	cost   int64 // one trip's, once costed (pairCost)
	costed bool
}

// convKey numbers a pair of layouts (by their ids) for elements of bits
// bits in one word, false where the ids or bits are too large for it.
func convKey(from, to uint32, bits int) (uint64, bool) {
	if from >= 1<<28 || to >= 1<<28 || bits < 0 || bits >= 1<<8 {
		return 0, false
	}
	return uint64(bits)<<56 | uint64(from)<<28 | uint64(to), true
}

// unlistedTable is a table of pairs of layouts to list for pricing.
type unlistedTable struct {
	tab      *pairTable
	from, to []*model.Layout
	bits     int
}

// listPairs lists the pairs of the tables made since its last call that
// the analysis prices (analysed), each once (want). The first call, on a
// build's first batch of edges, sizes the memo for every pair its tables
// hold: a small graph's pairs are all in its first batch.
func (m *layoutMemo) listPairs() {
	if len(m.convs) == 0 {
		cells := 0
		for _, u := range m.unlisted {
			cells += len(u.from) * len(u.to)
		}
		m.convAt = make(map[uint64]int32, cells)
		m.convs = make([]pricedConv, 0, cells)
	}
	for _, u := range m.unlisted {
		for i, l := range u.from {
			for j, r := range u.to {
				if u.tab.err == nil && r != nil && analysed(l, r) {
					u.tab.at[i][j], u.tab.err = m.want(l, r, u.tab.from[i], u.tab.to[j], u.bits)
				}
			}
		}
	}
	clear(m.unlisted)
	m.unlisted = m.unlisted[:0]
}

// want is the number of the pair of layouts from and to (ids fi, ti),
// listed for pricePending unless it was before.
func (m *layoutMemo) want(from, to *model.Layout, fi, ti uint32, bits int) (int32, error) {
	k, ok := convKey(fi, ti, bits)
	if !ok {
		return 0, fmt.Errorf("more layouts (%d) or wider elements (%d bits) than a build numbers", max(fi, ti), bits)
	}
	n, ok := m.convAt[k]
	if !ok {
		n = int32(len(m.convs))
		m.convs = append(m.convs, pricedConv{pair: convPair{from, to, bits}})
		m.convAt[k] = n
		m.pending = append(m.pending, n)
	}
	return n, nil
}

// priced is the conversion the build analysed from one of its layouts
// to another for elements of bits bits, nil where it analysed none.
func (m *layoutMemo) priced(from, to *model.Layout, bits int) *model.Conversion {
	fi, ok1 := m.pairs.ids[from]
	ti, ok2 := m.pairs.ids[to]
	k, ok3 := convKey(fi, ti, bits)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	if n, ok := m.convAt[k]; ok {
		return m.convs[n].c
	}
	return nil
}

func newLayoutMemo() *layoutMemo {
	return &layoutMemo{ops: model.NewMemo(),
		convAt: map[uint64]int32{}, lists: map[string][]*model.Layout{}, rows: map[string][]int64{}}
}

// list is the build's one copy of a list of layouts (ls itself may be
// scratch), which no one appends to nor writes into: a large graph gives many values the same
// candidates and many uses the same required layouts.
func (m *layoutMemo) list(ls []*model.Layout) []*model.Layout {
	m.buf = m.buf[:0]
	for _, l := range ls {
		m.buf = binary.LittleEndian.AppendUint32(m.buf, m.pairs.id(l))
	}
	return interned(m.lists, m.buf, ls)
}

// row is the build's one copy of a node's row of costs (c itself may be
// scratch): the problem's
// rows are never written once built (whoever changes a cost copies its
// row first), and a large graph repeats the same few.
func (m *layoutMemo) row(c []int64) []int64 {
	m.buf = m.buf[:0]
	for _, x := range c {
		m.buf = binary.LittleEndian.AppendUint64(m.buf, uint64(x))
	}
	return interned(m.rows, m.buf, c)
}

// interned is the slice kept under key, or a copy of s, kept there.
func interned[T any](kept map[string][]T, key []byte, s []T) []T {
	if c, ok := kept[string(key)]; ok {
		return c
	}
	s = slices.Clone(s)
	kept[string(key)] = s
	return s
}

type scratchKey struct {
	l          *model.Layout
	axis, bits int
}

// reduceScratch is reduceScratch(l, axis, bits), worked out once.
func (m *layoutMemo) reduceScratch(l *model.Layout, axis, bits int) int {
	k := scratchKey{l, axis, bits}
	b, ok := m.scratch[k]
	if !ok {
		if m.scratch == nil {
			m.scratch = map[scratchKey]int{}
		}
		b = reduceScratch(l, axis, bits)
		m.scratch[k] = b
	}
	return b
}

// derive is fn(l), computed once per layout and rule how; nil when the
// rule does not apply to l.
func (m *layoutMemo) derive(l *model.Layout, how string, fn func(*model.Layout) *model.Layout) *model.Layout {
	return m.ops.Derive(l, how, fn)
}

// matrices keeps one copy of each distinct cost matrix the build made:
// a large graph repeats the same few pairs of candidate sets (every
// block of a generated attention graph is alike), and an edge's matrix
// is never written once the edge is made (the reductions copy before
// they add into one, capped copies before they forbid). An edge's matrix
// is filled in scratch and copied only when it is new.
type matrices struct {
	kept    map[uint64][][][]int64
	flat    []int64
	scratch [][]int64
}

// zero is a zero rows×cols matrix to fill in and pass to shared, reused
// by the next call.
func (ms *matrices) zero(rows, cols int) [][]int64 {
	if cap(ms.flat) < rows*cols {
		ms.flat = make([]int64, rows*cols)
	}
	ms.flat = ms.flat[:rows*cols]
	clear(ms.flat)
	ms.scratch = ms.scratch[:0]
	for i := range rows {
		ms.scratch = append(ms.scratch, ms.flat[i*cols:(i+1)*cols:(i+1)*cols])
	}
	return ms.scratch
}

// shared is the build's copy of m: an equal matrix made before, or a
// copy of m (which may be scratch).
func (ms *matrices) shared(m [][]int64) [][]int64 {
	// FNV-1a over the matrix's words.
	k := uint64(14695981039346656037)
	word := func(x uint64) { k = (k ^ x) * 1099511628211 }
	word(uint64(len(m)))
	for _, row := range m {
		word(uint64(len(row)))
		for _, x := range row {
			word(uint64(x))
		}
	}
	for _, o := range ms.kept[k] {
		if slices.EqualFunc(o, m, slices.Equal[[]int64]) {
			return o
		}
	}
	cols := 0
	if len(m) > 0 {
		cols = len(m[0])
	}
	c := matrix(len(m), cols)
	for i, row := range m {
		if len(row) != cols {
			c[i] = slices.Clone(row)
			continue
		}
		copy(c[i], row)
	}
	if ms.kept == nil {
		ms.kept = map[uint64][][][]int64{}
	}
	ms.kept[k] = append(ms.kept[k], c)
	return c
}

// pairTable is the conversions between every candidate of a value and
// every layout a use requires, priced once for each distinct pair of
// lists: a large graph repeats the same lists on many edges, and a
// table read is far cheaper than looking every pair up on its own.
type pairTable struct {
	at       [][]int32 // by candidate, by required layout: the pair's number in the memo's convs, once listed
	from, to []uint32  // the layouts' ids
	listed   bool      // its pairs were listed for pricing (conversion)
	err      error     // why they could not be
}

// pairTables finds the table of two lists of layouts for elements of
// bits bits.
type pairTables struct {
	ids    map[*model.Layout]uint32
	tables map[string]*pairTable
	buf    []byte
}

// id numbers a layout for the keys of lists of layouts (0: nil).
func (t *pairTables) id(l *model.Layout) uint32 {
	if l == nil {
		return 0
	}
	if t.ids == nil {
		t.ids = map[*model.Layout]uint32{}
	}
	n, ok := t.ids[l]
	if !ok {
		n = uint32(len(t.ids) + 1)
		t.ids[l] = n
	}
	return n
}

func (t *pairTables) table(from, to []*model.Layout, bits int) *pairTable {
	if t.tables == nil {
		t.tables = map[string]*pairTable{}
	}
	b := t.buf[:0]
	put := func(x uint32) { b = binary.LittleEndian.AppendUint32(b, x) }
	id := t.id
	put(uint32(bits))
	put(uint32(len(from)))
	for _, l := range from {
		put(id(l))
	}
	for _, l := range to {
		put(id(l))
	}
	t.buf = b
	if tab, ok := t.tables[string(b)]; ok {
		return tab
	}
	tab := &pairTable{at: make([][]int32, len(from))}
	for _, l := range from {
		tab.from = append(tab.from, id(l))
	}
	for _, l := range to {
		tab.to = append(tab.to, id(l))
	}
	flat := make([]int32, len(from)*len(to))
	for i := range tab.at {
		tab.at[i] = flat[i*len(to) : (i+1)*len(to) : (i+1)*len(to)]
	}
	t.tables[string(b)] = tab
	return tab
}
