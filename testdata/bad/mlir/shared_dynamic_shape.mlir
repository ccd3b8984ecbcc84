// A shared-memory buffer whose size is known only at run time.
func.func @k(
    %s: memref<?x64xf32, #gpu.address_space<workgroup>>, %out: memref<32x64xf32>) // want bad-value: the shared-memory buffer %s has the shape of memref<?x64xf32, #gpu.address_space<workgroup>>, which is not constant
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %s[%c0, %c0], %p {in_bounds = [true, true]} : memref<?x64xf32, #gpu.address_space<workgroup>>, vector<32x64xf32>
  %y = math.exp %x : vector<32x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
