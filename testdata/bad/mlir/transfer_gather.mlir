// IREE's gather along the source's innermost dimension (each element of a
// row from its own column), in IREE 3.13's syntax.
func.func @k(%src: memref<64x64xf32>, %cols: vector<64x64xindex>, %out: memref<64x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %v = iree_vector_ext.transfer_gather %src[%c0, %c0] [%cols : vector<64x64xindex>], %pad <indexing_maps = [affine_map<(d0, d1)[s0] -> (d0, s0)>, affine_map<(d0, d1)[s0] -> (d0, d1)>]> : memref<64x64xf32>, vector<64x64xf32> // want bad-value: gathers along the source's innermost dimension
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}
