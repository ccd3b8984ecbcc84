package tomlio_test

import (
	"fmt"
	"testing"

	"planner/gen"
	"planner/intrinsics"
	"planner/tomlio"
)

// BenchmarkReadGraph reads generated graphs of 10k and 100k ops: reading
// is streamed, so the time and the bytes allocated per op stay flat from
// one size to the next (go test ./tomlio -bench ReadGraph -benchmem; ns/op
// and B/op are per read, ns/graph-op per op of the graph).
func BenchmarkReadGraph(b *testing.B) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	for _, family := range []string{"attention", "chain"} {
		for _, ops := range []int{10_000, 100_000} {
			text, err := gen.Graph(family, ops, 1)
			if err != nil {
				b.Fatal(err)
			}
			data := []byte(text)
			b.Run(fmt.Sprintf("%s/%dk", family, ops/1000), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					g, err := tomlio.ParseGraph("gen.toml", data, lib.Targets)
					if err != nil {
						b.Fatal(err)
					}
					if len(g.Ops) == 0 {
						b.Fatal("no ops")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ops), "ns/graph-op")
			})
		}
	}
}
