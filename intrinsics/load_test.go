package intrinsics

import (
	"testing"

	"planner/model"
)

func TestBuiltinLoads(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		target                     string
		mma, loadShared, storeShrd int
	}{
		// sm_80: three m16n8k16, m16n8k8 f16, m16n8k32 s8, m16n8k8 tf32 and
		// wmma m16n16k16; six ldmatrix and two wmma loads; one wmma store.
		{"sm_80", 7, 8, 1},
		// sm_89: sm_80's and eight FP8 m16n8k32.
		{"sm_89", 15, 8, 1},
		// sm_90: 64 wgmma (32 shapes, two accumulators), the six mma.sync
		// of sm_80 and the eight FP8 ones; six ldmatrix; six stmatrix.
		{"sm_90", 78, 6, 6},
	} {
		tg, ok := lib.Target(c.target)
		if !ok {
			t.Fatalf("no %s", c.target)
		}
		mma := len(recordsOf(t, lib, tg, model.RecordMMA))
		ld := len(recordsOf(t, lib, tg, model.RecordLoadShared))
		st := len(recordsOf(t, lib, tg, model.RecordStoreShared))
		if mma != c.mma || ld != c.loadShared || st != c.storeShrd {
			t.Fatalf("%s offers %d mma, %d load and %d store records, want %d, %d and %d",
				c.target, mma, ld, st, c.mma, c.loadShared, c.storeShrd)
		}
	}
}

// recordsOf is lib.RecordsOf, failing the test on an error.
func recordsOf(t *testing.T, lib *Library, tg *model.Target, kind model.RecordKind) []*model.Record {
	t.Helper()
	recs, err := lib.RecordsOf(tg, kind)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
