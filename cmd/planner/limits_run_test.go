package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMainEnv makes the test binary run the command line on its arguments
// instead of the tests, so that a test can run the planner as a process
// of its own and measure it.
const runMainEnv = "PLANNER_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// process is one planner process: its exit code, the start of its
// standard output, its standard error, wall time and peak resident set.
type process struct {
	code           int
	stdout, stderr string
	wall           time.Duration
	peak           uint64 // bytes
}

// runPlanner runs the planner as a process. Its standard output goes to a
// file of which only the start is read: Linux counts the parent's
// resident set at the fork in the child's peak, so the test keeps its own
// small.
func runPlanner(t *testing.T, args ...string) process {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errs
	start := time.Now()
	err = cmd.Run()
	head := make([]byte, 4096)
	n, _ := out.ReadAt(head, 0)
	r := process{wall: time.Since(start), stdout: string(head[:n]), stderr: errs.String()}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peak = uint64(u.Maxrss) << 10 // KiB on Linux
	}
	return r
}

// The time and memory limits bound the whole run of planner solve on
// large generated graphs: --time-limit T ends within T + 10% + 0.2 s and
// --memory-limit M keeps the peak resident set under M + 15%; a run that
// ends with a plan gives the greedy plan or better, and one that does not
// (exit 4) stopped while reading or building, before greedy could run, or
// says what bound it proved.
// It takes minutes, so it runs only when PLANNER_LIMIT_RUNS=1:
//
//	PLANNER_LIMIT_RUNS=1 go test ./cmd/planner -run TestLimitsBoundTheRun -v
func TestLimitsBoundTheRun(t *testing.T) {
	if os.Getenv("PLANNER_LIMIT_RUNS") != "1" {
		t.Skip("set PLANNER_LIMIT_RUNS=1 to run the planner on 20k- and 100k-op graphs under limits (minutes)")
	}
	dir := t.TempDir()
	graphs := map[int]string{}
	greedy := map[int]int64{}
	for _, ops := range []int{20000, 100000} {
		path := filepath.Join(dir, fmt.Sprintf("attention%d.toml", ops))
		if r := runPlanner(t, "gen", "--family", "attention", "--ops", strconv.Itoa(ops), "--seed", "1", "-o", path); r.code != 0 {
			t.Fatalf("gen: %s", r.stderr)
		}
		graphs[ops] = path
		r := runPlanner(t, "solve", "--solver", "greedy", path)
		m := regexp.MustCompile(`(?m)^status greedy: cost (\d+),`).FindStringSubmatch(r.stdout)
		if r.code != 0 || m == nil {
			t.Fatalf("greedy on %d ops: exit %d: %s", ops, r.code, r.stderr)
		}
		greedy[ops], _ = strconv.ParseInt(m[1], 10, 64)
		t.Logf("%d ops: greedy costs %d (its run: %.2fs, %d MiB)", ops, greedy[ops], r.wall.Seconds(), r.peak>>20)
	}
	cases := []struct {
		ops    int
		time   time.Duration
		memory uint64
	}{
		{20000, 1500 * time.Millisecond, 0},
		{20000, 2 * time.Second, 0},
		{20000, 20 * time.Second, 0},
		{100000, 10 * time.Second, 0},
		{100000, 0, 1 << 30},
	}
	cost := regexp.MustCompile(`(?m)^status (optimal|feasible): cost (\d+),`)
	bound := regexp.MustCompile(`no plan costs less than [1-9]`)
	for _, c := range cases {
		args := []string{"solve", graphs[c.ops]}
		name := fmt.Sprintf("%d ops", c.ops)
		if c.time > 0 {
			args = append(args, "--time-limit", c.time.String())
			name += " --time-limit " + c.time.String()
		}
		if c.memory > 0 {
			args = append(args, "--memory-limit", fmt.Sprintf("%dMiB", c.memory>>20))
			name += fmt.Sprintf(" --memory-limit %dMiB", c.memory>>20)
		}
		r := runPlanner(t, args...)
		t.Logf("%s: exit %d in %.2fs, peak %d MiB: %s", name, r.code, r.wall.Seconds(), r.peak>>20, firstLine(r.stdout+r.stderr))
		if max := c.time + c.time/10 + 200*time.Millisecond; c.time > 0 && r.wall > max {
			t.Errorf("%s: ran %.2fs, over %.2fs", name, r.wall.Seconds(), max.Seconds())
		}
		if max := c.memory + c.memory*15/100; c.memory > 0 && r.peak > max {
			t.Errorf("%s: peak resident set %d MiB, over %d MiB", name, r.peak>>20, max>>20)
		}
		switch r.code {
		case exitOK:
			m := cost.FindStringSubmatch(r.stdout)
			if m == nil {
				t.Errorf("%s: no status line in\n%s", name, firstLine(r.stdout))
				break
			}
			if got, _ := strconv.ParseInt(m[2], 10, 64); got > greedy[c.ops] {
				t.Errorf("%s: cost %d, above greedy's %d", name, got, greedy[c.ops])
			}
		case exitStopped:
			// Before the build is done there is no greedy plan; after it,
			// only a build that ended too late to leave the search and
			// the fallback their time stops without one, with the bound
			// of the whole problem.
			built := !strings.Contains(r.stderr, "while reading the graph") && !strings.Contains(r.stderr, "while building the problem")
			if built && !bound.MatchString(r.stderr) {
				t.Errorf("%s: stopped after the build with no bound: %s", name, r.stderr)
			}
		default:
			t.Errorf("%s: exit %d: %s", name, r.code, r.stderr)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimPrefix(s, "plan for "), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
