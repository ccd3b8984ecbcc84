package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"planner"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"planner/model"
	"planner/plans"
)

func newExplainCmd(records *[]string) *cobra.Command {
	var format, backendName string
	var maxRelax int
	var timeLimit time.Duration
	var in inputFlags
	cmd := &cobra.Command{
		Use:   "explain GRAPH",
		Short: "say why a graph has no plan, or why each conversion of its plan is there",
		Long: `GRAPH is a graph file, or "-" for standard input (named <stdin> in
messages; with --input-format mlir a kernel in MLIR, named <stdin>.mlir),
or a kernel in MLIR (a file named *.mlir: docs/mlir.md, with
--func, --target, --subgroups and --trips; facts point at its
file:line:col). For a graph with no plan: a minimal set of conflicting facts (any
part of it can hold), each with the line it comes from, whether dropping one
alone allows a plan (other facts may conflict as well), how they collide, and the
smallest sets of facts whose removal allows a plan, cheapest first, with the
cost of the best plan each allows. Facts the graph lists under hard are never
offered. For a graph with a plan: for each conversion, the facts that force
it, or the cost of the cheapest plan without it.
Exit codes: 0 the graph has a plan, 1 bad input, 5 no plan exists, 4 a
limit (or Ctrl-C) stopped the search before any plan.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains([]string{"text", "json"}, format) {
				return badFlag("format", format, "text", "json")
			}
			if maxRelax < 0 {
				return fmt.Errorf("--max must be at least 0, found %d", maxRelax)
			}
			pl, err := newPlanner(cmd, *records)
			if err != nil {
				return err
			}
			if err := checkBackend(backendName); err != nil {
				return err
			}
			opt := planner.Options{Backend: backendName, SearchTimeLimit: timeLimit, KeepProblem: true}
			if opt.Input, err = in.input(); err != nil {
				return err
			}
			ctx, cancel := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer cancel()
			res, _, err := solveArg(ctx, cmd, pl, args[0], in, opt, nil)
			if err != nil {
				return badInputJSON(cmd.OutOrStdout(), format, inputName(args[0], in.format), err)
			}
			out := cmd.OutOrStdout()
			if res.Plan == nil {
				return explainUnsat(ctx, out, format, pl, res, maxRelax, opt)
			}
			e, err := pl.Explain(ctx, res, 0, opt)
			if err != nil {
				return err
			}
			return writeExplanation(out, format, e)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	cmd.Flags().IntVar(&maxRelax, "max", 5, "show at most this many relaxations")
	cmd.Flags().DurationVar(&timeLimit, "time-limit", 0, "bound each search (the plan's and each relaxation's)")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, or smt (Z3, in binaries built with -tags z3)")
	in.add(cmd, true)
	in.addFormat(cmd)
	return cmd
}

// explainUnsat writes why a graph has no plan and returns the error that
// makes the command exit with exitUnsat.
func explainUnsat(ctx context.Context, out io.Writer, format string, pl *planner.Planner, res *planner.Result, maxRelax int, opt planner.Options) error {
	unsat := &unsatError{msg: res.Why, stopped: res.Outcome == planner.Stopped}
	if res.Outcome != planner.Infeasible {
		if format == "json" {
			if err := writeUnsatJSON(out, res, unsat); err != nil {
				return err
			}
		}
		return unsat
	}
	e, err := pl.Explain(ctx, res, maxRelax, opt)
	if err != nil {
		return err
	}
	if format != "json" {
		format = "text"
	}
	if err := writeExplanation(out, format, e); err != nil {
		return err
	}
	what := fmt.Sprintf("%d facts conflict", len(e.Core))
	if len(e.Core) == 1 {
		what = "one fact rules out every plan"
	}
	return &unsatError{msg: fmt.Sprintf("%s: no plan exists on %s; %s", res.Graph.File, e.Target, what)}
}

func writeExplanation(w io.Writer, format string, e *model.Explanation) error {
	if format == "json" {
		return plans.WriteExplanationJSON(w, e)
	}
	return plans.WriteExplanationText(w, e)
}
