package ttgir

import (
	"errors"
	"os"
	"strings"
	"testing"

	"planner/mlir/mlirtest"
	"planner/mlir/reader"
	"planner/model"
)

// TestDecomposedScaledPositions reads an sm_100 tt.dot_scaled as its
// decomposition (decompose.go) at the tt.dot_scaled's own position: every
// op of it, and the graph's ops made of them, are at the op's line and
// column; the graph holds a plain mma and no block-scaled one; and a
// mistake on a later line is reported where the input has it, the
// decomposition written on the op's line moving no other line.
func TestDecomposedScaledPositions(t *testing.T) {
	const path = "../testdata/want/dot_scaled_sm100.ttgir"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opt := reader.Options{Targets: ttTargets, Offered: mlirtest.Offered}
	b, err := read(path, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	at := model.Pos{File: path, Line: 61, Col: 5}
	if len(b.decomposed) != 1 || len(b.decomposed[0].ops) == 0 {
		t.Fatalf("decompositions %v, want one", b.decomposed)
	}
	for _, op := range b.decomposed[0].ops {
		if op.Pos != at {
			t.Errorf("%s of the decomposition at %s, want the tt.dot_scaled's %s", op.Name, op.Pos, at)
		}
	}
	mmas := 0
	b.Graph().Walk(func(op *model.Op) {
		if op.Kind == model.OpMMAScaled {
			t.Errorf("%s is a block-scaled mma", op.Name)
		}
		if op.Kind == model.OpMMA {
			mmas++
			if op.Pos != at {
				t.Errorf("the mma at %s, want %s", op.Pos, at)
			}
		}
	})
	if mmas != 1 {
		t.Errorf("%d mma ops, want 1", mmas)
	}
	broken := strings.Replace(string(data), "    %c_stride = arith.constant", "    %c_stride = arith.frobnicate", 1)
	_, err = read(path, []byte(broken), opt)
	var list model.ErrorList
	if !errors.As(err, &list) || len(list) == 0 || list[0].Pos.Line != 65 || list[0].Pos.Col != 5 {
		t.Errorf("an unknown op on line 65, after the decomposed line: %v, want an error at 65:5", err)
	}
}
