package solver

import (
	"bytes"
	"maps"
	goldenfile "planner/internal/golden"
	"slices"
	"strings"
	"testing"

	"planner/model"
	"planner/plans"
	"planner/solver/pbqp"
)

// The facts each unsat graph's core must consist of, written from the
// graph's own comment: what really collides there, nothing more.
var wantCores = map[string][]string{
	"budget_scratch":                {"pin:x", "pin:y", "rule:y.0", "shared_memory"},
	"max_conversions_bound":         {"max_conversions", "pin:x", "pin:y", "rule:y.0"},
	"buffers_over_budget":           {"shared_memory"},
	"dtype_pair_no_record":          {"records:d"},
	"fp8_pair_on_sm80":              {"records:d"},
	"ldmatrix_x4_two_fragments":     {"intrinsic:a"},
	"loop_carried_two_layouts":      {"no_convert:acc->d", "no_convert:d->t", "no_convert:t->k.yield", "rule:d.c", "rule:d.result", "rule:k.yield0", "rule:t.0"},
	"memory_rule_stride":            {"buffer:Ks", "intrinsic:k", "memory:ldmatrix_x4"},
	"mma_stated_kwidth_too_wide":    {"variant:d"},
	"pin_unrealisable":              {"pin:x", "subgroups"},
	"pinned_operand_no_conversions": {"no_convert:a->d", "pin:a", "rule:d.a"},
	"reduce_split_no_shared":        {"pin:x", "rule:s.0", "rule:s.shared", "shared_memory"},
	"seed002_wmma_padded":           {"buffer:As", "intrinsic:a", "memory:wmma_load_a_m16n16k16_f16"},
	"wmma_fragment_to_store":        {"fragment:wmma.m16n16k16.a.row.f16", "intrinsic:a", "rule:store@20.0"},
	"registers_over_budget":         {"registers"},
	"registers_pins_together":       {"pin:x", "pin:y", "registers"},
	"shape_no_intrinsic":            {"records:d"},
	"tcgen05_named":                 {"intrinsic:acc"},
	"three_pinned_operands":         {"no_convert:ax->dx", "pin:ax", "rule:dx.a"},
	"transpose_pin_cycle":           {"no_convert:x->y", "pin:x", "pin:y", "rule:y.0"},
	"wgmma_b_padded":                {"buffer:Bs", "intrinsic:acc", "memory:wgmma_m64n64k16_f32_f16"},
}

func unsatGraphs(tb testing.TB) []testGraph { return readGraphs(tb, "testdata/unsat/*.toml") }

// relaxAllBut relaxes every fact of p except keep.
func relaxAllBut(p *Problem, keep []*model.Fact) map[string]bool {
	relax := map[string]bool{}
	for _, f := range p.Facts() {
		if !slices.Contains(keep, f) {
			relax[f.Name] = true
		}
	}
	return relax
}

func names(fs []*model.Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	slices.Sort(out)
	return out
}

