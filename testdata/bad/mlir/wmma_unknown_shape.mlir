// A WMMA product of shape m32n8k16, which no record of sm_80 runs.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%A: memref<32x16xf16>, %B: memref<16x8xf16>, %C: memref<32x8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %A[%c0, %c0] {leadDimension = 16 : index} : memref<32x16xf16> -> !gpu.mma_matrix<32x16xf16, "AOp">
    %b = gpu.subgroup_mma_load_matrix %B[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf16> -> !gpu.mma_matrix<16x8xf16, "BOp">
    %c = gpu.subgroup_mma_load_matrix %C[%c0, %c0] {leadDimension = 8 : index} : memref<32x8xf32> -> !gpu.mma_matrix<32x8xf32, "COp">
    %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<32x16xf16, "AOp">, !gpu.mma_matrix<16x8xf16, "BOp"> -> !gpu.mma_matrix<32x8xf32, "COp"> // want unknown-name: offers no record for an mma m32n8k16
    gpu.return
  }
}
