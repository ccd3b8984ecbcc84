package plans

import (
	"strings"
	"testing"

	"planner/model"
	"planner/notation"
)

// A round trip through a scratch whose 16-byte rows run along chosen
// tensor digits is replayed element by element, each of a lane's vector
// stores filling one aligned row with elements of its registers. The
// transpose of Triton's compiled testdata/triton/transpose_sm80 (a 64x64
// f16 tile from sizePerThread [8, 1] to [1, 8] on 4 warps): its rows run
// along the digits the destination's lanes 4, 8 and 16 select (dim1 bit
// 5, dim0 bits 0 and 1), which the source holds in registers; rows along
// dim1 bit 3, which the source's warps select, cannot be stored a row a
// vector.
func TestReplaySharedRows(t *testing.T) {
	const colMajor = `#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>`
	const rowMajor = `#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>`
	frame := model.Frame{Shape: []int{64, 64}, SubgroupSize: 32, Subgroups: 4}
	layout := func(text string) *model.Layout {
		tr, err := notation.ParseTriton(text, model.Pos{File: "test", Line: 1, Col: 1})
		if err != nil {
			t.Fatal(err)
		}
		l, err := tr.Layout(frame)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	ts := newTables(newPointCache())
	from, to := ts.of(layout(colMajor)), ts.of(layout(rowMajor))
	v := &model.Value{Name: "x", Shape: []int{64, 64}, DType: model.DType{Name: "f16", Bits: 16}}
	for _, c := range []struct {
		name        string
		row         []model.DigitRef
		store, load int
		want        string // "" when the replay passes
	}{
		{"Triton's rows", []model.DigitRef{{Axis: 1, Digit: 5}, {Axis: 0, Digit: 0}, {Axis: 0, Digit: 1}}, 8, 1, ""},
		{"a row across warps", []model.DigitRef{{Axis: 1, Digit: 3}, {Axis: 0, Digit: 0}, {Axis: 0, Digit: 1}}, 8, 1, "holds only part of the 8-element run"},
		{"a row the load reads in vectors", []model.DigitRef{{Axis: 1, Digit: 5}, {Axis: 0, Digit: 0}, {Axis: 0, Digit: 1}}, 8, 8, "takes only part of the 8-element run"},
		{"a digit twice", []model.DigitRef{{Axis: 1, Digit: 5}, {Axis: 1, Digit: 5}, {Axis: 0, Digit: 1}}, 8, 1, "no distinct binary digit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := &ConvPlan{Kind: "shared", ScratchBytes: 8192, ScratchOrder: []int{1, 0}, ScratchRow: c.row, StoreVector: c.store, LoadVector: c.load}
			err := replayShared(v, from, to, cp)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("the replay refuses it: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("replay: %v, want an error saying %q", err, c.want)
			}
		})
	}
}
