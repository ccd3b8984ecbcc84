// A multi_reduction that names one dimension twice.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %z = arith.constant 0.000000e+00 : f32
  %s = vector.multi_reduction <add>, %x, %z [1, 1] : vector<32x64xf32> to f32 // want bad-value: vector.multi_reduction's reduction_dims [1 1] are not distinct dimensions
  return
}
