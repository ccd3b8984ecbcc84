// An op the reader does not know on a WMMA fragment is refused, as on a
// vector.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%A: memref<16x16xf16>) kernel {
    %c0 = arith.constant 0 : index
    %a = gpu.subgroup_mma_load_matrix %A[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    "my.fragment_op"(%a) : (!gpu.mma_matrix<16x16xf16, "AOp">) -> () // want unknown-name: my.fragment_op is not understood, and it touches vectors
    gpu.return
  }
}
