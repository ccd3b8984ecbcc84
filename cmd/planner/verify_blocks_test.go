package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/internal/golden"
)

// A plan of a multi-block mma names the view it runs (blocks_along); a
// plan file without it, with the other view, or with blocks along K is
// refused.
func TestVerifyBlocksAlong(t *testing.T) {
	planText, err := os.ReadFile("../../testdata/plans/gfx942_mfma4x4_small_m.toml")
	if err != nil {
		t.Fatal(err)
	}
	const line = "blocks_along = \"N\"\n"
	if !strings.Contains(string(planText), line) {
		t.Fatalf("the golden plan does not say %q", line)
	}
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	for _, c := range []struct{ name, with, want string }{
		{"missing", "", "expected blocks_along"},
		{"other_view", "blocks_along = \"M\"\n", "plan does not verify"},
		{"along_k", "blocks_along = \"K\"\n", "no view with its blocks along \"K\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".toml")
			if err := os.WriteFile(path, []byte(golden.ReplaceOnce(t, string(planText), line, c.with)), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := Main([]string{"verify", path}, &out, &errs)
			if code != exitBadInput || !strings.Contains(errs.String(), c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit %d saying %q", code, out.String(), errs.String(), exitBadInput, c.want)
			}
		})
	}
}
