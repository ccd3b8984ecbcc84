package solver

import (
	"slices"
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
	best = Inf
	ok = enumerate(free, limit, func(choice []int) {
		if c := free.PBQP.Evaluate(choice); c < best && !within.overRegisters(choice) {
			best = c
		}
	})
	return best, ok
}

// enumerate calls visit with every choice of p's live candidates; false
// when there are more than limit.
func enumerate(p *Problem, limit int, visit func(choice []int)) bool {
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
			return true
		}
		live = append(live, cs)
		if n *= len(cs); n > limit {
			return false
		}
	}
	choice := make([]int, len(live))
	var walk func(k int)
	walk = func(k int) {
		if k == len(live) {
			visit(choice)
			return
		}
		for _, c := range live[k] {
			choice[k] = c
			walk(k + 1)
		}
	}
	walk(0)
	return true
}

// leastPeak is the register peak with every value at its fewest
// registers, whatever else it then breaks: no plan holds fewer.
func leastPeak(g *model.Graph, p *Problem) int {
	lv := model.LiveOn(g, p.Target)
	least := make([]int, len(lv.Ranges))
	edges := p.useEdges()
	for i, v := range g.Values {
		if _, ws := p.heldWords(v, edges); len(ws) > 0 && lv.Holder[i] == i {
			least[i] = slices.Min(ws)
		}
	}
	for j, h := range lv.Holdings {
		_, ws := p.holdingWords(h)
		least[len(g.Values)+j] = slices.Min(ws)
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
	for _, c := range smallBudgets(t) {
		g := *c.graph
		g.SpillRegisters = true
		free, err := Build(&g, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		g.SpillRegisters = false
		p, err := Build(&g, c.target, c.records)
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
		budget := c.target.Registers
		switch {
		case want >= Inf && res.Status != StatusInfeasible:
			t.Errorf("%s at %d registers: %v, cost %d; no plan fits", c.name, budget, res.Status, res.Cost)
		case want < Inf && (res.Status != StatusOptimal || res.Cost != want):
			t.Errorf("%s at %d registers: %v, cost %d; the cheapest plan within the budget costs %d", c.name, budget, res.Status, res.Cost, want)
		case want < Inf:
			cut++
			if got := model.AssignmentPeak(&g, c.target, res.Assignment).Registers; got > budget {
				t.Errorf("%s at %d registers: the plan holds %d", c.name, budget, got)
			}
		}
	}
	if tried < 5 || cut < 2 {
		t.Errorf("%d budgets tried, %d with a plan: too few to show anything", tried, cut)
	}
	t.Logf("%d budgets tried, %d with a plan, %d cut by branching", tried, cut, branched)
}

// smallBudgets lists the test graphs small enough to enumerate, each at
// budgets from its fewest registers to just under its plan's peak (the
// target a copy with that budget).
func smallBudgets(t *testing.T) []testGraph {
	var out []testGraph
	for _, c := range testGraphs(t) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		if _, small := bruteRegisters(p, p, 200000); !small {
			continue
		}
		res := Solve(p, Options{})
		if res.Assignment == nil {
			continue
		}
		peak := model.AssignmentPeak(c.graph, c.target, res.Assignment).Registers
		floor := leastPeak(c.graph, p)
		for _, budget := range []int{floor, (floor + peak) / 2, peak - 1} {
			if budget < 1 || budget >= peak {
				continue
			}
			tg := *c.target
			tg.Registers, tg.RegisterFile = budget, 0
			out = append(out, testGraph{c.name, c.graph, &tg, c.records})
		}
	}
	return out
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

// With registers = "spill", the plan chosen is the one of least cost
// plus spill cost: on every test graph small enough to enumerate, at
// budgets from its fewest registers to just under its plan's peak, the
// solver's answer equals the least total over all choices, each choice's
// spill cost counted as plans count it (model.AssignmentSpill). Where the
// price changes the plan is TestSpillPriceMovesThePlan's: since loads are
// streamed into their one mma or store, no small test graph holds a
// cheaper layout that costs registers.
func TestSpillPriceIsExact(t *testing.T) {
	tried, moved := 0, 0
	for _, c := range smallBudgets(t) {
		g := *c.graph
		g.SpillRegisters = true
		sp, err := Build(&g, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		want, unpriced, ok := bruteSpill(sp, &g, c.target, 200000)
		if !ok {
			continue
		}
		tried++
		budget := c.target.Registers
		res := Solve(sp, Options{})
		if res.Status != StatusOptimal || res.Cost != want {
			t.Errorf("%s at %d registers: %v, cost %d; the least cost with spills is %d", c.name, budget, res.Status, res.Cost, want)
			continue
		}
		if got := sp.PBQP.Evaluate(res.Choice) + model.AssignmentSpill(&g, c.target, res.Assignment).Cost; got != res.Cost {
			t.Errorf("%s at %d registers: the plan's cost and spills add up to %d, the solver says %d", c.name, budget, got, res.Cost)
		}
		if sp.PBQP.Evaluate(res.Choice) != unpriced {
			moved++ // the price chose another plan than the cheapest one
		}
	}
	if tried < 5 {
		t.Errorf("%d budgets tried: too few to show anything", tried)
	}
	t.Logf("%d budgets tried, %d where the price changed the plan", tried, moved)
}

// Two values live together, each cheapest in its larger layout, with
// registers = "spill": where the excess costs more than the smaller
// layouts do, the plan takes one small (the spill price moves it off the
// cheapest plan); where the budget holds both large, it spills nothing.
func TestSpillPriceMovesThePlan(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	g, err := tomlio.ParseGraph("two.toml", []byte(`target = "sm_80"
subgroups = 1
registers = "spill"
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
	tg := lib.Targets["sm_80"]
	if price := model.SpillPrice(tg, 1); price <= 10 {
		t.Fatalf("a register spilled at a point run once costs %d, no more than the smaller layout's 10", price)
	}
	for _, c := range []struct {
		budget int
		cost   int64
	}{
		{200, 0},  // both large
		{199, 10}, // one register over, spilled, costs more than one small
		{160, 10}, // one large, one small
	} {
		// x and y: choice 0 holds 100 registers at no cost, choice 1 holds
		// 50 at a cost of 10; z holds none.
		p := &Problem{Graph: g, Target: tg, PBQP: &pbqp.Problem{Cost: [][]int64{{0, 10}, {0, 10}, {0}}}}
		p.regs = &registerUse{budget: c.budget, spill: true, live: model.Live(g), node: []int{0, 1, 2}, words: [][]int{{100, 50}, {100, 50}, {0}}}
		sol, _ := p.solveSpilling(p.PBQP, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return pbqp.Solve(b, pbqp.Options{}), b })
		if sol.Status != StatusOptimal || sol.Cost != c.cost {
			t.Errorf("budget %d: %v, cost %d; want optimal, cost %d", c.budget, sol.Status, sol.Cost, c.cost)
		}
	}
}

// bruteSpill enumerates the choices of p (limit at most): the least cost
// plus spill cost, and the least cost alone.
func bruteSpill(p *Problem, g *model.Graph, tg *model.Target, limit int) (best, unpriced int64, ok bool) {
	best, unpriced = Inf, Inf
	ok = enumerate(p, limit, func(choice []int) {
		if c := p.PBQP.Evaluate(choice); c < Inf {
			unpriced = min(unpriced, c)
			best = min(best, c+model.AssignmentSpill(g, tg, p.Assignment(choice)).Cost)
		}
	})
	return best, unpriced, ok
}
