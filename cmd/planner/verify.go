package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
)

func newVerifyCmd(records *[]string) *cobra.Command {
	var graphPath string
	cmd := &cobra.Command{
		Use:   "verify PLAN",
		Short: "replay a plan written by solve --format toml, element by element",
		Long: `Reads a plan that planner solve --format toml wrote, the graph it names
(checked against the SHA-256 the plan records) and the target's records,
rebuilds every choice the plan made, and replays it element by element:
every layout holds every element, every conversion delivers exactly the
layout its consumer needs by the mechanism the plan claims (shuffles round
by round, shared memory through its scratch), every mma operand and load
is its record's fragment, every buffer placement obeys its records' rules,
and every cost recomputes from the model. Prints one line and exits 0 when
the plan holds; prints the first difference (value, element, subgroup,
lane, register) and exits 1 when it does not.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := intrinsics.Load(*records...)
			if err != nil {
				return err
			}
			pf, err := planfile.Read(args[0])
			if err != nil {
				return err
			}
			path := graphPath
			if path == "" {
				path = planGraphPath(args[0], pf.Graph)
			}
			g, err := pf.ReadGraph(path, lib.Targets)
			if err != nil {
				return err
			}
			plan, err := replayPlan(lib, pf, g)
			if err != nil {
				return err
			}
			t := lib.Targets[g.Target]
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "verified %s: %s, %s and %s replayed element by element against %s on %s; cost %d recomputed\n",
				args[0], plural(len(plan.Values), "value"), plural(len(plan.Ops), "op"), plural(len(plan.Conv), "conversion"), path, t.Name, plan.Cost)
			return err
		},
	}
	cmd.Flags().StringVar(&graphPath, "graph", "", "the graph file, when it is no longer where the plan says")
	return cmd
}

// replayPlan rebuilds a plan's choices for graph g from the records its
// target offers, replays them element by element and recomputes every
// cost.
func replayPlan(lib *intrinsics.Library, pf *planfile.File, g *model.Graph) (*plans.Plan, error) {
	t, recs := targetRecords(lib, g)
	offered := map[string]*model.Record{}
	for _, r := range recs {
		offered[r.Name] = r
	}
	plan, a, err := pf.Rebuild(g, offered)
	if err != nil {
		return nil, err
	}
	if err := plans.Verify(g, a, plan); err != nil {
		return nil, fmt.Errorf("%s: %v", pf.File, err)
	}
	again, err := plans.Build(g, t, a, plan.Notation)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pf.File, err)
	}
	if err := plans.SameCosts(plan, again); err != nil {
		return nil, fmt.Errorf("%s: %v", pf.File, err)
	}
	return plan, nil
}

// planGraphPath is where the graph a plan names lies: as the plan names
// it, or, when no file is there, relative to the plan's folder.
func planGraphPath(planPath, named string) string {
	if _, err := os.Stat(named); err == nil || filepath.IsAbs(named) {
		return named
	}
	beside := filepath.Join(filepath.Dir(planPath), named)
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return named
}

// graphHash is the SHA-256 of the graph file a plan is made from ("" when
// it cannot be read again).
func graphHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return planfile.HashGraph(data)
}
