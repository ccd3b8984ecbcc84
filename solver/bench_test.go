package solver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"planner/gen"
	"planner/model"
	"planner/solver/solvertest"
)

// BenchmarkSolveTestdata builds and solves every graph under
// testdata/graphs: the time a user waits for `planner solve`, without
// reading the records.
func BenchmarkSolveTestdata(b *testing.B) {
	for _, c := range testGraphs(b) {
		g, tg, recs := c.graph, c.target, c.records
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := Build(g, tg, recs)
				if err != nil {
					b.Fatal(err)
				}
				if res := Solve(p, Options{}); res.Status != StatusOptimal {
					b.Fatalf("status %v", res.Status)
				}
			}
		})
	}
}

type testGraph struct {
	name    string
	graph   *model.Graph
	target  *model.Target
	records []*model.Record
}

// testGraphs reads every graph under testdata/graphs with the built-in
// records of its target.
func testGraphs(tb testing.TB) []testGraph { return readGraphs(tb, "testdata/graphs/*.toml") }

// readGraphs reads the graphs a glob names (solvertest.ReadGraphs).
func readGraphs(tb testing.TB, glob string) []testGraph {
	var out []testGraph
	for _, g := range solvertest.ReadGraphs(tb, glob) {
		out = append(out, testGraph{g.Name, g.Graph, g.Target, g.Records})
	}
	return out
}

// BenchmarkGenerated builds and solves generated graphs of every family
// at 100, 1000, 10000 and 100000 ops (planner gen), each generated only
// when its sub-benchmark runs; -short leaves out 100000. It reports the
// most memory the process held (peak-MiB) beside Go's allocation counts.
func BenchmarkGenerated(b *testing.B) {
	for _, fam := range gen.Families {
		for _, n := range []int{100, 1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s_%05d", fam, n), func(b *testing.B) {
				if n > 10000 && testing.Short() {
					b.Skip("-short: up to 10000 ops")
				}
				c := generated(b, fam, n)
				debug.FreeOSMemory() // so that peak-MiB is this graph's, not what earlier ones left
				b.ResetTimer()
				for b.Loop() {
					p, err := BuildWithin(context.Background(), c.graph, c.target, c.records, Options{})
					if err != nil {
						b.Fatal(err)
					}
					res := Solve(p, Options{})
					if res.Status != StatusOptimal {
						b.Fatalf("status %v", res.Status)
					}
					b.ReportMetric(float64(res.Peak)/(1<<20), "peak-MiB")
				}
			})
		}
	}
}

// generated writes and reads back the graph planner gen makes of a family
// and size, seed 1.
func generated(b *testing.B, fam string, n int) testGraph {
	text, err := gen.Graph(fam, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%05d.toml", fam, n)), []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	return readGraphs(b, filepath.Join(dir, "*.toml"))[0]
}
