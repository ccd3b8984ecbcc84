package notation_test

import (
	"fmt"

	"planner/model"
	"planner/notation"
)

// The worked example of IREE's nested_layout documentation (seed 000):
// thread 16 of subgroup 0 holds rows 0 and 16 and columns 4..7 of every
// group of 16 columns, as a vector<2x16>.
func ExampleNested_Layout() {
	n := &notation.Nested{
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
