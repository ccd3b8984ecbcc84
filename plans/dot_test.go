package plans

import "testing"

// DOT strings: a quote is escaped, a backslash doubled (so that it neither
// escapes the closing quote nor starts an escString escape such as \N),
// a newline written as the escString line break; label lines are joined
// by that break, not by an escaped backslash.
func TestDOTQuoting(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a_g", `"a_g"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a\`, `"a\\"`},
		{`\N`, `"\\N"`},
		{"two\nlines", `"two\nlines"`},
	} {
		if got := dotQuote(c.in); got != c.want {
			t.Errorf("dotQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got, want := dotLabel("a_g", "load", ""), `"a_g\nload"`; got != want {
		t.Errorf("dotLabel = %s, want %s", got, want)
	}
	if got, want := dotLabel(`%x"`, "shared, cost 4"), `"%x\"\nshared, cost 4"`; got != want {
		t.Errorf("dotLabel = %s, want %s", got, want)
	}
}
