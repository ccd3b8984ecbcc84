package tomlio

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"planner/model"
)

// fastParse decodes, in one pass over the text, the TOML that graphs,
// records and plans are written in: bare keys, [table] and [[array]]
// headers, one-line basic and literal strings with the common escapes,
// decimal integers, booleans, arrays and one-line inline tables. It gives
// what BurntSushi/toml decodes and scanPositions finds, the values as the
// decoder types them (int64, string, bool, []any, map[string]any,
// []map[string]any). Anything else (floats, dates, multi-line strings,
// dotted keys, escapes in keys, a key or table defined twice, an array longer
// than MaxArrayLen, any syntax error) gives ok false: such a file is left
// to the decoder and the scanner, which also say what is wrong with it.
// TestFastParseAgrees holds the two to the same answers.
func fastParse(file string, src []byte) (root map[string]any, pos positions, ok bool) {
	if !plainText(src) {
		return nil, nil, false
	}
	// About one position per key, array entry and header: sized once, the
	// map is not rehashed as it grows.
	n := bytes.Count(src, []byte("=")) + bytes.Count(src, []byte(",")) + bytes.Count(src, []byte("["))
	p := newFastParser(file, src, n, map[string]string{})
	if !p.run() {
		return nil, nil, false
	}
	return p.root, p.pos, true
}

// plainText reports whether src is UTF-8 without a byte-order mark: what
// the one-pass reader takes (the decoder says what is wrong with the
// rest).
func plainText(src []byte) bool {
	return !bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) && utf8.Valid(src)
}

func newFastParser(file string, src []byte, size int, keys map[string]string) *fastParser {
	p := &fastParser{file: file, src: src, line: 1, pos: make(positions, size), root: map[string]any{},
		keys: keys, defined: map[string]bool{}, inline: map[string]bool{}}
	p.cur = p.root
	return p
}

// fastParseStream is fastParse for a graph: its top-level [[op]] tables
// are located (spans) but not kept, root["op"] holding a nil for each, so
// that the reading holds one op's table at a time (replayOp).
func fastParseStream(file string, src []byte, keys map[string]string) (root map[string]any, pos positions, spans []opSpan, ok bool) {
	if !plainText(src) {
		return nil, nil, nil, false
	}
	p := newFastParser(file, src, 64, keys)
	p.stream = true
	p.opMark.defined, p.opMark.inline = map[string]bool{}, map[string]bool{}
	if !p.run() {
		return nil, nil, nil, false
	}
	if p.open != nil {
		p.closeOp(len(src))
	}
	return p.root, p.pos, p.spans, true
}

// replayOp reads op i of a streamed text again, from its span: its table
// and the positions in it. The parser r is reused from op to op (nil for
// the first): the positions of one op are cleared when the next is read.
func replayOp(r *fastParser, file string, src []byte, i int, span opSpan, keys map[string]string) (*fastParser, map[string]any, positions, bool) {
	if r == nil {
		r = newFastParser(file, nil, 16, keys)
	}
	clear(r.pos)
	clear(r.defined)
	clear(r.inline)
	clear(r.root)
	r.src, r.cur, r.curPath = src[:span.end], r.root, ""
	r.i, r.line, r.lineStart, r.base = span.start, span.line, span.lineStart, i
	if !r.run() {
		return r, nil, nil, false
	}
	ops, ok := r.root["op"].([]map[string]any)
	if !ok || len(ops) != 1 || len(r.root) != 1 {
		return r, nil, nil, false
	}
	delete(r.pos, "op") // the first op's, which the graph's positions hold
	return r, ops[0], r.pos, true
}

type fastParser struct {
	file      string
	src       []byte
	i         int
	line      int
	lineStart int // offset of the current line's first byte
	pos       positions
	root, cur map[string]any
	curPath   string
	// keys interns key names: a graph repeats a handful of keys over
	// every op.
	keys map[string]string
	// defined marks the tables a [header] defined (none may define them
	// again); inline the inline tables, which no header may extend. Static
	// arrays need no mark: they are []any, and headers make
	// []map[string]any.
	defined, inline map[string]bool
	path            []byte   // scratch for building paths
	hpath           []byte   // scratch for a header's parents' path
	parts           []string // scratch for a header's parts

	// stream: the [[op]] tables are not kept but located (spans), each
	// read again on its own when the graph reader comes to it (and checked
	// then). While one is open (skipping) its values are lexed, not made,
	// its positions not recorded, and its tables' marks go to the op's
	// own maps, cleared when it closes.
	stream bool
	spans  []opSpan
	open   *opSpan
	opMark struct{ defined, inline map[string]bool }
	// base numbers the first top-level [[op]] table of a text that starts
	// at op base of a graph (an op read again).
	base int
}

