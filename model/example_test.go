package model_test

import (
	"fmt"

	"planner/model"
)

// The worked example of IREE's nested_layout documentation (seed 000):
// thread 16 of subgroup 0 holds rows 0 and 16 and columns 4..7 of every
// group of 16 columns, as a vector<2x16>.
func ExampleNested_Layout() {
	n := &model.Nested{
		SubgroupTile: []int{2, 1}, BatchTile: []int{2, 4}, OuterTile: []int{1, 1},
		ThreadTile: []int{16, 4}, ElementTile: []int{1, 4},
		SubgroupStrides: []int{1, 0}, ThreadStrides: []int{1, 16},
	}
	l, err := n.Layout(model.Frame{Shape: []int{64, 64}, SubgroupSize: 64, Subgroups: 4})
	if err != nil {
		panic(err)
	}
	for _, h := range l.Held(0, 0, 16)[:6] {
		fmt.Println(h.Value, h.Index)
	}
	fmt.Println(len(l.Held(0, 0, 16)), "values")
	// Output:
	// 0 [0 4]
	// 1 [0 5]
	// 2 [0 6]
	// 3 [0 7]
	// 4 [0 20]
	// 5 [0 21]
	// 32 values
}

// Converting the f32 accumulator of two mma.sync.m16n8k16 tiles into a
// layout where lane l holds 8 consecutive elements of row l/2 needs
// shuffles: lane l (for l >= 2) holds nothing of row l/2 (its rows are l/4
// and l/4 + 8), so it reads all 8 words from other lanes.
func ExampleAnalyze() {
	acc := &model.Linear{Register: [][]int{{0, 1}, {8, 0}, {0, 8}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}
	rows := &model.Blocked{SizePerThread: []int{1, 8}, ThreadsPerWarp: []int{16, 2}, WarpsPerCTA: []int{1, 1}, Order: []int{1, 0}}
	f := model.Frame{Shape: []int{16, 16}, SubgroupSize: 32, Subgroups: 1}
	src, _ := acc.Layout(f)
	dst, _ := rows.Layout(f)
	c, err := model.Analyze(src, dst, 32)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Kind, c.Rounds, "rounds,", c.Moves, "moves")
	// Output:
	// shuffle 8 rounds, 0 moves
}
