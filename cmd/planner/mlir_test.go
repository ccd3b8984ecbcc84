package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plan of a kernel in MLIR verifies against the kernel: written with
// --format toml, replayed by planner verify, which reads the kernel again
// for the plan's target and subgroups (and --func and --trips as solve
// had them).
func TestVerifyMLIRPlans(t *testing.T) {
	t.Chdir("../..")
	for _, c := range []struct{ kernel, flags []string }{
		{[]string{"examples/mlir/flash_attention_seed004.mlir"}, nil},
		{[]string{"testdata/mlir/dynamic_loop.mlir", "--target", "gfx942"}, []string{"--func", "row_sum", "--trips", "16"}},
	} {
		var out, errs bytes.Buffer
		args := append(append([]string{"solve", "--format", "toml"}, c.kernel...), c.flags...)
		if code := run(args, strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("planner %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
		}
		plan := filepath.Join(t.TempDir(), "plan.toml")
		if err := os.WriteFile(plan, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		errs.Reset()
		args = append([]string{"verify", plan, "--prove", "0"}, c.flags...)
		if code := run(args, strings.NewReader(""), &out, &errs); code != 0 || !strings.HasPrefix(out.String(), "replayed ") || !strings.Contains(out.String(), "not re-proved (--prove 0 searches nothing)") {
			t.Errorf("planner %s: exit %d: %s%s", strings.Join(args, " "), code, out.String(), errs.String())
		}
		if c.flags == nil {
			continue
		}
		// Without --trips the kernel does not read, and verify says why.
		out.Reset()
		errs.Reset()
		if code := run([]string{"verify", plan, "--prove", "0", "--func", "row_sum"}, strings.NewReader(""), &out, &errs); code != 1 || !strings.Contains(errs.String(), "give --trips N") {
			t.Errorf("verify without --trips: exit %d: %s", code, errs.String())
		}
	}
}

// planner bench reads the MLIR kernels of a folder beside its graphs.
func TestBenchMLIR(t *testing.T) {
	var out, errs bytes.Buffer
	if code := Main([]string{"bench", "../../examples/mlir"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	files, _ := filepath.Glob("../../examples/mlir/*.mlir")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(files) == 0 || len(lines) != len(files)+1 {
		t.Fatalf("want a header and %d rows:\n%s", len(files), out.String())
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, ".mlir") || !strings.Contains(l, "optimal") {
			t.Errorf("row: %s", l)
		}
	}
}

// planner solve --format mlir writes the kernel back with its plan (the
// library's golden files, testdata/mlir_out, hold the full texts); a
// graph file has no IR to write into, which is an error before any
// solving; the help lists the format.
func TestSolveFormatMLIR(t *testing.T) {
	t.Chdir("../..")
	var out, errs bytes.Buffer
	if code := run([]string{"solve", "examples/mlir/softmax_row.mlir", "--format", "mlir"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want, err := os.ReadFile("testdata/mlir_out/softmax_row.planned.mlir")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("--format mlir wrote:\n%s\nwant testdata/mlir_out/softmax_row.planned.mlir", out.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"solve", "testdata/graphs/softmax_row.toml", "--format", "mlir"}, strings.NewReader(""), &out, &errs); code != 1 || !strings.Contains(errs.String(), "testdata/graphs/softmax_row.toml is a graph file") {
		t.Errorf("--format mlir of a graph file: exit %d: %s%s", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"solve", "--help"}, strings.NewReader(""), &out, &errs); code != 0 || !strings.Contains(out.String(), "dot, or mlir") {
		t.Errorf("solve --help does not list --format mlir:\n%s", out.String())
	}
}

// A TTGIR kernel's plan is bounded by the kernel's own convert_layout
// count unless --max-conversions says otherwise; a bad value is bad input.
func TestMaxConversionsFlag(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	tests := []struct {
		flags []string
		code  int
		want  string
	}{
		{nil, 0, "conversions: 0, at most 0 (the input's 0 ttg.convert_layout ops); without the bound the cheapest plan costs 1135 with 2 conversions"},
		{[]string{"--max-conversions", "none"}, 0, "status optimal: cost 1135, proven minimal over the candidate layouts: no plan among them costs less\n"},
		{[]string{"--max-conversions", "2"}, 0, "conversions: 2, at most 2 (--max-conversions)"},
		{[]string{"--max-conversions", "-1"}, 1, `--max-conversions is "none" (no bound), or a number of conversions, 0 or more: found "-1"`},
	}
	for _, c := range tests {
		var out, errs bytes.Buffer
		args := append([]string{"solve", "examples/ttgir/layernorm_sm80.ttgir"}, c.flags...)
		code := run(args, strings.NewReader(""), &out, &errs)
		if code != c.code || !strings.Contains(strings.Join(strings.Fields(out.String()+errs.String()), " "), strings.Join(strings.Fields(c.want), " ")) {
			t.Errorf("planner %s: exit %d, want %d and %q in\n%s%s", strings.Join(args, " "), code, c.code, c.want, out.String(), errs.String())
		}
	}
}
