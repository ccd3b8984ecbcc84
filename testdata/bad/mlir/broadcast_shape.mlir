// A broadcast whose trailing dimension neither agrees nor is 1.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %v = arith.constant dense<1.0> : vector<48xf32>
  %b = vector.broadcast %v : vector<48xf32> to vector<32x64xf32> // want shape-mismatch: vector.broadcast of [48] to [32 64]: dimension 0 has extent 48, neither 64 nor 1
  return
}
