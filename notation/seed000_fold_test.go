package notation

import (
	"slices"
	"strings"
	"testing"

	"planner/model"
)

// Seed 000's subgroup example: vector<4x2xf16> with subgroup_tile [4, 2],
// subgroup_strides [1, 4] "will arrange the subgroups in the order:
// virtual_subgroups_ids: [0][0], [0][1], [1][0], [1][1], [2][0], [2][1],
// [3][0], [3][1] / subgroups_ids: 0, 4, 1, 5, 2, 6, 3, 7", and with
// num_subgroups = 4 "the subgroup used (say x) is x mod num_subgroups":
// 0, 0, 1, 1, 2, 2, 3, 3. The element [i][j] of the 4x2 vector is the tile
// of virtual subgroup [i][j] (every other tile is 1), so the tables below
// list, in that order, which subgroup holds each element.
func TestSeed000SubgroupFold(t *testing.T) {
	seed := &Nested{
		SubgroupTile: []int{4, 2}, BatchTile: []int{1, 1}, OuterTile: []int{1, 1},
		ThreadTile: []int{1, 1}, ElementTile: []int{1, 1},
		SubgroupStrides: []int{1, 4}, ThreadStrides: []int{0, 0},
	}
	cases := []struct {
		name      string
		subgroups int
		holders   []int // element [i][j] at 2*i+j -> the subgroup holding it
		perLane   int   // values each lane holds
	}{
		// The seed's list before "mod 4": with 8 subgroups nothing folds.
		{"8 subgroups", 8, []int{0, 4, 1, 5, 2, 6, 3, 7}, 1},
		// The seed's own case.
		{"4 subgroups (the seed)", 4, []int{0, 0, 1, 1, 2, 2, 3, 3}, 2},
		// The same rule with 2: 0, 4, 1, 5, 2, 6, 3, 7 mod 2.
		{"2 subgroups", 2, []int{0, 0, 1, 1, 0, 0, 1, 1}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := model.Frame{Shape: []int{4, 2}, SubgroupSize: 64, Subgroups: c.subgroups}
			l, err := seed.Layout(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Size(model.Register); got != c.perLane {
				t.Fatalf("%d values per lane, want %d", got, c.perLane)
			}
			for i := range 4 {
				for j := range 2 {
					var sgs []int
					for _, p := range l.Holders([]int{i, j}) {
						if !slices.Contains(sgs, p.Subgroup) {
							sgs = append(sgs, p.Subgroup)
						}
					}
					if want := c.holders[2*i+j]; !slices.Equal(sgs, []int{want}) {
						t.Fatalf("element [%d][%d] is held by subgroups %v, want only %d", i, j, sgs, want)
					}
				}
			}
			// Every lane of a subgroup holds the same (the thread tiles are
			// 1), and a subgroup's values run over the virtual subgroups
			// folded onto it in id order: subgroup s holds virtual
			// subgroups s, s+n, s+2n, ... as values 0, 1, 2, ...
			for s := range c.subgroups {
				var virt []int
				for v := range 8 {
					if v%c.subgroups == s {
						virt = append(virt, v)
					}
				}
				for _, lane := range []int{0, 63} {
					for v, h := range l.Held(0, s, lane) {
						id := h.Index[0] + 4*h.Index[1] // virtual id = sum(stride * virtual index)
						if id != virt[v] {
							t.Fatalf("subgroup %d lane %d value %d holds %v (virtual subgroup %d), want virtual subgroup %d", s, lane, v, h.Index, id, virt[v])
						}
					}
				}
			}
		})
	}
}

