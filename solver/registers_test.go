package solver

import (
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/solver/pbqp"
	"planner/tomlio"
)

// bruteRegisters is the cheapest choice of free (a problem built with no
// register budget) that within (the same graph built with one) finds
// within its budget, every combination of live choices tried; ok is false
// when the problem has more than limit combinations. The choices come
// from free, so that a choice the budget forbids wrongly is still tried.
func bruteRegisters(free, within *Problem, limit int) (best int64, ok bool) {
	p := free
	var live [][]int
	n := 1
	for _, row := range p.PBQP.Cost {
		var cs []int
		for c, v := range row {
			if v < Inf {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			return Inf, true
		}
		live = append(live, cs)
		if n *= len(cs); n > limit {
			return 0, false
		}
	}
	best = Inf
	choice := make([]int, len(live))
	var walk func(k int)
	walk = func(k int) {
		if k == len(live) {
			if c := p.PBQP.Evaluate(choice); c < best && !within.overRegisters(choice) {
				best = c
			}
			return
		}
		for _, c := range live[k] {
			choice[k] = c
			walk(k + 1)
		}
	}
	walk(0)
	return best, true
}

// leastPeak is the register peak with every value at its fewest
// registers, whatever else it then breaks: no plan holds fewer.
func leastPeak(g *model.Graph, p *Problem) int {
	lv := model.Live(g)
	least := make([]int, len(g.Values))
	for i, v := range g.Values {
		if n := p.valueNode[v]; n != nil {
			least[i] = model.RegisterWords(n.Layouts[0], v.DType.Bits)
			for _, l := range n.Layouts {
				least[i] = min(least[i], model.RegisterWords(l, v.DType.Bits))
			}
		}
	}
	return lv.Peak(g, least).Registers
}

// The register budget is exact: on every small test graph, with its
// target's registers per lane cut below the plan's peak (to the least
// any plan could hold, halfway, and one less), the solver's plan is the cheapest within the budget that trying
// every combination of choices finds, proven optimal, and within the
// budget; or both find none.
func TestRegisterBudgetIsExact(t *testing.T) {
	tried, cut, branched := 0, 0, 0
	for _, c := range testGraphs(t) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		if _, small := bruteRegisters(p, p, 20000); !small {
			continue
		}
		res := Solve(p, Options{})
		if res.Assignment == nil {
			continue
		}
		peak := model.AssignmentPeak(c.graph, res.Assignment).Registers
		floor := leastPeak(c.graph, p)
		for _, budget := range []int{floor, (floor + peak) / 2, peak - 1} {
			tg := *c.target
			tg.Registers, tg.RegisterFile = budget, 0
			if budget < 1 || budget >= peak {
				continue
			}
			g := *c.graph
			g.SpillRegisters = true
			free, err := Build(&g, &tg, c.records)
			if err != nil {
				t.Fatal(err)
			}
			g.SpillRegisters = false
			p, err := Build(&g, &tg, c.records)
			if err != nil {
				t.Fatal(err)
			}
			if len(free.PBQP.Cost) != len(p.PBQP.Cost) {
				t.Fatalf("%s: %d nodes without the budget, %d with it", c.name, len(free.PBQP.Cost), len(p.PBQP.Cost))
			}
			want, ok := bruteRegisters(free, p, 20000)
			if !ok {
				continue
			}
			tried++
			res := Solve(p, Options{})
			if p.regs != nil && p.regs.branches > 0 {
				branched++
			}
			switch {
			case want >= Inf && res.Status != StatusInfeasible:
				t.Errorf("%s at %d registers: %v, cost %d; no plan fits", c.name, tg.Registers, res.Status, res.Cost)
			case want < Inf && (res.Status != StatusOptimal || res.Cost != want):
				t.Errorf("%s at %d registers: %v, cost %d; the cheapest plan within the budget costs %d", c.name, tg.Registers, res.Status, res.Cost, want)
			case want < Inf:
				cut++
				if got := model.AssignmentPeak(&g, res.Assignment).Registers; got > tg.Registers {
					t.Errorf("%s at %d registers: the plan holds %d", c.name, tg.Registers, got)
				}
			}
		}
	}
	if tried < 5 || cut < 2 {
		t.Errorf("%d budgets tried, %d with a plan: too few to show anything", tried, cut)
	}
	t.Logf("%d budgets tried, %d with a plan, %d cut by branching", tried, cut, branched)
}

// Two values live together, each cheapest in its larger layout: the
// budget fits one of them large but not both, which no choice alone
// breaks, so the plan that holds both large is cut by branching on caps,
// and the cheapest plan within the budget holds one large and one small.
func TestRegisterCapsBranch(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	g, err := tomlio.ParseGraph("two.toml", []byte(`target = "sm_80"
subgroups = 1
[[op]]
kind = "load"
result = "x"
shape = [32, 32]
dtype = "f32"
[[op]]
kind = "load"
result = "y"
shape = [32, 32]
dtype = "f32"
[[op]]
kind = "add"
operands = ["x", "y"]
result = "z"
[[op]]
kind = "store"
operands = ["z"]
`), lib.Targets)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		budget int
		status Status
		cost   int64
	}{
		{200, StatusOptimal, 0},   // both large
		{160, StatusOptimal, 10},  // one large, one small
		{100, StatusOptimal, 20},  // both small
		{90, StatusInfeasible, 0}, // not even both small
	} {
		// x and y: choice 0 holds 100 registers at no cost, choice 1 holds
		// 50 at a cost of 10; z holds none.
		p := &Problem{Graph: g, PBQP: &pbqp.Problem{Cost: [][]int64{{0, 10}, {0, 10}, {0}}}}
		p.regs = &registerUse{budget: c.budget, live: model.Live(g), node: []int{0, 1, 2}, words: [][]int{{100, 50}, {100, 50}, {0}}}
		sol, _ := p.solveWithinRegisters(p.PBQP, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return pbqp.Solve(b, pbqp.Options{}), b })
		if sol.Status != c.status || c.status == StatusOptimal && sol.Cost != c.cost {
			t.Errorf("budget %d: %v, cost %d; want %v, cost %d", c.budget, sol.Status, sol.Cost, c.status, c.cost)
		}
		if c.status == StatusOptimal && c.budget < 200 && p.regs.branches == 0 {
			t.Errorf("budget %d: decided without branching", c.budget)
		}
		if sol.Choice != nil && p.overRegisters(sol.Choice) {
			t.Errorf("budget %d: the plan %v overflows", c.budget, sol.Choice)
		}
	}
	// Out of branches, the answer is not proven and says it stopped at
	// the branch limit (Solve names that limit, not the time limit).
	defer func(n int) { maxRegisterBranches = n }(maxRegisterBranches)
	maxRegisterBranches = 0
	p := &Problem{Graph: g, PBQP: &pbqp.Problem{Cost: [][]int64{{0, 10}, {0, 10}, {0}}}}
	p.regs = &registerUse{budget: 160, live: model.Live(g), node: []int{0, 1, 2}, words: [][]int{{100, 50}, {100, 50}, {0}}}
	sol, _ := p.solveWithinRegisters(p.PBQP, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return pbqp.Solve(b, pbqp.Options{}), b })
	if sol.Status == StatusOptimal || !p.regs.limited {
		t.Errorf("with no branches left: %v, limited %v; want not proven, limited", sol.Status, p.regs.limited)
	}
}
