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
