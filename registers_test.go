package planner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/model"
	"planner/plans"
	"planner/tomlio"
)

// No plan exceeds its target's register budget unless the user allowed
// spilling, and then it says by how much: every golden plan, replayed
// from its plan file (its peak recomputed from its layouts), against the
// budget of the target record.
func TestNoPlanExceedsItsRegisterBudget(t *testing.T) {
	pl := testPlanner(t)
	files, _ := filepath.Glob("testdata/plans/*.toml")
	if len(files) < 30 {
		t.Fatalf("only %d golden plans", len(files))
	}
	spilled := 0
	for _, f := range files {
		r, err := pl.VerifyFile(context.Background(), f, "")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		reg := r.Plan.Registers
		budget := r.Target.RegisterBudget(r.Graph.Subgroups)
		if budget == 0 || reg.Budget != budget {
			t.Errorf("%s: the plan states a budget of %d, %s gives %d", f, reg.Budget, r.Target.Name, budget)
			continue
		}
		switch {
		case reg.Peak <= budget && reg.Over == 0:
		case !r.Graph.SpillRegisters:
			t.Errorf("%s: %d registers per lane at the peak, over the budget of %d, and the graph does not allow spilling", f, reg.Peak, budget)
		case reg.Over != reg.Peak-budget:
			t.Errorf("%s: %d registers per lane at the peak against %d, but the plan says %d over", f, reg.Peak, budget, reg.Over)
		default:
			spilled++
			text, err := os.ReadFile(strings.TrimSuffix(f, ".toml") + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d over the budget of %d: spilled", reg.Over, budget); !strings.Contains(strings.Join(strings.Fields(string(text)), " "), want) {
				t.Errorf("%s: the text plan does not say %q", f, want)
			}
		}
	}
	if spilled == 0 {
		t.Errorf("no golden plan spills: the statement of how much is not tested")
	}
}

