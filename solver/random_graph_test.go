package solver

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/solver/pbqp"
	"planner/tomlio"
)

// randomGraph writes a small random kernel graph: loads, element-wise ops,
// transposes, reductions with broadcasts back, casts, an mma, stores, and
// sometimes a loop, over 16×16 tiles so that brute force stays feasible.
func randomGraph(r *rand.Rand) string {
	var b strings.Builder
	warps := []int{1, 2}[r.IntN(2)]
	fmt.Fprintf(&b, "target = \"sm_80\"\nsubgroups = %d\n", warps)
	type val struct {
		name  string
		dtype string
	}
	var vals []val
	n := 0
	newName := func() string { n++; return fmt.Sprintf("v%d", n) }
	op := func(lines ...string) {
		b.WriteString("\n[[op]]\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	load := func(dt string) val {
		v := val{newName(), dt}
		op(`kind = "load"`, fmt.Sprintf("result = %q", v.name), "shape = [16, 16]", fmt.Sprintf("dtype = %q", dt), fmt.Sprintf("contiguous = %d", r.IntN(2)))
		vals = append(vals, v)
		return v
	}
	load("f32")
	steps := 2 + r.IntN(3)
	for range steps {
		x := vals[r.IntN(len(vals))]
		switch r.IntN(5) {
		case 0: // element-wise with another value of the same type
			y := load(x.dtype)
			v := val{newName(), x.dtype}
			op(`kind = "add"`, fmt.Sprintf("operands = [%q, %q]", x.name, y.name), fmt.Sprintf("result = %q", v.name))
			vals = append(vals, v)
		case 1:
			v := val{newName(), x.dtype}
			op(`kind = "transpose"`, fmt.Sprintf("operands = [%q]", x.name), "perm = [1, 0]", fmt.Sprintf("result = %q", v.name))
			vals = append(vals, v)
		case 2:
			red, v := newName(), val{newName(), x.dtype}
			op(`kind = "reduce"`, `combiner = "max"`, fmt.Sprintf("operands = [%q]", x.name), fmt.Sprintf("axis = %d", r.IntN(2)), fmt.Sprintf("result = %q", red))
			op(`kind = "broadcast"`, fmt.Sprintf("operands = [%q]", red), "shape = [16, 16]", fmt.Sprintf("dims = [%d]", r.IntN(2)), fmt.Sprintf("result = %q", v.name))
			vals = append(vals, v)
		case 3:
			if x.dtype != "f32" {
				continue
			}
			h := val{newName(), "f16"}
			op(`kind = "truncf"`, fmt.Sprintf("operands = [%q]", x.name), `dtype = "f16"`, fmt.Sprintf("result = %q", h.name))
			bm := load("f16")
			acc := newName()
			op(`kind = "constant"`, fmt.Sprintf("result = %q", acc), "shape = [16, 16]", `dtype = "f32"`)
			v := val{newName(), "f32"}
			op(`kind = "mma"`, fmt.Sprintf("a = %q", h.name), fmt.Sprintf("b = %q", bm.name), fmt.Sprintf("c = %q", acc), fmt.Sprintf("result = %q", v.name))
			vals = append(vals, h, v)
		case 4:
			v := val{newName(), x.dtype}
			op(`kind = "exp2"`, fmt.Sprintf("operands = [%q]", x.name), fmt.Sprintf("result = %q", v.name))
			vals = append(vals, v)
		}
	}
	last := vals[len(vals)-1]
	op(`kind = "store"`, fmt.Sprintf("operands = [%q]", last.name), fmt.Sprintf("contiguous = %d", r.IntN(2)))
	return b.String()
}

// On small random graphs the solver's proven optimum equals exhaustive
// enumeration of the same candidate space, and the assignment it returns
// costs what it says.
func TestSolverAgainstBruteForceOnGraphs(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tg := lib.Targets["sm_80"]
	var recs []*model.Record
	for _, n := range tg.Records {
		recs = append(recs, lib.Records[n])
	}
	r := rand.New(rand.NewPCG(41, 42))
	compared, withCore := 0, 0
	for i := 0; compared < 60 && i < 2000; i++ {
		text := randomGraph(r)
		g, err := tomlio.ParseGraph("random.toml", []byte(text), lib.Targets)
		if err != nil {
			t.Fatalf("generated graph does not parse: %v\n%s", err, text)
		}
		p, err := Build(g, tg, recs)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		space := 1.0
		for _, c := range p.PBQP.Cost {
			space *= float64(len(c))
		}
		if space > 3e5 {
			continue
		}
		want, _ := p.PBQP.BruteForce()
		res := Solve(p, Options{})
		if want >= Inf {
			if res.Status != StatusInfeasible {
				t.Fatalf("brute force finds nothing, solver says %v\n%s", res.Status, text)
			}
		} else if res.Status != StatusOptimal || res.Cost != want {
			t.Fatalf("solver %v %d, brute force %d\n%s", res.Status, res.Cost, want, text)
		}
		verifyPlan(t, p, res)
		// The SAT search alone, without the reductions, must agree too.
		if sat := pbqp.Solve(p.PBQP, pbqp.Options{NoReduce: true}); want < Inf && (sat.Status != StatusOptimal || sat.Cost != want) {
			t.Fatalf("SAT search alone: %v %d, brute force %d\n%s", sat.Status, sat.Cost, want, text)
		}
		if res.Stats.CoreNodes > 0 {
			withCore++
		}
		compared++
	}
	if compared < 60 {
		t.Fatalf("only %d graphs small enough to enumerate", compared)
	}
	t.Logf("%d random graphs compared (each also by SAT search alone), %d needed the SAT search after reductions", compared, withCore)
}
