package planner_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"planner/gen"
	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
	"planner/solver"
	"planner/tomlio"
	"planner/tomlio/tomltest"
)

// FuzzSolveVerify: every graph package gen writes (a family, up to 200
// ops, a seed) reads, solves, and its plan verifies, both as built and as
// written to TOML and read back; nothing panics. The corpus under
// testdata/fuzz/FuzzSolveVerify covers every family.
func FuzzSolveVerify(f *testing.F) {
	pl := testPlanner(f)
	lib := pl.Records
	f.Fuzz(func(t *testing.T, family uint8, ops uint16, seed uint64) {
		text, err := gen.Graph(gen.Families[int(family)%len(gen.Families)], 4+int(ops)%197, seed)
		if err != nil {
			t.Fatal(err)
		}
		g, err := tomlio.ParseGraph("gen.toml", []byte(text), lib.Targets)
		if err != nil {
			t.Fatalf("a generated graph does not read: %v\n%s", err, text)
		}
		tgt, recs, err := pl.Target(g)
		if err != nil {
			t.Fatal(err)
		}
		p, err := solver.Build(g, tgt, recs)
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		res := solver.Solve(p, solver.Options{TimeLimit: 10 * time.Second})
		if res.Assignment == nil {
			t.Skipf("no plan: %v", res.Status)
		}
		plan, err := plans.Build(g, tgt, res.Assignment, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := plans.Verify(g, res.Assignment, plan); err != nil {
			t.Fatalf("the plan as solved: %v\n%s", err, text)
		}
		plan.Status, plan.LowerBound, plan.GraphHash = res.Status.String(), res.LowerBound, planfile.HashGraph([]byte(text))
		var b bytes.Buffer
		if err := planfile.Write(&b, plan); err != nil {
			t.Fatal(err)
		}
		pf, err := planfile.Parse("plan.toml", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := pf.CheckGraph("gen.toml", []byte(text)); err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Replay(pf, g); err != nil {
			t.Fatalf("the plan read back: %v\n%s", err, text)
		}
	})
}

// FuzzReadPlan: any text read as a plan of a test graph gives a
// positioned error, a verification failure or a verified plan; nothing
// panics. The seeds are the hand-edited plans and the golden TOML plans
// that replay fastest, which between them convert by registers, shuffles
// and shared memory.
func FuzzReadPlan(f *testing.F) {
	seeds, _ := filepath.Glob("cmd/planner/testdata/verify/*.toml")
	for _, name := range []string{"pinned_mma_operand", "softmax_row", "loop_three_carried", "layernorm_row", "transpose_heavy", "seed002_padded_gemm"} {
		seeds = append(seeds, "testdata/plans/"+name+".toml")
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, data := range tomltest.Hostile("file = \"testdata/graphs/softmax_row.toml\"\ntarget = \"sm_80\"\nsubgroups = 4\n") {
		f.Add(data)
	}
	pl := testPlanner(f)
	lib := pl.Records
	graphs := map[string]*model.Graph{}
	files, _ := filepath.Glob("testdata/graphs/*.toml")
	for _, path := range files {
		g, err := tomlio.ReadGraph(path, lib.Targets)
		if err != nil {
			f.Fatal(err)
		}
		graphs["testdata/graphs/"+filepath.Base(path)] = g
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := planfile.Parse("plan.toml", data)
		if err != nil {
			checkPositioned(t, err)
			return
		}
		g := graphs[pf.Graph]
		if g == nil {
			return
		}
		if _, err := pl.Replay(pf, g); err != nil && !strings.HasPrefix(err.Error(), "plan.toml: ") {
			checkPositioned(t, err)
		}
	})
}

// checkPositioned fails unless err is one or more errors, each with a
// position in plan.toml and a code.
func checkPositioned(t *testing.T, err error) {
	t.Helper()
	var list model.ErrorList
	var one *model.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = model.ErrorList{one}
	default:
		t.Fatalf("error %T without a position: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.File != "plan.toml" || e.Pos.Line < 1 || e.Code == model.CodeNone {
			t.Fatalf("error without a position or code: %#v", e)
		}
	}
}
