package planner_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"planner/plans"
)

// Seed 004 asks of the flash-attention loop whether it runs in registers
// only or which values must go through shared memory, and of each
// reduction how many lanes and subgroups combine its results and how
// many hold them afterwards. The plan answers in words (text) and in
// numbers (JSON); each case states the answers of one graph.
func TestPlansAnswerSeed004(t *testing.T) {
	type reduction struct {
		op                       string
		lanes, subgroups         int // combined
		heldLanes, heldSubgroups int // holding each result afterwards
		first                    []int
		combines, held           string // the text's lines
	}
	type crossing struct{ value, op, how, why string }
	cases := []struct {
		graph, loop   string
		registersOnly bool
		crossings     []crossing
		reads         []string
		reductions    []reduction
	}{
		// 2 warps split the rows: the loop stays in registers, and each
		// row reduction combines the 4 lanes of a quad, which then all
		// hold the row's result.
		{graph: "flash_attention_2warps", loop: "kv", registersOnly: true, reads: []string{"k from Ks", "v from Vs"},
			reductions: []reduction{
				{"m_new", 4, 1, 4, 1, []int{0, 1, 2, 3}, "each result combines 4 lanes of one subgroup", "afterwards each result is held by 4 lanes of one subgroup (lanes 0–3 hold the first)"},
				{"l_new", 4, 1, 4, 1, []int{0, 1, 2, 3}, "each result combines 4 lanes of one subgroup", "afterwards each result is held by 4 lanes of one subgroup (lanes 0–3 hold the first)"},
			}},
		// 4 warps must split the columns of S: both row reductions meet
		// the other warp's partial results in shared memory, and P goes
		// through a shared-memory scratch to reach the second mma.
		{graph: "flash_attention_4warps", loop: "kv", reads: []string{"k from Ks", "v from Vs"},
			crossings: []crossing{
				{"m_new", "m_new", "reduction", "each result combines 2 subgroups"},
				{"l_new", "l_new", "reduction", "each result combines 2 subgroups"},
				{"pf", "acc_new", "conversion", "which the source holds only in another subgroup"},
			},
			reductions: []reduction{
				{"m_new", 4, 2, 4, 2, []int{0, 1, 2, 3}, "each result combines 4 lanes in each of 2 subgroups, 8 lanes in all", "afterwards each result is held by 4 lanes in each of 2 subgroups, 8 lanes in all (lanes 0–3 hold the first)"},
			}},
		// The loop's own copies to shared memory, read back by the
		// wgmma's operand loads, are values crossing shared memory.
		{graph: "sm90_wgmma_loop", loop: "k", reads: []string{},
			crossings: []crossing{
				{"a_g", "copy_to_shared@38", "buffer", "stored to buffer As and read back by a"},
				{"b_g", "copy_to_shared@49", "buffer", "stored to buffer Bs and read back by b"},
			}},
	}
	for _, c := range cases {
		t.Run(c.graph, func(t *testing.T) {
			p := solveFile(t, "testdata/graphs/"+c.graph+".toml")
			var text, js bytes.Buffer
			if err := p.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := p.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Ops map[string]struct {
					Lanes         int             `json:"lanes"`
					Subgroups     int             `json:"subgroups"`
					HeldLanes     int             `json:"held_by_lanes"`
					HeldSubgroups int             `json:"held_by_subgroups"`
					First         []int           `json:"first_held_by"`
					Loop          *plans.LoopPlan `json:"loop"`
				} `json:"ops"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			lp := doc.Ops[c.loop].Loop
			if lp == nil {
				t.Fatalf("the JSON gives loop %s no answer", c.loop)
			}
			if lp.RegistersOnly != c.registersOnly {
				t.Errorf("loop %s: registers_only %v, want %v", c.loop, lp.RegistersOnly, c.registersOnly)
			}
			if !slices.Equal(lp.Reads, c.reads) {
				t.Errorf("loop %s reads %q, want %q", c.loop, lp.Reads, c.reads)
			}
			if len(lp.Crossings) != len(c.crossings) {
				t.Errorf("loop %s: %d values cross shared memory (%+v), want %d", c.loop, len(lp.Crossings), lp.Crossings, len(c.crossings))
			}
			for i, w := range c.crossings {
				if i >= len(lp.Crossings) {
					break
				}
				got := lp.Crossings[i]
				if got.Value != w.value || got.Op != w.op || got.How != w.how || !strings.Contains(got.Why, w.why) {
					t.Errorf("crossing %d is %+v, want %%%s at %s (%s) because of %q", i, got, w.value, w.op, w.how, w.why)
				}
				line := "%" + w.value + " at " + w.op + " (" + w.how + "): "
				if !strings.Contains(text.String(), line) {
					t.Errorf("the text lacks the crossing %q", line)
				}
			}
			words := "each trip runs in registers only"
			if !c.registersOnly {
				words = "each trip passes " + plural(len(c.crossings), "value") + " through shared memory"
			}
			if !strings.Contains(unwrapped(text.String()), words) {
				t.Errorf("the text does not say %q", words)
			}
			for _, r := range c.reductions {
				o := doc.Ops[r.op]
				if o.Lanes != r.lanes || o.Subgroups != r.subgroups {
					t.Errorf("%s combines %d lanes of %d subgroups, want %d of %d", r.op, o.Lanes, o.Subgroups, r.lanes, r.subgroups)
				}
				if o.HeldLanes != r.heldLanes || o.HeldSubgroups != r.heldSubgroups || !slices.Equal(o.First, r.first) {
					t.Errorf("%s's results are held by %d lanes of %d subgroups (first by %v), want %d of %d (first by %v)",
						r.op, o.HeldLanes, o.HeldSubgroups, o.First, r.heldLanes, r.heldSubgroups, r.first)
				}
				for _, line := range []string{r.combines, r.held} {
					if !strings.Contains(unwrapped(text.String()), line) {
						t.Errorf("the text lacks %q", line)
					}
				}
			}
		})
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// unwrapped is a text plan with its lines broken at plans.TextWidth
// joined again and every run of spaces made one, so that a test finds a
// phrase wherever the writer broke it.
func unwrapped(text string) string {
	return strings.Join(strings.Fields(text), " ")
}
