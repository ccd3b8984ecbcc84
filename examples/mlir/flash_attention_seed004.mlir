// The flash-attention loop of seed 004 (the MLIR RFC "Representing
// register data layout explicitly in the IR") as the vector-dialect
// function it is, on sm_80 with 2 warps (a workgroup of 64 threads in
// subgroups of 32): Q is a 32x64 f16 tile in shared memory; each of 32
// iterations reads a 128x64 K and V tile, computes S = Q·Kᵀ, the online
// softmax (row max and row sum, exp2) and accumulates P·V. The %N names
// are the RFC's. Its contractions take their B operand as N×K, and widen
// their f16 operands with arith.extf; the planner reads each extf that
// only feeds contractions as the mma's own f32 accumulation. The same
// kernel written by hand as a graph: testdata/graphs/flash_attention_2warps.toml.
//
//   planner solve examples/mlir/flash_attention_seed004.mlir

#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map7 = affine_map<(d0, d1) -> (d1, d0)>
#rows = affine_map<()[s0] -> (s0 * 32)>
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
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 32>

func.func @flash_attention() attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c4096 = arith.constant 4096 : index
  %cst_4 = arith.constant 0.000000e+00 : f16
  %alloc = memref.alloc() : memref<1x128x64xf16, #gpu.address_space<workgroup>>
  %alloc_11 = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
  %alloc_12 = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
  %alloc_7 = memref.alloc() : memref<1x128x64xf16, #gpu.address_space<workgroup>>
  %wg = gpu.block_id x
  %8 = affine.apply #rows()[%wg]
  %9 = vector.transfer_read %alloc[%c0, %8, %c0], %cst_4 {in_bounds = [true, true]} : memref<1x128x64xf16, #gpu.address_space<workgroup>>, vector<32x64xf16>
  %10 = arith.extf %9 : vector<32x64xf16> to vector<32x64xf32>
  %cst_0 = arith.constant dense<0xFF800000> : vector<32xf32>
  %cst_1 = arith.constant dense<0.000000e+00> : vector<32xf32>
  %cst = arith.constant dense<0.000000e+00> : vector<32x64xf32>
  %11:3 = scf.for %arg0 = %c0 to %c4096 step %c128 iter_args(%arg1 = %cst_0, %arg2 = %cst_1, %arg3 = %cst) -> (vector<32xf32>, vector<32xf32>, vector<32x64xf32>) {
    %13 = vector.transfer_read %alloc_11[%c0, %c0], %cst_4 {in_bounds = [true, true]} : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<128x64xf16>
    %14 = arith.extf %13 : vector<128x64xf16> to vector<128x64xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : vector<32x128xf32>
    %15 = vector.contract {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %10, %14, %cst_2 : vector<32x64xf32>, vector<128x64xf32> into vector<32x128xf32>
    %16 = vector.multi_reduction <maximumf>, %15, %arg1 [1] : vector<32x128xf32> to vector<32xf32>
    %17 = vector.broadcast %16 : vector<32xf32> to vector<128x32xf32>
    %18 = vector.transpose %17, [1, 0] : vector<128x32xf32> to vector<32x128xf32>
    %19 = arith.subf %15, %18 : vector<32x128xf32>
    %20 = math.exp2 %19 : vector<32x128xf32>
    %21 = arith.subf %arg1, %16 : vector<32xf32>
    %22 = math.exp2 %21 : vector<32xf32>
    %23 = arith.mulf %22, %arg2 : vector<32xf32>
    %24 = vector.multi_reduction <add>, %20, %23 [1] : vector<32x128xf32> to vector<32xf32>
    %cst_3 = arith.constant dense<1.000000e+00> : vector<32xf32>
    %25 = arith.divf %cst_3, %24 : vector<32xf32>
    %26 = vector.broadcast %25 : vector<32xf32> to vector<128x32xf32>
    %27 = vector.transpose %26, [1, 0] : vector<128x32xf32> to vector<32x128xf32>
    %28 = arith.mulf %20, %27 : vector<32x128xf32>
    %29 = arith.truncf %28 : vector<32x128xf32> to vector<32x128xf16>
    %30 = vector.broadcast %23 : vector<32xf32> to vector<64x32xf32>
    %31 = vector.broadcast %25 : vector<32xf32> to vector<64x32xf32>
    %32 = vector.transpose %30, [1, 0] : vector<64x32xf32> to vector<32x64xf32>
    %33 = vector.transpose %31, [1, 0] : vector<64x32xf32> to vector<32x64xf32>
    %34 = arith.mulf %32, %33 : vector<32x64xf32>
    %35 = arith.mulf %34, %arg3 : vector<32x64xf32>
    %36 = arith.extf %29 : vector<32x128xf16> to vector<32x128xf32>
    %37 = vector.transfer_read %alloc_12[%c0, %c0], %cst_4 {in_bounds = [true, true], permutation_map = #map7} : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<64x128xf16>
    %38 = arith.extf %37 : vector<64x128xf16> to vector<64x128xf32>
    %39 = vector.contract {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %36, %38, %35 : vector<32x128xf32>, vector<64x128xf32> into vector<32x64xf32>
    scf.yield %16, %24, %39 : vector<32xf32>, vector<32xf32>, vector<32x64xf32>
  }
  %12 = arith.truncf %11#2 : vector<32x64xf32> to vector<32x64xf16>
  vector.transfer_write %12, %alloc_7[%c0, %8, %c0] {in_bounds = [true, true]} : vector<32x64xf16>, memref<1x128x64xf16, #gpu.address_space<workgroup>>
  return
}
