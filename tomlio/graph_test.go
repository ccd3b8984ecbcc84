package tomlio

import (
	"fmt"
	"strings"
	"testing"

	"planner/model"
	"planner/notation"
)

// graphWithPin is a graph on sm_80 (32 lanes) with the given subgroups
// that loads a 32×32 value x and pins it with the [pins.x] table body pin.
func graphWithPin(subgroups int, pin string) string {
	return fmt.Sprintf(`target = "sm_80"
subgroups = %d

[[op]]
kind = "load"
result = "x"
shape = [32, 32]
dtype = "f32"

[pins.x]
%s`, subgroups, pin)
}

// blockedLayout is a blocked layout of a 32×32 value over the given lanes
// and subgroups, each thread holding a block of it: a layout every
// notation can write.
func blockedLayout(t *testing.T, lanes, subgroups int, threads, warps []int) *model.Layout {
	t.Helper()
	spt := []int{32 / (threads[0] * warps[0]), 32 / (threads[1] * warps[1])}
	b := &notation.Blocked{SizePerThread: spt, ThreadsPerWarp: threads, WarpsPerCTA: warps, Order: []int{1, 0}}
	l, err := b.Layout(model.Frame{Shape: []int{32, 32}, SubgroupSize: lanes, Subgroups: subgroups})
	if err != nil {
		t.Fatalf("blocked %v %v over %d lanes × %d subgroups: %v", threads, warps, lanes, subgroups, err)
	}
	return l
}

// A pin written for another subgroup count or subgroup size than the
// graph's is read, in every notation, as an unrealisable pin whose
// explanation names both counts; a pin that fits is read as usual. Nested
// and xegpu layouts repeat over more subgroups than they name, so a pin
// for fewer subgroups fits in them. CuTe counts the threads of the block,
// not lanes and subgroups apart, so it names the subgroups those threads
// make. Nested layouts take subgroup ids modulo the count (seed 000), so a
// nested pin for more subgroups folds onto the graph's and only its lanes
// can fail to fit.
func TestPinSubgroupCounts(t *testing.T) {
	tests := []struct {
		name      string
		layout    *model.Layout // the pin, expressed in every notation that can
		subgroups int           // the graph's
		want      []string      // in Unrealisable; none: the pin fits
		cute      string        // in Unrealisable, for cute
		repeats   bool          // nested and xegpu repeat the pin: it fits
		folds     bool          // nested folds the subgroups: nested wants only
		nested    []string      // in Unrealisable for nested when folds; none: it fits
	}{
		{"4 subgroups in a graph of 2", blockedLayout(t, 32, 4, []int{4, 8}, []int{4, 1}), 2,
			[]string{"the layout spreads over 4 subgroups, but the graph has subgroups = 2"}, "", false, true, nil},
		{"2 subgroups in a graph of 4", blockedLayout(t, 32, 2, []int{4, 8}, []int{2, 1}), 4,
			[]string{"the layout spreads over 2 subgroups, but the graph has subgroups = 4"}, "", true, false, nil},
		{"1 subgroup in a graph of 2", blockedLayout(t, 32, 1, []int{4, 8}, []int{1, 1}), 2,
			[]string{"the layout spreads over 1 subgroup, but the graph has subgroups = 2"}, "", true, false, nil},
		{"64 lanes on a target of 32", blockedLayout(t, 64, 2, []int{8, 8}, []int{2, 1}), 2,
			[]string{"the layout spreads over 64 lanes per subgroup, but sm_80's subgroups have 32 lanes"},
			"the layout spreads over 4 subgroups, but the graph has subgroups = 2", false, false, nil},
		{"both counts", blockedLayout(t, 64, 4, []int{8, 8}, []int{4, 1}), 2,
			[]string{"4 subgroups of 64 lanes", "subgroups = 2", "sm_80's subgroups have 32 lanes"},
			"the layout spreads over 8 subgroups, but the graph has subgroups = 2", false,
			true, []string{"the layout spreads over 64 lanes per subgroup, but sm_80's subgroups have 32 lanes"}},
		{"fits", blockedLayout(t, 32, 2, []int{4, 8}, []int{2, 1}), 2, nil, "", false, false, nil},
	}
	for _, tc := range tests {
		for _, kind := range notation.Kinds {
			n, err := notation.Express(kind, tc.layout)
			if err != nil {
				continue // a layout not every notation writes; blocked always does
			}
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				var b strings.Builder
				WriteNotation(&b, n)
				g, err := ParseGraph("pin.toml", []byte(graphWithPin(tc.subgroups, b.String())), testTargets)
				if err != nil {
					t.Fatalf("%v\n%s", err, b.String())
				}
				pin := g.Value("x").Pin
				if pin == nil {
					t.Fatal("x is not pinned")
				}
				if pin.Notation == nil || pin.Notation.Kind() != kind || pin.Pos.Line != 10 {
					t.Errorf("the pin reads as %v at %s, want %s at line 10", pin.Notation, pin.Pos, kind)
				}
				if g.Notation != kind {
					t.Errorf("the graph's notation is %q, want the pin's %q", g.Notation, kind)
				}
				want := tc.want
				if kind == "cute" && tc.cute != "" {
					want = []string{tc.cute}
				}
				if tc.folds && kind == "nested" {
					want = tc.nested
					if len(want) == 0 {
						if pin.Layout == nil || pin.Unrealisable != "" {
							t.Errorf("a pin that folds reads as layout %v, unrealisable %q", pin.Layout, pin.Unrealisable)
						}
						return
					}
				}
				if tc.repeats && (kind == "nested" || kind == "xegpu") {
					if pin.Layout == nil || pin.Unrealisable != "" {
						t.Errorf("a pin that repeats reads as layout %v, unrealisable %q", pin.Layout, pin.Unrealisable)
					}
					return
				}
				if len(want) == 0 {
					if pin.Layout == nil || pin.Unrealisable != "" || !pin.Layout.Equal(tc.layout) {
						t.Errorf("a pin that fits reads as layout %v, unrealisable %q", pin.Layout, pin.Unrealisable)
					}
					return
				}
				if pin.Layout != nil {
					t.Errorf("an unrealisable pin has a layout")
				}
				for _, w := range want {
					if !strings.Contains(pin.Unrealisable, w) {
						t.Errorf("Unrealisable = %q, want it to say %q", pin.Unrealisable, w)
					}
				}
			})
		}
	}
}

