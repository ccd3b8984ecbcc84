// A vector op the reader does not know, in its custom form.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %m = vector.interleave %x, %x : vector<32x64xf32> -> vector<32x128xf32> // want unknown-name: vector.interleave is not understood, and it touches vectors (%x, vector<...>)
  %y = math.exp %x : vector<32x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
