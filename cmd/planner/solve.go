package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"planner"
	"slices"

	"github.com/spf13/cobra"

	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
	"planner/solver"
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
		Long: `Reads a kernel graph (docs/graphs.md; GRAPH "-" reads it from standard
input, named <stdin> in messages), builds the constraint problem from the
target's intrinsic records, and prints the cheapest plan: the layout of every
value, the intrinsic and warp arrangement of every matrix op, the conversions
that remain with their mechanism and cost, and whether the cost is proven
minimal. Exit codes: 0 a plan, 1 bad input, 2 no plan exists.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pl, err := planner.New(*records...)
			if err != nil {
				return err
			}
			if !slices.Contains([]string{"text", "json", "toml", "dot"}, format) {
				return badFlag("format", format, "text", "json", "toml", "dot")
			}
			if err := checkBackend(backendName); err != nil {
				return err
			}
			if notation != "" && !slices.Contains(model.Kinds, notation) {
				return badFlag("notation", notation, model.Kinds...)
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
			opt.Notation, opt.CompareGreedy = notation, compare != ""
			ctx, cancel := limits.context()
			res, err := solveArg(ctx, cmd, pl, args[0], opt)
			cancel()
			done()
			if err != nil {
				return badInputJSON(cmd.OutOrStdout(), format, inputName(args[0]), err)
			}
			out := cmd.OutOrStdout()
			if res.Plan == nil {
				return explainUnsat(cmd.Context(), out, format, pl, res, 5, opt)
			}
			plan := res.Plan
			switch format {
			case "text":
				err = plan.WriteText(out)
			case "json":
				err = plan.WriteJSON(out)
			case "toml":
				err = planfile.Write(out, plan)
			case "dot":
				err = plan.WriteDOT(out, plans.ShapeOf(res.Graph))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json, toml or dot")
	cmd.Flags().StringVar(&notation, "notation", "", "write layouts in this notation (default: the graph's own)")
	limits.add(cmd, "stop the search after this long and report the best plan with its lower bound")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, smt (Z3, in binaries built with -tags z3), smt-symbolic (Z3 with the buffers' placements as unknowns, until --time-limit), or greedy (the propagation baseline of today's compilers)")
	cmd.Flags().StringVar(&compare, "compare", "", "also run this baseline (greedy) and print both costs and their ratio")
	return cmd
}

// badInputJSON writes, for --format json, the errors of a graph that
// could not be read as JSON on standard output (each with its position,
// code, message and related positions), for tools; the text still goes
// to standard error. It returns err.
func badInputJSON(w io.Writer, format, path string, err error) error {
	var list model.ErrorList
	var one *model.Error
	switch {
	case format != "json":
		return err
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = model.ErrorList{one}
	default:
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if werr := enc.Encode(map[string]any{"status": "bad input", "file": path, "errors": list}); werr != nil {
		return werr
	}
	return err
}

// writeUnsatJSON writes the JSON answer for a graph whose search ran out
// of time before any plan.
func writeUnsatJSON(w io.Writer, res *planner.Result, err *unsatError) error {
	out := map[string]any{"status": "unknown", "file": res.Graph.File, "message": err.Error()}
	if res.Search != nil && res.Search.Baseline == "" {
		out["lower_bound"] = res.Search.LowerBound // a bound the search proved before it stopped
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// checkBackend checks a --solver name.
func checkBackend(name string) error {
	_, ok := solver.Backends[name]
	switch {
	case ok:
		return nil
	case name == "smt" || name == "smt-symbolic":
		return fmt.Errorf("--solver %s: this planner is built without Z3; build it with go build -tags z3 (needs libz3-dev)", name)
	}
	return badFlag("solver", name, "gini", "smt", "smt-symbolic", solver.BackendGreedy)
}