// The notations' own count mismatches, written by hand: each pin is read
// as unrealisable, naming the counts.
func TestPinSubgroupCountsByHand(t *testing.T) {
	tests := []struct {
		name      string
		subgroups int
		pin       string
		want      string // "": the pin fits
	}{
		{"blocked warps_per_cta", 2, `notation = "blocked"
size_per_thread = [1, 4]
threads_per_warp = [4, 8]
warps_per_cta = [4, 1]
order = [1, 0]`, "the layout spreads over 4 subgroups, but the graph has subgroups = 2"},
		{"blocked threads_per_warp", 4, `notation = "blocked"
size_per_thread = [1, 4]
threads_per_warp = [8, 8]
warps_per_cta = [4, 1]
order = [1, 0]`, "the layout spreads over 64 lanes per subgroup, but sm_80's subgroups have 32 lanes"},
		{"nested subgroup tiles fold", 2, `notation = "nested"
subgroup_tile = [4, 1]
batch_tile = [1, 1]
outer_tile = [1, 1]
thread_tile = [4, 8]
element_tile = [2, 4]
subgroup_strides = [1, 0]
thread_strides = [8, 1]`, ""}, // folds: subgroup s holds virtual subgroups s and s+2
		{"nested subgroup strides", 2, `notation = "nested"
subgroup_tile = [4, 1]
batch_tile = [1, 1]
outer_tile = [1, 1]
thread_tile = [4, 8]
element_tile = [2, 4]
subgroup_strides = [4, 0]
thread_strides = [8, 1]`, "the layout spreads over 16 subgroups, but the graph has subgroups = 2"},
		// Subgroup ids are taken modulo the count (seed 000): virtual
		// subgroups 4..7 fold onto 0..3.
		{"nested folds onto fewer subgroups", 4, `notation = "nested"
subgroup_tile = [4, 1]
batch_tile = [1, 1]
outer_tile = [1, 1]
thread_tile = [4, 8]
element_tile = [2, 4]
subgroup_strides = [2, 0]
thread_strides = [8, 1]`, ""},
		{"nested repeats over more subgroups", 4, `notation = "nested"
subgroup_tile = [2, 1]
batch_tile = [1, 1]
outer_tile = [1, 1]
thread_tile = [4, 8]
element_tile = [4, 4]
subgroup_strides = [1, 0]
thread_strides = [8, 1]`, ""},
		{"xegpu sg_layout", 2, `notation = "xegpu"
sg_layout = [4, 1]
sg_data = [8, 32]
lane_layout = [2, 16]
lane_data = [1, 1]`, "the layout spreads over 4 subgroups, but the graph has subgroups = 2"},
		{"xegpu repeats over more subgroups", 8, `notation = "xegpu"
sg_layout = [4, 1]
sg_data = [8, 32]
lane_layout = [2, 16]
lane_data = [1, 1]`, ""},
		{"linear warp bases", 2, `notation = "linear"
register = [[0, 1], [0, 2], [0, 4]]
lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
warp = [[8, 0], [16, 0]]`, "the layout spreads over 4 subgroups, but the graph has subgroups = 2"},
		{"linear lane bases", 4, `notation = "linear"
register = [[0, 1], [0, 2]]
lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
warp = [[8, 0], [16, 0]]`, "the layout spreads over 64 lanes per subgroup, but sm_80's subgroups have 32 lanes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGraph("pin.toml", []byte(graphWithPin(tc.subgroups, tc.pin)), testTargets)
			if err != nil {
				t.Fatal(err)
			}
			pin := g.Value("x").Pin
			switch {
			case pin == nil:
				t.Fatal("x is not pinned")
			case tc.want == "" && (pin.Layout == nil || pin.Unrealisable != ""):
				t.Errorf("a pin that fits reads as layout %v, unrealisable %q", pin.Layout, pin.Unrealisable)
			case tc.want != "" && (pin.Layout != nil || pin.Unrealisable != tc.want):
				t.Errorf("Unrealisable = %q (layout %v), want %q", pin.Unrealisable, pin.Layout != nil, tc.want)
			}
		})
	}
}

