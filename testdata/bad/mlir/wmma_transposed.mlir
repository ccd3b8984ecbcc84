// A WMMA product that reads A transposed: the WMMA records read it row
// major, and a fragment of unspecified layout cannot be transposed.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%A: memref<16x16xf16>, %B: memref<16x16xf16>, %C: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %A[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %b = gpu.subgroup_mma_load_matrix %B[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %c = gpu.subgroup_mma_load_matrix %C[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %d = gpu.subgroup_mma_compute %a, %b, %c {a_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp"> // want bad-value: has a_transpose
    gpu.return
  }
}
