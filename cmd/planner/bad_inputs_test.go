package main

import (
	"bytes"
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
