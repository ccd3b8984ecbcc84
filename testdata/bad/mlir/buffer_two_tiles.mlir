// One shared buffer read as two different tiles.
func.func @k() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f16
  %a = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  %x = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32x64xf16>
  %y = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<16x64xf16> // want shape-mismatch: vector.transfer_read touches a [16 64] tile of %a, but an access at testdata/bad/mlir/buffer_two_tiles.mlir:5:3 touched [32 64]
  return
}
