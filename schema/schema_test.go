package schema

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"planner/model"
)

func compiled(t *testing.T) Set {
	t.Helper()
	set, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// The schemas reject what breaks the contract, naming where: each edit of
// a golden plan below must fail validation with the offending path.
func TestRejectsBrokenContract(t *testing.T) {
	set := compiled(t)
	golden, err := os.ReadFile("../testdata/plans/gemm_epilogue.json")
	if err != nil {
		t.Fatal(err)
	}
	if msg := set.Check("plan", golden); msg != "" {
		t.Fatalf("the unedited golden fails: %s", msg)
	}
	value := func(d map[string]any, name string) map[string]any {
		return d["values"].(map[string]any)[name].(map[string]any)
	}
	for _, c := range []struct {
		name string
		edit func(doc map[string]any)
		want string // in the message: the path and what is wrong
	}{
		{"undeclared key", func(d map[string]any) { value(d, "a")["layout"].(map[string]any)["ctas"] = 1 },
			"at /values/a/layout: additional properties 'ctas' not allowed"},
		{"capitalised key", func(d map[string]any) { d["stats"].(map[string]any)["Millis"] = 0 }, "at /stats: additional properties 'Millis' not allowed"},
		{"status outside its values", func(d map[string]any) { d["status"] = "unknown" }, "at /status: value must be one of 'optimal', 'feasible', 'greedy'"},
		{"missing version", func(d map[string]any) { delete(d, "schema_version") }, "at /: missing property 'schema_version'"},
		{"other version", func(d map[string]any) { d["schema_version"] = 2 }, "at /schema_version: value must be 1"},
		{"wrong type", func(d map[string]any) { d["shared_memory"].(map[string]any)["budget_bytes"] = "166912" }, "at /shared_memory/budget_bytes: got string, want integer"},
		{"basis of wrong shape", func(d map[string]any) {
			value(d, "a")["layout"].(map[string]any)["bases"].(map[string]any)["lane"] = []any{1, 2}
		}, "at /values/a/layout/bases/lane/0: got number, want array"},
		{"missing layout", func(d map[string]any) { delete(value(d, "a"), "layout") }, "at /values/a: missing property 'layout'"},
		{"unknown notation", func(d map[string]any) { value(d, "a")["layout"].(map[string]any)["notation"] = "ttg" }, "at /values/a/layout/notation: value must be one of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(golden, &doc); err != nil {
				t.Fatal(err)
			}
			c.edit(doc)
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if msg := set.Check("plan", data); !strings.Contains(msg, c.want) {
				t.Errorf("the edited plan gives %q, want it to say %q", msg, c.want)
			}
		})
	}
}

// A record operand's layout is closed too, though the layout view it
// refers to is shared with planner layout show.
func TestRecordLayoutIsStrict(t *testing.T) {
	set := compiled(t)
	doc := `{"schema_version": 1, "name": "r", "kind": "mma", "vendor": "v", "instruction": "i", "source": "s", "file": "f", "line": 1,
	"subgroup_size": 32, "subgroups": 1, "cost": 1, "targets": [], "operands": {"a": {"dtype": "f16", "shape": [16, 16],
	"layout": {"shape": [16, 16], "subgroup_size": 32, "subgroups": 1, "values": 8, "elements": [], "extra": true}}}}`
	if msg := set.Check("record", []byte(doc)); msg != "at /operands/a/layout/extra: a key the schema does not declare" {
		t.Errorf("an undeclared key in an operand's layout gives %q", msg)
	}
}

// The bad-input schema lists every error code the model defines.
func TestListsEveryErrorCode(t *testing.T) {
	data, err := Source("bad_input")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Errors struct {
				Items struct {
					Properties struct {
						Code struct {
							Enum []string `json:"enum"`
						} `json:"code"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"errors"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for c := model.Code(0); !strings.HasPrefix(c.String(), "code("); c++ {
		codes = append(codes, c.String())
	}
	if got := s.Properties.Errors.Items.Properties.Code.Enum; !slices.Equal(got, codes) {
		t.Errorf("bad_input.schema.json lists codes %v, the model %v", got, codes)
	}
}

// Which schema a command's JSON follows.
func TestFor(t *testing.T) {
	for _, c := range []struct{ command, doc, want string }{
		{"solve g.toml --format json", `{"status": "optimal"}`, "plan"},
		{"solve g.toml --format json", `{"status": "unsat"}`, "explanation"},
		{"solve g.toml --format json", `{"status": "unknown"}`, "no_plan"},
		{"explain g.toml --format json", `{"status": "bad input"}`, "bad_input"},
		{"explain g.toml --format json", `{"status": "optimal"}`, "explanation"},
		{"layout show --format json l.toml", `{}`, "layout"},
		{"layout diff --format json a b", `{}`, "conversion"},
		{"intrinsics show r --format json", `{}`, "record"},
		{"bench --format json d", `{}`, "bench"},
		{"solve m.mlir --format json", `{"functions": []}`, "functions"},
	} {
		if got, err := For(c.command, []byte(c.doc)); got != c.want || err != nil {
			t.Errorf("For(%q, %s) = %q, %v; want %q", c.command, c.doc, got, err, c.want)
		}
	}
	if _, err := For("gen --format json", []byte(`{}`)); err == nil {
		t.Error("a command without a schema gives no error")
	}
}