// A pin with a count mismatch and another problem is an error, as before.
func TestPinCountAndOtherError(t *testing.T) {
	for _, pin := range []string{
		`notation = "blocked"
size_per_thread = [1, 4]
threads_per_warp = [4, 8]
warps_per_cta = [4, 1]
order = [1, 1]`,
		`notation = "blocked"
size_per_thread = [1, 4, 1]
threads_per_warp = [4, 8]
warps_per_cta = [4, 1]
order = [1, 0]`,
		`notation = "linear"
register = [[0, 1], [0, 2], [0, 4]]
lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
warp = [[8, 0], [16, 0], [0, 0]]
block = [[0, 1]]`,
	} {
		if _, err := ParseGraph("pin.toml", []byte(graphWithPin(2, pin)), testTargets); err == nil {
			t.Errorf("no error for the pin\n%s", pin)
		}
	}
}

// The graph's positions and flags: shared_memory (0 is a budget), the
// subgroups key, intrinsic and no_convert on ops, intrinsics on
// load_shared, and the hard list.
func TestGraphKeys(t *testing.T) {
	const head = "target = \"sm_80\"\nsubgroups = 4\n"
	const load = "\n[[op]]\nkind = \"load\"\nresult = \"x\"\nshape = [32, 32]\ndtype = \"f32\"\n"
	tests := []struct {
		name  string
		text  string
		check func(t *testing.T, g *model.Graph)
	}{
		{"no budget", head + load, func(t *testing.T, g *model.Graph) {
			if g.HasBudget || g.SharedBudget != 0 {
				t.Errorf("HasBudget %v, SharedBudget %d; want none", g.HasBudget, g.SharedBudget)
			}
			if g.SubgroupsPos.Line != 2 || g.SubgroupsPos.Col != 1 {
				t.Errorf("SubgroupsPos %s, want 2:1", g.SubgroupsPos)
			}
			if g.Hard != nil {
				t.Errorf("Hard = %v, want none", g.Hard)
			}
		}},
		{"a budget of zero", head + "shared_memory = 0\n" + load, func(t *testing.T, g *model.Graph) {
			if !g.HasBudget || g.SharedBudget != 0 || g.BudgetPos.Line != 3 {
				t.Errorf("HasBudget %v, SharedBudget %d at %s; want a budget of 0 at line 3", g.HasBudget, g.SharedBudget, g.BudgetPos)
			}
		}},
		{"a budget", head + "shared_memory = 49152\n" + load, func(t *testing.T, g *model.Graph) {
			if !g.HasBudget || g.SharedBudget != 49152 {
				t.Errorf("HasBudget %v, SharedBudget %d; want 49152", g.HasBudget, g.SharedBudget)
			}
		}},
		{"hard", head + "hard = [\"pin:x\", \"no_convert:x->d\",\n  \"shared_memory\"]\n" + load, func(t *testing.T, g *model.Graph) {
			want := []model.HardMark{
				{Name: "pin:x", Pos: model.Pos{File: "g.toml", Line: 3, Col: 9}},
				{Name: "no_convert:x->d", Pos: model.Pos{File: "g.toml", Line: 3, Col: 18}},
				{Name: "shared_memory", Pos: model.Pos{File: "g.toml", Line: 4, Col: 3}},
			}
			if fmt.Sprint(g.Hard) != fmt.Sprint(want) {
				t.Errorf("Hard = %v, want %v", g.Hard, want)
			}
		}},
		{"a K-major B of two atoms along K", head + "\n[buffers.B]\nshape = [128, 64]\ndtype = \"f16\"\nswizzle = \"128B\"\ncolumn_major = true\ncolumn_block = 64\n" + load,
			func(t *testing.T, g *model.Graph) {
				l := g.Buffers[0].Layout
				if !l.ColumnMajor || l.ColumnBlocks() != 2 || l.ByteOffset(64, 0) != 8192 || l.ByteOffset(0, 1) != 144 {
					t.Errorf("B is placed %s: (64, 0) at %d, (0, 1) at %d; want column major in 2 column blocks, at 8192 and 144", l, l.ByteOffset(64, 0), l.ByteOffset(0, 1))
				}
			}},
		{"load_shared intrinsic", head + "\n[buffers.K]\nshape = [64, 64]\ndtype = \"f16\"\n\n[[op]]\nkind = \"load_shared\"\nbuffer = \"K\"\nintrinsic = \"ldmatrix_x4\"\nresult = \"k\"\n\n[[op]]\nkind = \"load_shared\"\nbuffer = \"K\"\nresult = \"k2\"\n",
			func(t *testing.T, g *model.Graph) {
				k, k2 := g.Ops[0], g.Ops[1]
				if k.Intrinsic != "ldmatrix_x4" || k.IntrinsicPos.Line != 11 || k.IntrinsicPos.Col != 1 {
					t.Errorf("intrinsic %q at %s, want ldmatrix_x4 at 11:1", k.Intrinsic, k.IntrinsicPos)
				}
				if k2.Intrinsic != "" || k2.IntrinsicPos != (model.Pos{}) || k2.NoConvertPos != (model.Pos{}) {
					t.Errorf("intrinsic %q at %s, no_convert at %s; want none", k2.Intrinsic, k2.IntrinsicPos, k2.NoConvertPos)
				}
			}},
		{"mma intrinsic and no_convert", head + `
[[op]]
kind = "load"
result = "a"
shape = [16, 16]
dtype = "f16"

[[op]]
kind = "load"
result = "b"
shape = [16, 8]
dtype = "f16"

[[op]]
kind = "load"
result = "c"
shape = [16, 8]
dtype = "f32"

[[op]]
kind = "mma"
operands = ["a", "b", "c"]
intrinsic = "mma_m16n8k16_f32_f16"
no_convert = ["a"]
result = "d"
`, func(t *testing.T, g *model.Graph) {
			d := g.Ops[3]
			if d.Intrinsic != "mma_m16n8k16_f32_f16" || d.IntrinsicPos.Line != 25 {
				t.Errorf("intrinsic %q at %s, want mma_m16n8k16_f32_f16 at line 25", d.Intrinsic, d.IntrinsicPos)
			}
			if d.NoConvertPos.Line != 26 || d.NoConvertPos.Col != 1 || len(d.NoConvert) != 3 || !d.NoConvert[0] {
				t.Errorf("no_convert %v at %s, want a at 26:1", d.NoConvert, d.NoConvertPos)
			}
		}},
		{"intrinsics unchecked without the target's records", `target = "pvc"
subgroups = 4

[buffers.K]
shape = [64, 64]
dtype = "f16"

[[op]]
kind = "load_shared"
buffer = "K"
intrinsic = "block_2d_load"
result = "k"
`, func(t *testing.T, g *model.Graph) {
			if g.Ops[0].Intrinsic != "block_2d_load" {
				t.Errorf("intrinsic %q", g.Ops[0].Intrinsic)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGraph("g.toml", []byte(tc.text), testTargets)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, g)
		})
	}
}
