package tomlio

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
func WriteNotation(b *strings.Builder, n model.Notation) { model.WriteNotationTOML(b, n) }

func intList(xs []int) string { return model.IntsTOML(xs) }
