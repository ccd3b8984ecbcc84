package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes text to name in a new temporary folder and gives its
// path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A value named with more than 10⁶ characters does not widen the text
// plan's columns: fmt refuses such a width and printed %!(BADWIDTH) on
// every line.
func TestTextPlanOfAHugeName(t *testing.T) {
	text, err := os.ReadFile("../../testdata/graphs/argument_in_registers.toml")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 1_000_001)
	graph := strings.NewReplacer(`result = "y"`, `result = "`+long+`"`, `operands = ["y"]`, `operands = ["`+long+`"]`).Replace(string(text))
	var out, errs bytes.Buffer
	if code := Main([]string{"solve", writeFile(t, "long.toml", graph)}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if strings.Contains(out.String(), "%!") {
		t.Errorf("the text plan has a formatting error:\n%.300s", out.String()[strings.Index(out.String(), "%!")-100:])
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "  %bias ") && len(line) > 200 {
			t.Errorf("%%bias is padded to the long name's width: %d characters", len(line))
		}
	}
}

// failingWriter refuses every write, as a full disk or a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// No command's output is lost with exit 0: every write failure to
// standard output, help included, is an error exit.
func TestWriteFailureIsAnError(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	for _, args := range [][]string{
		{"--help"}, {"solve", "--help"}, {"--version"},
		{"solve", "testdata/graphs/argument_in_registers.toml"},
		{"solve", "--format", "json", "testdata/graphs/argument_in_registers.toml"},
		{"solve", "--format", "toml", "testdata/graphs/argument_in_registers.toml"},
		{"solve", "--format", "dot", "testdata/graphs/argument_in_registers.toml"},
		{"explain", "testdata/graphs/argument_in_registers.toml"},
		{"layout", "show", "examples/layouts/blocked_16x16.toml"},
		{"intrinsics", "list"}, {"intrinsics", "targets"},
		{"completion", "bash"},
	} {
		var errs bytes.Buffer
		if code := Main(args, failingWriter{}, &errs); code == exitOK || !strings.Contains(errs.String(), "closed") {
			t.Errorf("planner %s to a closed output: exit %d, stderr %q", strings.Join(args, " "), code, errs.String())
		}
	}
}

// Empty input, on standard input or in a file, is said to be empty, not
// reported as a missing key for each key a graph or layout needs.
func TestEmptyInputIsSaidToBeEmpty(t *testing.T) {
	empty := writeFile(t, "empty.toml", "# nothing yet\n\n")
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"solve", "-"}, "", "<stdin>:1:1: standard input is empty: expected a graph"},
		{[]string{"solve", "-"}, "\n  \n", "<stdin>:1:1: standard input is empty: expected a graph"},
		{[]string{"explain", "-"}, "", "<stdin>:1:1: standard input is empty: expected a graph"},
		{[]string{"solve", empty}, "", empty + ":1:1: the file is empty: expected a graph"},
		{[]string{"layout", "show", empty}, "", empty + ":1:1: the file is empty: expected a layout"},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, strings.NewReader(c.stdin), &out, &errs)
		if code != exitBadInput || !strings.HasPrefix(errs.String(), c.want) || strings.Contains(errs.String(), "missing key") {
			t.Errorf("planner %s < %q: exit %d, stderr %q: want exit 1 saying %q", strings.Join(c.args, " "), c.stdin, code, errs.String(), c.want)
		}
	}
}

// bench takes one file as well as a folder, and a folder's TTGIR kernels
// (*.ttgir) beside its graphs and MLIR kernels.
func TestBenchReadsFilesAndTTGIR(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	dir := t.TempDir()
	for _, f := range []string{"testdata/graphs/argument_in_registers.toml", "examples/ttgir/softmax_sm80.ttgir"} {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		arg  string
		want []string
	}{
		{"testdata/graphs/argument_in_registers.toml", []string{"argument_in_registers.toml"}},
		{dir, []string{"argument_in_registers.toml", "softmax_sm80.ttgir"}},
	} {
		var out, errs bytes.Buffer
		if code := Main([]string{"bench", c.arg}, &out, &errs); code != 0 {
			t.Errorf("planner bench %s: exit %d: %s", c.arg, code, errs.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w+" ") {
				t.Errorf("planner bench %s: no row of %s:\n%s", c.arg, w, out.String())
			}
		}
	}
	var out, errs bytes.Buffer
	if code := Main([]string{"bench", t.TempDir()}, &out, &errs); code != exitBadInput || !strings.Contains(errs.String(), "no graphs (*.toml), MLIR kernels (*.mlir) or TTGIR kernels (*.ttgir)") {
		t.Errorf("planner bench on an empty folder: exit %d: %s", code, errs.String())
	}
}

