package ttgir

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// Each row of encodingTargets decides its target for a module without
// ttg.target whose one tensor is in that encoding (an alias, or a
// #ttg.slice of it written in place); a version no row has decides none;
// a warp of 64 lanes makes a gfx11 target its wave64 one.
func TestTargetInferredFromEncodings(t *testing.T) {
	spell := map[string]string{
		"nvidia_mma": "#ttg.nvidia_mma<{versionMajor = %d, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
		"amd_mfma":   "#ttg.amd_mfma<{version = %d, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>",
		"amd_wmma":   "#ttg.amd_wmma<{version = %d, warpsPerCTA = [4, 1]}>",
	}
	module := func(enc string, lanes int, slice bool) string {
		typ := "tensor<64x64xf32, #mma>"
		if slice {
			typ = "tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>"
		}
		return fmt.Sprintf(`#mma = %s
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = %d : i32} {
  tt.func public @k() {
    %%z = arith.constant dense<0.000000e+00> : %s
    tt.return
  }
}
`, enc, lanes, typ)
	}
	infer := func(text string, lanes int) (string, string) {
		m, fn, err := mlirtest.Function("k.ttgir", []byte(text), reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := &ttBuilder{Builder: reader.NewBuilder(m, fn, reader.Options{})}
		inf, why := b.inferTarget(lanes)
		if inf == nil {
			return "", why
		}
		return inf.target, ""
	}
	for _, row := range encodingTargets {
		for _, slice := range []bool{false, true} {
			lanes := 32
			if strings.HasPrefix(row.target, "gfx9") {
				lanes = 64
			}
			text := module(fmt.Sprintf(spell[row.encoding], row.version), lanes, slice)
			if got, why := infer(text, lanes); got != row.target {
				t.Errorf("%s version %d (slice %v): inferred %q (%s), want %s", row.encoding, row.version, slice, got, why, row.target)
			}
		}
	}
	// Version 2 beside version 3: Triton falls back to mma.sync on sm_90.
	both := strings.Replace(module(fmt.Sprintf(spell["nvidia_mma"], 2), 32, false), "module", "#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>\nmodule", 1)
	if got, why := infer(both, 32); got != "sm_90" {
		t.Errorf("nvidia_mma versions 2 and 3: inferred %q (%s), want sm_90", got, why)
	}
	if got, why := infer(module(fmt.Sprintf(spell["amd_wmma"], 1), 64, false), 64); got != "gfx1100_wave64" {
		t.Errorf("amd_wmma version 1 on 64 lanes: inferred %q (%s), want gfx1100_wave64", got, why)
	}
	if got, why := infer(module(fmt.Sprintf(spell["amd_mfma"], 7), 64, false), 64); got != "" || !strings.Contains(why, "no encoding decides") {
		t.Errorf("amd_mfma version 7: inferred %q (%s), want none", got, why)
	}
}

// A loop whose bounds are known only at run time is priced at
// reader.AssumedTrips, which the graph's provenance says, and --trips overrides
// it.
func TestDynamicLoopDefaultTrips(t *testing.T) {
	path := "../testdata/want/inferred_target_dynamic_loop.ttgir"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, given := range []int{0, 4} {
		g, err := readKernelGraph(path, data, reader.Options{Targets: ttTargets, Trips: given})
		if err != nil {
			t.Fatal(err)
		}
		want := given
		if given == 0 {
			want = reader.AssumedTrips
		}
		var loops []*model.Loop
		g.Walk(func(op *model.Op) {
			if op.Body != nil {
				loops = append(loops, op.Body)
			}
		})
		if len(loops) != 1 || loops[0].Trips != want || !loops[0].Dynamic {
			t.Errorf("--trips %d: loops %v, want one dynamic loop of %d trips", given, loops, want)
		}
		said := strings.Contains(strings.Join(g.Provenance, "\n"), fmt.Sprintf("trips %d for the scf.for", reader.AssumedTrips))
		if said != (given == 0) {
			t.Errorf("--trips %d: the provenance %q says the default: %v", given, g.Provenance, said)
		}
	}
}
