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
