package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/schema"
)

// The standard output of every CLI case asking for --format json follows
// its schema (docs/json.md); a key the schema does not declare is
// reported with its path.
func TestCLIJSONFollowsSchema(t *testing.T) {
	set, err := schema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/cli/*.txt")
	checked := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseCase(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		command := strings.Join(c.args, " ")
		if !strings.Contains(" "+command+" ", " --format json ") || c.stdout == "" {
			continue // no document: a bad flag, a missing file
		}
		name, err := schema.For(command, []byte(c.stdout))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checked[name]++
		if msg := set.Check(name, []byte(c.stdout)); msg != "" {
			t.Errorf("%s breaks schema/%s.schema.json (declare new keys there and in docs/json.md):\n%s", f, name, msg)
		}
	}
	for _, name := range []string{"plan", "explanation", "no_plan", "bad_input", "layout", "conversion", "record"} {
		if checked[name] == 0 {
			t.Errorf("no CLI case prints JSON that follows %s.schema.json", name)
		}
	}
}

// planner bench --format json follows its schema, on graphs with and
// without a plan and on bad input (its times vary, so it has no golden).
func TestBenchJSONFollowsSchema(t *testing.T) {
	set, err := schema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	planned := t.TempDir()
	for _, g := range []string{"softmax_row.toml", "gemm_epilogue.toml"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/graphs", g))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(planned, g), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		dir  string
		exit int
	}{{"../../testdata/unsat", 0}, {"../../testdata/bad/graphs", 1}, {planned, 0}} {
		var out, errs bytes.Buffer
		if code := Main([]string{"bench", "--format", "json", "--time-limit", "10s", c.dir}, &out, &errs); code != c.exit {
			t.Fatalf("bench %s: exit %d, want %d: %s", c.dir, code, c.exit, errs.String())
		}
		if msg := set.Check("bench", out.Bytes()); msg != "" {
			t.Errorf("bench --format json %s breaks bench.schema.json:\n%s\n%s", c.dir, msg, out.String())
		}
		if c.dir == planned && !strings.Contains(out.String(), `"greedy_cost"`) {
			t.Errorf("bench of graphs with plans gives no greedy cost:\n%s", out.String())
		}
	}
}
