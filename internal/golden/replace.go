package golden

import (
	"strings"
	"testing"
)

// ReplaceOnce is s with old replaced by new, where old occurs in s exactly
// once; otherwise the test fails, naming old and how often it occurs. A
// test that edits its input to make a case uses it, so that an input
// changed under it cannot leave the edit undone and the case testing
// nothing.
func ReplaceOnce(t testing.TB, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 || old == "" {
		t.Fatalf("ReplaceOnce: %q occurs %d times in the text, want once", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// ReplaceEvery is s with every old replaced by new, where old occurs in s
// at least once; otherwise the test fails, naming old.
func ReplaceEvery(t testing.TB, s, old, new string) string {
	t.Helper()
	if old == "" || !strings.Contains(s, old) {
		t.Fatalf("ReplaceEvery: %q does not occur in the text", old)
	}
	return strings.ReplaceAll(s, old, new)
}

// ReplaceFirst is s with the first old replaced by new, for a text that
// repeats old where the test means its first (and says where, as by
// strings.Index); the test fails when old does not occur.
func ReplaceFirst(t testing.TB, s, old, new string) string {
	t.Helper()
	if old == "" || !strings.Contains(s, old) {
		t.Fatalf("ReplaceFirst: %q does not occur in the text", old)
	}
	return strings.Replace(s, old, new, 1)
}
