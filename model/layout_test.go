package model_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	. "planner/model"
	"planner/model/modeltest"
	"planner/notation"
)

// mmaAccumulator is the f32 accumulator of mma.sync.m16n8k16 (PTX ISA,
// "Matrix Fragments for mma.m16n8k16 with floating point type"): row =
// groupID (lane >> 2) for c0, c1 and groupID + 8 for c2, c3; column =
// 2 × threadID_in_group (lane % 4) + (i & 1).
func mmaAccumulator(t *testing.T) *Layout {
	t.Helper()
	l, err := (&notation.Linear{
		Register: [][]int{{0, 1}, {8, 0}},
		Lane:     [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
		Warp:     [][]int{}, Block: [][]int{},
	}).Layout(Frame{Shape: []int{16, 8}, SubgroupSize: 32, Subgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestSliceIsRowReduction(t *testing.T) {
	acc := mmaAccumulator(t)
	rows, err := acc.Slice(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := rows.Size(Register); got != 2 {
		t.Fatalf("after reducing columns a lane holds %d values, want 2 (rows groupID and groupID+8)", got)
	}
	for lane := range 32 {
		want := [][]int{{lane >> 2}, {lane>>2 + 8}}
		for v, h := range rows.Held(0, 0, lane) {
			if !slices.Equal(h.Index, want[v]) {
				t.Fatalf("lane %d value %d holds %v, want %v", lane, v, h.Index, want[v])
			}
		}
	}
	// Each row's reduction involves the 4 lanes of a quad.
	for r := range 16 {
		hs := rows.Holders([]int{r})
		if len(hs) != 4 {
			t.Fatalf("row %d is held by %d lanes, want 4", r, len(hs))
		}
		for _, h := range hs {
			if h.Lane>>2 != r%8 {
				t.Fatalf("row %d held by lane %d", r, h.Lane)
			}
		}
	}
	// Broadcasting the row values back along a new column dimension of 8
	// gives a layout in which every lane holds all 8 columns of its rows.
	b, err := rows.Broadcast(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Size(Register); got != 16 {
		t.Fatalf("broadcast holds %d values per lane, want 16", got)
	}
	for v, h := range b.Held(0, 0, 5) {
		want := []int{1 + 8*(v%2), v / 2}
		if !slices.Equal(h.Index, want) {
			t.Fatalf("broadcast lane 5 value %d holds %v, want %v", v, h.Index, want)
		}
	}
	// Slicing the broadcast dimension away gives the row layout back.
	back, err := b.Slice(1)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(rows) {
		t.Fatalf("slice(broadcast(rows)) != rows:\n%v\n%v", back, rows)
	}
}

func TestTransposeReshapeProduct(t *testing.T) {
	acc := mmaAccumulator(t)
	tr, err := acc.Transpose([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.Shape(), []int{8, 16}) {
		t.Fatalf("transposed shape %v", tr.Shape())
	}
	// Lane 5, value 3: row 1 + 8 = 9, column 2 + 1 = 3 before; [3, 9] after.
	if got := tr.Index(HwPoint{Value: 3, Lane: 5}); !slices.Equal(got, []int{3, 9}) {
		t.Fatalf("transposed lane 5 value 3 holds %v", got)
	}
	flat, err := acc.Reshape([]int{128})
	if err != nil {
		t.Fatal(err)
	}
	if got := flat.Index(HwPoint{Value: 3, Lane: 5}); !slices.Equal(got, []int{9*8 + 3}) {
		t.Fatalf("flattened lane 5 value 3 holds %v", got)
	}
	// Tiling the 16x8 accumulator by 2 warps along rows and 2 register
	// repeats along columns gives a 32x16 tile.
	tile, err := (&notation.Linear{Register: [][]int{{0, 1}}, Lane: [][]int{}, Warp: [][]int{{1, 0}}, Block: [][]int{}}).
		Layout(Frame{Shape: []int{2, 2}, SubgroupSize: 1, Subgroups: 2})
	if err != nil {
		t.Fatal(err)
	}
	prod, err := acc.Product(tile)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(prod.Shape(), []int{32, 16}) || prod.Size(Register) != 8 || prod.Size(Subgroup) != 2 {
		t.Fatalf("product: shape %v, %d values, %d subgroups", prod.Shape(), prod.Size(Register), prod.Size(Subgroup))
	}
	// Warp 1, lane 5, value 4+3: the inner value 3 at [9, 3], the outer
	// repeat 1 adds 8 columns, warp 1 adds 16 rows.
	if got := prod.Index(HwPoint{Value: 7, Lane: 5, Subgroup: 1}); !slices.Equal(got, []int{25, 11}) {
		t.Fatalf("product warp 1 lane 5 value 7 holds %v, want [25 11]", got)
	}
	// Reshape cannot split a repeat: 96 = 32 x 3 read as [32, 3] would
	// need the 3 innermost.
	l96, err := (&notation.Nested{SubgroupTile: []int{1}, BatchTile: []int{3}, OuterTile: []int{1}, ThreadTile: []int{32}, ElementTile: []int{1},
		SubgroupStrides: []int{0}, ThreadStrides: []int{1}}).Layout(Frame{Shape: []int{96}, SubgroupSize: 32, Subgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l96.Reshape([]int{32, 3}); err == nil {
		t.Fatal("reshape 96 -> 32x3 should not be expressible")
	}
	if r, err := l96.Reshape([]int{3, 32}); err != nil {
		t.Fatal(err)
	} else if got := r.Index(HwPoint{Value: 2, Lane: 7}); !slices.Equal(got, []int{2, 7}) {
		t.Fatalf("96 as 3x32: lane 7 value 2 holds %v", got)
	}
}

// Properties of the operations against the element-by-element meaning.
func TestOperationsPointwise(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 300 {
		f := modeltest.Frame(r, i%3 == 0)
		l, src := modeltest.Layout(r, f)
		if l == nil {
			continue
		}
		rank := l.Rank()
		// Transpose.
		perm := r.Perm(rank)
		tr, err := l.Transpose(perm)
		if err != nil {
			t.Fatal(err)
		}
		l.Each(func(p HwPoint, idx []int) {
			got := tr.Index(p)
			for k := range perm {
				if got[k] != idx[perm[k]] {
					t.Fatalf("%s: transpose %v of %v at %v = %v", src, perm, idx, p, got)
				}
			}
		})
		// Slice: the elements a lane holds, projected.
		d := r.IntN(rank)
		sl, err := l.Slice(d)
		if err != nil {
			t.Fatal(err)
		}
		for s := range l.Size(Subgroup) {
			for lane := range l.Size(Lane) {
				want := map[string]bool{}
				for _, h := range l.Held(0, s, lane) {
					want[key(slices.Delete(slices.Clone(h.Index), d, d+1))] = true
				}
				got := map[string]bool{}
				for _, h := range sl.Held(0, s, lane) {
					got[key(h.Index)] = true
				}
				if len(got) != len(want) {
					t.Fatalf("%s: slice %d: lane %d holds %d distinct, want %d", src, d, lane, len(got), len(want))
				}
				for k := range want {
					if !got[k] {
						t.Fatalf("%s: slice %d: lane %d lacks %s", src, d, lane, k)
					}
				}
			}
		}
		// Reshape to the flat vector and back.
		flat, err := l.Reshape([]int{l.Elements()})
		if err != nil {
			t.Fatal(err)
		}
		l.Each(func(p HwPoint, idx []int) {
			if got := flat.Index(p); got[0] != linearIndex(idx, l.Shape()) {
				t.Fatalf("%s: flattened %v at %v = %v", src, idx, p, got)
			}
		})
		back, err := flat.Reshape(l.Shape())
		if err != nil {
			t.Fatal(err)
		}
		if !back.Equal(l) {
			t.Fatalf("%s: reshape round trip differs", src)
		}
	}
}

func key(xs []int) string {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), ',')
	}
	return string(b)
}

func TestNewLayoutRejects(t *testing.T) {
	// Lanes 0..31 over a 16x8 tile with lane bits repeating: element [0, 1]
	// is held by no one.
	_, err := (&notation.Linear{Register: [][]int{{8, 0}, {0, 4}}, Lane: [][]int{{0, 2}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}).
		Layout(Frame{Shape: []int{16, 8}, SubgroupSize: 32, Subgroups: 1})
	e, ok := err.(*Error)
	if !ok || e.Code != CodeNotCovered {
		t.Fatalf("got %v, want a not-covered error", err)
	}
	if want := "element [0 1] is held by no lane"; !contains(e.Msg, want) {
		t.Fatalf("message %q lacks %q", e.Msg, want)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// RegistersAlong keeps which lane and subgroup hold each element and only
// reorders a lane's registers: a 4x8 tile whose lanes each hold a 2x2
// block, registers running down the columns first, gets its registers
// along the rows first, and a layout already so is returned as it is.
func TestRegistersAlong(t *testing.T) {
	colFirst, err := (&notation.Linear{
		Register: [][]int{{1, 0}, {0, 1}},
		Lane:     [][]int{{0, 2}, {0, 4}, {2, 0}},
	}).Layout(Frame{Shape: []int{4, 8}, SubgroupSize: 8, Subgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	rowFirst, err := colFirst.RegistersAlong([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if rowFirst.Equal(colFirst) {
		t.Fatal("the registers were not reordered")
	}
	for lane := range 8 {
		var want, got [][]int
		for r := range 4 {
			want = append(want, colFirst.Index(HwPoint{Value: r, Lane: lane}))
			got = append(got, rowFirst.Index(HwPoint{Value: r, Lane: lane}))
		}
		if slices.Equal(got[0], want[0]) && slices.Equal(got[1], want[2]) && slices.Equal(got[2], want[1]) && slices.Equal(got[3], want[3]) {
			continue
		}
		t.Errorf("lane %d holds %v, want %v with the middle registers swapped", lane, got, want)
	}
	if again, err := rowFirst.RegistersAlong([]int{1, 0}); err != nil || again != rowFirst {
		t.Errorf("a layout whose registers already run along the rows came back changed (%v)", err)
	}
}

// Joining puts the new last dimension in each lane's lowest register:
// value 2v + k of a lane is element k of the pair made of its value v
// (Triton's inferJoinOpEncoding); splitting it takes it out again, and a
// layout that holds the last dimension anywhere else does not split.
func TestJoinLastSplitLast(t *testing.T) {
	acc := mmaAccumulator(t)
	j, err := acc.JoinLast()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(j.Shape(), []int{16, 8, 2}) || j.Size(Register) != 2*acc.Size(Register) {
		t.Fatalf("joined: shape %v, %d registers", j.Shape(), j.Size(Register))
	}
	for lane := range 32 {
		src, held := acc.Held(0, 0, lane), j.Held(0, 0, lane)
		for v, h := range src {
			for k := range 2 {
				if want := append(slices.Clone(h.Index), k); !slices.Equal(held[2*v+k].Index, want) {
					t.Fatalf("lane %d value %d holds %v, want %v", lane, 2*v+k, held[2*v+k].Index, want)
				}
			}
		}
	}
	back, err := j.SplitLast()
	if err != nil || !back.Equal(acc) {
		t.Fatalf("split of the join: %v, %v; want the accumulator", back, err)
	}
	// The pair along the lanes (a broadcast's new registers are the
	// highest, not the lowest) does not split.
	b, err := acc.Broadcast(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if b.Size(Register) > 2 {
		if _, err := b.SplitLast(); err == nil {
			t.Fatalf("%v splits, but its last dimension is in its highest register", b)
		}
	}
}

// TestBatchLayout: a batch of 4 of the mma.sync accumulator over 2 warps
// holds matrix b in warp b % 2 and in the registers above the
// accumulator's own for b / 2, each matrix laid out as the accumulator
// (Triton's rank-3 #ttg.nvidia_mma with warpsPerCTA [2, 1, 1]).
func TestBatchLayout(t *testing.T) {
	acc := mmaAccumulator(t)
	l, err := BatchLayout(acc, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Shape(); !slices.Equal(got, []int{4, 16, 8}) || l.Size(Subgroup) != 2 || l.Size(Register) != 8 || l.Size(Lane) != 32 {
		t.Fatalf("shape %v, %d warps, %d registers", got, l.Size(Subgroup), l.Size(Register))
	}
	acc.Each(func(p HwPoint, idx []int) {
		for b := range 4 {
			q := HwPoint{Value: p.Value + 4*(b/2), Lane: p.Lane, Subgroup: b % 2}
			if got, want := l.Index(q), append([]int{b}, idx...); !slices.Equal(got, want) {
				t.Fatalf("%v holds %v, want %v", q, got, want)
			}
		}
	})
	if _, err := BatchLayout(acc, 4, 8); err == nil {
		t.Error("a batch of 4 over 8 warps: want an error")
	}
}
