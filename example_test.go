package planner_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"planner"
	"planner/solver"
)

// Solve a bundled graph, a row softmax on sm_80, under a time limit and
// print what the plan says of it.
func Example() {
	pl, err := planner.New() // the built-in records; pass folders to add your own
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Minute, solver.TimeLimit(time.Minute))
	defer cancel()
	res, err := pl.SolveFile(ctx, "testdata/graphs/softmax_row.toml", planner.Options{})
	if err != nil {
		panic(err) // bad input, with file:line:col
	}
	if res.Plan == nil {
		fmt.Println(res.Why) // no plan exists, or a limit stopped the solve first
		return
	}
	fmt.Println(res.Plan.Status)
	fmt.Println(res.Plan.Verdict())
	fmt.Println("conversions:", len(res.Plan.Conv))
	// Output:
	// optimal
	// cost 1616, proven minimal over the candidate layouts: no plan among them costs less
	// conversions: 0
}

// A Go program outside the command line solves a graph through the
// library under a context deadline and gets the plan the command line
// prints, byte for byte: cmd/planner/testdata/cli/solve_seed002.txt is
// what `planner solve` prints for this graph (TestCLI in cmd/planner holds
// Main to it).
func TestLibraryPrintsTheCLIPlan(t *testing.T) {
	golden, err := os.ReadFile("cmd/planner/testdata/cli/solve_seed002.txt")
	if err != nil {
		t.Fatal(err)
	}
	header, stdout, ok := strings.Cut(string(golden), "-- stdout --\n")
	if !ok || !strings.HasPrefix(header, "planner solve testdata/graphs/seed002_padded_gemm.toml\nexit 0\n") {
		t.Fatalf("the CLI case is not a plain solve of seed002_padded_gemm:\n%s", header)
	}
	stdout, _, _ = strings.Cut(stdout, "-- stderr --\n")
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := pl.SolveFile(ctx, "testdata/graphs/seed002_padded_gemm.toml", planner.Options{})
	if err != nil || res.Plan == nil {
		t.Fatalf("no plan: %v %v", err, res)
	}
	var out bytes.Buffer
	if err := res.Plan.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != stdout {
		t.Errorf("the library's plan differs from the command line's:\n--- cli\n%s\n--- library\n%s", stdout, out.String())
	}
}
