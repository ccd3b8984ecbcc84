package intrinsics

import (
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/model"
)

// TestTargetRegisters checks every built-in target's register budget
// against the vendors' figures, typed here from their documents.
func TestTargetRegisters(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ registers, file int }{
		// CUDA C++ Programming Guide, "Compute Capabilities", Technical
		// Specifications: 255 32-bit registers per thread, 64K per block,
		// compute capabilities 5.0 to 12.0.
		"sm_80": {255, 65536}, "sm_89": {255, 65536}, "sm_90": {255, 65536}, "sm_100": {255, 65536}, "sm_120": {255, 65536},
		// AMD CDNA2/CDNA3 ISA guides, "Vector General-Purpose Registers":
		// 512 per lane with the accumulation registers; 4 SIMDs per CU of
		// 64 lanes.
		"gfx90a": {512, 4 * 64 * 512}, "gfx942": {512, 4 * 64 * 512}, "gfx950": {512, 4 * 64 * 512},
		// AMD RDNA3 ISA guide: v0..v255 per wave.
		"gfx1100": {256, 0}, "gfx1100_wave64": {256, 0}, "gfx1200": {256, 0},
		// Intel oneAPI GPU Optimization Guide, "Small Register Mode vs.
		// Large Register Mode": 256 GRFs of 64 bytes per thread in large
		// GRF mode, 64 KB of registers per EU, 8 EUs per Xe-core (PVC).
		"pvc": {256 * 64 / 16 / 4, 8 * 64 * 1024 / 4},
		// 128 GRFs per thread (default mode): 64 bytes over 16 lanes (BMG),
		// 32 bytes over 8 lanes (DG2).
		"bmg": {128 * 64 / 16 / 4, 0}, "dg2": {128 * 32 / 8 / 4, 0},
	}
	if len(want) != len(lib.Targets) {
		t.Errorf("%d targets, %d in the table", len(lib.Targets), len(want))
	}
	for name, tg := range lib.Targets {
		w, ok := want[name]
		if !ok {
			t.Errorf("target %s is not in the table", name)
			continue
		}
		if tg.Registers != w.registers || tg.RegisterFile != w.file {
			t.Errorf("%s: registers %d, register_file %d; want %d, %d", name, tg.Registers, tg.RegisterFile, w.registers, w.file)
		}
		if tg.RegistersPos.Line == 0 {
			t.Errorf("%s: no position for registers", name)
		}
	}
	// The budget per lane: the file shared by the block's lanes.
	for _, c := range []struct {
		target    string
		subgroups int
		want      int
	}{
		{"sm_80", 4, 255}, {"sm_80", 8, 255}, {"sm_80", 16, 128}, {"sm_80", 32, 64},
		{"gfx942", 4, 512}, {"gfx942", 16, 128},
		{"pvc", 32, 256}, {"pvc", 64, 128},
		{"gfx1100", 32, 256},
	} {
		tg, _ := lib.Target(c.target)
		if got := tg.RegisterBudget(c.subgroups); got != c.want {
			t.Errorf("%s with %d subgroups: a budget of %d registers per lane, want %d", c.target, c.subgroups, got, c.want)
		}
	}
}

// TestTargetRegistersChecked reads targets whose register keys are out of
// range: each is refused at the key, saying what it expected.
func TestTargetRegistersChecked(t *testing.T) {
	base, err := builtinFS.ReadFile("targets/sm_80.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"registers = 255", "registers = 0", "registers must be positive"},
		{"registers = 255", "registers = 100000", "more than any GPU gives"},
		{"register_file = 65536", "register_file = 0", "register_file must be positive"},
		{"register_file = 65536", "register_file = 4096", "cannot hold one subgroup"},
		{"registers = 255", `registers = "many"`, "registers"},
		{"shuffle_transpositions = 1", "shuffle_transpositions = 0", "shuffle_transpositions must be positive"},
		{"shuffle_transpositions = 1", "shuffle_transpositions = 11", "more than any GPU has (at most 10"},
	} {
		src := golden.ReplaceOnce(t, string(base), c.from, c.to)
		src = golden.ReplaceOnce(t, src, `name = "sm_80"`, `name = "regs_test"`)
		lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
		err := lib.parseFile("regs_test.toml", []byte(src))
		if err == nil {
			t.Errorf("%s: accepted", c.to)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "regs_test.toml:") {
			t.Errorf("%s: %v; want a positioned error saying %q", c.to, err, c.want)
		}
	}
}

// TestTargetScaledDot reads the targets' scaled_dot: sm_100, whose
// block-scaled product is tcgen05.mma alone (PTX ISA, mma, Target ISA
// Notes: .block_scale on mma.sync needs sm_120a), decomposes a
// tt.dot_scaled; the targets with a block-scaled record or none at all
// say nothing; a value other than "decompose" is refused at the key.
func TestTargetScaledDot(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"sm_100": model.ScaledDotDecompose, "sm_120": "", "sm_90": "", "gfx950": "", "pvc": ""} {
		tg, ok := lib.Target(name)
		if !ok {
			t.Fatalf("no target %s", name)
		}
		if tg.ScaledDot != want {
			t.Errorf("%s: scaled_dot %q, want %q", name, tg.ScaledDot, want)
		}
	}
	base, err := builtinFS.ReadFile("targets/sm_100.toml")
	if err != nil {
		t.Fatal(err)
	}
	src := golden.ReplaceOnce(t, string(base), `scaled_dot = "decompose"`, `scaled_dot = "emulate"`)
	src = golden.ReplaceOnce(t, src, `name = "sm_100"`, `name = "scaled_test"`)
	l := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
	err = l.parseFile("scaled_test.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "scaled_test.toml:") || !strings.Contains(err.Error(), `scaled_dot takes "decompose"`) || !strings.Contains(err.Error(), `found "emulate"`) {
		t.Errorf("scaled_dot = \"emulate\": %v; want a positioned error naming the value expected and found", err)
	}
	src = golden.ReplaceOnce(t, string(base), "\nscaled_dot_why = ", "\n# scaled_dot_why = ")
	err = l.parseFile("scaled_test2.toml", []byte(golden.ReplaceOnce(t, src, `name = "sm_100"`, `name = "scaled_test2"`)))
	if err == nil || !strings.Contains(err.Error(), "scaled_test2.toml:") || !strings.Contains(err.Error(), "scaled_dot_why is missing") {
		t.Errorf("scaled_dot without scaled_dot_why: %v; want a positioned error naming the missing key", err)
	}
}
