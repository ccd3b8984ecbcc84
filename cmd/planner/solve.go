package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
	"planner/solver"
	"planner/tomlio"
)

// unsatError reports a graph no plan satisfies; Main exits with exitUnsat.
type unsatError struct{ msg string }

func (e *unsatError) Error() string { return e.msg }

func newSolveCmd(records *[]string) *cobra.Command {
	var format, notation, backendName, compare string
	var limits limitFlags
	cmd := &cobra.Command{
		Use:   "solve GRAPH",
		Short: "choose every value's layout and every op's intrinsic, with the proven minimum cost",
		Long: `Reads a kernel graph (docs/graphs.md), builds the constraint problem from the
target's intrinsic records, and prints the cheapest plan: the layout of every
value, the intrinsic and warp arrangement of every matrix op, the conversions
that remain with their mechanism and cost, and whether the cost is proven
minimal. Exit codes: 0 a plan, 1 bad input, 2 no plan exists.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := intrinsics.Load(*records...)
			if err != nil {
				return err
			}
			if !slices.Contains([]string{"text", "json", "toml", "dot"}, format) {
				return badFlag("format", format, "text", "json", "toml", "dot")
			}
			if err := checkBackend(backendName); err != nil {
				return err
			}
			if compare != "" && compare != solver.BackendGreedy {
				return badFlag("compare", compare, solver.BackendGreedy)
			}
			if compare != "" && backendName == compare {
				return fmt.Errorf("--compare %s compares the search's plan with the baseline: it needs --solver gini or smt, not %s", compare, backendName)
			}
			opt, done, err := limits.options(backendName, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			plan, res, err := solveGraph(lib, args[0], notation, opt)
			done()
			if err == nil && compare != "" {
				plan.Compare, err = compareGreedy(res, plan, notation)
			}
			out := cmd.OutOrStdout()
			var unsat *unsatError
			if errors.As(err, &unsat) {
				return explainUnsat(out, format, args[0], res, unsat, lib, 5, opt)
			}
			if err != nil {
				return err
			}
			switch format {
			case "text":
				err = plan.WriteText(out)
			case "json":
				err = plan.WriteJSON(out)
			case "toml":
				err = planfile.Write(out, plan)
			case "dot":
				err = plan.WriteDOT(out, plans.ShapeOf(res.Problem.Graph))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json, toml or dot")
	cmd.Flags().StringVar(&notation, "notation", "", "write layouts in this notation (default: the graph's own)")
	limits.add(cmd, "stop the search after this long and report the best plan with its lower bound")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, smt (Z3, in binaries built with -tags z3), or greedy (the propagation baseline of today's compilers)")
	cmd.Flags().StringVar(&compare, "compare", "", "also run this baseline (greedy) and print both costs and their ratio")
	return cmd
}

// compareGreedy runs the greedy baseline on the solved problem, checks its
// plan like any other, and sets its cost beside the plan's.
func compareGreedy(res *solver.Result, plan *plans.Plan, notation string) (*plans.Comparison, error) {
	gr := res.Problem.Greedy()
	if gr.Assignment != nil {
		g := res.Problem.Graph
		gp, err := plans.Build(g, res.Problem.Target, gr.Assignment, notation)
		if err != nil {
			return nil, err
		}
		if gp.Cost != gr.Cost {
			return nil, fmt.Errorf("internal error: the greedy plan's costs add up to %d but the baseline counted %d", gp.Cost, gr.Cost)
		}
		if err := plans.Verify(g, gr.Assignment, gp); err != nil {
			return nil, fmt.Errorf("internal error: the greedy plan: %v", err)
		}
	}
	return plans.NewComparison(solver.BackendGreedy, plan.Cost, gr.Cost, gr.NoPlan), nil
}

// solveGraph reads, solves and plans a graph.
func solveGraph(lib *intrinsics.Library, path, notation string, opt solver.Options) (*plans.Plan, *solver.Result, error) {
	if notation != "" && !isKind(notation) {
		return nil, nil, badFlag("notation", notation, model.Kinds...)
	}
	start := time.Now()
	g, err := readGraph(lib, path)
	if err != nil {
		return nil, nil, err
	}
	t, recs := targetRecords(lib, g)
	p, err := solver.BuildWithin(g, t, recs, opt)
	var limit *solver.LimitError
	if errors.As(err, &limit) {
		return nil, nil, &unsatError{msg: fmt.Sprintf("%s: %v", path, err)}
	}
	if err != nil {
		return nil, nil, err
	}
	res := solver.Solve(p, opt)
	if res.Err != nil {
		return nil, res, res.Err
	}
	if res.Baseline != "" && res.Assignment == nil {
		return nil, res, &unsatError{msg: fmt.Sprintf("%s: %s found no plan: %s", path, res.Baseline, res.NoPlan)}
	}
	switch {
	case res.Status == solver.StatusInfeasible:
		return nil, res, &unsatError{msg: fmt.Sprintf("%s: no plan satisfies the graph's constraints on %s", path, t.Name)}
	case res.Status == solver.StatusUnknown && res.StoppedBy == "memory":
		return nil, res, &unsatError{msg: fmt.Sprintf("%s: stopped at %s before any plan was found (lower bound %d)", path, res.Stopped, res.LowerBound)}
	case res.Status == solver.StatusUnknown:
		return nil, res, &unsatError{msg: fmt.Sprintf("%s: the time limit of %v ran out before any plan was found (lower bound %d)", path, opt.TimeLimit, res.LowerBound)}
	}
	stop := during(opt, start, "plan")
	plan, err := plans.Build(g, t, res.Assignment, notation)
	if err != nil {
		stop()
		return nil, res, err
	}
	if plan.Cost != res.Cost {
		stop()
		return nil, res, fmt.Errorf("internal error: the plan's costs add up to %d but the search found %d", plan.Cost, res.Cost)
	}
	err = plans.Verify(g, res.Assignment, plan)
	stop()
	if err != nil {
		return nil, res, fmt.Errorf("internal error: %v", err)
	}
	plan.GraphHash = graphHash(path)
	plan.Status = res.Status.String()
	plan.LowerBound = res.LowerBound
	if res.Baseline != "" {
		plan.Status = res.Baseline
	}
	plan.Search = res.Search
	if res.StoppedBy == "memory" {
		plan.Stopped = res.Stopped
	}
	s := res.Stats
	plan.Stats = plans.Stats{Candidates: res.Candidates, Nodes: s.Nodes, Edges: s.Edges, CoreNodes: s.CoreNodes, Reduced: s.Reduced,
		Variables: s.Variables, Clauses: s.Clauses, Solves: s.Solves}
	return plan, res, nil
}

// targetRecords is the graph's target and the records it offers.
func targetRecords(lib *intrinsics.Library, g *model.Graph) (*model.Target, []*model.Record) {
	t := lib.Targets[g.Target]
	var recs []*model.Record
	for _, n := range t.Records {
		recs = append(recs, lib.Records[n])
	}
	return t, recs
}

// writeUnsatJSON writes the JSON answer for a graph whose search ran out
// of time before any plan.
func writeUnsatJSON(w io.Writer, path string, res *solver.Result, err *unsatError) error {
	out := map[string]any{"status": "unknown", "file": path, "message": err.Error()}
	if res != nil && res.Baseline == "" {
		out["lower_bound"] = res.LowerBound // a bound the search proved before it stopped
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func readGraph(lib *intrinsics.Library, path string) (*model.Graph, error) {
	return tomlio.ReadGraph(path, lib.Targets)
}

func isKind(k string) bool {
	for _, x := range model.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// checkBackend checks a --solver name.
func checkBackend(name string) error {
	_, ok := solver.Backends[name]
	switch {
	case ok:
		return nil
	case name == "smt":
		return fmt.Errorf("--solver smt: this planner is built without Z3; build it with go build -tags z3 (needs libz3-dev)")
	}
	return badFlag("solver", name, "gini", "smt", solver.BackendGreedy)
}
