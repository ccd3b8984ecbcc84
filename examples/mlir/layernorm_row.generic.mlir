// iree-opt --mlir-print-op-generic layernorm_row.mlir: IREE's own
// generic form of layernorm_row.mlir (iree-base-compiler's iree-opt, pinned in
// oracle/requirements.txt), which the tests read beside it (mlir/judge_test.go).
#executable_target_cuda_nvptx_fb = #hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_80", features = "+ptx76", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 166912, max_workgroup_counts = [2147483647, 65535, 65535]>>}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [128, 1, 1] subgroup_size = 32>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x256xf32>, memref<256xf32>, memref<256xf32>, memref<16x256xf16>) -> (), sym_name = "layernorm_row"}> ({
  ^bb0(%arg0: memref<16x256xf32>, %arg1: memref<256xf32>, %arg2: memref<256xf32>, %arg3: memref<16x256xf16>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %2 = "arith.constant"() <{value = dense<0.000000e+00> : vector<16xf32>}> : () -> vector<16xf32>
    %3 = "vector.transfer_read"(%arg0, %0, %0, %1) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<16x256xf32>, index, index, f32) -> vector<16x256xf32>
    %4 = "vector.multi_reduction"(%3, %2) <{kind = #vector.kind<add>, reduction_dims = array<i64: 1>}> : (vector<16x256xf32>, vector<16xf32>) -> vector<16xf32>
    %5 = "arith.constant"() <{value = dense<3.906250e-03> : vector<16xf32>}> : () -> vector<16xf32>
    %6 = "arith.mulf"(%4, %5) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %7 = "vector.shape_cast"(%6) : (vector<16xf32>) -> vector<16x1xf32>
    %8 = "vector.broadcast"(%7) : (vector<16x1xf32>) -> vector<16x256xf32>
    %9 = "arith.subf"(%3, %8) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %10 = "arith.mulf"(%9, %9) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %11 = "vector.multi_reduction"(%10, %2) <{kind = #vector.kind<add>, reduction_dims = array<i64: 1>}> : (vector<16x256xf32>, vector<16xf32>) -> vector<16xf32>
    %12 = "arith.mulf"(%11, %5) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %13 = "arith.constant"() <{value = dense<9.99999974E-6> : vector<16xf32>}> : () -> vector<16xf32>
    %14 = "arith.addf"(%12, %13) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %15 = "math.rsqrt"(%14) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>) -> vector<16xf32>
    %16 = "vector.shape_cast"(%15) : (vector<16xf32>) -> vector<16x1xf32>
    %17 = "vector.broadcast"(%16) : (vector<16x1xf32>) -> vector<16x256xf32>
    %18 = "arith.mulf"(%9, %17) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %19 = "vector.transfer_read"(%arg1, %0, %1) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map1}> : (memref<256xf32>, index, f32) -> vector<256xf32>
    %20 = "vector.broadcast"(%19) : (vector<256xf32>) -> vector<16x256xf32>
    %21 = "vector.transfer_read"(%arg2, %0, %1) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map1}> : (memref<256xf32>, index, f32) -> vector<256xf32>
    %22 = "vector.broadcast"(%21) : (vector<256xf32>) -> vector<16x256xf32>
    %23 = "math.fma"(%18, %20, %22) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %24 = "arith.truncf"(%23) : (vector<16x256xf32>) -> vector<16x256xf16>
    "vector.transfer_write"(%24, %arg3, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x256xf16>, memref<16x256xf16>, index, index) -> ()
    "func.return"() : () -> ()
  }) {hal.executable.target = #executable_target_cuda_nvptx_fb, translation_info = #translation} : () -> ()
}) : () -> ()

