package model

import (
	"sync"
	"sync/atomic"
	"testing"
)

// A memo gives what the operations give, works each out once, and may be
// shared by goroutines; a nil memo works every answer out.
func TestMemoRemembersOnce(t *testing.T) {
	f := Frame{Shape: []int{32, 64}, SubgroupSize: 32, Subgroups: 4}
	l, err := (&Blocked{SizePerThread: []int{1, 8}, ThreadsPerWarp: []int{4, 8}, WarpsPerCTA: []int{4, 1}, Order: []int{1, 0}}).Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	s := &SharedLayout{Rows: 32, Cols: 64, ElemBits: 16, Swizzle: "64B"}
	tg := &Target{Banks: 32, BankBytes: 4}
	want := s.AccessVectors(l, 8, tg)
	var calls atomic.Int32
	transpose := func(l *Layout) *Layout {
		calls.Add(1)
		tr, _ := l.Transpose([]int{1, 0})
		return tr
	}
	for _, m := range []*Memo{nil, NewMemo()} {
		calls.Store(0)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if got := m.AccessVectors(s, l, 8, tg); got != want {
					t.Errorf("memo %v: %+v, want %+v", m != nil, got, want)
				}
				if tr := m.Derive(l, "transpose 1 0", transpose); tr == nil || tr.Shape()[0] != 64 {
					t.Errorf("memo %v: transpose %v", m != nil, tr)
				}
			})
		}
		wg.Wait()
		// Goroutines may work out the same answer at once; once kept,
		// it is not worked out again.
		before := calls.Load()
		m.Derive(l, "transpose 1 0", transpose)
		if again := calls.Load() - before; m != nil && again != 0 || m == nil && again != 1 {
			t.Errorf("memo %v: asked again, the transpose was worked out %d more times", m != nil, again)
		}
	}
}
