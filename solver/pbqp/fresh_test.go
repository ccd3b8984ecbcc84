package pbqp

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/irifrance/gini/z"
)

// TestSATAnswersAfterUnsat asks the questions of testdata/gini_reuse.cnf
// in a row. On one gini v1.0.1 solver the second answer is a model that
// violates a clause, and gini ends the process (this test's binary with
// it); SAT answers both unsat.
func TestSATAnswersAfterUnsat(t *testing.T) {
	data, err := os.ReadFile("testdata/gini_reuse.cnf")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSAT()
	var questions [][]z.Lit
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) > 2 && fields[0] == "c" && fields[1] == "assume":
			var q []z.Lit
			for _, f := range fields[2:] {
				q = append(q, z.Dimacs2Lit(atoi(t, f)))
			}
			questions = append(questions, q)
		case len(fields) == 0 || fields[0] == "c" || fields[0] == "p":
		default:
			for _, f := range fields {
				s.Add(z.Dimacs2Lit(atoi(t, f)))
			}
		}
	}
	if len(questions) != 2 {
		t.Fatalf("%d questions, want 2", len(questions))
	}
	for _, q := range questions {
		s.Assume(q...)
		if got := s.Solve(); got != -1 {
			t.Errorf("under %v: %d, want -1 (unsat)", q, got)
		}
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