// opSpan is where one top-level [[op]] table is written: from its header
// to the next table that is not its own, and the line there.
type opSpan struct {
	start, end, line, lineStart int
}

func (p *fastParser) here() model.Pos {
	return model.Pos{File: p.file, Line: p.line, Col: p.i - p.lineStart + 1}
}

func (p *fastParser) eof() bool { return p.i >= len(p.src) }

// at records where path is written: in the open op's positions when one
// is open.
func (p *fastParser) at(path string, pos model.Pos) {
	if !p.skipping() {
		p.pos[path] = pos
	}
}

// skipping reports whether an op being located is read: its values are
// not made.
func (p *fastParser) skipping() bool { return p.open != nil }

// marks are the defined and inline marks of what is being read.
func (p *fastParser) marks() (defined, inline map[string]bool) {
	if p.open != nil {
		return p.opMark.defined, p.opMark.inline
	}
	return p.defined, p.inline
}

// streamHeader closes the open op at a header that is not its own (at
// offset start); it is false for a header reaching into an op already
// closed, which the streamed reading cannot follow.
func (p *fastParser) streamHeader(parts []string, array bool, start int) bool {
	own := parts[0] == "op" && !(array && len(parts) == 1)
	switch {
	case own && p.open == nil:
		_, ops := p.root["op"]
		return !ops // no [[op]] yet: an ordinary table named op
	case !own && p.open != nil:
		p.closeOp(start)
	}
	return true
}

// closeOp ends the open op at offset end and forgets what was read of it.
func (p *fastParser) closeOp(end int) {
	p.open.end = end
	p.spans = append(p.spans, *p.open)
	p.open = nil
	if ops, ok := p.root["op"].([]map[string]any); ok {
		ops[len(ops)-1] = nil
	}
	clear(p.opMark.defined)
	clear(p.opMark.inline)
}

func (p *fastParser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

// newline steps over a '\n'.
func (p *fastParser) newline() {
	p.i++
	p.line++
	p.lineStart = p.i
}

// space skips blanks and, when newlines, line ends and comments; it is
// false on a character TOML does not allow there (a lone '\r', a control
// character in a comment).
func (p *fastParser) space(newlines bool) bool {
	for !p.eof() {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t':
			p.i++
		case c == '\r':
			if p.i+1 >= len(p.src) || p.src[p.i+1] != '\n' {
				return false
			}
			p.i++
		case c == '\n' && newlines:
			p.newline()
		case c == '#' && newlines:
			if !p.comment() {
				return false
			}
		default:
			return true
		}
	}
	return true
}

// comment skips a comment up to its line end.
func (p *fastParser) comment() bool {
	for !p.eof() && p.src[p.i] != '\n' {
		c := p.src[p.i]
		if c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
			return false
		}
		if c == '\r' && (p.i+1 >= len(p.src) || p.src[p.i+1] != '\n') {
			return false
		}
		p.i++
	}
	return true
}

// endLine accepts the rest of a line after a header or a key's value:
// blanks, a comment, the line end.
func (p *fastParser) endLine() bool {
	if !p.space(false) {
		return false
	}
	if p.peek() == '#' && !p.comment() {
		return false
	}
	switch {
	case p.eof():
		return true
	case p.src[p.i] == '\r' && p.i+1 < len(p.src) && p.src[p.i+1] == '\n':
		p.i++
		p.newline()
		return true
	case p.src[p.i] == '\n':
		p.newline()
		return true
	}
	return false
}

