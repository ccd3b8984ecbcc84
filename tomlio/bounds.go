package tomlio

import (
	"fmt"
	"strconv"

	"planner/model"
)

// MaxNesting bounds how deeply arrays and inline tables nest in one
// value. The planner's files nest three or four levels at most (a layout
// table's rows, a record's operand tables); a value nested a hundred
// thousand deep made the readers hold gigabytes.
const MaxNesting = 64

// MaxKeyPath bounds the length in bytes of a key's full path: the table
// header it is under, the keys of the inline tables it is in and its own
// dotted parts, each array level counted as an index. The readers record
// the position of every key and array entry under its path, so a long
// path repeated over many entries (a key of a hundred thousand dotted
// parts, loop bodies nested a thousand deep) cost gigabytes; a path of the
// planner's own files, with a value's name in it, is a few dozen bytes.
const MaxKeyPath = 1024

// indexBytes is what an array level adds to a path: "[65535]".
const indexBytes = 7

// pathsPerByte bounds the paths of a text's keys and array entries, in
// all, to this many times its size (and a MiB): the readers hold one
// position under each. The planner's own files come to 8 at most (a
// plan's element table), counting 16 bytes per entry; a text of long keys
// over many short entries, each within MaxKeyPath, would come to 500.
const pathsPerByte = 64

// entryBytes is what each position costs beside its path, in that count.
const entryBytes = 16

// checkBounds refuses, in one pass over src before anything is built, a
// text whose values nest deeper than MaxNesting or whose key paths run
// longer than MaxKeyPath: the first place where either is exceeded, with
// its position. It lexes only what it must to tell keys from values
// (strings, comments, headers, brackets); anything else wrong with the
// text is left to the readers, which say what it is. nil means within
// bounds.
func checkBounds(file string, src []byte) *model.Error {
	b := boundsScan{file: file, src: src, line: 1, budget: pathsPerByte*len(src) + 1<<20}
	return b.run()
}

// boundsScan is the state of checkBounds. Each open array or inline
// table is a level with the length of its path; key is true where a key
// is expected (at a line's start outside any value, after an inline
// table's '{' or ','), keyLen the bytes of the key read so far and
// keyStart where it starts.
type boundsScan struct {
	file            string
	src             []byte
	i               int
	line, lineStart int
	levels          []level
	header          int // path length of the current [table]
	headerAt        int // offset of its '['
	headerLine      int
	key             bool
	keyLen          int
	keyStart        int
	value           int // path length of the value after the last '='
	// paths is what the keys and entries so far cost (pathsPerByte),
	// budget the most they may.
	paths, budget int
}

type level struct {
	table bool // an inline table, not an array
	path  int
}

func (b *boundsScan) at(off int) model.Pos {
	return model.Pos{File: b.file, Line: b.line, Col: off - b.lineStart + 1}
}

func (b *boundsScan) run() *model.Error {
	b.key = true
	for b.i < len(b.src) {
		c := b.src[b.i]
		switch {
		case c == '\n':
			b.i++
			b.line, b.lineStart = b.line+1, b.i
			if len(b.levels) == 0 {
				b.key, b.keyLen = true, 0
			}
		case c == '#':
			for b.i < len(b.src) && b.src[b.i] != '\n' {
				b.i++
			}
		case c == '"' || c == '\'':
			start := b.i
			b.skipString()
			if b.key {
				if err := b.keyPart(start, b.i-start); err != nil {
					return err
				}
			}
		case b.key && isBare(c):
			start := b.i
			for b.i < len(b.src) && isBare(b.src[b.i]) {
				b.i++
			}
			if err := b.keyPart(start, b.i-start); err != nil {
				return err
			}
		case b.key && c == '[' && len(b.levels) == 0 && b.keyLen == 0:
			if err := b.tableHeader(); err != nil {
				return err
			}
		case c == '=' && b.key:
			b.value = b.parent() + b.keyLen
			b.key, b.keyLen = false, 0
			if err := b.entry(b.value); err != nil {
				return err
			}
			b.i++
		case c == '[' || c == '{':
			if err := b.open(c == '{'); err != nil {
				return err
			}
			b.i++
		case c == ']' || c == '}':
			if n := len(b.levels); n > 0 && b.levels[n-1].table == (c == '}') {
				b.levels = b.levels[:n-1]
			}
			b.key = false
			b.i++
		case c == ',':
			if n := len(b.levels); n > 0 && b.levels[n-1].table {
				b.key, b.keyLen = true, 0
			} else if n > 0 {
				if err := b.entry(b.levels[n-1].path + indexBytes); err != nil {
					return err
				}
			}
			b.i++
		default:
			b.i++
			if !b.key { // the rest of a number, a word or blanks
				for b.i < len(b.src) && !boundsSpecial[b.src[b.i]] {
					b.i++
				}
			}
		}
	}
	return nil
}

// boundsSpecial marks the bytes checkBounds looks at in a value; it steps
// over the others in a tight loop.
var boundsSpecial = func() (m [256]bool) {
	for _, c := range []byte("\n#\"'[]{},=") {
		m[c] = true
	}
	return m
}()

// parent is the length of the path that a key read now is below: the
// innermost inline table's, or the current [table]'s.
func (b *boundsScan) parent() int {
	if n := len(b.levels); n > 0 {
		return b.levels[n-1].path + 1
	}
	if b.header > 0 {
		return b.header + 1
	}
	return 0
}