// The peak of the 2-warp flash attention (seed 004) counted by hand: K,
// a 128x64 f16 tile that both warps hold whole for S = Q·Kᵀ, is 8192
// elements per warp over 32 lanes, 256 f16 or 128 registers per lane;
// the zero accumulator of S, 32x128 f32 over 64 lanes, 64; the output
// accumulator, 32x64 f32 over 64 lanes, 32; Q, 32x64 f16 split by rows
// over the warps, 1024 elements per warp over 32 lanes, 32 f16 or 16
// registers; the row statistics m and l, 16 rows per warp of which each
// lane holds 2 (rows g and g+8 of the mma accumulator), 2 each. Besides
// the values, the loop's counter, a 32-bit register (model/held.go; its
// 32 trips are a constant, so no bound is held), the stack pointer and
// thread index sm_80's kernels keep throughout (2), and the 2 registers
// ptxas counts and never names (reserved_registers): 249.
func TestFlashAttentionRegisterPeak(t *testing.T) {
	plan := solveFile(t, "testdata/graphs/flash_attention_2warps.toml")
	want := map[string]int{"k": 128, "s0": 64, "acc": 32, "q": 16, "m": 2, "l": 2, "counter of loop kv": 1, "stack pointer and thread index": 2,
		"registers ptxas reserves": 2}
	got := map[string]int{}
	for _, lv := range plan.Registers.Live {
		got[lv.Value+lv.Held] = lv.Registers
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || plan.Registers.Peak != 249 || plan.Registers.At != "at mma s" {
		t.Errorf("peak %d %s, live %v; want 249 at mma s, live %v", plan.Registers.Peak, plan.Registers.At, got, want)
	}
}

// The verifier refuses a plan over its budget where the graph does not
// allow spilling: the plan of a graph that spills, replayed against the
// same graph without registers = "spill". Its peak is x's 256 registers,
// the 64-bit address (2) of the store being issued, the stack pointer and
// thread index (2) and the registers ptxas reserves (2) (model/held.go).
func TestVerifyRefusesRegisterOverflow(t *testing.T) {
	data, err := os.ReadFile("testdata/unsat/registers_over_budget.toml")
	if err != nil {
		t.Fatal(err)
	}
	spill := golden.ReplaceOnce(t, string(data), "subgroups = 1\n", "subgroups = 1\nregisters = \"spill\"\n")
	res, err := testPlanner(t).SolveText(context.Background(), "spill.toml", []byte(spill), planner.Options{})
	if err != nil || res.Plan == nil {
		t.Fatalf("no plan with registers = \"spill\": %v %s", err, res.Why)
	}
	if r := res.Plan.Registers; r.Peak != 262 || r.Over != 7 || !r.Spill {
		t.Errorf("peak %d, %d over, spill %v; want 262, 7 over the budget of 255", r.Peak, r.Over, r.Spill)
	}
	g := *res.Graph
	g.SpillRegisters = false
	err = plans.Verify(&g, res.Search.Assignment, res.Plan)
	if err == nil || !strings.Contains(err.Error(), "does not allow spilling") {
		t.Errorf("verified against the graph that does not spill: %v", err)
	}
	var ve *plans.VerifyError
	if e, ok := err.(*plans.VerifyError); ok {
		ve = e
	}
	if ve == nil || len(ve.At) == 0 || ve.At[0].Value != "x" {
		t.Errorf("the refusal does not name %%x: %#v", err)
	}
}

// Where values are live, on a graph written here: a value made before a
// loop and read inside it lives through the loop's back edge; a carried
// value lives from the loop's start to its last read and its yield from
// where it is made to the back edge; a constant holds registers only
// where it is read; a broadcast's result stays in its operand's
// registers, which live as long as it is read; an operand read for the
// last time is dead after the op that reads it.
func TestLiveness(t *testing.T) {
	pl := testPlanner(t)
	g, err := tomlio.ParseGraph("live.toml", []byte(liveGraph), pl.Records.Targets)
	if err != nil {
		t.Fatal(err)
	}
	lv := model.Live(g)
	names := []string{}
	for _, p := range lv.Points {
		names = append(names, p.String())
	}
	want := map[string][]string{
		"w":    {"after load w", "at constant z", "after constant z", "at loop l", "entering loop l", "at broadcast wb", "after broadcast wb", "at load x", "after load x", "at add acc2", "after add acc2", "at mul y", "after mul y", "at store store@41", "after store store@41"},
		"z":    {"at loop l"},
		"acc":  {"entering loop l", "at broadcast wb", "after broadcast wb", "at load x", "after load x", "at add acc2"},
		"x":    {"after load x", "at add acc2"},
		"acc2": {"after add acc2", "at mul y", "after mul y", "at store store@41", "after store store@41"},
		"y":    {"after mul y", "at store store@41"},
		"wb":   nil, // in w's registers
		"out":  {"after loop l", "at store store@44"},
	}
	for i, v := range g.Values {
		w, ok := want[v.Name]
		if !ok {
			continue
		}
		var got []string
		for k := range lv.Points {
			if lv.LiveAt(i, k) {
				got = append(got, names[k])
			}
		}
		if strings.Join(got, ", ") != strings.Join(w, ", ") {
			t.Errorf("%%%s is live %v, want %v", v.Name, got, w)
		}
	}
}

// Where registers are plentiful a global load outside loops is live from
// where ptxas issues it (model.Hoisted): with the first op of the kernel,
// or the first after the last loop or global store before it. b is
// issued with a, the kernel's first load; c with f, the first op after
// the store of s; d with k, the first after the loop; x, inside the loop,
// where the graph has it. The floor (model.Live) has each from its load.
func TestHoistedLoads(t *testing.T) {
	pl := testPlanner(t)
	g, err := tomlio.ParseGraph("hoist.toml", []byte(hoistGraph), pl.Records.Targets)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lv   *model.Liveness
		want map[string][]string
	}{
		{model.LiveAmple(g, pl.Records.Targets["sm_80"]), map[string][]string{
			"b": {"after load a", "at exp e", "after exp e", "at load b", "after load b", "at add s"},
			"c": {"after exp f", "at load c", "after load c", "at add u"},
			"x": {"after load x", "at add y"},
			"d": {"after exp k", "at load d", "after load d", "at add z"},
		}},
		{model.Live(g), map[string][]string{
			"b": {"after load b", "at add s"},
			"c": {"after load c", "at add u"},
			"x": {"after load x", "at add y"},
			"d": {"after load d", "at add z"},
		}},
	} {
		for i, v := range g.Values {
			w, ok := c.want[v.Name]
			if !ok {
				continue
			}
			got := livePoints(c.lv, i)
			if strings.Join(got, ", ") != strings.Join(w, ", ") {
				t.Errorf("ample %v: %%%s is live %v, want %v", c.lv.Ample, v.Name, got, w)
			}
		}
	}
}

// livePoints names the program points where value i of lv's graph is
// live, in order.
func livePoints(lv *model.Liveness, i int) []string {
	var out []string
	for k, p := range lv.Points {
		if lv.LiveAt(i, k) {
			out = append(out, p.String())
		}
	}
	return out
}

