package tomlio

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"planner/model"
)

// Document is a parsed TOML file with the positions of its keys. Readers
// take values through Tables, which record every problem in Errs.
type Document struct {
	File string
	Errs model.ErrorList
	root map[string]any
	pos  positions
	// failed marks the key paths whose value was of the wrong type or out
	// of range, already reported: checks of what depends on them skip them.
	failed map[string]bool
	// A graph read streamed (parseStreamed) keeps its top-level [[op]]
	// tables as spans of src, each read again when its turn comes
	// (replay): overlay holds the positions of that op, keys the key names
	// every op shares.
	src      []byte
	spans    []opSpan
	overlay  positions
	keys     map[string]string
	replayer *fastParser
}

// parseStreamed reads a graph's text keeping its ops as spans; false when
// the one-pass reader cannot, and Parse must.
func parseStreamed(file string, data []byte) (*Document, bool) {
	keys := map[string]string{}
	root, pos, spans, ok := fastParseStream(file, data, keys)
	if !ok {
		return nil, false
	}
	return &Document{File: file, root: root, pos: pos, src: data, spans: spans, keys: keys}, true
}

// replay reads op i of a streamed graph as the table at path op[i] and
// makes its positions current; false if it cannot (then the graph is read
// whole).
func (d *Document) replay(i int) (*Table, bool) {
	var m map[string]any
	var pos positions
	var ok bool
	d.replayer, m, pos, ok = replayOp(d.replayer, d.File, d.src, i, d.spans[i], d.keys)
	if !ok {
		return nil, false
	}
	d.overlay = pos
	return &Table{doc: d, path: "op[" + strconv.Itoa(i) + "]", m: m}, true
}

// Parse reads TOML text. A syntax error is returned as a positioned
// model.Error; the Document is nil then. The size of the text is bounded
// where it is read (ReadFileLimit, ReadLimit), its nesting and key paths
// here, before anything is built (checkBounds).
func Parse(file string, data []byte) (*Document, error) {
	if err := checkBounds(file, data); err != nil {
		return nil, err
	}
	return parseBounded(file, data)
}

// parseBounded is Parse for a text checkBounds has passed.
func parseBounded(file string, data []byte) (*Document, error) {
	if root, pos, ok := fastParse(file, data); ok {
		return &Document{File: file, root: root, pos: pos, src: data}, nil
	}
	// Outside the one-pass reader's TOML, or not TOML: the decoder reads
	// it, or says what is wrong and where.
	// The positions are scanned first: the scan refuses an array too long
	// to decode in reasonable time and memory.
	pos, over, at := scanBounded(file, string(data))
	if over != "" {
		return nil, &model.Error{Pos: at, Code: model.CodeTooLarge, Index: -1, Field: over,
			Msg: fmt.Sprintf("%s has more than %d entries, the most the planner reads in one array (a layout this large is written in linear notation, not as a table)", over, MaxArrayLen)}
	}
	root := map[string]any{}
	if _, err := toml.Decode(string(data), &root); err != nil {
		return nil, syntaxError(file, data, err)
	}
	return &Document{File: file, root: root, pos: pos, src: data}, nil
}

func syntaxError(file string, data []byte, err error) *model.Error {
	e := &model.Error{Pos: model.Pos{File: file, Line: 1, Col: 1}, Code: model.CodeSyntax, Index: -1}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		e.Pos.Line, e.Pos.Col = pe.Position.Line, pe.Position.Col
		if e.Pos.Line < 1 {
			// Some errors carry only a byte offset.
			e.Pos.Line, e.Pos.Col = lineCol(data, pe.Position.Start)
		}
		e.Msg = "invalid TOML: " + pe.Message
		if pe.Usage != "" {
			e.Msg += " (" + strings.TrimSpace(pe.Usage) + ")"
		}
		return e
	}
	e.Msg = "invalid TOML: " + err.Error()
	return e
}

