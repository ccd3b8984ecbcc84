package intrinsics

import "testing"

// BenchmarkLoad parses every built-in target and record, as planner
// intrinsics check and list do; BenchmarkOpen is what planner solve does
// before its build: Open, then the records of sm_80 (go test ./intrinsics
// -bench 'Load|Open' -benchmem).
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		lib, err := Open()
		if err != nil {
			b.Fatal(err)
		}
		if recs, err := lib.Offered(lib.Targets["sm_80"]); err != nil || len(recs) == 0 {
			b.Fatal("sm_80 offers no records", err)
		}
	}
}
