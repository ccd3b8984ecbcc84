// A vector.reduction in the generic form with no kind attribute.
func.func @k(%in: memref<64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0], %p {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  %s = "vector.reduction"(%x) : (vector<64xf32>) -> f32 // want bad-value: has no kind attribute
  return
}
