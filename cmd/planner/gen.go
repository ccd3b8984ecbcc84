package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"planner"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"planner/gen"
	"planner/model"
	"planner/plans"
	"planner/solver"
	"planner/tomlio"
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
loops (loops carrying an accumulator), or random (a random DAG). It writes
no graph planner solve would refuse: one larger than --max-input (default
128 MiB, more than a million ops of any family take) is an error, written
nowhere.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			limit, err := maxInput(cmd)
			if err != nil {
				return err
			}
			text, err := gen.Graph(family, ops, seed)
			if err != nil {
				return err
			}
			if len(text) > limit {
				// Refused, not written: solve would refuse it.
				return fmt.Errorf("the graph would have %d bytes, more than planner solve reads (--max-input %s): pass --max-input %dMiB or more to both gen and solve, or ask for fewer ops", len(text), tomlio.ByteSize(int64(limit)), (len(text)+1<<20-1)>>20)
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
	var backendName, format string
	var in inputFlags
	cmd := &cobra.Command{
		Use:   "bench DIR|FILE",
		Short: "solve every graph of a folder and print a table of sizes, times, memory and costs",
		Long: `Solves every graph (*.toml), MLIR kernel (*.mlir, read as --func,
--target, --subgroups and --trips say) and TTGIR kernel (*.ttgir) of DIR,
in name order, or the one FILE given, and prints one row each:
its ops, candidate layouts, search nodes (and those left for SAT), SAT
variables and clauses, seconds, peak and allocated MiB, status, cost, the
greedy baseline's cost and their ratio. --format json writes the rows as
schema/bench.schema.json describes. Exit codes: 0 every graph was
read, 1 bad input (the other graphs still run; the first error follows
the table).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBackend(backendName); err != nil {
				return err
			}
			if !slices.Contains([]string{"text", "json"}, format) {
				return badFlag("format", format, "text", "json")
			}
			pl, err := newPlanner(cmd, *records)
			if err != nil {
				return err
			}
			files, err := benchFiles(args[0])
			if err != nil {
				return err
			}
			input, err := in.input()
			if err != nil {
				return err
			}
			opt, done, err := limits.options(backendName, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opt.Input = input
			defer done()
			interrupted, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			var rows []benchRow
			var first error
			for _, f := range files {
				row, err := benchGraph(interrupted, pl, f, opt, &limits)
				first = cmp.Or(first, err)
				rows = append(rows, row)
			}
			if format == "json" {
				doc := benchDoc{SchemaVersion: plans.SchemaVersion, Dir: args[0], Graphs: rows}
				if err := plans.WriteDocument(cmd.OutOrStdout(), doc); err != nil {
					return err
				}
				return first
			}
			if err := writeBenchTable(cmd.OutOrStdout(), rows); err != nil {
				return err
			}
			return first
		},
	}
	limits.add(cmd, "stop each search after this long")
	cmd.Flags().StringVar(&backendName, "solver", "gini", "the search backend: gini, smt (Z3, in binaries built with -tags z3), or greedy (the propagation baseline of today's compilers)")
	cmd.Flags().StringVar(&format, "format", "text", "text (a table) or json")
	in.add(cmd, true)
	return cmd
}

// benchFiles are the inputs bench solves for its argument: the graphs
// (*.toml), MLIR kernels (*.mlir) and TTGIR kernels (*.ttgir) of a
// folder, in name order, or one file.
func benchFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", path, errors.Unwrap(err))
	case !st.IsDir():
		return []string{path}, nil
	}
	var files []string
	for _, ext := range []string{"*.toml", "*.mlir", "*.ttgir"} {
		found, err := filepath.Glob(filepath.Join(path, ext))
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a folder with no graphs (*.toml), MLIR kernels (*.mlir) or TTGIR kernels (*.ttgir)", path)
	}
	slices.Sort(files)
	return files, nil
}

// benchDoc is planner bench --format json (schema/bench.schema.json).
type benchDoc struct {
	SchemaVersion int        `json:"schema_version"`
	Dir           string     `json:"dir"`
	Graphs        []benchRow `json:"graphs"`
}

// benchRow is one graph of a bench: what is unknown (the graph could not
// be read, a limit stopped the build) is nil, an empty cell of the table.
type benchRow struct {
	Graph      string   `json:"graph"`
	Status     string   `json:"status"`
	Ops        *int     `json:"ops,omitempty"`
	Candidates *int     `json:"candidates,omitempty"`
	Nodes      *int     `json:"nodes,omitempty"`
	CoreNodes  *int     `json:"core_nodes,omitempty"`
	Variables  *int     `json:"variables,omitempty"`
	Clauses    *int     `json:"clauses,omitempty"`
	Seconds    *float64 `json:"seconds,omitempty"`
	PeakMiB    *uint64  `json:"peak_mib,omitempty"`
	AllocMiB   *float64 `json:"alloc_mib,omitempty"`
	Cost       *int64   `json:"cost,omitempty"`
	GreedyCost *int64   `json:"greedy_cost,omitempty"`
	Ratio      *float64 `json:"ratio,omitempty"`
	// searched: the search ran to an answer, so a missing cost, greedy
	// cost or ratio is written "-" (no plan) rather than left empty.
	searched bool
}

func ptr[T any](v T) *T { return &v }

// benchGraph reads and searches one graph of a bench; the error is the
// graph's bad input, which the row also says.
func benchGraph(interrupted context.Context, pl *planner.Planner, f string, opt planner.Options, limits *limitFlags) (benchRow, error) {
	row := benchRow{Graph: filepath.Base(f), Status: "bad input"}
	g, err := pl.ReadGraphInput(f, opt.Input)
	if err != nil {
		return row, err
	}
	ops := 0
	g.Walk(func(*model.Op) { ops++ })
	row.Ops = &ops
	var before, after runtime.MemStats
	debug.FreeOSMemory() // so that the peak is this graph's
	runtime.ReadMemStats(&before)
	start := time.Now()
	ctx, cancel := limits.graphContext(interrupted)
	res, err := pl.Search(ctx, g, opt)
	cancel()
	var limit *solver.LimitError
	if errors.As(err, &limit) {
		row.Status, row.Seconds = solver.StatusUnknown.String(), ptr(time.Since(start).Seconds())
		return row, nil
	}
	if err != nil && res == nil {
		return row, err
	}
	row.Seconds = ptr(time.Since(start).Seconds())
	if res.Err != nil {
		row.Status = "internal error"
		return row, res.Err
	}
	runtime.ReadMemStats(&after)
	s := res.Stats
	row.Status, row.searched = res.Status.String(), true
	row.Candidates, row.Nodes, row.CoreNodes, row.Variables, row.Clauses = &res.Candidates, &s.Nodes, &s.CoreNodes, &s.Variables, &s.Clauses
	row.PeakMiB, row.AllocMiB = ptr(res.Peak>>20), ptr(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	if res.Cost < solver.Inf {
		row.Cost = &res.Cost
	}
	row.GreedyCost, row.Ratio = greedyColumns(res.Problem, res)
	return row, nil
}

// writeBenchTable writes the rows as a table, numbers right-aligned.
func writeBenchTable(w io.Writer, rows []benchRow) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "graph\tops\tcandidates\tnodes\tcore\tvariables\tclauses\tseconds\tpeak MiB\talloc MiB\tstatus\tcost\tgreedy\tratio\t")
	cell := func(p any, format string) string {
		switch v := p.(type) {
		case *int:
			if v != nil {
				return fmt.Sprint(*v)
			}
		case *int64:
			if v != nil {
				return fmt.Sprint(*v)
			}
		case *uint64:
			if v != nil {
				return fmt.Sprint(*v)
			}
		case *float64:
			if v != nil {
				return fmt.Sprintf(format, *v)
			}
		}
		return ""
	}
	for _, r := range rows {
		cost, greedy, ratio := cell(r.Cost, ""), cell(r.GreedyCost, ""), cell(r.Ratio, "%.3f")
		if r.searched {
			cost, greedy, ratio = cmp.Or(cost, "-"), cmp.Or(greedy, "-"), cmp.Or(ratio, "-")
		}
		cells := []string{r.Graph, cell(r.Ops, ""), cell(r.Candidates, ""), cell(r.Nodes, ""), cell(r.CoreNodes, ""), cell(r.Variables, ""),
			cell(r.Clauses, ""), cell(r.Seconds, "%.3f"), cell(r.PeakMiB, ""), cell(r.AllocMiB, "%.0f"), r.Status, cost, greedy, ratio}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tw.Flush()
}

// greedyColumns are the greedy baseline's cost on the problem and its
// ratio to the solve's cost, to 3 decimals (nil where either has no plan
// or the cost is 0).
func greedyColumns(p *solver.Problem, res *solver.Result) (*int64, *float64) {
	gr := p.Greedy()
	if gr.Cost >= solver.Inf {
		return nil, nil
	}
	var ratio *float64
	if res.Cost > 0 && res.Cost < solver.Inf {
		ratio = ptr(math.Round(float64(gr.Cost)/float64(res.Cost)*1000) / 1000)
	}
	return &gr.Cost, ratio
}
