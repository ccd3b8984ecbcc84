// vector.multi_reduction over several dimensions at once: the maximum of
// a whole 32x32 f16 tile anchored to a nested layout, into a scalar, and
// the row sums of a 4x32x32 block over its first and last dimensions.
// The reader reduces one dimension after another, the highest first
// (%m@d1 the tile's maximum along its rows, then %m over what is left);
// the scalar accumulator %acc is computed by scalar code and adds no
// layout. On gfx942, one subgroup of 64 lanes.
#tile = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [2, 2], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [1, 1], thread_strides = [1, 16]>
func.func @reduce_dims(%in: memref<32x32xf16>, %blk: memref<4x32x32xf32>, %out: memref<32xf32>, %acc: f16) -> f16
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %ph = arith.constant 0.000000e+00 : f16
  %pf = arith.constant 0.000000e+00 : f32
  %zero = arith.constant dense<0.000000e+00> : vector<32xf32>
  %x = vector.transfer_read %in[%c0, %c0], %ph {in_bounds = [true, true]} : memref<32x32xf16>, vector<32x32xf16>
  %xl = iree_vector_ext.to_layout %x to layout(#tile) : vector<32x32xf16>
  %m = vector.multi_reduction <maximumf>, %xl, %acc [0, 1] : vector<32x32xf16> to f16 // want layout "thread_tile = [1], element_tile = [1]"
  %b = vector.transfer_read %blk[%c0, %c0, %c0], %pf {in_bounds = [true, true, true]} : memref<4x32x32xf32>, vector<4x32x32xf32>
  %b_l = "iree_vector_ext.to_layout"(%b) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1, 1], batch_tile = [4, 4, 1], outer_tile = [1, 1, 1], thread_tile = [1, 8, 8], element_tile = [1, 1, 4], subgroup_strides = [0, 0, 0], thread_strides = [0, 8, 1]>}> : (vector<4x32x32xf32>) -> vector<4x32x32xf32>
  %s = vector.multi_reduction <add>, %b_l, %zero [0, 2] : vector<4x32x32xf32> to vector<32xf32>
  %s_l = "iree_vector_ext.to_layout"(%s) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [4], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [0], thread_strides = [8]>}> : (vector<32xf32>) -> vector<32xf32>
  vector.transfer_write %s_l, %out[%c0] {in_bounds = [true]} : vector<32xf32>, memref<32xf32>
  return %m : f16
}

// want status optimal
// want cost 2587
// want conversions 0
