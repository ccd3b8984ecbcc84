package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"planner"
	"runtime"
	"runtime/debug"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planner/gen"
	"planner/model"
	"planner/solver"
)

func newGenCmd() *cobra.Command {
	var family, out string
	var ops int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "gen",
		Short: "write a synthetic graph of a given size and shape, reproducible from its seed",
		Long: `Writes a kernel graph (docs/graphs.md) for scale tests: --family chain
(element-wise math with transposes and row reductions), attention (stacked
Q·Kᵀ, softmax, P·V blocks), fanout (one tile into many chains added back),
loops (loops carrying an accumulator), or random (a random DAG).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := gen.Graph(family, ops, seed)
			if err != nil {
				return err
			}
			if out == "" {
				_, err = fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			}
			return os.WriteFile(out, []byte(text), 0o644)
		},
	}
	cmd.Flags().StringVar(&family, "family", "chain", "chain, attention, fanout, loops or random")
	cmd.Flags().IntVar(&ops, "ops", 100, "about how many ops")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the seed")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to this file instead of standard output")
	return cmd
}

func newBenchCmd(records *[]string) *cobra.Command {
	var limits limitFlags
	var backendName string
	cmd := &cobra.Command{
		Use:   "bench DIR",
		Short: "solve every graph of a folder and print a table of sizes, times, memory and costs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBackend(backendName); err != nil {
				return err
			}
			pl, err := planner.New(*records...)
			if err != nil {
				return err
			}
			files, err := filepath.Glob(filepath.Join(args[0], "*.toml"))
			if err != nil || len(files) == 0 {
				return fmt.Errorf("%s: no graphs (*.toml)", args[0])
			}
			slices.Sort(files)
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', tabwriter.AlignRight)
			opt, done, err := limits.options(backendName, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer done()
			interrupted, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			fmt.Fprintln(tw, "graph\tops\tcandidates\tnodes\tcore\tvariables\tclauses\tseconds\tpeak MiB\talloc MiB\tstatus\tcost\tgreedy\tratio\t")
			var first error
			for _, f := range files {
				g, err := pl.ReadGraph(f)
				if err != nil {
					// The other graphs still run; the error comes after the table.
					fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t\tbad input\t\t\t\t\n", filepath.Base(f))
					first = cmp.Or(first, err)
					continue
				}
				ops := 0
				g.Walk(func(*model.Op) { ops++ })
				var before, after runtime.MemStats
				debug.FreeOSMemory() // so that the peak is this graph's
				runtime.ReadMemStats(&before)
				start := time.Now()
				ctx, cancel := limits.graphContext(interrupted)
				res, err := pl.Search(ctx, g, opt)
				cancel()
				var limit *solver.LimitError
				if errors.As(err, &limit) {
					fmt.Fprintf(tw, "%s\t%d\t\t\t\t\t\t%.3f\t\t\t%s\t\t\n", filepath.Base(f), ops, time.Since(start).Seconds(), solver.StatusUnknown)
					continue
				}
				if err != nil && res == nil {
					fmt.Fprintf(tw, "%s\t%d\t\t\t\t\t\t\t\t\tbad input\t\t\t\t\n", filepath.Base(f), ops)
					first = cmp.Or(first, err)
					continue
				}
				secs := time.Since(start).Seconds()
				if res.Err != nil {
					fmt.Fprintf(tw, "%s\t%d\t\t\t\t\t\t%.3f\t\t\tinternal error\t\t\t\t\n", filepath.Base(f), ops, secs)
					first = cmp.Or(first, res.Err)
					continue
				}
				runtime.ReadMemStats(&after)
				s := res.Stats
				cost := fmt.Sprint(res.Cost)
				if res.Cost >= solver.Inf {
					cost = "-"
				}
				greedy, ratio := greedyColumns(res.Problem, res)
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t%d\t%.0f\t%s\t%s\t%s\t%s\t\n", filepath.Base(f), ops, res.Candidates, s.Nodes, s.CoreNodes,
					s.Variables, s.Clauses, secs, res.Peak>>20, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), res.Status, cost, greedy, ratio)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return first
		},
	}
	limits.add(cmd, "stop each search after this long")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, smt (Z3, in binaries built with -tags z3), or greedy (the propagation baseline of today's compilers)")
	return cmd
}

// greedyColumns are the greedy baseline's cost on the problem and its
// ratio to the solve's cost ("-" where either has no plan or the cost is
// 0).
func greedyColumns(p *solver.Problem, res *solver.Result) (string, string) {
	gr := p.Greedy()
	if gr.Cost >= solver.Inf {
		return "-", "-"
	}
	ratio := "-"
	if res.Cost > 0 && res.Cost < solver.Inf {
		ratio = fmt.Sprintf("%.3f", float64(gr.Cost)/float64(res.Cost))
	}
	return fmt.Sprint(gr.Cost), ratio
}
