package intrinsics

import (
	"bytes"
	"fmt"
	"sync"

	"planner/model"
)

// lazy holds the built-in records a library opened by Open has not
// parsed yet, by name: each is parsed when a target offering it is first
// asked for its records.
type lazy struct {
	mu     sync.Mutex
	unread map[string]builtinFile
}

// builtinFile is one embedded record file, not yet parsed.
type builtinFile struct {
	path string // intrinsics/nvidia/ldmatrix_x4.toml
	data []byte
}

// Open is Load for a planner that will read one graph: without paths it
// parses the built-in targets and only reads each built-in record file's
// name and kind (a few milliseconds in all, against some 25 for parsing
// every record), leaving each record to be parsed when a target that
// offers it is asked for its records (Offered). With paths, or when a
// built-in file cannot be indexed so (a name defined twice, a target
// offering a record no file names), it is Load.
func Open(paths ...string) (*Library, error) {
	if len(paths) > 0 {
		return Load(paths...)
	}
	lib, ok := openBuiltin()
	if !ok {
		return Load()
	}
	return lib, nil
}

// openBuiltin parses the built-in targets and indexes the built-in
// records; ok is false when the index would differ from what Load reads.
func openBuiltin() (*Library, bool) {
	lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{},
		lazy: &lazy{unread: map[string]builtinFile{}}}
	kinds := map[string]model.RecordKind{}
	ok := true
	walkBuiltin(func(file string, data []byte) {
		if h, indexed := readHeader(file, data); indexed && h.kind != "" {
			if _, twice := kinds[h.name]; twice {
				ok = false
			}
			kinds[h.name] = model.RecordKind(h.kind)
			lib.lazy.unread[h.name] = builtinFile{path: file, data: data}
			return
		}
		if lib.parseFile(file, data) != nil {
			ok = false
		}
	})
	for name, r := range lib.Records { // record files the index could not read
		if _, twice := kinds[name]; twice {
			ok = false
		}
		kinds[name] = r.Kind
	}
	if !ok || len(lib.resolveExtends(lib)) > 0 {
		return nil, false
	}
	for _, t := range lib.Targets {
		t.RecordKinds = map[string]model.RecordKind{}
		for _, n := range t.Records {
			k, known := kinds[n]
			if !known {
				return nil, false
			}
			t.RecordKinds[n] = k
		}
	}
	return lib, true
}

// Offered lists the records target t offers, in its order, parsing those
// of an opened library (Open) not parsed yet. The built-in records all
// parse (every test loads them whole), so an error here is a defect of
// the build, reported as such.
func (lib *Library) Offered(t *model.Target) ([]*model.Record, error) {
	if lib.lazy != nil {
		lib.lazy.mu.Lock()
		defer lib.lazy.mu.Unlock()
		for _, n := range t.Records {
			f, unread := lib.lazy.unread[n]
			if !unread {
				continue
			}
			if err := lib.parseFile(f.path, f.data); err != nil {
				return nil, fmt.Errorf("built-in record %s does not parse (a defect of this build): %v", n, err)
			}
			delete(lib.lazy.unread, n)
		}
	}
	var out []*model.Record
	for _, n := range t.Records {
		if r, ok := lib.Records[n]; ok {
			out = append(out, r)
		}
	}
	if lib.lazy != nil && t.ScratchRows == nil {
		// Set once, under the lock, when the target's records are first
		// parsed: later calls find it set (or none to set) and write nothing.
		if rows := scratchRows(out); len(rows) > 0 {
			t.ScratchRows = rows
		}
	}
	return out, nil
}

// scratchRows lists the row-pointer load_shared and store_shared records
// of recs (ldmatrix, stmatrix), in order: what a conversion's round trip
// through shared memory may read or write its scratch with
// (model.Target.ScratchRows).
func scratchRows(recs []*model.Record) []*model.Record {
	var out []*model.Record
	for _, r := range recs {
		if (r.Kind == model.RecordLoadShared || r.Kind == model.RecordStoreShared) &&
			r.Memory.Rule == "row_pointers" && r.Fragment != nil && r.Fragment.Layout != nil {
			out = append(out, r)
		}
	}
	return out
}

// header is what the index reads of a record file: its top-level name and
// kind, and where the name is written.
type header struct {
	name, kind string
	pos        model.Pos
}

// readHeader reads the top-level name and kind of a record file without
// parsing it: the lines before its first table header, each a bare key, =
// and a value, the name and kind plain double-quoted strings. ok is false
// for anything else it meets there (a multi-line string, a quoted or
// dotted key, an escape, a key given twice): such a file is parsed whole.
// TestIndexReadsWhatLoadReads holds it to the parser on every built-in
// file.
func readHeader(file string, data []byte) (h header, ok bool) {
	seen := map[string]bool{}
	n := -1
	for line := range bytes.Lines(data) {
		n++
		line = bytes.TrimRight(line, "\r\n")
		text := bytes.TrimLeft(line, " \t")
		col := len(line) - len(text) + 1
		switch {
		case len(text) == 0 || text[0] == '#':
			continue
		case text[0] == '[':
			return h, h.name != ""
		case bytes.Contains(text, []byte(`"""`)) || bytes.Contains(text, []byte(`'''`)):
			return h, false
		}
		key, value, isKey := splitKey(text)
		if !isKey || (key != "name" && key != "kind") {
			continue // a value, or an array's continued line
		}
		if seen[key] {
			return h, false
		}
		seen[key] = true
		s, plain := plainString(value)
		if !plain {
			return h, false
		}
		if key == "name" {
			h.name, h.pos = s, model.Pos{File: file, Line: n + 1, Col: col}
		} else {
			h.kind = s
		}
	}
	return h, h.name != ""
}

// splitKey splits "key = value" at a bare key; isKey is false for a line
// that is not one (an array's continued line, an inline table).
func splitKey(text []byte) (key string, value []byte, isKey bool) {
	i := 0
	for i < len(text) && (text[i] == '_' || text[i] == '-' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9') {
		i++
	}
	rest := bytes.TrimLeft(text[i:], " \t")
	if i == 0 || len(rest) == 0 || rest[0] != '=' {
		return "", nil, false
	}
	return string(text[:i]), bytes.TrimLeft(rest[1:], " \t"), true
}

// plainString reads a double-quoted string without escapes, followed by
// nothing but space and a comment.
func plainString(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' {
		return "", false
	}
	end := bytes.IndexByte(value[1:], '"')
	if end < 0 {
		return "", false
	}
	s := value[1 : 1+end]
	rest := bytes.TrimLeft(value[2+end:], " \t\r")
	if bytes.IndexByte(s, '\\') >= 0 || len(rest) > 0 && rest[0] != '#' {
		return "", false
	}
	return string(s), true
}
