// Package schema holds the JSON Schemas (draft 2020-12) of every JSON
// document the planner prints, described in docs/json.md, and checks
// documents against them; the tests of the packages that print JSON use
// it. The schemas are strict: a key they do not declare is an error.
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed *.schema.json
var files embed.FS

// base is where the schemas are registered, so that the relative
// references between them ("common.schema.json#/$defs/layout") resolve.
const base = "file:///planner/schema/"

// Set is the compiled document schemas by name ("plan" for
// plan.schema.json); common.schema.json only holds shared definitions.
type Set map[string]*jsonschema.Schema

// Compile compiles every schema of the package.
func Compile() (Set, error) {
	names, err := fs.Glob(files, "*.schema.json")
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	for _, n := range names {
		data, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if err := c.AddResource(base+n, doc); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
	}
	set := Set{}
	for _, n := range names {
		s, err := c.Compile(base + n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		set[strings.TrimSuffix(n, ".schema.json")] = s
	}
	return set, nil
}

// Source is a schema file's text, by name ("plan").
func Source(name string) ([]byte, error) { return files.ReadFile(name + ".schema.json") }

var english = message.NewPrinter(language.English)

// Check validates a document against the named schema and lists each
// violation on a line: the JSON pointer of the offending value and what
// is wrong ("at /stats: additional properties 'Millis' not allowed");
// "" when the document follows the schema.
func (s Set) Check(name string, data []byte) string {
	sch := s[name]
	if sch == nil {
		return fmt.Sprintf("no schema %s.schema.json", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return "not JSON: " + err.Error()
	}
	err = sch.Validate(doc)
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
		switch {
		case len(e.Causes) > 0:
		case isFalseSchema(e.ErrorKind):
			// unevaluatedProperties: false, which closes a layout view
			// extended by planner layout show's schema_version.
			leaves = append(leaves, fmt.Sprintf("at %s: a key the schema does not declare", pointer(e.InstanceLocation)))
		default:
			leaves = append(leaves, fmt.Sprintf("at %s: %s", pointer(e.InstanceLocation), e.ErrorKind.LocalizedString(english)))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(leaves)
	return strings.Join(slices.Compact(leaves), "\n")
}

func isFalseSchema(k jsonschema.ErrorKind) bool {
	_, ok := k.(*kind.FalseSchema)
	return ok
}

// pointer writes an instance location as a JSON pointer ("/" for the
// whole document).
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

// For names the schema of a document that `planner COMMAND` printed: by
// its status where that decides it whatever the command (bad input,
// unknown, unsat), else by the command.
func For(command string, data []byte) (string, error) {
	var head struct {
		Status    string          `json:"status"`
		Functions json.RawMessage `json:"functions"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", err
	}
	if head.Functions != nil {
		return "functions", nil // a module of several functions, each answered
	}
	switch head.Status {
	case "bad input":
		return "bad_input", nil
	case "unknown":
		return "no_plan", nil
	case "unsat":
		return "explanation", nil
	}
	for _, c := range []struct{ prefix, schema string }{
		{"solve ", "plan"}, {"explain ", "explanation"}, {"layout show ", "layout"},
		{"layout diff ", "conversion"}, {"intrinsics show ", "record"}, {"bench ", "bench"},
	} {
		if strings.HasPrefix(command, c.prefix) {
			return c.schema, nil
		}
	}
	return "", fmt.Errorf("no schema for the JSON of planner %s: add one to schema/ and docs/json.md", command)
}
