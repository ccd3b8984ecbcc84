package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/model"
)

// recorder keeps what a harness reports instead of failing the test.
type recorder struct {
	*testing.T
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(string, ...any) {}

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name, file, got string
		missing, upd    bool
		fails           bool
		after           string // the file's text afterwards
	}{
		{name: "same", file: "a\nb\n", got: "a\nb\n", after: "a\nb\n"},
		{name: "same, -update", file: "a\nb\n", got: "a\nb\n", upd: true, after: "a\nb\n"},
		{name: "differs", file: "a\nb\n", got: "a\nc\n", fails: true, after: "a\nb\n"},
		{name: "differs, -update", file: "a\nb\n", got: "a\nc\n", upd: true, after: "a\nc\n"},
		{name: "missing", missing: true, got: "a\n", fails: true},
		{name: "missing, -update", missing: true, got: "a\n", upd: true, after: "a\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.golden")
			if !c.missing {
				if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			old := *update
			*update = c.upd
			defer func() { *update = old }()
			r := &recorder{T: t}
			Compare(r, path, c.got)
			if fails := len(r.errs) > 0; fails != c.fails {
				t.Errorf("failed %v (%q), want %v", fails, r.errs, c.fails)
			}
			data, _ := os.ReadFile(path)
			if string(data) != c.after {
				t.Errorf("the file holds %q afterwards, want %q", data, c.after)
			}
		})
	}
}

func TestWants(t *testing.T) {
	data := []byte("x = 1\ny = [ # want bad-value: a number\n// want syntax: not this comment style\n")
	ws := Wants(t, data, "#")
	if len(ws) != 1 || ws[0] != (Want{Line: 2, Code: "bad-value", Text: "a number"}) {
		t.Errorf("Wants = %+v", ws)
	}
}

func TestCheckWants(t *testing.T) {
	at := func(line int, code model.Code, msg string) *model.Error {
		return &model.Error{Pos: model.Pos{File: "f", Line: line, Col: 1}, Code: code, Msg: msg}
	}
	ws := []Want{{Line: 2, Code: model.CodeSyntax.String(), Text: "expected"}}
	for _, c := range []struct {
		name  string
		err   error
		fails int
	}{
		{"met", at(2, model.CodeSyntax, "expected ']'"), 0},
		{"met in a list", model.ErrorList{at(2, model.CodeSyntax, "expected ']'")}, 0},
		{"other line", at(3, model.CodeSyntax, "expected ']'"), 2},
		{"other code", at(2, model.CodeBadValue, "expected ']'"), 2},
		{"other text", at(2, model.CodeSyntax, "found ']'"), 2},
		{"one more", model.ErrorList{at(2, model.CodeSyntax, "expected"), at(5, model.CodeSyntax, "expected")}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{T: t}
			CheckWants(r, c.err, ws)
			if len(r.errs) != c.fails {
				t.Errorf("%d failures, want %d: %s", len(r.errs), c.fails, strings.Join(r.errs, "; "))
			}
		})
	}
}
