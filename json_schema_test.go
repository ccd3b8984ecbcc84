package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
	"planner/tomlio"
)

// The JSON contract (docs/json.md): every JSON document the tool prints
// follows its schema under docs/schema/. The schemas are strict (no key
// they do not declare), so a new key in the output fails here, with its
// path, until the schema and docs/json.md declare it.

const schemaDir = "docs/schema"

// compileSchemas compiles each document schema of docs/schema by its
// name ("plan" for plan.schema.json); common.schema.json holds the
// definitions the others share.
func compileSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas under %s: %v", schemaDir, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".schema.json")
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(abs)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[name] = s
	}
	return out
}

// contractErrors validates a document against a schema and says, for
// each violation, the JSON pointer of the offending value and what is
// wrong; "" when the document follows the schema.
func contractErrors(s *jsonschema.Schema, data []byte) string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return "not JSON: " + err.Error()
	}
	err = s.Validate(doc)
	if err == nil {
		return ""
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, fmt.Sprintf("at %s: %s", pointer(e.InstanceLocation), e.ErrorKind.LocalizedString(english)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(leaves)
	return strings.Join(slices.Compact(leaves), "\n")
}

var english = message.NewPrinter(language.English)

// pointer writes an instance location as a JSON pointer ("/" for the
// document).
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "/"
	}
	r := strings.NewReplacer("~", "~0", "/", "~1")
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + r.Replace(t))
	}
	return b.String()
}

// A golden JSON document and the schema it must follow.
type jsonGolden struct {
	path   string // the golden file
	schema string // the schema's name
	data   []byte
}

// schemaFor names the schema of a document that a command printed: by
// its status where that names one whatever the command, else by the
// command.
func schemaFor(command string, data []byte) (string, error) {
	var head struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", err
	}
	switch head.Status {
	case "bad input":
		return "bad_input", nil
	case "unknown":
		return "no_plan", nil
	case "unsat":
		return "explanation", nil
	}
	for prefix, schema := range map[string]string{
		"solve": "plan", "explain": "explanation", "layout show": "layout",
		"layout diff": "conversion", "intrinsics show": "record", "bench": "bench",
	} {
		if strings.HasPrefix(command, prefix+" ") {
			return schema, nil
		}
	}
	return "", fmt.Errorf("no schema for the JSON of planner %s; add one under %s", command, schemaDir)
}

// jsonGoldens lists every golden JSON document: the plans, the unsat
// explanations, and the standard output of each CLI case asking for
// --format json.
func jsonGoldens(t *testing.T) []jsonGolden {
	t.Helper()
	var out []jsonGolden
	for dir, schema := range map[string]string{"testdata/plans": "plan", "testdata/unsat": "explanation"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no golden JSON under %s", dir)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, jsonGolden{f, schema, data})
		}
	}
	cases, _ := filepath.Glob("cmd/planner/testdata/cli/*.txt")
	asked := 0
	for _, f := range cases {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(data), "\n", 2)
		command := strings.TrimPrefix(lines[0], "planner ")
		if !strings.Contains(" "+command+" ", " --format json ") {
			continue
		}
		asked++
		_, rest, _ := strings.Cut(string(data), "-- stdout --\n")
		stdout, _, _ := strings.Cut(rest, "-- stderr --\n")
		if stdout == "" {
			continue // an error before any document: bad flags, a missing file
		}
		schema, err := schemaFor(command, []byte(stdout))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		out = append(out, jsonGolden{f, schema, []byte(stdout)})
	}
	if asked == 0 {
		t.Fatal("no CLI case asks for --format json")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func TestGoldenJSONFollowsSchema(t *testing.T) {
	schemas := compileSchemas(t)
	seen := map[string]int{}
	for _, g := range jsonGoldens(t) {
		s := schemas[g.schema]
		if s == nil {
			t.Errorf("%s: no schema %s.schema.json under %s", g.path, g.schema, schemaDir)
			continue
		}
		seen[g.schema]++
		if msg := contractErrors(s, g.data); msg != "" {
			t.Errorf("%s breaks %s/%s.schema.json (declare new keys there and in docs/json.md):\n%s", g.path, schemaDir, g.schema, msg)
		}
	}
	// Each document schema is exercised by some golden.
	for name := range schemas {
		if name != "common" && name != "bench" && seen[name] == 0 {
			t.Errorf("no golden follows %s.schema.json", name)
		}
	}
}

// Every built-in record's JSON (planner intrinsics show --format json)
// and every example layout's (planner layout show --format json) follow
// their schemas. A record's operands list every element (160 MB for all
// records together), so each operand keeps its first 64 elements here:
// the schema says the same of every element.
func TestRecordAndLayoutJSONFollowSchema(t *testing.T) {
	schemas := compileSchemas(t)
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(lib.Records))
	for name := range lib.Records {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		j := plans.NewRecordJSON(lib.Records[name], lib.OfferedBy(name))
		for _, op := range j.Operands {
			if op.Layout != nil && len(op.Layout.Elements) > 64 {
				op.Layout.Elements = op.Layout.Elements[:64]
			}
		}
		data, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		if msg := contractErrors(schemas["record"], data); msg != "" {
			t.Errorf("record %s breaks record.schema.json:\n%s", name, msg)
		}
	}
	files, _ := filepath.Glob("examples/layouts/*.toml")
	if len(files) == 0 {
		t.Fatal("no example layouts")
	}
	for _, f := range files {
		lf, err := tomlio.ReadLayoutFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := plans.WriteLayoutJSON(&b, lf.Layout, lf.Notation); err != nil {
			t.Fatal(err)
		}
		if msg := contractErrors(schemas["layout"], b.Bytes()); msg != "" {
			t.Errorf("%s breaks layout.schema.json:\n%s", f, msg)
		}
	}
}