// lineCol turns a byte offset into a line and column counted from 1.
func lineCol(data []byte, off int) (int, int) {
	line, col := 1, 1
	for i := 0; i < off && i < len(data); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Root returns the top-level table.
func (d *Document) Root() *Table { return &Table{doc: d, path: "", m: d.root} }

// Err returns the collected errors sorted by position, or nil.
func (d *Document) Err() error {
	d.Errs.Sort()
	return d.Errs.Err()
}

// posOf finds where path is written, falling back to its parents.
func (d *Document) posOf(path string) model.Pos {
	for path != "" {
		if p, ok := d.overlay[path]; ok {
			return p
		}
		if p, ok := d.pos[path]; ok {
			return p
		}
		// Drop the last index or key.
		if i := strings.LastIndexAny(path, ".["); i >= 0 {
			path = path[:i]
		} else {
			break
		}
	}
	return model.Pos{File: d.File, Line: 1, Col: 1}
}

// Table is one TOML table being read.
type Table struct {
	doc   *Document
	path  string
	m     map[string]any
	used  map[string]bool
	known []string // the keys the table may have, when declared
}

// Failed reports whether key (a dotted path below the table: "c.in") was
// read and found of the wrong type or out of range, and so reported: a
// check of its value is then a cascade.
func (t *Table) Failed(key string) bool { return t.doc.failed[t.keyPath(key)] }

// Skip marks keys as read without reading them: a reader that stops early
// leaves them neither unknown nor reported twice.
func (t *Table) Skip(keys ...string) {
	for _, k := range keys {
		if _, ok := t.m[k]; ok {
			t.use(k)
		}
	}
}

// use marks key read.
func (t *Table) use(key string) {
	if t.used == nil {
		t.used = map[string]bool{}
	}
	t.used[key] = true
}

func (t *Table) fail(key string) {
	if t.doc.failed == nil {
		t.doc.failed = map[string]bool{}
	}
	t.doc.failed[t.keyPath(key)] = true
}

// Expect declares the keys the table may have. A required key that is
// missing while a present unknown key is a near miss of it is then left to
// CheckUnknown, which reports the misspelling with a suggestion.
func (t *Table) Expect(keys ...string) { t.known = keys }

// missing reports a required key that is absent, unless it looks
// misspelled.
func (t *Table) missing(key, what string) {
	for k := range t.m {
		if k != key && !containsString(t.known, k) && model.EditDistance(k, key) <= 2 {
			return
		}
	}
	t.Errorf("", model.CodeMissingKey, "missing %s", what)
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// Path is the table's dotted path ("" for the top level).
func (t *Table) Path() string { return t.path }

func (t *Table) keyPath(key string) string { return join(t.path, key) }

// Pos returns where key (or the table itself, for "") is written.
func (t *Table) Pos(key string) model.Pos {
	if key == "" {
		return t.doc.posOf(t.path)
	}
	return t.doc.posOf(t.keyPath(key))
}

// TextPos is where the text of the string key holds begins, the byte
// after its opening quote, for the reader of that text to place its
// errors from (stringPos); where key is written when that is not known.
func (t *Table) TextPos(key string) model.Pos { return t.stringPos(key, 0) }

// PosAt returns where entry i of the list key is written.
func (t *Table) PosAt(key string, i int) model.Pos {
	return t.doc.posOf(fmt.Sprintf("%s[%d]", t.keyPath(key), i))
}

// Errorf records a problem with key (the table itself for "") and
// returns it, for the caller to add the positions it relates to.
func (t *Table) Errorf(key string, code model.Code, format string, args ...any) *model.Error {
	e := &model.Error{Pos: t.Pos(key), Code: code, Field: t.keyPath(key), Index: -1, Msg: model.ClipQuoted(fmt.Sprintf(format, args...))}
	t.doc.Errs = append(t.doc.Errs, e)
	return e
}

// ErrorfAt records a problem with entry i of the list key and returns it.
func (t *Table) ErrorfAt(key string, i int, code model.Code, format string, args ...any) *model.Error {
	e := &model.Error{Pos: t.PosAt(key, i), Code: code, Field: t.keyPath(key), Index: i, Msg: fmt.Sprintf(format, args...)}
	t.doc.Errs = append(t.doc.Errs, e)
	return e
}

// Report records err, placing a model.Error by its field, relative to this
// table.
func (t *Table) Report(err error) {
	var list model.ErrorList
	switch e := err.(type) {
	case nil:
		return
	case model.ErrorList:
		list = e
	case *model.Error:
		list = model.ErrorList{e}
	default:
		t.Errorf("", model.CodeBadValue, "%v", err)
		return
	}
	for _, e := range list {
		c := *e
		if c.Pos.Line == 0 {
			switch {
			case c.Index >= 0:
				c.Pos = t.PosAt(c.Field, c.Index)
			case c.Offset > 0:
				c.Pos = t.stringPos(c.Field, c.Offset-1)
			default:
				c.Pos = t.Pos(c.Field)
			}
			for _, i := range c.RelatedIndex {
				c.Related = append(slices.Clip(c.Related), t.PosAt(c.Field, i))
			}
			c.Field = t.keyPath(c.Field)
		}
		t.doc.Errs = append(t.doc.Errs, &c)
	}
}

// Has reports whether key is present.
func (t *Table) Has(key string) bool {
	_, ok := t.m[key]
	return ok
}

func (t *Table) get(key string) (any, bool) {
	v, ok := t.m[key]
	if ok {
		t.use(key)
	}
	return v, ok
}

// Raw returns key's value as the TOML decoder gives it (int64, float64,
// bool, string, []any, map[string]any, []map[string]any), marking the
// key read.
func (t *Table) Raw(key string) (any, bool) { return t.get(key) }

func typeName(v any) string {
	switch v.(type) {
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	}
	return fmt.Sprintf("a %T", v)
}

// found describes a value of the wrong type for a message: scalars with
// their value, so that the line is easy to find.
func found(v any) string {
	switch x := v.(type) {
	case int64:
		return fmt.Sprintf("the integer %d", x)
	case float64:
		return fmt.Sprintf("the float %v", x)
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("%v", x)
	}
	return typeName(v)
}

// typeError records that key (entry idx of it, when idx has entries:
// rows[3][1]) holds a value of the wrong type, naming the key and the type
// it takes.
func (t *Table) typeError(key string, idx []int, want string, v any) {
	t.fail(key)
	label := key
	for _, i := range idx {
		label += fmt.Sprintf("[%d]", i)
	}
	msg := fmt.Sprintf("%s must be %s, found %s", label, want, found(v))
	if len(idx) > 0 {
		t.ErrorfAt(key, idx[0], model.CodeBadType, "%s", msg)
	} else {
		t.Errorf(key, model.CodeBadType, "%s", msg)
	}
}

// MaxInt bounds integers in inputs: larger ones are rejected as absurd.
const MaxInt = 1 << 30

// intValue reads v as an integer of key (entry idx of it).
func (t *Table) intValue(v any, key string, idx ...int) (int, bool) {
	n, ok := v.(int64)
	if !ok {
		t.typeError(key, idx, "an integer", v)
		return 0, false
	}
	if n > MaxInt || n < -MaxInt {
		t.fail(key)
		label := key
		for _, i := range idx {
			label += fmt.Sprintf("[%d]", i)
		}
		msg := fmt.Sprintf("%s = %d is out of range (at most %d in magnitude)", label, n, MaxInt)
		if len(idx) > 0 {
			t.ErrorfAt(key, idx[0], model.CodeTooLarge, "%s", msg)
		} else {
			t.Errorf(key, model.CodeTooLarge, "%s", msg)
		}
		return 0, false
	}
	return int(n), true
}

// Int reads an integer key. A missing key is an error when required.
func (t *Table) Int(key string, required bool) (int, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return 0, false
	}
	return t.intValue(v, key)
}

// String reads a string key.
func (t *Table) String(key string, required bool) (string, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.typeError(key, nil, "a string", v)
		return "", false
	}
	return s, true
}

