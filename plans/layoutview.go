package plans

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"planner/model"
	"planner/notation"
)

// holdersByElement lists, for every element in row-major order, the
// hardware points that hold it.
func holdersByElement(l *model.Layout) [][]model.HwPoint {
	shape := l.Shape()
	out := make([][]model.HwPoint, l.Elements())
	l.Each(func(p model.HwPoint, idx []int) {
		e := 0
		for d, i := range idx {
			e = e*shape[d] + i
		}
		out[e] = append(out[e], p)
	})
	return out
}

// cellText names the holders of one element: "s:l:v" for one holder,
// "{s1,s2}:l:v" when only the subgroup differs, "s:l:v+n" when n more
// points hold it; a block prefix "b/" when there are several blocks, and
// just "l:v" when there is one subgroup.
func cellText(hs []model.HwPoint, blocks, oneSubgroup bool) string {
	if len(hs) == 0 {
		return "-"
	}
	if oneSubgroup && !blocks {
		s := fmt.Sprintf("%d:%d", hs[0].Lane, hs[0].Value)
		if len(hs) > 1 {
			s += fmt.Sprintf("+%d", len(hs)-1)
		}
		return s
	}
	first := hs[0]
	sameButSubgroup := true
	for _, h := range hs[1:] {
		if h.Lane != first.Lane || h.Value != first.Value || h.Block != first.Block {
			sameButSubgroup = false
		}
	}
	prefix := ""
	if blocks {
		prefix = fmt.Sprintf("%d/", first.Block)
	}
	if len(hs) > 1 && sameButSubgroup {
		sgs := make([]string, len(hs))
		for i, h := range hs {
			sgs[i] = fmt.Sprint(h.Subgroup)
		}
		return fmt.Sprintf("%s{%s}:%d:%d", prefix, strings.Join(sgs, ","), first.Lane, first.Value)
	}
	s := fmt.Sprintf("%s%d:%d:%d", prefix, first.Subgroup, first.Lane, first.Value)
	if len(hs) > 1 {
		s += fmt.Sprintf("+%d", len(hs)-1)
	}
	return s
}

// panels splits a tensor into 2-D slices: for rank r > 2, one slice per
// index of the leading r-2 dimensions. It returns, per panel, its caption
// and the row-major element numbers of its rows and columns.
func panels(shape []int) (captions []string, rows, cols int, base []int) {
	r := len(shape)
	switch r {
	case 1:
		return []string{""}, 1, shape[0], []int{0}
	case 2:
		return []string{""}, shape[0], shape[1], []int{0}
	}
	rows, cols = shape[r-2], shape[r-1]
	lead := shape[:r-2]
	idx := make([]int, len(lead))
	for {
		parts := make([]string, 0, r)
		e := 0
		for d, i := range idx {
			parts = append(parts, fmt.Sprint(i))
			e = e*lead[d] + i
		}
		parts = append(parts, ":", ":")
		captions = append(captions, "["+strings.Join(parts, ", ")+"]")
		base = append(base, e*rows*cols)
		d := len(idx) - 1
		for d >= 0 {
			idx[d]++
			if idx[d] < lead[d] {
				break
			}
			idx[d] = 0
			d--
		}
		if d < 0 {
			return captions, rows, cols, base
		}
	}
}

// Header describes a layout in one paragraph: its notation, shape and
// hardware.
func Header(l *model.Layout, n model.Notation) string {
	var b strings.Builder
	if n != nil {
		attr := n.Attr()
		if n.Kind() == "table" {
			attr = fmt.Sprintf("table of %d rows", len(n.(*notation.Table).Rows))
		}
		fmt.Fprintf(&b, "layout %s\n", attr)
	}
	fmt.Fprintf(&b, "tensor %s; %s per subgroup, %s", dimsString(l.Shape()), plural(l.Size(model.Lane), "lane"), plural(l.Size(model.Subgroup), "subgroup"))
	if l.Size(model.Block) > 1 {
		fmt.Fprintf(&b, ", %s", plural(l.Size(model.Block), "block"))
	}
	fmt.Fprintf(&b, "; %s per lane\n", plural(l.Size(model.Register), "value"))
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func dimsString(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, "x")
}

