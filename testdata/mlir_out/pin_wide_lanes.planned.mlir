// A kernel whose to_layout anchor spreads its vector over 64 lanes per
// subgroup: on sm_80 (32 lanes) no plan can meet it, and planner explain
// says so at the anchor's line. It states no target: give --target.
// IREE's attributes as IREE 3.13 reads them (iree-org/iree,
// compiler/src/iree/compiler/Codegen/): the translation_info
// (Dialect/Codegen/IR/IREECodegenAttrs.td, TranslationInfoAttr) names its
// pipeline by an attribute, #iree_codegen.no_pipeline (IREECodegenAttrs.td's
// NoPipelineAttr).
#wide = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [4, 8], subgroup_strides = [0, 0], thread_strides = [8, 1]>
func.func @exp_rows(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [32, 1, 1] subgroup_size = 32>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %y = "iree_vector_ext.to_layout"(%x) <{layout = #wide}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %y_cv = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [8, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %z = math.exp %y_cv : vector<32x64xf32>
  %z_l = "iree_vector_ext.to_layout"(%z) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [8, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  vector.transfer_write %z_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
