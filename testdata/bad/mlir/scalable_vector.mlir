// A scalable vector (ARM SVE's), which has no fixed size to lay out.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p : memref<32x64xf32>, vector<32x[4]xf32> // want bad-value: %x is the scalable vector vector<32x[4]xf32> (dimension 1 is [4])
  %y = math.exp %x : vector<32x[4]xf32>

  return
}
