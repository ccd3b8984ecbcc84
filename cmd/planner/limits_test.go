package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"planner/solver"
)

func TestParseBytes(t *testing.T) {
	cases := []struct {
		in   string
		want uint64
		bad  bool
	}{
		{"4GiB", 4 << 30, false},
		{"512MiB", 512 << 20, false},
		{"1KiB", 1 << 10, false},
		{"3GB", 3e9, false},
		{"100", 100, false},
		{"100B", 100, false},
		{" 2 MiB", 2 << 20, false},
		{"0", 0, true},
		{"-1GiB", 0, true},
		{"1.5GiB", 0, true},
		{"lots", 0, true},
		{"GiB", 0, true},
		{"99999999999TiB", 0, true},
	}
	for _, c := range cases {
		got, err := parseBytes(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d, error %v", c.in, got, err, c.want, c.bad)
		}
	}
}

func TestProgressText(t *testing.T) {
	cases := []struct {
		p    solver.Progress
		want string
	}{
		{solver.Progress{Phase: "build", Pass: "edges", Done: 300, Total: 1000, Elapsed: 1500 * time.Millisecond, Memory: 200 << 20},
			"   1.5s  build (edges): 300 of 1000  200 MiB"},
		{solver.Progress{Phase: "reduce", Done: 10, Total: 20, Elapsed: 2 * time.Second, Memory: 1 << 30},
			"   2.0s  reduce: 10 of 20 nodes reduced  1024 MiB"},
		{solver.Progress{Phase: "search", Done: 1, Incumbent: solver.Inf, Bound: 5, Elapsed: 3 * time.Second},
			"   3.0s  search: 1 SAT call, bound 5  0 MiB"},
		{solver.Progress{Phase: "search", Done: 4, Incumbent: 90, Bound: 70, Elapsed: 12 * time.Second},
			"  12.0s  search: 4 SAT calls, best 90, bound 70  0 MiB"},
		{solver.Progress{Phase: "search", Pass: "encoding the core", Incumbent: solver.Inf, Elapsed: 3 * time.Second, Memory: 5 << 20},
			"   3.0s  search (encoding the core)  5 MiB"},
		{solver.Progress{Phase: "plan", Elapsed: 40 * time.Second, Memory: 3 << 20},
			"  40.0s  plan: writing the plan and replaying it in the verifier  3 MiB"},
		{solver.Progress{Phase: "read", Total: 200 << 20, Elapsed: 1200 * time.Millisecond, Memory: 900 << 20},
			"   1.2s  read: reading and checking 200.0 MiB of text  900 MiB"},
	}
	for _, c := range cases {
		if got := progressText(c.p); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// The progress line rewrites itself in place and is blanked at the end;
// a solve that reports nothing leaves stderr empty.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	l := &progressLine{w: &b}
	l.clear()
	if b.Len() != 0 {
		t.Fatalf("clearing an unused line wrote %q", b.String())
	}
	first := solver.Progress{Phase: "reduce", Done: 10, Total: 20, Elapsed: time.Second}
	second := solver.Progress{Phase: "search", Done: 1, Incumbent: solver.Inf, Elapsed: time.Second}
	l.show(first)
	l.show(second)
	l.clear()
	long, short := progressText(first), progressText(second)
	if len(long) <= len(short) {
		t.Fatalf("the first line must be the longer: %q, %q", long, short)
	}
	want := "\r" + long + "\r" + short + strings.Repeat(" ", len(long)-len(short)) + "\r" + strings.Repeat(" ", len(short)) + "\r"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