// Ints reads an array of integers.
func (t *Table) Ints(key string, required bool) ([]int, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		t.typeError(key, nil, "an array of integers", v)
		return nil, false
	}
	out := make([]int, len(arr))
	good := true
	for i, e := range arr {
		n, ok := t.intValue(e, key, i)
		out[i] = n
		good = good && ok
	}
	return out, good
}

// IntLists reads an array of arrays of integers.
func (t *Table) IntLists(key string, required bool) ([][]int, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		t.typeError(key, nil, "an array of integer arrays", v)
		return nil, false
	}
	out := make([][]int, len(arr))
	good := true
	for i, e := range arr {
		inner, ok := e.([]any)
		if !ok {
			t.typeError(key, []int{i}, "an array of integers", e)
			good = false
			continue
		}
		out[i] = make([]int, len(inner))
		for j, x := range inner {
			n, ok := t.intValue(x, key, i, j)
			out[i][j] = n
			good = good && ok
		}
	}
	return out, good
}

// Sub reads a sub-table.
func (t *Table) Sub(key string, required bool) (*Table, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("table [%s]", t.keyPath(key)))
		}
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.typeError(key, nil, "a table", v)
		return nil, false
	}
	return &Table{doc: t.doc, path: t.keyPath(key), m: m}, true
}

