// A contraction whose K does not agree between A and B.
func.func @k(%in: memref<32x64xf16>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f16
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf16>, vector<16x32xf16>
  %b = vector.transfer_read %in[%c0, %c0], %p : memref<32x64xf16>, vector<16x8xf16>
  %acc = arith.constant dense<0.000000e+00> : vector<16x8xf32>
  %y = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %b, %acc : vector<16x32xf16>, vector<16x8xf16> into vector<16x8xf32> // want shape-mismatch: mma needs A M×K, B K×N, C M×N: found A [16 32], B [16 8], C [16 8]
  return
}
