package main

import (
	"context"
	"fmt"
	"planner"

	"github.com/spf13/cobra"

	"planner/tomlio"
)

// stdinName is what errors and plans call a graph read from standard
// input, given as the file name "-".
const stdinName = "<stdin>"

// inputName is how messages name the file argument path.
func inputName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// solveArg solves the graph a command names: a file, or "-" for
// standard input.
func solveArg(ctx context.Context, cmd *cobra.Command, pl *planner.Planner, path string, opt planner.Options) (*planner.Result, error) {
	if path != "-" {
		return pl.SolveFile(ctx, path, opt)
	}
	data, err := pl.ReadInput(stdinName, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	return pl.SolveText(ctx, stdinName, data, opt)
}

// maxInputHelp documents --max-input, a flag of every command.
var maxInputHelp = fmt.Sprintf("refuse graph files of more than this many bytes (e.g. 512MiB; default %s); planner gen writes no graph larger", tomlio.ByteSize(tomlio.DefaultMaxInput))

// maxInput reads --max-input (a flag of the root command): the most bytes
// a graph may have.
func maxInput(cmd *cobra.Command) (int, error) {
	f := cmd.Flags().Lookup("max-input")
	if f == nil || f.Value.String() == "" {
		return tomlio.DefaultMaxInput, nil
	}
	n, err := parseBytes(f.Value.String())
	if err == nil && n > 1<<40 {
		err = fmt.Errorf("at most 1TiB")
	}
	if err != nil {
		return 0, fmt.Errorf("--max-input %s: %v", f.Value.String(), err)
	}
	return int(n), nil
}

// newPlanner loads the built-in records and those of --records, with the
// limit of --max-input on the graphs it reads.
func newPlanner(cmd *cobra.Command, records []string) (*planner.Planner, error) {
	limit, err := maxInput(cmd)
	if err != nil {
		return nil, err
	}
	pl, err := planner.New(records...)
	if err != nil {
		return nil, err
	}
	pl.MaxInput = limit
	return pl, nil
}
