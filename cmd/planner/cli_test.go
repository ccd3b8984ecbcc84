package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"planner/internal/golden"
)

// A CLI case is a file under testdata/cli: its first line is the command
// ("planner layout show FILE", paths relative to the repository root), then
// "exit N", then the expected stdout and stderr after "-- stdout --" and
// "-- stderr --" lines. The command runs in process. A command ending in
// "< FILE" reads FILE as its standard input.
type cliCase struct {
	args           []string
	stdin          string // the file given as standard input; "" for none
	exit           int
	stdout, stderr string
}

func parseCase(text string) (cliCase, error) {
	var c cliCase
	lines := strings.SplitN(text, "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "planner ") {
		return c, fmt.Errorf("first line must be the command")
	}
	c.args = strings.Fields(strings.TrimPrefix(lines[0], "planner "))
	if n := len(c.args); n >= 2 && c.args[n-2] == "<" {
		c.args, c.stdin = c.args[:n-2], c.args[n-1]
	}
	n, err := strconv.Atoi(strings.TrimPrefix(lines[1], "exit "))
	if err != nil {
		return c, fmt.Errorf("second line must be exit N")
	}
	c.exit = n
	rest := ""
	if len(lines) == 3 {
		rest = lines[2]
	}
	out, errText, ok := strings.Cut(strings.TrimPrefix(rest, "-- stdout --\n"), "-- stderr --\n")
	if !ok {
		return c, fmt.Errorf("missing -- stderr -- section")
	}
	c.stdout, c.stderr = out, errText
	return c, nil
}

func (c cliCase) String() string {
	command := strings.Join(c.args, " ")
	if c.stdin != "" {
		command += " < " + c.stdin
	}
	return fmt.Sprintf("planner %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", command, c.exit, c.stdout, c.stderr)
}

func TestCLI(t *testing.T) {
	files, err := filepath.Glob("testdata/cli/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no CLI cases: %v", err)
	}
	root, _ := filepath.Abs("../..")
	for _, path := range files {
		path, _ := filepath.Abs(path)
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := parseCase(string(data))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			t.Chdir(root)
			var stdin io.Reader = strings.NewReader("")
			if want.stdin != "" {
				f, err := os.Open(want.stdin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin = f
			}
			var stdout, stderr bytes.Buffer
			got := cliCase{args: want.args, stdin: want.stdin}
			got.exit = run(want.args, stdin, &stdout, &stderr)
			got.stdout, got.stderr = stdout.String(), stderr.String()
			if got.String() == want.String() {
				return
			}
			if golden.Update() {
				if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("%s differs (go test -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
		})
	}
}

// planner bench solves every graph of a folder and prints one row each.
func TestBench(t *testing.T) {
	var out, errs bytes.Buffer
	if code := Main([]string{"bench", "../../testdata/unsat"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	files, _ := filepath.Glob("../../testdata/unsat/*.toml")
	if len(lines) != len(files)+1 || !strings.Contains(lines[0], "candidates") {
		t.Fatalf("want a header and %d rows:\n%s", len(files), out.String())
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, "unsat") {
			t.Errorf("row without its status: %s", l)
		}
	}
}

// A folder of bad graphs: a row each saying so, the first error after the
// table, exit 1.
func TestBenchBadInput(t *testing.T) {
	var out, errs bytes.Buffer
	if code := Main([]string{"bench", "../../testdata/bad/graphs"}, &out, &errs); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	files, _ := filepath.Glob("../../testdata/bad/graphs/*.toml")
	if n := strings.Count(out.String(), "bad input"); n != len(files) {
		t.Errorf("%d bad-input rows for %d files:\n%s", n, len(files), out.String())
	}
	if !strings.Contains(errs.String(), "testdata/bad/graphs/") {
		t.Errorf("no positioned error: %s", errs.String())
	}
}
