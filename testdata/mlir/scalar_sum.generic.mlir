// iree-opt --mlir-print-op-generic scalar_sum.mlir: IREE's own
// generic form of scalar_sum.mlir (iree-base-compiler's iree-opt, pinned in
// oracle/requirements.txt), which the tests read beside it (mlir/judge_test.go).
#map = affine_map<(d0) -> (d0)>
#translation = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [32, 1, 1] subgroup_size = 32>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "scale"}> ({
  ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %2 = "vector.transfer_read"(%arg0, %0, %1) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map}> : (memref<64xf32>, index, f32) -> vector<64xf32>
    %3 = "vector.reduction"(%2) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<64xf32>) -> f32
    %4 = "vector.broadcast"(%3) : (f32) -> vector<64xf32>
    %5 = "arith.divf"(%2, %4) <{fastmath = #arith.fastmath<none>}> : (vector<64xf32>, vector<64xf32>) -> vector<64xf32>
    "vector.transfer_write"(%5, %arg1, %0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map}> : (vector<64xf32>, memref<64xf32>, index) -> ()
    "func.return"() : () -> ()
  }) {target = #nvvm.target<chip = "sm_80">, translation_info = #translation} : () -> ()
}) : () -> ()

