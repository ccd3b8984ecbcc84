package model

import (
	"fmt"
	"strconv"
	"strings"
)

// WriteNotationTOML writes the body of a TOML layout table: the notation
// key and the notation's fields, as layout files and plans write them.
func WriteNotationTOML(b *strings.Builder, n Notation) {
	fmt.Fprintf(b, "notation = %q\n", n.Kind())
	for _, f := range n.Fields() {
		switch {
		case !f.IsList:
			fmt.Fprintf(b, "%s = %s\n", f.Key, IntsTOML(f.Ints))
		case len(f.Lists) > 8:
			fmt.Fprintf(b, "%s = [\n", f.Key)
			for _, l := range f.Lists {
				fmt.Fprintf(b, "  %s,\n", IntsTOML(l))
			}
			b.WriteString("]\n")
		default:
			parts := make([]string, len(f.Lists))
			for i, l := range f.Lists {
				parts[i] = IntsTOML(l)
			}
			fmt.Fprintf(b, "%s = [%s]\n", f.Key, strings.Join(parts, ", "))
		}
	}
}

// IntsTOML writes a list of integers as a TOML array.
func IntsTOML(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