// CheckUnknown reports every key of the table that was not read, with the
// closest known key as a suggestion.
func (t *Table) CheckUnknown(known ...string) {
	if len(known) == 0 {
		known = t.known
	}
	var keys []string
	for k := range t.m {
		if !t.used[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if containsString(known, k) {
			// A key the table may hold that this reading did not take:
			// no misspelling to suggest.
			where := ""
			if t.path != "" {
				where = fmt.Sprintf(" in [%s]", t.path)
			}
			t.Errorf(k, model.CodeUnknownKey, "key %q has no meaning here%s", k, where)
			continue
		}
		msg := fmt.Sprintf("unknown key %q", k)
		if t.path != "" {
			msg += fmt.Sprintf(" in [%s]", t.path)
		}
		if s := closest(k, known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else if len(known) > 0 {
			msg += fmt.Sprintf(" (expected one of %s)", strings.Join(known, ", "))
		}
		t.Errorf(k, model.CodeUnknownKey, "%s", msg)
	}
}

// unusedKnown reports whether some key the table may have was not read:
// whether CheckUnused has anything to report.
func (t *Table) unusedKnown() bool {
	for k := range t.m {
		if !t.used[k] && containsString(t.known, k) {
			return true
		}
	}
	return false
}

// CheckUnused reports keys the table may have but that this reading did not
// use: keys that mean nothing for what the table turned out to describe
// (what, "an add op"), naming the keys it takes when given. Call it before
// CheckUnknown, which reports the rest.
func (t *Table) CheckUnused(what string, takes ...string) {
	var keys []string
	for k := range t.m {
		if !t.used[k] && containsString(t.known, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		msg := fmt.Sprintf("%s takes no key %q", what, k)
		if len(takes) > 0 {
			msg += fmt.Sprintf(" (its keys: %s)", strings.Join(takes, ", "))
		}
		t.Errorf(k, model.CodeUnknownKey, "%s", msg)
		t.use(k)
	}
}

// withArticle puts "a" or "an" before a word, by its first letter (and
// "an" before an initialism read letter by letter, such as mma).
func withArticle(w string) string {
	if w != "" && (strings.ContainsRune("aeiou", rune(w[0])) || strings.HasPrefix(w, "mma")) {
		return "an " + w
	}
	return "a " + w
}

// CheckNotKnown reports only the keys outside the declared ones: for a
// table whose reading stopped early, unread known keys say nothing.
func (t *Table) CheckNotKnown() {
	for k := range t.m {
		if containsString(t.known, k) {
			t.use(k)
		}
	}
	t.CheckUnknown()
}

// closest returns the known word within edit distance 2 of w, if any.
func closest(w string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := model.EditDistance(w, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Bool reads a boolean key.
func (t *Table) Bool(key string, required bool) (bool, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		t.typeError(key, nil, "true or false", v)
		return false, false
	}
	return b, true
}

// Strings reads an array of strings.
func (t *Table) Strings(key string, required bool) ([]string, bool) {
	v, ok := t.get(key)
	if !ok {
		if required {
			t.missing(key, fmt.Sprintf("key %q", key))
		}
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		t.typeError(key, nil, "an array of strings", v)
		return nil, false
	}
	out := make([]string, 0, len(arr))
	good := true
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			t.typeError(key, []int{i}, "a string", e)
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// Keys lists the keys of the table, sorted.
func (t *Table) Keys() []string {
	keys := make([]string, 0, len(t.m))
	for k := range t.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TableArray reads an array of tables ([[key]]).
func (t *Table) TableArray(key string) ([]*Table, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	arr, ok := v.([]map[string]any)
	if !ok {
		t.typeError(key, nil, fmt.Sprintf("an array of tables ([[%s]])", t.keyPath(key)), v)
		return nil, false
	}
	return t.tables(key, arr), true
}

// peekTableArray reads an array of tables without marking it read.
func (t *Table) peekTableArray(key string) ([]*Table, bool) {
	arr, ok := t.m[key].([]map[string]any)
	if !ok {
		return nil, false
	}
	return t.tables(key, arr), true
}

// tables makes the Tables of the array of tables at key, in one
// allocation.
func (t *Table) tables(key string, arr []map[string]any) []*Table {
	path := t.keyPath(key)
	all := make([]Table, len(arr))
	out := make([]*Table, len(arr))
	var b []byte
	for i, m := range arr {
		b = append(strconv.AppendInt(append(append(b[:0], path...), '['), int64(i), 10), ']')
		all[i] = Table{doc: t.doc, path: string(b), m: m}
		out[i] = &all[i]
	}
	return out
}

// stringPos is where byte off of key's string value is written: the
// line and column of that character when the value is a one-line string
// with no escapes before it, else where key is written.
func (t *Table) stringPos(key string, off int) model.Pos {
	p := t.Pos(key)
	src := t.doc.src
	start := 0
	for line := 1; line < p.Line && start < len(src); line++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return p
		}
		start += i + 1
	}
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	text := src[start : start+end]
	eq := bytes.IndexByte(text[min(max(p.Col-1, 0), len(text)):], '=')
	if p.Line < 1 || eq < 0 {
		return p
	}
	q := min(max(p.Col-1, 0), len(text)) + eq + 1
	for q < len(text) && (text[q] == ' ' || text[q] == '\t') {
		q++
	}
	if q+2 >= len(text) || text[q] != '"' && text[q] != '\'' || text[q+1] == text[q] {
		return p // no string, or a multi-line one
	}
	value := text[q+1:]
	if off > len(value) || text[q] == '"' && bytes.IndexByte(value[:off], '\\') >= 0 {
		return p
	}
	return model.Pos{File: p.File, Line: p.Line, Col: q + 2 + off}
}
