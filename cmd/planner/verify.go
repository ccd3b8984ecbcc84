package main

import (
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"planner"
)

// notProvedError reports a plan whose choices and costs replayed but
// whose claim (optimal, a lower bound, the greedy baseline's plan) the
// --prove search did not re-prove before its limit; Main exits with
// exitStopped.
type notProvedError struct{ msg string }

func (e *notProvedError) Error() string { return e.msg }

func newVerifyCmd(records *[]string) *cobra.Command {
	var graphPath string
	var prove time.Duration
	var in inputFlags
	cmd := &cobra.Command{
		Use:   "verify PLAN",
		Short: "replay a plan written by solve --format toml, element by element",
		Long: `Reads a plan that planner solve --format toml wrote, the graph it names
(checked against the SHA-256 the plan records) and the target's records,
rebuilds every choice the plan made, and replays it element by element:
every layout holds every element, every conversion delivers exactly the
layout its consumer needs by the mechanism the plan claims (shuffles round
by round, shared memory through its scratch), every mma operand and load
is its record's fragment, every mma's arrangement of warps is the one its
layouts show, every buffer placement obeys its records' rules, and every
cost recomputes from the model; every other key the plan carries (layout
strings, methods, counts, status, lower bound) is written again from the
replay and compared (docs/verify.md lists each key and what checks it).
With --prove (on by default, 2s) the graph is solved again to re-prove the
plan's status and lower bound. Prints one line and exits 0 when the plan
holds ("verified"; "replayed" when --prove 0 leaves a claim of the plan
not re-proved); exits 4 when the --prove search stops before it re-proves
the plan's claim; prints each difference at the plan's file:line:col (the value,
element, subgroup, lane and register where a replay fails) and exits 1
when it does not. A plan of a kernel in MLIR reads the kernel again for
the plan's target and subgroup count (--func and --trips as for solve).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if prove < 0 {
				return fmt.Errorf("--prove %v: give a time to re-prove the plan's claims for, or 0 not to", prove)
			}
			pl, err := newPlanner(cmd, *records)
			if err != nil {
				return err
			}
			ctx, cancel := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer cancel()
			input, err := in.input()
			if err != nil {
				return err
			}
			r, err := pl.VerifyFileInput(ctx, args[0], graphPath, input)
			if err != nil {
				return err
			}
			plan := r.Plan
			claim := planner.Claim(plan)
			verdict, said := "verified", ""
			var unproved error
			switch {
			case prove > 0:
				proof, err := pl.Prove(ctx, r, prove)
				if err != nil {
					return err
				}
				said = "; " + proof.Said
				if !proof.Settled {
					verdict = "replayed"
					unproved = &notProvedError{fmt.Sprintf("%s: %s not re-proved within --prove %v; the choices and costs replay, the claim does not: give --prove longer", args[0], claim, prove)}
				}
			case claim != "":
				verdict, said = "replayed", fmt.Sprintf("; %s not re-proved (--prove 0 searches nothing)", claim)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %s, %s and %s replayed element by element against %s on %s; cost %d recomputed%s\n",
				verdict, args[0], plural(len(plan.Values), "value"), plural(len(plan.Ops), "op"), plural(len(plan.Conv), "conversion"), r.Path, r.Target.Name, plan.Cost, said)
			if err == nil {
				err = unproved
			}
			return err
		},
	}
	cmd.Flags().StringVar(&graphPath, "graph", "", "the graph file, when it is no longer where the plan says")
	cmd.Flags().DurationVar(&prove, "prove", 2*time.Second, "re-solve the graph for at most this long to re-prove the plan's status and lower bound (0: do not)")
	in.add(cmd, false)
	return cmd
}
