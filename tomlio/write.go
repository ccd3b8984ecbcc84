package tomlio

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"planner/model"
)

// WriteLayoutFile writes a layout file for frame f (and element type dt,
// when it has a name) with the layout in notation n.
func WriteLayoutFile(w io.Writer, f model.Frame, dt model.DType, n model.Notation) error {
	var b strings.Builder
	fmt.Fprintf(&b, "shape = %s\n", IntArray(f.Shape))
	fmt.Fprintf(&b, "subgroup_size = %d\n", f.SubgroupSize)
	fmt.Fprintf(&b, "subgroups = %d\n", f.Subgroups)
	if f.Blocks > 1 {
		fmt.Fprintf(&b, "blocks = %d\n", f.Blocks)
	}
	if dt.Name != "" {
		fmt.Fprintf(&b, "dtype = %q\n", dt.Name)
	}
	b.WriteString("\n[layout]\n")
	WriteNotation(&b, n)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteNotation writes the body of a [layout] table: the notation key and
// the notation's fields, as layout files and plan files write them.
func WriteNotation(b *strings.Builder, n model.Notation) {
	fmt.Fprintf(b, "notation = %q\n", n.Kind())
	for _, f := range n.Fields() {
		switch {
		case f.Text != "":
			fmt.Fprintf(b, "%s = %q\n", f.Key, f.Text)
		case !f.IsList:
			fmt.Fprintf(b, "%s = %s\n", f.Key, IntArray(f.Ints))
		case len(f.Lists) > 8:
			fmt.Fprintf(b, "%s = [\n", f.Key)
			for _, l := range f.Lists {
				fmt.Fprintf(b, "  %s,\n", IntArray(l))
			}
			b.WriteString("]\n")
		default:
			parts := make([]string, len(f.Lists))
			for i, l := range f.Lists {
				parts[i] = IntArray(l)
			}
			fmt.Fprintf(b, "%s = [%s]\n", f.Key, strings.Join(parts, ", "))
		}
	}
}

// IntArray writes a list of integers as a TOML array.
func IntArray(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
