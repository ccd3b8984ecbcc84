package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --registers spill lets a plan exceed the target's registers, for a
// kernel in TTGIR (which cannot say it) as for a graph file; --registers
// budget holds a graph that allows spilling to the budget; anything else
// is refused. The kernel's peak is its tile's 256 registers and the
// 64-bit address of the store being issued, the stack pointer and
// thread index and the 2 registers ptxas reserves (model/held.go): 7 over.
func TestRegistersFlag(t *testing.T) {
	data, err := os.ReadFile("../../testdata/want/registers_over_budget.toml")
	if err != nil {
		t.Fatal(err)
	}
	spilling := filepath.Join(t.TempDir(), "spilling.toml")
	if err := os.WriteFile(spilling, bytes.Replace(data, []byte("subgroups = 1\n"), []byte("subgroups = 1\nregisters = \"spill\"\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"solve", "../../testdata/want/registers_over_budget.ttgir"}, exitUnsat, `registers = "spill" in a graph file, or solve --registers spill, lets a plan exceed it`},
		{[]string{"solve", "--registers", "spill", "../../testdata/want/registers_over_budget.ttgir"}, exitOK, "7 over the budget of 255: spilled, as the input allows"},
		{[]string{"solve", "--registers", "spill", "../../testdata/want/registers_over_budget.toml"}, exitOK, "7 over the budget of 255: spilled"},
		{[]string{"solve", spilling}, exitOK, "7 over the budget of 255: spilled"},
		{[]string{"solve", "--registers", "budget", spilling}, exitUnsat, "sm_80 gives each lane at most 255 32-bit registers"},
		{[]string{"solve", "--registers", "always", "../../testdata/want/registers_over_budget.toml"}, exitBadInput, `--registers "always": expected one of budget, spill`},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, strings.NewReader(""), &out, &errs)
		text := strings.Join(strings.Fields(out.String()+errs.String()), " ")
		if code != c.code || !strings.Contains(text, c.want) {
			t.Errorf("planner %s: exit %d, want %d and %q in\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, out.String(), errs.String())
		}
	}
}
