package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"planner/model"
)

// Exit codes.
const (
	exitOK             = 0
	exitBadInput       = 1 // bad input or usage: the message says what and where
	exitUnsat          = 5 // no plan satisfies the constraints (not 2, the exit code of a Go panic)
	exitNotExpressible = 3 // the layout has no form in the requested notation
	exitStopped        = 4 // a time or memory limit (or Ctrl-C) stopped the run before any plan
)

// Main runs the command line and returns the exit code. It is the only
// place that prints errors.
func Main(args []string, stdout, stderr io.Writer) int {
	return run(args, os.Stdin, stdout, stderr)
}

// run is Main with the standard input a graph named "-" is read from.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	root := newRoot(out, stderr)
	root.SetIn(stdin)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing standard output: %w", out.err) // help and usage too, whose writes cobra does not check
	}
	if err == nil {
		return exitOK
	}
	code := exitBadInput
	var unsat *unsatError
	if errors.As(err, &unsat) {
		fmt.Fprintln(stderr, unsat.Error())
		if unsat.stopped {
			return exitStopped
		}
		return exitUnsat
	}
	var unproved *notProvedError
	if errors.As(err, &unproved) {
		fmt.Fprintln(stderr, unproved.Error())
		return exitStopped
	}
	var list model.ErrorList
	var one *model.Error
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			fmt.Fprintln(stderr, e.Error())
		}
		if len(list) > 0 && list[0].Code == model.CodeNotExpressible {
			code = exitNotExpressible
		}
		return code
	case errors.As(err, &one):
		if one.Code == model.CodeNotExpressible {
			code = exitNotExpressible
		}
	}
	fmt.Fprintln(stderr, err.Error())
	return code
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "planner",
		Short:         "choose GPU data layouts: registers, shared memory, conversions",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       versionText(debug.ReadBuildInfo()),
	}
	root.SetVersionTemplate("planner {{.Version}}")
	root.SetOut(stdout)
	root.SetErr(stderr)
	var records []string
	root.PersistentFlags().StringArrayVar(&records, "records", nil, "a folder or file of intrinsic and target records to use beside the built-in ones (repeatable; a path is taken whole, commas included)")
	root.PersistentFlags().String("max-input", "", maxInputHelp)
	root.AddCommand(newSolveCmd(&records), newExplainCmd(&records), newGenCmd(), newBenchCmd(&records), newLayoutCmd(), newIntrinsicsCmd(&records))
	root.AddCommand(newVerifyCmd(&records))
	addCompletions(root, &records)
	withUsage(root)
	return root
}

// withUsage makes every command's wrong count of arguments say the
// command's usage line after what is wrong (errors print no usage
// otherwise: SilenceUsage).
func withUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return fmt.Errorf("%v\nusage: %s", err, cmd.UseLine())
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		withUsage(sub)
	}
}

// checkedWriter keeps the first error of writing to w, so that no write
// failure, however the writer's caller treats it, ends in exit 0 with
// the output lost. (A standard output closed before planner starts is
// not one: the Go runtime opens /dev/null in its place.)
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
