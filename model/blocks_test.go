package model_test

import (
	"testing"

	. "planner/model"
	"planner/notation"
)

func linearLayout(t *testing.T, x *notation.Linear, shape []int, lanes, subgroups int) *Layout {
	t.Helper()
	l, err := x.Layout(Frame{Shape: shape, SubgroupSize: lanes, Subgroups: subgroups})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Converting into a layout that holds each element in several lanes (the
// RDNA3 WMMA A operand: lanes 16-31 repeat lanes 0-15) fills every copy.
// Within a wave it is a broadcast by shuffles: a 16x16 f16 tile whose
// lanes 0-15 hold k 0-7 of row lane % 16 and lanes 16-31 k 8-15 needs
// each lane to fetch the 8 values (4 words) its partner lane ^ 16 holds.
// Across waves it is a round trip through shared memory in which every
// copy is loaded: the bytes read are the destination's points, twice the
// tensor per wave.
func TestConversionIntoDuplicatedLayout(t *testing.T) {
	wmmaA := &notation.Linear{ // lane l holds row l % 16, all 16 k
		Register: [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}},
		Lane:     [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}},
		Warp:     [][]int{}, Block: [][]int{},
	}
	halves := &notation.Linear{ // lane l holds row l % 16, k 8 * (l / 16) + v
		Register: [][]int{{0, 1}, {0, 2}, {0, 4}},
		Lane:     [][]int{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}},
		Warp:     [][]int{}, Block: [][]int{},
	}
	dst := linearLayout(t, wmmaA, []int{16, 16}, 32, 1)
	c, err := Analyze(linearLayout(t, halves, []int{16, 16}, 32, 1), dst, 16)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != ConvShuffle || c.Rounds != 4 || c.Words != 8 {
		t.Errorf("into the duplicated A: %v, %d rounds, %d words; want shuffle, 4 rounds (8 f16 from lane ^ 16), 8 words", c.Kind, c.Rounds, c.Words)
	}

	// Two waves, each with 8 rows, into both waves holding all 16 rows
	// twice (lanes and the wave both repeat).
	split := &notation.Linear{
		Register: [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}},
		Lane:     [][]int{{1, 0}, {2, 0}, {4, 0}, {0, 0}, {0, 0}},
		Warp:     [][]int{{8, 0}}, Block: [][]int{},
	}
	both := &notation.Linear{
		Register: wmmaA.Register, Lane: wmmaA.Lane,
		Warp: [][]int{{0, 0}}, Block: [][]int{},
	}
	c, err = Analyze(linearLayout(t, split, []int{16, 16}, 32, 2), linearLayout(t, both, []int{16, 16}, 32, 2), 16)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != ConvShared || c.StoreBytes != 512 || c.LoadBytes != 2*32*16*2 {
		t.Errorf("across waves into copies: %v, %d bytes stored, %d loaded; want shared, 512 stored, 2048 loaded (32 lanes x 16 values x 2 waves)", c.Kind, c.StoreBytes, c.LoadBytes)
	}
}
