// A vector of f8E3M4, a float type the planner does not know.
func.func @k() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c = arith.constant dense<0.0> : vector<16xf8E3M4> // want unknown-name: %c has elements of type f8E3M4, which the planner does not know
  return
}
