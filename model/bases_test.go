package model

import "testing"

// basesLayout builds the layout over f whose register, lane and subgroup
// digits reach the tensor indices bases lists (one list per hardware
// axis, in that order, as a Triton linear layout writes them); every
// extent is a power of two.
func basesLayout(t *testing.T, f Frame, bases ...[][]int) *Layout {
	t.Helper()
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for h, bs := range bases {
		for _, b := range bs {
			hw[h] = append(hw[h], 2)
			var img Image
			for d, x := range b {
				for p := 0; x>>p > 0; p++ {
					if x>>p&1 == 1 {
						img = append(img, DigitRef{Axis: d, Digit: p})
					}
				}
			}
			images[h] = append(images[h], img)
		}
	}
	dims := make([]Radices, len(f.Shape))
	for d, s := range f.Shape {
		dims[d] = RadicesOf(s)
	}
	l, err := NewLayout(hw, dims, images)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
