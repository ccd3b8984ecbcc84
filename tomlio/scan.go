package tomlio

import (
	"fmt"
	"strings"

	"planner/model"
)

// positions maps key paths to where they are written: "layout" is the
// [layout] header, "layout.thread_strides" the key, and
// "layout.rows[3]" the fourth element of that array (nested elements get
// further indices). The scanner understands enough TOML to find keys,
// headers and array elements: strings, comments, brackets and inline
// tables. BurntSushi/toml parses the values; this only locates them.
type positions map[string]model.Pos

func scanPositions(file, text string) positions {
	pos, _, _ := scanBounded(file, text)
	return pos
}

// MaxArrayLen bounds the entries of one array: a longer one (a layout
// table of a million rows) is refused before it is decoded, in time and
// memory that do not grow with it.
const MaxArrayLen = 1 << 16

// scanBounded scans text's positions, stopping at the first array of more
// than MaxArrayLen entries: its path and position are returned then.
func scanBounded(file, text string) (positions, string, model.Pos) {
	s := &scanner{file: file, src: text, pos: positions{}, line: 1, col: 1}
	s.run()
	return s.pos, s.over, s.overPos
}

type scanner struct {
	file      string
	src       string
	i         int
	line, col int
	pos       positions
	table     string         // current table path
	arrays    map[string]int // count of [[x]] seen
	// over is the first array of more than MaxArrayLen entries, where the
	// scan stopped, and overPos where it starts.
	over    string
	overPos model.Pos
}

func (s *scanner) here() model.Pos { return model.Pos{File: s.file, Line: s.line, Col: s.col} }

func (s *scanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

// next steps over one byte; at the end of the text (malformed TOML: the
// scan runs before the decoder checks it) it gives 0 and stays.
func (s *scanner) next() byte {
	if s.eof() {
		return 0
	}
	c := s.src[s.i]
	s.i++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

func (s *scanner) eof() bool { return s.i >= len(s.src) }

func (s *scanner) skipSpace(newlines bool) {
	for !s.eof() {
		c := s.peek()
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			s.next()
		case c == '\n' && newlines:
			s.next()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.next()
			}
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

func (s *scanner) run() {
	s.arrays = map[string]int{}
	for !s.eof() {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		switch s.peek() {
		case '[':
			s.header()
		default:
			s.keyValue(s.table)
		}
	}
}

func (s *scanner) header() {
	at := s.here()
	s.next()
	array := false
	if s.peek() == '[' {
		s.next()
		array = true
	}
	s.skipSpace(false)
	raw := s.keyPath()
	s.skipSpace(false)
	for !s.eof() && s.peek() == ']' {
		s.next()
	}
	// Resolve arrays of tables along the way: [[op.body]] adds to the body
	// of the latest [[op]].
	parts := strings.Split(raw, ".")
	path := ""
	for i, p := range parts {
		path = join(path, p)
		if i == len(parts)-1 && array {
			break
		}
		if n, ok := s.arrays[path]; ok {
			path = fmt.Sprintf("%s[%d]", path, n-1)
		}
	}
	if array {
		n := s.arrays[path]
		s.arrays[path] = n + 1
		if _, ok := s.pos[path]; !ok {
			s.pos[path] = at
		}
		path = fmt.Sprintf("%s[%d]", path, n)
	}
	s.pos[path] = at
	s.table = path
	s.skipLine()
}

// keyPath reads a dotted key (bare or quoted parts).
func (s *scanner) keyPath() string {
	var parts []string
	for !s.eof() {
		s.skipSpace(false)
		var part strings.Builder
		switch c := s.peek(); c {
		case '"', '\'':
			s.next()
			for !s.eof() && s.peek() != c && s.peek() != '\n' {
				if c == '"' && s.peek() == '\\' {
					s.next()
				}
				part.WriteByte(s.next())
			}
			if !s.eof() && s.peek() == c {
				s.next()
			}
		default:
			for !s.eof() {
				c := s.peek()
				if c == '.' || c == '=' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#' || c == ',' || c == '}' {
					break
				}
				part.WriteByte(s.next())
			}
		}
		parts = append(parts, part.String())
		s.skipSpace(false)
		if s.peek() != '.' {
			break
		}
		s.next()
	}
	return strings.Join(parts, ".")
}

func join(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}

func (s *scanner) keyValue(table string) {
	at := s.here()
	key := s.keyPath()
	if key == "" {
		s.skipLine()
		return
	}
	path := join(table, key)
	s.pos[path] = at
	s.skipSpace(false)
	if s.peek() != '=' {
		s.skipLine()
		return
	}
	s.next()
	s.skipSpace(false)
	s.value(path)
}

// value scans one value, recording the positions of array elements and
// inline-table keys under path.
func (s *scanner) value(path string) {
	if s.eof() {
		return
	}
	switch c := s.peek(); c {
	case '[':
		start := s.here()
		s.next()
		n := 0
		for !s.eof() {
			s.skipSpace(true)
			if s.eof() || s.peek() == ']' {
				break
			}
			if s.peek() == ',' {
				s.next()
				continue
			}
			if n == MaxArrayLen {
				s.over, s.overPos = path, start
				s.i = len(s.src) // stop the whole scan
				return
			}
			elem := fmt.Sprintf("%s[%d]", path, n)
			s.pos[elem] = s.here()
			start := s.i
			s.value(elem)
			n++
			if s.i == start { // not a value we understand: step over it
				s.next()
			}
		}
		if !s.eof() {
			s.next()
		}
	case '{':
		s.next()
		for !s.eof() {
			s.skipSpace(false)
			if s.eof() || s.peek() == '}' || s.peek() == '\n' {
				break
			}
			if s.peek() == ',' {
				s.next()
				continue
			}
			start := s.i
			at := s.here()
			key := s.keyPath()
			s.pos[join(path, key)] = at
			s.skipSpace(false)
			if s.peek() == '=' {
				s.next()
				s.skipSpace(false)
				s.value(join(path, key))
			}
			if s.i == start {
				s.next()
			}
		}
		if !s.eof() && s.peek() == '}' {
			s.next()
		}
	case '"', '\'':
		s.str(c)
	default:
		for !s.eof() {
			c := s.peek()
			if c == ',' || c == ']' || c == '}' || c == '\n' || c == '#' {
				break
			}
			s.next()
		}
	}
}

func (s *scanner) str(q byte) {
	if strings.HasPrefix(s.src[s.i:], strings.Repeat(string(q), 3)) {
		s.next()
		s.next()
		s.next()
		for !s.eof() && !strings.HasPrefix(s.src[s.i:], strings.Repeat(string(q), 3)) {
			if q == '"' && s.peek() == '\\' {
				s.next()
				if s.eof() {
					return
				}
			}
			s.next()
		}
		for k := 0; k < 3 && !s.eof(); k++ {
			s.next()
		}
		return
	}
	s.next()
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.next()
			if s.eof() {
				return
			}
		}
		s.next()
	}
	if !s.eof() && s.peek() == q {
		s.next()
	}
}
