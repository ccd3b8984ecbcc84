// A transfer_read whose permutation_map broadcasts: a bias row of 64 f32
// read into every row of a 32x64 tile ((d0) -> (0, d0)), added to a tile
// and written out. The read is a load of the row (%bias@mem, 1x64) and a
// broadcast of it along the rows. On gfx942, 2 subgroups of 64 lanes.
func.func @add_bias(%x: memref<32x64xf32>, %b: memref<64xf32>, %out: memref<32x64xf32>)
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %t = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %t_l = "iree_vector_ext.to_layout"(%t) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %bias = vector.transfer_read %b[%c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<64xf32>, vector<32x64xf32>  // want cost 0
  %bias_l = "iree_vector_ext.to_layout"(%bias) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %y = arith.addf %t_l, %bias_l : vector<32x64xf32>
  %y_l = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  vector.transfer_write %y_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}

// want status optimal
// want conversions 0
// want cost 1069
