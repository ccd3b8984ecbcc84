// Seed 001 (IREE's PCF RFC, "GPU Pipeline Rework"): an f16 x f16 -> f32
// matmul with a 256x128x64 workgroup tile on a 2x2 grid of subgroups
// (a workgroup of 256 threads in subgroups of 64) on gfx942, MFMA
// fragments chosen by the planner. The K loop carries the accumulator;
// each trip copies the A and B panels to workgroup memory (the copy
// phase), reads them back as the contraction's operands (the compute
// phase), and the accumulator is written back after the loop (the
// writeback phase). The same kernel written by hand as a graph:
// testdata/graphs/seed001_mfma_gemm.toml. Layouts print in IREE's nested
// notation, as for every kernel carrying IREE's attributes.
//
//   planner solve examples/mlir/mfma_gemm_seed001.mlir

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#tile_m = affine_map<()[s0] -> (s0 * 256)>
#tile_n = affine_map<()[s0] -> (s0 * 128)>
// IREE's attributes as IREE 3.13 reads them (iree-org/iree,
// compiler/src/iree/compiler/Codegen/): the target is the #iree_gpu.target
// (Dialect/GPU/IR/IREEGPUAttrs.td, TargetAttr and TargetWgpAttr) that
// iree-compile 3.13 states for gfx942 (--iree-hal-target-device=hip
// --iree-rocm-target=gfx942; its values are
// Dialect/GPU/TargetUtils/KnownTargets.cpp's), under the key IREE reads it
// by, iree_codegen.target_info (Utils/Utils.cpp, kTargetInfoAttrName); the
// translation_info (Dialect/Codegen/IR/IREECodegenAttrs.td,
// TranslationInfoAttr) names its pipeline by an attribute,
// #iree_gpu.pipeline<VectorDistribute> (IREEGPUAttrs.td's PipelineAttr of
// IREEGPUEnums.td's LoweringPipeline).
#executable_target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <
    compute = fp64|fp32|fp16|int64|int32|int16|int8,
    storage = b64|b32|b16|b8,
    subgroup = shuffle|arithmetic,
    dot = dp4xi8toi32,
    mma = [
      <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>,
      <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>,
      <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>,
      <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>,
      <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>,
      <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>,
      <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>,
      <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>,
      <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>,
      <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>,
      <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>],
    subgroup_size_choices = [64],
    max_workgroup_sizes = [1024, 1024, 1024],
    max_thread_count_per_workgroup = 1024,
    max_workgroup_memory_bytes = 65536,
    max_workgroup_counts = [2147483647, 2147483647, 2147483647],
    max_load_instruction_bits = 128,
    simds_per_wgp = 4,
    vgpr_space_bits = 16384,
    dma_sizes = [32],
    workgroup_memory_bank_count = 32>>}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [256, 1, 1] subgroup_size = 64>

func.func @matmul_256x128x64(%A: memref<4096x1024xf16>, %B: memref<1024x4096xf16>, %C: memref<4096x4096xf32>) attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.000000e+00 : f16
  %As = memref.alloc() {planner.placement = "swizzle 128B", planner.shared_layout = "256x64, rows 64 elements apart, swizzle 128B", planner.swizzle = "128B"} : memref<256x64xf16, #gpu.address_space<workgroup>>
  %Bs = memref.alloc() {planner.placement = "dense row major", planner.shared_layout = "64x128, rows 128 elements apart"} : memref<64x128xf16, #gpu.address_space<workgroup>>
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = affine.apply #tile_m()[%by]
  %n = affine.apply #tile_n()[%bx]
  %acc0 = arith.constant dense<0.000000e+00> : vector<256x128xf32>
  %acc0_l = "iree_vector_ext.to_layout"(%acc0) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = [4, 8], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, 4], subgroup_strides = [1, 2], thread_strides = [1, 32]>}> : (vector<256x128xf32>) -> vector<256x128xf32>
  %acc_out = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0_l) -> (vector<256x128xf32>) {
    %acc_l = "iree_vector_ext.to_layout"(%acc) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = [4, 8], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, 4], subgroup_strides = [1, 2], thread_strides = [1, 32]>}> : (vector<256x128xf32>) -> vector<256x128xf32>
    %a_g = vector.transfer_read %A[%m, %k], %pad {in_bounds = [true, true]} : memref<4096x1024xf16>, vector<256x64xf16>
    %a_g_l = "iree_vector_ext.to_layout"(%a_g) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [32, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<256x64xf16>) -> vector<256x64xf16>
    vector.transfer_write %a_g_l, %As[%c0, %c0] {in_bounds = [true, true]} : vector<256x64xf16>, memref<256x64xf16, #gpu.address_space<workgroup>>
    %b_g = vector.transfer_read %B[%k, %n], %pad {in_bounds = [true, true]} : memref<1024x4096xf16>, vector<64x128xf16>
    %b_g_l = "iree_vector_ext.to_layout"(%b_g) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [16, 1]>}> : (vector<64x128xf16>) -> vector<64x128xf16>
    vector.transfer_write %b_g_l, %Bs[%c0, %c0] {in_bounds = [true, true]} : vector<64x128xf16>, memref<64x128xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %a = vector.transfer_read %As[%c0, %c0], %pad {in_bounds = [true, true]} : memref<256x64xf16, #gpu.address_space<workgroup>>, vector<256x64xf16>
    %a_l = "iree_vector_ext.to_layout"(%a) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [4, 4], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [1, 32]>}> : (vector<256x64xf16>) -> vector<256x64xf16>
    %b = vector.transfer_read %Bs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x128xf16, #gpu.address_space<workgroup>>, vector<64x128xf16>
    %b_l = "iree_vector_ext.to_layout"(%b) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 2], batch_tile = [1, 2], outer_tile = [4, 1], thread_tile = [2, 32], element_tile = [8, 1], subgroup_strides = [0, 2], thread_strides = [32, 1]>}> : (vector<64x128xf16>) -> vector<64x128xf16>
    %acc_next = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, iree.amdgpu.mma = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>} %a_l, %b_l, %acc_l : vector<256x64xf16>, vector<64x128xf16> into vector<256x128xf32>
    %acc_next_l = "iree_vector_ext.to_layout"(%acc_next) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = [4, 8], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, 4], subgroup_strides = [1, 2], thread_strides = [1, 32]>}> : (vector<256x128xf32>) -> vector<256x128xf32>
    gpu.barrier
    scf.yield %acc_next_l : vector<256x128xf32>
  }
  %acc_out_l = "iree_vector_ext.to_layout"(%acc_out) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = [4, 8], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, 4], subgroup_strides = [1, 2], thread_strides = [1, 32]>}> : (vector<256x128xf32>) -> vector<256x128xf32>
  vector.transfer_write %acc_out_l, %C[%m, %n] {in_bounds = [true, true]} : vector<256x128xf32>, memref<4096x4096xf32>
  return
}
