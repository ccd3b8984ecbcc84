package model

import (
	"encoding/json"
	"testing"
)

// An error prints each related position its message does not already
// name, after the message; its JSON carries them as data with the code's
// name.
func TestErrorRelated(t *testing.T) {
	first := Pos{File: "g.toml", Line: 7, Col: 1}
	for _, c := range []struct {
		name     string
		err      *Error
		text     string
		jsonText string
	}{
		{"named in the message",
			&Error{Pos: Pos{File: "g.toml", Line: 13, Col: 1}, Code: CodeDuplicate, Index: -1, Msg: `value "x" is also defined at g.toml:7:1`, Related: []Pos{first}},
			`g.toml:13:1: value "x" is also defined at g.toml:7:1`,
			`{"pos":{"file":"g.toml","line":13,"col":1},"code":"duplicate","index":-1,"message":"value \"x\" is also defined at g.toml:7:1","related":[{"file":"g.toml","line":7,"col":1}]}`},
		{"not named",
			&Error{Pos: Pos{File: "g.toml", Line: 9, Col: 1}, Code: CodeDuplicate, Field: "wi_layout", Index: -1, Msg: "give one", Related: []Pos{{File: "g.toml", Line: 10, Col: 1}, first}},
			`g.toml:9:1: give one (see g.toml:10:1, g.toml:7:1)`,
			`{"pos":{"file":"g.toml","line":9,"col":1},"code":"duplicate","field":"wi_layout","index":-1,"message":"give one","related":[{"file":"g.toml","line":10,"col":1},{"file":"g.toml","line":7,"col":1}]}`},
		{"none",
			&Error{Pos: Pos{File: "g.toml"}, Code: CodeUnknownName, Index: -1, Msg: "cannot read"},
			`g.toml: cannot read`,
			`{"pos":{"file":"g.toml","line":0},"code":"unknown-name","index":-1,"message":"cannot read"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.err.Error(); got != c.text {
				t.Errorf("text %q, want %q", got, c.text)
			}
			b, err := json.Marshal(c.err)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.jsonText {
				t.Errorf("JSON %s, want %s", b, c.jsonText)
			}
		})
	}
}
