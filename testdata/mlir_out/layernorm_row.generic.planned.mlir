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
    %v3_l = "iree_vector_ext.to_layout"(%3) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %4 = "vector.multi_reduction"(%v3_l, %2) <{kind = #vector.kind<add>, reduction_dims = array<i64: 1>}> : (vector<16x256xf32>, vector<16xf32>) -> vector<16xf32>
    %v4_l = "iree_vector_ext.to_layout"(%4) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %5 = "arith.constant"() <{value = dense<3.906250e-03> : vector<16xf32>}> : () -> vector<16xf32>
    %v5_l = "iree_vector_ext.to_layout"(%5) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %6 = "arith.mulf"(%v4_l, %v5_l) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %v6_l = "iree_vector_ext.to_layout"(%6) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %7 = "vector.shape_cast"(%v6_l) : (vector<16xf32>) -> vector<16x1xf32>
    %8 = "vector.broadcast"(%7) : (vector<16x1xf32>) -> vector<16x256xf32>
    %v8_l = "iree_vector_ext.to_layout"(%8) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %9 = "arith.subf"(%v3_l, %v8_l) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %v9_l = "iree_vector_ext.to_layout"(%9) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %10 = "arith.mulf"(%v9_l, %v9_l) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %v10_l = "iree_vector_ext.to_layout"(%10) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %11 = "vector.multi_reduction"(%v10_l, %2) <{kind = #vector.kind<add>, reduction_dims = array<i64: 1>}> : (vector<16x256xf32>, vector<16xf32>) -> vector<16xf32>
    %v11_l = "iree_vector_ext.to_layout"(%11) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %12 = "arith.mulf"(%v11_l, %v5_l) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %v12_l = "iree_vector_ext.to_layout"(%12) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %13 = "arith.constant"() <{value = dense<9.99999974E-6> : vector<16xf32>}> : () -> vector<16xf32>
    %v13_l = "iree_vector_ext.to_layout"(%13) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %14 = "arith.addf"(%v12_l, %v13_l) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %v14_l = "iree_vector_ext.to_layout"(%14) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %15 = "math.rsqrt"(%v14_l) <{fastmath = #arith.fastmath<none>}> : (vector<16xf32>) -> vector<16xf32>
    %v15_l = "iree_vector_ext.to_layout"(%15) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [1], subgroup_strides = [1], thread_strides = [0]>}> : (vector<16xf32>) -> vector<16xf32>
    %16 = "vector.shape_cast"(%v15_l) : (vector<16xf32>) -> vector<16x1xf32>
    %17 = "vector.broadcast"(%16) : (vector<16x1xf32>) -> vector<16x256xf32>
    %v17_l = "iree_vector_ext.to_layout"(%17) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %18 = "arith.mulf"(%v9_l, %v17_l) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %v18_l = "iree_vector_ext.to_layout"(%18) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %19 = "vector.transfer_read"(%arg1, %0, %1) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map1}> : (memref<256xf32>, index, f32) -> vector<256xf32>
    %v19_l = "iree_vector_ext.to_layout"(%19) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [2], outer_tile = [1], thread_tile = [32], element_tile = [4], subgroup_strides = [0], thread_strides = [1]>}> : (vector<256xf32>) -> vector<256xf32>
    %20 = "vector.broadcast"(%v19_l) : (vector<256xf32>) -> vector<16x256xf32>
    %v20_l = "iree_vector_ext.to_layout"(%20) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %21 = "vector.transfer_read"(%arg2, %0, %1) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map1}> : (memref<256xf32>, index, f32) -> vector<256xf32>
    %v21_l = "iree_vector_ext.to_layout"(%21) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [2], outer_tile = [1], thread_tile = [32], element_tile = [4], subgroup_strides = [0], thread_strides = [1]>}> : (vector<256xf32>) -> vector<256xf32>
    %22 = "vector.broadcast"(%v21_l) : (vector<256xf32>) -> vector<16x256xf32>
    %v22_l = "iree_vector_ext.to_layout"(%22) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %23 = "math.fma"(%v18_l, %v20_l, %v22_l) <{fastmath = #arith.fastmath<none>}> : (vector<16x256xf32>, vector<16x256xf32>, vector<16x256xf32>) -> vector<16x256xf32>
    %v23_l = "iree_vector_ext.to_layout"(%23) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf32>) -> vector<16x256xf32>
    %24 = "arith.truncf"(%v23_l) : (vector<16x256xf32>) -> vector<16x256xf16>
    %v24_l = "iree_vector_ext.to_layout"(%24) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [16, 1], batch_tile = [1, 2], outer_tile = [1, 1], thread_tile = [1, 32], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [0, 1]>}> : (vector<16x256xf16>) -> vector<16x256xf16>
    "vector.transfer_write"(%v24_l, %arg3, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x256xf16>, memref<16x256xf16>, index, index) -> ()
    "func.return"() : () -> ()
  }) {hal.executable.target = #executable_target_cuda_nvptx_fb, translation_info = #translation} : () -> ()
}) : () -> ()

