package tomlio

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"planner/gen"
)

// agree checks that where fastParse reads a text, it reads what the
// decoder and the position scanner read; it reports whether it read it.
func agree(t *testing.T, name string, data []byte) bool {
	t.Helper()
	root, pos, ok := fastParse(name, data)
	if !ok {
		return false
	}
	want := map[string]any{}
	if _, err := toml.Decode(string(data), &want); err != nil {
		t.Errorf("%s: read in one pass, but the decoder refuses it: %v\n%s", name, err, data)
		return true
	}
	if !reflect.DeepEqual(root, want) {
		t.Errorf("%s: read as\n%#v\nthe decoder reads\n%#v", name, root, want)
	}
	if wantPos := scanPositions(name, string(data)); !reflect.DeepEqual(pos, wantPos) {
		for k, p := range wantPos {
			if pos[k] != p {
				t.Errorf("%s: %s is at %s, the scanner says %s", name, k, pos[k], p)
			}
		}
		for k := range pos {
			if _, ok := wantPos[k]; !ok {
				t.Errorf("%s: %s has a position the scanner does not give", name, k)
			}
		}
	}
	return true
}

// Every TOML file of the repository and every generated family reads in
// one pass to what the decoder and the scanner read; the graphs, records,
// layouts and plans are all read so (none is left to the decoder).
func TestFastParseAgrees(t *testing.T) {
	var files []string
	_ = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".toml") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 300 {
		t.Fatalf("found %d TOML files; the test reads the repository's", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		read := agree(t, f, data)
		mustRead := !strings.Contains(f, "/bad/") && !strings.Contains(f, "testdata/fuzz") &&
			(strings.HasPrefix(f, "../testdata/graphs/") || strings.HasPrefix(f, "../intrinsics/") && !strings.Contains(f, "testdata") ||
				strings.HasPrefix(f, "../testdata/plans/") || strings.HasPrefix(f, "../examples/"))
		if mustRead && !read {
			t.Errorf("%s is left to the decoder: the one-pass reader should read it", f)
		}
	}
	for _, family := range gen.Families {
		text, err := gen.Graph(family, 2000, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !agree(t, family, []byte(text)) {
			t.Errorf("the generated %s graph is left to the decoder", family)
		}
	}
}

// Small edits of good files (a byte replaced, inserted or deleted) make
// texts of every kind, well-formed or not: whatever fastParse reads of
// them, the decoder and the scanner read alike, and what it does not read
// is left to them.
func TestFastParseAgreesOnEdits(t *testing.T) {
	seeds := []string{
		"../testdata/graphs/flash_attention_2warps.toml",
		"../intrinsics/nvidia/ldmatrix_x4.toml",
		"../intrinsics/targets/sm_80.toml",
	}
	r := rand.New(rand.NewPCG(1, 2))
	read := 0
	for _, f := range seeds {
		base, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for range 700 {
			data := Edit(r, base, 1+r.IntN(3))
			if agree(t, f, data) {
				read++
			}
			if t.Failed() {
				return
			}
		}
	}
	if read < 200 {
		t.Errorf("only %d of the edited texts were read in one pass: the edits test little", read)
	}
}

// Constructs the one-pass reader takes and those it leaves to the decoder.
func TestFastParseSubset(t *testing.T) {
	tests := []struct {
		text string
		read bool
	}{
		{"a = 1\nb = -2\nc = +3\nd = true\ne = \"x\\\"y\\n\"\nf = 'lit'\n", true},
		{"a = [1, [2, 3], {x = 1}, \"s\"]\n", true},
		{"a = [\n  1, # one\n  2,\n]\n", true},
		{"[[op]]\nx = 1\n[[op.body]]\ny = 2\n[op.body.z]\nw = 3\n[[op]]\n", true},
		{"[a.b]\n[a]\nc = 1\n", true},
		{"a = 1.5\n", false},
		{"a = 1_000\n", false},
		{"a = 0x10\n", false},
		{"a = 1979-05-27\n", false},
		{"a = \"\"\"x\"\"\"\n", false},
		{"a = '''x'''\n", false},
		{"a = \"\\u0041\"\n", false},
		{"a.b = 1\n", false},
		{"\"a\" = 1\n[b.\"c.d\"]\n'e' = 2\n", true},
		{"\"a\\\"b\" = 1\n", false},
		{"a = 1\na = 2\n", false},
		{"[a]\n[a]\n", false},
		{"a = {x = 1}\n[a]\n", false},
		{"a = {x = 1,}\n", false},
		{"a = [1]\n[[a]]\n", false},
		{"a = 1 b\n", false},
		{"a = \"\xff\"\n", false},
	}
	for _, tt := range tests {
		if read := agree(t, "f.toml", []byte(tt.text)); read != tt.read {
			t.Errorf("%q: read in one pass %v, want %v", tt.text, read, tt.read)
		}
	}
}

// FuzzFastParse holds the one-pass reader to the decoder and the scanner
// on any text (go test ./tomlio -fuzz FuzzFastParse).
func FuzzFastParse(f *testing.F) {
	for _, s := range []string{"a = 1\n", "[[op]]\nkind = \"x\"\nshape = [1, 2]\n", "[a.\"b\"]\nc = {d = 'e'}\n", "x = [\n 1, # c\n [2],\n]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { agree(t, "f.toml", data) })
}

// Edit returns a copy of base with n bytes replaced, inserted or deleted,
// each at a random place, with characters that matter to TOML.
func Edit(r *rand.Rand, base []byte, n int) []byte {
	const alphabet = "[]{}=,.\"'#\n\r\t -+_0123456789abexntf\\"
	data := append([]byte(nil), base...)
	for range n {
		i := r.IntN(len(data))
		c := alphabet[r.IntN(len(alphabet))]
		switch r.IntN(3) {
		case 0:
			data[i] = c
		case 1:
			data = append(data[:i], append([]byte{c}, data[i:]...)...)
		default:
			data = append(data[:i], data[i+1:]...)
		}
	}
	return data
}
