// A read of private memory (registers spilled by the compiler), not planned.
func.func @k(
    %m: memref<32x64xf32, #gpu.address_space<private>>) // want unknown-name: %m is in memory space #gpu.address_space<private>, which the planner does not know
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %m[%c0, %c0], %p : memref<32x64xf32, #gpu.address_space<private>>, vector<32x64xf32>

  return
}