func (p *fastParser) run() bool {
	for {
		if !p.space(true) {
			return false
		}
		if p.eof() {
			return true
		}
		var ok bool
		if p.src[p.i] == '[' {
			ok = p.header()
		} else {
			ok = p.keyValue()
		}
		if !ok {
			return false
		}
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// bareKey reads a bare key, interned.
func (p *fastParser) bareKey() (string, bool) {
	start := p.i
	for !p.eof() && isBare(p.src[p.i]) {
		p.i++
	}
	if p.i == start {
		return "", false
	}
	b := p.src[start:p.i]
	if k, ok := p.keys[string(b)]; ok {
		return k, true
	}
	k := string(b)
	p.keys[k] = k
	return k, true
}

// key reads a bare key or a quoted one without escapes.
func (p *fastParser) key() (string, bool) {
	q := p.peek()
	if q != '"' && q != '\'' {
		return p.bareKey()
	}
	p.i++
	start := p.i
	for !p.eof() && p.src[p.i] != q {
		if c := p.src[p.i]; c == '\\' || c < 0x20 || c == 0x7f {
			return "", false
		}
		p.i++
	}
	if p.eof() {
		return "", false
	}
	k := string(p.src[start:p.i])
	p.i++
	return k, true
}

// join makes the path of key below path, as scanPositions writes it.
func (p *fastParser) join(path, key string) string {
	if path == "" {
		return key
	}
	p.path = append(append(append(p.path[:0], path...), '.'), key...)
	return string(p.path)
}

// index makes the path of entry i of path.
func (p *fastParser) index(path string, i int) string {
	p.path = append(append(p.path[:0], path...), '[')
	p.path = append(strconv.AppendInt(p.path, int64(i), 10), ']')
	return string(p.path)
}

// header reads [a.b] or [[a.b]] and makes its table current.
func (p *fastParser) header() bool {
	at, start, lineStart := p.here(), p.i, p.lineStart
	p.i++
	array := p.peek() == '['
	if array {
		p.i++
	}
	parts := p.parts[:0]
	defer func() { p.parts = parts[:0] }()
	for {
		if !p.space(false) {
			return false
		}
		k, ok := p.key()
		if !ok || !p.space(false) {
			return false
		}
		parts = append(parts, k)
		if p.peek() != '.' {
			break
		}
		p.i++
	}
	for range 1 + btoi(array) {
		if p.peek() != ']' {
			return false
		}
		p.i++
	}
	if p.stream && !p.streamHeader(parts, array, start) {
		return false
	}
	defined, inline := p.marks()
	// Down the parents: a table, or the latest table of an array of them.
	// The parents' path grows in one buffer, made a string once: a
	// header of n parts costs its length, not n times it.
	m, buf := p.root, p.hpath[:0]
	last := len(parts) - 1
	for _, k := range parts[:last] {
		if len(buf) > 0 {
			buf = append(buf, '.')
		}
		buf = append(buf, k...)
		switch v := m[k].(type) {
		case nil:
			t := map[string]any{}
			m[k] = t
			m = t
		case map[string]any:
			if inline[string(buf)] {
				return false
			}
			m = v
		case []map[string]any:
			i := len(v) - 1
			if string(buf) == "op" { // baseOf, without making a string
				i += p.base
			}
			buf = append(strconv.AppendInt(append(buf, '['), int64(i), 10), ']')
			m = v[len(v)-1]
			if m == nil { // an op read and forgotten: not streamed
				return false
			}
		default:
			return false
		}
	}
	p.hpath = buf
	k := parts[last]
	path := p.join(string(buf), k)
	t := map[string]any{}
	if array {
		var tables []map[string]any
		switch v := m[k].(type) {
		case nil:
			p.at(path, at)
		case []map[string]any:
			tables = v
		default:
			return false
		}
		m[k] = append(tables, t)
		if p.stream && path == "op" {
			p.open = &opSpan{start: start, line: at.Line, lineStart: lineStart}
		}
		path = p.index(path, len(tables)+p.baseOf(path))
	} else {
		switch v := m[k].(type) {
		case nil:
			m[k] = t
		case map[string]any:
			if defined[path] || inline[path] {
				return false
			}
			t = v // made implicitly by a deeper header: defined now
		default:
			return false
		}
		defined[path] = true
	}
	p.at(path, at)
	p.cur, p.curPath = t, path
	return p.endLine()
}

// baseOf is the number of the first table of the array of tables at
// path in this text: base for the graph's ops, 0 for any other.
func (p *fastParser) baseOf(path string) int {
	if path == "op" {
		return p.base
	}
	return 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keyValue reads key = value into the current table.
func (p *fastParser) keyValue() bool {
	at := p.here()
	k, ok := p.key()
	if !ok || !p.space(false) || p.peek() != '=' {
		return false
	}
	p.i++
	if !p.space(false) {
		return false
	}
	if p.skipping() {
		if _, ok := p.value(""); !ok {
			return false
		}
		return p.endLine()
	}
	if _, twice := p.cur[k]; twice {
		return false
	}
	path := p.join(p.curPath, k)
	p.at(path, at)
	v, ok := p.value(path)
	if !ok {
		return false
	}
	p.cur[k] = v
	return p.endLine()
}

// value reads one value, recording the positions of array entries and
// inline-table keys below path.
func (p *fastParser) value(path string) (any, bool) {
	if p.eof() {
		return nil, false
	}
	switch c := p.src[p.i]; {
	case c == '"':
		return p.basicString()
	case c == '\'':
		return p.literalString()
	case c == '[':
		return p.array(path)
	case c == '{':
		return p.inlineTable(path)
	case c == 't' || c == 'f':
		for _, w := range []string{"true", "false"} {
			if bytes.HasPrefix(p.src[p.i:], []byte(w)) && p.delimited(p.i+len(w)) {
				p.i += len(w)
				return w == "true", true
			}
		}
		return nil, false
	case c >= '0' && c <= '9' || c == '-' || c == '+':
		return p.integer()
	}
	return nil, false
}

// delimited reports whether a value ending at j ends there: what follows
// cannot continue it.
func (p *fastParser) delimited(j int) bool {
	if j >= len(p.src) {
		return true
	}
	switch p.src[j] {
	case ' ', '\t', '\r', '\n', ',', ']', '}', '#':
		return true
	}
	return false
}

// integer reads a decimal integer without underscores; anything that
// could be a float, a date or another base is left to the decoder.
func (p *fastParser) integer() (any, bool) {
	start := p.i
	if c := p.src[p.i]; c == '-' || c == '+' {
		p.i++
	}
	digits := p.i
	for !p.eof() && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || n > 1 && p.src[digits] == '0' || !p.delimited(p.i) {
		return nil, false
	}
	if p.skipping() {
		return nil, true
	}
	v, err := strconv.ParseInt(string(p.src[start:p.i]), 10, 64)
	if err != nil {
		return nil, false
	}
	return v, true
}

// basicString reads a one-line "string" with the escapes \" \\ \b \t \n
// \f \r.
func (p *fastParser) basicString() (any, bool) {
	p.i++
	start := p.i
	var b []byte // the text unescaped, once an escape is met
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '"':
			var s string
			switch {
			case p.skipping():
				if p.i == start && b == nil && p.i+1 < len(p.src) && p.src[p.i+1] == '"' {
					return nil, false // """: a multi-line string
				}
				p.i++
				return nil, true
			case b == nil:
				s = string(p.src[start:p.i])
			default:
				s = string(append(b, p.src[start:p.i]...))
			}
			p.i++
			if s == "" && p.peek() == '"' { // """: a multi-line string
				return nil, false
			}
			return s, true
		case c == '\\':
			if p.i+1 >= len(p.src) {
				return nil, false
			}
			var r byte
			switch p.src[p.i+1] {
			case '"':
				r = '"'
			case '\\':
				r = '\\'
			case 'b':
				r = '\b'
			case 't':
				r = '\t'
			case 'n':
				r = '\n'
			case 'f':
				r = '\f'
			case 'r':
				r = '\r'
			default:
				return nil, false
			}
			if !p.skipping() {
				b = append(append(b, p.src[start:p.i]...), r)
			} else if b == nil {
				b = []byte{} // an escape met: not a """ string
			}
			p.i += 2
			start = p.i
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		default:
			p.i++
		}
	}
	return nil, false
}

// literalString reads a one-line 'string'.
func (p *fastParser) literalString() (any, bool) {
	p.i++
	start := p.i
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == '\'':
			empty := p.i == start
			var s any
			if !p.skipping() {
				s = string(p.src[start:p.i])
			}
			p.i++
			if empty && p.peek() == '\'' { // ''': a multi-line string
				return nil, false
			}
			return s, true
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// array reads [v, v, ...], over lines and comments.
func (p *fastParser) array(path string) (any, bool) {
	p.i++
	out, n := []any{}, 0
	if p.skipping() {
		out = nil
	}
	for {
		if !p.space(true) || p.eof() {
			return nil, false
		}
		if p.src[p.i] == ']' {
			p.i++
			if out == nil {
				return nil, true
			}
			return out, true
		}
		if n == MaxArrayLen {
			return nil, false
		}
		n++
		if p.skipping() {
			if _, ok := p.value(""); !ok {
				return nil, false
			}
		} else {
			elem := p.index(path, len(out))
			p.at(elem, p.here())
			v, ok := p.value(elem)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		if !p.space(true) || p.eof() {
			return nil, false
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case ']':
		default:
			return nil, false
		}
	}
}

// inlineTable reads { k = v, ... } on one line, without a trailing comma.
func (p *fastParser) inlineTable(path string) (any, bool) {
	_, inline := p.marks()
	inline[path] = true
	p.i++
	t := map[string]any{}
	if !p.space(false) {
		return nil, false
	}
	if p.peek() == '}' {
		p.i++
		return t, true
	}
	for {
		if !p.space(false) {
			return nil, false
		}
		at := p.here()
		k, ok := p.key()
		if !ok || !p.space(false) || p.peek() != '=' {
			return nil, false
		}
		p.i++
		if _, twice := t[k]; twice || !p.space(false) {
			return nil, false
		}
		kp := p.join(path, k)
		p.at(kp, at)
		v, ok := p.value(kp)
		if !ok || !p.space(false) {
			return nil, false
		}
		t[k] = v
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return t, true
		default:
			return nil, false
		}
	}
}
