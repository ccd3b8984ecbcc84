package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
)

// Plan files say an mma's variant (transposed = true, k_width = N), and
// planner verify replays it: a claim the operands' layouts do not meet is
// refused with the element and lane, and a k_width no record gives is bad
// input at its line.
func TestVerifyVariantClaims(t *testing.T) {
	root, _ := filepath.Abs("../..")
	for _, c := range []struct {
		name, plan, from, to, want string
	}{
		{"kwidth_claimed_4", "mma_dot_op_kwidth8", "k_width = 8", "k_width = 4", "at kWidth 4"},
		{"kwidth_dropped", "mma_dot_op_kwidth8", "k_width = 8\n", "", "mma_m16n8k16_f32_f16 operand a puts tile position"},
		{"kwidth_odd", "mma_dot_op_kwidth8", "k_width = 8", "k_width = 3", "k_width"},
		{"transposed_dropped", "mfma_transposed_chain", "transposed = true\n\n", "\n", "mfma_f32_32x32x8_f16 operand"},
	} {
		t.Run(c.name, func(t *testing.T) {
			planText, err := os.ReadFile(filepath.Join(root, "testdata/plans", c.plan+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(planText), c.from) {
				t.Fatalf("%s.toml has no %q", c.plan, c.from)
			}
			path := filepath.Join(t.TempDir(), c.plan+".toml")
			if err := os.WriteFile(path, []byte(golden.ReplaceOnce(t, string(planText), c.from, c.to)), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := Main([]string{"verify", path}, &out, &errs)
			if code != exitBadInput || out.Len() != 0 || !strings.Contains(errs.String(), c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 1 saying %q", code, out.String(), errs.String(), c.want)
			}
		})
	}
}

// A plan file says a renumbered K as k_order, and planner verify replays
// it: A and B edited to hold K in two orders are refused with the K index
// they disagree on, a k_order dropped while the operands keep theirs is
// refused, and a k_order that is no permutation of K's bits is bad input
// at its line.
func TestVerifyKOrder(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	var planText, errs bytes.Buffer
	if code := Main([]string{"solve", "testdata/want/gfx1200_gemm_k16.toml", "--format", "toml"}, &planText, &errs); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errs.String())
	}
	// A in the record's order (lane 16 holds k 4, register 2 k 8), B as planned.
	aOwn := strings.NewReplacer("register = [[0, 1], [0, 2], [0, 4], [32, 0]]", "register = [[0, 1], [0, 2], [0, 8], [32, 0]]",
		"lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]]", "lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4]]")
	for _, c := range []struct {
		name string
		edit func(string) string
		want string
	}{
		{"a_and_b_disagree", func(s string) string {
			i := strings.Index(s, "[values.\"a\".exact.layout]")
			j := strings.Index(s, "[values.\"bt\"]")
			return s[:i] + aOwn.Replace(s[i:j]) + s[j:]
		}, "must hold K in one order: operand a %a holds k = 4 at the record's K position 4 (the record's own K order), operand b %b at position 8 (K renumbered, k bits 0 1 3 2)"},
		{"k_order_dropped", func(s string) string { return strings.Replace(s, "k_order = [0, 1, 3, 2]\n", "", 1) },
			"A and B hold K in one order, K renumbered, k bits 0 1 3 2, but the plan says the record's own K order"},
		{"k_order_not_a_permutation", func(s string) string {
			return strings.Replace(s, "k_order = [0, 1, 3, 2]", "k_order = [0, 1, 3, 3]", 1)
		}, "expected a k_order that permutes the K bits"},
	} {
		t.Run(c.name, func(t *testing.T) {
			edited := c.edit(planText.String())
			if edited == planText.String() {
				t.Fatal("the edit changed nothing")
			}
			path := filepath.Join(t.TempDir(), "plan.toml")
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errs bytes.Buffer
			code := Main([]string{"verify", path}, &out, &errs)
			if code != exitBadInput || out.Len() != 0 || !strings.Contains(errs.String(), c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 1 saying %q", code, out.String(), errs.String(), c.want)
			}
		})
	}
}
