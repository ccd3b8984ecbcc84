package planner_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"planner/internal/golden"
	"planner/intrinsics"
	"planner/plans"
	"planner/schema"
	"planner/tomlio"
)

// The JSON contract (docs/json.md): every JSON document the tool prints
// follows its schema under schema/. The schemas are strict, so a new key
// in the output fails here, with its path, until schema/ and
// docs/json.md declare it. cmd/planner checks the CLI's JSON goldens.

func compileSchemas(t *testing.T) schema.Set {
	t.Helper()
	set, err := schema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// Every golden JSON plan and unsat explanation follows its schema.
func TestGoldenJSONFollowsSchema(t *testing.T) {
	set := compileSchemas(t)
	for dir, name := range map[string]string{"testdata/plans": "plan", "testdata/unsat": "explanation"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no golden JSON under %s", dir)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if msg := set.Check(name, data); msg != "" {
				t.Errorf("%s breaks schema/%s.schema.json (declare new keys there and in docs/json.md):\n%s", f, name, msg)
			}
		}
	}
}

// Every built-in record's JSON (planner intrinsics show --format json)
// and every example layout's (planner layout show --format json) follow
// their schemas. A record's operands list every element (160 MB for all
// records together), so each operand keeps its first 64 elements here:
// the schema says the same of every element. The short run checks 40
// records spread over the sorted names (golden.Sample) and every layout;
// PLANNER_LONG_TESTS=1 every record.
func TestRecordAndLayoutJSONFollowSchema(t *testing.T) {
	set := compileSchemas(t)
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(lib.Records))
	for name := range lib.Records {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range golden.Sample(names, 40) {
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
		if msg := set.Check("record", data); msg != "" {
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
		if msg := set.Check("layout", b.Bytes()); msg != "" {
			t.Errorf("%s breaks layout.schema.json:\n%s", f, msg)
		}
	}
}
