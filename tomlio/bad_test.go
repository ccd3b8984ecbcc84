package tomlio

import (
	"testing"

	"planner/internal/golden"
)

// TestBadLayoutFiles runs every file of testdata/bad/layouts and compares
// the full error text with testdata/bad/layouts.golden.
func TestBadLayoutFiles(t *testing.T) {
	bad := golden.Catalogue{Glob: "../testdata/bad/layouts/*.toml", Least: 1, Comment: "#", Golden: "../testdata/bad/layouts.golden"}
	bad.Run(t, func(t *testing.T, name string, data []byte) error {
		_, err := ParseLayoutFile(name, data)
		return err
	})
}
