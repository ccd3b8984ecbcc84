package planner_test

import (
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/notation"
)

// A load read by several lanes or subgroups is priced with the memory
// system's reuse, the same rule for plain vector loads and Intel's 2D
// block messages:
//
//   - lanes of one subgroup that read one sector share its transaction
//     (CUDA C++ Best Practices Guide, "Coalesced Access to Global
//     Memory": a warp's request costs the sectors it touches), so a
//     broadcast over lanes costs the distinct sectors only;
//   - of the subgroups of a block that read the same sectors, the first
//     read comes from L2 at global_sector and the others hit the core's
//     L1 at l1_sector, each subgroup charged the average (model's
//     ReusedSectorCost; the targets' l1_sector: sm_80 1, a quarter of the
//     128-byte shared-memory wavefront priced at 2, the L1 and shared
//     memory being one array; pvc 2, half of the 64-byte SLM access priced
//     at 4, L1 and SLM sharing one store).
//
// Each figure is derived here from the access itself: its instructions,
// the distinct 32-byte sectors each touches, the subgroups that repeat it.
// Before the rule, a copy over subgroups cost what the first read did
// (the sm_80 copy 4128 and the pvc A operand 264).
func TestLoadsPricedWithReuse(t *testing.T) {
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	// The weights the figures below are written with, from the target
	// files' [cost] tables.
	for name, w := range map[string][3]int64{"sm_80": {4, 1, 1}, "pvc": {4, 2, 1}} {
		got := lib.Targets[name].Weights
		if got.GlobalSector != w[0] || got.L1Sector != w[1] || got.Issue != w[2] {
			t.Fatalf("%s weighs global_sector %d, l1_sector %d, issue %d; the figures here take %v", name, got.GlobalSector, got.L1Sector, got.Issue, w)
		}
	}
	// average is the rule: sectors read by copies subgroups, each charged
	// ceil(sectors × (global + (copies-1) × l1) / copies).
	average := func(sectors, copies, global, l1 int64) int64 {
		return (sectors*(global+(copies-1)*l1) + copies - 1) / copies
	}
	f32, _ := model.ParseDType("f32")
	bf16, _ := model.ParseDType("bf16")
	// A 32x128 f32 tile, row-major (128 f32 = 512 bytes a row): a lane
	// holds a row's 128 values (16-byte vectors, 32 instructions), lanes
	// run down the rows, so each instruction touches one sector per
	// distinct row its lanes read.
	row := [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}}
	lanesDown := [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}
	cases := []struct {
		name    string
		target  string
		warps   int
		shape   []int
		dtype   model.DType
		linear  notation.Linear
		surface *model.Surface // a block message's surface; nil for vector loads
		record  string
		want    int64
	}{
		{
			name: "one warp, 32 rows", target: "sm_80", warps: 1, shape: []int{32, 128}, dtype: f32,
			linear: notation.Linear{Register: row, Lane: lanesDown},
			// 32 instructions × 32 sectors (one per lane's row) at 4, and 32 issues.
			want: 32*32*4 + 32,
		},
		{
			name: "lanes 16-31 copy lanes 0-15", target: "sm_80", warps: 1, shape: []int{16, 128}, dtype: f32,
			linear: notation.Linear{Register: row, Lane: [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}},
			// 16 distinct rows an instruction: 16 sectors, shared by the two
			// lanes that read each.
			want: 32*16*4 + 32,
		},
		{
			name: "two warps hold the same tile", target: "sm_80", warps: 2, shape: []int{32, 128}, dtype: f32,
			linear: notation.Linear{Register: row, Lane: lanesDown, Warp: [][]int{{0, 0}}},
			// Each warp reads the 1024 sectors of the one-warp case; of two
			// reads of each, one from L2 (4) and one from L1 (1).
			want: average(32*32, 2, 4, 1) + 32,
		},
		{
			name: "two warps hold halves", target: "sm_80", warps: 2, shape: []int{64, 128}, dtype: f32,
			linear: notation.Linear{Register: row, Lane: lanesDown, Warp: [][]int{{32, 0}}},
			// No copies: every sector from L2.
			want: 32*32*4 + 32,
		},
		{
			// A DPAS GEMM's A, 128x32 bf16, on 4x4 subgroups: the four
			// subgroups along N hold the same 32 rows (warp ids along N
			// first), each 2x4 messages of the 8x16 block load.
			name: "pvc DPAS A on 4x4 subgroups", target: "pvc", warps: 16, shape: []int{128, 32}, dtype: bf16,
			linear: notation.Linear{
				Register: [][]int{{1, 0}, {2, 0}, {4, 0}, {0, 16}, {8, 0}, {16, 0}},
				Lane:     [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}},
				Warp:     [][]int{{0, 0}, {0, 0}, {32, 0}, {64, 0}},
			},
			surface: &model.Surface{Width: 512, Height: 128, Pitch: 512, BaseAlignment: 64},
			record:  "block_load_2d_16b_8x16",
			// A message moves 8 rows × 32 bytes, 8 sectors (the record's
			// cost 32 at global_sector 4), read by 4 subgroups; 8 messages,
			// each with its issue.
			want: 8 * (average(8, 4, 4, 2) + 1),
		},
		{
			name: "pvc DPAS A on 16x1 subgroups", target: "pvc", warps: 16, shape: []int{128, 32}, dtype: bf16,
			linear: notation.Linear{
				Register: [][]int{{1, 0}, {2, 0}, {4, 0}, {0, 16}},
				Lane:     [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}},
				Warp:     [][]int{{8, 0}, {16, 0}, {32, 0}, {64, 0}},
			},
			surface: &model.Surface{Width: 512, Height: 128, Pitch: 512, BaseAlignment: 64},
			record:  "block_load_2d_16b_8x16",
			want:    2 * (8*4 + 1),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := lib.Targets[c.target]
			f := model.Frame{Shape: c.shape, SubgroupSize: target.SubgroupSize, Subgroups: c.warps}
			l, err := c.linear.Layout(f)
			if err != nil {
				t.Fatal(err)
			}
			op := &model.Op{Name: "x", Kind: model.OpLoad, Contiguous: 1, Surface: c.surface,
				Result: &model.Value{Name: "x", Shape: c.shape, DType: c.dtype}}
			ch := &model.OpChoice{}
			if c.record != "" {
				ch.Record = lib.Records[c.record]
			}
			got, method, err := model.OpCost(op, l, ch, target)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("cost %d (%s), want %d", got, method, c.want)
			}
		})
	}
}

