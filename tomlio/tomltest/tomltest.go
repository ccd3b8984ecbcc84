// Package tomltest makes broken TOML for the readers' tests: each
// `key = value` line of a file, one at a time, with a value of another
// TOML type, so that a test can check that the reader reports exactly that
// key, on that line, and nothing that follows from it.
package tomltest

import (
	"regexp"
	"strings"
)

// Mutation is a file with one key's value of the wrong type.
type Mutation struct {
	Line int    // the line changed, from 1
	Key  string // the key whose value changed
	Text []byte // the whole file, changed
}

var keyLine = regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(.*)$`)

// wrongType gives a value of another TOML type than the one written.
func wrongType(value string) string {
	switch {
	case strings.HasPrefix(value, `"`):
		return "7"
	case strings.HasPrefix(value, "[") || strings.HasPrefix(value, "{"):
		return `"x"`
	case value == "true" || value == "false":
		return "[1]"
	}
	return `"seven"`
}

// WrongTypes gives one Mutation per `key = value` line of text whose value
// ends on that line.
func WrongTypes(text string) []Mutation {
	lines := strings.Split(text, "\n")
	var out []Mutation
	for i, l := range lines {
		m := keyLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		value := strings.TrimSpace(strings.SplitN(m[4], "#", 2)[0])
		if strings.HasSuffix(value, "[") { // an array over several lines
			continue
		}
		changed := append([]string(nil), lines...)
		changed[i] = m[1] + m[2] + m[3] + wrongType(value)
		out = append(out, Mutation{Line: i + 1, Key: m[2], Text: []byte(strings.Join(changed, "\n"))})
	}
	return out
}
