package planner_test

import (
	"context"
	"strings"
	"testing"

	"planner"
)

// Plans written in Triton's notation name each value as Triton would:
// an mma's A and B as #ttg.dot_op, its accumulator and the values laid out
// like it as #ttg.nvidia_mma, and the wgmma tile (version 3) only in a
// plan that runs a warpgroup mma, even where it gives the same map with
// fewer repeats than mma.sync's version 2.
func TestTritonNamesFollowRolesAndTarget(t *testing.T) {
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		graph string
		want  map[string]string // value: the start of its encoding
	}{
		{"testdata/graphs/flash_attention_2warps.toml", map[string]string{
			"q":   "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2,",
			"kt":  "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2,",
			"s":   "#ttg.nvidia_mma<{versionMajor = 2,",
			"acc": "#ttg.nvidia_mma<{versionMajor = 2,",
			"m":   "#ttg.slice<{dim = 1, parent = #ttg.nvidia_mma<{versionMajor = 2,",
		}},
		{"testdata/graphs/sm90_wgmma_gemm.toml", map[string]string{
			"zero": "#ttg.nvidia_mma<{versionMajor = 3,",
		}},
	} {
		r, err := pl.SolveFile(context.Background(), c.graph, planner.Options{Notation: "triton"})
		if err != nil || r.Plan == nil {
			t.Fatalf("%s: %v", c.graph, err)
		}
		seen := 0
		for _, v := range r.Plan.Values {
			want, ok := c.want[v.Name]
			if !ok {
				continue
			}
			seen++
			if v.Notation != "triton" || !strings.HasPrefix(v.Layout, want) {
				t.Errorf("%s: %%%s is written %s %s, want %s…", c.graph, v.Name, v.Notation, v.Layout, want)
			}
		}
		if seen != len(c.want) {
			t.Errorf("%s: %d of the %d values named were found", c.graph, seen, len(c.want))
		}
	}
}
