package solver

import (
	"planner/model"
)

// layoutMemo keeps one copy of every layout a build makes and remembers
// what the ops' transfer rules derive from each. Large graphs repeat the
// same shapes and ops many times; without it a build recomputes the same
// transposes, slices and broadcasts once per op and per round of the
// candidate closure.
type layoutMemo struct {
	byKey   map[string]*model.Layout
	derived map[derivedKey]*model.Layout
	equal   map[[2]*model.Layout]bool
	convs   map[convPair]*model.Conversion
}

// convPair is a conversion between two layouts of a value of bits bits.
type convPair struct {
	from, to *model.Layout
	bits     int
}

// derivedKey names a layout derived from l: how names the rule and its
// parameters (see ruleKey).
type derivedKey struct {
	l   *model.Layout
	how string
}

func newLayoutMemo() *layoutMemo {
	return &layoutMemo{byKey: map[string]*model.Layout{}, derived: map[derivedKey]*model.Layout{}, equal: map[[2]*model.Layout]bool{},
		convs: map[convPair]*model.Conversion{}}
}

// canon is the build's one copy of layout l (layouts with equal keys are
// equal, so either serves).
func (m *layoutMemo) canon(l *model.Layout) *model.Layout {
	if l == nil {
		return nil
	}
	k := l.Key()
	if c, ok := m.byKey[k]; ok {
		return c
	}
	m.byKey[k] = l
	return l
}

// derive is fn(l), computed once per canonical l and rule how; nil when
// the rule does not apply to l.
func (m *layoutMemo) derive(l *model.Layout, how string, fn func(*model.Layout) *model.Layout) *model.Layout {
	l = m.canon(l)
	k := derivedKey{l, how}
	if r, ok := m.derived[k]; ok {
		return r
	}
	r := m.canon(fn(l))
	m.derived[k] = r
	return r
}

// equalLayouts is a.Equal(b), computed once per pair of layouts: layouts
// written in different digits are compared element by element.
func (m *layoutMemo) equalLayouts(a, b *model.Layout) bool {
	if a == b {
		return true
	}
	k := [2]*model.Layout{a, b}
	eq, ok := m.equal[k]
	if !ok {
		eq = a.Equal(b)
		m.equal[k] = eq
	}
	return eq
}
