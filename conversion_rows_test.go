package planner_test

import (
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/notation"
)

// A conversion's round trip through shared memory reads its scratch with
// ldmatrix where the destination's lanes take the matrix fragment, as
// Triton lowers it (the compiled flash attention of docs/compiled.md reads
// V's conversion scratch with ldmatrix.sync.aligned.m8n8.x4.trans; its
// compiled transpose stores permuted vectors and reads them with
// ldmatrix.trans), and with plain vectors elsewhere.
//
// The fragments the expectations rest on, from the PTX ISA, not from the
// records: "Matrix Fragments for mma.m16n8k16 with floating point type":
// A's a0,a1 sit at row groupID = lane/4, columns (lane%4)*2 + {0,1}; B's
// b0,b1 at rows (lane%4)*2 + {0,1}, column groupID. "ldmatrix": each lane
// of a group of four receives two consecutive 16-bit elements of one
// 16-byte row, rows addressed by lanes 8i..8i+7 of matrix i; with .trans
// the element at row r, column c arrives as if at row c, column r. So an
// A fragment, consecutive along K in each lane pair, is an ldmatrix of
// K-contiguous rows; a B fragment is an ldmatrix.trans of N-contiguous rows.
func TestConversionScratchRows(t *testing.T) {
	lib, err := intrinsics.Load()
	if err != nil {
		t.Fatal(err)
	}
	const mma = `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>`
	const rowMajor = `#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>`
	const colMajor = `#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>`
	dotOp := func(idx string) string {
		return `#ttg.dot_op<{opIdx = ` + idx + `, parent = ` + mma + `, kWidth = 2}>`
	}
	for _, tc := range []struct {
		name, target, from, to string
		bits                   int
		record                 string // the load side's record, "" for plain vectors
		loads                  int    // load instructions per lane
		stores, moves          int    // store instructions and byte permutes per lane
		cost                   int64  // per trip, in the target's weights
	}{
		// B (K×N = 64×64), each of the 4 warps holding all of it: 128
		// elements a lane, 8 per ldmatrix.x4.trans; 4 stores of 16
		// bytes. sm_80 weights: issue 1, a wavefront 2, the barrier 10:
		// 4×(1+4×2) + 16×(1+4×2) + 10.
		{"row-major to mma B", "sm_80", rowMajor, dotOp("1"), 16, "ldmatrix_x4_trans", 16, 4, 0, 4*9 + 16*9 + 10},
		// A (M×K): each warp its 16 rows, 32 elements a lane, K-contiguous.
		{"row-major to mma A", "sm_80", rowMajor, dotOp("0"), 16, "ldmatrix_x4", 4, 4, 0, 4*9 + 4*9 + 10},
		// A transpose between two blocked layouts, as Triton 3.9 lowers
		// it (the compiled testdata/triton/transpose_sm80, its
		// convert_layout from colMajor to rowMajor: 16 prmt.b32, 4
		// st.shared.v4.b32, one bar.sync and 4
		// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 per lane): the
		// scratch's 16-byte rows run along the three digits the
		// destination's lanes 4, 8 and 16 select (.trans hands a lane of
		// a group of four the elements of its column across rows), and
		// the source holds all three in registers, so it stores each row
		// as one vector whose 32-bit words pair elements of two of its
		// words: a byte permute each. Per lane: 32 elements, 4 vectors of
		// 16 bytes (4 wavefronts each: 32 lanes × 16 bytes / 128),
		// 16 words permuted, 4 ldmatrix.x4 (4 matrices, a wavefront
		// each). sm_80 weights: issue 1, a wavefront 2, a move 1, the
		// barrier 10: 4×(1+4×2) + 16×1 + 4×(1+4×2) + 10.
		{"blocked transpose", "sm_80", rowMajor, colMajor, 16, "ldmatrix_x4_trans", 4, 4, 16, 4*9 + 16 + 4*9 + 10},
		{"blocked transpose back", "sm_80", colMajor, rowMajor, 16, "ldmatrix_x4_trans", 4, 4, 16, 4*9 + 16 + 4*9 + 10},
		// 32-bit elements of the same transpose: ldmatrix moves 16-bit ones.
		{"f32 blocked transpose", "sm_80", rowMajor, colMajor, 32, "", 0, 0, 0, 0},
		// 32-bit elements: ldmatrix moves 16-bit ones.
		{"f32 to mma B", "sm_80", rowMajor, dotOp("1"), 32, "", 0, 0, 0, 0},
		// The same conversion where the target offers no row-pointer
		// records (sm_80 with its ScratchRows taken away).
		{"no row records", "sm_80 without rows", rowMajor, dotOp("1"), 16, "", 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := lib.Targets["sm_80"]
			if _, err := lib.Offered(target); err != nil {
				t.Fatal(err)
			}
			if tc.target != "sm_80" {
				bare := *target
				bare.ScratchRows = nil
				target = &bare
			}
			frame := model.Frame{Shape: []int{64, 64}, SubgroupSize: target.SubgroupSize, Subgroups: 4}
			layout := func(text string) *model.Layout {
				tr, err := notation.ParseTriton(text, model.Pos{File: tc.name, Line: 1, Col: 1})
				if err != nil {
					t.Fatal(err)
				}
				l, err := tr.Layout(frame)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			from, to := layout(tc.from), layout(tc.to)
			c, err := model.Analyze(from, to, tc.bits)
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != model.ConvShared {
				t.Fatalf("a %s conversion: every case here crosses warps, a round trip through shared memory", c.Kind)
			}
			model.CountScratch(c, from, to, target, nil)
			if c.LoadRecord != tc.record {
				t.Fatalf("load side %q, want %q (loads %d of %d elements)", c.LoadRecord, tc.record, c.Loads, c.LoadVector)
			}
			if tc.record == "" {
				return
			}
			if c.Loads != tc.loads {
				t.Errorf("%d loads per lane, want %d", c.Loads, tc.loads)
			}
			if c.Stores != tc.stores || c.StoreRecord != "" || c.StoreVector != 8 || c.Moves != tc.moves {
				t.Errorf("%d stores of %d elements by %q and %d byte permutes per lane, want %d plain stores of 8 and %d permutes",
					c.Stores, c.StoreVector, c.StoreRecord, c.Moves, tc.stores, tc.moves)
			}
			if got := model.ConversionCost(c, target, from.Size(model.Lane)); got != tc.cost {
				t.Errorf("cost %d, want %d (stores %+v, loads %+v)", got, tc.cost, c.StoreAccess, c.LoadAccess)
			}
		})
	}
}
