// A nested_layout without its thread strides.
#bad = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 8], element_tile = [4, 8], subgroup_strides = [1, 0]>
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %y = "iree_vector_ext.to_layout"(%x) <{layout = #bad}> : (vector<32x64xf32>) -> vector<32x64xf32> // want missing-key: nested_layout lacks thread_strides
  %z = math.exp %y : vector<32x64xf32>
  vector.transfer_write %z, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
