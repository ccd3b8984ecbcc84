package source

import (
	"fmt"
	"io"
	"strings"

	"planner/model"
)

// WriteLayoutFile writes a layout file for frame f (and element type dt,
// when it has a name) with the layout in notation n.
func WriteLayoutFile(w io.Writer, f model.Frame, dt model.DType, n model.Notation) error {
	var b strings.Builder
	fmt.Fprintf(&b, "shape = %s\n", intList(f.Shape))
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
// its fields.
func WriteNotation(b *strings.Builder, n model.Notation) {
	fmt.Fprintf(b, "notation = %q\n", n.Kind())
	for _, f := range n.Fields() {
		switch {
		case !f.IsList:
			fmt.Fprintf(b, "%s = %s\n", f.Key, intList(f.Ints))
		case len(f.Lists) > 8:
			fmt.Fprintf(b, "%s = [\n", f.Key)
			for _, l := range f.Lists {
				fmt.Fprintf(b, "  %s,\n", intList(l))
			}
			b.WriteString("]\n")
		default:
			parts := make([]string, len(f.Lists))
			for i, l := range f.Lists {
				parts[i] = intList(l)
			}
			fmt.Fprintf(b, "%s = [%s]\n", f.Key, strings.Join(parts, ", "))
		}
	}
}

func intList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