// hoistGraph has loads before and after a store and a loop, and one in
// the loop (TestHoistedLoads).
const hoistGraph = `target = "sm_80"
subgroups = 1
[[op]]
kind = "load"
result = "a"
shape = [32]
dtype = "f32"
[[op]]
kind = "exp"
operands = ["a"]
result = "e"
[[op]]
kind = "load"
result = "b"
shape = [32]
dtype = "f32"
[[op]]
kind = "add"
operands = ["e", "b"]
result = "s"
[[op]]
kind = "store"
operands = ["s"]
[[op]]
kind = "exp"
operands = ["a"]
result = "f"
[[op]]
kind = "load"
result = "c"
shape = [32]
dtype = "f32"
[[op]]
kind = "add"
operands = ["f", "c"]
result = "u"
[[op]]
kind = "loop"
name = "l"
trips = 2
  [[op.body]]
  kind = "exp"
  operands = ["u"]
  result = "h"
  [[op.body]]
  kind = "load"
  result = "x"
  shape = [32]
  dtype = "f32"
  [[op.body]]
  kind = "add"
  operands = ["h", "x"]
  result = "y"
  [[op.body]]
  kind = "store"
  operands = ["y"]
[[op]]
kind = "exp"
operands = ["u"]
result = "k"
[[op]]
kind = "load"
result = "d"
shape = [32]
dtype = "f32"
[[op]]
kind = "add"
operands = ["k", "d"]
result = "z"
[[op]]
kind = "store"
operands = ["z"]
`

// liveGraph is a loop of 4 trips on sm_80 with values live around it
// (TestLiveness says where each is live).
const liveGraph = `target = "sm_80"
subgroups = 1
[[op]]
kind = "load"
result = "w"
shape = [32]
dtype = "f32"
[[op]]
kind = "constant"
result = "z"
shape = [32, 32]
dtype = "f32"
[[op]]
kind = "loop"
name = "l"
trips = 4
iter_args = ["acc"]
inits = ["z"]
yields = ["acc2"]
results = ["out"]
  [[op.body]]
  kind = "broadcast"
  operands = ["w"]
  dims = [1]
  shape = [32, 32]
  result = "wb"
  [[op.body]]
  kind = "load"
  result = "x"
  shape = [32, 32]
  dtype = "f32"
  [[op.body]]
  kind = "add"
  operands = ["acc", "x"]
  result = "acc2"
  [[op.body]]
  kind = "mul"
  operands = ["acc2", "wb"]
  result = "y"
  [[op.body]]
  kind = "store"
  operands = ["y"]
[[op]]
kind = "store"
operands = ["out"]
`

// The spill cost counted by hand on liveGraph with a budget of 4
// registers per lane. On sm_80 one warp-wide access of a 32-bit word per
// lane touches 4 sectors (128 bytes) and costs 4×4 + 1 = 17; a register
// spilled at a point run once costs a store and a load, 34, and at a
// point inside the 4-trip loop a store and 4 loads, 85. x (10 registers,
// live inside the loop) exceeds the budget by 6 there: 510; out (live
// after the loop) by out−4. The dearest point sets the cost.
func TestSpillCostByHand(t *testing.T) {
	pl := testPlanner(t)
	g, err := tomlio.ParseGraph("live.toml", []byte(liveGraph), pl.Records.Targets)
	if err != nil {
		t.Fatal(err)
	}
	tg := pl.Records.Targets["sm_80"]
	lv := model.Live(g)
	for _, c := range []struct {
		x, out int
		want   model.Spill
		at     string
	}{
		{10, 6, model.Spill{Cost: 510, Over: 6, Price: 85}, "after load x"},
		{10, 20, model.Spill{Cost: 544, Over: 16, Price: 34}, "after loop l"},
		{4, 4, model.Spill{}, "at no op"},
		{5, 0, model.Spill{Cost: 85, Over: 1, Price: 85}, "after load x"},
	} {
		words := make([]int, len(g.Values))
		for i, v := range g.Values {
			switch v.Name {
			case "x":
				words[i] = c.x
			case "out":
				words[i] = c.out
			}
		}
		got := lv.SpillCost(tg, 4, words)
		if got.Cost != c.want.Cost || got.Over != c.want.Over || got.Price != c.want.Price || got.At.String() != c.at {
			t.Errorf("x %d, out %d: %d (%d over %s at %d); want %d (%d over %s at %d)", c.x, c.out,
				got.Cost, got.Over, got.At, got.Price, c.want.Cost, c.want.Over, c.at, c.want.Price)
		}
	}
}

// A graph that allows spilling pays for it: fa_f16acc_sm80's plan spills,
// priced at its excess times the price per register. spill_priced.toml is
// seed002_ldmatrix_swizzle with registers = "spill": its A and B are
// streamed into the mma one K step at a time, so its plan (4106, as
// seed002_ldmatrix_swizzle's) stays within the budget and spills nothing.
func TestSpillIsPriced(t *testing.T) {
	plan := solveFile(t, "testdata/graphs/spill_priced.toml")
	if r := plan.Registers; plan.Cost != 4106 || r.Over != 0 || r.SpillCost != 0 || !r.Spill {
		t.Errorf("cost %d, %d over the budget at a spill cost of %d; want 4106 within the budget", plan.Cost, r.Over, r.SpillCost)
	}
	spills := solveFile(t, "testdata/graphs/fa_f16acc_sm80.toml").Registers
	if spills.Over == 0 || spills.SpillCost != int64(spills.SpillOver)*spills.SpillPrice || spills.SpillCost == 0 {
		t.Errorf("fa_f16acc_sm80 spills %d registers, priced %d (%d at %d each)", spills.Over, spills.SpillCost, spills.SpillOver, spills.SpillPrice)
	}
}

