package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"planner"

	"github.com/spf13/cobra"

	"planner/plans"
)

// solveFunctions plans every function of a kernel in MLIR that has
// several and no --func (docs/mlir.md, "Several functions"): --format text
// prints each function's answer headed by its name, json one document
// listing each function's (schema/functions.schema.json), mlir the module
// with every plan written into it. toml and dot write one function's plan
// and need --func. A function without a plan gives the exit code a single
// function's would, after every function's answer is printed; with
// --format mlir nothing is written then.
func solveFunctions(ctx context.Context, cmd *cobra.Command, pl *planner.Planner, name string, data []byte, fns []string, opt planner.Options, format string, verbose bool) error {
	out := cmd.OutOrStdout()
	if format == "toml" || format == "dot" {
		return fmt.Errorf("%s has %d functions (%s): --format %s writes one function's plan; name it with --func NAME (--format text, json and mlir plan every function)", name, len(fns), atNames(fns), format)
	}
	res, err := pl.SolveFunctions(ctx, name, data, opt)
	if err != nil {
		return badInputJSON(out, format, name, err)
	}
	var first error // the first function without a plan
	answer := func(w io.Writer, r planner.FuncResult, format string) error {
		err := writeAnswer(cmd.Context(), w, format, pl, r.Result, opt, verbose)
		if _, unsat := err.(*unsatError); unsat {
			if first == nil {
				first = err
			}
			return nil
		}
		return err
	}
	switch format {
	case "json":
		doc := functionsDoc{SchemaVersion: plans.SchemaVersion, File: name}
		for _, r := range res {
			var b bytes.Buffer
			if err := answer(&b, r, format); err != nil {
				return err
			}
			doc.Functions = append(doc.Functions, functionAnswer{Function: r.Func, Answer: json.RawMessage(b.Bytes())})
		}
		if err := plans.WriteDocument(out, doc); err != nil {
			return err
		}
	case "mlir":
		for _, r := range res {
			if r.Plan != nil {
				continue
			}
			fmt.Fprintf(out, "function @%s\n", r.Func)
			if err := answer(out, r, "text"); err != nil {
				return err
			}
		}
		if first == nil {
			return pl.WriteMLIRFunctions(ctx, out, name, data, opt, res)
		}
	default:
		for i, r := range res {
			if i > 0 {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "function @%s\n", r.Func)
			if err := answer(out, r, "text"); err != nil {
				return err
			}
		}
	}
	return first
}

// writeAnswer writes one function's answer as planner solve writes a
// kernel's: its plan in text or JSON, or why it has none (an
// *unsatError).
func writeAnswer(ctx context.Context, w io.Writer, format string, pl *planner.Planner, res *planner.Result, opt planner.Options, verbose bool) error {
	if res.Plan == nil {
		return explainUnsat(ctx, w, format, pl, res, 5, opt)
	}
	if format == "json" {
		return res.Plan.WriteJSON(w)
	}
	return res.Plan.WriteTextWith(w, plans.TextOptions{Verbose: verbose})
}

// atNames writes function names as MLIR does, @a, @b.
func atNames(fns []string) string {
	return "@" + strings.Join(fns, ", @")
}

// functionsDoc is the JSON answer for a module of several functions
// (schema/functions.schema.json): each function's answer as --format json
// --func NAME writes it.
type functionsDoc struct {
	SchemaVersion int              `json:"schema_version"`
	File          string           `json:"file"`
	Functions     []functionAnswer `json:"functions"`
}

type functionAnswer struct {
	Function string          `json:"function"`
	Answer   json.RawMessage `json:"answer"`
}
