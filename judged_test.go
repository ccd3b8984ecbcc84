package planner_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"planner"
	"planner/internal/oracle"
)

// The tests of this file are judged by the real compilers (package
// internal/oracle, docs/oracle.md): Triton 3.9 for every TTGIR the planner
// reads or writes, IREE 3.13 for every MLIR with IREE's attributes. They
// skip, saying so, where PLANNER_ORACLE_PYTHON is unset, and fail so under
// CI.

// judgedTTGIR are the TTGIR kernels Triton judges: every kernel the
// round-trip tests plan (examples/ttgir, mlir/testdata/ttgir), the
// kernels Triton made from the Python kernels of oracle/kernels.py
// (testdata/triton), and every TTGIR entry of FuzzReadMLIR's corpus.
func judgedTTGIR(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	paths := ttgirKernels(t)
	more, _ := filepath.Glob("testdata/triton/*.ttgir")
	paths = append(paths, more...)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = data
	}
	for p, data := range fuzzCorpus(t, "mlir/testdata/fuzz/FuzzReadMLIR") {
		if isTTGIRText(data) {
			files[p+".ttgir"] = data
		}
	}
	return files
}

// isTTGIRText says whether a text is a Triton kernel, as the reader tells
// one (docs/triton.md: a tt.func, or ttg. attributes).
func isTTGIRText(data []byte) bool {
	return bytes.Contains(data, []byte("tt.func")) || bytes.Contains(data, []byte("ttg.")) || bytes.Contains(data, []byte("triton_gpu."))
}

// fuzzCorpus reads the entries of a fuzz target's corpus that hold one
// []byte (the "go test fuzz v1" format).
func fuzzCorpus(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(text)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			t.Fatalf("%s: not a corpus entry of one []byte", path)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[path] = []byte(s)
	}
	return out
}

// judgedJobs collects jobs for the judge, each distinct text once.
type judgedJobs struct {
	seen map[[32]byte]bool
	jobs []oracle.Job
}

func (j *judgedJobs) add(job oracle.Job) {
	key := sha256.Sum256(append([]byte(job.Target+"\x00"), job.Text...))
	if j.seen == nil {
		j.seen = map[[32]byte]bool{}
	}
	if !j.seen[key] {
		j.seen[key] = true
		j.jobs = append(j.jobs, job)
	}
}

// Triton judges every TTGIR the planner reads and writes: each kernel as
// it comes (so that a refusal of the planner's output is known to be the
// planner's), written back with its plan, that written again after
// planning it anew, and written with --keep-anchors; and every TTGIR
// golden under testdata. Each is parsed
// and verified in Triton's own context with the target backend's dialects,
// then compiled from the ttgir stage for its target.
func TestTritonJudgesTTGIR(t *testing.T) {
	oracle.Python(t)
	pl := testPlanner(t)
	var jobs judgedJobs
	files := judgedTTGIR(t)
	for _, path := range slices.Sorted(maps.Keys(files)) {
		data := files[path]
		fuzzed := strings.Contains(path, "/fuzz/")
		var in planner.Input
		if strings.HasPrefix(path, "testdata/triton/") {
			in.Trips = tritonTrips // their loops' bounds are known at run time
		}
		res, err := pl.SolveText(context.Background(), path, data, planner.Options{Input: in})
		if err != nil || res.Plan == nil {
			if !fuzzed {
				t.Errorf("%s: no plan (%v)", path, err)
			}
			continue // a fuzz entry the planner refuses writes nothing
		}
		target := ""
		if !bytes.Contains(data, []byte(".target")) {
			target = oracle.TritonTarget(res.Target.Name)
		}
		jobs.add(oracle.Job{Name: "input:" + path, Text: data, Target: target, Compile: true})
		var first bytes.Buffer
		if err := pl.WriteMLIR(&first, path, data, in, res); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		jobs.add(oracle.Job{Name: "planned:" + path, Text: first.Bytes(), Target: target, Compile: true})
		again, err := pl.SolveText(context.Background(), path+".planned.ttgir", first.Bytes(), planner.Options{Input: in})
		if err != nil || again.Plan == nil {
			t.Errorf("%s written back does not plan again (%v)", path, err)
			continue
		}
		var second bytes.Buffer
		if err := pl.WriteMLIR(&second, path+".planned.ttgir", first.Bytes(), in, again); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		jobs.add(oracle.Job{Name: "planned twice:" + path, Text: second.Bytes(), Target: target, Compile: true})
		if fuzzed {
			continue
		}
		// --keep-anchors: the loads', stores' and dots' encodings kept
		keep := in
		keep.KeepAnchors = true
		anchored, err := pl.SolveText(context.Background(), path, data, planner.Options{Input: keep})
		if err == nil && anchored.Plan == nil && inputNoPlan[strings.TrimSuffix(filepath.Base(path), ".ttgir")] {
			continue // its own anchors find no plan in the model (TestTritonKernels says why)
		}
		if err != nil || anchored.Plan == nil {
			t.Errorf("%s: no plan with --keep-anchors (%v)", path, err)
			continue
		}
		var kept bytes.Buffer
		if err := pl.WriteMLIR(&kept, path, data, keep, anchored); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		jobs.add(oracle.Job{Name: "planned, anchors kept:" + path, Text: kept.Bytes(), Target: target, Compile: true})
	}
	goldens, _ := filepath.Glob("testdata/ttgir_out/*.ttgir")
	tritonOut, _ := filepath.Glob("testdata/triton_out/*.ttgir")
	for _, g := range append(goldens, tritonOut...) {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(".target")) {
			t.Errorf("%s names no target", g)
		}
		jobs.add(oracle.Job{Name: "golden:" + g, Text: data, Compile: true})
	}
	if len(jobs.jobs) < 20 {
		t.Fatalf("only %d TTGIR texts to judge", len(jobs.jobs))
	}
	judged := 0
	for _, v := range oracle.TTGIR(t, jobs.jobs) {
		judged++
		if !v.OK {
			t.Errorf("%v", v)
		}
	}
	t.Logf("Triton judged %d distinct TTGIR texts", judged)
}

