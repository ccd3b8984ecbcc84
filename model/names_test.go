package model

import "testing"

// The names MLIR's suffix-id grammar (mlir/docs/LangRef.md) accepts and
// some it does not, written from the grammar.
func TestValidName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"acc_new", true}, {"x.1", true}, {"$t", true}, {"-", true}, {"_", true}, {".a-b$c", true},
		{"0", true}, {"17", true}, {"a17", true},
		{"", false}, {"17a", false}, {"store@17", false}, {`a"b`, false}, {"a\nb", false}, {"a}->b", false},
		{"a b", false}, {"é", false}, {"a:b", false}, {"%a", false}, {"a/b", false},
	} {
		if got := ValidName(c.name); got != c.ok {
			t.Errorf("ValidName(%q) = %v, want %v", c.name, got, c.ok)
		}
	}
}