// A plan verified away from the folder its graph path is relative to
// says where it looked and to give --graph, at the plan's file key.
func TestVerifyElsewhereSaysGiveGraph(t *testing.T) {
	plan, _ := filepath.Abs("../../testdata/plans/argument_in_registers.toml")
	t.Chdir(t.TempDir())
	var out, errs bytes.Buffer
	code := Main([]string{"verify", plan}, &out, &errs)
	if code != exitBadInput || !strings.HasPrefix(errs.String(), plan+":1:1: ") || !strings.Contains(errs.String(), "give its path with --graph") {
		t.Errorf("exit %d, stderr %q: want exit 1 at the plan's file key saying to give --graph", code, errs.String())
	}
}

// A huge value in the input is quoted by a short prefix and its length,
// not echoed whole to standard error.
func TestHugeValueIsNotEchoed(t *testing.T) {
	text, err := os.ReadFile("../../testdata/graphs/argument_in_registers.toml")
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("Q", 1<<20)
	for _, edit := range []struct{ old, new string }{
		{`kind = "add"`, `kind = "` + huge + `"`},
		{`dtype = "f32"`, `dtype = "` + huge + `"`},
		{`target = "sm_80"`, `target = "` + huge + `"`},
		{`operands = ["x", "bias"]`, `operands = ["x", "` + huge + `"]`},
		{`notation = "blocked"`, `notation = "` + huge + `"`},
		{`notation = "blocked"`, `notation = "triton"` + "\n" + `encoding = "#ttg.` + huge + `"`},
	} {
		graph := strings.Replace(string(text), edit.old, edit.new, 1)
		var out, errs bytes.Buffer
		code := Main([]string{"solve", writeFile(t, "huge.toml", graph)}, &out, &errs)
		if code != exitBadInput || errs.Len() > 4000 || !strings.Contains(errs.String(), "bytes") {
			t.Errorf("%s: exit %d, %d bytes of errors: %.300s", edit.old, code, errs.Len(), errs.String())
		}
	}
}

// A size too large to read is said to be too large, not to be not
// positive or not a count.
func TestTooLargeIsSaidSo(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-input", "99999999999999999999", "solve", "testdata/graphs/argument_in_registers.toml"}, "--max-input 99999999999999999999: too large: at most 1TiB"},
		{[]string{"--max-input", "2TiB", "solve", "testdata/graphs/argument_in_registers.toml"}, "--max-input 2TiB: too large: at most 1TiB"},
		{[]string{"solve", "--memory-limit", "99999999999999999999GiB", "testdata/graphs/argument_in_registers.toml"}, "--memory-limit 99999999999999999999GiB: too large"},
		{[]string{"solve", "--max-conversions", "99999999999999999999", "testdata/graphs/argument_in_registers.toml"}, "--max-conversions 99999999999999999999 is too large"},
	} {
		var out, errs bytes.Buffer
		if code := Main(c.args, &out, &errs); code != exitBadInput || !strings.Contains(errs.String(), c.want) {
			t.Errorf("planner %s: exit %d, stderr %q: want %q", strings.Join(c.args, " "), code, errs.String(), c.want)
		}
	}
}

// A missing or extra argument prints the command's usage line, and
// solve --help lists the notations.
func TestUsageAndNotations(t *testing.T) {
	for _, c := range []struct {
		args  []string
		usage string
	}{
		{[]string{"solve"}, "usage: planner solve GRAPH [flags]"},
		{[]string{"explain"}, "usage: planner explain GRAPH [flags]"},
		{[]string{"verify"}, "usage: planner verify PLAN [flags]"},
		{[]string{"bench"}, "usage: planner bench DIR|FILE [flags]"},
		{[]string{"layout", "diff", "a.toml"}, "usage: planner layout diff A B [flags]"},
		{[]string{"solve", "a.toml", "b.toml"}, "usage: planner solve GRAPH [flags]"},
	} {
		var out, errs bytes.Buffer
		if code := Main(c.args, &out, &errs); code != exitBadInput || !strings.Contains(errs.String(), c.usage) {
			t.Errorf("planner %s: exit %d, stderr %q: want the usage line %q", strings.Join(c.args, " "), code, errs.String(), c.usage)
		}
	}
	var out, errs bytes.Buffer
	if code := Main([]string{"solve", "--help"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "nested, xegpu, blocked, linear, cute, table, triton") {
		t.Errorf("solve --help: exit %d, lists no notations:\n%s", code, out.String())
	}
}
