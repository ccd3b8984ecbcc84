package model_test

import (
	"testing"

	. "planner/model"
	"planner/notation"
)

// A 128x128 tile over 4 warps: a blocked layout (each lane 8 consecutive
// columns) and the mma.sync.m16n8k16 accumulator tiled 2x2 over warps and
// repeated in registers; the conversion between them crosses warps.
func benchLayouts(b *testing.B) (*Layout, *Layout) {
	f := Frame{Shape: []int{128, 128}, SubgroupSize: 32, Subgroups: 4}
	blocked, err := (&notation.Blocked{SizePerThread: []int{1, 8}, ThreadsPerWarp: []int{2, 16}, WarpsPerCTA: []int{4, 1}, Order: []int{1, 0}}).Layout(f)
	if err != nil {
		b.Fatal(err)
	}
	acc, err := (&notation.Linear{
		Register: [][]int{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {16, 0}, {32, 0}},
		Lane:     [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
		Warp:     [][]int{{0, 64}, {64, 0}}, Block: [][]int{},
	}).Layout(f)
	if err != nil {
		b.Fatal(err)
	}
	return blocked, acc
}

func BenchmarkAnalyzeLinear(b *testing.B) {
	src, dst := benchLayouts(b)
	for b.Loop() {
		AnalyzeLinear(src, dst, 16)
	}
}

func BenchmarkAnalyzeByElements(b *testing.B) {
	src, dst := benchLayouts(b)
	for b.Loop() {
		AnalyzeByElements(src, dst, 16)
	}
}

// Within one warp: the accumulator of two m16n8k16 tiles to a row layout.
func BenchmarkAnalyzeShuffle(b *testing.B) {
	f := Frame{Shape: []int{16, 16}, SubgroupSize: 32, Subgroups: 1}
	src, _ := (&notation.Linear{Register: [][]int{{0, 1}, {8, 0}, {0, 8}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}).Layout(f)
	dst, _ := (&notation.Blocked{SizePerThread: []int{1, 8}, ThreadsPerWarp: []int{16, 2}, WarpsPerCTA: []int{1, 1}, Order: []int{1, 0}}).Layout(f)
	for b.Loop() {
		AnalyzeLinear(src, dst, 16)
	}
}

func BenchmarkNestedLayout(b *testing.B) {
	n := &notation.Nested{
		SubgroupTile: []int{2, 1}, BatchTile: []int{2, 4}, OuterTile: []int{1, 1},
		ThreadTile: []int{16, 4}, ElementTile: []int{1, 4},
		SubgroupStrides: []int{1, 0}, ThreadStrides: []int{1, 16},
	}
	f := Frame{Shape: []int{64, 64}, SubgroupSize: 64, Subgroups: 4}
	for b.Loop() {
		if _, err := n.Layout(f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpressAll(b *testing.B) {
	src, _ := benchLayouts(b)
	for b.Loop() {
		for _, k := range notation.Kinds {
			notation.Express(k, src)
		}
	}
}
