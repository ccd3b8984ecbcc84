package intrinsics

import (
	"testing"
)

func TestBuiltinLoads(t *testing.T) {
	lib, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	sm80, ok := lib.Target("sm_80")
	if !ok {
		t.Fatal("no sm_80")
	}
	if len(lib.RecordsOf(sm80, "mma")) != 3 || len(lib.RecordsOf(sm80, "load_shared")) != 6 {
		t.Fatalf("sm_80 offers %d mma and %d load records", len(lib.RecordsOf(sm80, "mma")), len(lib.RecordsOf(sm80, "load_shared")))
	}
}
