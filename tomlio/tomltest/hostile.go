package tomltest

import "strings"

// Hostile are texts that go just past the readers' bounds on nesting
// and key paths (tomlio.MaxNesting, tomlio.MaxKeyPath) in each way a
// text can, after head: arrays, inline tables and both nested, a dotted
// key, table and array-of-tables headers of many parts, and loop bodies
// nested past the graph reader's limit. They seed the fuzz targets of
// every reader, each to be refused with a position; each is small (at
// most a few KiB), for the fuzzer minimizes what it finds from them.
func Hostile(head string) [][]byte {
	const deep = 70
	var loops strings.Builder
	for i := range 12 {
		loops.WriteString("[[op" + strings.Repeat(".body", i) + "]]\nkind = \"loop\"\ntrips = 2\n")
	}
	var out [][]byte
	for _, text := range []string{
		"x = " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n",
		"x = " + strings.Repeat("{a = ", deep) + "1" + strings.Repeat("}", deep) + "\n",
		"x = " + strings.Repeat("[{a = ", deep/2) + "1" + strings.Repeat("}]", deep/2) + "\n",
		strings.Repeat("a.", 600) + "a = 1\n",
		"[" + strings.Repeat("a.", 600) + "a]\nb = 1\n",
		"[[" + strings.Repeat("a.", 600) + "a]]\nb = 1\n",
		"[" + strings.Repeat("b", 1020) + "]\n" + strings.Repeat("c", 10) + " = [1, 2]\n",
		loops.String(),
	} {
		out = append(out, []byte(head+text))
	}
	return out
}
