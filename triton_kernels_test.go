package planner_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
)

// tritonTrips is the trip count the kernels of testdata/triton are
// planned at: their loops run to a bound known only at run time.
const tritonTrips = 16

// inputCostsLess names the kernels of testdata/triton whose own layouts
// cost less in the model than their plan, and why (docs/triton.md, From a
// Triton kernel); inputNoPlan those whose own layouts find no plan.
var (
	inputCostsLess = map[string]string{}
	inputNoPlan    = map[string]bool{}
)

// TestTritonKernels plans each kernel Triton compiled from oracle/kernels.py
// up to its layout choice (testdata/triton/*.ttgir, made by
// oracle/triton_ttgir.py) and writes it back (golden files in
// testdata/triton_out): the written kernel keeps Triton's typing, reads
// back to the same cost and, written again, has as many convert_layout
// ops; the plan costs no more than the kernel's own layouts, but where
// inputCostsLess says why. The short run holds every kernel to its golden
// and to Triton's typing, and reads back and compares with the input 5
// kernels spread over the folder (golden.Sample); PLANNER_LONG_TESTS=1
// every kernel.
func TestTritonKernels(t *testing.T) {
	pl := testPlanner(t)
	files, _ := filepath.Glob("testdata/triton/*.ttgir")
	if len(files) != 15 {
		t.Fatalf("%d kernels in testdata/triton, want 15 (5 kernels for sm80, sm90 and gfx942)", len(files))
	}
	in := planner.Input{Trips: tritonTrips}
	whole := map[string]bool{}
	for _, path := range golden.Sample(files, 5) {
		whole[path] = true
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".ttgir")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first := solveMLIR(t, path, data, in)
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, in, first); err != nil {
				t.Fatal(err)
			}
			goldenPath := filepath.Join("testdata", "triton_out", name+".ttgir")
			golden.Compare(t, goldenPath, out.String())
			if bad, err := tritonTyping(goldenPath, out.Bytes()); err != nil || len(bad) > 0 {
				t.Errorf("written back, it breaks Triton's typing: %v\n%s", err, strings.Join(bad, "\n"))
			}
			if !whole[path] {
				return
			}
			second := solveMLIR(t, goldenPath, out.Bytes(), in)
			if second.Plan.Cost != first.Plan.Cost {
				t.Errorf("read back, the plan costs %d, first %d", second.Plan.Cost, first.Plan.Cost)
			}
			var again bytes.Buffer
			if err := pl.WriteMLIR(&again, goldenPath, out.Bytes(), in, second); err != nil {
				t.Fatal(err)
			}
			converts := func(s string) int { return len(convertRE.FindAllString(s, -1)) }
			if a, b := converts(out.String()), converts(again.String()); a != b {
				t.Errorf("written again, %d ttg.convert_layout ops; first %d", b, a)
			}

			res, err := pl.SolveText(context.Background(), path, data, planner.Options{Input: in, CompareInput: true})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Plan.Compare
			switch {
			case c == nil:
				t.Fatal("no comparison with the input's layouts")
			case inputNoPlan[name]:
				if c.NoPlan == "" {
					t.Errorf("the input's own layouts find a plan now (cost %d): take %s off inputNoPlan", c.BaselineCost, name)
				}
			case c.NoPlan != "":
				t.Errorf("the input's own layouts find no plan: %s", c.NoPlan)
			case c.BaselineCost < c.Cost && inputCostsLess[name] == "":
				t.Errorf("the plan costs %d, more than the input's own layouts, %d", c.Cost, c.BaselineCost)
			case c.BaselineCost >= c.Cost && inputCostsLess[name] != "":
				t.Errorf("the plan costs %d, no more than the input's %d: take %s off inputCostsLess", c.Cost, c.BaselineCost, name)
			}
			baseline := "no plan"
			if c.NoPlan == "" {
				baseline = fmt.Sprintf("%d, %d", c.BaselineCost, len(c.Conversions))
			}
			want := fmt.Sprintf("| `%s` | %d, %d | %s | %d, %d |", name, res.Plan.Cost, len(res.Plan.Conv), baseline, converts(string(data)), converts(out.String()))
			if got := tritonTableRow(t, name); got != want {
				t.Errorf("docs/triton.md's row of the Triton kernels' table is\n\t%s\nwant\n\t%s", got, want)
			}
		})
	}
}

// tritonTableRow is the row of docs/triton.md's table of the Triton
// kernels (plan, the input's own layouts, convert_layout ops) that names
// kernel name.
func tritonTableRow(t *testing.T, name string) string {
	t.Helper()
	doc, err := os.ReadFile("docs/triton.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| `"+name+"` |") {
			return line
		}
	}
	t.Fatalf("docs/triton.md has no row for %s in its table of Triton kernels", name)
	return ""
}
