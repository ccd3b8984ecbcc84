// A '{' with no op before it, inside a function: refused where it stands,
// not at the function's own brace.
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  { // want syntax: expected an operation name, found '{'
  %p = arith.constant 0.000000e+00 : f32
  return
}