// What compilers fold and stream, on a graph written here (foldGraph):
// the add of an mma's result into the carried accumulator is folded into
// the mma, whose result and sum then live in the accumulator's registers
// and whose zero C is never written; A and B, each read by the mma
// alone, and the tile read by one store are streamed into their readers
// (live only where they are read), as is the B of the mma after the
// loop; its A, read by a store too, is held whole.
func TestLivenessFoldsAndStreams(t *testing.T) {
	pl := testPlanner(t)
	g, err := tomlio.ParseGraph("fold.toml", []byte(foldGraph), pl.Records.Targets)
	if err != nil {
		t.Fatal(err)
	}
	lv := model.Live(g)
	for _, c := range []struct {
		value    string
		streamed bool
		holder   string // the value whose registers it is in
		live     string // the points where it holds registers
	}{
		{"acc", false, "acc", "entering loop l .. after add s"},
		{"a", true, "a", "at mma d"},
		{"b", true, "b", "at mma d"},
		{"zero", false, "zero", ""},
		{"d", false, "acc", ""},
		{"s", false, "acc", ""},
		{"t", true, "t", "at store store@47"},
		{"w", false, "w", "after load w .. at store store@66"},
		{"u", true, "u", "at mma e"},
		{"e", false, "e", "after mma e .. at store store@69"},
	} {
		i := slices.IndexFunc(g.Values, func(v *model.Value) bool { return v.Name == c.value })
		if i < 0 {
			t.Fatalf("no value %%%s", c.value)
		}
		var pts []string
		for k, p := range lv.Points {
			if lv.LiveAt(i, k) {
				pts = append(pts, p.String())
			}
		}
		live := ""
		if len(pts) == 1 {
			live = pts[0]
		} else if len(pts) > 1 {
			live = pts[0] + " .. " + pts[len(pts)-1]
		}
		if lv.Streamed[i] != c.streamed || g.Values[lv.Holder[i]].Name != c.holder || live != c.live {
			t.Errorf("%%%s: streamed %v, in %%%s's registers, live %q; want %v, %%%s, %q",
				c.value, lv.Streamed[i], g.Values[lv.Holder[i]].Name, live, c.streamed, c.holder, c.live)
		}
	}
	// HeldWords: A (32x64) read one K step of 16 at a time holds a
	// quarter; a store's value one 16-byte vector; a value not streamed
	// all of it.
	for _, c := range []struct {
		value    string
		words, k int
		held     int
	}{
		{"a", 32, 16, 8}, {"b", 32, 16, 8}, {"a", 32, 0, 32}, {"a", 3, 16, 1}, {"t", 32, 0, 4}, {"w", 32, 16, 32},
	} {
		v := g.Value(c.value)
		if got := model.HeldWords(v, c.words, c.k); got != c.held {
			t.Errorf("HeldWords(%%%s, %d, %d) = %d, want %d", c.value, c.words, c.k, got, c.held)
		}
	}
}

// foldGraph is a K loop of 4 trips on sm_80 (TestLivenessFoldsAndStreams).
const foldGraph = `target = "sm_80"
subgroups = 1
[[op]]
kind = "constant"
result = "acc0"
shape = [32, 32]
dtype = "f32"
[[op]]
kind = "loop"
name = "l"
trips = 4
iter_args = ["acc"]
inits = ["acc0"]
yields = ["s"]
results = ["out"]
  [[op.body]]
  kind = "load"
  result = "a"
  shape = [32, 64]
  dtype = "f16"
  [[op.body]]
  kind = "load"
  result = "b"
  shape = [64, 32]
  dtype = "f16"
  [[op.body]]
  kind = "constant"
  result = "zero"
  shape = [32, 32]
  dtype = "f32"
  [[op.body]]
  kind = "mma"
  a = "a"
  b = "b"
  c = "zero"
  result = "d"
  [[op.body]]
  kind = "add"
  operands = ["acc", "d"]
  result = "s"
[[op]]
kind = "load"
result = "t"
shape = [32, 32]
dtype = "f32"
[[op]]
kind = "store"
operands = ["t"]
[[op]]
kind = "load"
result = "w"
shape = [32, 64]
dtype = "f16"
[[op]]
kind = "load"
result = "u"
shape = [64, 32]
dtype = "f16"
[[op]]
kind = "mma"
a = "w"
b = "u"
c = "out"
result = "e"
[[op]]
kind = "store"
operands = ["w"]
[[op]]
kind = "store"
operands = ["e"]
`

