package intrinsics

import (
	"slices"
	"strings"
	"testing"

	"planner/model"
)

// The scalar FMA records against the vendors' instruction descriptions,
// typed in from them (never from the records): each instruction's element
// types for a, b, c and d, and the targets whose hardware has it.
func TestFMARecordsAgainstISA(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, vendor, instruction string
		a, b, c, d                string
		targets                   []string
	}{
		// PTX ISA, "Floating Point Instructions: fma": fma.rn.f32 d, a,
		// b, c, every operand .f32.
		{"fma_rn_f32", "nvidia", "fma.rn.f32", "f32", "f32", "f32", "f32", []string{"sm_80", "sm_89", "sm_90", "sm_100", "sm_120"}},
		// PTX ISA, "Half Precision Floating Point Instructions: fma":
		// fma.rn.f16 d, a, b, c, every operand .f16; sm_53 or higher, so
		// every NVIDIA target.
		{"fma_rn_f16", "nvidia", "fma.rn.f16", "f16", "f16", "f16", "f16", []string{"sm_80", "sm_89", "sm_90", "sm_100", "sm_120"}},
		// CDNA3 ISA, VOP3A V_FMA_F32: D.f = S0.f * S1.f + S2.f (and RDNA3).
		{"v_fma_f32", "amd", "v_fma_f32", "f32", "f32", "f32", "f32", []string{"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1100_wave64", "gfx1200"}},
		// CDNA3 ISA, VOP3A V_FMA_F16: D.f16 = S0.f16 * S1.f16 + S2.f16
		// (CDNA2 and RDNA3 alike).
		{"v_fma_f16", "amd", "v_fma_f16", "f16", "f16", "f16", "f16", []string{"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1100_wave64", "gfx1200"}},
		// CDNA3 ISA, VOP3P V_FMA_MIX_F32: D.f32 = S0 * S1 + S2, each input
		// f16 or f32 as op_sel_hi says; here f16, f16 and an f32
		// accumulator (CDNA2 and RDNA3 alike).
		{"v_fma_mix_f32", "amd", "v_fma_mix_f32", "f16", "f16", "f32", "f32", []string{"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1100_wave64"}},
		// Intel Xe ISA, mad: dst = src0 + src1 * src2, in f32 (F) or f16
		// (HF).
		{"mad_f32", "intel", "mad (f32)", "f32", "f32", "f32", "f32", []string{"pvc", "bmg"}},
		{"mad_f16", "intel", "mad (hf)", "f16", "f16", "f16", "f16", []string{"pvc", "bmg"}},
	} {
		r, ok := lib.Records[c.name]
		if !ok {
			t.Fatalf("no record %s", c.name)
		}
		if r.Kind != model.RecordFMA || r.Vendor != c.vendor || !strings.HasPrefix(r.Instruction, c.instruction) {
			t.Errorf("%s: kind %s, vendor %s, instruction %q; want fma, %s, %q", c.name, r.Kind, r.Vendor, r.Instruction, c.vendor, c.instruction)
		}
		for _, o := range []struct{ slot, dtype string }{{"a", c.a}, {"b", c.b}, {"c", c.c}, {"d", c.d}} {
			if op := r.Operands[o.slot]; op == nil || op.DType.Name != o.dtype {
				t.Errorf("%s operand %s: %+v, want %s", c.name, o.slot, op, o.dtype)
			}
		}
		for _, tn := range c.targets {
			tg, ok := lib.Target(tn)
			if !ok {
				t.Fatalf("no target %s", tn)
			}
			if !slices.Contains(tg.Records, c.name) {
				t.Errorf("%s does not offer %s", tn, c.name)
			}
		}
	}
}
