package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --records takes a path whole: a folder whose name has a comma is one
// folder, not two.
func TestRecordsPathWithComma(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tf32,k4")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mma_m16n8k4_f32_tf32.toml", "sm_80_tf32k4.toml"} {
		data, err := os.ReadFile(filepath.Join("../../examples/records", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errs bytes.Buffer
	if code := Main([]string{"intrinsics", "list", "--records", dir, "--target", "sm_80_tf32k4"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "mma_m16n8k4_f32_tf32") {
		t.Errorf("the record of the folder is not listed:\n%s", out.String())
	}
}
