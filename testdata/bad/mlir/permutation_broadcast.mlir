// A transfer_read of shared memory that broadcasts through a 0 in its permutation map.
func.func @k(%s: memref<32x64xf32, #gpu.address_space<workgroup>>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %s[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<32x64xf32, #gpu.address_space<workgroup>>, vector<32x64xf32> // want bad-value: permutation_map affine_map<(d0, d1) -> (0, d1)> broadcasts (a result 0): the planner reads a broadcast only from global memory
  %y = math.exp %x : vector<32x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
