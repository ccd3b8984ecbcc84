package model_test

import (
	"fmt"

	"planner/model"
	"planner/notation"
)

// Converting the f32 accumulator of two mma.sync.m16n8k16 tiles into a
// layout where lane l holds 8 consecutive elements of row l/2 needs
// shuffles: lane l (for l >= 2) holds nothing of row l/2 (its rows are l/4
// and l/4 + 8), so it reads all 8 words from other lanes.
func ExampleAnalyze() {
	acc := &notation.Linear{Register: [][]int{{0, 1}, {8, 0}, {0, 8}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}
	rows := &notation.Blocked{SizePerThread: []int{1, 8}, ThreadsPerWarp: []int{16, 2}, WarpsPerCTA: []int{1, 1}, Order: []int{1, 0}}
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
