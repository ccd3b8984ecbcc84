package tomlio

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"planner/internal/golden"
	"planner/model"
	"planner/tomlio/tomltest"
)

// testTargets is a stand-in target map for graph parsing tests: the
// parser needs only a target's name, subgroup size, limits and record
// names and kinds (sm_80's are its real list, as intrinsics/targets/sm_80.toml
// and the records' kind keys give them; the others give none, so the names
// their graphs use go unchecked).
var testTargets = map[string]*model.Target{
	"sm_80": {Name: "sm_80", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 166912, Records: []string{
		"mma_m16n8k16_f32_f16", "mma_m16n8k16_f16_f16", "mma_m16n8k16_f32_bf16",
		"mma_m16n8k8_f32_f16", "mma_m16n8k32_s32_s8", "mma_m16n8k8_f32_tf32",
		"ldmatrix_x1", "ldmatrix_x2", "ldmatrix_x4",
		"ldmatrix_x1_trans", "ldmatrix_x2_trans", "ldmatrix_x4_trans",
		"wmma_load_a_m16n16k16_f16", "wmma_load_b_m16n16k16_f16",
		"wmma_mma_m16n16k16_f32_f16", "wmma_store_d_m16n16k16_f32",
	}, RecordKinds: map[string]model.RecordKind{
		"mma_m16n8k16_f32_f16": model.RecordMMA, "mma_m16n8k16_f16_f16": model.RecordMMA, "mma_m16n8k16_f32_bf16": model.RecordMMA,
		"mma_m16n8k8_f32_f16": model.RecordMMA, "mma_m16n8k32_s32_s8": model.RecordMMA, "mma_m16n8k8_f32_tf32": model.RecordMMA,
		"ldmatrix_x1": model.RecordLoadShared, "ldmatrix_x2": model.RecordLoadShared, "ldmatrix_x4": model.RecordLoadShared,
		"ldmatrix_x1_trans": model.RecordLoadShared, "ldmatrix_x2_trans": model.RecordLoadShared, "ldmatrix_x4_trans": model.RecordLoadShared,
		"wmma_load_a_m16n16k16_f16": model.RecordLoadShared, "wmma_load_b_m16n16k16_f16": model.RecordLoadShared,
		"wmma_mma_m16n16k16_f32_f16": model.RecordMMA, "wmma_store_d_m16n16k16_f32": model.RecordStoreShared,
	}},
	"sm_89":   {Name: "sm_89", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 101376},
	"gfx942":  {Name: "gfx942", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 65536},
	"gfx950":  {Name: "gfx950", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 163840},
	"gfx1200": {Name: "gfx1200", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 65536},
	"pvc":     {Name: "pvc", SubgroupSize: 16, MaxSubgroups: 64, SharedMemory: 131072},
	"dg2":     {Name: "dg2", SubgroupSize: 8, MaxSubgroups: 128, SharedMemory: 65536},
	"sm_90":   {Name: "sm_90", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 232448},
}

// TestBadGraphFiles runs every file of testdata/bad/graphs: each must fail
// with exactly the errors its # want comments name, on their lines, and the
// full text must match testdata/bad/graphs.golden.
func TestBadGraphFiles(t *testing.T) {
	bad := golden.Catalogue{Glob: "../testdata/bad/graphs/*.toml", Least: 25, Comment: "#", Golden: "../testdata/bad/graphs.golden"}
	bad.Run(t, func(t *testing.T, name string, data []byte) error {
		_, err := ParseGraph(name, data, testTargets)
		return err
	})
}

// Every test graph parses (on the stand-in targets, and gfx1100's in
// wave32 and wave64).
func TestGoodGraphFiles(t *testing.T) {
	targets := maps.Clone(testTargets)
	targets["gfx1100"] = &model.Target{Name: "gfx1100", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 65536}
	targets["gfx1100_wave64"] = &model.Target{Name: "gfx1100_wave64", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 65536}
	targets["bmg"] = &model.Target{Name: "bmg", SubgroupSize: 16, MaxSubgroups: 64, SharedMemory: 131072} // as intrinsics/targets/bmg.toml
	files, _ := filepath.Glob("../testdata/graphs/*.toml")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseGraph(path, data, targets); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// FuzzParseGraph: any input gives positioned errors or a graph; nothing
// panics. Texts past the bounds on nesting and key paths seed it too.
func FuzzParseGraph(f *testing.F) {
	for _, data := range tomltest.Hostile("target = \"sm_80\"\nsubgroups = 4\n") {
		f.Add(data)
	}
	for _, glob := range []string{"../testdata/graphs/*.toml", "../testdata/bad/graphs/*.toml"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			if data, err := os.ReadFile(path); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGraph("fuzz.toml", data, testTargets)
		if err != nil {
			checkPositioned(t, err, "fuzz.toml")
			return
		}
		if g == nil || len(g.Ops) == 0 {
			t.Fatal("no error and no graph")
		}
	})
}

// checkPositioned fails unless err is one or more model errors, each with
// a code and a line of file, and each related position a line of a file.
func checkPositioned(t *testing.T, err error, file string) {
	t.Helper()
	list, ok := model.Errors(err)
	if !ok {
		t.Fatalf("error %T without a position: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.File != file || e.Pos.Line < 1 || e.Code == model.CodeNone {
			t.Fatalf("error without a position or code: %#v", e)
		}
		for _, p := range e.Related {
			if p.File == "" || p.Line < 1 {
				t.Fatalf("related position without a file or line: %#v", e)
			}
		}
	}
}
