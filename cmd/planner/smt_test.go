//go:build z3

package main

import (
	"bytes"
	"testing"
)

// With -tags z3, `--solver smt` prints the same plan as the default
// search on every plan golden's graph but the search statistics.
func TestSolveWithSMT(t *testing.T) {
	for _, g := range []string{"softmax_row", "seed002_ldmatrix_swizzle", "flash_attention_2warps"} {
		var gini, smt, errs bytes.Buffer
		path := "../../testdata/graphs/" + g + ".toml"
		if code := Main([]string{"solve", "--format", "toml", path}, &gini, &errs); code != 0 {
			t.Fatalf("%s: gini exit %d: %s", g, code, errs.String())
		}
		if code := Main([]string{"solve", "--solver", "smt", "--format", "toml", path}, &smt, &errs); code != 0 {
			t.Fatalf("%s: smt exit %d: %s", g, code, errs.String())
		}
		if gini.String() != smt.String() {
			t.Errorf("%s: the two backends print different plans", g)
		}
	}
}

// With -tags z3, `explain --solver smt` finds its cores with Z3 and prints
// the same explanations as the default.
func TestExplainWithSMT(t *testing.T) {
	for _, g := range []string{"pinned_operand_no_conversions", "seed002_wmma_padded", "budget_scratch"} {
		var gini, smt, errs bytes.Buffer
		path := "../../testdata/unsat/" + g + ".toml"
		if code := Main([]string{"explain", "--format", "json", path}, &gini, &errs); code != exitUnsat {
			t.Fatalf("%s: gini exit %d: %s", g, code, errs.String())
		}
		if code := Main([]string{"explain", "--solver", "smt", "--format", "json", path}, &smt, &errs); code != exitUnsat {
			t.Fatalf("%s: smt exit %d: %s", g, code, errs.String())
		}
		if gini.String() != smt.String() {
			t.Errorf("%s: the backends explain differently:\n%s\n%s", g, gini.String(), smt.String())
		}
	}
}
