// Two functions in one module, for the writer's properties
// (TestWrittenKernelProperties): the plan of @softmax_row (--func
// softmax_row) is written into it, and @row_copy before it, with the
// alias #copy_map only it uses and the aliases both use, is kept byte for
// byte. The kernel is examples/mlir/softmax_row.mlir's.
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

#copy_map = affine_map<(d0, d1) -> (d0, d1)>

func.func @row_copy(%in: memref<32x128xf32>, %out: memref<32x128xf32>) attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = #copy_map} : memref<32x128xf32>, vector<32x128xf32>
  %y = arith.negf %x : vector<32x128xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x128xf32>, memref<32x128xf32>
  return
}

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