// Every global block load record of every built-in target is priced with
// the one rule vector loads are: its fragment held by two subgroups alike
// costs, a message, the record's cost (its sectors at global_sector) read
// once from L2 and once from L1, averaged, where two subgroups holding
// other rows each pay the record's cost whole.
func TestEveryBlockLoadPricedWithReuse(t *testing.T) {
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tn := range lib.TargetNames() {
		target := lib.Targets[tn]
		recs, err := lib.RecordsOf(target, model.RecordLoadGlobal)
		if err != nil {
			t.Fatal(err)
		}
		w := target.Weights
		for _, r := range recs {
			bits := r.Fragment.DType.Bits
			if r.Transform == "vnni" || r.Fragment.DType.Bits > 16 {
				bits = 16 // VNNI and the transposing load are read for 16-bit data
			}
			frag := model.BlockFragment(r, bits)
			lin, err := notation.ExpressLinear(frag)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			rows, cols := frag.Shape()[0], frag.Shape()[1]
			dt, _ := model.ParseDType(map[int]string{16: "bf16", 32: "f32"}[bits])
			cost := func(warp [][]int, shape []int) int64 {
				l, err := (&notation.Linear{Register: lin.Register, Lane: lin.Lane, Warp: warp}).Layout(
					model.Frame{Shape: shape, SubgroupSize: target.SubgroupSize, Subgroups: 2})
				if err != nil {
					t.Fatalf("%s: %v", r.Name, err)
				}
				op := &model.Op{Name: "x", Kind: model.OpLoad, Contiguous: 1,
					Surface: &model.Surface{Width: 4096, Height: 4096, Pitch: 4096, BaseAlignment: 64},
					Result:  &model.Value{Name: "x", Shape: shape, DType: dt}}
				c, _, err := model.OpCost(op, l, &model.OpChoice{Record: r}, target)
				if err != nil {
					t.Fatalf("%s on %s: %v", r.Name, tn, err)
				}
				return c
			}
			apart := cost([][]int{{rows, 0}}, []int{2 * rows, cols})
			alike := cost([][]int{{0, 0}}, []int{rows, cols})
			if apart != r.Cost+w.Issue {
				t.Errorf("%s on %s: two subgroups with other rows pay %d a message, want the record's %d and the issue %d", r.Name, tn, apart, r.Cost, w.Issue)
			}
			if want := (r.Cost*(w.GlobalSector+w.L1Sector)+2*w.GlobalSector-1)/(2*w.GlobalSector) + w.Issue; alike != want {
				t.Errorf("%s on %s: two subgroups alike pay %d a message, want %d", r.Name, tn, alike, want)
			}
			checked++
		}
	}
	if checked < 6 {
		t.Fatalf("only %d block load records checked", checked)
	}
}

// An unplaced shared-memory access counts the bytes of distinct lanes: a
// warp whose lanes 16-31 read what lanes 0-15 read (the same words, a
// broadcast: CUDA C++ Programming Guide, "Shared Memory" of compute
// capability 5.x) moves 16 lanes × 16 bytes an instruction, 2 wavefronts
// of 128 bytes, not 4.
func TestSharedBroadcastCountsDistinctLanes(t *testing.T) {
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	target := lib.Targets["sm_80"]
	if w := target.Weights; w.SharedWavefront != 2 || w.Issue != 1 || target.Banks*target.BankBytes != 128 {
		t.Fatalf("sm_80 weighs a 128-byte wavefront %d and an issue %d; the figures here take 2 and 1", w.SharedWavefront, w.Issue)
	}
	row := [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}}
	for _, c := range []struct {
		name  string
		lane  [][]int
		shape []int
		want  int64
	}{
		// 32 instructions of 16-byte vectors: 32 distinct lanes are 4
		// wavefronts an instruction, 16 are 2.
		{"32 rows", [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, []int{32, 128}, 32 * (4*2 + 1)},
		{"lanes 16-31 copy lanes 0-15", [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}, []int{16, 128}, 32 * (2*2 + 1)},
	} {
		l, err := (&notation.Linear{Register: row, Lane: c.lane}).Layout(model.Frame{Shape: c.shape, SubgroupSize: 32, Subgroups: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, v := model.SharedAccessCost(l, 32, target); got != c.want || v != 4 {
			t.Errorf("%s: cost %d in %d-element vectors, want %d in 4", c.name, got, v, c.want)
		}
	}
}
