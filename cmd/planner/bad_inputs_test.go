package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file of the catalogue testdata/bad is bad input to every command
// that reads its kind of file: exit 1 (never a panic, never "no plan"),
// with the error at a line of the file.
func TestBadInputsExitOne(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	commands := []struct {
		glob string
		runs [][]string // FILE stands for the file
	}{
		{"testdata/bad/graphs/*.toml", [][]string{
			{"solve", "FILE"}, {"solve", "--solver", "greedy", "FILE"}, {"solve", "--format", "json", "FILE"},
			{"explain", "FILE"},
		}},
		{"testdata/bad/layouts/*.toml", [][]string{
			{"layout", "show", "FILE"}, {"layout", "convert", "--to", "linear", "FILE"},
			{"layout", "diff", "FILE", "examples/layouts/blocked_16x16.toml"},
		}},
		{"testdata/bad/records/*.toml", [][]string{
			{"intrinsics", "check", "FILE"}, {"--records", "FILE", "solve", "testdata/graphs/softmax_row.toml"},
			{"--records", "FILE", "intrinsics", "list"},
		}},
	}
	for _, c := range commands {
		files, _ := filepath.Glob(c.glob)
		if len(files) < 20 {
			t.Fatalf("%s: %d files", c.glob, len(files))
		}
		for _, file := range files {
			for _, run := range c.runs {
				args := make([]string, len(run))
				for i, a := range run {
					args[i] = strings.ReplaceAll(a, "FILE", file)
				}
				var out, errs bytes.Buffer
				code := Main(args, &out, &errs)
				if code != exitBadInput || !strings.HasPrefix(errs.String(), file+":") {
					t.Errorf("planner %s: exit %d, want %d with an error at the file:\n%s", strings.Join(args, " "), code, exitBadInput, errs.String())
				}
			}
		}
	}
}

// A target with subgroups of no lanes is refused where it is read, by
// every command that loads it: solve, explain and bench divided by zero
// in the search, and intrinsics targets and list offered a 32-lane mma on
// it.
func TestTargetOfNoLanesRefused(t *testing.T) {
	root, _ := filepath.Abs("../..")
	target, err := os.ReadFile(filepath.Join(root, "testdata/bad/records/target_subgroup_zero.toml"))
	if err != nil {
		t.Fatal(err)
	}
	graph, err := os.ReadFile(filepath.Join(root, "testdata/graphs/softmax_row.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("records", 0o755)
	os.Mkdir("graphs", 0o755)
	os.WriteFile("records/sg_zero.toml", target, 0o644)
	os.WriteFile("graphs/softmax.toml", bytes.Replace(graph, []byte(`target = "sm_80"`), []byte(`target = "sg_zero_test"`), 1), 0o644)
	for _, run := range [][]string{
		{"solve", "graphs/softmax.toml"}, {"explain", "graphs/softmax.toml"}, {"bench", "graphs"},
		{"intrinsics", "targets"}, {"intrinsics", "list", "--target", "sg_zero_test"},
	} {
		args := append([]string{"--records", "records"}, run...)
		var out, errs bytes.Buffer
		code := Main(args, &out, &errs)
		want := "records/sg_zero.toml:3:1: subgroup_size must be positive"
		if code != exitBadInput || !strings.HasPrefix(errs.String(), want) {
			t.Errorf("planner %s: exit %d, want %d with %q:\n%s%s", strings.Join(args, " "), code, exitBadInput, want, errs.String(), out.String())
		}
	}
}
