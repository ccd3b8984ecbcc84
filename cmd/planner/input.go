package main

import (
	"context"
	"errors"
	"fmt"
	"planner"

	"github.com/spf13/cobra"

	"planner/tomlio"
)

// stdinName is what errors and plans call a graph read from standard
// input, given as the file name "-"; stdinMLIR a kernel in MLIR read from
// it (--input-format mlir), a name ending in .mlir as every MLIR input's
// does.
const (
	stdinName = "<stdin>"
	stdinMLIR = "<stdin>.mlir"
)

// inputName is how messages name the file argument path, read as the
// --input-format says.
func inputName(path, format string) string {
	switch {
	case path != "-":
		return path
	case format == "mlir":
		return stdinMLIR
	}
	return stdinName
}

// solveArg solves the graph a command names: a file, or "-" for standard
// input (a kernel in MLIR with --input-format mlir); data, when not nil,
// is its text, read already (readArg). It gives the text it read from
// standard input or was given (nil for a file it had SolveFile read), for
// writing the plan back into it.
func solveArg(ctx context.Context, cmd *cobra.Command, pl *planner.Planner, path string, in inputFlags, opt planner.Options, data []byte) (*planner.Result, []byte, error) {
	if data != nil {
		res, err := pl.SolveText(ctx, inputName(path, in.format), data, opt)
		return res, data, err
	}
	if path != "-" {
		if err := checkInputFormat(path, in); err != nil {
			return nil, nil, err
		}
		res, err := pl.SolveFile(ctx, path, opt)
		return res, nil, err
	}
	data, err := readArg(cmd, pl, path, in)
	if err != nil {
		return nil, nil, err
	}
	res, err := pl.SolveText(ctx, inputName(path, in.format), data, opt)
	return res, data, err
}

// readArg reads the text of the input a command names: a file, or "-"
// for standard input.
func readArg(cmd *cobra.Command, pl *planner.Planner, path string, in inputFlags) ([]byte, error) {
	if path != "-" {
		if err := checkInputFormat(path, in); err != nil {
			return nil, err
		}
		return tomlio.ReadFileLimit(path, pl.MaxInput)
	}
	return pl.ReadInput(inputName(path, in.format), cmd.InOrStdin())
}

// checkInputFormat refuses --input-format for a file, which is read by
// its name.
func checkInputFormat(path string, in inputFlags) error {
	if in.format != "" {
		return fmt.Errorf("--input-format says how to read standard input (-): %s is read by its name (*.mlir as MLIR, a graph file otherwise)", path)
	}
	return nil
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
	if err == nil && n > 1<<40 || errors.Is(err, errTooLarge) {
		err = fmt.Errorf("too large: at most 1TiB")
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
