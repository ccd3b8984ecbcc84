package model

import (
	"hash/maphash"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"weak"
)

// Layouts are interned: every layout is made by layoutOf, which returns
// the one *Layout of its digits, images, shape and marks (its Key), so a
// layout is never made twice and never changes once made. Equal layouts
// are those that place every element alike with the same marks; where
// they are written in different digits (a repetition digit below binary
// ones, as a notation read back may write it) they are two *Layouts, one
// per writing, because what can be done to a layout depends on its
// digits (Reshape splits only at digit boundaries). Each layout points
// to its class, the one layout that stands for every layout equal to it,
// so Equal is a pointer compare of classes: the class of a layout in
// canonical digits (RadicesOf of every axis) is itself; of one in other
// digits, the layout of its map rewritten in canonical digits where it
// can be, else the first layout made of those that hold the same element
// at every hardware point.
//
// The tables are the process's, shared by goroutines, and hold their
// layouts weakly: an entry goes when the garbage collector frees its
// layout, so a long run of many solves keeps only the layouts still in
// use (a graph's, a memo's, a class's members').
var (
	layouts internTable // by Key
	classes internTable // layouts in other digits, by pointsKey
)

// internShards splits the table so that parallel solves seldom wait on
// one lock.
const internShards = 64

type internTable struct {
	seed   maphash.Seed
	once   sync.Once
	shards [internShards]internShard
}

type internShard struct {
	mu sync.Mutex
	m  map[string]weak.Pointer[Layout]
}

func (t *internTable) shard(key string) *internShard {
	t.once.Do(func() { t.seed = maphash.MakeSeed() })
	return &t.shards[maphash.String(t.seed, key)%internShards]
}

// lookupBytes is the live layout interned under key, or nil.
func (t *internTable) lookupBytes(key []byte) *Layout {
	t.once.Do(func() { t.seed = maphash.MakeSeed() })
	s := &t.shards[maphash.Bytes(t.seed, key)%internShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[string(key)].Value()
}

// keyBuffers are the buffers layoutOf writes keys in.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// intern returns the layout interned under key, interning l where there
// is none (or the one there was freed).
func (t *internTable) intern(key string, l *Layout) *Layout {
	s := t.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.m[key].Value(); o != nil {
		return o
	}
	if s.m == nil {
		s.m = map[string]weak.Pointer[Layout]{}
	}
	wp := weak.Make(l)
	s.m[key] = wp
	runtime.AddCleanup(l, t.forget, internEntry{key, wp})
	return l
}

// internEntry is a table entry to remove once its layout is freed.
type internEntry struct {
	key string
	wp  weak.Pointer[Layout]
}

// forget removes an entry whose layout was freed, unless a new layout
// took its key meanwhile.
func (t *internTable) forget(e internEntry) {
	s := t.shard(e.key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[e.key] == e.wp {
		delete(s.m, e.key)
	}
}

// size counts the table's entries (tests).
func (t *internTable) size() int {
	n := 0
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}

// canonicalDigits reports whether every axis of m is written in the
// digits RadicesOf gives its size.
func canonicalDigits(m *Map) bool {
	for _, sp := range [2]*space{&m.in, &m.out} {
		for _, ax := range sp.axes {
			// RadicesOf's form: binary digits, then at most one
			// repetition digit.
			for _, r := range ax.Radices[:max(len(ax.Radices)-1, 0)] {
				if r != 2 {
					return false
				}
			}
		}
	}
	return true
}

// classOf is the class of l, a layout in other digits than the
// canonical ones.
func (l *Layout) classOf(mk marks) *Layout {
	if cm, ok := l.recanon(); ok {
		if c, err := layoutOf(cm, mk); err == nil {
			return c.class
		}
	}
	return classes.intern(l.pointsKey(mk.key()), l)
}

// recanon writes l's map in canonical digits, or reports false when no
// map in those digits places every element as l does.
func (l *Layout) recanon() (*Map, bool) {
	var hw [NumHwDims]Radices
	for h := range NumHwDims {
		hw[h] = RadicesOf(l.Size(h))
	}
	dims := make([]Radices, len(l.shape))
	for d, s := range l.shape {
		dims[d] = RadicesOf(s)
	}
	// image is where the element idx lies in the canonical digits: the
	// binary digits set, and the repetition digit (at most one per
	// dimension, the top one) with its value.
	var images [NumHwDims][]Image
	for h := range NumHwDims {
		place := 1
		for _, r := range hw[h] {
			var p HwPoint
			c := p.coords()
			c[h] = place
			idx := l.Index(hwPointOf(c))
			var img Image
			for d, x := range idx {
				for k, dr := range dims[d] {
					if dr == 2 {
						if x&1 == 1 {
							img = append(img, DigitRef{d, k})
						}
						x >>= 1
						continue
					}
					switch {
					case x == 0:
					case r != 2 && x == 1 && dr == r:
						img = append(img, DigitRef{d, k})
					default:
						return nil, false
					}
					x = 0
				}
			}
			if r != 2 && len(img) > 1 {
				return nil, false
			}
			images[h] = append(images[h], img)
			place *= r
		}
	}
	m, err := NewMap(HwAxes(hw), TensorAxes(dims), images[:])
	if err != nil {
		return nil, false
	}
	same := true
	l.Each(func(p HwPoint, idx []int) {
		if same && !slices.Equal(idx, m.Apply(p.coords())) {
			same = false
		}
	})
	return m, same
}

// pointsKey identifies a layout whose map is in other digits than the
// canonical ones by its shape, its hardware sizes and the element every
// hardware point holds.
func (l *Layout) pointsKey(marks string) string {
	b := append([]byte(marks), "points "...)
	for _, s := range l.shape {
		b = strconv.AppendInt(b, int64(s), 10)
		b = append(b, ' ')
	}
	b = append(b, '>')
	for h := range NumHwDims {
		b = strconv.AppendInt(b, int64(l.Size(h)), 10)
		b = append(b, ' ')
	}
	b = append(b, ':')
	for _, e := range l.ElementNumbers() {
		b = strconv.AppendInt(b, int64(e), 36)
		b = append(b, ',')
	}
	return string(b)
}
