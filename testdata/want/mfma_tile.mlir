// An amdgpu.mfma in a loop read as one subgroup's work: it runs on its record,
// the loop carrying its accumulator in the record's layout, with no conversion.
//
// One subgroup's 16x16 f32 tile on gfx942 in MLIR's amdgpu dialect: a K
// loop of 4 trips copies 16x16 f16 tiles of A (M×K) and of B (stored N×K)
// to workgroup memory, each lane loads its share of the operands with a
// vector.load (4 f16 along K), and amdgpu.mfma (16x16x16, f16 into f32)
// accumulates into the vector<4xf32> the loop carries. The result is
// doubled and stored. The lane-level vectors are read as the tiles they
// are part of, pinned to the fragments of mfma_f32_16x16x16_f16
// (docs/mlir.md, "Matrix ops").
// amdgpu.mfma is in IREE 3.13's syntax, as its iree-opt prints it
// (iree-base-compiler 3.13.0): its shape MxNxK comes before its operands
// (llvm-project mlir/include/mlir/Dialect/AMDGPU/IR/AMDGPUOps.td, MFMAOp,
// custom<MNKDimensionList>), and blocks, cbsz, abid and blgp at their
// defaults (1, 0, 0, none) are not written; LLVM 19 wrote them all in the
// attribute dictionary. mlir-opt-19 cannot read it, so IREE judges the
// kernel (mlir/judge_test.go, ireeSyntax).
module {
  gpu.module @mfma [#rocdl.target<chip = "gfx942">] {
    gpu.func @mfma_tile(%A: memref<16x64xf16>, %Bt: memref<16x64xf16>, %C: memref<16x16xf32>)
        workgroup(%As: memref<16x16xf16, #gpu.address_space<workgroup>>, %Bs: memref<16x16xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %pad = arith.constant 0.000000e+00 : f16
      %lane = gpu.lane_id
      %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
      %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc_i = %zero) -> (vector<4xf32>) { // want layout "#ttg.linear<{register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], warp = [], block = []}>"
        %a_g = vector.transfer_read %A[%c0, %k], %pad {in_bounds = [true, true]} : memref<16x64xf16>, vector<16x16xf16>
        vector.transfer_write %a_g, %As[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        %b_g = vector.transfer_read %Bt[%c0, %k], %pad {in_bounds = [true, true]} : memref<16x64xf16>, vector<16x16xf16>
        vector.transfer_write %b_g, %Bs[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        gpu.barrier
        %a = vector.load %As[%lane, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<4xf16>
        %b = vector.load %Bs[%lane, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<4xf16> // want layout "#ttg.linear<{register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], warp = [], block = []}>"
        %acc_next = amdgpu.mfma 16x16x16 %a * %b + %acc_i : vector<4xf16>, vector<4xf16>, vector<4xf32> // want intrinsic "mfma_f32_16x16x16_f16"
        scf.yield %acc_next : vector<4xf32>
      }
      %d = arith.addf %acc, %acc : vector<4xf32>
      vector.store %d, %C[%lane, %c0] : memref<16x16xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// want subgroups 1
// want cost 768
// want conversions 0
