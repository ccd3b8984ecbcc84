package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"planner/gen"
	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/solver"
	"planner/source"
)

// FuzzSolveVerify: every graph package gen writes (a family, up to 200
// ops, a seed) reads, solves, and its plan verifies, both as built and as
// written to TOML and read back; nothing panics. The corpus under
// testdata/fuzz/FuzzSolveVerify covers every family.
func FuzzSolveVerify(f *testing.F) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, family uint8, ops uint16, seed uint64) {
		text, err := gen.Graph(gen.Families[int(family)%len(gen.Families)], 4+int(ops)%197, seed)
		if err != nil {
			t.Fatal(err)
		}
		g, err := source.ParseGraph("gen.toml", []byte(text), lib.Targets)
		if err != nil {
			t.Fatalf("a generated graph does not read: %v\n%s", err, text)
		}
		tgt, recs := targetRecords(lib, g)
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
		plan.Status, plan.GraphHash = res.Status.String(), source.HashGraph([]byte(text))
		var b bytes.Buffer
		if err := plan.WriteTOML(&b); err != nil {
			t.Fatal(err)
		}
		pf, err := source.ParsePlanFile("plan.toml", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if err := pf.CheckGraph("gen.toml", []byte(text)); err != nil {
			t.Fatal(err)
		}
		if _, err := replayPlan(lib, pf, g); err != nil {
			t.Fatalf("the plan read back: %v\n%s", err, text)
		}
	})
}

// FuzzReadPlan: any text read as a plan of a test graph gives a
// positioned error, a verification failure or a verified plan; nothing
// panics. The seeds are the golden TOML plans and the hand-edited ones.
func FuzzReadPlan(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/plans/*.toml")
	edited, _ := filepath.Glob("testdata/verify/*.toml")
	for _, path := range append(seeds, edited...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	lib, err := intrinsics.Builtin()
	if err != nil {
		f.Fatal(err)
	}
	graphs := map[string]*model.Graph{}
	files, _ := filepath.Glob("../../testdata/graphs/*.toml")
	for _, path := range files {
		g, err := source.ReadGraph(path, lib.Targets)
		if err != nil {
			f.Fatal(err)
		}
		graphs["testdata/graphs/"+filepath.Base(path)] = g
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := source.ParsePlanFile("plan.toml", data)
		if err != nil {
			return
		}
		g := graphs[pf.Graph]
		if g == nil {
			return
		}
		replayPlan(lib, pf, g)
	})
}
