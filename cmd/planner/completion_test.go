package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"planner/solver"
)

// complete runs cobra's hidden __complete command as a shell's completion
// script does and returns the words offered and the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(append([]string{"__complete"}, args...), strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("__complete %q: exit %d: %s", args, code, errs.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		t.Fatalf("__complete %q: no directive line:\n%s", args, out.String())
	}
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// The arguments with which each command reaches the check of its flags'
// values (paths from the repository root).
var flagCheckArgs = map[string][]string{
	"solve":           {"testdata/graphs/softmax_row.toml"},
	"explain":         {"testdata/graphs/softmax_row.toml"},
	"bench":           {"testdata/unsat"},
	"gen":             nil,
	"intrinsics list": nil,
	"intrinsics show": {"ldmatrix_x4"},
	"layout show":     {"examples/layouts/blocked_16x16.toml"},
	"layout convert":  {"--to", "linear", "examples/layouts/blocked_16x16.toml"},
	"layout diff":     {"examples/layouts/blocked_16x16.toml", "examples/layouts/blocked_16x16.toml"},
}

// flagCheckArgsOf are the arguments for the flags whose values only a
// kernel in MLIR or TTGIR reads.
var flagCheckArgsOf = map[string][]string{
	"solve target":   {"examples/ttgir/softmax_sm80.ttgir"},
	"explain target": {"examples/ttgir/softmax_sm80.ttgir"},
	"bench target":   {"examples/ttgir/softmax_sm80.ttgir"},
}

var acceptedWords = regexp.MustCompile(`(?:expected one of|known:) ([^)\n]*)`)

// Each flag with a closed set of values completes to exactly the values
// its command accepts: the words offered are those the command lists
// when given a wrong one (less the backends this binary lacks).
func TestCompletionOffers(t *testing.T) {
	t.Chdir("../..")
	for _, o := range flagOffers {
		t.Run(strings.ReplaceAll(o.command, " ", "_")+"_"+o.flag, func(t *testing.T) {
			path := strings.Fields(o.command)
			got, directive := complete(t, append(path, "--"+o.flag, "")...)
			if directive != ":4" { // ShellCompDirectiveNoFileComp
				t.Errorf("directive %s, want :4 (no file names)", directive)
			}
			args, ok := flagCheckArgs[o.command]
			if a, of := flagCheckArgsOf[o.command+" "+o.flag]; of {
				args = a
			}
			if !ok {
				t.Fatalf("no arguments for %s in flagCheckArgs", o.command)
			}
			var out, errs bytes.Buffer
			flagArgs := []string{"--" + o.flag, "no-such-value"}
			if o.flag == "to" {
				args = args[2:]
			}
			run(append(append(path, flagArgs...), args...), strings.NewReader(""), &out, &errs)
			m := acceptedWords.FindStringSubmatch(errs.String())
			if m == nil {
				t.Fatalf("planner %s --%s no-such-value lists no accepted values: %s", o.command, o.flag, errs.String())
			}
			want := strings.Split(m[1], ", ")
			if o.flag == "solver" {
				want = slices.DeleteFunc(want, func(n string) bool { _, ok := solver.Backends[n]; return !ok })
			}
			if !slices.Equal(got, want) {
				t.Errorf("offers %q, the command accepts %q", got, want)
			}
		})
	}
}

// Record names complete intrinsics show's argument, by prefix; graph
// files complete solve's, by extension; the completion command writes a
// script for each shell.
func TestCompletionArguments(t *testing.T) {
	got, _ := complete(t, "intrinsics", "show", "ldmatrix_x4")
	if want := []string{"ldmatrix_x4", "ldmatrix_x4_trans"}; !slices.Equal(got, want) {
		t.Errorf("intrinsics show ldmatrix_x4<TAB> offers %q, want %q", got, want)
	}
	got, _ = complete(t, "intrinsics", "show", "")
	if !slices.Contains(got, "mma_m16n8k16_f32_f16") || !slices.Contains(got, "dpas_m8n8k16_f32_f16") {
		t.Errorf("intrinsics show <TAB> lacks record names: %q", got)
	}
	got, _ = complete(t, "intrinsics", "show", "ldmatrix_x4", "")
	if len(got) != 0 {
		t.Errorf("a second record name is offered: %q", got)
	}
	for _, command := range []string{"solve", "explain", "bench"} {
		got, directive := complete(t, command, "")
		if !slices.Equal(got, []string{"toml", "mlir", "ttgir"}) || directive != ":8" { // ShellCompDirectiveFilterFileExt
			t.Errorf("%s <TAB> offers %q %s, want the extensions toml, mlir and ttgir with :8", command, got, directive)
		}
	}
	got, _ = complete(t, "solve", "--target", "sm_")
	if !slices.Contains(got, "sm_80") || !slices.Contains(got, "sm_90") {
		t.Errorf("solve --target sm_<TAB> offers %q, want the targets", got)
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		var out, errs bytes.Buffer
		if code := run([]string{"completion", shell}, strings.NewReader(""), &out, &errs); code != 0 || !strings.Contains(out.String(), "__complete") {
			t.Errorf("completion %s: exit %d, %d bytes: %s", shell, code, out.Len(), errs.String())
		}
	}
}
