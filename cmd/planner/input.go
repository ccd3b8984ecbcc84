package main

import (
	"context"
	"fmt"
	"io"
	"planner"

	"github.com/spf13/cobra"

	"planner/model"
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
	data, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), tomlio.MaxFileBytes+1))
	if err != nil {
		return nil, &model.Error{Pos: model.Pos{File: stdinName}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	return pl.SolveText(ctx, stdinName, data, opt)
}