// sumLoop is a loop that loads x on every trip and adds it into a
// carried sum acc, from the zero z; the loop's result out is stored
// after it. x and acc are pinned to blocked layouts (the blocked keys of
// each pin: size_per_thread, threads_per_warp, warps_per_CTA, order).
type sumLoop struct {
	target       string
	subgroups    int
	shape        string // both tiles', "[32, 32]"
	trips        string // the loop's trip keys
	storeX       bool   // the body stores x after the add
	xPin, accPin [4]string
}

// text is the graph file of l.
func (l sumLoop) text() string {
	pin := func(name string, p [4]string) string {
		return fmt.Sprintf("[pins.%s]\nnotation = \"blocked\"\nsize_per_thread = %s\nthreads_per_warp = %s\nwarps_per_cta = %s\norder = %s\n", name, p[0], p[1], p[2], p[3])
	}
	store := ""
	if l.storeX {
		store = "  [[op.body]]\n  kind = \"store\"\n  operands = [\"x\"]\n"
	}
	return fmt.Sprintf(`target = %q
subgroups = %d
[[op]]
kind = "constant"
result = "z"
shape = %s
dtype = "f32"
[[op]]
kind = "loop"
name = "l"
%s
iter_args = ["acc"]
inits = ["z"]
yields = ["acc2"]
results = ["out"]
  [[op.body]]
  kind = "load"
  result = "x"
  shape = %s
  dtype = "f32"
  [[op.body]]
  kind = "add"
  operands = ["acc", "x"]
  result = "acc2"
%s[[op]]
kind = "store"
operands = ["out"]
`, l.target, l.subgroups, l.shape, l.trips, l.shape, store) + pin("x", l.xPin) + pin("acc", l.accPin)
}

// heldGraph loads a 32x32 f32 tile on every trip of a loop whose trip
// count is known only at run time and adds it into a carried sum, both
// in a layout whose lane holds rows r, r+1, r+2, r+3 (size_per_thread
// [4, 4] over threads_per_warp [8, 4]: 4 rows, 8 columns of each; on a
// 64-lane target [2, 4] over [16, 4]).
func heldGraph(target string) string {
	pin := [4]string{"[4, 4]", "[8, 4]", "[1, 1]", "[1, 0]"}
	if target == "gfx942" {
		pin[0], pin[1] = "[2, 4]", "[16, 4]"
	}
	return sumLoop{target: target, subgroups: 1, shape: "[32, 32]", trips: "trips = \"dyn\"\nassume_trips = 4", xPin: pin, accPin: pin}.text()
}

// What the compiled code holds besides the values, counted by hand on
// heldGraph from the rules of model/held.go and the PTX ISA's register
// widths ("Registers": a 64-bit address is a .b64 register, two 32-bit
// registers; an index or counter a .b32 register, one). Inside the loop
// where the add reads its operands the values hold acc and x, 32
// elements per lane each (32x32 over 32 lanes): 64. Besides them: the
// loop's counter (1) and, its trips known only at run time, its bound
// (1); the load's 64-bit base (2) and one 32-bit offset per row of the
// lane (4 rows: 4), both live through the loop; the stack pointer and
// thread index every sm_80 kernel keeps (2); the registers ptxas counts
// and never names (2). 76 in all on sm_80; a
// target that declares no widths (gfx942) counts the values alone.
func TestRegistersHeldBesidesValues(t *testing.T) {
	const address, index = 2, 1 // PTX ISA, "Registers"
	const thread = 2            // R1 and the thread's index, sm_80.toml's thread_registers
	const reserved = 2          // sm_80.toml's reserved_registers
	const rows = 4              // size_per_thread[0] 4, threads_per_warp[0] 8 cover the 32 rows once
	for _, c := range []struct {
		target string
		peak   int
		held   map[string]int
	}{
		{"sm_80", 32 + 32 + index + index + address + rows*index + thread + reserved, map[string]int{
			"counter of loop l": index, "bound of loop l": index, "base of load x": address, "row offsets of load x": rows * index,
			"stack pointer and thread index": thread, "registers ptxas reserves": reserved}},
		{"gfx942", 16 + 16, map[string]int{}}, // 64 lanes: 16 elements each
	} {
		text := heldGraph(c.target)
		res, err := testPlanner(t).SolveText(context.Background(), c.target+".toml", []byte(text), planner.Options{})
		if err != nil || res.Plan == nil {
			t.Fatalf("%s: no plan: %v %s", c.target, err, res.Why)
		}
		r := res.Plan.Registers
		held := map[string]int{}
		for _, lv := range r.Live {
			if lv.Held != "" {
				held[lv.Held] = lv.Registers
			}
		}
		if r.Peak != c.peak || r.At != "after load x" || fmt.Sprint(held) != fmt.Sprint(c.held) {
			t.Errorf("%s: peak %d %s, held %v; want %d after load x, held %v", c.target, r.Peak, r.At, held, c.peak, c.held)
		}
	}
}

