package planner_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"planner"
	"planner/model"
	"planner/solver"
)

// retargetLimit bounds each retargeted solve, so that a cliff shows as a
// stopped row instead of a benchmark that does not end.
const retargetLimit = 30 * time.Second

// targetLine is a graph file's target key.
var targetLine = regexp.MustCompile(`(?m)^target = "[^"]*"$`)

// retarget writes a graph's text with its target replaced; the subgroup
// count and everything else stay as written (2 warps become 2 waves).
func retarget(text []byte, target string) ([]byte, bool) {
	loc := targetLine.FindIndex(text)
	if loc == nil {
		return nil, false
	}
	return slices.Concat(text[:loc[0]], []byte(fmt.Sprintf("target = %q", target)), text[loc[1]:]), true
}

// retargetRow is one graph on one target: how long its solve took (wall
// and the process's CPU time), and what it came to.
type retargetRow struct {
	graph, target string
	wall, cpu     time.Duration
	status        string
	cost          int64
}

// readReason says in a few words why a graph does not read on a
// target: the codes of the errors reading it gives (a named record the
// target lacks is an unknown name; more subgroups than the target allows
// a bad value).
func readReason(err error) string {
	var list model.ErrorList
	var one *model.Error
	var codes []string
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			codes = append(codes, e.Code.String())
		}
	case errors.As(err, &one):
		codes = append(codes, one.Code.String())
	}
	slices.Sort(codes)
	return "does not read: " + strings.Join(slices.Compact(codes), ", ")
}

// unsatReason names the kinds of the facts of a minimal core of a graph
// with no plan on the target (pins or stated layouts another subgroup
// size cannot realise, no record for an mma, ...).
func unsatReason(res *planner.Result) string {
	if res.Search == nil || res.Search.Problem == nil {
		return "no plan"
	}
	core, err := solver.Core(res.Search.Problem, solver.Options{})
	if err != nil {
		return "no plan: " + err.Error()
	}
	var kinds []string
	for _, f := range core {
		kinds = append(kinds, string(f.Kind))
	}
	slices.Sort(kinds)
	return "no plan, a core of " + strings.Join(slices.Compact(kinds), ", ")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRetarget solves every graph of testdata/graphs on every target
// of the built-in records, its target line replaced (the subgroup count
// kept), so that a graph that does not end on some target is seen at
// once. A graph that cannot run on a target is skipped and its reason
// counted: it does not read there (it names a record the target lacks,
// or more subgroups than it allows), or it has no plan there (the kinds
// of the facts of a minimal core: a pin or stated layout of another
// subgroup size, an mma no record of the target runs). Each
// sub-benchmark is BenchmarkRetarget/GRAPH/TARGET, one end-to-end solve
// (read, build, search, plan, verification) per iteration, with its CPU
// time as cpu-ns/op beside the wall time; the table of every pair, the
// pairs not proven optimal within a second of CPU time and the skip
// reasons are logged at the end (-v shows them). CPU time is the measure
// because the wall time of a shared machine's benchmark counts the other
// processes' turns. Each solve is bounded by retargetLimit.
//
//	go test -run '^$' -bench Retarget -benchtime 1x -v .
func BenchmarkRetarget(b *testing.B) {
	pl, err := planner.New()
	if err != nil {
		b.Fatal(err)
	}
	var targets []string
	for name := range pl.Records.Targets {
		targets = append(targets, name)
	}
	slices.Sort(targets)
	files, _ := filepath.Glob("testdata/graphs/*.toml")
	var rows []retargetRow
	skipped := map[string]int{}
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		graph := strings.TrimSuffix(filepath.Base(file), ".toml")
		b.Run(graph, func(b *testing.B) {
			for _, target := range targets {
				data, ok := retarget(text, target)
				if !ok {
					b.Fatalf("%s has no target line", file)
				}
				b.Run(target, func(b *testing.B) {
					row := retargetRow{graph: graph, target: target}
					for b.Loop() {
						ctx, cancel := context.WithTimeoutCause(context.Background(), retargetLimit, solver.TimeLimit(retargetLimit))
						start, cpu := time.Now(), cpuTime()
						res, err := pl.SolveText(ctx, file, data, planner.Options{})
						row.wall, row.cpu = time.Since(start), cpuTime()-cpu
						cancel()
						switch {
						case err != nil:
							skipped[readReason(err)]++
							b.Skip(err)
						case res.Outcome == planner.Infeasible:
							skipped[unsatReason(res)]++
							b.Skip(res.Why)
						case res.Outcome != planner.Planned:
							row.status = "stopped"
						default:
							row.status, row.cost = res.Plan.Status, res.Plan.Cost
						}
					}
					b.ReportMetric(float64(row.cpu.Nanoseconds()), "cpu-ns/op")
					rows = append(rows, row)
				})
			}
		})
	}
	b.Log("\n" + retargetTable(rows, skipped))
}

// retargetTable writes the rows, the pairs that are not proven optimal
// within a second, and the skip reasons counted.
func retargetTable(rows []retargetRow, skipped map[string]int) string {
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "graph\ttarget\twall ms\tcpu ms\tstatus\tcost\t")
	var slow []string
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t\n", r.graph, r.target, r.wall.Milliseconds(), r.cpu.Milliseconds(), r.status, r.cost)
		if r.status != "optimal" || r.cpu >= time.Second {
			slow = append(slow, fmt.Sprintf("%s on %s: %s in %v of CPU time (%v wall)", r.graph, r.target, r.status, r.cpu.Round(time.Millisecond), r.wall.Round(time.Millisecond)))
		}
	}
	tw.Flush()
	fmt.Fprintf(&out, "\n%d pairs ran; %d not proven optimal within 1 s of CPU time", len(rows), len(slow))
	for _, s := range slow {
		fmt.Fprintf(&out, "\n  %s", s)
	}
	var reasons []string
	total := 0
	for r, n := range skipped {
		reasons = append(reasons, fmt.Sprintf("\n  %4d  %s", n, r))
		total += n
	}
	slices.Sort(reasons)
	fmt.Fprintf(&out, "\n%d pairs skipped:%s\n", total, strings.Join(reasons, ""))
	return out.String()
}
