package planner_test

import (
	"strings"
	"testing"

	"planner"
	"planner/model"
	"planner/tomlio"
)

// The estimate's rules (model/held.go), each read off ptxas's SASS of a
// kernel of docs/compiled.md, checked on that kernel in the layouts it was
// read in (input true: Triton's), with the registers at the estimate's peak counted by hand from
// the kernel's encodings. A name maps to the registers it holds there; 0
// means it holds none (it is not live).
//
//   - layernorm_sm80, Triton's layouts: x is 8x256 in #blocked1
//     (sizePerThread [1, 8], threadsPerWarp [1, 32], warpsPerCTA [4, 1]),
//     2 rows of 8 columns a lane, so the centred row %d_31 is 16 f32. w
//     and b (256 f32 in #blocked, 2 a lane) are converted to the slice of
//     #blocked1 along dim 0, a lane's 8 columns: %y_44 and %y_48, 8 each.
//     rstd, 8 rows in the slice along dim 1, is 2 a lane; the product
//     %y_43 = %d_31·rstd, read only by the multiplication by w, is made
//     there (ComputedAtReader), so rstd is live through both conversions
//     and %y_43 never is. b's round trip is 1 store and 2 loads a lane:
//     3 addresses, outside any loop. With x's 16 masks beyond the 5 in
//     predicates (11), the stack pointer and thread index (2) and the
//     registers ptxas reserves (2): 52 after the second conversion.
//   - flash_attention_sm80, Triton's layouts: K (64x64 f16) as the mma's
//     B in #ttg.dot_op of #mma on warps [4, 1] is held whole by every
//     warp, 4096 elements over 32 lanes, 64 registers; its conversion is
//     the last thing mma qk waits for, inside the loop, so one K step of
//     the m16n8k16 record, 16 of 64, is held: 16. Q's copy (%q_53, 16 rows
//     a warp by 64, 16 registers) comes before K's round trip and is held
//     whole. 174 at the mma.
//   - chained_dots_sm80, Triton's layouts: the zero accumulator's
//     ttg.convert_layout (%23, 128x64 f32 from #blocked1 to #mma on warps
//     [4, 1], 64 registers) is a round trip, 16 stores and 32 loads a lane
//     (8 + 8 addresses), whose zero is stored from RZ and holds none. It
//     lies between B's conversion (%22, 64 registers) and the mma, which
//     therefore waits for it: A (%21, 32 rows a warp by 64, 32 registers)
//     and B are held whole. With c (64x64 f16 in #blocked, 16): 196.
//   - flash_attention_fwd_sm80, Triton's layouts: the layouts would hold
//     301 once the first mma's zero accumulator is converted, more than
//     sm_80's 255 a lane, so the estimate is the budget (ptxas -v reports
//     255 for it).
//
// And on two of the planner's own plans (input false), the copy a plan's
// conversion makes for an mma (model.StreamedCopy, and a load the mma
// reads in another layout held in its own):
//   - testdata/triton/flash_attention_sm80: the plan converts K (64x64
//     f16, 16 registers a lane in its load's layout) into the mma's B, 64
//     registers, inside the loop and after Q's: one K step, 16, beside
//     K's own 16. Q's copy (16) is held whole, as B's conversion follows
//     it. 182 at mma qk.
//   - examples/ttgir/chained_dots_sm80: the plan converts b the same way
//     outside any loop, where the copy is held whole: 64, less b's own
//     16 it takes over (b has no other reader), 48. c, which the second
//     mma reads converted, is held in its load's #blocked, 16, not in
//     the mma's 64. 192 at mma 24.
func TestEstimateRules(t *testing.T) {
	for _, c := range []struct {
		file             string
		input            bool // Triton's own layouts (--compare input), else the plan's
		estimate, demand int
		at               string
		held             map[string]int
		conversions      int // conversions priced; 0: not checked
	}{
		{"testdata/triton/layernorm_sm80.ttgir", true, 52, 0, "after shape_cast y_48", map[string]int{
			"d_31": 16, "y_44": 8, "y_48": 8, "rstd_37": 2, "y_43": 0,
			"shared addresses converting %b_41 for shape_cast y_48": 3,
			"masks of load x_24 to store tt.store@100":              11,
		}, 2},
		{"testdata/triton/flash_attention_sm80.ttgir", true, 174, 0, "at mma qk", map[string]int{
			"k_54": 16, "q_53": 16, "q_21": 16, "acc_28": 32,
		}, 0},
		{"examples/ttgir/chained_dots_sm80.ttgir", true, 196, 0, "after shape_cast 23", map[string]int{
			"21": 32, "22": 64, "23": 64, "c": 16, "cst_1": 0,
			"shared addresses converting %cst_1 for shape_cast 23": 16,
		}, 9},
		{"examples/ttgir/flash_attention_fwd_sm80.ttgir", true, 255, 301, "after shape_cast 42", nil, 9},
		{"testdata/triton/flash_attention_sm80.ttgir", false, 182, 0, "at mma qk", map[string]int{
			"%k_52 converted for mma qk": 16, "k_52": 16, "%q_21 converted for mma qk": 16,
		}, 0},
		{"examples/ttgir/chained_dots_sm80.ttgir", false, 192, 0, "at mma 24", map[string]int{
			"%b converted for mma 24": 48, "b": 16, "c": 16, "23": 64, "a": 32,
		}, 0},
	} {
		res := solveTTGIR(t, c.file, planner.Options{Input: planner.Input{InputLayouts: c.input}})
		r := res.Plan.Registers
		if r.Estimate != c.estimate || r.Demand != c.demand || r.EstimateAt != c.at {
			t.Errorf("%s (input %v): estimate %d (demand %d) %s; want %d (demand %d) %s", c.file, c.input, r.Estimate, r.Demand, r.EstimateAt, c.estimate, c.demand, c.at)
		}
		got := map[string]int{}
		for _, lv := range r.EstimateLive {
			got[lv.Value+lv.Held] = lv.Registers
		}
		for name, want := range c.held {
			if got[name] != want {
				t.Errorf("%s (input %v): %q holds %d at the estimate's peak, want %d (live %v)", c.file, c.input, name, got[name], want, got)
			}
		}
		if c.conversions != 0 && len(res.Plan.Conv) != c.conversions {
			t.Errorf("%s (input %v): %d conversions priced, want %d", c.file, c.input, len(res.Plan.Conv), c.conversions)
		}
	}
}

