// A WMMA GEMM tile on sm_80 in MLIR's gpu dialect: one subgroup computes
// a 16x16 f32 block of C over K = 128, 16 at a time. Each trip copies the
// 16x16 f16 tiles of A and B to workgroup memory, loads them as WMMA
// fragments (gpu.subgroup_mma_load_matrix: wmma.load.a and wmma.load.b),
// and accumulates with gpu.subgroup_mma_compute (wmma.mma) into the
// fragment the loop carries, filled with zeros before it
// (gpu.subgroup_mma_constant_matrix: wmma::fill_fragment). After the
// loop the block is scaled (gpu.subgroup_mma_elementwise) and stored to
// workgroup memory (wmma.store.d). The same problem as
// testdata/graphs/wmma_gemm_subgroup.toml (TestMLIRMatchesHandWrittenGraphs).
// The matrix ops are in IREE 3.13's syntax, as its iree-opt prints them
// (iree-base-compiler 3.13.0): leadDimension is a keyword of the load and
// store (leadDimension 16), where LLVM 19 wrote it in the attribute
// dictionary (llvm-project mlir/include/mlir/Dialect/GPU/IR/GPUOps.td,
// SubgroupMmaLoadMatrixOp, SubgroupMmaStoreMatrixOp); mlir-opt-19 cannot
// read it, so IREE judges it (mlir/judge_test.go, ireeSyntax).
module {
  gpu.module @wmma [#nvvm.target<chip = "sm_80">] {
    gpu.func @wmma_gemm(%A: memref<16x128xf16>, %B: memref<128x16xf16>)
        workgroup(%As: memref<16x16xf16, #gpu.address_space<workgroup>>, %Bs: memref<16x16xf16, #gpu.address_space<workgroup>>, %Cs: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.000000e+00 : f16
      %zero = arith.constant 0.000000e+00 : f32
      %half = arith.constant 5.000000e-01 : f32
      %acc0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c128 step %c16 iter_args(%acc_i = %acc0) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %a_g = vector.transfer_read %A[%c0, %k], %pad {in_bounds = [true, true]} : memref<16x128xf16>, vector<16x16xf16>
        vector.transfer_write %a_g, %As[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        %b_g = vector.transfer_read %B[%k, %c0], %pad {in_bounds = [true, true]} : memref<128x16xf16>, vector<16x16xf16>
        vector.transfer_write %b_g, %Bs[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
        gpu.barrier
        %a = gpu.subgroup_mma_load_matrix %As[%c0, %c0] leadDimension 16 : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %b = gpu.subgroup_mma_load_matrix %Bs[%c0, %c0] leadDimension 16 : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %acc_next = gpu.subgroup_mma_compute %a, %b, %acc_i : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %acc_next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      %scale = gpu.subgroup_mma_constant_matrix %half : !gpu.mma_matrix<16x16xf32, "COp">
      %d = gpu.subgroup_mma_elementwise mulf %acc, %scale : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %d, %Cs[%c0, %c0] leadDimension 16 : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
