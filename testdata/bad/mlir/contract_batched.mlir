// A batched contraction: three parallel iterators.
func.func @k(%m: memref<2x16x16xf16>, %n: memref<2x16x16xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %h = arith.constant 0.000000e+00 : f16
  %f = arith.constant 0.000000e+00 : f32
  %a = vector.transfer_read %m[%c0, %c0, %c0], %h : memref<2x16x16xf16>, vector<2x16x16xf16>
  %b = vector.transfer_read %m[%c0, %c0, %c0], %h : memref<2x16x16xf16>, vector<2x16x16xf16>
  %c = vector.transfer_read %n[%c0, %c0, %c0], %f : memref<2x16x16xf32>, vector<2x16x16xf32>
  %y = vector.contract {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x16x16xf16>, vector<2x16x16xf16> into vector<2x16x16xf32> // want bad-value: vector.contract iterates [parallel parallel parallel reduction]
  return
}