// An element-wise result read by one element-wise op is made where that
// op reads its operands (model.ComputedAtReader): in chainGraph y = x·s
// is read only by z = y·w, so where registers are plentiful y holds no
// registers and s is live to the multiplication by w (x is read again
// by exp); the floor keeps y from its op to z's. e = exp(x), read by a
// store, is not made at its reader.
func TestComputedAtReader(t *testing.T) {
	pl := testPlanner(t)
	g, err := tomlio.ParseGraph("chain.toml", []byte(chainGraph), pl.Records.Targets)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lv   *model.Liveness
		want map[string]string
	}{
		{model.LiveAmple(g, pl.Records.Targets["sm_80"]), map[string]string{
			"x": "after load x .. at exp e",
			"s": "after load x .. at mul z",
			"y": "",
			"e": "after exp e .. at store store@34",
		}},
		{model.Live(g), map[string]string{
			"x": "after load x .. at exp e",
			"s": "after load s .. at mul y",
			"y": "after mul y .. at mul z",
			"e": "after exp e .. at store store@34",
		}},
	} {
		for i, v := range g.Values {
			want, ok := c.want[v.Name]
			if !ok {
				continue
			}
			got := livePoints(c.lv, i)
			span := ""
			if len(got) > 0 {
				span = got[0] + " .. " + got[len(got)-1]
			}
			if span != want {
				t.Errorf("ample %v: %%%s is live %s, want %s (%s)", c.lv.Ample, v.Name, span, want, strings.Join(got, ", "))
			}
		}
	}
	for _, op := range g.Ops {
		want := op.Name == "y"
		if got := model.ComputedAtReader(op); got != want {
			t.Errorf("ComputedAtReader(%s %s) = %v, want %v", op.KindName(), op.Name, got, want)
		}
	}
}

// chainGraph is TestComputedAtReader's: y = x·s read only by z = y·w,
// and exp(x) stored.
const chainGraph = `target = "sm_80"
subgroups = 1
[[op]]
kind = "load"
result = "x"
shape = [32]
dtype = "f32"
[[op]]
kind = "load"
result = "s"
shape = [32]
dtype = "f32"
[[op]]
kind = "mul"
operands = ["x", "s"]
result = "y"
[[op]]
kind = "load"
result = "w"
shape = [32]
dtype = "f32"
[[op]]
kind = "mul"
operands = ["y", "w"]
result = "z"
[[op]]
kind = "store"
operands = ["z"]
[[op]]
kind = "exp"
operands = ["x"]
result = "e"
[[op]]
kind = "store"
operands = ["e"]
`
