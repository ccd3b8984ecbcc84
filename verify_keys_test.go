package planner_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/model"
	"planner/plans/planfile"
	"planner/tomlio"
)

var allKeys = flag.Bool("all-keys", false, "TestEveryPlanKeyIsChecked: change every key of every golden plan, not the first of each kind")

// planKey is one key written in a plan file: its path part by part (as
// planfile.KeyOf takes it), its line, the lines that may be named for it
// (its own, and the headers of the layout tables it lies in) and its
// value.
type planKey struct {
	path  []string
	line  int
	lines []int
	value any
}

func (k planKey) String() string { return strings.Join(k.path, ".") }

// planKeys lists every key of a plan file, failing for a key that
// planfile.Keys does not list.
func planKeys(t *testing.T, file string, data []byte) []planKey {
	t.Helper()
	doc, err := tomlio.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	var out []planKey
	var walk func(tb *tomlio.Table, path []string, headers []int)
	walk = func(tb *tomlio.Table, path []string, headers []int) {
		for _, k := range tb.Keys() {
			v, _ := tb.Raw(k)
			switch v.(type) {
			case map[string]any:
				sub, _ := tb.Sub(k, true)
				tables := []*tomlio.Table{sub}
				walkTables(t, tables, append(slices.Clip(path), k), headers, walk)
			case []map[string]any:
				arr, _ := tb.TableArray(k)
				walkTables(t, arr, append(slices.Clip(path), k+"[]"), headers, walk)
			default:
				p := append(slices.Clip(path), k)
				if _, ok := planfile.KeyOf(p); !ok {
					t.Errorf("%s:%d: key %s has no entry in planfile.Keys: add it there with what checks it, and to docs/verify.md", file, tb.Pos(k).Line, strings.Join(p, "."))
					continue
				}
				out = append(out, planKey{path: p, line: tb.Pos(k).Line, lines: append(slices.Clip(headers), tb.Pos(k).Line), value: v})
			}
		}
	}
	walk(doc.Root(), nil, nil)
	// A layout is one choice written over several lines: a key of it may
	// be named by any line of its tables.
	span := map[int][]int{}
	for _, k := range out {
		if len(k.lines) > 1 {
			span[k.lines[0]] = append(span[k.lines[0]], k.lines...)
		}
	}
	for i, k := range out {
		if len(k.lines) > 1 {
			out[i].lines = span[k.lines[0]]
		}
	}
	return out
}

// walkTables walks tables at path; inside a layout table the headers of
// the tables down to the key may be named for it.
func walkTables(t *testing.T, tables []*tomlio.Table, path []string, headers []int, walk func(*tomlio.Table, []string, []int)) {
	key, ok := planfile.KeyOf(path)
	if !ok {
		t.Errorf("table %s has no entry in planfile.Keys: add it there with what checks it, and to docs/verify.md", strings.Join(path, "."))
		return
	}
	for _, tb := range tables {
		h := headers
		if key.Check == planfile.Layout {
			h = append(slices.Clip(headers), tb.Pos("").Line)
		}
		walk(tb, path, h)
	}
}

// wrongValues are values of the key's type that the plan must not carry
// there: an int one more, a bool negated, a list with two entries
// swapped, a string another valid value of its kind (another record,
// value, op, notation, status) or, for text written for people, edited.
func wrongValues(t *testing.T, pl *planner.Planner, g *model.Graph, k planKey) []any {
	name := k.path[len(k.path)-1]
	pattern, _ := planfile.KeyOf(k.path)
	switch v := k.value.(type) {
	case int64:
		return []any{v + 1}
	case bool:
		return []any{!v}
	case []any:
		return []any{otherList(v)}
	case string:
		other := func(options ...string) string {
			for _, o := range options {
				if o != v {
					return o
				}
			}
			return v + "x"
		}
		switch {
		case name == "status":
			return []any{other("feasible", "optimal"), "banana"}
		case name == "notation" && pattern.Check == planfile.Layout:
			return []any{other("cute", "linear")}
		case name == "notation":
			return []any{other("table", "linear")}
		case pattern.Path == "conversions[].kind":
			return []any{map[string]string{"register": "shuffle", "shuffle": "shared", "shared": "register"}[v]}
		case name == "kind":
			return []any{other("exp", "log")}
		case name == "intrinsic":
			rec := pl.Records.Records[v]
			for _, n := range pl.Records.Targets[g.Target].Records {
				if r := pl.Records.Records[n]; n != v && rec != nil && r.Kind == rec.Kind {
					return []any{n}
				}
			}
			return []any{"no_such_record"}
		case name == "blocks_along":
			return []any{other("M", "N")}
		case name == "swizzle":
			return []any{other(model.SwizzleModes[1:]...)}
		case name == "target":
			return []any{other("sm_90", "sm_80")}
		case name == "file":
			return []any{other("testdata/graphs/transpose_heavy.toml", "testdata/graphs/gemm_epilogue.toml")}
		case name == "graph_sha256":
			last := map[bool]string{true: "1", false: "0"}[strings.HasSuffix(v, "0")]
			return []any{v[:len(v)-1] + last}
		case name == "dtype":
			return []any{other("f32", "f16")}
		case name == "access":
			return []any{other("read", "write")}
		case name == "operand":
			return []any{other("b", "operand 1", "operand 0")}
		case name == "value":
			var names []string
			for _, x := range g.Values {
				names = append(names, x.Name)
			}
			return []any{other(names...)}
		case name == "consumer" || name == "op":
			var names []string
			g.Walk(func(op *model.Op) { names = append(names, op.Name) })
			return []any{other(names...)}
		}
		return []any{v + " (edited)"}
	}
	t.Fatalf("key %s: no wrong value for a %T", k, k.value)
	return nil
}

