package intrinsics

import (
	"testing"

	"planner/model"
)

// The two-dimensional views of the 16-block MFMA 4x4x4 (model.Record.
// BlockViews) against tables built from the calculator's formulas for the
// 16 blocks (gfx9Input and gfx9Output: InstCalcGfx9 of
// ROCm/amd_matrix_instruction_calculator): element (i, j) of block b is
// element (i, 4b + j) of the view with its blocks along N, and
// (4b + i, j) of the view along M; the operand without that dimension
// is the same in every block, so each of its elements is held by one lane
// of every block.
func TestMFMA4x4BlockViewsAgainstCalculator(t *testing.T) {
	lib := amdLibrary(t)
	r := amdRecord(t, lib, "mfma_f32_4x4x4_16b_f16")
	const m, n, k, blocks = 4, 4, 4, 16
	views := r.BlockViews()
	if len(views) != 2 {
		t.Fatalf("%d views, want blocks along M and along N", len(views))
	}
	for _, v := range views {
		along := v.BlocksAlong
		wantM, wantN := m, n*blocks
		if along == model.BlocksAlongM {
			wantM, wantN = m*blocks, n
		}
		if v.Blocks != 1 || v.Base != r || v.M != wantM || v.N != wantN || v.K != k || v.Cost != r.Cost || v.Name != r.Name {
			t.Fatalf("view along %s: %d blocks, tile %dx%dx%d, cost %d; want 1 block of %dx%dx%d at cost %d", along, v.Blocks, v.M, v.N, v.K, v.Cost, wantM, wantN, k, r.Cost)
		}
		// place says where element (i, j) of block b of an operand lies
		// in the view: the block index joins M or N, or drops out.
		place := func(op string, b, i, j int) []int {
			switch {
			case along == model.BlocksAlongN && op == "a", along == model.BlocksAlongM && op == "b":
				return []int{i, j}
			case along == model.BlocksAlongN:
				return []int{i, 4*b + j}
			}
			return []int{4*b + i, j}
		}
		for _, op := range []string{"a", "b", "c"} {
			values := 4
			tb := newAMDTable(64, values)
			for b := range blocks {
				for i := range 4 {
					for j := range 4 {
						var slot, lane int
						switch op {
						case "a": // (row i, k j)
							slot, lane = gfx9Input(m, k, blocks, i, j, b)
						case "b": // (k i, column j)
							slot, lane = gfx9Input(n, k, blocks, j, i, b)
						default:
							slot, lane = gfx9Output(m, n, i, j, b)
						}
						tb.put(t, lane, slot, place(op, b, i, j)...)
					}
				}
			}
			o := v.Operands[op]
			checkTable(t, "mfma_f32_4x4x4_16b_f16 along "+along+" "+op, o.Layout, values, 64, 1, tb.want(t))
			shared := along == model.BlocksAlongN && op == "a" || along == model.BlocksAlongM && op == "b"
			if o.Duplicated != shared || o.Layout.Duplicated() != shared {
				t.Errorf("view along %s, operand %s: duplicated %v (layout %v), want %v", along, op, o.Duplicated, o.Layout.Duplicated(), shared)
			}
		}
	}
	if v, err := r.BlockView("K"); err == nil {
		t.Errorf("a view with blocks along K: %v", v)
	}
	if views := amdRecord(t, lib, "mfma_f32_16x16x16_f16").BlockViews(); views != nil {
		t.Errorf("a record of one block has views: %v", views)
	}
}
