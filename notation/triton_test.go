package notation_test

import (
	"strings"
	"testing"

	. "planner/model"
	"planner/notation"
)

// Element mappings of Triton's encodings, written by hand from the
// conversions to linear layouts in triton-lang/triton
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (commit 1706ecf2;
// the function each case follows is named beside it) and the encodings'
// orders in lib/Dialect/TritonGPU/IR/Dialect.cpp. Each row gives the
// register, lane and warp bases: the tensor coordinates bit k of each id
// selects. Every encoding has a case where the tensor is smaller than the
// encoding's tile (some bases become zero: copies) and a non-square one.
func TestTritonEncodingTables(t *testing.T) {
	const (
		blocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
		mma22   = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
		mfma32  = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = false}>"
		mfma16  = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16], isTransposed = false}>"
		wmma2   = "#ttg.amd_wmma<{version = 2, warpsPerCTA = [2, 2]}>"
		dpas    = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>"
		// A 16 × 32 tile of 4 warps.
		linear1632 = "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>"
	)
	type bases = [][]int
	lanesMMA := bases{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}
	tests := []struct {
		name      string
		enc       string
		shape     []int
		lanes     int
		warps     int
		blocks    int
		reg, lane bases
		warp      bases
		block     bases
	}{
		// BlockedEncodingAttr::toLinearLayout: registers, lanes, warps
		// in order, then register repeats in order.
		{"blocked exact", blocked, []int{32, 16}, 32, 4, 1,
			bases{{0, 1}, {0, 2}}, bases{{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, bases{{8, 0}, {16, 0}}, nil},
		{"blocked repeated", blocked, []int{64, 32}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 16}, {32, 0}}, bases{{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, bases{{8, 0}, {16, 0}}, nil},
		{"blocked smaller", blocked, []int{16, 8}, 32, 4, 1,
			bases{{0, 1}, {0, 2}}, bases{{0, 4}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}, bases{{8, 0}, {0, 0}}, nil},
		// Registers beyond a narrow tensor are dropped, not kept as
		// copies (ensureLayoutNotLargerThan without broadcastRegisters).
		{"blocked narrower than its registers", blocked, []int{32, 2}, 32, 4, 1,
			bases{{0, 1}}, bases{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}, bases{{8, 0}, {16, 0}}, nil},
		// makeCgaLayout: two CTAs split dimension 0.
		{"blocked two CTAs", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
			[]int{16, 8}, 32, 1, 2,
			bases{{4, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}, bases{}, bases{{8, 0}}},
		// Two CTAs that hold the same part (CTASplitNum 1).
		{"blocked two CTAs copied", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>",
			[]int{16, 8}, 32, 1, 2,
			bases{{4, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}, bases{}, bases{{0, 0}}},

		// NvidiaMmaEncodingAttr::toLinearLayout with nvidiaMmaTile:
		// version 2 warps row major, repeats columns first.
		{"mma v2 exact+repeat", mma22, []int{32, 32}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 16}}, lanesMMA, bases{{0, 8}, {16, 0}}, nil},
		{"mma v2 tall", mma22, []int{64, 16}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {32, 0}}, lanesMMA, bases{{0, 8}, {16, 0}}, nil},
		{"mma v2 smaller", mma22, []int{16, 8}, 32, 4, 1,
			bases{{0, 1}, {8, 0}}, lanesMMA, bases{{0, 0}, {0, 0}}, nil},
		// Batched (rank 3, batch first): warps over the batch.
		{"mma v2 batched", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1, 1], instrShape = [16, 8]}>", []int{2, 16, 16}, 32, 2, 1,
			bases{{0, 0, 1}, {0, 8, 0}, {0, 0, 8}}, bases{{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}, bases{{1, 0, 0}}, nil},
		// Version 3: registers along n to the instruction's width, warps
		// column major.
		{"mma v3 exact", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", []int{64, 64}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}}, lanesMMA, bases{{16, 0}, {32, 0}}, nil},
		{"mma v3 repeated", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", []int{128, 128}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {64, 0}}, lanesMMA, bases{{16, 0}, {32, 0}}, nil},
		{"mma v3 smaller", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", []int{32, 32}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}}, lanesMMA, bases{{16, 0}, {0, 0}}, nil},
		{"mma v3 warps column major", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 32, 16]}>", []int{32, 64}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}}, lanesMMA, bases{{16, 0}, {0, 32}}, nil},

		// nvidiaDotToLinearLayout: A's tile 16 x 8·kWidth, B's
		// 8·kWidth x 8; warps along k hold copies.
		{"dot mma A", "#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 2}>", []int{32, 32}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}}, lanesMMA, bases{{0, 0}, {16, 0}}, nil},
		{"dot mma A smaller", "#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 2}>", []int{16, 8}, 32, 4, 1,
			bases{{0, 1}, {8, 0}}, lanesMMA, bases{{0, 0}, {0, 0}}, nil},
		{"dot mma A kWidth 4", "#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 4}>", []int{16, 64}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {8, 0}, {0, 16}, {0, 32}}, bases{{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, bases{{0, 0}, {0, 0}}, nil},
		{"dot mma B", "#ttg.dot_op<{opIdx = 1, parent = " + mma22 + ", kWidth = 2}>", []int{32, 16}, 32, 4, 1,
			bases{{1, 0}, {8, 0}, {16, 0}}, bases{{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, bases{{0, 8}, {0, 0}}, nil},

		// AMDMfmaEncodingAttr::toLinearLayout: rows in registers, columns
		// in lanes, warps and repeats row major.
		{"mfma 32 exact", mfma32, []int{64, 64}, 64, 4, 1,
			bases{{1, 0}, {2, 0}, {8, 0}, {16, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}, bases{{0, 32}, {32, 0}}, nil},
		{"mfma 32 wide", mfma32, []int{32, 128}, 64, 4, 1,
			bases{{1, 0}, {2, 0}, {8, 0}, {16, 0}, {0, 64}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}, bases{{0, 32}, {0, 0}}, nil},
		{"mfma 32 smaller", mfma32, []int{16, 16}, 64, 4, 1,
			bases{{1, 0}, {2, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}, {4, 0}}, bases{{0, 0}, {0, 0}}, nil},
		{"mfma 16 transposed", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16], isTransposed = true}>", []int{64, 16}, 64, 4, 1,
			bases{{0, 1}, {0, 2}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}}, bases{{16, 0}, {32, 0}}, nil},

		// mfmaDotToLinearLayout: kWidth k in registers, lanes along the
		// non-k dimension then k, registers over the rest of k.
		{"dot mfma A", "#ttg.dot_op<{opIdx = 0, parent = " + mfma32 + ", kWidth = 4}>", []int{64, 16}, 64, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 8}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}}, bases{{0, 0}, {32, 0}}, nil},
		{"dot mfma B smaller", "#ttg.dot_op<{opIdx = 1, parent = " + mfma32 + ", kWidth = 4}>", []int{8, 32}, 64, 4, 1,
			bases{{1, 0}, {2, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}, bases{{0, 0}, {0, 0}}, nil},
		{"dot mfma16 A", "#ttg.dot_op<{opIdx = 0, parent = " + mfma16 + ", kWidth = 8}>", []int{32, 64}, 64, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 4}, {0, 32}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}}, bases{{0, 0}, {16, 0}}, nil},

		// AMDWmmaEncodingAttr::toLinearLayout: version 2 eight rows in
		// registers, lanes 16..31 the next eight; version 1 every other
		// row, lanes 16..31 the rows between.
		{"wmma v2 exact", wmma2, []int{32, 32}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, bases{{0, 16}, {16, 0}}, nil},
		{"wmma v2 wide", wmma2, []int{16, 64}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {0, 32}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, bases{{0, 16}, {0, 0}}, nil},
		{"wmma v2 smaller", wmma2, []int{8, 16}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}}, bases{{0, 0}, {0, 0}}, nil},
		{"wmma v1", "#ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 1]}>", []int{16, 16}, 32, 1, 1,
			bases{{2, 0}, {4, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}, bases{}, nil},
		// wmmaDotOperandToLinearLayout.
		{"dot wmma v2 A", "#ttg.dot_op<{opIdx = 0, parent = " + wmma2 + ", kWidth = 8}>", []int{32, 32}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 4}, {0, 16}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}, bases{{0, 0}, {16, 0}}, nil},
		{"dot wmma v1 B smaller", "#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 1, warpsPerCTA = [2, 2]}>, kWidth = 16}>", []int{16, 16}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}}, bases{{0, 0}, {0, 0}}, nil},

		// DPAStoLinearLayout (intel/intel-xpu-backend-for-triton
		// third_party/intel/lib/Dialect/TritonIntelGPU/IR/
		// LinearLayoutConversions.cpp): C rows in registers, columns in
		// lanes; A two k per lane, two rows per warp of lanes; B k in
		// registers.
		{"dpas C", dpas, []int{16, 32}, 16, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}}, bases{{0, 16}, {8, 0}}, nil},
		{"dpas C repeated", dpas, []int{32, 64}, 16, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {0, 32}, {16, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}}, bases{{0, 16}, {8, 0}}, nil},
		{"dpas C smaller", dpas, []int{8, 16}, 16, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}}, bases{{0, 0}, {0, 0}}, nil},
		{"dpas A", "#ttg.dot_op<{opIdx = 0, parent = " + dpas + ", kWidth = 1}>", []int{16, 32}, 16, 4, 1,
			bases{{0, 1}, {2, 0}, {4, 0}, {0, 16}}, bases{{0, 2}, {0, 4}, {0, 8}, {1, 0}}, bases{{0, 0}, {8, 0}}, nil},
		{"dpas B", "#ttg.dot_op<{opIdx = 1, parent = " + dpas + ", kWidth = 2}>", []int{16, 32}, 16, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}}, bases{{0, 16}, {0, 0}}, nil},
		{"dpas 8 lanes rep cluster", "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 8, opsPerChan = 2, threadsPerWarp = 8, warpsPerCTA = [1, 1], repCluster = [2, 1]}>", []int{16, 8}, 8, 1, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}}, bases{{0, 1}, {0, 2}, {0, 4}}, bases{}, nil},

		// fmaDotToLinearLayout: a thread holds all of k.
		{"dot blocked A", "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>", []int{32, 8}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 4}, {16, 0}}, bases{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}, bases{{0, 0}, {8, 0}}, nil},
		{"dot blocked B", "#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>", []int{4, 16}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {0, 8}}, bases{{0, 1}, {0, 2}, {0, 0}, {0, 0}, {0, 0}}, bases{{0, 4}, {0, 0}}, nil},
		{"dot blocked A smaller", "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>}>", []int{4, 2}, 32, 4, 1,
			bases{{0, 1}}, bases{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {0, 0}}, bases{{0, 0}, {0, 0}}, nil},

		// sliceToLinearLayout: the parent with an extent-1 dimension.
		{"slice of blocked", "#ttg.slice<{dim = 1, parent = " + blocked + "}>", []int{32}, 32, 4, 1,
			bases{}, bases{{0}, {0}, {1}, {2}, {4}}, bases{{8}, {16}}, nil},
		{"slice of blocked repeated", "#ttg.slice<{dim = 1, parent = " + blocked + "}>", []int{64}, 32, 4, 1,
			bases{{32}}, bases{{0}, {0}, {1}, {2}, {4}}, bases{{8}, {16}}, nil},
		{"slice of blocked smaller", "#ttg.slice<{dim = 1, parent = " + blocked + "}>", []int{16}, 32, 4, 1,
			bases{}, bases{{0}, {0}, {1}, {2}, {4}}, bases{{8}, {0}}, nil},
		{"slice of mma", "#ttg.slice<{dim = 0, parent = " + mma22 + "}>", []int{32}, 32, 4, 1,
			bases{{1}, {16}}, bases{{2}, {4}, {0}, {0}, {0}}, bases{{8}, {0}}, nil},
		{"slice of mma smaller", "#ttg.slice<{dim = 0, parent = " + mma22 + "}>", []int{8}, 32, 4, 1,
			bases{{1}}, bases{{2}, {4}, {0}, {0}, {0}}, bases{{0}, {0}}, nil},

		// #ttg.linear: the bases as written, older prefix included.
		{"linear", "#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>", []int{16, 8}, 32, 1, 1,
			bases{{0, 1}, {8, 0}}, lanesMMA, bases{}, nil},
		{"linear old prefix", "#triton_gpu.linear<{register = [[1, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[8, 0]], block = []}>", []int{16, 8}, 32, 2, 1,
			bases{{1, 0}}, bases{{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, bases{{8, 0}}, nil},
		{"linear with copies", "#ttg.linear<{register = [[1]], lane = [[2], [4], [0], [0], [0]], warp = [[0]]}>", []int{8}, 32, 2, 1,
			bases{{1}}, bases{{2}, {4}, {0}, {0}, {0}}, bases{{0}}, nil},

		// Encodings of Triton 3.9, each as Triton's own toLinearLayout
		// gives it (Gluon's to_linear_layout, triton 3.9.0).
		// LinearEncodingAttr::toLinearLayout: a larger tensor repeats in
		// registers, a smaller one zeroes the coordinates beyond it.
		{"linear larger tensor", linear1632, []int{32, 64}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 32}, {16, 0}}, bases{{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, bases{{4, 0}, {8, 0}}, nil},
		{"linear smaller tensor", linear1632, []int{16, 16}, 32, 4, 1,
			bases{{0, 1}, {0, 2}}, bases{{0, 4}, {0, 8}, {0, 0}, {1, 0}, {2, 0}}, bases{{4, 0}, {8, 0}}, nil},
		{"linear much smaller tensor", linear1632, []int{2, 2}, 32, 4, 1,
			bases{{0, 1}}, bases{{0, 0}, {0, 0}, {0, 0}, {1, 0}, {0, 0}}, bases{{0, 0}, {0, 0}}, nil},
		{"slice of linear", "#ttg.slice<{dim = 1, parent = " + linear1632 + "}>", []int{64}, 32, 4, 1,
			bases{{16}, {32}}, bases{{0}, {0}, {0}, {1}, {2}}, bases{{4}, {8}}, nil},
		// NvidiaMmaEncodingAttr::toLinearLayout with other tiles.
		{"mma v2 16x16 tile", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>", []int{64, 64}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 32}, {32, 0}}, lanesMMA, bases{{0, 16}, {16, 0}}, nil},
		{"mma v2 batched instrShape", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2, 2], instrShape = [1, 16, 8]}>", []int{2, 64, 64}, 32, 4, 1,
			bases{{0, 0, 1}, {0, 8, 0}, {0, 0, 16}, {0, 0, 32}, {0, 32, 0}, {1, 0, 0}}, bases{{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}, bases{{0, 0, 8}, {0, 16, 0}}, nil},
		{"mma v3 two-entry instrShape", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64]}>", []int{64, 64}, 32, 4, 1,
			bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}}, lanesMMA, bases{{16, 0}, {32, 0}}, nil},
		// AMDMfmaEncodingAttr::toLinearLayout: tilesPerWarp, 64-bit
		// elements, 4 × 64 tiles; mfmaDotToLinearLayout with them.
		{"mfma tiles per warp", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false, tilesPerWarp = [2, 1]}>", []int{128, 128}, 64, 4, 1,
			bases{{1, 0}, {2, 0}, {8, 0}, {16, 0}, {0, 64}, {32, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}, bases{{0, 32}, {64, 0}}, nil},
		{"mfma f64", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 64}>", []int{64, 64}, 64, 4, 1,
			bases{{4, 0}, {8, 0}, {0, 32}, {32, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}}, bases{{0, 16}, {16, 0}}, nil},
		{"mfma 64x4 transposed", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [64, 4, 4], isTransposed = true}>", []int{64, 64}, 64, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}}, bases{{0, 4}, {0, 0}}, nil},
		{"dot mfma tiles per warp A", "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false, tilesPerWarp = [2, 2]}>, kWidth = 4}>", []int{128, 128}, 64, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 16}, {0, 32}, {0, 64}, {16, 0}, {64, 0}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}}, bases{{0, 0}, {32, 0}}, nil},
		{"dot mfma 4x64 B", "#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [4, 64, 4], isTransposed = false}>, kWidth = 4}>", []int{128, 128}, 64, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}}, bases{{0, 64}, {0, 0}}, nil},
		{"dot mfma batched B", "#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2, 1], instrShape = [32, 32, 8], isTransposed = false}>, kWidth = 4}>", []int{4, 128, 64}, 64, 4, 1,
			bases{{0, 1, 0}, {0, 2, 0}, {0, 8, 0}, {0, 16, 0}, {0, 32, 0}, {0, 64, 0}, {0, 0, 32}, {2, 0, 0}}, bases{{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 0, 8}, {0, 0, 16}, {0, 4, 0}}, bases{{0, 0, 0}, {1, 0, 0}}, nil},
		// AMDWmmaEncodingAttr as Triton 3.9 writes it.
		{"wmma 3.9 transposed", "#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 16]}>", []int{64, 64}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 4}, {0, 32}, {32, 0}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}, bases{{0, 16}, {16, 0}}, nil},
		{"wmma 3.9 warps down", "#ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = [[1, 0], [2, 0]]}, instrShape = [16, 16, 32]}>", []int{128, 32}, 32, 4, 1,
			bases{{1, 0}, {2, 0}, {4, 0}, {0, 16}, {64, 0}}, bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}, bases{{16, 0}, {32, 0}}, nil},
		{"dot wmma 3.9 A", "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 16]}>, kWidth = 4}>", []int{64, 64}, 32, 4, 1,
			bases{{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}, {32, 0}}, bases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}}, bases{{0, 0}, {16, 0}}, nil},
		// A blocked layout's CTAs as Triton 3.9 writes them.
		{"blocked CGALayout", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[2, 0], [1, 0]]}>", []int{64, 64}, 32, 4, 4,
			bases{{0, 1}, {0, 2}, {0, 32}}, bases{{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}, bases{{4, 0}, {8, 0}}, bases{{32, 0}, {16, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Frame{Shape: tc.shape, SubgroupSize: tc.lanes, Subgroups: tc.warps, Blocks: tc.blocks}
			n, err := notation.ParseTriton(tc.enc, Pos{File: "enc", Line: 1, Col: 1})
			if err != nil {
				t.Fatal(err)
			}
			got, err := n.Layout(f)
			if err != nil {
				t.Fatal(err)
			}
			if tc.block == nil {
				tc.block = [][]int{}
			}
			want, err := (&notation.Linear{Register: tc.reg, Lane: tc.lane, Warp: tc.warp, Block: tc.block}).Layout(f)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				x, _ := notation.ExpressLinear(got)
				t.Fatalf("%s on %v builds\n  %s\nwant\n  %s", tc.enc, tc.shape, x.Attr(), (&notation.Linear{Register: tc.reg, Lane: tc.lane, Warp: tc.warp, Block: tc.block}).Attr())
			}
			// Written in the Triton notation and read back, the layout
			// is the same.
			w, err := notation.ExpressTriton(got)
			if err != nil {
				t.Fatal(err)
			}
			back, err := notation.ParseTriton(w.Attr(), Pos{File: "enc", Line: 1, Col: 1})
			if err != nil {
				t.Fatalf("%s does not read back: %v", w.Attr(), err)
			}
			if l, err := back.Layout(f); err != nil || !l.Equal(got) {
				t.Fatalf("written as %s it builds a different layout (%v)", w.Attr(), err)
			}
		})
	}
}

