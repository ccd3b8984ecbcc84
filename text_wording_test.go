package planner_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"planner"
	"planner/plans"
)

// softmax48 is a row softmax over 48 rows: 48 is no power of two, so no
// layout of it is linear and a plan asked for linear notation falls back
// to cute for every value.
const softmax48 = `target = "sm_80"
subgroups = 4

[[op]]
kind = "load"
result = "x"
shape = [48, 128]
dtype = "f32"

[[op]]
kind = "reduce"
combiner = "max"
operands = ["x"]
axis = 1
result = "mx"

[[op]]
kind = "broadcast"
operands = ["mx"]
shape = [48, 128]
dims = [1]
result = "mxb"

[[op]]
kind = "sub"
operands = ["x", "mxb"]
result = "y"

[[op]]
kind = "store"
operands = ["y"]
`

// Wording that no text plan may print: an arrangement written otherwise
// than "R×C warps (warp ids along N first)", a count of one with a plural
// noun, the fallback note that read as if cute were not linear.
var badWording = []struct{ what, re string }{
	{"a warp grid without the word warps", `\d+×\d+ \(`},
	{"the other wording of the warp order", `warps along [MN] first`},
	{"the warp order named on a grid of one row or column", `(1×\d+|\d+×1) warps \(warp ids`},
	{"one with a plural noun", `(^|[^×\d])1 (elements|stores|loads|words|lanes|warps|subgroups)\b`},
	{"the old fallback note", `\(in [a-z]+: not expressible as`},
}

// The text plan's wording, case by case: each case solves a graph and
// looks for lines it must print; every output is also checked against
// badWording, and no line of a default plan summing up arrangements runs
// past 140 characters after its indentation.
func TestTextWording(t *testing.T) {
	cases := []struct {
		name, graph, text string // a graph file, or the graph's text
		notation          string
		verbose           bool
		want              []string
		wantLines         map[string]int // a line's prefix (trimmed) and how often it appears
	}{
		{
			name:  "arrangements summed up",
			graph: "testdata/graphs/gemm_epilogue.toml",
			want: []string{
				"chosen among 40 arrangements of mma_m16n8k16_f32_f16 or mma_m16n8k8_f32_f16 on 1×4, 2×2 or 4×1 warps (solve --verbose lists them)\n",
			},
		},
		{
			name:    "arrangements listed under --verbose",
			graph:   "testdata/graphs/gemm_epilogue.toml",
			verbose: true,
			want: []string{
				"chosen among 40 arrangements:\n",
				"  mma_m16n8k16_f32_f16, 1×4 warps\n",
				"  mma_m16n8k16_f32_f16, 2×2 warps (warp ids along M first; each warp one contiguous block)\n",
				"  mma_m16n8k8_f32_f16, 4×1 warps (each warp one contiguous block)\n",
			},
			wantLines: map[string]int{"mma_m16n8k16_f32_f16, ": 16, "mma_m16n8k8_f32_f16, ": 24},
		},
		{
			name:  "the chosen arrangement as the list writes it",
			graph: "testdata/graphs/flash_attention_4warps.toml",
			want: []string{
				"mma_m16n8k16_f32_f16 × 32 per warp, 2×2 warps (warp ids along N first)\n",
				"fragment of operand a, record intrinsics/nvidia/mma_m16n8k16_f32_f16.toml:11:1, on 2×2 warps (warp ids along N first)\n",
			},
		},
		{
			name:  "one element per load",
			graph: "testdata/graphs/transpose_heavy.toml",
			want:  []string{"16 stores of 4 elements and 64 loads of 1 element per lane\n"},
		},
		{
			name:     "linear falls back to cute",
			text:     softmax48,
			notation: "linear",
			want: []string{
				"  %x   48x128 f32, 48 per lane: ((_32,_4),(_4,_12)):((_192,_1),(_48,_4))\n" +
					"         written in cute, since linear notation cannot express it: dimension 0 has extent 48, not a power of two\n",
				"         written in cute, since linear notation cannot express it (for the same reason as %x)\n",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var res *planner.Result
			var err error
			opt := planner.Options{Notation: c.notation}
			if c.text != "" {
				res, err = testPlanner(t).SolveText(context.Background(), "softmax48.toml", []byte(c.text), opt)
			} else {
				res, err = testPlanner(t).SolveFile(context.Background(), c.graph, opt)
			}
			if err != nil || res.Plan == nil {
				t.Fatalf("no plan: %v", err)
			}
			var b bytes.Buffer
			if err := res.Plan.WriteTextWith(&b, plans.TextOptions{Verbose: c.verbose}); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			for _, w := range c.want {
				if !strings.Contains(unwrapped(text), unwrapped(w)) {
					t.Errorf("the plan lacks %q:\n%s", w, text)
				}
			}
			for prefix, n := range c.wantLines {
				got := 0
				for _, l := range strings.Split(text, "\n") {
					if strings.HasPrefix(strings.TrimSpace(l), prefix) {
						got++
					}
				}
				if got != n {
					t.Errorf("%d lines start with %q, want %d", got, prefix, n)
				}
			}
			checkWording(t, text)
			if !c.verbose {
				for _, l := range strings.Split(text, "\n") {
					if l = strings.TrimSpace(l); strings.Contains(l, "chosen among") && utf8.RuneCountInString(l) > 140 {
						t.Errorf("a line of %d characters: %s", utf8.RuneCountInString(l), l)
					}
				}
			}
		})
	}
}

func checkWording(t *testing.T, text string) {
	t.Helper()
	for _, bad := range badWording {
		if m := regexp.MustCompile(bad.re).FindString(text); m != "" {
			t.Errorf("%s: %q", bad.what, m)
		}
	}
}

// Every golden text plan keeps to the wording.
func TestGoldenTextWording(t *testing.T) {
	files, err := os.ReadDir("testdata/plans")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".txt") {
			continue
		}
		data, err := os.ReadFile("testdata/plans/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f.Name(), func(t *testing.T) { checkWording(t, string(data)) })
	}
}
