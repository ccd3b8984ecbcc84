package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"planner/gen"
	"planner/intrinsics"
	"planner/notation"
	"planner/plans"
	"planner/solver"
)

// A flagOffer says what shell completion offers for one flag of one
// command (its path under planner): the words the command accepts.
type flagOffer struct {
	command, flag string
	words         func(records []string) []string
}

func fixed(words ...string) func([]string) []string {
	return func([]string) []string { return words }
}

// flagOffers are the flags with a closed set of values. A test checks
// each list against the values the command accepts.
var flagOffers = []flagOffer{
	{"solve", "format", fixed("text", "json", "toml", "dot", "mlir")},
	{"explain", "format", fixed("text", "json")},
	{"intrinsics show", "format", fixed("text", "svg", "json")},
	{"layout show", "format", fixed("text", "svg", "json")},
	{"layout convert", "format", fixed("toml", "attr")},
	{"layout diff", "format", fixed("text", "json")},
	{"bench", "format", fixed("text", "json")},
	{"solve", "notation", fixed(notation.Kinds...)},
	{"layout convert", "to", fixed(notation.Kinds...)},
	{"solve", "solver", backends},
	{"explain", "solver", backends},
	{"bench", "solver", backends},
	{"solve", "compare", fixed(solver.BackendGreedy, plans.BaselineInput)},
	{"solve", "progress", fixed("auto", "always", "never")},
	{"solve", "registers", fixed("budget", "spill")},
	{"explain", "registers", fixed("budget", "spill")},
	{"bench", "registers", fixed("budget", "spill")},
	{"bench", "progress", fixed("auto", "always", "never")},
	{"gen", "family", fixed(gen.Families...)},
	{"intrinsics list", "target", targetNames},
	{"solve", "target", targetNames},
	{"explain", "target", targetNames},
	{"bench", "target", targetNames},
}

// graphExtensions are the extensions of the files solve, explain and
// bench read: graph files, kernels in MLIR and in TTGIR.
var graphExtensions = []cobra.Completion{"toml", "mlir", "ttgir"}

// backends are the search backends this binary has (smt and
// smt-symbolic only in builds with the z3 tag).
func backends([]string) []string {
	var names []string
	for _, n := range []string{"gini", "smt", "smt-symbolic", solver.BackendGreedy} {
		if _, ok := solver.Backends[n]; ok {
			names = append(names, n)
		}
	}
	return names
}

// targetNames are the built-in targets and those of --records.
func targetNames(records []string) []string {
	lib, err := intrinsics.Load(records...)
	if err != nil {
		return nil
	}
	return lib.TargetNames()
}

// recordNames are the built-in records and those of --records.
func recordNames(records []string) []string {
	lib, err := intrinsics.Load(records...)
	if err != nil {
		return nil
	}
	return lib.RecordNames()
}

// addCompletions registers what the shell completes (cobra's completion
// command writes the scripts): the words of every flag of flagOffers,
// record names for intrinsics show, graph files and kernels in MLIR or
// TTGIR (*.toml, *.mlir, *.ttgir), plan and layout files (*.toml) and
// bench's folders and files.
func addCompletions(root *cobra.Command, records *[]string) {
	byPath := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		byPath[strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), root.Name()), " ")] = c
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, o := range flagOffers {
		c := byPath[o.command]
		if c == nil || c.Flags().Lookup(o.flag) == nil {
			continue // TestCompletionOffers reports it
		}
		words := o.words
		_ = c.RegisterFlagCompletionFunc(o.flag, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return words(*records), cobra.ShellCompDirectiveNoFileComp
		})
	}
	files := func(n int, exts ...cobra.Completion) cobra.CompletionFunc {
		return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) >= n {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return exts, cobra.ShellCompDirectiveFilterFileExt
		}
	}
	for path, n := range map[string]int{"verify": 1, "layout show": 1, "layout convert": 1, "layout diff": 2} {
		if c := byPath[path]; c != nil {
			c.ValidArgsFunction = files(n, "toml")
		}
	}
	// Graphs are graph files or kernels in MLIR or TTGIR; bench takes
	// them or a folder of them (the shells offer folders beside the
	// files an extension filter keeps).
	for _, path := range []string{"solve", "explain", "bench"} {
		if c := byPath[path]; c != nil {
			c.ValidArgsFunction = files(1, graphExtensions...)
		}
	}
	if c := byPath["intrinsics show"]; c != nil {
		c.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			names := slices.DeleteFunc(recordNames(*records), func(n string) bool { return !strings.HasPrefix(n, toComplete) })
			return names, cobra.ShellCompDirectiveNoFileComp
		}
	}
}
