package tomlio

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"planner/model"
)

// hostile are texts that made the readers hold memory growing with the
// square of their size (every key and array entry's position is recorded
// under its path, which nesting and dotted parts lengthen), each with
// where it must be refused. deep is how deep they nest: a hundred
// thousand levels reached 12 to 17 GB; at deep levels the readers held
// hundreds of MB.
func hostile(deep int) []struct {
	name, text string
	line, col  int
} {
	head := "target = \"sm_80\"\nsubgroups = 4\n"
	var loops strings.Builder
	loops.WriteString(head)
	for i := range deep / 20 {
		fmt.Fprintf(&loops, "[[op%s]]\nkind = \"loop\"\ntrips = 2\n", strings.Repeat(".body", i))
	}
	return []struct {
		name, text string
		line, col  int
	}{
		{"arrays", head + "x = " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n", 3, 5 + MaxNesting},
		{"inline tables", head + "x = " + strings.Repeat("{a = ", deep) + "1" + strings.Repeat("}", deep) + "\n", 3, 5 + 5*MaxNesting},
		{"arrays of inline tables", head + "x = " + strings.Repeat("[{a = ", deep) + "1" + strings.Repeat("}]", deep) + "\n", 3, 5 + 3*MaxNesting},
		{"dotted key", head + strings.Repeat("a.", deep) + "a = 1\n", 3, 1},
		{"table header", head + "[" + strings.Repeat("a.", deep) + "a]\n", 3, 1},
		{"array of tables header", head + "[[" + strings.Repeat("a.", deep) + "a]]\n", 3, 1},
		{"long key under a long header", head + "[" + strings.Repeat("b", MaxKeyPath-2) + "]\n" + strings.Repeat("c", 10) + " = 1\n", 4, 1},
		// Loop bodies nested deep/20 deep: each header is one part longer.
		{"loop headers", loops.String(), 3 + 3*(MaxKeyPath/5) + 1, 1},
		// A key within MaxKeyPath over many short entries: refused where
		// the paths in all pass pathsPerByte times the text (col 0: any).
		{"long key over many entries", head + strings.Repeat("k", MaxKeyPath-24) + " = [" + strings.Repeat("1,", 3*deep) + "1]\n", 3, 0},
	}
}

// Each hostile text is refused by every reader, at the first place it
// exceeds a bound, before anything is built: in memory that grows with
// the text, not its square.
func TestHostileNestingRefused(t *testing.T) {
	readers := []struct {
		name string
		read func(file string, data []byte) error
	}{
		{"Parse", func(f string, d []byte) error { _, err := Parse(f, d); return err }},
		{"ParseGraph", func(f string, d []byte) error { _, err := ParseGraph(f, d, testTargets); return err }},
		{"ParseLayoutFile", func(f string, d []byte) error { _, err := ParseLayoutFile(f, d); return err }},
	}
	for _, h := range hostile(20000) {
		for _, r := range readers {
			var err error
			alloc := allocated(func() { err = r.read("hostile.toml", []byte(h.text)) })
			e, ok := err.(*model.Error)
			switch {
			case !ok:
				t.Errorf("%s of %s: %v, want one positioned error", r.name, h.name, err)
				continue
			case e.Code != model.CodeTooLarge || e.Pos.Line != h.line || e.Pos.Col != h.col && h.col != 0:
				t.Errorf("%s of %s: %s (%s), want a too-large error at %d:%d", r.name, h.name, e, e.Code, h.line, h.col)
			}
			if most := uint64(8*len(h.text)) + 1<<20; alloc > most {
				t.Errorf("%s of %s (%d bytes) allocated %d bytes, more than %d", r.name, h.name, len(h.text), alloc, most)
			}
		}
	}
}

// Loops nested deeper than MaxLoopDepth but within the bounds on paths
// are refused by the graph reader's own limit, at the first loop too deep,
// in time and memory that grow with the text: the walk down a header's
// parents was quadratic in its parts, over headers of every length.
func TestDeepLoopsRefusedAtTheLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("target = \"sm_80\"\nsubgroups = 4\n")
	for i := range 150 {
		fmt.Fprintf(&b, "[[op%s]]\nkind = \"loop\"\ntrips = 2\n", strings.Repeat(".body", i))
	}
	var err error
	alloc := allocated(func() { _, err = ParseGraph("loops.toml", []byte(b.String()), testTargets) })
	list, ok := model.Errors(err)
	if !ok || len(list) != 1 || list[0].Pos.Line != 4+3*MaxLoopDepth || !strings.Contains(list[0].Msg, "loops nest more than") {
		t.Errorf("got %v, want loops nested too deep at line %d", err, 4+3*MaxLoopDepth)
	}
	if most := uint64(32*b.Len()) + 1<<20; alloc > most {
		t.Errorf("reading %d bytes allocated %d bytes, more than %d", b.Len(), alloc, most)
	}
}

// Texts within the bounds read as before: nesting of MaxNesting levels,
// a key path of MaxKeyPath bytes, and brackets, braces and dots inside
// strings and comments, which are not nesting.
func TestWithinBoundsRead(t *testing.T) {
	for _, text := range []string{
		"x = " + strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting) + "\n",
		strings.Repeat("a", MaxKeyPath) + " = 1\n",
		"[" + strings.Repeat("b", MaxKeyPath/2) + "]\n" + strings.Repeat("c", MaxKeyPath/2-1) + " = 1\n",
		"x = \"" + strings.Repeat("[{", 1000) + "\" # " + strings.Repeat("[", 1000) + "\n",
		"y = '''\n" + strings.Repeat("[", 1000) + "\n'''\nz = \"\"\"\n\\\"\"\" " + strings.Repeat("{", 1000) + "\"\"\"\n",
		"\"" + strings.Repeat("a.", MaxKeyPath/4) + "\" = [1, 2]\n",
	} {
		if _, err := Parse("ok.toml", []byte(text)); err != nil {
			t.Errorf("%.60q: %v", text, err)
		}
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
