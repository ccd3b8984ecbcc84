// A row sum over a K the kernel learns at run time: the loop's upper
// bound is a function argument, so its trip count is given with --trips
// and the plan says it was assumed. Two functions: --func picks one.
func.func @row_sum(%a: memref<64x?xf16>, %out: memref<64xf32>, %k: index) attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %p = arith.constant 0.000000e+00 : f16
  %zero = arith.constant dense<0.000000e+00> : vector<64xf32>
  %zero_l = "iree_vector_ext.to_layout"(%zero) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8], batch_tile = [1], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [8]>}> : (vector<64xf32>) -> vector<64xf32>
  %sum = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero_l) -> (vector<64xf32>) {
    %acc_l = "iree_vector_ext.to_layout"(%acc) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8], batch_tile = [1], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [8]>}> : (vector<64xf32>) -> vector<64xf32>
    %t = vector.transfer_read %a[%c0, %i], %p {in_bounds = [true, true]} : memref<64x?xf16>, vector<64x64xf16>
    %t_l = "iree_vector_ext.to_layout"(%t) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
    %w = arith.extf %t_l : vector<64x64xf16> to vector<64x64xf32>
    %w_l = "iree_vector_ext.to_layout"(%w) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf32>) -> vector<64x64xf32>
    %s = vector.multi_reduction <add>, %w_l, %acc_l [1] : vector<64x64xf32> to vector<64xf32>
    %s_l = "iree_vector_ext.to_layout"(%s) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8], batch_tile = [1], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [8]>}> : (vector<64xf32>) -> vector<64xf32>
    scf.yield %s_l : vector<64xf32>
  }
  %sum_l = "iree_vector_ext.to_layout"(%sum) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8], batch_tile = [1], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [8]>}> : (vector<64xf32>) -> vector<64xf32>
  vector.transfer_write %sum_l, %out[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32>
  return
}

func.func @copy(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %v = vector.transfer_read %a[%c0], %p {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  vector.transfer_write %v, %b[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32>
  return
}
