// Package oracle lets the tests ask the real compilers about what the
// planner writes: Triton parses, verifies and compiles TTGIR, IREE parses
// and verifies MLIR with its attributes (oracle/judge.py does the asking).
// The oracle's Python is named by PLANNER_ORACLE_PYTHON, which .ci/run sets
// from oracle/setup.sh; without it a judged test is skipped, loudly, and
// under CI it fails instead.
package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// EnvPython names the environment variable holding the oracle's Python.
const EnvPython = "PLANNER_ORACLE_PYTHON"

// A Job is one text for the judge: its name (a file name, with the
// extension that says what it is), its text, the target it is compiled
// for where the text names none (Triton's spelling, "cuda:80",
// "hip:gfx942"), and whether Triton compiles it after verifying it;
// Accelerate compiles it after Triton's AccelerateMatmul and the rest of
// make_ttgir (oracle/judge.py --accelerate), for a TTGIR as it stands
// before Triton chooses its dots' instructions. Keep names a folder that
// the compiled assembly is kept in (oracle/judge.py --keep: the job's
// file name with .ptx or .amdgcn added; "" keeps none).
type Job struct {
	Name       string
	Text       []byte
	Target     string
	Compile    bool
	Accelerate bool
	Keep       string
}

// A Verdict is the judge's answer on one job: OK, or the stage that
// refused it ("parse" covers the verifier, "compile", "crash") and the
// compiler's message.
type Verdict struct {
	Job     Job    `json:"-"`
	OK      bool   `json:"ok"`
	Stage   string `json:"stage"`
	Message string `json:"message"`
	Target  string `json:"target"`
}

// String is the verdict in one line and the compiler's message after it.
func (v Verdict) String() string {
	if v.OK {
		return v.Job.Name + ": accepted"
	}
	return fmt.Sprintf("%s: refused at %s (target %s):\n%s", v.Job.Name, v.Stage, v.Target, v.Message)
}

var warnOnce sync.Once

// Python is the oracle's Python. Without one, the test is skipped with a
// message on standard error that says what was skipped and how to run
// it; when the CI variable is set it fails instead: CI never skips a
// judged test.
func Python(t testing.TB) string {
	t.Helper()
	py := os.Getenv(EnvPython)
	if py != "" {
		return py
	}
	how := fmt.Sprintf("%s is not set; run `export %s=$(oracle/setup.sh)` (docs/oracle.md)", EnvPython, EnvPython)
	if os.Getenv("CI") != "" {
		t.Fatalf("CI must run the judged tests: %s", how)
	}
	warnOnce.Do(func() {
		fmt.Fprintf(os.Stderr, "\n*** SKIPPED: the tests judged by Triton and IREE (%s)\n\n", how)
	})
	t.Skipf("SKIPPED: judged by the real compilers, and %s", how)
	return ""
}

// Script is the path of oracle/judge.py in this checkout.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "oracle", "judge.py")
}

// TTGIR has Triton judge each job: parsed and verified in Triton's own
// context with the target backend's dialects, then (where the job says)
// compiled from the ttgir stage by triton.compile.
func TTGIR(t testing.TB, jobs []Job) []Verdict { return judge(t, "ttgir", jobs) }

// IREE has IREE judge each job: parsed and verified in IREE's own
// context, its dialects registered, unregistered dialects refused.
func IREE(t testing.TB, jobs []Job) []Verdict { return judge(t, "iree", jobs) }

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// judge writes the jobs' texts to files and runs the judge over them in
// one process; its verdicts come back in the jobs' order.
func judge(t testing.TB, kind string, jobs []Job) []Verdict {
	t.Helper()
	py := Python(t)
	if len(jobs) == 0 {
		return nil
	}
	dir := t.TempDir()
	type wire struct {
		File       string `json:"file"`
		Target     string `json:"target,omitempty"`
		Compile    bool   `json:"compile"`
		Accelerate bool   `json:"accelerate,omitempty"`
		Keep       string `json:"keep,omitempty"`
	}
	var list []wire
	for i, j := range jobs {
		name := fmt.Sprintf("%03d_%s", i, unsafeName.ReplaceAllString(j.Name, "_"))
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, j.Text, 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, wire{File: path, Target: j.Target, Compile: j.Compile, Accelerate: j.Accelerate, Keep: j.Keep})
	}
	in, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, Script(), kind, "--jobs", "-")
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "TRITON_CACHE_DIR="+filepath.Join(dir, "triton-cache"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the oracle (%s %s) failed: %v\n%s", py, Script(), err, stderr.String())
	}
	var verdicts []Verdict
	if err := json.Unmarshal(out, &verdicts); err != nil || len(verdicts) != len(jobs) {
		t.Fatalf("the oracle answered %d verdicts for %d jobs (%v):\n%s\n%s", len(verdicts), len(jobs), err, out, stderr.String())
	}
	for i := range verdicts {
		verdicts[i].Job = jobs[i]
		verdicts[i].Message = strings.ReplaceAll(verdicts[i].Message, list[i].File, jobs[i].Name)
	}
	return verdicts
}

// TritonTarget is Triton's name of a planner target, as ttg.target
// spells it ("sm_80" is "cuda:80", "gfx942" is "hip:gfx942"), or "" for
// one that is not a plain CUDA or HIP architecture (the planner's
// "gfx1100_wave64" runs a wave size Triton's GPUTarget does not take from
// the name).
func TritonTarget(planner string) string {
	switch {
	case strings.Contains(planner, "_wave"):
		return ""
	case strings.HasPrefix(planner, "sm_"):
		return "cuda:" + strings.TrimPrefix(planner, "sm_")
	case strings.HasPrefix(planner, "gfx"):
		return "hip:" + planner
	}
	return ""
}
