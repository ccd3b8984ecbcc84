// A row softmax of a 32x128 f32 tile on sm_80 with 4 warps (a workgroup
// of 128 threads in subgroups of 32): max along rows, subtract, exp2, sum
// along rows, divide, store. The same kernel written by hand as a graph:
// testdata/graphs/softmax_row.toml. Each reduction's accumulator is its
// kind's identity (-inf for the max, 0 for the sum), which the planner
// reads as a reduction without an init; each row value is put back in
// its row by a shape_cast to 32x1 and a broadcast along the row, which
// the planner reads as one broadcast.
//
//   planner solve examples/mlir/softmax_row.mlir

// IREE's attributes as IREE 3.13 reads them (iree-org/iree,
// compiler/src/iree/compiler/Codegen/): the target is the #iree_gpu.target
// (Dialect/GPU/IR/IREEGPUAttrs.td, TargetAttr and TargetWgpAttr) that
// iree-compile 3.13 states for sm_80 (--iree-hal-target-device=cuda
// --iree-cuda-target=sm_80; its values are
// Dialect/GPU/TargetUtils/KnownTargets.cpp's), under the key IREE reads it
// by, iree_codegen.target_info (Utils/Utils.cpp, kTargetInfoAttrName); the
// translation_info (Dialect/Codegen/IR/IREECodegenAttrs.td,
// TranslationInfoAttr) names its pipeline by an attribute,
// #iree_gpu.pipeline<VectorDistribute> (IREEGPUAttrs.td's PipelineAttr of
// IREEGPUEnums.td's LoweringPipeline).
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
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [128, 1, 1] subgroup_size = 32>

func.func @softmax_row(%in: memref<32x128xf32>, %out: memref<32x128xf32>) attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant dense<0xFF800000> : vector<32xf32>
  %zero = arith.constant dense<0.000000e+00> : vector<32xf32>
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x128xf32>, vector<32x128xf32>
  %mx = vector.multi_reduction <maximumf>, %x, %ninf [1] : vector<32x128xf32> to vector<32xf32>
  %mxc = vector.shape_cast %mx : vector<32xf32> to vector<32x1xf32>
  %mxb = vector.broadcast %mxc : vector<32x1xf32> to vector<32x128xf32>
  %xs = arith.subf %x, %mxb : vector<32x128xf32>
  %e = math.exp2 %xs : vector<32x128xf32>
  %sum = vector.multi_reduction <add>, %e, %zero [1] : vector<32x128xf32> to vector<32xf32>
  %sumc = vector.shape_cast %sum : vector<32xf32> to vector<32x1xf32>
  %sumb = vector.broadcast %sumc : vector<32x1xf32> to vector<32x128xf32>
  %y = arith.divf %e, %sumb : vector<32x128xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x128xf32>, memref<32x128xf32>
  return
}
