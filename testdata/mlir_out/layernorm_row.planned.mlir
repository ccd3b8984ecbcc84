// Layer normalisation of 16 rows of 256 f32 on sm_80 with 4 warps (a
// workgroup of 128 threads in subgroups of 32): mean and variance along
// rows, normalise, scale by gamma and shift by beta (one value per
// column), store as f16. The same kernel written by hand as a graph:
// testdata/graphs/layernorm_row.toml. The row sums' accumulator is 0,
// their identity, read as no init; a row value goes back into its row by
// a shape_cast to 16x1 and a broadcast, read as one broadcast; gamma and
// beta broadcast down the columns.
//
//   planner solve examples/mlir/layernorm_row.mlir

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

func.func @layernorm_row(%in: memref<16x256xf32>, %gamma_in: memref<256xf32>, %beta_in: memref<256xf32>, %out: memref<16x256xf16>) attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %zero = arith.constant dense<0.000000e+00> : vector<16xf32>
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x256xf32>, vector<16x256xf32>
  %x_l = "iree_vector_ext.to_layout"(%x) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %s = vector.multi_reduction <add>, %x_l, %zero [1] : vector<16x256xf32> to vector<16xf32>
  %s_l = "iree_vector_ext.to_layout"(%s) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %inv_n = arith.constant dense<3.906250e-03> : vector<16xf32>
  %inv_n_l = "iree_vector_ext.to_layout"(%inv_n) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %mean = arith.mulf %s_l, %inv_n_l : vector<16xf32>
  %mean_l = "iree_vector_ext.to_layout"(%mean) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %meanc = vector.shape_cast %mean_l : vector<16xf32> to vector<16x1xf32>
  %meanb = vector.broadcast %meanc : vector<16x1xf32> to vector<16x256xf32>
  %meanb_l = "iree_vector_ext.to_layout"(%meanb) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %xc = arith.subf %x_l, %meanb_l : vector<16x256xf32>
  %xc_l = "iree_vector_ext.to_layout"(%xc) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %sq = arith.mulf %xc_l, %xc_l : vector<16x256xf32>
  %sq_l = "iree_vector_ext.to_layout"(%sq) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %ss = vector.multi_reduction <add>, %sq_l, %zero [1] : vector<16x256xf32> to vector<16xf32>
  %ss_l = "iree_vector_ext.to_layout"(%ss) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %var = arith.mulf %ss_l, %inv_n_l : vector<16xf32>
  %var_l = "iree_vector_ext.to_layout"(%var) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %eps = arith.constant dense<9.99999974E-6> : vector<16xf32>
  %eps_l = "iree_vector_ext.to_layout"(%eps) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %vare = arith.addf %var_l, %eps_l : vector<16xf32>
  %vare_l = "iree_vector_ext.to_layout"(%vare) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %rstd = math.rsqrt %vare_l : vector<16xf32>
  %rstd_l = "iree_vector_ext.to_layout"(%rstd) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
  %rstdc = vector.shape_cast %rstd_l : vector<16xf32> to vector<16x1xf32>
  %rstdb = vector.broadcast %rstdc : vector<16x1xf32> to vector<16x256xf32>
  %rstdb_l = "iree_vector_ext.to_layout"(%rstdb) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %xn = arith.mulf %xc_l, %rstdb_l : vector<16x256xf32>
  %xn_l = "iree_vector_ext.to_layout"(%xn) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %gamma = vector.transfer_read %gamma_in[%c0], %pad {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
  %gamma_l = "iree_vector_ext.to_layout"(%gamma) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [2], outer_tile = [1], thread_tile = [32], element_tile = [4], subgroup_strides = [0], thread_strides = [1]>}> : (vector<256xf32>) -> vector<256xf32>
  %gammab = vector.broadcast %gamma_l : vector<256xf32> to vector<16x256xf32>
  %gammab_l = "iree_vector_ext.to_layout"(%gammab) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %beta = vector.transfer_read %beta_in[%c0], %pad {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
  %beta_l = "iree_vector_ext.to_layout"(%beta) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [2], outer_tile = [1], thread_tile = [32], element_tile = [4], subgroup_strides = [0], thread_strides = [1]>}> : (vector<256xf32>) -> vector<256xf32>
  %betab = vector.broadcast %beta_l : vector<256xf32> to vector<16x256xf32>
  %betab_l = "iree_vector_ext.to_layout"(%betab) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %y = math.fma %xn_l, %gammab_l, %betab_l : vector<16x256xf32>
  %y_l = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
  %yh = arith.truncf %y_l : vector<16x256xf32> to vector<16x256xf16>
  %yh_l = "iree_vector_ext.to_layout"(%yh) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf16>) -> vector<16x256xf16>
  vector.transfer_write %yh_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<16x256xf16>, memref<16x256xf16>
  return
}
