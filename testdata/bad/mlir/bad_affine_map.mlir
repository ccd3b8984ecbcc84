// A permutation map naming a dimension it does not declare.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (d2, d0)>} : memref<32x64xf32>, vector<64x32xf32> // want syntax: d2 is neither a dimension nor a symbol of the affine map (declared: d0, d1)
  %y = math.exp %x : vector<64x32xf32>
  %z = vector.transpose %y, [1, 0] : vector<64x32xf32> to vector<32x64xf32>
  vector.transfer_write %z, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