// The register widths each target declares, from the vendors' ISAs: every
// NVIDIA target's PTX holds a global address in a 64-bit register (two
// 32-bit registers) and an index in a 32-bit one (PTX ISA, "Registers",
// "Addresses as Operands"); the others declare none, and count the
// values alone.
func TestTargetRegisterWidths(t *testing.T) {
	want := map[string][2]int{"sm_80": {2, 1}, "sm_89": {2, 1}, "sm_90": {2, 1}, "sm_100": {2, 1}, "sm_120": {2, 1}}
	for name, tg := range testPlanner(t).Records.Targets {
		if got := [2]int{tg.AddressRegisters, tg.IndexRegisters}; got != want[name] {
			t.Errorf("%s: address_registers %d, index_registers %d; want %v", name, got[0], got[1], want[name])
		}
	}
}

// The masks of Triton's accesses, their constancy read as Triton's
// AxisInfo finds it (mlir/ttgir/masks.go), and the registers the masks a
// lane holds beyond the 5 sm_80 keeps in predicate registers take
// (model/held.go),
// each counted by hand from the kernel's text:
//   - softmax_sm80 masks its rows (rows < n_rows) and its columns (cols <
//     n_cols), neither bound marked divisible: constancy 1 along both.
//     The plan's layout gives a lane one row of 16 columns (sizePerThread
//     [1, 8] over 32 lanes covers 256 of the 512 columns twice): 16
//     masks, 11 beyond the 5 in predicates, held from the load to the
//     store.
//   - transpose_sm80 compares its ranges with M and N, both marked
//     tt.divisibility = 16: constancy 16 along both, so a lane's 4 rows,
//     16 apart, and its 8 contiguous columns are 4 masks, within the 5.
//   - flash_attention_sm80 masks Q's rows alone, its columns broadcast:
//     constancy 16 along the rows (a bound divisible by 16), 0 along the
//     columns.
//   - matmul_bias_relu_sm80's loop masks A by rows (M, divisible by 16)
//     and by K - k*32 (both multiples of 16): constancy 16 along both.
//     That mask is computed in the loop body, so it is formed every trip
//     (EachTrip); the others are computed before any loop.
func TestMasksOfTritonAccesses(t *testing.T) {
	for _, c := range []struct {
		file, access string
		constancy    []int
		eachTrip     bool
		held         string // the masks' entry at the peak, "" where none is counted
		registers    int
	}{
		{"testdata/triton/softmax_sm80.ttgir", "x_21", []int{1, 1}, false, "masks of load x_21 to store tt.store@69", 16 - 5},
		{"testdata/triton/transpose_sm80.ttgir", "x_41", []int{16, 16}, false, "", 0},
		{"testdata/triton/flash_attention_sm80.ttgir", "q_21", []int{16, 0}, false, "", 0},
		// Inside the loop A's columns are compared with K - k*32, K marked
		// divisible by 16 and k*32 a multiple of 32: a multiple of 16.
		{"testdata/triton/matmul_bias_relu_sm80.ttgir", "a_59", []int{16, 16}, true, "", 0},
	} {
		res := solveTTGIRFile(t, c.file)
		var got []int
		eachTrip := false
		res.Graph.Walk(func(op *model.Op) {
			if op.Name == c.access && op.Mask != nil {
				got, eachTrip = op.Mask.Constancy, op.Mask.EachTrip
			}
		})
		if fmt.Sprint(got) != fmt.Sprint(c.constancy) || eachTrip != c.eachTrip {
			t.Errorf("%s: %s's mask constancy %v, each trip %v; want %v, %v", c.file, c.access, got, eachTrip, c.constancy, c.eachTrip)
		}
		held := 0
		for _, lv := range res.Plan.Registers.Live {
			if strings.HasPrefix(lv.Held, "masks of ") {
				if lv.Held != c.held {
					t.Errorf("%s: %q at the peak, want %q", c.file, lv.Held, c.held)
				}
				held = lv.Registers
			}
		}
		if held != c.registers {
			t.Errorf("%s: the masks hold %d registers at the peak, want %d", c.file, held, c.registers)
		}
	}
}

