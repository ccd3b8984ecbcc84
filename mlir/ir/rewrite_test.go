package ir

import (
	"strings"
	"testing"
)

// The Rewriter's one rule: edits in source order, insertions at an
// offset before a replacement starting there and in the order made, and
// overlapping edits an error at the first overlap's file:line:col.
func TestRewriterRule(t *testing.T) {
	const src = "ab\ncdef\ngh"
	cases := []struct {
		name  string
		edits []Edit
		want  string
		err   string // a part of the error, "" for none
	}{
		{"none", nil, src, ""},
		{"replace", []Edit{{3, 7, "XY"}}, "ab\nXY\ngh", ""},
		{"delete a line", []Edit{{3, 8, ""}}, "ab\ngh", ""},
		{"source order, not the order made", []Edit{{8, 8, "2"}, {0, 0, "1"}}, "1ab\ncdef\n2gh", ""},
		{"insertions at one offset keep their order", []Edit{{3, 3, "x"}, {3, 3, "y"}}, "ab\nxycdef\ngh", ""},
		{"an insertion goes before a replacement starting there", []Edit{{3, 7, "R"}, {3, 3, "i"}}, "ab\niR\ngh", ""},
		{"an insertion at a replacement's end goes after it", []Edit{{7, 7, "i"}, {3, 7, "R"}}, "ab\nRi\ngh", ""},
		{"adjacent replacements", []Edit{{5, 7, "2"}, {3, 5, "1"}}, "ab\n12\ngh", ""},
		{"an insertion at the end", []Edit{{10, 10, "!"}}, src + "!", ""},
		{"overlapping replacements", []Edit{{3, 6, "x"}, {5, 8, "y"}}, "", "t.mlir:2:3: writing the plan: two edits overlap: replacing \"cde\" at t.mlir:2:1 and replacing \"ef\\n\" at t.mlir:2:3"},
		{"one replacement inside another", []Edit{{3, 8, ""}, {4, 5, "y"}}, "", "two edits overlap: deleting \"cdef\\n\""},
		{"the same span replaced twice", []Edit{{3, 5, "x"}, {3, 5, "x"}}, "", "two edits overlap"},
		{"an insertion inside a replacement", []Edit{{3, 7, "x"}, {5, 5, "y"}}, "", "t.mlir:2:3: writing the plan: two edits overlap: replacing \"cdef\" at t.mlir:2:1 and inserting \"y\" at t.mlir:2:3"},
		{"outside the text", []Edit{{9, 12, "x"}}, "", "outside the text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRewriter("t.mlir", src)
			r.Add(c.edits...)
			got, err := r.Apply()
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error %v, want %q", err, c.want)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %q, %v; want the error %q", got, err, c.err)
			case c.err == "" && got != c.want:
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// A rewriter of a part of the text takes edits at the whole text's
// offsets and names their positions in the whole file.
func TestRewriterWithin(t *testing.T) {
	r := NewRewriter("t.mlir", "ab\ncdef\ngh")
	part := r.Within(3, 7)
	part.Replace(4, 6, "XY")
	if got, err := part.Apply(); err != nil || got != "cXYf" {
		t.Errorf("got %q, %v; want \"cXYf\"", got, err)
	}
	part.Insert(5, "!")
	if _, err := part.Apply(); err == nil || !strings.HasPrefix(err.Error(), "t.mlir:2:3:") {
		t.Errorf("got %v, want an overlap at t.mlir:2:3", err)
	}
}
