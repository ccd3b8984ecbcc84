package plans

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Layouts are named as TTGIR names its encodings: each leaf attribute
// once, by a stem of its kind numbered from the second on; an attribute
// around others keeps its own text with its parent's alias; text that is
// not an attribute is left as it is.
func TestLayoutAliases(t *testing.T) {
	mmaA := "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
	mmaB := "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>"
	blocked := "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
	nested := "#iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [2, 1], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [1, 16]>"
	texts := []string{
		"#ttg.dot_op<{opIdx = 0, parent = " + mmaA + ", kWidth = 8}>",
		mmaB,
		"#ttg.slice<{dim = 1, parent = " + mmaA + "}>",
		blocked,
		mmaB,
		nested,
		"wmma.m16n16k16.a.row.f16 fragments (lanes and registers unspecified)",
		"",
	}
	a := newLayoutAliases(texts)
	wantDefs := []aliasDef{{"#mma", mmaA}, {"#mma1", mmaB}, {"#blocked", blocked}, {"#nested", nested}}
	if !slices.Equal(a.defs, wantDefs) {
		t.Errorf("aliases %q, want %q", a.defs, wantDefs)
	}
	want := []string{
		"#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>",
		"#mma1",
		"#ttg.slice<{dim = 1, parent = #mma}>",
		"#blocked",
		"#mma1",
		"#nested",
		texts[6],
		"",
	}
	for i, text := range texts {
		if got := a.short(text); got != want[i] {
			t.Errorf("short(%q) = %q, want %q", text, got, want[i])
		}
	}
	if len(a.defs) != len(wantDefs) {
		t.Errorf("writing the texts again named %d more layouts", len(a.defs)-len(wantDefs))
	}
}

// A line wider than the width breaks at spaces, counted in characters
// (× is one), its continuations indented four more; a word wider than the
// width stays whole; kept lines and short ones are left as they are.
func TestWrapText(t *testing.T) {
	long := "  " + strings.Repeat("word ", 30) + "end"
	in := strings.Join([]string{
		"short line",
		long,
		"  #keep = " + strings.Repeat("x", 120),
		"  " + strings.Repeat("y", 120) + " tail",
		"  2×2 " + strings.Repeat("ab ", 31),
	}, "\n") + "\n"
	out := wrapText(in, 40, func(line string) bool { return strings.HasPrefix(line, "  #keep") })
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		w := utf8.RuneCountInString(l)
		if w > 40 && !strings.HasPrefix(l, "  #keep") && !strings.Contains(l, strings.Repeat("y", 120)) {
			t.Errorf("line %q is %d characters wide", l, w)
		}
	}
	if lines[0] != "short line" {
		t.Errorf("the short line became %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "  word") || !strings.HasPrefix(lines[2], "      word") {
		t.Errorf("the long line broke as %q, %q", lines[1], lines[2])
	}
	if !strings.Contains(out, "  #keep = "+strings.Repeat("x", 120)+"\n") {
		t.Error("the kept line was broken")
	}
	if !strings.Contains(out, "  "+strings.Repeat("y", 120)+"\n      tail\n") {
		t.Errorf("the long word was not left whole on its line:\n%s", out)
	}
	if got := strings.Join(strings.Fields(out), " "); got != strings.Join(strings.Fields(in), " ") {
		t.Errorf("wrapping changed the words:\n%s", out)
	}
}
