package main

import (
	"fmt"
	"planner"

	"github.com/spf13/cobra"
)

// inputFlags say how to read a kernel written in MLIR (a file named
// *.mlir): --func, --target, --subgroups and --trips (docs/mlir.md).
type inputFlags struct {
	fn, target       string
	subgroups, trips int
	format           string // --input-format: how to read standard input
	keepAnchors      bool
	registers        string // --registers: budget (the input's own rule) or spill
}

// add registers the flags; verify takes only --func and --trips (the
// plan gives the target and the subgroup count).
func (f *inputFlags) add(cmd *cobra.Command, context bool) {
	cmd.Flags().StringVar(&f.fn, "func", "", "MLIR input: the func.func to read (default: the only one)")
	if context {
		cmd.Flags().StringVar(&f.target, "target", "", "MLIR input: the target, where the IR states none (an #iree_gpu.target<arch = ...> or chip = \"...\"), or in place of the one it states")
		cmd.Flags().IntVar(&f.subgroups, "subgroups", 0, "MLIR input: the subgroups per workgroup, where the IR states no workgroup size (translation_info, gpu.known_block_size), or in place of it")
		cmd.Flags().StringVar(&f.registers, "registers", "", "spill: let the plan exceed the target's registers per lane, the excess priced as spilling (a graph file's registers = \"spill\"; the only way to say it for MLIR and TTGIR); budget: keep within them; unset: as the input says (MLIR and TTGIR: within)")
		cmd.Flags().BoolVar(&f.keepAnchors, "keep-anchors", false, "TTGIR input: keep the encodings of tt.load, tt.store and tt.dot as pins (default: the planner chooses them within the target's records)")
	}
	cmd.Flags().IntVar(&f.trips, "trips", 0, "MLIR input: the trip count to price an scf.for at when its bounds are not constants (the plan says it was assumed; TTGIR: 16 when not given)")
}

// addFormat registers --input-format, which says how to read standard
// input.
func (f *inputFlags) addFormat(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.format, "input-format", "", "read standard input (GRAPH -) as mlir (a kernel in MLIR, named <stdin>.mlir in messages) or graph (the default)")
}

// input checks the flags and gives the library's Input.
func (f *inputFlags) input() (planner.Input, error) {
	if f.subgroups < 0 {
		return planner.Input{}, fmt.Errorf("--subgroups must be positive, found %d", f.subgroups)
	}
	if f.trips < 0 {
		return planner.Input{}, fmt.Errorf("--trips must be positive, found %d", f.trips)
	}
	if f.format != "" && f.format != "mlir" && f.format != "graph" {
		return planner.Input{}, badFlag("input-format", f.format, "mlir", "graph")
	}
	if f.registers != "" && f.registers != "budget" && f.registers != "spill" {
		return planner.Input{}, badFlag("registers", f.registers, "budget", "spill")
	}
	return planner.Input{Func: f.fn, Target: f.target, Subgroups: f.subgroups, Trips: f.trips, KeepAnchors: f.keepAnchors, Registers: f.registers}, nil
}