// Folding needs the span of subgroup ids to be a multiple of the count
// (the seed: "should be a multiple of number of subgroups in the
// harware"), to split at a digit, and to leave no unused ids above the
// count.
func TestNestedSubgroupFoldRefused(t *testing.T) {
	cases := []struct {
		name    string
		n       *Nested
		shape   []int
		sgs     int
		wantMsg string
	}{
		{"span not a multiple", &Nested{SubgroupTile: []int{6}, BatchTile: []int{1}, OuterTile: []int{1}, ThreadTile: []int{1}, ElementTile: []int{1}, SubgroupStrides: []int{1}, ThreadStrides: []int{0}},
			[]int{6}, 4, "not a multiple of the 4"},
		{"tile straddles the count", &Nested{SubgroupTile: []int{3, 4}, BatchTile: []int{1, 1}, OuterTile: []int{1, 1}, ThreadTile: []int{1, 1}, ElementTile: []int{1, 1}, SubgroupStrides: []int{1, 3}, ThreadStrides: []int{0, 0}},
			[]int{3, 4}, 4, "without splitting there"},
		{"unused ids above the count", &Nested{SubgroupTile: []int{4, 2}, BatchTile: []int{1, 1}, OuterTile: []int{1, 1}, ThreadTile: []int{1, 1}, ElementTile: []int{1, 1}, SubgroupStrides: []int{1, 8}, ThreadStrides: []int{0, 0}},
			[]int{4, 2}, 4, "the same data twice"},
		{"lanes do not fold", &Nested{SubgroupTile: []int{1}, BatchTile: []int{1}, OuterTile: []int{1}, ThreadTile: []int{64}, ElementTile: []int{1}, SubgroupStrides: []int{0}, ThreadStrides: []int{1}},
			[]int{64}, 4, "span 64 ids but there are only 32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sz := 32
			_, err := c.n.Layout(model.Frame{Shape: c.shape, SubgroupSize: sz, Subgroups: c.sgs})
			if err == nil || !strings.Contains(err.Error(), c.wantMsg) {
				t.Fatalf("got %v, want an error containing %q", err, c.wantMsg)
			}
		})
	}
}

// The folded layouts express back as nested layouts that fold the same way,
// and in every other notation that can say them.
func TestSeed000SubgroupFoldExpress(t *testing.T) {
	cases := []struct {
		name   string
		n      *Nested
		f      model.Frame
		want   string   // the nested attribute written back
		cannot []string // the notations that cannot write it
	}{
		{"the seed's 4x2 on 4 subgroups",
			&Nested{SubgroupTile: []int{4, 2}, BatchTile: []int{1, 1}, OuterTile: []int{1, 1}, ThreadTile: []int{1, 1}, ElementTile: []int{1, 1}, SubgroupStrides: []int{1, 4}, ThreadStrides: []int{0, 0}},
			model.Frame{Shape: []int{4, 2}, SubgroupSize: 64, Subgroups: 4},
			// Column j held as register j is the same layout, and needs no fold.
			"#iree_vector_ext.nested_layout<subgroup_tile = [4, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [1, 1], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [0, 0]>", nil},
		{"a dimension split across the count",
			&Nested{SubgroupTile: []int{8, 1}, BatchTile: []int{2, 1}, OuterTile: []int{1, 1}, ThreadTile: []int{4, 16}, ElementTile: []int{1, 1}, SubgroupStrides: []int{1, 0}, ThreadStrides: []int{16, 1}},
			model.Frame{Shape: []int{64, 16}, SubgroupSize: 64, Subgroups: 4},
			"#iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [2, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 1], subgroup_strides = [1, 0], thread_strides = [16, 1]>",
			// Dimension 0 is held by lane, register (batch), subgroup, then
			// register (folded) digits; a blocked layout has no register
			// digits between its lanes and warps.
			[]string{"blocked"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := c.n.Layout(c.f)
			if err != nil {
				t.Fatal(err)
			}
			n, err := ExpressNested(l)
			if err != nil {
				t.Fatal(err)
			}
			if got := n.Attr(); got != c.want {
				t.Fatalf("written back as\n%s\nwant\n%s", got, c.want)
			}
			var cannot []string
			for _, kind := range Kinds {
				nt, err := Express(kind, l)
				if err != nil {
					t.Logf("%s: %v", kind, err)
					cannot = append(cannot, kind)
					continue
				}
				back, err := nt.Layout(c.f)
				if err != nil || !back.Equal(l) {
					t.Fatalf("%s: %s does not give the layout back (%v)", kind, nt.Attr(), err)
				}
				if kind != "table" {
					t.Logf("%s: %s", kind, nt.Attr())
				}
			}
			if !slices.Equal(cannot, c.cannot) {
				t.Fatalf("%v cannot write it, want %v", cannot, c.cannot)
			}
		})
	}
}
