package planfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
)

// readPlan reads a plan file and the graph it names (relative to the
// repository root) and rebuilds its choices with the target's records.
func readPlan(t *testing.T, lib *intrinsics.Library, path string, data []byte) (*planfile.File, *model.Graph, *plans.Plan, *model.Assignment, error) {
	t.Helper()
	pf, err := planfile.Parse(path, data)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	g, err := pf.ReadGraph(filepath.Join("../..", pf.Graph), lib.Targets)
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]*model.Record{}
	for _, n := range lib.Targets[g.Target].Records {
		offered[n] = lib.Records[n]
	}
	p, a, err := pf.Rebuild(g, offered)
	return pf, g, p, a, err
}

// libraryAndPlan loads the built-in library and the golden TOML plan of
// the named test graph.
func libraryAndPlan(t *testing.T, graph string) (*intrinsics.Library, string) {
	t.Helper()
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../../testdata/plans/" + graph + ".toml")
	if err != nil {
		t.Fatal(err)
	}
	return lib, string(golden)
}

// Every golden TOML plan reads back into an assignment from which the
// plan, built again and written, is the same file byte for byte: what
// Write writes, Read reads, and nothing is lost between them.
func TestGoldenPlansRoundTrip(t *testing.T) {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../testdata/plans/*.toml")
	if len(files) == 0 {
		t.Fatal("no golden TOML plans")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".toml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pf, g, read, a, err := readPlan(t, lib, path, data)
			if err != nil {
				t.Fatal(err)
			}
			again, err := plans.Build(g, lib.Targets[g.Target], a, read.Notation)
			if err != nil {
				t.Fatal(err)
			}
			again.File, again.GraphHash = pf.Graph, pf.GraphHash
			again.Status, again.Cost, again.LowerBound = read.Status, read.Cost, read.LowerBound
			var b bytes.Buffer
			if err := planfile.Write(&b, again); err != nil {
				t.Fatal(err)
			}
			if b.String() != string(data) {
				t.Errorf("written again, the plan differs from %s:\n%s", path, b.String())
			}
		})
	}
}

// Edits of a golden plan that the reader refuses, each at the line and
// column of what is wrong.
func TestReadErrors(t *testing.T) {
	lib, planText := libraryAndPlan(t, "transpose_heavy")
	for _, c := range []struct {
		name, old, new string
		want           string // the first error, after plan.toml:line:col
		code           model.Code
	}{
		{"negative count", "scratch_bytes = 33792\n", "scratch_bytes = -1\n", "expected a count of 0 or more, found -1", model.CodeBadValue},
		{"empty scratch order", "scratch_order = [1, 0]\n", "scratch_order = []\n", "expected the dimensions in order, fastest first; found none", model.CodeBadValue},
		{"no file", "file = \"testdata/graphs/transpose_heavy.toml\"\n", "", "missing key \"file\": expected a plan written by planner solve --format toml", model.CodeMissingKey},
		{"other target", "target = \"sm_80\"\n", "target = \"sm_90\"\n", "the plan is for target \"sm_90\", the graph for \"sm_80\"", model.CodeIncompatible},
		{"unknown key", "lower_bound = 5844\n", "lower_bund = 5844\n", "unknown key \"lower_bund\" (did you mean \"lower_bound\"?)", model.CodeUnknownKey},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := strings.Index(planText, c.old)
			if i < 0 {
				t.Fatalf("no %q in the golden plan", c.old)
			}
			text := golden.ReplaceFirst(t, planText, c.old, c.new) // the first, at i
			line := strings.Count(text[:i], "\n") + 1
			_, _, _, _, err := readPlan(t, lib, "plan.toml", []byte(text))
			list, ok := model.Errors(err)
			if !ok {
				t.Fatalf("want a positioned error, got %v", err)
			}
			e := list[0]
			if e.Pos.File != "plan.toml" || e.Pos.Line != line || e.Pos.Col < 1 || e.Code != c.code || !strings.Contains(e.Msg, c.want) {
				t.Errorf("got %v (code %v), want plan.toml:%d: %s (code %v)", e, e.Code, line, c.want, c.code)
			}
		})
	}
}

// A use converted twice is refused at the second conversion, with the
// first as its related position.
func TestSecondConversionRelated(t *testing.T) {
	lib, planText := libraryAndPlan(t, "transpose_heavy")
	text := planText
	start := strings.Index(text, "[[conversions]]\n")
	if start < 0 {
		t.Fatal("no conversion in the golden plan")
	}
	next := start + 1 + strings.Index(text[start+1:], "[[conversions]]\n")
	text += "\n" + text[start:next]
	first := strings.Count(text[:start], "\n") + 1
	second := strings.Count(text[:strings.LastIndex(text, "[[conversions]]\n")], "\n") + 1
	_, _, _, _, err := readPlan(t, lib, "plan.toml", []byte(text))
	list, _ := model.Errors(err)
	want := model.Error{Pos: model.Pos{File: "plan.toml", Line: second, Col: 1}, Code: model.CodeDuplicate, Related: []model.Pos{{File: "plan.toml", Line: first, Col: 1}}}
	if len(list) != 1 || list[0].Pos != want.Pos || list[0].Code != want.Code || len(list[0].Related) != 1 || list[0].Related[0] != want.Related[0] {
		t.Fatalf("got %v, want one duplicate at %s related to %s", err, want.Pos, want.Related[0])
	}
}

// docs/verify.md lists every key of planfile.Keys, with its kind and
// what checks it, as a row of its table.
func TestDocsListEveryKey(t *testing.T) {
	doc, err := os.ReadFile("../../docs/verify.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range planfile.Keys {
		row := fmt.Sprintf("| `%s` | %s | %s |\n", k.Path, k.Check, k.What)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/verify.md lacks the row\n%s", row)
		}
	}
}

// Every key path of the format resolves to its entry, and a key under a
// layout table to the layout's.
func TestKeyOf(t *testing.T) {
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"status"}, "status"},
		{[]string{"ops", "acc", "warps_m"}, "ops.*.warps_m"},
		{[]string{"values", "a", "exact", "layout", "lane"}, "values.*.exact"},
		{[]string{"conversions[]", "required", "subgroups"}, "conversions[].required"},
		{[]string{"buffers", "As", "accesses[]", "wavefronts"}, "buffers.*.accesses[].wavefronts"},
		{[]string{"ops", "acc", "transposed"}, "ops.*.transposed"},
		{[]string{"ops", "acc", "banana"}, ""},
	} {
		k, ok := planfile.KeyOf(c.path)
		if k.Path != c.want || ok != (c.want != "") {
			t.Errorf("KeyOf(%v) = %q, %v; want %q", c.path, k.Path, ok, c.want)
		}
	}
}
