// A WMMA accumulator loaded from workgroup memory: sm_80 has no
// wmma.load.c record.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k() workgroup(%Cs: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c = gpu.subgroup_mma_load_matrix %Cs[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf32, "COp"> // want unknown-name: offers no record for a [16 16] f32 COp fragment, row major
    gpu.return
  }
}