// otherList swaps two different entries of a list, or, where all are
// alike, changes the first (an empty list of bases gains a zero basis).
func otherList(v []any) []any {
	out := slices.Clone(v)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if fmt.Sprint(out[i]) != fmt.Sprint(out[j]) {
				out[i], out[j] = out[j], out[i]
				return out
			}
		}
	}
	if len(out) == 0 {
		return []any{[]any{int64(0), int64(0)}}
	}
	switch x := out[0].(type) {
	case int64:
		out[0] = x + 1
	case []any:
		base := slices.Clone(x)
		if base[0] == int64(0) {
			base[0] = int64(1)
		} else {
			base[0] = int64(0)
		}
		out[0] = base
	}
	return out
}

// tomlValue writes v as TOML.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tomlValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// Every key of every golden plan, changed to a wrong value of its type,
// makes the replay fail, and the error names the key: its line (or, for
// a key of a layout, the layout table's) is the error's or a related
// one's. A key that planfile.Keys does not list fails the test. The short
// run (and -short) changes the first key of each kind over all the plans,
// so every kind of key any golden plan writes, and replays every golden
// plan unchanged; PLANNER_LONG_TESTS=1 changes the first key of each kind
// in each plan, -all-keys every key of every plan.
func TestEveryPlanKeyIsChecked(t *testing.T) {
	pl := testPlanner(t)
	files, _ := filepath.Glob("testdata/plans/*.toml")
	if len(files) == 0 {
		t.Fatal("no golden TOML plans")
	}
	covered := map[string]bool{}
	seenShort := map[string]bool{}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".toml"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			keys := planKeys(t, file, data) // first: a key planfile.Keys lacks is named as such
			if _, err := replayText(pl, "plan.toml", data); err != nil {
				t.Fatalf("the golden plan does not replay: %v", err)
			}
			pf, _ := planfile.Parse("plan.toml", data)
			g, err := pf.ReadGraph(pf.Graph, pl.Records.Targets)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			seen := map[string]bool{}
			if testing.Short() || !golden.LongTests() {
				seen = seenShort // the first key of each kind in all the plans
			}
			for _, k := range keys {
				kind := fmt.Sprint(planfile.KeyOf(k.path)) + " " + k.path[len(k.path)-1]
				if seen[kind] && !*allKeys {
					continue
				}
				seen[kind] = true
				key, _ := planfile.KeyOf(k.path)
				covered[key.Path] = true
				for _, wrong := range wrongValues(t, pl, g, k) {
					edited := slices.Clone(lines)
					edited[k.line-1] = k.path[len(k.path)-1] + " = " + tomlValue(wrong) + "\n"
					text := strings.Join(edited, "")
					if text == string(data) {
						t.Fatalf("%s: the wrong value %v is the value written", k, wrong)
					}
					var err error
					if name := k.path[len(k.path)-1]; name == "file" || name == "graph_sha256" {
						_, err = replayText(pl, "plan.toml", []byte(text))
					} else if pf, err = planfile.Parse("plan.toml", []byte(text)); err == nil {
						_, err = pl.Replay(pf, g) // the graph read once: Replay does not change it
					}
					if err == nil {
						t.Errorf("line %d: %s = %s (was %s) verifies", k.line, k, tomlValue(wrong), tomlValue(k.value))
						continue
					}
					if !slices.ContainsFunc(k.lines, func(l int) bool { return strings.Contains(err.Error(), fmt.Sprintf("plan.toml:%d:", l)) }) {
						t.Errorf("line %d: %s = %s (was %s) fails without naming line %v: %v", k.line, k, tomlValue(wrong), tomlValue(k.value), k.lines, err)
					}
				}
			}
		})
	}
	for _, k := range planfile.Keys {
		if k.Check != planfile.Table && !covered[k.Path] && !t.Failed() {
			t.Logf("no golden plan writes %s", k.Path)
		}
	}
}

// replayText reads a plan file's text, the graph it names, and replays it.
func replayText(pl *planner.Planner, name string, data []byte) (*planfile.File, error) {
	pf, err := planfile.Parse(name, data)
	if err != nil {
		return nil, err
	}
	g, err := pf.ReadGraph(pf.Graph, pl.Records.Targets)
	if err != nil {
		return nil, err
	}
	_, err = pl.Replay(pf, g)
	return pf, err
}
