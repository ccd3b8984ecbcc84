// A vector scaled by the reciprocal of its sum: vector.reduction makes a
// scalar (a value of shape [1] in the graph) that vector.broadcast grows
// back. planner solve --format mlir anchors every vector value but not the
// scalar: IREE's to_layout takes a vector.
// IREE's attributes as IREE 3.13 reads them (iree-org/iree,
// compiler/src/iree/compiler/Codegen/): the translation_info
// (Dialect/Codegen/IR/IREECodegenAttrs.td, TranslationInfoAttr) names its
// pipeline by an attribute, #iree_codegen.no_pipeline (IREECodegenAttrs.td's
// NoPipelineAttr).
func.func @scale(%in: memref<64xf32>, %out: memref<64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [32, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0], %p {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  %x_l = "iree_vector_ext.to_layout"(%x) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [1], outer_tile = [1], thread_tile = [32], element_tile = [2], subgroup_strides = [0], thread_strides = [1]>}> : (vector<64xf32>) -> vector<64xf32>
  %s = vector.reduction <add>, %x_l : vector<64xf32> into f32
  %b = vector.broadcast %s : f32 to vector<64xf32>
  %b_l = "iree_vector_ext.to_layout"(%b) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [1], outer_tile = [1], thread_tile = [32], element_tile = [2], subgroup_strides = [0], thread_strides = [1]>}> : (vector<64xf32>) -> vector<64xf32>
  %y = arith.divf %x_l, %b_l : vector<64xf32>
  %y_l = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [1], outer_tile = [1], thread_tile = [32], element_tile = [2], subgroup_strides = [0], thread_strides = [1]>}> : (vector<64xf32>) -> vector<64xf32>
  vector.transfer_write %y_l, %out[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32>
  return
}
