// Element-wise ops on tensors: IR before vectorization and bufferization.
func.func @k(%t: tensor<32x64xf32>) // want bad-value: argument %t is a tensor<32x64xf32>: the planner reads kernels in the vector dialect
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %y = arith.addf %t, %t : tensor<32x64xf32> // want bad-value: arith.addf works on tensors
  return
}
