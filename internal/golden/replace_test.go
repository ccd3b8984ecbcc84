package golden

import (
	"fmt"
	"strings"
	"testing"
)

// fatal keeps what a helper reports with Fatalf and stops it there.
type fatal struct {
	testing.TB
	msg string
}

type stopped struct{}

func (f *fatal) Helper() {}

func (f *fatal) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// try runs edit against a fatal and gives its text and what it reported.
func try(t *testing.T, edit func(tb testing.TB) string) (got, msg string) {
	f := &fatal{TB: t}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	return edit(f), ""
}

func TestReplace(t *testing.T) {
	for _, c := range []struct {
		name      string
		edit      func(tb testing.TB) string
		want, msg string // the text, or what the test is failed with
	}{
		{"once", func(tb testing.TB) string { return ReplaceOnce(tb, "a b c", "b", "x") }, "a x c", ""},
		{"once, missing", func(tb testing.TB) string { return ReplaceOnce(tb, "a b c", "d", "x") }, "", `"d" occurs 0 times`},
		{"once, twice", func(tb testing.TB) string { return ReplaceOnce(tb, "a b b", "b", "x") }, "", `"b" occurs 2 times`},
		{"once, empty", func(tb testing.TB) string { return ReplaceOnce(tb, "", "", "x") }, "", `"" occurs 1 times`},
		{"every", func(tb testing.TB) string { return ReplaceEvery(tb, "a b b", "b", "x") }, "a x x", ""},
		{"every, missing", func(tb testing.TB) string { return ReplaceEvery(tb, "a b b", "d", "x") }, "", `"d" does not occur`},
		{"first", func(tb testing.TB) string { return ReplaceFirst(tb, "a b b", "b", "x") }, "a x b", ""},
		{"first, missing", func(tb testing.TB) string { return ReplaceFirst(tb, "a b b", "d", "x") }, "", `"d" does not occur`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, msg := try(t, c.edit)
			if c.msg == "" && (msg != "" || got != c.want) {
				t.Errorf("got %q, failed with %q; want %q", got, msg, c.want)
			}
			if c.msg != "" && !strings.Contains(msg, c.msg) {
				t.Errorf("failed with %q, want %q", msg, c.msg)
			}
		})
	}
}