// keyPart adds a part of n bytes, starting at offset start, to the key
// being read.
func (b *boundsScan) keyPart(start, n int) *model.Error {
	if b.keyLen == 0 {
		b.keyStart = start
	} else {
		b.keyLen++ // the dot
	}
	b.keyLen += n
	if b.parent()+b.keyLen > MaxKeyPath {
		return b.longKey(b.keyStart)
	}
	return nil
}

// open enters an array or inline table at the current offset: the value
// of the last key, or an entry of the array it is in.
func (b *boundsScan) open(table bool) *model.Error {
	path := b.value
	if n := len(b.levels); n > 0 && !b.levels[n-1].table {
		path = b.levels[n-1].path + indexBytes
	}
	if len(b.levels) == MaxNesting {
		return &model.Error{Pos: b.at(b.i), Code: model.CodeTooLarge, Index: -1,
			Msg: fmt.Sprintf("arrays and inline tables nest more than %d deep here, the most the planner reads (its own files nest a few levels)", MaxNesting)}
	}
	if path+indexBytes > MaxKeyPath {
		return b.longKey(b.i)
	}
	b.levels = append(b.levels, level{table: table, path: path})
	b.key, b.keyLen = table, 0
	if !table {
		return b.entry(path + indexBytes) // the first entry
	}
	return nil
}

// entry counts the position of a key or array entry whose path has n
// bytes against the budget.
func (b *boundsScan) entry(n int) *model.Error {
	b.paths += n + entryBytes
	if b.paths <= b.budget {
		return nil
	}
	return &model.Error{Pos: b.at(b.i), Code: model.CodeTooLarge, Index: -1,
		Msg: fmt.Sprintf("the keys and array entries up to here have paths of more than %d MiB in all (%d times the text's size and 1 MiB), the most the planner reads: each one's position is kept under its path (write long keys over fewer entries)", b.budget>>20, pathsPerByte)}
}

// tableHeader reads a [table] or [[array]] header's key.
func (b *boundsScan) tableHeader() *model.Error {
	start := b.i
	b.headerAt, b.headerLine = b.i, b.line
	b.i++
	if b.i < len(b.src) && b.src[b.i] == '[' {
		b.i++
	}
	n, parts := 0, 0
	for b.i < len(b.src) {
		c := b.src[b.i]
		switch {
		case c == '"' || c == '\'':
			from := b.i
			b.skipString()
			n, parts = n+b.i-from, parts+1
		case isBare(c):
			for b.i < len(b.src) && isBare(b.src[b.i]) {
				b.i++
				n++
			}
			parts++
		case c == ' ' || c == '\t' || c == '.':
			b.i++
		default: // ']', or a mistake the readers report
			b.header = n + max(parts-1, 0)
			b.key = false
			return b.entry(b.header)
		}
		if n+max(parts-1, 0) > MaxKeyPath {
			return b.longKey(start)
		}
	}
	return nil
}

// skipString steps over a basic or literal string, one-line or
// multi-line, from its opening quote; an unterminated one ends at its
// line's end (one-line) or the text's.
func (b *boundsScan) skipString() {
	q := b.src[b.i]
	triple := b.i+2 < len(b.src) && b.src[b.i+1] == q && b.src[b.i+2] == q
	if triple {
		b.i += 3
	} else {
		b.i++
	}
	for b.i < len(b.src) {
		c := b.src[b.i]
		switch {
		case c == '\\' && q == '"':
			b.i++
			if b.i < len(b.src) && b.src[b.i] == '\n' {
				continue // a line-ending backslash: the newline is counted below
			}
			b.i++
		case c == '\n':
			if !triple {
				return
			}
			b.i++
			b.line, b.lineStart = b.line+1, b.i
		case c == q:
			if !triple {
				b.i++
				return
			}
			if b.i+2 < len(b.src) && b.src[b.i+1] == q && b.src[b.i+2] == q {
				b.i += 3
				// Up to two more quotes close a multi-line string: """a"""""
				for k := 0; k < 2 && b.i < len(b.src) && b.src[b.i] == q; k++ {
					b.i++
				}
				return
			}
			b.i++
		default:
			b.i++
		}
	}
}

// longKey refuses the key, header or value starting at offset off whose
// path runs over MaxKeyPath, quoting its start and the header it is
// under.
func (b *boundsScan) longKey(off int) *model.Error {
	what := "the key " + b.quote(off)
	switch {
	case off == b.headerAt:
		what = "the table header " + b.quote(off)
	case b.src[off] == '[' || b.src[off] == '{':
		what = "the value here"
	}
	if off != b.headerAt && b.header > 0 {
		what += fmt.Sprintf(" under the table header %s (line %d)", b.quote(b.headerAt), b.headerLine)
	}
	return &model.Error{Pos: b.at(off), Code: model.CodeTooLarge, Index: -1,
		Msg: fmt.Sprintf("%s has a path of more than %d bytes (its table, the inline tables it is in, its dotted parts and an index per array), the most the planner reads", what, MaxKeyPath)}
}

// quote quotes the text at offset off up to the end of its key, header or
// line, or its first 40 bytes and an ellipsis.
func (b *boundsScan) quote(off int) string {
	end := off
	for end < len(b.src) && end-off < 40 && b.src[end] != '\n' && b.src[end] != '=' {
		end++
	}
	for end > off && (b.src[end-1] == ' ' || b.src[end-1] == '\t' || b.src[end-1] == '\r') {
		end--
	}
	q := strconv.Quote(string(b.src[off:end]))
	if end-off == 40 {
		q += "…"
	}
	return q
}
