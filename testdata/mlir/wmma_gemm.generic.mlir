// iree-opt --mlir-print-op-generic wmma_gemm.mlir: IREE's own
// generic form of wmma_gemm.mlir (iree-base-compiler's iree-opt, pinned in
// oracle/requirements.txt), which the tests read beside it (mlir/judge_test.go).
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "gpu.module"() <{sym_name = "wmma", targets = [#nvvm.target<chip = "sm_80">]}> ({
    "gpu.func"() <{function_type = (memref<16x128xf16>, memref<128x16xf16>) -> (), kernel, sym_name = "wmma_gemm", workgroup_attributions = 3 : i64}> ({
    ^bb0(%arg0: memref<16x128xf16>, %arg1: memref<128x16xf16>, %arg2: memref<16x16xf16, #gpu.address_space<workgroup>>, %arg3: memref<16x16xf16, #gpu.address_space<workgroup>>, %arg4: memref<16x16xf32, #gpu.address_space<workgroup>>):
      %0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %1 = "arith.constant"() <{value = 16 : index}> : () -> index
      %2 = "arith.constant"() <{value = 128 : index}> : () -> index
      %3 = "arith.constant"() <{value = 0.000000e+00 : f16}> : () -> f16
      %4 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %5 = "arith.constant"() <{value = 5.000000e-01 : f32}> : () -> f32
      %6 = "gpu.subgroup_mma_constant_matrix"(%4) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
      %7 = "scf.for"(%0, %2, %1, %6) ({
      ^bb0(%arg5: index, %arg6: !gpu.mma_matrix<16x16xf32, "COp">):
        %10 = "vector.transfer_read"(%arg0, %0, %arg5, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<16x128xf16>, index, index, f16) -> vector<16x16xf16>
        "vector.transfer_write"(%10, %arg2, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> ()
        %11 = "vector.transfer_read"(%arg1, %arg5, %0, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<128x16xf16>, index, index, f16) -> vector<16x16xf16>
        "vector.transfer_write"(%11, %arg3, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> ()
        "gpu.barrier"() <{scope = #gpu.barrier_scope<workgroup>}> : () -> ()
        %12 = "gpu.subgroup_mma_load_matrix"(%arg2, %0, %0) <{leadDimension = 16 : index}> : (memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
        %13 = "gpu.subgroup_mma_load_matrix"(%arg3, %0, %0) <{leadDimension = 16 : index}> : (memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> !gpu.mma_matrix<16x16xf16, "BOp">
        %14 = "gpu.subgroup_mma_compute"(%12, %13, %arg6) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
        "scf.yield"(%14) : (!gpu.mma_matrix<16x16xf32, "COp">) -> ()
      }) : (index, index, index, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %8 = "gpu.subgroup_mma_constant_matrix"(%5) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
      %9 = "gpu.subgroup_mma_elementwise"(%7, %8) <{opType = #gpu.mma_element_wise<mulf>}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      "gpu.subgroup_mma_store_matrix"(%9, %arg4, %0, %0) <{leadDimension = 16 : index}> : (!gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>, index, index) -> ()
      "gpu.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}) : () -> ()

