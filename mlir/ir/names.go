package ir

import (
	"strconv"
	"strings"
)

// NoteNames records the names op's results and its regions' block
// arguments take.
func NoteNames(op *Op, names map[string]bool) {
	for _, r := range op.Results {
		base, _, _ := strings.Cut(r.Name, "#")
		names[base] = true
	}
	for _, reg := range op.Regions {
		for _, blk := range reg.Blocks {
			for _, a := range blk.Args {
				names[a.Name] = true
			}
		}
	}
}

// FreshName makes a name not in names, from base, and records it.
func FreshName(names map[string]bool, base string) string {
	base = strings.ReplaceAll(base, "#", "_")
	if base[0] >= '0' && base[0] <= '9' {
		base = "v" + base // a name that starts with a digit is all digits
	}
	name := base
	for i := 2; names[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	names[name] = true
	return name
}
