// Command perftable measures the planner end to end and writes
// docs/performance.md: every graph of testdata/graphs with each solver,
// and graphs of every generated family at each size, with the median
// wall time, peak resident set and phase split of fresh processes.
//
// Run it from the repository root:
//
//	go run ./cmd/perftable                       # the full table
//	go run ./cmd/perftable --runs 3 --max-ops 10000  # a quick one
//
// It builds itself twice into a temporary folder, without and with the
// z3 tag (the smt rows need libz3; without it they say why), and runs
// each measurement as "perftable child SOLVER GRAPH" in a new process:
// the child times the library's phases and prints them as JSON with its
// peak resident set (its own high-water mark, VmHWM), the parent times
// the process.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"planner/gen"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		os.Exit(child(os.Args[2:]))
	}
	if err := parent(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "perftable:", err)
		os.Exit(1)
	}
}

// options are the command line's flags.
type options struct {
	runs, familyRuns, maxOps int
	graphs, out, note        string
	solvers, families, sizes string
	familySolvers            string
	seed                     uint64
	timeout                  time.Duration
}

func parent(args []string) error {
	var o options
	fs := flag.NewFlagSet("perftable", flag.ContinueOnError)
	fs.IntVar(&o.runs, "runs", 5, "runs per testdata graph and solver (the median is written)")
	fs.IntVar(&o.familyRuns, "family-runs", 1, "runs per generated graph and solver")
	fs.IntVar(&o.maxOps, "max-ops", 300000, "leave out generated sizes above this many ops")
	fs.StringVar(&o.graphs, "graphs", "testdata/graphs", "the folder of graphs to measure (empty: none)")
	fs.StringVar(&o.out, "out", "docs/performance.md", "the document to write")
	fs.StringVar(&o.note, "note", "", "a line on the machine's state for the header (shared, loaded)")
	fs.StringVar(&o.solvers, "solvers", "gini,greedy,smt", "the solvers of the testdata graphs")
	fs.StringVar(&o.families, "families", strings.Join(gen.Families, ","), "the generated families (empty: none)")
	fs.StringVar(&o.sizes, "sizes", "1000,10000,100000,300000", "the generated graphs' sizes in ops")
	fs.StringVar(&o.familySolvers, "family-solvers", "gini", "the solvers of the generated graphs")
	fs.Uint64Var(&o.seed, "seed", 1, "the generated graphs' seed")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "stop a run after this long (it is then an error row)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.runs < 1 || o.familyRuns < 1 {
		return errors.New("--runs and --family-runs must be at least 1")
	}
	var sizes []int
	for _, s := range splitList(o.sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("--sizes: %q is not a count of ops", s)
		}
		if n <= o.maxOps {
			sizes = append(sizes, n)
		}
	}
	tmp, err := os.MkdirTemp("", "perftable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins := buildChildren(tmp)

	var graphs, families []row
	if o.graphs != "" {
		files, err := filepath.Glob(filepath.Join(o.graphs, "*.toml"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("--graphs %s: no *.toml graphs", o.graphs)
		}
		for _, f := range files {
			for _, s := range splitList(o.solvers) {
				r := row{Graph: strings.TrimSuffix(filepath.Base(f), ".toml"), Solver: s}
				r.Runs = measure(bins, s, f, o.runs, o.timeout)
				graphs = append(graphs, r)
			}
		}
	}
	for _, fam := range splitList(o.families) {
		for _, n := range sizes {
			text, err := gen.Graph(fam, n, o.seed)
			if err != nil {
				return err
			}
			f := filepath.Join(tmp, fmt.Sprintf("%s_%d.toml", fam, n))
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				return err
			}
			for _, s := range splitList(o.familySolvers) {
				r := row{Graph: fam, Ops: n, Solver: s}
				r.Runs = measure(bins, s, f, o.familyRuns, o.timeout)
				families = append(families, r)
			}
			os.Remove(f)
		}
	}
	h := header{Command: commandLine(args), Date: time.Now().UTC().Format("2006-01-02 15:04 MST"),
		GoVersion: runtime.Version(), CPU: cpuModel(), CPUs: runtime.NumCPU(), Note: o.note, GraphsDir: o.graphs, Runs: o.runs, FamilyRuns: o.familyRuns}
	out, err := os.Create(o.out)
	if err != nil {
		return err
	}
	if err := writeTable(out, h, graphs, families); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// binaries are the child executables: plain, and with the z3 tag (or
// why that one could not be built).
type binaries struct {
	plain, z3 string
	noZ3      string
}

// buildChildren builds this command into dir without and with the z3
// tag; a failed z3 build leaves the smt rows to say why.
func buildChildren(dir string) binaries {
	b := binaries{plain: filepath.Join(dir, "perftable"), z3: filepath.Join(dir, "perftable-z3")}
	if out, err := exec.Command("go", "build", "-o", b.plain, "./cmd/perftable").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "perftable: go build: %v\n%s", err, out)
		os.Exit(1)
	}
	if out, err := exec.Command("go", "build", "-tags", "z3", "-o", b.z3, "./cmd/perftable").CombinedOutput(); err != nil {
		b.noZ3 = "not built with -tags z3: " + firstLine(string(out))
	}
	return b
}

// measure runs a graph n times with a solver, each in a new process.
func measure(b binaries, solver, file string, n int, timeout time.Duration) []run {
	bin := b.plain
	if strings.HasPrefix(solver, "smt") {
		if b.noZ3 != "" {
			return []run{{Error: b.noZ3}}
		}
		bin = b.z3
	}
	fmt.Fprintf(os.Stderr, "perftable: %s %s ×%d\n", filepath.Base(file), solver, n)
	var runs []run
	for range n {
		runs = append(runs, measureOnce(bin, solver, file, timeout))
	}
	return runs
}

// measureOnce runs one child and reads what it measured.
func measureOnce(bin, solver, file string, timeout time.Duration) run {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "child", solver, file)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var r run
	switch {
	case ctx.Err() != nil:
		return run{Error: "stopped after " + timeout.String()}
	case err != nil:
		return run{Error: firstLine(stderr.String() + err.Error())}
	}
	if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
		return run{Error: "unreadable child output: " + firstLine(stdout.String())}
	}
	r.WallMS = float64(wall.Microseconds()) / 1000
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && r.PeakKB == 0 {
		r.PeakKB = int64(ru.Maxrss) // kilobytes on Linux; counts the parent's resident set at the fork
	}
	return r
}

// cpuModel is /proc/cpuinfo's first model name.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// commandLine is the command as it was given, arguments with spaces or
// quotes quoted for a shell.
func commandLine(args []string) string {
	words := []string{"go", "run", "./cmd/perftable"}
	for _, a := range args {
		if strings.ContainsAny(a, " '\"$`\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}
