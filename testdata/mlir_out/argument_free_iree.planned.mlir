// A vector argument no anchor pins is a value the plan lays out: it
// arrives in whatever layout the plan chooses (at no cost), and the
// kernel written back anchors it with IREE's own op, an
// iree_vector_ext.to_layout at the top of the function.
//
// A 64x32 f16 tile arrives as an argument on gfx942 (2 subgroups of 64
// lanes); it is widened, scaled by a row loaded from memory and written
// out. Nothing but the store and the load decides the argument's layout.
func.func @scale_rows(%x: vector<64x32xf16>, %s: memref<64x32xf32>, %out: memref<64x32xf32>) // want layout "nested_layout"
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %x_l = "iree_vector_ext.to_layout"(%x) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x32xf16>) -> vector<64x32xf16>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %w = arith.extf %x_l : vector<64x32xf16> to vector<64x32xf32>
  %w_l = "iree_vector_ext.to_layout"(%w) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x32xf32>) -> vector<64x32xf32>
  %sc = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<64x32xf32>
  %sc_l = "iree_vector_ext.to_layout"(%sc) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x32xf32>) -> vector<64x32xf32>
  %y = arith.mulf %w_l, %sc_l : vector<64x32xf32>
  %y_l = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x32xf32>) -> vector<64x32xf32>
  vector.transfer_write %y_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x32xf32>, memref<64x32xf32>
  return
}

// want status optimal
// want conversions 0