// IREE judges every MLIR kernel the planner writes back that IREE can
// read (ireeJudgesWritten: all but the XeGPU kernels and those
// writtenNotIREE names, with its reasons), as it comes and written back
// with its plan, and every such golden under testdata/mlir_out, parsed
// and verified in IREE's own context with unregistered dialects refused.
// The rest is mlir-opt-19's to judge (mlir/judge_test.go).
func TestIREEJudgesMLIR(t *testing.T) {
	oracle.Python(t)
	pl := testPlanner(t)
	var jobs judgedJobs
	for _, k := range writtenKernels {
		if !ireeJudgesWritten(k.path, k.name) {
			continue
		}
		data, err := os.ReadFile(k.path)
		if err != nil {
			t.Fatal(err)
		}
		jobs.add(oracle.Job{Name: "input:" + k.path, Text: data})
		res, err := pl.SolveText(context.Background(), k.path, data, planner.Options{Input: k.in})
		if err != nil || res.Plan == nil {
			t.Errorf("%s: no plan (%v)", k.path, err)
			continue
		}
		var out bytes.Buffer
		if err := pl.WriteMLIR(&out, k.path, data, k.in, res); err != nil {
			t.Errorf("%s: %v", k.path, err)
			continue
		}
		jobs.add(oracle.Job{Name: "planned:" + k.path, Text: out.Bytes()})
		if !bytes.Contains(out.Bytes(), []byte("iree_")) {
			t.Errorf("%s: written back without IREE's attributes; is it IREE's to judge?", k.path)
		}
	}
	goldens, _ := filepath.Glob("testdata/mlir_out/*.planned.mlir")
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".planned.mlir")
		if _, excluded := writtenNotIREE[name]; excluded || writtenXeGPU(g) {
			continue
		}
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		jobs.add(oracle.Job{Name: "golden:" + g, Text: data})
	}
	if len(jobs.jobs) < 20 {
		t.Fatalf("only %d texts for IREE to judge", len(jobs.jobs))
	}
	for _, v := range oracle.IREE(t, jobs.jobs) {
		if !v.OK {
			t.Errorf("%v", v)
		}
	}
	t.Logf("IREE judged %d distinct MLIR texts", len(jobs.jobs))
}

// The kernels of testdata/want (TestWants) are judged too: each TTGIR
// kernel that plans by Triton, as it comes and written back with its
// plan; each MLIR kernel that plans and that IREE can read (no XeGPU, no
// attribute of the planner's own) by IREE, the same two ways. A kernel
// whose wants are an error or no plan writes nothing and is not judged.
func TestCompilersJudgeWantKernels(t *testing.T) {
	oracle.Python(t)
	pl := testPlanner(t)
	var ttgir, iree judgedJobs
	files, _ := filepath.Glob("testdata/want/*")
	for _, path := range files {
		isTTGIR := strings.HasSuffix(path, ".ttgir")
		if !isTTGIR && !strings.HasSuffix(path, ".mlir") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Every function of a module of several, each plan written in
		// turn (planner solve without --func).
		funcs, err := pl.SolveFunctions(context.Background(), path, data, planner.Options{})
		if err != nil || slices.ContainsFunc(funcs, func(r planner.FuncResult) bool { return r.Plan == nil }) {
			continue
		}
		res := funcs[0].Result
		var out bytes.Buffer
		if err := pl.WriteMLIRFunctions(context.Background(), &out, path, data, planner.Options{}, funcs); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		switch {
		case isTTGIR:
			target := ""
			if !bytes.Contains(data, []byte(".target")) {
				target = oracle.TritonTarget(res.Target.Name)
			}
			// A tt.dot_scaled for sm_100 is compiled as Triton's own
			// pipeline meets it, before AccelerateMatmul: no stage after
			// ttgir lowers one there (the planner plans its
			// decomposition, docs/triton.md).
			accelerate := res.Target.Name == "sm_100" && bytes.Contains(data, []byte("tt.dot_scaled"))
			ttgir.add(oracle.Job{Name: "input:" + path, Text: data, Target: target, Compile: true, Accelerate: accelerate})
			ttgir.add(oracle.Job{Name: "planned:" + path, Text: out.Bytes(), Target: target, Compile: true})
		case !bytes.Contains(data, []byte("xegpu.")) && !bytes.Contains(out.Bytes(), []byte("#planner.")):
			iree.add(oracle.Job{Name: "input:" + path, Text: data})
			iree.add(oracle.Job{Name: "planned:" + path, Text: out.Bytes()})
		}
	}
	if len(ttgir.jobs) == 0 || len(iree.jobs) == 0 {
		t.Fatalf("%d TTGIR and %d MLIR texts of testdata/want to judge, want some of each", len(ttgir.jobs), len(iree.jobs))
	}
	for _, v := range oracle.TTGIR(t, ttgir.jobs) {
		if !v.OK {
			t.Errorf("%v", v)
		}
	}
	for _, v := range oracle.IREE(t, iree.jobs) {
		if !v.OK {
			t.Errorf("%v", v)
		}
	}
	t.Logf("Triton judged %d texts of testdata/want, IREE %d", len(ttgir.jobs), len(iree.jobs))
}
