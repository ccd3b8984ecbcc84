package plans

import (
	"sync"

	"planner/model"
)

// points is a layout evaluated at every hardware point once: the element
// (row-major number) each point holds, the points in Each's order, and,
// built when first asked, the points holding each element. The replays
// walk these tables instead of evaluating layouts point by point.
type points struct {
	l         *model.Layout
	elems     []int
	regs      int // registers per lane
	lanes     int // lanes per subgroup
	subgroups int // subgroups per block
	// holders: the points holding element e are at[first[e]:first[e+1]],
	// built once (goroutines share a table).
	first, at []int
	byElement sync.Once
}

// pointCache keeps the points of the layouts a verification meets, up to
// about cacheInts numbers: a value's layout serves all its uses, and the
// memory stays bounded on graphs of any size. The replays of one
// verification share it from their goroutines.
type pointCache struct {
	memo *model.Memo // the layout operations the replays share
	mu   sync.Mutex
	m    map[*model.Layout]*points
	ints int
}

func newPointCache() *pointCache {
	return &pointCache{memo: model.NewMemo(), m: map[*model.Layout]*points{}}
}

// tables is what one replay remembers: the points of layouts (shared),
// and the checks it passed.
type tables struct {
	pts *pointCache
	// passed holds the checks already replayed without a difference: a
	// graph repeats the same layouts, records and conversions many times.
	passed map[string]bool
	kinds  map[string]string      // the mechanism a use's replay found, by its two layouts
	holds  map[*model.Layout]bool // layouts found to hold every element of their shape
	// memo remembers what the ops' transfer rules make of a layout
	// (shared by the replays): the plan of a large graph gives many ops
	// the same few layouts.
	memo *model.Memo
}

// derive is tr.Apply(op, l), worked out once per layout and rule.
func (ts *tables) derive(op *model.Op, tr *model.Transfer, l *model.Layout) *model.Layout {
	return ts.memo.Transfer(op, tr, l)
}

const cacheInts = 1 << 22

func newTables(pts *pointCache) *tables {
	return &tables{pts: pts, passed: map[string]bool{}, kinds: map[string]string{}, holds: map[*model.Layout]bool{},
		memo: pts.memo}
}

// once runs check unless the same check (key) has passed before.
func (ts *tables) once(key string, check func() error) error {
	if ts.passed[key] {
		return nil
	}
	if err := check(); err != nil {
		return err
	}
	ts.passed[key] = true
	return nil
}

func (ts *tables) of(l *model.Layout) *points {
	pc := ts.pts
	pc.mu.Lock()
	t, ok := pc.m[l]
	pc.mu.Unlock()
	if ok {
		return t
	}
	t = &points{l: l, elems: l.ElementNumbers(), regs: l.Size(model.Register), lanes: l.Size(model.Lane), subgroups: l.Size(model.Subgroup)}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if o, ok := pc.m[l]; ok {
		return o // made meanwhile by the other replay
	}
	// Holders, when built, triple a table's numbers.
	if pc.ints += 3 * len(t.elems); pc.ints > cacheInts {
		clear(pc.m)
		pc.ints = 3 * len(t.elems)
	}
	pc.m[l] = t
	return t
}

// point is the hardware point of flat index i.
func (t *points) point(i int) model.HwPoint {
	p := model.HwPoint{Value: i % t.regs}
	i /= t.regs
	p.Lane = i % t.lanes
	i /= t.lanes
	p.Subgroup, p.Block = i%t.subgroups, i/t.subgroups
	return p
}

// lane numbers the lane of flat point i across the whole grid (block,
// subgroup, lane); subgroup numbers its subgroup likewise.
func (t *points) lane(i int) int     { return i / t.regs }
func (t *points) subgroup(i int) int { return i / t.regs / t.lanes }

// holders lists the flat points holding element e.
func (t *points) holders(e int) []int {
	t.byElement.Do(func() {
		n := t.l.Elements()
		t.first = make([]int, n+2)
		for _, x := range t.elems {
			t.first[x+2]++
		}
		for x := 2; x < len(t.first); x++ {
			t.first[x] += t.first[x-1]
		}
		t.at = make([]int, len(t.elems))
		for i, x := range t.elems {
			t.at[t.first[x+1]] = i
			t.first[x+1]++
		}
	})
	return t.at[t.first[e]:t.first[e+1]]
}

// coords writes the coordinates of element e of shape into idx.
func coords(e int, shape, idx []int) []int {
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = e % shape[d]
		e /= shape[d]
	}
	return idx
}
