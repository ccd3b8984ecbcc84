package plans

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// layoutAliases names the layouts a plan writes for people, the way TTGIR
// names its encodings: each attribute that holds no other attribute
// (#ttg.blocked<...>, #ttg.nvidia_mma<...>, #ttg.linear<...>,
// #iree_vector_ext.nested_layout<...>) is defined once as an alias
// (#blocked, #mma1, #linear2) and used by name; an attribute around others
// (#ttg.dot_op, #ttg.slice) is written in full with its parent's alias,
// as Triton prints them.
type layoutAliases struct {
	defs   []aliasDef
	byText map[string]string
	taken  map[string]int
}

// aliasDef is one alias: its name with the # and the attribute it stands
// for.
type aliasDef struct {
	Name, Text string
}

// newLayoutAliases names every leaf attribute of texts, in the order they
// first appear.
func newLayoutAliases(texts []string) *layoutAliases {
	a := &layoutAliases{byText: map[string]string{}, taken: map[string]int{}}
	for _, t := range texts {
		a.short(t)
	}
	return a
}

// short writes text with every leaf attribute replaced by its alias,
// naming the ones not seen before.
func (a *layoutAliases) short(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		start, name, end := nextAttribute(text, i)
		if start < 0 {
			b.WriteString(text[i:])
			break
		}
		b.WriteString(text[i:start])
		body := text[start+len(name)+2 : end-1]
		if strings.Contains(body, "#") {
			b.WriteString("#" + name + "<" + a.short(body) + ">")
		} else {
			b.WriteString(a.alias(name, text[start:end]))
		}
		i = end
	}
	return b.String()
}

// alias is the alias of one leaf attribute, made on first sight.
func (a *layoutAliases) alias(name, full string) string {
	if n, ok := a.byText[full]; ok {
		return n
	}
	base := aliasBase(name)
	n := "#" + base
	if k := a.taken[base]; k > 0 {
		n = fmt.Sprintf("#%s%d", base, k)
	}
	a.taken[base]++
	a.byText[full] = n
	a.defs = append(a.defs, aliasDef{Name: n, Text: full})
	return n
}

// aliasBase is the stem of an attribute's aliases: Triton's own for its
// encodings (#mma for any vendor's matrix layout, #blocked, #linear,
// #shared), the attribute's name without its dialect otherwise.
func aliasBase(name string) string {
	short := name[strings.LastIndexByte(name, '.')+1:]
	switch short {
	case "nvidia_mma", "amd_mfma", "amd_wmma":
		return "mma"
	case "nested_layout":
		return "nested"
	case "swizzled_shared", "nvmma_shared", "padded_shared", "amd_rotating_shared":
		return "shared"
	}
	return short
}

// nextAttribute finds the first dialect attribute "#dialect.name<...>"
// in text at or after i: its start, its name (dialect.name) and the index
// just past its closing '>'; start is -1 where there is none.
func nextAttribute(text string, i int) (start int, name string, end int) {
	for {
		j := strings.IndexByte(text[i:], '#')
		if j < 0 {
			return -1, "", 0
		}
		start = i + j
		k := start + 1
		for k < len(text) && (isIdentByte(text[k]) || text[k] == '.') {
			k++
		}
		if k < len(text) && text[k] == '<' && strings.Contains(text[start+1:k], ".") {
			depth := 0
			for e := k; e < len(text); e++ {
				switch text[e] {
				case '<':
					depth++
				case '>':
					depth--
					if depth == 0 {
						return start, text[start+1 : k], e + 1
					}
				}
			}
		}
		i = start + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wrapText breaks every line of text wider than width (in characters)
// at spaces, each continuation indented four more than its line
// (breakLine); the lines keep names (alias definitions) are left whole.
func wrapText(text string, width int, keep func(line string) bool) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		if utf8.RuneCountInString(body) <= width || keep(body) {
			b.WriteString(line)
			continue
		}
		n := len(body) - len(strings.TrimLeft(body, " "))
		b.WriteString(breakLine(body, width, strings.Repeat(" ", n+4)))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// breakLine breaks one line wider than width (in characters) at spaces,
// its continuations starting with pad; a word wider than the width stays
// whole, on a line of its own.
func breakLine(line string, width int, pad string) string {
	var b strings.Builder
	cur := []rune(line)
	start := len(cur) - len([]rune(strings.TrimLeft(line, " ")))
	for len(cur) > width {
		cut := lastSpace(cur[:width+1])
		if cut <= start {
			next := -1 // the first space past the width
			for k, r := range cur[width:] {
				if r == ' ' {
					next = k
					break
				}
			}
			if next < 0 {
				break
			}
			cut = width + next
		}
		b.WriteString(strings.TrimRight(string(cur[:cut]), " ") + "\n")
		cur, start = []rune(pad+strings.TrimLeft(string(cur[cut:]), " ")), len(pad)
	}
	b.WriteString(string(cur))
	return b.String()
}

// lastSpace is the index of the last space in rs, -1 where none.
func lastSpace(rs []rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i] == ' ' {
			return i
		}
	}
	return -1
}
