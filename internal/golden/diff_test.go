package golden

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name, want, got, diff string
	}{
		{"identical", "a\nb\nc\n", "a\nb\nc\n", ""},
		{"a line inserted", "a\nb\nc\nd\ne\nf\n", "a\nb\nc\nX\nd\ne\nf\n",
			"@@ -2,4 +2,5 @@\n" +
				"     2     2  b\n" +
				"     3     3  c\n" +
				"+          4  X\n" +
				"     4     5  d\n" +
				"     5     6  e\n"},
		{"a line deleted", "a\nb\nc\nd\ne\nf\n", "a\nb\nd\ne\nf\n",
			"@@ -1,5 +1,4 @@\n" +
				"     1     1  a\n" +
				"     2     2  b\n" +
				"-    3        c\n" +
				"     4     3  d\n" +
				"     5     4  e\n"},
		{"a line changed", "a\nb\nc\n", "a\nB\nc\n",
			"@@ -1,3 +1,3 @@\n" +
				"     1     1  a\n" +
				"-    2        b\n" +
				"+          2  B\n" +
				"     3     3  c\n"},
		{"changes far apart, two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10", "x\n2\n3\n4\n5\n6\n7\n8\n9\ny",
			"@@ -1,3 +1,3 @@\n" +
				"-    1        1\n" +
				"+          1  x\n" +
				"     2     2  2\n" +
				"     3     3  3\n" +
				"@@ -8,3 +8,3 @@\n" +
				"     8     8  8\n" +
				"     9     9  9\n" +
				"-   10        10\n" +
				"+         10  y\n"},
		{"a final newline added", "a", "a\n",
			"@@ -1,1 +1,2 @@\n" +
				"     1     1  a\n" +
				"+          2  \n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Diff(c.want, c.got); got != c.diff {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, c.diff)
			}
		})
	}
}

// One line inserted at the top of a long text is one line of the diff,
// and a text entirely replaced is cut off at diffMaxLines lines, saying
// how many more differ.
func TestDiffBounded(t *testing.T) {
	var long []string
	for i := range 1000 {
		long = append(long, fmt.Sprint("line ", i))
	}
	text := strings.Join(long, "\n")
	if d := Diff(text, "new\n"+text); strings.Count(d, "\n+") != 1 || strings.Count(d, "\n-") != 0 || strings.Count(d, "\n") > 5 {
		t.Errorf("one inserted line:\n%s", d)
	}
	other := strings.ReplaceAll(text, "line", "row")
	d := Diff(text, other)
	if n := strings.Count(d, "\n"); n > diffMaxLines+2 || !strings.HasSuffix(d, "... and 1880 more lines differ\n") {
		t.Errorf("%d lines, ending %q", n, d[max(0, len(d)-60):])
	}
}

// The edit script of two random texts keeps a longest common subsequence
// (as long as the dynamic program's) and turns the first into the second.
func TestDiffLinesIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := randomLines(r), randomLines(r)
		script := diffLines(a, b)
		var kept int
		var gotA, gotB []string
		for _, e := range script {
			switch e.kind {
			case ' ':
				kept++
				if a[e.a] != b[e.b] {
					t.Fatalf("%q -> %q: keeps %q as %q", a, b, a[e.a], b[e.b])
				}
				gotA, gotB = append(gotA, a[e.a]), append(gotB, b[e.b])
			case '-':
				gotA = append(gotA, a[e.a])
			case '+':
				gotB = append(gotB, b[e.b])
			}
		}
		if strings.Join(gotA, "|") != strings.Join(a, "|") || strings.Join(gotB, "|") != strings.Join(b, "|") {
			t.Fatalf("%q -> %q: the script reads %q and %q", a, b, gotA, gotB)
		}
		if want := lcs(a, b); kept != want {
			t.Fatalf("%q -> %q: keeps %d lines, the longest common subsequence has %d", a, b, kept, want)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	out := make([]string, r.IntN(12))
	for i := range out {
		out[i] = string(rune('a' + r.IntN(4)))
	}
	return out
}

// lcs is the length of a longest common subsequence, by dynamic
// programming.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
