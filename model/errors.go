package model

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a position in an input file. Line and Col count from 1; a zero Line
// means the position is unknown.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
}

func (p Pos) String() string {
	switch {
	case p.File == "" && p.Line == 0:
		return "-"
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Code classifies an error. Codes are stable: tests and callers branch on
// them, never on message text. New codes are appended, never renumbered.
type Code int

const (
	CodeNone           Code = iota
	CodeSyntax              // the file is not valid TOML
	CodeUnknownKey          // a key the format does not define
	CodeMissingKey          // a required key is absent
	CodeBadType             // a value of the wrong TOML type
	CodeBadValue            // a value out of its allowed range
	CodeUnknownName         // a name that refers to nothing known
	CodeRankMismatch        // lists that must have one entry per dimension do not
	CodeShapeMismatch       // tile or extent products that must agree do not
	CodeNotPowerOfTwo       // a size the notation needs as a power of two is not
	CodeOverlap             // two fields select the same hardware index bits
	CodeNotCovered          // some tensor element is held by no hardware index
	CodeNotLinear           // a table that is not a GF(2)-linear map
	CodeNotExpressible      // a layout that a notation cannot write
	CodeTooLarge            // a size beyond the planner's limits
	CodeDuplicate           // the same name or entry given twice
	CodeIncompatible        // two layouts that cannot be compared
	CodeRecordShape         // a record's operand shape disagrees with its M, N, K or memory rule
	CodeRecordCoverage      // an operand layout holds an element twice without declaring duplication
	CodeRecordPacking       // an operand's registers disagree with its values and element width
	CodeRecordSubgroup      // a record's subgroup size differs from a target that offers it
	CodeRecordMemory        // a record's memory constraint is malformed
	CodeNotReplayed         // a plan's choice or claim that its replay does not bear out
)

var codeNames = [...]string{
	CodeNone:           "none",
	CodeSyntax:         "syntax",
	CodeUnknownKey:     "unknown-key",
	CodeMissingKey:     "missing-key",
	CodeBadType:        "bad-type",
	CodeBadValue:       "bad-value",
	CodeUnknownName:    "unknown-name",
	CodeRankMismatch:   "rank-mismatch",
	CodeShapeMismatch:  "shape-mismatch",
	CodeNotPowerOfTwo:  "not-power-of-two",
	CodeOverlap:        "overlap",
	CodeNotCovered:     "not-covered",
	CodeNotLinear:      "not-linear",
	CodeNotExpressible: "not-expressible",
	CodeTooLarge:       "too-large",
	CodeDuplicate:      "duplicate",
	CodeIncompatible:   "incompatible",
	CodeRecordShape:    "record-shape",
	CodeRecordCoverage: "record-coverage",
	CodeRecordPacking:  "record-packing",
	CodeRecordSubgroup: "record-subgroup",
	CodeRecordMemory:   "record-memory",
	CodeNotReplayed:    "not-replayed",
}

// MarshalText writes the code by its name, as JSON shows it.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("code(%d)", int(c))
}

// Error is one positioned problem in the input. Field names the key the
// problem is about (for example "thread_strides"), Index the list entry when
// the problem is one element of a list (-1 otherwise). Loaders fill Pos from
// Field; code in this package leaves Pos empty. Related lists the other
// places the problem involves, as go/analysis's Diagnostic.Related does:
// where a duplicate name was defined first, the key a second one repeats.
// Code in this package names them as entries of Field (RelatedIndex), which
// loaders turn into Related. The struct tags give its JSON form, for tools.
type Error struct {
	Pos          Pos    `json:"pos"`
	Code         Code   `json:"code"`
	Field        string `json:"field,omitempty"`
	Index        int    `json:"index"`
	Msg          string `json:"message"`
	Related      []Pos  `json:"related,omitempty"`
	RelatedIndex []int  `json:"-"`
	// Offset is where in Field's string value the problem lies, a byte
	// offset counted from 1 (0: the whole value); the reader that knows
	// where the string is written turns it into Pos.
	Offset int `json:"-"`
}

// Error is the problem as one line: its position, what was expected and
// what was found, then each related position the message does not name.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.Line > 0 || e.Pos.File != "" {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	if e.Pos.Line == 0 && e.Field != "" {
		b.WriteString(e.Field)
		if e.Index >= 0 {
			fmt.Fprintf(&b, "[%d]", e.Index)
		}
		if e.Offset > 0 {
			fmt.Fprintf(&b, " at character %d", e.Offset)
		}
		b.WriteString(": ")
	}
	b.WriteString(ClipQuoted(e.Msg))
	var see []string
	for _, p := range e.Related {
		if s := p.String(); !strings.Contains(e.Msg, s) {
			see = append(see, s)
		}
	}
	if len(see) > 0 {
		fmt.Fprintf(&b, " (see %s)", strings.Join(see, ", "))
	}
	return b.String()
}

// errorf makes an Error about a whole field.
func errorf(code Code, field string, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Index: -1, Msg: fmt.Sprintf(format, args...)}
}

// errorAt makes an Error about entry i of a list field.
func errorAt(code Code, field string, i int, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Index: i, Msg: fmt.Sprintf(format, args...)}
}

// ErrorList collects errors so that a loader can report every problem of a
// file at once.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by file, line and column, keeping the original order
// of errors at the same position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// AsError returns the *Error inside err, if err is one or is a list whose
// first entry is one.
func AsError(err error) (*Error, bool) {
	switch e := err.(type) {
	case *Error:
		return e, true
	case ErrorList:
		if len(e) > 0 {
			return e[0], true
		}
	}
	return nil, false
}

// Errors returns the positioned errors in err: a list as it is, one
// *Error as a list of one; false when err holds neither.
func Errors(err error) (ErrorList, bool) {
	var list ErrorList
	var one *Error
	switch {
	case errors.As(err, &list):
		return list, true
	case errors.As(err, &one):
		return ErrorList{one}, true
	}
	return nil, false
}

// maxQuoted is the longest quoted value an error shows whole (a layout
// string of a large tensor runs to a few hundred bytes); a longer one is
// shown by its first clippedQuoted bytes.
const (
	maxQuoted     = 2048
	clippedQuoted = 160
)

// ClipQuoted shortens each quoted value of an error message ("…", as
// %q writes it) longer than maxQuoted bytes to its first bytes and its
// length, so that a huge value in the input is not echoed whole.
func ClipQuoted(msg string) string {
	if len(msg) <= maxQuoted {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		if msg[i] != '"' {
			b.WriteByte(msg[i])
			i++
			continue
		}
		end := i + 1
		for end < len(msg) && msg[end] != '"' {
			if msg[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(msg) {
			b.WriteString(msg[i:])
			break
		}
		q := msg[i : end+1]
		if len(q) > maxQuoted {
			cut := clippedQuoted
			for cut > 1 && (q[cut-1] == '\\' || !utf8.RuneStart(q[cut])) {
				cut-- // not inside an escape or a character
			}
			q = fmt.Sprintf("%s\"… (%d bytes in all)", q[:cut], len(q)-2)
		}
		b.WriteString(q)
		i = end + 1
	}
	return b.String()
}