// Any attribute text either reads as an encoding or is an error; reading
// and building never panic, and what reads prints as text that reads back
// as the same encoding.
func FuzzTritonAttr(f *testing.F) {
	for _, s := range []string{
		"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
		"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>",
		"#triton_gpu.slice<{dim = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>}>",
		"#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]], warp = [[0, 4], [0, 8]], block = []}>",
		"#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
		"#ttg.dot_op<{opIdx = 1, parent = #blocked}>", "#ttg.blocked<{", "[[[", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := notation.ParseTriton(s, Pos{File: "enc", Line: 1, Col: 1})
		if err != nil {
			return
		}
		back, err := notation.ParseTriton(n.Attr(), Pos{File: "enc", Line: 1, Col: 1})
		if err != nil || back.Attr() != n.Attr() {
			t.Fatalf("%q prints as %q, which reads back as %v (%v)", s, n.Attr(), back, err)
		}
		for _, fr := range []Frame{{Shape: []int{16, 16}, SubgroupSize: 32, Subgroups: 4}, {Shape: []int{64, 32}, SubgroupSize: 64, Subgroups: 4}, {Shape: []int{32}, SubgroupSize: 32, Subgroups: 1}} {
			n.Layout(fr)
		}
	})
}

// A layout built from a named encoding is written back under that name
// when no better-fitting encoding gives it too.
func TestTritonWritesByName(t *testing.T) {
	const mma22 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
	tests := []struct {
		enc          string
		shape        []int
		lanes, warps int
	}{
		{mma22, []int{32, 32}, 32, 4},
		{"#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", []int{64, 64}, 32, 4},
		{"#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 2}>", []int{32, 32}, 32, 4},
		{"#ttg.dot_op<{opIdx = 1, parent = " + mma22 + ", kWidth = 2}>", []int{32, 16}, 32, 4},
		{"#ttg.slice<{dim = 0, parent = " + mma22 + "}>", []int{32}, 32, 4},
		{"#ttg.slice<{dim = 1, parent = " + mma22 + "}>", []int{64}, 32, 4},
		{"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = false}>", []int{64, 64}, 64, 4},
		{"#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32], isTransposed = true}>", []int{32, 128}, 64, 4},
		{"#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = false}>, kWidth = 8}>", []int{128, 64}, 64, 4},
		// wmma as Triton 3.9 writes it, whose verifier refuses warpsPerCTA.
		{"#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 16]}>", []int{32, 32}, 32, 4},
		{"#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}, instrShape = [16, 16, 16]}>, kWidth = 8}>", []int{32, 64}, 32, 4},
		{"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>", []int{64, 32}, 32, 4},
	}
	for _, tc := range tests {
		n, err := notation.ParseTriton(tc.enc, Pos{File: "enc", Line: 1, Col: 1})
		if err != nil {
			t.Fatal(err)
		}
		l, err := n.Layout(Frame{Shape: tc.shape, SubgroupSize: tc.lanes, Subgroups: tc.warps})
		if err != nil {
			t.Fatal(err)
		}
		w, err := notation.Express("triton", l)
		if err != nil {
			t.Fatal(err)
		}
		if w.Attr() != n.Attr() {
			t.Errorf("%v of %s is written\n  %s", tc.shape, n.Attr(), w.Attr())
		}
	}
}