// WriteLayoutText draws the layout as a grid of the tensor, each cell naming
// the subgroup, lane and value holding the element.
func WriteLayoutText(w io.Writer, l *model.Layout, n model.Notation) error {
	var b strings.Builder
	b.WriteString(Header(l, n))
	blocks := l.Size(model.Block) > 1
	one := l.Size(model.Subgroup) == 1
	switch {
	case blocks:
		b.WriteString("cell = block/subgroup:lane:value; {a,b} = the same lane and value in several subgroups")
	case one:
		b.WriteString("cell = lane:value")
	default:
		b.WriteString("cell = subgroup:lane:value; {a,b} = the same lane and value in several subgroups")
	}
	b.WriteString("; +n = n more holders\n")
	hs := holdersByElement(l)
	captions, rows, cols, base := panels(l.Shape())
	texts := make([]string, len(hs))
	width := 1
	for e := range hs {
		texts[e] = cellText(hs[e], blocks, one)
		width = max(width, len(texts[e]))
	}
	rowLabel := len(fmt.Sprint(rows - 1))
	for p, caption := range captions {
		b.WriteByte('\n')
		if caption != "" {
			b.WriteString(caption + "\n")
		}
		fmt.Fprintf(&b, "%*s", rowLabel, "")
		for c := range cols {
			fmt.Fprintf(&b, " %*d", width, c)
		}
		b.WriteByte('\n')
		for r := range rows {
			if len(l.Shape()) == 1 {
				fmt.Fprintf(&b, "%*s", rowLabel, "")
			} else {
				fmt.Fprintf(&b, "%*d", rowLabel, r)
			}
			for c := range cols {
				fmt.Fprintf(&b, " %*s", width, texts[base[p]+r*cols+c])
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// LayoutJSON is the layout drawing for tools: one element entry per pair of
// hardware point and element it holds.
type LayoutJSON struct {
	Shape        []int            `json:"shape"`
	SubgroupSize int              `json:"subgroup_size"`
	Subgroups    int              `json:"subgroups"`
	Blocks       int              `json:"blocks,omitempty"`
	Values       int              `json:"values"`
	Notation     string           `json:"notation,omitempty"`
	Attr         string           `json:"attr,omitempty"`
	Bases        *Bases           `json:"bases,omitempty"`
	Elements     []LayoutElemJSON `json:"elements"`
}

// LayoutElemJSON is one hardware point and the element it holds.
type LayoutElemJSON struct {
	Block    *int  `json:"block,omitempty"`
	Subgroup int   `json:"subgroup"`
	Lane     int   `json:"lane"`
	Value    int   `json:"value"`
	Index    []int `json:"index"`
}

// NewLayoutJSON builds the JSON view of a layout.
func NewLayoutJSON(l *model.Layout, n model.Notation) *LayoutJSON {
	j := &LayoutJSON{Shape: l.Shape(), SubgroupSize: l.Size(model.Lane), Subgroups: l.Size(model.Subgroup), Values: l.Size(model.Register)}
	if l.Size(model.Block) > 1 {
		j.Blocks = l.Size(model.Block)
	}
	if n != nil {
		j.Notation = n.Kind()
		if n.Kind() != "table" {
			j.Attr = n.Attr()
		}
	}
	j.Bases = BasesOf(l)
	multi := l.Size(model.Block) > 1
	l.Each(func(p model.HwPoint, idx []int) {
		e := LayoutElemJSON{Subgroup: p.Subgroup, Lane: p.Lane, Value: p.Value, Index: slices.Clone(idx)}
		if multi {
			b := p.Block
			e.Block = &b
		}
		j.Elements = append(j.Elements, e)
	})
	return j
}

// LayoutDocument is planner layout show's JSON: the layout's view with
// the contract's version.
type LayoutDocument struct {
	SchemaVersion int `json:"schema_version"`
	*LayoutJSON
}

// WriteLayoutJSON writes the JSON view of a layout, indented.
func WriteLayoutJSON(w io.Writer, l *model.Layout, n model.Notation) error {
	return encodeJSON(w, LayoutDocument{SchemaVersion: SchemaVersion, LayoutJSON: NewLayoutJSON(l, n)})
}

func xmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
