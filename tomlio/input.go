package tomlio

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"planner/model"
)

// DefaultMaxInput is the most bytes the planner reads from one file
// unless told otherwise (planner --max-input): a larger graph is almost
// surely a mistake, and reading one takes time and memory in proportion
// to it. The largest graph planner gen writes, a million ops, has less
// than 100 MiB.
const DefaultMaxInput = 128 << 20

// ReadFile reads a file for the TOML readers from disk, refusing one of
// more than DefaultMaxInput bytes; an error is a model.Error at the file.
func ReadFile(path string) ([]byte, error) { return ReadFileLimit(path, DefaultMaxInput) }

// ReadFileLimit is ReadFile refusing files of more than limit bytes. A
// regular file is sized first, so that one too large is refused unread
// and one that fits is read into one buffer of its size.
func ReadFileLimit(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &model.Error{Pos: model.Pos{File: path}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", unwrapPathError(err))}
	}
	defer f.Close()
	size := -1
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > int64(limit) {
			return nil, tooLarge(path, st.Size(), limit)
		}
		size = int(st.Size())
	}
	return readLimit(path, f, limit, size)
}

// ReadLimit reads r to its end (standard input, named name in errors),
// refusing more than limit bytes without reading further.
func ReadLimit(name string, r io.Reader, limit int) ([]byte, error) {
	return readLimit(name, r, limit, -1)
}

// readLimit reads r, expecting size bytes when size is not -1.
func readLimit(name string, r io.Reader, limit, size int) ([]byte, error) {
	// Room for the whole file and the read that finds its end
	// (ReadFrom grows a buffer with less than bytes.MinRead free).
	buf := bytes.NewBuffer(make([]byte, 0, max(size, 0)+bytes.MinRead))
	n, err := buf.ReadFrom(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, &model.Error{Pos: model.Pos{File: name}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	if n > int64(limit) {
		return nil, tooLarge(name, -1, limit)
	}
	return buf.Bytes(), nil
}

// tooLarge refuses an input of size bytes (-1: more than limit, its size
// unknown) over the limit.
func tooLarge(name string, size int64, limit int) *model.Error {
	has := "more than " + ByteSize(int64(limit))
	if size >= 0 {
		has = fmt.Sprintf("%d bytes, more than %s", size, ByteSize(int64(limit)))
	}
	return &model.Error{Pos: model.Pos{File: name}, Code: model.CodeTooLarge, Index: -1,
		Msg: fmt.Sprintf("the input has %s, the limit on what the planner reads (--max-input raises it)", has)}
}

// ByteSize writes a number of bytes in the largest binary unit that
// divides it: 128 MiB, 10 KiB, 1000 bytes.
func ByteSize(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n > 0 && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// emptyInput refuses text that holds nothing but blanks and comments,
// saying what was expected (what), instead of a missing key for each of
// its required ones.
func emptyInput(file string, data []byte, what string) error {
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		default:
			return nil
		}
	}
	name := "the file"
	if strings.HasPrefix(file, "<stdin>") {
		name = "standard input"
	}
	return model.ErrorList{{Pos: model.Pos{File: file, Line: 1, Col: 1}, Code: model.CodeMissingKey, Index: -1,
		Msg: fmt.Sprintf("%s is empty: expected %s", name, what)}}
}
