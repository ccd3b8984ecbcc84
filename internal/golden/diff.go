package golden

import (
	"fmt"
	"strings"
)

// Diff shows how got differs from want, line by line: the lines of want
// not in got (-) and of got not in want (+), found by Myers' shortest
// edit script, so that a line inserted or deleted is one line of the
// diff and not every line after it. It prints unified-style hunks, each
// with diffContext unchanged lines around its changes and every line
// numbered in want and in got, and at most diffMaxLines lines of hunks;
// "" when the texts are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	if strings.HasSuffix(want, "\n") && strings.HasSuffix(got, "\n") {
		want, got = want[:len(want)-1], got[:len(got)-1] // no empty last line
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	return formatDiff(a, b, diffLines(a, b))
}

const (
	diffContext  = 2    // unchanged lines shown around a change
	diffMaxLines = 120  // lines of hunks shown at most
	diffMaxEdits = 1000 // the longest edit script searched for; longer ones are shown as one replacement
)

// edit is one line of an edit script: kept (' '), deleted from want
// ('-') or inserted from got ('+'), at index a of want and b of got.
type edit struct {
	kind byte
	a, b int
}

// diffLines is a shortest edit script from a to b: their common head and
// tail kept, Myers' search over the lines between.
func diffLines(a, b []string) []edit {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var out []edit
	for i := range head {
		out = append(out, edit{' ', i, i})
	}
	out = append(out, myers(a[head:len(a)-tail], b[head:len(b)-tail], head, head)...)
	for i := range tail {
		out = append(out, edit{' ', len(a) - tail + i, len(b) - tail + i})
	}
	return out
}

// myers is a shortest edit script from a to b (E. W. Myers, "An O(ND)
// Difference Algorithm and Its Variations", 1986), its indexes moved on by
// offA and offB. A script of more than diffMaxEdits edits is not searched
// for: a is deleted and b inserted whole.
func myers(a, b []string, offA, offB int) []edit {
	n, m := len(a), len(b)
	limit := min(n+m, diffMaxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: the furthest x reached on diagonal k = x - y
	var trace [][]int           // trace[d][k+d]: v on diagonals -d..d after d edits
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: b[y-1] inserted
			} else {
				x = v[off+k-1] + 1 // right: a[x-1] deleted
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
				return backtrack(trace, n, m, offA, offB)
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	var out []edit
	for i := range n {
		out = append(out, edit{'-', offA + i, offB})
	}
	for j := range m {
		out = append(out, edit{'+', offA + n, offB + j})
	}
	return out
}

// backtrack reads the edit script back from the end of Myers' search.
func backtrack(trace [][]int, n, m, offA, offB int) []edit {
	var rev []edit
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1]
		k := x - y
		pk := k - 1
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1
		}
		px := prev[pk+d-1]
		py := px - pk
		mx := px // where the edit from (px, py) lands, on diagonal k
		if pk == k-1 {
			mx++
		}
		for x > mx {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', offA + x, offB + y})
		}
		if pk == k+1 {
			rev = append(rev, edit{'+', offA + px, offB + py})
		} else {
			rev = append(rev, edit{'-', offA + px, offB + py})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, edit{' ', offA + x, offB + y})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

// formatDiff prints the hunks of an edit script.
func formatDiff(a, b []string, script []edit) string {
	var out strings.Builder
	shown, left := 0, 0
	for i := 0; i < len(script); {
		if script[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change closer than
		// 2*diffContext kept lines to the one before it.
		start := max(0, i-diffContext)
		end, kept := i, 0
		for j := i; j < len(script) && kept <= 2*diffContext; j++ {
			if script[j].kind == ' ' {
				kept++
			} else {
				end, kept = j, 0
			}
		}
		end = min(len(script), end+1+diffContext)
		if shown >= diffMaxLines {
			for _, e := range script[i:end] {
				if e.kind != ' ' {
					left++
				}
			}
			i = end
			continue
		}
		la, lb := 0, 0
		for _, e := range script[start:end] {
			if e.kind != '+' {
				la++
			}
			if e.kind != '-' {
				lb++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", script[start].a+1, la, script[start].b+1, lb)
		for _, e := range script[start:end] {
			if shown >= diffMaxLines {
				if e.kind != ' ' {
					left++
				}
				continue
			}
			shown++
			switch e.kind {
			case ' ':
				fmt.Fprintf(&out, " %5d %5d  %s\n", e.a+1, e.b+1, a[e.a])
			case '-':
				fmt.Fprintf(&out, "-%5d %5s  %s\n", e.a+1, "", a[e.a])
			case '+':
				fmt.Fprintf(&out, "+%5s %5d  %s\n", "", e.b+1, b[e.b])
			}
		}
		i = end
	}
	if left > 0 {
		fmt.Fprintf(&out, "... and %d more lines differ\n", left)
	}
	return out.String()
}
