package solver

import (
	"path/filepath"
	"strings"
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/source"
)

// BenchmarkSolveTestdata builds and solves every graph under
// testdata/graphs: the time a user waits for `planner solve`, without
// reading the records.
func BenchmarkSolveTestdata(b *testing.B) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/graphs/*.toml")
	for _, f := range files {
		g, err := source.ReadGraph(f, lib.Targets)
		if err != nil {
			b.Fatal(err)
		}
		tg := lib.Targets[g.Target]
		var recs []*model.Record
		for _, n := range tg.Records {
			recs = append(recs, lib.Records[n])
		}
		b.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(b *testing.B) {
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
