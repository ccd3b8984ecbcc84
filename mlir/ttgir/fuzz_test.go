package ttgir

import (
	"os"
	"path/filepath"
	"testing"

	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// FuzzReadTTGIR: any text given to the TTGIR front end, seeded with every
// TTGIR kernel of the repository (good and bad), is read to a graph or
// refused with errors, each at a file:line:col with a code; nothing
// panics. (The tests run from planner/mlir: TestMain.)
func FuzzReadTTGIR(f *testing.F) {
	for _, glob := range []string{"testdata/ttgir/*.ttgir", "../testdata/bad/ttgir/*.ttgir", "../examples/ttgir/*.ttgir",
		"../testdata/want/*.ttgir", "../testdata/triton/*.ttgir", "../testdata/ttgir_out/*.ttgir"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			if data, err := os.ReadFile(path); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := readKernelGraph("fuzz.ttgir", data, reader.Options{Targets: mlirtest.Targets, Offered: mlirtest.Offered, Trips: 2})
		if err != nil {
			list, ok := model.Errors(err)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T without a position: %v", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz.ttgir" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Code == model.CodeNone {
					t.Fatalf("error without a file:line:col or code: %#v", e)
				}
			}
			return
		}
		if g == nil {
			t.Fatal("no error and no graph")
		}
	})
}
