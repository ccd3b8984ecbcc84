package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"planner"

	"github.com/spf13/cobra"

	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/plans/planfile"
	"planner/solver"
	"planner/tomlio"
)

// unsatError reports a graph with no plan; Main exits with exitUnsat, or
// with exitStopped when a limit stopped the run before any plan.
type unsatError struct {
	msg     string
	stopped bool
}

func (e *unsatError) Error() string { return e.msg }

func newSolveCmd(records *[]string) *cobra.Command {
	var format, notationKind, backendName, compare, maxConversions string
	var verbose bool
	var limits limitFlags
	var in inputFlags
	cmd := &cobra.Command{
		Use:   "solve GRAPH",
		Short: "choose every value's layout and every op's intrinsic, with the proven minimum cost",
		Long: `Reads a kernel graph (docs/graphs.md; GRAPH "-" reads it from standard
input, named <stdin> in messages) or a kernel in MLIR (GRAPH a file named
*.mlir, or "-" with --input-format mlir; the vector dialect or XeGPU:
docs/mlir.md, with --func, --target, --subgroups and --trips; or Triton's
TTGIR, a file named *.ttgir or an *.mlir whose module carries ttg.
attributes: docs/triton.md, with --keep-anchors), builds the constraint problem from the
target's intrinsic records, and prints the cheapest plan: the layout of every
value, the intrinsic and warp arrangement of every matrix op, the conversions
that remain with their mechanism and cost, and whether the cost is proven
minimal. --format mlir writes a kernel read from MLIR back with the plan
in it (every layout a to_layout, or for XeGPU a layout_result_N
attribute, each conversion explicit, the intrinsics and buffer
placements as attributes; docs/mlir.md, "What is written"). --time-limit covers the whole command, reading and writing
included (docs/architecture.md, "Stopping", says how it is split); when
the search has no better plan by then, the plan is the greedy baseline's.
A graph file of more than --max-input bytes (default 128 MiB) is refused
unread.
Notations (--notation, the layouts of a graph's pins and of the plan;
docs/layouts.md): ` + strings.Join(notation.Kinds, ", ") + `.
Exit codes: 0 a plan, 1 bad input, 5 no plan exists, 4 a limit (or
Ctrl-C) stopped the run before any plan.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := limits.context() // the time limit covers the whole command
			defer cancel()
			if !slices.Contains([]string{"text", "json", "toml", "dot", "mlir"}, format) {
				return badFlag("format", format, "text", "json", "toml", "dot", "mlir")
			}
			if format == "mlir" {
				if err := planner.CanWriteMLIR(inputName(args[0], in.format)); err != nil {
					return err
				}
			}
			if err := checkBackend(backendName); err != nil {
				return err
			}
			if notationKind != "" && !slices.Contains(notation.Kinds, notationKind) {
				return badFlag("notation", notationKind, notation.Kinds...)
			}
			if compare != "" && compare != solver.BackendGreedy && compare != plans.BaselineInput {
				return badFlag("compare", compare, solver.BackendGreedy, plans.BaselineInput)
			}
			if compare == solver.BackendGreedy && backendName == compare {
				return fmt.Errorf("--compare %s compares the search's plan with the baseline: it needs --solver gini or smt, not %s", compare, backendName)
			}
			opt, done, err := limits.options(backendName, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opt.Notation, opt.CompareGreedy, opt.CompareInput = notationKind, compare == solver.BackendGreedy, compare == plans.BaselineInput
			opt.MaxConversions = maxConversions
			if opt.Input, err = in.input(); err != nil {
				return err
			}
			pl, err := newPlanner(cmd, *records)
			if err != nil {
				return err
			}
			name := inputName(args[0], in.format)
			var text []byte // a kernel in MLIR, read once
			if planner.IsMLIR(name) && opt.Input.Func == "" {
				if text, err = readArg(cmd, pl, args[0], in); err != nil {
					done()
					return badInputJSON(cmd.OutOrStdout(), format, name, err)
				}
				if fns, ferr := planner.Functions(name, text); ferr == nil && len(fns) > 1 {
					err := solveFunctions(ctx, cmd, pl, name, text, fns, opt, format, verbose)
					done()
					return err
				}
			}
			res, stdin, err := solveArg(ctx, cmd, pl, args[0], in, opt, text)
			done()
			if err != nil {
				return badInputJSON(cmd.OutOrStdout(), format, inputName(args[0], in.format), err)
			}
			out := cmd.OutOrStdout()
			if res.Plan == nil {
				return explainUnsat(cmd.Context(), out, format, pl, res, 5, opt)
			}
			plan := res.Plan
			switch format {
			case "text":
				err = plan.WriteTextWith(out, plans.TextOptions{Verbose: verbose})
			case "json":
				err = plan.WriteJSON(out)
			case "toml":
				err = planfile.Write(out, plan)
			case "dot":
				err = plan.WriteDOT(out, plans.ShapeOf(res.Graph))
			case "mlir":
				data := stdin
				if data == nil {
					data, err = tomlio.ReadFileLimit(args[0], pl.MaxInput)
				}
				if err == nil {
					err = pl.WriteMLIR(out, inputName(args[0], in.format), data, opt.Input, res)
				}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json, toml, dot, or mlir (a kernel read from MLIR written back with the plan in it: docs/mlir.md)")
	cmd.Flags().StringVar(&notationKind, "notation", "", "write layouts in this notation: "+strings.Join(notation.Kinds, ", ")+" (default: the graph's own)")
	limits.add(cmd, "stop the search after this long and report the best plan with its lower bound")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, smt (Z3, in binaries built with -tags z3), smt-symbolic (Z3 with the buffers' placements as unknowns, until --time-limit), or greedy (the propagation baseline of today's compilers)")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "with --format text: list every arrangement each mma was chosen among, one a line")
	cmd.Flags().StringVar(&compare, "compare", "", "also run this baseline and print both costs and their ratio: greedy (the propagation baseline), or input (a TTGIR kernel's own encodings and convert_layouts, priced by the same model, with their conversions)")
	cmd.Flags().StringVar(&maxConversions, "max-conversions", "", `at most this many conversions in the plan (0 or more), or "none": in place of the graph's own bound (max_conversions; a TTGIR kernel is bounded by its own ttg.convert_layout count)`)
	in.add(cmd, true)
	in.addFormat(cmd)
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
	doc := badInputDoc{SchemaVersion: plans.SchemaVersion, Status: "bad input", File: path, Errors: list}
	if werr := plans.WriteDocument(w, doc); werr != nil {
		return werr
	}
	return err
}

// badInputDoc is the JSON answer to bad input
// (schema/bad_input.schema.json).
type badInputDoc struct {
	SchemaVersion int             `json:"schema_version"`
	Status        string          `json:"status"` // "bad input"
	File          string          `json:"file"`
	Errors        model.ErrorList `json:"errors"`
}

// noPlanDoc is the JSON answer when no plan was found and none was
// proven impossible (schema/no_plan.schema.json).
type noPlanDoc struct {
	SchemaVersion int    `json:"schema_version"`
	Status        string `json:"status"` // "unknown"
	File          string `json:"file"`
	Message       string `json:"message"`
	// LowerBound is a bound the search proved before it stopped; absent
	// when the build stopped or the greedy baseline found no plan.
	LowerBound *int64 `json:"lower_bound,omitempty"`
}

// writeUnsatJSON writes the JSON answer for a graph whose search stopped
// before any plan, or whose greedy baseline found none.
func writeUnsatJSON(w io.Writer, res *planner.Result, err *unsatError) error {
	out := noPlanDoc{SchemaVersion: plans.SchemaVersion, Status: "unknown", File: res.Graph.File, Message: err.Error()}
	if res.Outcome == planner.Stopped && res.LowerBound > 0 {
		lb := res.LowerBound // what the build or the search proved before it stopped; none before any cost was built
		out.LowerBound = &lb
	}
	return plans.WriteDocument(w, out)
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
