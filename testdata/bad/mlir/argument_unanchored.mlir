// A vector argument whose layout the caller chose, never anchored.
func.func @k(
    %v: vector<32x64xf32>) // want missing-key: %v arrives in registers in the layout its caller chose: anchor it with iree_vector_ext.to_layout
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %y = math.exp %v : vector<32x64xf32>
  return
}
