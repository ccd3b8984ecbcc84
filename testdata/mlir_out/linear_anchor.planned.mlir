// A kernel whose to_layout anchor is written in linear bases
// (#planner.linear, what planner solve --format mlir writes where IREE's
// nested_layout cannot write a layout): each of the 32 lanes of the one
// subgroup holds one row of the 32x64 tile.
// Not IREE's to judge: IREE defines no #planner.linear, so mlir-opt-19
// judges it (mlir/judge_test.go, notIREEJudged).
// IREE's attributes as IREE 3.13 reads them (iree-org/iree,
// compiler/src/iree/compiler/Codegen/): the target is the #iree_gpu.target
// (Dialect/GPU/IR/IREEGPUAttrs.td, TargetAttr and TargetWgpAttr) that
// iree-compile 3.13 states for sm_80 (--iree-hal-target-device=cuda
// --iree-cuda-target=sm_80; its values are
// Dialect/GPU/TargetUtils/KnownTargets.cpp's), under the key IREE reads it
// by, iree_codegen.target_info (Utils/Utils.cpp, kTargetInfoAttrName); the
// translation_info (Dialect/Codegen/IR/IREECodegenAttrs.td,
// TranslationInfoAttr) names its pipeline by an attribute,
// #iree_codegen.no_pipeline (IREECodegenAttrs.td's NoPipelineAttr).
#executable_target = #hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_80", features = "+ptx76", wgp = <
    compute = fp64|fp32|fp16|int64|int32|int16|int8,
    storage = b64|b32|b16|b8,
    subgroup = shuffle|arithmetic,
    dot = dp4xi8toi32,
    mma = [
      <NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>,
      <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>,
      <NV_WMMA_F16_16x16x16_F16>],
    subgroup_size_choices = [32],
    max_workgroup_sizes = [1024, 1024, 1024],
    max_thread_count_per_workgroup = 1024,
    max_workgroup_memory_bytes = 166912,
    max_workgroup_counts = [2147483647, 65535, 65535]>>}>
#rows = #planner.linear<register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], subgroup = []>
func.func @exp_rows(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [32, 1, 1] subgroup_size = 32>, hal.executable.target = #executable_target} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %y = "iree_vector_ext.to_layout"(%x) <{layout = #rows}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %y_cv = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [16, 1], outer_tile = [1, 1], thread_tile = [2, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %z = math.exp %y_cv : vector<32x64xf32>
  %z_l = "iree_vector_ext.to_layout"(%z) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [16, 1], outer_tile = [1, 1], thread_tile = [2, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  vector.transfer_write %z_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
