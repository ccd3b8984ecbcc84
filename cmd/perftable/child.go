package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"planner"
	"planner/plans"
	"planner/solver"
	"planner/tomlio"
)

// child solves one graph with one solver phase by phase, the calls
// planner.Solve makes without its limits' plumbing or greedy fallback,
// and prints the run (status, cost, each phase's milliseconds) as JSON
// on standard output; a failure is an error on standard error and exit
// status 1.
func child(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: perftable child SOLVER GRAPH")
		return 2
	}
	r, err := solveTimed(args[0], args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r.PeakKB = highWater()
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// solveTimed is the child's work.
func solveTimed(backend, file string) (run, error) {
	r := run{Phases: map[string]float64{}}
	clock := time.Now()
	lap := func(phase string) {
		now := time.Now()
		r.Phases[phase] = math.Round(r.Phases[phase]*1000+float64(now.Sub(clock).Microseconds())) / 1000
		clock = now
	}
	pl, err := planner.New()
	if err != nil {
		return r, err
	}
	lap("records")
	data, err := tomlio.ReadFile(file)
	if err != nil {
		return r, err
	}
	g, err := tomlio.ParseGraph(file, data, pl.Records.Targets)
	if err != nil {
		return r, err
	}
	lap("read")
	t, recs, err := pl.Target(g) // parses the records the target offers (intrinsics.Open)
	if err != nil {
		return r, err
	}
	defer planner.CollectorPace(g)()
	lap("records")
	opt := solver.Options{Backend: backend}
	p, err := solver.BuildWithin(context.Background(), g, t, recs, opt)
	if err != nil {
		return r, err
	}
	lap("build")
	res := solver.Solve(p, opt)
	if res.Err != nil {
		return r, res.Err
	}
	lap("search")
	r.Status, r.Cost = res.Status.String(), res.Cost
	if res.Baseline != "" {
		r.Status = res.Baseline // as a plan's status says
	}
	if res.Assignment == nil {
		switch {
		case res.Baseline != "":
			r.Status = res.Baseline + " found no plan"
		case res.Status == solver.StatusInfeasible:
			r.Status = "infeasible"
		}
		r.Cost = 0 // no plan: the search's cost is its infinity
		return r, nil
	}
	res.Problem, p = nil, nil // let go before the plan, as planner.Solve does (Options.KeepProblem unset)
	plan, err := plans.Build(g, t, res.Assignment, "")
	if err != nil {
		return r, err
	}
	if plan.Cost != res.Cost {
		return r, fmt.Errorf("the plan's costs add up to %d but the search counted %d", plan.Cost, res.Cost)
	}
	lap("plan")
	if err := plans.Verify(g, res.Assignment, plan); err != nil {
		return r, fmt.Errorf("the verifier: %v", err)
	}
	lap("verify")
	return r, nil
}

// highWater is this process's peak resident set in kilobytes since it
// started this program (VmHWM of /proc/self/status, Linux), or 0 where
// it cannot be read. The parent's getrusage of the child would count the
// parent's own resident set, which the child shares until it execs.
func highWater() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return 0
}
