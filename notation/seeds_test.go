package notation

import (
	"slices"
	"sort"
	"testing"

	"planner/model"
)

// Seed 000 (IREE NestedLayoutAttr documentation): vector<64x64xf16> with
// subgroup_tile [2,1], batch_tile [2,4], outer_tile [1,1], thread_tile
// [16,4], element_tile [1,4], subgroup_strides [1,0], thread_strides
// [1,16], on 4 subgroups of 64 lanes.
func seed000() (*Nested, model.Frame) {
	return &Nested{
		SubgroupTile: []int{2, 1}, BatchTile: []int{2, 4}, OuterTile: []int{1, 1},
		ThreadTile: []int{16, 4}, ElementTile: []int{1, 4},
		SubgroupStrides: []int{1, 0}, ThreadStrides: []int{1, 16},
	}, model.Frame{Shape: []int{64, 64}, SubgroupSize: 64, Subgroups: 4}
}

// seed000Holds is the seed's own definition, written out: the vector is
// viewed as vector<[2x1]x[2x4]x[1x1]x[16x4]x[1x4]>, virtual_subgroup_id[i]
// = (subgroup_id / subgroup_stride[i]) % subgroup_tile[i] (0 when the stride
// is 0), likewise for threads, and a thread holds every batch, outer and
// element position at its subgroup and thread coordinates.
func seed000Holds(sg, lane int) [][2]int {
	vsg := [2]int{(sg / 1) % 2, 0}
	vt := [2]int{(lane / 1) % 16, (lane / 16) % 4}
	var out [][2]int
	for b0 := range 2 {
		for b1 := range 4 {
			for e1 := range 4 {
				i := (vsg[0]*2+b0)*16 + vt[0]
				j := ((vsg[1]*4+b1)*4+vt[1])*4 + e1
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

func TestSeed000Nested(t *testing.T) {
	n, f := seed000()
	l, err := n.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Size(model.Register); got != 32 {
		t.Fatalf("values per thread = %d, want 32 (a vector<2x16>)", got)
	}
	for sg := range 4 {
		for lane := range 64 {
			var got [][2]int
			rows, cols := map[int]bool{}, map[int]bool{}
			for _, h := range l.Held(0, sg, lane) {
				got = append(got, [2]int{h.Index[0], h.Index[1]})
				rows[h.Index[0]] = true
				cols[h.Index[1]] = true
			}
			if len(rows) != 2 || len(cols) != 16 {
				t.Fatalf("subgroup %d lane %d holds %d rows x %d cols, want the seed's vector<2x16>", sg, lane, len(rows), len(cols))
			}
			want := seed000Holds(sg, lane)
			sortPairs(got)
			sortPairs(want)
			if !slices.Equal(got, want) {
				t.Fatalf("subgroup %d lane %d holds %v, want %v", sg, lane, got, want)
			}
		}
	}
	// Subgroups 2 and 3 repeat subgroups 0 and 1.
	for lane := range 64 {
		for sg := range 2 {
			a, b := l.Held(0, sg, lane), l.Held(0, sg+2, lane)
			for v := range a {
				if !slices.Equal(a[v].Index, b[v].Index) {
					t.Fatalf("subgroup %d lane %d value %d holds %v but subgroup %d holds %v", sg+2, lane, v, b[v].Index, sg, a[v].Index)
				}
			}
		}
	}
	// Thread 16 holds [:,:,:,:,0,1,:,:]: thread coordinates (0, 1), so rows
	// 0 and 16 and columns 4..7 of each group of 16.
	held := l.Held(0, 0, 16)
	if !slices.Equal(held[0].Index, []int{0, 4}) || !slices.Equal(held[1].Index, []int{0, 5}) ||
		!slices.Equal(held[4].Index, []int{0, 20}) || !slices.Equal(held[16].Index, []int{16, 4}) {
		t.Fatalf("thread 16 holds %v", held)
	}
	// The distributed vector is <batch x outer x element> =
	// vector<2x4x1x1x1x4>, value = row-major position in it.
	for v, h := range held {
		b0, b1, e1 := v/16, v/4%4, v%4
		want := []int{b0 * 16, b1*16 + 4 + e1}
		if !slices.Equal(h.Index, want) {
			t.Fatalf("thread 16 value %d holds %v, want %v", v, h.Index, want)
		}
	}
}

func sortPairs(p [][2]int) {
	sort.Slice(p, func(i, j int) bool {
		if p[i][0] != p[j][0] {
			return p[i][0] < p[j][0]
		}
		return p[i][1] < p[j][1]
	})
}

// Seed 003 (XeGPU RFC): sg_layout [2,2], sg_data [32,128] on a 128x128
// tensor, order [1,0]: rows 0:31 and 64:95 go to subgroups [0,0] and [0,1]
// (ids 0 and 1), rows 32:63 and 96:127 to [1,0] and [1,1] (ids 2 and 3);
// each takes every column.
func TestSeed003SubgroupTable(t *testing.T) {
	x := &XeGPU{SgLayout: []int{2, 2}, SgData: []int{32, 128}, LaneLayout: []int{1, 16}, LaneData: []int{1, 1}, Order: []int{1, 0}}
	l, err := x.Layout(model.Frame{Shape: []int{128, 128}, SubgroupSize: 16, Subgroups: 4})
	if err != nil {
		t.Fatal(err)
	}
	table := map[int][]int{0: {0, 1}, 1: {2, 3}, 2: {0, 1}, 3: {2, 3}} // row block of 32 -> subgroup ids
	for i := range 128 {
		for j := range 128 {
			var sgs []int
			for _, p := range l.Holders([]int{i, j}) {
				if !slices.Contains(sgs, p.Subgroup) {
					sgs = append(sgs, p.Subgroup)
				}
			}
			if want := table[i/32]; !slices.Equal(sgs, want) {
				t.Fatalf("element [%d %d] is held by subgroups %v, want %v", i, j, sgs, want)
			}
		}
	}
}

// Seed 003: sg_layout [2], sg_data [32], lane_layout [16], lane_data [1] on
// a 128-element vector: subgroup 0 lane 0 owns 0, 16, 64 and 80.
func TestSeed003LaneWrapAround(t *testing.T) {
	x := &XeGPU{SgLayout: []int{2}, SgData: []int{32}, LaneLayout: []int{16}, LaneData: []int{1}}
	l, err := x.Layout(model.Frame{Shape: []int{128}, SubgroupSize: 16, Subgroups: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, h := range l.Held(0, 0, 0) {
		got = append(got, h.Index[0])
	}
	if want := []int{0, 16, 64, 80}; !slices.Equal(got, want) {
		t.Fatalf("subgroup 0 lane 0 owns %v, want %v", got, want)
	}
	// The same rule for every lane: lane l of subgroup s owns
	// l + 16k + 32s + 64u.
	for s := range 2 {
		for lane := range 16 {
			var got, want []int
			for _, h := range l.Held(0, s, lane) {
				got = append(got, h.Index[0])
			}
			for u := range 2 {
				for k := range 2 {
					want = append(want, lane+16*k+32*s+64*u)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("subgroup %d lane %d owns %v, want %v", s, lane, got, want)
			}
		}
	}
}

func TestSeedsExpressBack(t *testing.T) {
	n, f := seed000()
	l, err := n.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range Kinds {
		nt, err := Express(kind, l)
		if err != nil {
			t.Logf("%s: %v", kind, err)
			continue
		}
		back, err := nt.Layout(f)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if !back.Equal(l) {
			t.Fatalf("%s: round trip differs", kind)
		}
		if kind != "table" {
			t.Log(kind, nt.Attr())
		}
	}
}

// The mma.sync.m16n8k16 accumulator as CUTLASS writes its TV layout:
// SM80_16x8_Row in include/cute/atom/mma_traits_sm80.hpp is
// ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)) over a 16x8 tile. Written from
// the PTX ISA instead (groupID = lane >> 2 picks the row, 2 ×
// threadID_in_group + (i & 1) the column, c2 and c3 add 8 rows), the two
// must agree.
func TestCuTeMatchesPTXAccumulator(t *testing.T) {
	c := &CuTe{ThreadShape: []int{4, 8}, ThreadStride: []int{32, 1}, ValueShape: []int{2, 2}, ValueStride: []int{16, 8}}
	f := model.Frame{Shape: []int{16, 8}, SubgroupSize: 32, Subgroups: 1}
	l, err := c.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	for lane := range 32 {
		group, inGroup := lane>>2, lane%4
		for i, h := range l.Held(0, 0, lane) {
			row := group + 8*(i/2)
			col := inGroup*2 + i&1
			if !slices.Equal(h.Index, []int{row, col}) {
				t.Fatalf("lane %d value %d holds %v, PTX says [%d %d]", lane, i, h.Index, row, col)
			}
		}
	}
	back, err := ExpressCuTe(l)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Attr(); got != "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))" {
		t.Fatalf("printed %s", got)
	}
}

// The A operand of mma.sync.m16n8k16, typed in from the PTX ISA
// ("Matrix Fragments for mma.m16n8k16 with floating point type": row =
// groupID for a0, a1, a4, a5 and groupID + 8 for a2, a3, a6, a7; col =
// 2 × threadID_in_group + (i & 1), + 8 for a4..a7), written as CuTe gives
// MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::ALayout in NVIDIA/cutlass
// include/cute/atom/mma_traits_sm80.hpp. The two sources must agree.
func TestCuTeMatchesCUTLASSALayout(t *testing.T) {
	f := model.Frame{Shape: []int{16, 16}, SubgroupSize: 32, Subgroups: 1}
	cutlass := &CuTe{ThreadShape: []int{4, 8}, ThreadStride: []int{32, 1}, ValueShape: []int{2, 2, 2}, ValueStride: []int{16, 8, 128}}
	l, err := cutlass.Layout(f)
	if err != nil {
		t.Fatal(err)
	}
	for lane := range 32 {
		group, inGroup := lane>>2, lane%4
		for i, h := range l.Held(0, 0, lane) {
			row := group + 8*(i/2%2)
			col := inGroup*2 + i&1 + 8*(i/4)
			if !slices.Equal(h.Index, []int{row, col}) {
				t.Fatalf("lane %d a%d: CUTLASS gives %v, PTX [%d %d]", lane, i, h.Index, row, col)
			}
		}
	}
	back, err := ExpressCuTe(l)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Attr(); got != "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))" {
		t.Fatalf("printed %s", got)
	}
}