// A layout is named only by the matrix encodings of the target's vendor:
// the same 32-lane map is an AMD wave32 wmma accumulator on gfx11 and
// something else on an NVIDIA warp, which has no #ttg.amd_wmma; and the
// reverse for mma.sync's accumulator. With no vendor every encoding is
// tried.
func TestTritonNamesByVendor(t *testing.T) {
	wmma := "#ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 4]}>"
	mma := "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
	tests := []struct {
		enc    string
		shape  []int
		vendor string
		named  bool // whether it is written by its own encoding's name
	}{
		{wmma, []int{16, 64}, "amd", true},
		{wmma, []int{16, 64}, "", true},
		{wmma, []int{16, 64}, "nvidia", false},
		{"#ttg.slice<{dim = 0, parent = " + wmma + "}>", []int{64}, "amd", true},
		{"#ttg.slice<{dim = 0, parent = " + wmma + "}>", []int{64}, "nvidia", false},
		{mma, []int{32, 16}, "nvidia", true},
		{mma, []int{32, 16}, "", true},
		{mma, []int{32, 16}, "amd", false},
	}
	for _, tc := range tests {
		n, err := notation.ParseTriton(tc.enc, Pos{File: "enc", Line: 1, Col: 1})
		if err != nil {
			t.Fatal(err)
		}
		l, err := n.Layout(Frame{Shape: tc.shape, SubgroupSize: 32, Subgroups: 4})
		if err != nil {
			t.Fatal(err)
		}
		got, err := notation.ExpressTritonFor(l, notation.AnyRole, notation.TritonTarget{Vendor: tc.vendor})
		if err != nil {
			t.Fatal(err)
		}
		family := "#ttg.amd_wmma<"
		if strings.Contains(tc.enc, "nvidia_mma") {
			family = "#ttg.nvidia_mma<"
		}
		if named := strings.Contains(got.Attr(), family); named != tc.named {
			t.Errorf("%s on %v for vendor %q is written %s (want by its own name: %v)", tc.enc, tc.shape, tc.vendor, got.Attr(), tc.named)
		}
	}
}
