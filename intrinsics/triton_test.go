package intrinsics

import (
	"testing"

	"planner/internal/golden"
	"planner/notation"
)

// The records' operand fragments, written in the Triton notation, come
// out as the encodings Triton gives those operands: the accumulator as
// #ttg.nvidia_mma or #ttg.amd_mfma on one warp, A and B as #ttg.dot_op of
// it with the kWidth of the instruction's k elements per register group
// (nvidiaDotToLinearLayout and mfmaDotToLinearLayout in triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp).
func TestRecordsInTritonNotation(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	const (
		mma    = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"
		mfma32 = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32], isTransposed = false}>"
		mfma16 = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16], isTransposed = false}>"
		wmma1  = "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = []}, instrShape = [16, 16, 16]}>"
		dpas   = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>"
		wmma2  = "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = []}, instrShape = [16, 16, 16]}>"
	)
	dot := func(op int, parent string, k string) string {
		return "#ttg.dot_op<{opIdx = " + string(rune('0'+op)) + ", parent = " + parent + ", kWidth = " + k + "}>"
	}
	// anyRole: what Express("triton") writes without knowing the
	// operand, where it differs from want: mfma 16x16's B fragment with
	// kWidth 4 is exactly its untransposed accumulator, and dpas's B
	// fragment the accumulator of two stacked tiles.
	tests := []struct {
		record, operand, want string
		anyRole               string
	}{
		{"mma_m16n8k16_f32_f16", "a", dot(0, mma, "2"), ""},
		{"mma_m16n8k16_f32_f16", "b", dot(1, mma, "2"), ""},
		{"mma_m16n8k16_f32_f16", "c", mma, ""},
		{"mma_m16n8k16_f32_f16", "d", mma, ""},
		{"mma_m16n8k16_f32_bf16", "a", dot(0, mma, "2"), ""},
		{"mfma_f32_32x32x8_f16", "a", dot(0, mfma32, "4"), ""},
		{"mfma_f32_32x32x8_f16", "b", dot(1, mfma32, "4"), ""},
		{"mfma_f32_32x32x8_f16", "c", mfma32, ""},
		{"mfma_f32_16x16x16_f16", "a", dot(0, mfma16, "4"), ""},
		{"mfma_f32_16x16x16_f16", "b", dot(1, mfma16, "4"), mfma16},
		{"mfma_f32_16x16x16_f16", "c", mfma16, ""},
		{"mfma_f32_32x32x16_f16", "a", dot(0, mfma32, "8"), ""},
		{"mfma_f32_16x16x32_f16", "b", dot(1, mfma16, "8"), ""},
		// Intel's dpas: the accumulator and B as Triton's #ttig.dpas; A
		// is not Triton's operand A layout (the record gives each lane one
		// k column, Triton two k per lane), so it is written otherwise.
		// Without its role, B is also the accumulator of two instruction
		// tiles stacked (repCluster [2, 1]).
		{"dpas_m8n16k16_f32_f16", "b", dot(1, dpas, "2"), golden.ReplaceEvery(t, golden.ReplaceOnce(t, dpas, "repCluster = [1, 1]", "repCluster = [2, 1]"), "[8, 16]", "[16, 16]")},
		{"dpas_m8n16k16_f32_f16", "c", dpas, ""},
		{"wmma_f32_16x16x16_f16", "a", dot(0, wmma1, "16"), ""},
		{"wmma_f32_16x16x16_f16", "b", dot(1, wmma1, "16"), ""},
		{"wmma_f32_16x16x16_f16", "c", wmma1, ""},
		// The record keeps the ISA's k order, which is Triton's version-2
		// operand at kWidth 4 (the record's own comment); Triton picks
		// kWidth 8, a renumbering of k.
		{"wmma_f32_16x16x16_f16_gfx12", "a", dot(0, wmma2, "4"), ""},
		{"wmma_f32_16x16x16_f16_gfx12", "b", dot(1, wmma2, "4"), ""},
		{"wmma_f32_16x16x16_f16_gfx12", "c", wmma2, ""},
	}
	for _, tc := range tests {
		r, ok := lib.Records[tc.record]
		if !ok {
			t.Fatalf("no record %s", tc.record)
		}
		l := r.Operands[tc.operand].Layout
		role := map[string]notation.TritonRole{"a": notation.OperandA, "b": notation.OperandB, "c": notation.Accumulator, "d": notation.Accumulator}[tc.operand]
		n, err := notation.ExpressTritonAs(l, role)
		if err != nil {
			t.Errorf("%s %s: %v", tc.record, tc.operand, err)
			continue
		}
		if got := n.Attr(); got != tc.want {
			t.Errorf("%s %s is written\n  %s\nwant\n  %s", tc.record, tc.operand, got, tc.want)
		}
		want := tc.want
		if tc.anyRole != "" {
			want = tc.anyRole
		}
		if n, err := notation.Express("triton", l); err != nil {
			t.Errorf("%s %s without its role: %v", tc.record, tc.operand, err)
		} else if n.Attr() != want {
			t.Errorf("%s %s without its role is written\n  %s\nwant\n  %s", tc.record, tc.operand, n.Attr(), want)
		}
	}
}
