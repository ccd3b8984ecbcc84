package plans

import (
	"bytes"
	"encoding/json"
	"io"

	"planner/model"
	"planner/notation"
)

// SchemaVersion is the version of the JSON contract (docs/json.md, the
// schemas under schema/) that every JSON document the tool prints
// carries as schema_version. It changes when a key is removed or renamed,
// when a key's type or meaning changes, or when an enumerated value
// (a status, a kind) is added; a new optional key leaves it as it is.
const SchemaVersion = 1

// LayoutText is a distributed layout for tools: written in a notation
// (the one asked for, or the first of linear, cute and table that can
// write it, with Requested and Note saying why not), and as the linear
// bases of every bit of the register, lane, subgroup and block ids
// where every extent is a power of two.
type LayoutText struct {
	Notation string `json:"notation"`
	Attr     string `json:"attr"`
	// Requested is the notation asked for, when it could not write the
	// layout; Note says why.
	Requested string `json:"requested,omitempty"`
	Note      string `json:"note,omitempty"`
	// Family is the fragment family of a layout whose lanes and registers
	// the architecture leaves unspecified (Notation "fragment").
	Family string `json:"family,omitempty"`
	Bases  *Bases `json:"bases,omitempty"`
}

// Bases is a layout in the linear notation's terms (notation.Linear): for
// every bit of each hardware id, lowest first, the tensor coordinates it
// selects; a hardware point holds the XOR of the coordinates of its set
// bits. Subgroup is the linear notation's warp.
type Bases struct {
	Register [][]int `json:"register"`
	Lane     [][]int `json:"lane"`
	Subgroup [][]int `json:"subgroup"`
	Block    [][]int `json:"block"`
}

// BasesOf gives a layout's linear bases, or nil where the linear
// notation cannot write it (an extent that is not a power of two, a
// fragment whose lanes are unspecified).
func BasesOf(l *model.Layout) *Bases {
	if l == nil {
		return nil
	}
	n, err := notation.Express("linear", l)
	if err != nil {
		return nil
	}
	x, ok := n.(*notation.Linear)
	if !ok {
		return nil
	}
	list := func(ls [][]int) [][]int {
		out := make([][]int, len(ls))
		for i, b := range ls {
			out[i] = append([]int{}, b...)
		}
		return out
	}
	return &Bases{Register: list(x.Register), Lane: list(x.Lane), Subgroup: list(x.Warp), Block: list(x.Block)}
}

// NewLayoutText writes a layout for tools in the notation asked for ("" for
// linear), falling back as plans do.
func NewLayoutText(l *model.Layout, notation string) *LayoutText {
	if l == nil {
		return nil
	}
	if notation == "" {
		notation = "linear"
	}
	j := &LayoutText{}
	j.Notation, j.Attr, j.Note = write(l, notation)
	if j.Notation == "fragment" {
		j.Family = l.Opaque()
		j.Note = ""
	} else if j.Notation != notation {
		j.Requested = notation
	} else {
		j.Note = ""
	}
	j.Bases = BasesOf(l)
	return j
}

// encodeJSON writes v as indented JSON, with <, > and & as themselves,
// and every array of numbers (a shape, a basis, a list of bases) on one
// line.
func encodeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(numberArraysOnOneLine(b.Bytes()))
	return err
}

// numberArraysOnOneLine rewrites indented JSON so that each array holding
// no string and no object is written on one line, its items separated by
// ", ".
func numberArraysOnOneLine(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c == '[':
			if end := plainArrayEnd(b, i); end > i {
				for _, d := range b[i : end+1] {
					switch d {
					case '\n', ' ':
					case ',':
						out = append(out, ',', ' ')
					default:
						out = append(out, d)
					}
				}
				i = end
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// plainArrayEnd is the index of the ']' closing the array opened at
// b[start], or -1 when the array holds a string or an object.
func plainArrayEnd(b []byte, start int) int {
	depth := 0
	for j := start; j < len(b); j++ {
		switch b[j] {
		case '"', '{':
			return -1
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// WriteDocument writes a JSON document the plans package does not build
// itself (the CLI's bad-input and no-plan answers), indented as the
// others are; the caller's value carries schema_version.
func WriteDocument(w io.Writer, v any) error { return encodeJSON(w, v) }