// The other rules of model/held.go and model.ReadsImmediate on Triton's
// kernels, each entry counted by hand, at the floor's peak (the plan's
// registers.peak) or at the estimate's (registers.estimate, where
// registers are plentiful: model.LiveAmple):
//   - softmax_sm80's max reduces a lane's 16 f32 (one row of 16 columns)
//     while they stay live for the subtraction: 8 partial results, in
//     the estimate.
//   - matmul_bias_relu_sm80's relu reads its zero as an immediate, so the
//     floor's peak is inside the loop at the mma: the accumulator (64x64
//     f32 over 128 lanes, 32), one K step of A and of B streamed (4
//     each), A's row offsets (4) and B's (2), their bases (2 each), the
//     loop's counter and run-time bound (1 each) and the stack pointer
//     and thread index (2) and the registers ptxas reserves (2): 56,
//     where the zero, a tile of 32, was counted.
//   - flash_attention_sm90's Q is read from shared memory in the loop as
//     the wgmma's A, 64x64 f16 over 128 lanes: 32 f16, 16 registers, 4
//     accesses of 16 bytes, 4 shared addresses through the loop, in the
//     estimate.
//   - matmul_bias_relu_sm80's mask of A is formed every trip (K - k*32):
//     in the plan's layout (a #ttg.dot_op of kWidth 8 on warps [2, 2])
//     lane 0 holds rows 0, 8, 32 and 40 and columns 0 to 7, so with a
//     constancy of 16 along both it compares 2 row coordinates and 1
//     column coordinate, 3 registers through the loop, in the estimate.
//   - transpose_sm80's store is masked by its own comparisons, made
//     after the load: in #blocked (sizePerThread [1, 8], threadsPerWarp
//     [4, 8], warps [4, 1]) a lane stores 4 rows 16 apart and 8
//     contiguous columns, with a constancy of 16 along both 4 row
//     coordinates and 1 column coordinate, 5 registers from the load to
//     the store. The estimate peaks at the store: the tile (64x64 f16
//     over 128 lanes, 16 registers), the address of the row being stored
//     (2) and of its other 3 rows (6), those 5 coordinates, the stack
//     pointer and thread index (2) and the registers ptxas reserves (2):
//     33.
//   - layernorm_sm80 loads w and b after both reductions, reading no
//     value, so in the estimate they are issued with the kernel's first
//     load, x (model.Hoisted), and held through the reductions. In the
//     plan's layouts x is #blocked (sizePerThread [1, 4], threadsPerWarp
//     [1, 32], warps [4, 1]: a lane holds 2 rows of 2 groups of 4
//     columns, 16 elements) and w and b #linear1 (a lane's 8 columns of
//     those): at the mean's reduction x in f32 (16), its 16 masks beyond
//     the 5 in predicates (11), w (8), b (8), the reduction's partial
//     results (8), w's 8 masks beyond the 5 (3), the stack pointer and
//     thread index (2) and the registers ptxas reserves (2): 58. Loaded
//     where the TTGIR has them, the estimate is the floor's 49.
func TestHeldRulesOnTritonKernels(t *testing.T) {
	for _, c := range []struct {
		file      string
		estimate  bool
		held      string
		registers int
		peak      int // 0: not checked
		absent    string
	}{
		{"testdata/triton/softmax_sm80.ttgir", true, "partial results of reduce max x_23", 8, 0, ""},
		{"testdata/triton/matmul_bias_relu_sm80.ttgir", false, "row offsets of load a_59", 4, 56, "cst@2"},
		{"testdata/triton/flash_attention_sm90.ttgir", true, "shared addresses of load_shared qk@a", 4, 0, ""},
		{"testdata/triton/matmul_bias_relu_sm80.ttgir", true, "mask coordinates of load a_59", 3, 0, ""},
		{"testdata/triton/transpose_sm80.ttgir", true, "mask coordinates of store tt.store@72 from load x_41", 5, 33, ""},
		{"testdata/triton/layernorm_sm80.ttgir", true, "w_39", 8, 58, ""},
	} {
		res := solveTTGIRFile(t, c.file)
		r := res.Plan.Registers
		got, peak := map[string]int{}, r.Peak
		for _, lv := range r.Live {
			got[lv.Value+lv.Held] = lv.Registers
		}
		if c.estimate {
			est := model.AssignmentEstimate(res.Graph, res.Target, res.Search.Assignment)
			if est.Registers != r.Estimate {
				t.Errorf("%s: the plan's estimate is %d, the model's %d", c.file, r.Estimate, est.Registers)
			}
			got, peak = map[string]int{}, est.Registers
			for _, lv := range est.Live {
				if lv.Value != nil {
					got[lv.Value.Name] = lv.Registers
				} else {
					got[lv.Holding.String()] = lv.Registers
				}
			}
		}
		if got[c.held] != c.registers {
			t.Errorf("%s: %q holds %d at the peak, want %d (live %v)", c.file, c.held, got[c.held], c.registers, got)
		}
		if c.peak != 0 && peak != c.peak {
			t.Errorf("%s: peak %d, want %d (live %v)", c.file, peak, c.peak, got)
		}
		if _, ok := got[c.absent]; c.absent != "" && ok {
			t.Errorf("%s: %%%s is live at the peak, want it read as an immediate", c.file, c.absent)
		}
	}
}

