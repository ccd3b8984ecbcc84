package solver

import (
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
)

func TestParseStatm(t *testing.T) {
	cases := []struct {
		line string
		want uint64
		ok   bool
	}{
		{"12345 678 90 1 0 300 0\n", 678 * 4096, true},
		{"1 2", 2 * 4096, true},
		{"12345", 0, false},
		{"", 0, false},
		{"1 x 3", 0, false},
	}
	for _, c := range cases {
		got, ok := parseStatm([]byte(c.line), 4096)
		if got != c.want || ok != c.ok {
			t.Errorf("parseStatm(%q) = %d, %v; want %d, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// Memory the process holds outside the Go heap (here an anonymous
// mapping, as a C library or a large binary would hold) counts against a
// memory limit: MemoryHeld reads the resident set.
func TestMemoryHeldCountsMemoryOutsideTheHeap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the resident set is read from /proc on Linux")
	}
	const size = 64 << 20
	// Give the heap earlier tests left back first: the scavenger
	// returning it while the test runs would hide the growth.
	debug.FreeOSMemory()
	before := MemoryHeld()
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	for i := 0; i < size; i += 4096 {
		mem[i] = 1
	}
	if grew := int64(MemoryHeld()) - int64(before); grew < size*3/4 {
		t.Errorf("touching %d MiB outside the Go heap raised MemoryHeld by %d MiB", size>>20, grew>>20)
	}
}
