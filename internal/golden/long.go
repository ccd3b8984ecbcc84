package golden

import (
	"os"
	"testing"
)

// LongEnv names the environment variable that turns on the long sweeps:
// with PLANNER_LONG_TESTS=1, `go test ./...` also runs every test behind
// Long and the whole of every sweep that Sample cuts down. CI sets it.
const LongEnv = "PLANNER_LONG_TESTS"

// LongTests says whether the long sweeps run (PLANNER_LONG_TESTS=1).
func LongTests() bool { return os.Getenv(LongEnv) == "1" }

// Long skips the test, naming the variable, unless PLANNER_LONG_TESTS=1.
func Long(t testing.TB) {
	t.Helper()
	if !LongTests() {
		t.Skipf("a long sweep: run with %s=1 (CI does)", LongEnv)
	}
}

// Sample is all of a sweep's items with PLANNER_LONG_TESTS=1, and
// otherwise n of them spread evenly over it, the first and the last
// included (all of them when there are no more than n).
func Sample[T any](all []T, n int) []T {
	if LongTests() || len(all) <= n || n <= 0 {
		return all
	}
	if n == 1 {
		return all[:1]
	}
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, all[i*(len(all)-1)/(n-1)])
	}
	return out
}

// Count is long with PLANNER_LONG_TESTS=1 and short otherwise: the
// iterations of a random sweep, say.
func Count(short, long int) int {
	if LongTests() {
		return long
	}
	return short
}
