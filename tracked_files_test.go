package planner_test

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// executableMagic are the first bytes of the executable formats a build
// here writes: ELF (Linux), Mach-O (both byte orders, 32 and 64 bits, and
// universal) and PE (MZ).
var executableMagic = [][]byte{
	{0x7f, 'E', 'L', 'F'},
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	{'M', 'Z'},
}

// isExecutable says whether a file's first bytes are those of an
// executable binary.
func isExecutable(head []byte) bool {
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// No build output is tracked: no file git holds is an executable binary.
func TestNoTrackedExecutables(t *testing.T) {
	if !isExecutable([]byte("\x7fELF\x02\x01")) || isExecutable([]byte("package main\n")) {
		t.Fatal("isExecutable does not tell an ELF header from Go source")
	}
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, name := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
		f, err := os.Open(string(name))
		if err != nil {
			continue // deleted in the work tree
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if isExecutable(head[:n]) {
			t.Errorf("%s is an executable binary: build outputs are not committed (.gitignore)", name)
		}
	}
}
