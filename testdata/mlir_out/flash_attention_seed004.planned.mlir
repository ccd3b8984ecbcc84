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
  %alloc = memref.alloc() {planner.placement = "swizzle 128B", planner.shared_layout = "32x64, rows 64 elements apart, swizzle 128B", planner.swizzle = "128B"} : memref<1x128x64xf16, #gpu.address_space<workgroup>>
  %alloc_11 = memref.alloc() {planner.placement = "swizzle 128B", planner.shared_layout = "128x64, rows 64 elements apart, swizzle 128B", planner.swizzle = "128B"} : memref<128x64xf16, #gpu.address_space<workgroup>>
  %alloc_12 = memref.alloc() {planner.placement = "swizzle 128B", planner.shared_layout = "128x64, rows 64 elements apart, swizzle 128B", planner.swizzle = "128B"} : memref<128x64xf16, #gpu.address_space<workgroup>>
  %alloc_7 = memref.alloc() {planner.placement = "swizzle 128B", planner.shared_layout = "32x64, rows 64 elements apart, swizzle 128B", planner.swizzle = "128B"} : memref<1x128x64xf16, #gpu.address_space<workgroup>>
  %wg = gpu.block_id x
  %8 = affine.apply #rows()[%wg]
  %9 = vector.transfer_read %alloc[%c0, %8, %c0], %cst_4 {in_bounds = [true, true]} : memref<1x128x64xf16, #gpu.address_space<workgroup>>, vector<32x64xf16>
  %v9_l = "iree_vector_ext.to_layout"(%9) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf16>) -> vector<32x64xf16>
  %10 = arith.extf %v9_l : vector<32x64xf16> to vector<32x64xf32>
  %cst_0 = arith.constant dense<0xFF800000> : vector<32xf32>
  %cst_0_l = "iree_vector_ext.to_layout"(%cst_0) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
  %cst_1 = arith.constant dense<0.000000e+00> : vector<32xf32>
  %cst_1_l = "iree_vector_ext.to_layout"(%cst_1) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
  %cst = arith.constant dense<0.000000e+00> : vector<32x64xf32>
  %cst_l = "iree_vector_ext.to_layout"(%cst) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %11:3 = scf.for %arg0 = %c0 to %c4096 step %c128 iter_args(%arg1 = %cst_0_l, %arg2 = %cst_1_l, %arg3 = %cst_l) -> (vector<32xf32>, vector<32xf32>, vector<32x64xf32>) {
    %arg1_l = "iree_vector_ext.to_layout"(%arg1) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %arg2_l = "iree_vector_ext.to_layout"(%arg2) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %arg3_l = "iree_vector_ext.to_layout"(%arg3) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %13 = vector.transfer_read %alloc_11[%c0, %c0], %cst_4 {in_bounds = [true, true]} : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<128x64xf16>
    %v13_l = "iree_vector_ext.to_layout"(%13) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [16, 8], outer_tile = [1, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [0, 0], thread_strides = [4, 1]>}> : (vector<128x64xf16>) -> vector<128x64xf16>
    %14 = arith.extf %v13_l : vector<128x64xf16> to vector<128x64xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : vector<32x128xf32>
    %cst_2_l = "iree_vector_ext.to_layout"(%cst_2) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %15 = vector.contract {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, planner.intrinsic = "mma_m16n8k16_f32_f16"} %10, %14, %cst_2_l : vector<32x64xf32>, vector<128x64xf32> into vector<32x128xf32>
    %v15_l = "iree_vector_ext.to_layout"(%15) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %16 = vector.multi_reduction <maximumf>, %v15_l, %arg1_l [1] : vector<32x128xf32> to vector<32xf32>
    %v16_l = "iree_vector_ext.to_layout"(%16) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %17 = vector.broadcast %v16_l : vector<32xf32> to vector<128x32xf32>
    %v17_l = "iree_vector_ext.to_layout"(%17) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 2], batch_tile = [128, 2], outer_tile = [1, 1], thread_tile = [1, 8], element_tile = [1, 1], subgroup_strides = [0, 1], thread_strides = [0, 4]>}> : (vector<128x32xf32>) -> vector<128x32xf32>
    %18 = vector.transpose %v17_l, [1, 0] : vector<128x32xf32> to vector<32x128xf32>
    %v18_l = "iree_vector_ext.to_layout"(%18) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 128], outer_tile = [2, 1], thread_tile = [8, 1], element_tile = [1, 1], subgroup_strides = [1, 0], thread_strides = [4, 0]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %v18_cv = "iree_vector_ext.to_layout"(%v18_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %19 = arith.subf %v15_l, %v18_cv : vector<32x128xf32>
    %v19_l = "iree_vector_ext.to_layout"(%19) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %20 = math.exp2 %v19_l : vector<32x128xf32>
    %v20_l = "iree_vector_ext.to_layout"(%20) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %21 = arith.subf %arg1_l, %v16_l : vector<32xf32>
    %v21_l = "iree_vector_ext.to_layout"(%21) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %22 = math.exp2 %v21_l : vector<32xf32>
    %v22_l = "iree_vector_ext.to_layout"(%22) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %23 = arith.mulf %v22_l, %arg2_l : vector<32xf32>
    %v23_l = "iree_vector_ext.to_layout"(%23) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %24 = vector.multi_reduction <add>, %v20_l, %v23_l [1] : vector<32x128xf32> to vector<32xf32>
    %v24_l = "iree_vector_ext.to_layout"(%24) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %cst_3 = arith.constant dense<1.000000e+00> : vector<32xf32>
    %cst_3_l = "iree_vector_ext.to_layout"(%cst_3) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %25 = arith.divf %cst_3_l, %v24_l : vector<32xf32>
    %v25_l = "iree_vector_ext.to_layout"(%25) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
    %26 = vector.broadcast %v25_l : vector<32xf32> to vector<128x32xf32>
    %v26_l = "iree_vector_ext.to_layout"(%26) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 2], batch_tile = [128, 2], outer_tile = [1, 1], thread_tile = [1, 8], element_tile = [1, 1], subgroup_strides = [0, 1], thread_strides = [0, 4]>}> : (vector<128x32xf32>) -> vector<128x32xf32>
    %27 = vector.transpose %v26_l, [1, 0] : vector<128x32xf32> to vector<32x128xf32>
    %v27_l = "iree_vector_ext.to_layout"(%27) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 128], outer_tile = [2, 1], thread_tile = [8, 1], element_tile = [1, 1], subgroup_strides = [1, 0], thread_strides = [4, 0]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %v27_cv = "iree_vector_ext.to_layout"(%v27_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %28 = arith.mulf %v20_l, %v27_cv : vector<32x128xf32>
    %v28_l = "iree_vector_ext.to_layout"(%28) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf32>) -> vector<32x128xf32>
    %29 = arith.truncf %v28_l : vector<32x128xf32> to vector<32x128xf16>
    %v29_l = "iree_vector_ext.to_layout"(%29) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 16], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x128xf16>) -> vector<32x128xf16>
    %30 = vector.broadcast %v23_l : vector<32xf32> to vector<64x32xf32>
    %v30_l = "iree_vector_ext.to_layout"(%30) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 2], batch_tile = [64, 2], outer_tile = [1, 1], thread_tile = [1, 8], element_tile = [1, 1], subgroup_strides = [0, 1], thread_strides = [0, 4]>}> : (vector<64x32xf32>) -> vector<64x32xf32>
    %31 = vector.broadcast %v25_l : vector<32xf32> to vector<64x32xf32>
    %v31_l = "iree_vector_ext.to_layout"(%31) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 2], batch_tile = [64, 2], outer_tile = [1, 1], thread_tile = [1, 8], element_tile = [1, 1], subgroup_strides = [0, 1], thread_strides = [0, 4]>}> : (vector<64x32xf32>) -> vector<64x32xf32>
    %32 = vector.transpose %v30_l, [1, 0] : vector<64x32xf32> to vector<32x64xf32>
    %v32_l = "iree_vector_ext.to_layout"(%32) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 64], outer_tile = [2, 1], thread_tile = [8, 1], element_tile = [1, 1], subgroup_strides = [1, 0], thread_strides = [4, 0]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %33 = vector.transpose %v31_l, [1, 0] : vector<64x32xf32> to vector<32x64xf32>
    %v33_l = "iree_vector_ext.to_layout"(%33) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 64], outer_tile = [2, 1], thread_tile = [8, 1], element_tile = [1, 1], subgroup_strides = [1, 0], thread_strides = [4, 0]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %v32_cv = "iree_vector_ext.to_layout"(%v32_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %v33_cv = "iree_vector_ext.to_layout"(%v33_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %34 = arith.mulf %v32_cv, %v33_cv : vector<32x64xf32>
    %v34_l = "iree_vector_ext.to_layout"(%34) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %35 = arith.mulf %v34_l, %arg3_l : vector<32x64xf32>
    %v35_l = "iree_vector_ext.to_layout"(%35) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    %36 = arith.extf %v29_l : vector<32x128xf16> to vector<32x128xf32>
    %37 = vector.transfer_read %alloc_12[%c0, %c0], %cst_4 {in_bounds = [true, true], permutation_map = #map7} : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<64x128xf16>
    %v37_l = "iree_vector_ext.to_layout"(%37) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [8, 16], outer_tile = [1, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [0, 0], thread_strides = [4, 1]>}> : (vector<64x128xf16>) -> vector<64x128xf16>
    %38 = arith.extf %v37_l : vector<64x128xf16> to vector<64x128xf32>
    %39 = vector.contract {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, planner.intrinsic = "mma_m16n8k16_f32_f16"} %36, %38, %v35_l : vector<32x128xf32>, vector<64x128xf32> into vector<32x64xf32>
    %v39_l = "iree_vector_ext.to_layout"(%39) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
    scf.yield %v16_l, %v24_l, %v39_l : vector<32xf32>, vector<32xf32>, vector<32x64xf32>
  }
  %v11_0_l = "iree_vector_ext.to_layout"(%11#0) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
  %v11_1_l = "iree_vector_ext.to_layout"(%11#1) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [2], outer_tile = [1], thread_tile = [8], element_tile = [1], subgroup_strides = [1], thread_strides = [4]>}> : (vector<32xf32>) -> vector<32xf32>
  %v11_2_l = "iree_vector_ext.to_layout"(%11#2) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %12 = arith.truncf %v11_2_l : vector<32x64xf32> to vector<32x64xf16>
  %v12_l = "iree_vector_ext.to_layout"(%12) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [1, 8], outer_tile = [2, 1], thread_tile = [8, 4], element_tile = [1, 2], subgroup_strides = [1, 0], thread_strides = [4, 1]>}> : (vector<32x64xf16>) -> vector<32x64xf16>
  vector.transfer_write %v12_l, %alloc_7[%c0, %8, %c0] {in_bounds = [true, true]} : vector<32x64xf16>, memref<1x128x64xf16, #gpu.address_space<workgroup>>
  return
}
