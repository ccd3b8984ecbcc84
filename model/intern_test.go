package model

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Two layouts made alike, by different paths, are one pointer; a layout
// written in other digits that places every element alike is another
// pointer, equal to it.
func TestInternedLayoutsArePointers(t *testing.T) {
	f := Frame{Shape: []int{16, 32}, SubgroupSize: 32, Subgroups: 2}
	b := &Blocked{SizePerThread: []int{1, 4}, ThreadsPerWarp: []int{4, 8}, WarpsPerCTA: []int{2, 1}, Order: []int{1, 0}}
	l1, err := b.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := b.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := l1.Transpose([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	back, err := tr.Transpose([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if l1 != l2 || l1 != back || !l1.Equal(back) || l1.Key() != back.Key() {
		t.Errorf("one layout made three ways is %p, %p and %p", l1, l2, back)
	}
	if l1.Equal(tr) {
		t.Errorf("a layout equals its transpose")
	}

	// 12 values per lane, read as [3 2 2] (three values, then pairs) and
	// as [2 2 3]: the same when every value's element is the same.
	mk := func(regs Radices, images []Image) *Layout {
		t.Helper()
		l, err := NewLayout([NumHwDims]Radices{Register: regs}, []Radices{RadicesOf(12)}, [NumHwDims][]Image{Register: images})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	canon := mk(Radices{2, 2, 3}, []Image{{{0, 0}}, {{0, 1}}, {{0, 2}}})
	swapped := mk(Radices{2, 2, 3}, []Image{{{0, 1}}, {{0, 0}}, {{0, 2}}})
	other, err := layoutOf(mustMap(t, []Axis{{"register", Radices{3, 2, 2}}, {"lane", nil}, {"subgroup", nil}, {"block", nil}},
		[]Axis{{"dim0", Radices{3, 2, 2}}}, [][]Image{{{{0, 0}}, {{0, 1}}, {{0, 2}}}, nil, nil, nil}), marks{})
	if err != nil {
		t.Fatal(err)
	}
	if canon == swapped || canon.Equal(swapped) {
		t.Errorf("layouts that place elements differently are equal")
	}
	// other puts value v at element v too, in digits [3 2 2].
	if other == canon || !other.Equal(canon) || !canon.Equal(other) {
		t.Errorf("one placement in two writings: pointers %p %p, equal %v", other, canon, other.Equal(canon))
	}
	if canon.Equal(nil) || !(*Layout)(nil).Equal(nil) {
		t.Errorf("nil layouts compare wrongly")
	}
}

func mustMap(t *testing.T, in, out []Axis, images [][]Image) *Map {
	t.Helper()
	m, err := NewMap(in, out, images)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The intern table holds its layouts weakly: layouts no longer used
// leave it, so many solves in one process do not grow it without bound.
func TestInternTableForgetsFreedLayouts(t *testing.T) {
	settle := func() int {
		for range 5 {
			runtime.GC()
			runtime.Gosched()
		}
		return layouts.size()
	}
	before := settle()
	var keep []*Layout
	for n := range 200 {
		// n+2 values per lane, value v holding element v.
		regs := RadicesOf(n + 2)
		imgs := make([]Image, len(regs))
		for k := range regs {
			imgs[k] = Image{{0, k}}
		}
		l, err := NewLayout([NumHwDims]Radices{Register: regs}, []Radices{regs}, [NumHwDims][]Image{Register: imgs})
		if err != nil {
			t.Fatal(err)
		}
		keep = append(keep, l)
	}
	if grown := layouts.size(); grown < before+100 {
		t.Fatalf("the table holds %d layouts after making 200, %d before", grown, before)
	}
	runtime.KeepAlive(keep)
	keep = nil
	if after := settle(); after > before+10 {
		t.Errorf("the table holds %d layouts once the 200 are freed, %d before", after, before)
	}
}

// Every layout is made by layoutOf, which interns it: no other code of
// the package writes a Layout literal, so none makes a layout that is
// not interned, and none changes one after (every field is set there).
func TestLayoutsMadeOnlyByLayoutOf(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var at []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			if strings.Contains(line, "&Layout{") || strings.Contains(line, " Layout{") {
				at = append(at, fmt.Sprintf("%s:%d", f, i+1))
			}
		}
	}
	if len(at) != 1 || !strings.HasPrefix(at[0], "layout.go:") {
		t.Errorf("Layout literals at %v, want one, in layoutOf (layout.go)", at)
	}
}
