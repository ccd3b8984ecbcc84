package ir

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
)

// Rewriter collects text edits against one source text and applies them
// once. An edit replaces the bytes src[Off:End] with Text; an insertion
// is an edit with Off == End, a deletion one with empty Text.
//
// The one rule for edits that meet: edits are applied in source order,
// by Off; at one offset, insertions go before a replacement that starts
// there, and insertions keep the order they were made in (so an
// insertion at a replacement's End goes after it). Edits that overlap
// are an error, returned by Apply and never merged or dropped: two
// replacements that share a byte, or an insertion strictly inside a
// replaced span. Two insertions never overlap.
type Rewriter struct {
	file  string
	src   string
	base  int // the offset of src in the file, for the positions of errors
	full  string
	edits []Edit
}

// Edit replaces the bytes [Off, End) of the source with Text.
type Edit struct {
	Off, End int
	Text     string
}

// NewRewriter prepares edits to src, the text of file (named in errors).
func NewRewriter(file, src string) *Rewriter {
	return &Rewriter{file: file, src: src, full: src}
}

// Within is a rewriter of the part [off, end) of r's text, taking edits
// at the offsets of the whole text (its errors name them so).
func (r *Rewriter) Within(off, end int) *Rewriter {
	return &Rewriter{file: r.file, src: r.src[off:end], base: r.base + off, full: r.full}
}

// Replace replaces src[off:end] with text.
func (r *Rewriter) Replace(off, end int, text string) {
	r.edits = append(r.edits, Edit{off, end, text})
}

// Insert puts text at off.
func (r *Rewriter) Insert(off int, text string) { r.Replace(off, off, text) }

// Replaced reports whether a replacement of the edits made so far covers
// the byte at off.
func (r *Rewriter) Replaced(off int) bool {
	return slices.ContainsFunc(r.edits, func(e Edit) bool { return e.Off <= off && off < e.End })
}

// Add adds edits, each as Replace would.
func (r *Rewriter) Add(edits ...Edit) { r.edits = append(r.edits, edits...) }

// Apply is the text with every edit applied by the rule of Rewriter's
// doc comment; an error, at the first overlap, when two edits overlap or
// one is outside the text.
func (r *Rewriter) Apply() (string, error) {
	edits := slices.Clone(r.edits)
	for i := range edits {
		edits[i].Off -= r.base
		edits[i].End -= r.base
	}
	slices.SortStableFunc(edits, compareEdits)
	var out strings.Builder
	at := 0
	var last *Edit // the last replacement applied
	for i := range edits {
		e := &edits[i]
		if e.Off < 0 || e.End < e.Off || e.End > len(r.src) {
			return "", r.errorAt(e.Off, "an edit of bytes [%d, %d) is outside the text", e.Off+r.base, e.End+r.base)
		}
		if e.Off < at {
			return "", r.errorAt(e.Off, "two edits overlap: %s and %s", r.describe(*last), r.describe(*e))
		}
		out.WriteString(r.src[at:e.Off])
		out.WriteString(e.Text)
		at = e.End
		if e.End > e.Off {
			last = e
		}
	}
	out.WriteString(r.src[at:])
	return out.String(), nil
}

// compareEdits orders edits by start, an insertion before a replacement
// starting at the same offset.
func compareEdits(x, y Edit) int {
	if x.Off != y.Off {
		return x.Off - y.Off
	}
	xi, yi := x.End == x.Off, y.End == y.Off
	switch {
	case xi && !yi:
		return -1
	case yi && !xi:
		return 1
	}
	return 0
}

// describe names an edit for an error: the bytes it replaces.
func (r *Rewriter) describe(e Edit) string {
	what := "replacing"
	if e.Text == "" {
		what = "deleting"
	}
	if e.End == e.Off {
		return fmt.Sprintf("inserting %q at %s", e.Text, r.posAt(e.Off))
	}
	return fmt.Sprintf("%s %q at %s", what, r.src[e.Off:e.End], r.posAt(e.Off))
}

// errorAt is an error at offset off of the rewriter's text.
func (r *Rewriter) errorAt(off int, format string, args ...any) error {
	return &model.Error{Pos: r.posAt(off), Code: model.CodeBadValue, Index: -1, Msg: "writing the plan: " + fmt.Sprintf(format, args...)}
}

// posAt is the file:line:col of offset off of the rewriter's text.
func (r *Rewriter) posAt(off int) model.Pos {
	off = min(max(off+r.base, 0), len(r.full))
	before := r.full[:off]
	line := strings.Count(before, "\n") + 1
	col := off - (strings.LastIndexByte(before, '\n') + 1) + 1
	return model.Pos{File: r.file, Line: line, Col: col}
}