// solveTTGIRFile solves a TTGIR file as planner solve does, with no
// options.
func solveTTGIRFile(t *testing.T, path string) *planner.Result {
	t.Helper()
	return solveTTGIR(t, path, planner.Options{})
}

// solveTTGIR solves a TTGIR file with opt; a file with no plan fails the
// test.
func solveTTGIR(t *testing.T, path string, opt planner.Options) *planner.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := testPlanner(t).SolveText(context.Background(), path, data, opt)
	if err != nil || res.Plan == nil {
		t.Fatalf("%s: no plan: %v", path, err)
	}
	return res
}

// A conversion in the estimate (model.AssignmentEstimate), counted by
// hand on a loop that loads x (64x64 f32 over 128 lanes, 32 registers a
// lane) one element a lane at a time (sizePerThread [1, 1], each warp a
// row of 32 lanes) and adds it into an accumulator spread the other way
// (sizePerThread [4, 1], warps side by side along the columns): the add
// reads x in the accumulator's layout, so x goes through shared memory
// every trip, 32 stores of one element and 8 loads of 4 a lane.
//   - The copy in the accumulator's layout holds 32 registers at the add,
//     beside x's own 32, which the store after the add reads again.
//   - Its shared-memory addresses are kept through the loop: the 8
//     loads' 8, and of the 32 stores' addresses only SwizzlePhases (8),
//     the others an immediate away: 16.
//   - Where x has no other reader the copy takes over x's registers as
//     the conversion frees them and adds none.
func TestConversionsInTheEstimate(t *testing.T) {
	for _, c := range []struct {
		name          string
		graph         string
		copy, address int // 0: not at the peak
	}{
		{"x read again", convertGraph(true), 32, 16},
		{"x read once", convertGraph(false), 0, 16},
	} {
		res, err := testPlanner(t).SolveText(context.Background(), "convert.toml", []byte(c.graph), planner.Options{})
		if err != nil || res.Plan == nil {
			t.Fatalf("%s: no plan: %v", c.name, err)
		}
		est := model.AssignmentEstimate(res.Graph, res.Target, res.Search.Assignment)
		got := map[string]int{}
		for _, lv := range est.Live {
			if lv.Holding != nil {
				got[lv.Holding.String()] = lv.Registers
			}
		}
		if got["%x converted for add acc2"] != c.copy || got["shared addresses converting %x for add acc2"] != c.address {
			t.Errorf("%s: at the estimate's peak (%s) %v; want the copy %d, the addresses %d", c.name, est.Point, got, c.copy, c.address)
		}
	}
}

// convertGraph is TestConversionsInTheEstimate's loop: x, 64x64 f32 on
// 4 warps, one element a lane (each warp a row of 32 lanes), added into
// acc spread 4 rows a lane with the warps side by side along the
// columns; storeX stores x again after the add.
func convertGraph(storeX bool) string {
	return sumLoop{target: "sm_80", subgroups: 4, shape: "[64, 64]", trips: "trips = 4", storeX: storeX,
		xPin: [4]string{"[1, 1]", "[1, 32]", "[4, 1]", "[1, 0]"}, accPin: [4]string{"[4, 1]", "[16, 2]", "[1, 4]", "[0, 1]"}}.text()
}

// A square read only by a sum is added into the sum as it is made
// (model.ReducedAsMade), in the floor and the estimate: the layer
// normalisation example's variance, a mulf of the centred row read by a
// reduce alone, holds no more than one vector, so both peak after the
// bias is loaded at 56: the centred row (16x256 f32 over 128 lanes, 32),
// W and B (256 f32 a row, 8 a lane each), rstd (16 rows over 4 warps, 4
// a lane), the stack pointer and thread index (2) and the registers
// ptxas reserves (2). Held whole the square would add 32 after it is made.
func TestSquareReducedAsMade(t *testing.T) {
	res := solveTTGIRFile(t, "examples/ttgir/layernorm_sm80.ttgir")
	r := res.Plan.Registers
	if r.Peak != 56 || r.Estimate != 56 || r.At != "after load b" {
		t.Errorf("peak %d %s, estimate %d; want 56 after load b, both", r.Peak, r.At, r.Estimate)
	}
	i := slices.IndexFunc(res.Graph.Values, func(v *model.Value) bool { return v.Name == "17" })
	if i < 0 || !model.ReducedAsMade(res.Graph.Values[i]) {
		t.Errorf("%%17, the square, is not reduced as it is made (found: %v)", i >= 0)
	}
}
