package planner_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"planner"
	"planner/internal/oracle"
	"planner/model"
)

// loweredConversions are the kernels of testdata/lowering, each one
// ttg.convert_layout of a 64x64 f16 tile within each warp (4 warps), and
// how the planner prices it. Triton moves data between the lanes of one
// warp with shuffles only where its decomposition of the conversion
// needs fewer than two register-lane transpositions, and through shared
// memory otherwise (cvtNeedsWarpShuffle, lib/Analysis/Utility.cpp, code
// the NVIDIA and AMD backends share); the targets say so with
// shuffle_transpositions = 1 (model.LowerShuffles). Counted by hand:
//   - sm_80, kWidth 8 to 2 of mma.m16n8k16's A (PTX ISA, "Matrix
//     Fragments for mma.m16n8k16 with floating point type": lane l holds
//     columns 2(l%4) + {0, 1} and + 8 of each 16; kWidth is the k elements
//     a lane holds together): with kWidth 8 a lane holds columns 8(l%4)
//     to 8(l%4) + 7 of each 32, so the column's bits 1 and 2 are register
//     digits there and lane digits with kWidth 2, and bits 3 and 4 the
//     other way: two transpositions, a round trip through shared memory,
//     4 stores of 8 elements and 4 ldmatrix.x4 a lane.
//   - sm_80, kWidth 4 to 2: column bit 1 moves between a register digit
//     and a lane digit, bit 3 the other way: one transposition, shuffles,
//     one a 32-bit register of the destination's 16: 16 rounds.
//   - gfx942, mfma 32x32x8's A from kWidth 16 to 4 (lanes 0-31 and 32-63
//     hold the two halves of each 8 columns with kWidth 4, of each 32
//     with kWidth 16): one transposition, 8 rounds of the 8 registers.
//   - gfx942, #ttg.blocked 4 elements a lane along the rows (lanes [16,
//     4]) to 4 along the columns (lanes [4, 16]), each wavefront on the
//     same 16 rows: the row's bits 0 and 1 and the column's trade places,
//     two transpositions, shared memory: 4 stores of 4 elements a lane,
//     and loads of 1 element from the padded scratch the planner prices
//     (16), where Triton's swizzled scratch reads 4 (loads is at most the
//     planner's).
var loweredConversions = []struct {
	file                  string
	kind                  model.ConversionKind
	rounds, stores, loads int
}{
	{"testdata/lowering/kwidth8_to_2_sm80.ttgir", model.ConvShared, 0, 4, 4},
	{"testdata/lowering/kwidth4_to_2_sm80.ttgir", model.ConvShuffle, 16, 0, 0},
	{"testdata/lowering/mfma_kwidth16_to_4_gfx942.ttgir", model.ConvShuffle, 8, 0, 0},
	{"testdata/lowering/blocked_transpose_gfx942.ttgir", model.ConvShared, 0, 4, 16},
}

// The planner prices each conversion of loweredConversions as the
// comment above counts it: the mechanism, its shuffle rounds or its
// round trip's stores and loads per lane.
func TestShuffleLowering(t *testing.T) {
	pl := testPlanner(t)
	for _, c := range loweredConversions {
		conv := inputConversion(t, pl, c.file)
		if conv.Kind != c.kind || conv.Rounds != c.rounds || conv.Stores != c.stores || conv.Loads != c.loads {
			t.Errorf("%s: %s with %d rounds, %d stores, %d loads (%s); want %s with %d, %d, %d",
				c.file, conv.Kind, conv.Rounds, conv.Stores, conv.Loads, conv.Reason(), c.kind, c.rounds, c.stores, c.loads)
		}
	}
}

// compiledAccesses are the instructions of a conversion in compiled code:
// its shuffles, shared-memory stores and shared-memory loads, for PTX
// (shfl.sync.idx; st.shared, stmatrix; ld.shared, ldmatrix) and AMDGCN
// (ds_bpermute; ds_write; ds_read).
var compiledAccesses = map[string][3]*regexp.Regexp{
	".ptx":    {regexp.MustCompile(`shfl\.sync\.idx`), regexp.MustCompile(`\b(st\.shared|stmatrix)`), regexp.MustCompile(`\b(ld\.shared|ldmatrix)`)},
	".amdgcn": {regexp.MustCompile(`\bds_bpermute`), regexp.MustCompile(`\bds_write`), regexp.MustCompile(`\bds_read`)},
}

// Triton compiles each kernel of loweredConversions with the mechanism
// the planner prices: as many shuffles as rounds and no shared memory,
// or no shuffles and a round trip of as many stores and at most as many
// loads.
func TestTritonLowersConversionsAsPriced(t *testing.T) {
	oracle.Python(t)
	pl := testPlanner(t)
	keep := t.TempDir()
	var jobs []oracle.Job
	for _, c := range loweredConversions {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, oracle.Job{Name: filepath.Base(c.file), Text: data, Compile: true, Keep: keep})
	}
	verdicts := oracle.TTGIR(t, jobs)
	for i, c := range loweredConversions {
		if !verdicts[i].OK {
			t.Errorf("%v", verdicts[i])
			continue
		}
		asm, err := filepath.Glob(filepath.Join(keep, "*"+filepath.Base(c.file)+".*"))
		if err != nil {
			t.Fatal(err)
		}
		var got [3]int
		found := false
		for _, f := range asm {
			res, ok := compiledAccesses[filepath.Ext(f)]
			if !ok {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for k, re := range res {
				got[k] = len(re.FindAllIndex(data, -1))
			}
			found = true
		}
		if !found {
			t.Fatalf("%s: no compiled assembly was kept (%v)", c.file, asm)
		}
		conv := inputConversion(t, pl, c.file)
		ok := got[0] == conv.Rounds && got[1] == conv.Stores && got[2] <= conv.Loads
		if conv.Kind == model.ConvShuffle {
			ok = ok && got[1] == 0 && got[2] == 0
		} else {
			ok = ok && got[0] == 0 && got[2] > 0
		}
		if !ok {
			t.Errorf("%s: Triton compiles %d shuffles, %d shared stores, %d shared loads; the planner prices %s (%d rounds, %d stores, %d loads)",
				c.file, got[0], got[1], got[2], conv.Kind, conv.Rounds, conv.Stores, conv.Loads)
		}
	}
}

// inputConversion is the one conversion of a TTGIR kernel's own layouts,
// as the planner prices it (model.Memo.UseCost, which --compare input
// prices the input's conversions with).
func inputConversion(t *testing.T, pl *planner.Planner, path string) *model.Conversion {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pl.SolveText(context.Background(), path, data, planner.Options{Input: planner.Input{InputLayouts: true}})
	if err != nil || res.Plan == nil {
		t.Fatalf("%s: no plan of its own layouts (%v)", path, err)
	}
	if len(res.Plan.Conv) != 1 {
		t.Fatalf("%s: %d conversions of its own layouts, want 1", path, len(res.Plan.Conv))
	}
	cv := res.Plan.Conv[0]
	u := cv.Use()
	v := model.UseValue(u)
	_, conv, err := model.NewMemo().UseCost(v, cv.From(), res.Search.Assignment.Required[u], res.Target)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return conv
}