// The schemas reject what breaks the contract, naming where: each edit of
// a golden plan below must fail validation with the offending path.
func TestSchemaRejectsBrokenContract(t *testing.T) {
	schemas := compileSchemas(t)
	golden, err := os.ReadFile("testdata/plans/gemm_epilogue.json")
	if err != nil {
		t.Fatal(err)
	}
	if msg := contractErrors(schemas["plan"], golden); msg != "" {
		t.Fatalf("the unedited golden fails: %s", msg)
	}
	for _, c := range []struct {
		name string
		edit func(doc map[string]any)
		want string // in the message: the path and what is wrong
	}{
		{"undeclared key", func(d map[string]any) {
			d["values"].(map[string]any)["a"].(map[string]any)["layout"].(map[string]any)["ctas"] = 1
		},
			"at /values/a/layout: additional properties 'ctas' not allowed"},
		{"capitalised key", func(d map[string]any) { d["stats"].(map[string]any)["Millis"] = 0 }, "at /stats: additional properties 'Millis'"},
		{"status outside its values", func(d map[string]any) { d["status"] = "unknown" }, "at /status: value must be one of"},
		{"missing version", func(d map[string]any) { delete(d, "schema_version") }, "missing property 'schema_version'"},
		{"other version", func(d map[string]any) { d["schema_version"] = 2 }, "at /schema_version: value must be 1"},
		{"wrong type", func(d map[string]any) { d["shared_memory"].(map[string]any)["budget_bytes"] = "166912" }, "at /shared_memory/budget_bytes: got string, want integer"},
		{"basis of wrong shape", func(d map[string]any) {
			d["values"].(map[string]any)["a"].(map[string]any)["layout"].(map[string]any)["bases"].(map[string]any)["lane"] = []any{1, 2}
		}, "at /values/a/layout/bases/lane/0: got number, want array"},
		{"missing layout", func(d map[string]any) { delete(d["values"].(map[string]any)["a"].(map[string]any), "layout") }, "at /values/a: missing property 'layout'"},
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
			msg := contractErrors(schemas["plan"], data)
			if !strings.Contains(msg, c.want) {
				t.Errorf("the edited plan gives %q, want it to say %q", msg, c.want)
			}
		})
	}
}

// The bad-input schema lists every error code the model defines.
func TestSchemaListsEveryErrorCode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(schemaDir, "bad_input.schema.json"))
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