func explainGraph(t *testing.T, c testGraph) (*Problem, *model.Explanation) {
	t.Helper()
	p, err := Build(c.graph, c.target, c.records)
	if err != nil {
		t.Fatal(err)
	}
	if res := Solve(p, Options{}); res.Status != StatusInfeasible {
		t.Fatalf("status %v, want unsat", res.Status)
	}
	e, err := Explain(p, c.records, 5, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, e
}

// Every unsat graph: the core is the facts its comment names, and what
// the explanation says holds (checkExplanation).
func TestUnsatCoresAreMinimal(t *testing.T) {
	graphs := explainedGraphs(t)
	if len(graphs) < 10 {
		t.Fatalf("%d unsat graphs, want at least 10", len(graphs))
	}
	for _, c := range graphs {
		t.Run(c.name, func(t *testing.T) {
			want, ok := wantCores[c.name]
			if !ok {
				t.Fatalf("no expected core for %s in wantCores", c.name)
			}
			if got := names(c.e.Core); !slices.Equal(got, want) {
				t.Errorf("core %v, want %v", got, want)
			}
			checkExplanation(t, c.testGraph, c.p, c.e)
		})
	}
}

// checkExplanation checks what an unsat graph's explanation says against
// the PBQP search on graphs rebuilt without some facts, not the SAT
// encoding that found it:
//   - the core is minimal: its facts alone (every other fact relaxed)
//     leave no plan, and without any one of them a plan exists;
//   - the text's heading says "drop any one and a plan exists" only where
//     dropping each fact of the core alone, every other fact kept, leaves
//     a plan, and names as enough alone exactly the facts that are;
//   - every relaxation drops no hard fact, allows a plan of the cost it
//     states, and needs each of its facts; they come cheapest first, and
//     there are some exactly when the core has a relaxable fact;
//   - "none of at most three facts makes the graph solvable" holds at
//     least for every relaxable fact dropped alone.
func checkExplanation(t *testing.T, c testGraph, p *Problem, e *model.Explanation) {
	t.Helper()
	solves := func(relax map[string]bool) bool {
		return solveRelaxed(t, c, relax).Status != StatusInfeasible
	}
	if solves(relaxAllBut(p, e.Core)) {
		t.Errorf("the core's facts alone leave a plan")
	}
	var alone []string
	for _, f := range e.Core {
		relax := relaxAllBut(p, e.Core)
		relax[f.Name] = true
		if !solves(relax) {
			t.Errorf("without [%s] the core still has no plan: not minimal", f.Name)
		}
		if solves(map[string]bool{f.Name: true}) {
			alone = append(alone, "["+f.Name+"]")
		}
	}
	var text bytes.Buffer
	if err := plans.WriteExplanationText(&text, e); err != nil {
		t.Fatal(err)
	}
	heading := strings.Join(strings.Fields(strings.SplitN(text.String(), "\n 1. ", 2)[0]), " ")
	anyOne := strings.Contains(heading, "drop any one and a plan exists") || len(e.Core) == 1 && !strings.Contains(heading, "dropping it alone leaves no plan")
	switch {
	case anyOne && len(alone) < len(e.Core):
		t.Errorf("the heading says dropping any one fact of the core leaves a plan, but only %v do: %q", alone, heading)
	case !anyOne && len(alone) == len(e.Core):
		t.Errorf("each fact of the core dropped alone leaves a plan, but the heading does not say so: %q", heading)
	case !anyOne && len(alone) > 0 && !strings.Contains(heading, "dropping "+strings.Join(alone, " or ")+" alone leaves a plan"):
		t.Errorf("dropping %v alone leaves a plan, and the heading does not say so: %q", alone, heading)
	case !anyOne && len(alone) == 0 && !strings.Contains(heading, "alone leaves no plan"):
		t.Errorf("no fact of the core dropped alone leaves a plan, and the heading does not say so: %q", heading)
	}
	costs := []int64{}
	for _, r := range e.Relaxations {
		relax := map[string]bool{}
		for _, f := range r.Drop {
			if f.Hard {
				t.Errorf("relaxation drops hard fact [%s]", f.Name)
			}
			relax[f.Name] = true
		}
		res := solveRelaxed(t, c, relax)
		if res.Status != StatusOptimal || res.Cost != r.Cost {
			t.Errorf("dropping %v: %v cost %d, the explanation says %d", names(r.Drop), res.Status, res.Cost, r.Cost)
		}
		for name := range maps.Keys(relax) {
			less := maps.Clone(relax)
			delete(less, name)
			if solves(less) {
				t.Errorf("dropping %v is not minimal: [%s] is not needed", names(r.Drop), name)
			}
		}
		costs = append(costs, r.Cost)
	}
	if !slices.IsSorted(costs) {
		t.Errorf("relaxations not cheapest first: %v", costs)
	}
	hasSoft := slices.ContainsFunc(e.Core, func(f *model.Fact) bool { return !f.Hard })
	if hasSoft != (len(e.Relaxations) > 0) {
		t.Errorf("core has relaxable facts: %v, relaxations: %d", hasSoft, len(e.Relaxations))
	}
	if strings.Contains(text.String(), "none of at most three facts") {
		for _, f := range p.Facts() {
			if !f.Hard && solves(map[string]bool{f.Name: true}) {
				t.Errorf("the text says no set of at most three facts allows a plan, but dropping [%s] does", f.Name)
			}
		}
	}
	for _, f := range p.Facts() {
		if f.Marked && !f.Hard {
			t.Errorf("[%s] is marked hard but not hard", f.Name)
		}
	}
}

// A fact the graph marks hard is shown as such and never offered.
func TestMarkedHardIsNeverOffered(t *testing.T) {
	for _, c := range unsatGraphs(t) {
		if c.name != "transpose_pin_cycle" {
			continue
		}
		p, e := explainGraph(t, c)
		if f := p.Fact("pin:x"); f == nil || !f.Hard || !f.Marked {
			t.Fatalf("pin:x is not marked hard: %+v", f)
		}
		if p.Fact("pin:y").Hard {
			t.Errorf("pin:y is hard but the graph does not mark it")
		}
		var offered []string
		for _, r := range e.Relaxations {
			offered = append(offered, strings.Join(names(r.Drop), "+"))
		}
		slices.Sort(offered)
		if want := []string{"no_convert:x->y", "pin:y"}; !slices.Equal(offered, want) {
			t.Errorf("relaxations %v, want %v", offered, want)
		}
		return
	}
	t.Fatal("transpose_pin_cycle not found")
}

// The golden explanations, text and JSON, of every unsat graph.
func TestUnsatExplanationGoldens(t *testing.T) {
	for _, c := range explainedGraphs(t) {
		t.Run(c.name, func(t *testing.T) {
			e := c.e
			var text, js bytes.Buffer
			if err := plans.WriteExplanationText(&text, e); err != nil {
				t.Fatal(err)
			}
			if err := plans.WriteExplanationJSON(&js, e); err != nil {
				t.Fatal(err)
			}
			golden(t, "testdata/unsat/"+c.name+".txt", text.Bytes())
			golden(t, "testdata/unsat/"+c.name+".json", js.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	goldenfile.Compare(t, path, string(got))
}

// The explanation of a solvable graph: a conversion said to be forced
// cannot be avoided even with only its facts kept, and one said to be
// avoidable costs at least the optimum to avoid; both are checked by the
// PBQP search with the use's converting pairs forbidden.
func TestExplainPlanConversions(t *testing.T) {
	seen := 0
	for _, c := range solvedGraphs(t) {
		t.Run(c.name, func(t *testing.T) {
			p, res := c.p, c.res
			e, err := ExplainPlan(p, res, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// An unforced conversion is avoided under every fact, so its
			// problem is p itself; forced ones relax all facts but those
			// that force them, built once for each set of such facts.
			relaxed := map[string]*Problem{strings.Join(names(p.Facts()), ","): p}
			for _, w := range e.Conversions {
				seen++
				keep := w.Facts
				if !w.Forced {
					keep = p.Facts()
				}
				key := strings.Join(names(keep), ",")
				rp, ok := relaxed[key]
				if !ok {
					if rp, err = BuildRelaxed(c.graph, c.target, c.records, relaxAllBut(p, keep)); err != nil {
						t.Fatal(err)
					}
					relaxed[key] = rp
				}
				pb := withoutConversion(t, rp, w)
				// A plan without the conversion must keep the register
				// budget as every plan does.
				sol, _ := rp.solveSpilling(pb, func(b *pbqp.Problem) (pbqp.Solution, *pbqp.Problem) { return pbqp.Solve(b, pbqp.Options{}), b })
				switch {
				case w.Forced && sol.Status != StatusInfeasible:
					t.Errorf("%%%s -> %s: forced by %v, but a plan of cost %d avoids it", w.Value, w.Consumer, names(w.Facts), sol.Cost)
				case !w.Forced && (sol.Cost != w.Without || w.Without < res.Cost):
					t.Errorf("%%%s -> %s: avoiding it costs %d, the explanation says %d (plan %d)", w.Value, w.Consumer, sol.Cost, w.Without, res.Cost)
				}
			}
		})
	}
	if seen == 0 {
		t.Fatal("no testdata graph has a conversion to explain")
	}
}

// withoutConversion is p's PBQP with the converting pairs of one use
// forbidden.
func withoutConversion(t *testing.T, p *Problem, w model.ConversionWhy) *pbqp.Problem {
	t.Helper()
	for k, e := range p.Edges {
		if e.Kind != EdgeConversion || e.Value.Name != w.Value || e.Use.Op.Name != w.Consumer || model.OperandName(e.Use) != w.Operand {
			continue
		}
		pb := &pbqp.Problem{Cost: p.PBQP.Cost, Edges: slices.Clone(p.PBQP.Edges)}
		m := make([][]int64, len(pb.Edges[k].M))
		for a := range m {
			m[a] = slices.Clone(pb.Edges[k].M[a])
			for b := range m[a] {
				from, to := p.Nodes[e.From].Layouts[a], e.Required[b]
				if to == nil || !from.Equal(to) {
					m[a][b] = Inf
				}
			}
		}
		pb.Edges[k].M = m
		return pb
	}
	t.Fatalf("no use of %%%s by %s (%s)", w.Value, w.Consumer, w.Operand)
	return nil
}

// BenchmarkExplainCore finds the minimal core of every unsat graph: the
// SAT encoding, gini's Why and the deletion that shrinks it.
func BenchmarkExplainCore(b *testing.B) {
	for _, c := range unsatGraphs(b) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if newFeasibility(p).core() == nil {
					b.Fatal("no core")
				}
			}
		})
	}
}

// BenchmarkExplain is all of `planner explain` after reading: build,
// solve, core, relaxations and their costs.
func BenchmarkExplain(b *testing.B) {
	for _, c := range unsatGraphs(b) {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := Build(c.graph, c.target, c.records)
				if err != nil {
					b.Fatal(err)
				}
				Solve(p, Options{})
				if _, err := Explain(p, c.records, 5, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
