package intrinsics

import (
	"strings"
	"testing"

	"planner/model"
)

// Seed 002's cases against the records themselves: the seed's 128x64 f16
// buffer padded by 4 elements every 2 rows is rejected by wmma.load for
// its stride; ldmatrix takes one pointer per row, so the stride does not
// matter to it, and it accepts the same padding by 8 elements (16 bytes),
// but not by 4, which leaves rows 2, 3, 6, 7, ... 8 bytes off the 16-byte
// alignment the PTX ISA's ldmatrix section requires ("a group of four
// consecutive threads loads 16 bytes. The matrix addresses must be
// naturally aligned accordingly"). The seed does not mention alignment;
// we follow the PTX ISA (model/memory_test.go says the same).
func TestSeed002AgainstRecords(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	seed := func(pad int) *model.SharedLayout {
		return &model.SharedLayout{Rows: 128, Cols: 64, Pad: pad, PadEvery: 2, ElemBits: 16, Swizzle: "none"}
	}
	cases := []struct {
		record string
		pad    int
		reject string
	}{
		{"wmma_load_a_m16n16k16_f16", 4, "one leading stride"},
		{"wmma_load_b_m16n16k16_f16", 4, "one leading stride"},
		{"wmma_load_a_m16n16k16_f16", 8, "one leading stride"},
		{"ldmatrix_x4", 4, "not 16-byte aligned"},
		{"ldmatrix_x4_trans", 4, "not 16-byte aligned"},
		{"ldmatrix_x4", 8, ""},
		{"ldmatrix_x1", 8, ""},
		{"ldmatrix_x4", 0, ""},
		{"wmma_load_a_m16n16k16_f16", 0, ""},
	}
	for _, c := range cases {
		r := lib.Records[c.record]
		if r == nil {
			t.Fatalf("no record %s", c.record)
		}
		err := r.Memory.Admits(seed(c.pad), [2]int{r.Fragment.Shape[0], r.Fragment.Shape[1]})
		switch {
		case c.reject == "" && err != nil:
			t.Errorf("%s, pad %d: rejected: %v", c.record, c.pad, err)
		case c.reject != "" && (err == nil || !strings.Contains(err.Error(), c.reject)):
			t.Errorf("%s, pad %d: %v, want a rejection saying %q", c.record, c.pad, err, c.reject)
		}
	}
}
