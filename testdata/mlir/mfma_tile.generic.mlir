// iree-opt --mlir-print-op-generic mfma_tile.mlir: IREE's own
// generic form of mfma_tile.mlir (iree-base-compiler's iree-opt, pinned in
// oracle/requirements.txt), which the tests read beside it (mlir/judge_test.go).
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "gpu.module"() <{sym_name = "mfma", targets = [#rocdl.target<chip = "gfx942">]}> ({
    "gpu.func"() <{function_type = (memref<16x64xf16>, memref<16x64xf16>, memref<16x16xf32>) -> (), kernel, sym_name = "mfma_tile", workgroup_attributions = 2 : i64}> ({
    ^bb0(%arg0: memref<16x64xf16>, %arg1: memref<16x64xf16>, %arg2: memref<16x16xf32>, %arg3: memref<16x16xf16, #gpu.address_space<workgroup>>, %arg4: memref<16x16xf16, #gpu.address_space<workgroup>>):
      %0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %1 = "arith.constant"() <{value = 16 : index}> : () -> index
      %2 = "arith.constant"() <{value = 64 : index}> : () -> index
      %3 = "arith.constant"() <{value = 0.000000e+00 : f16}> : () -> f16
      %4 = "gpu.lane_id"() : () -> index
      %5 = "arith.constant"() <{value = dense<0.000000e+00> : vector<4xf32>}> : () -> vector<4xf32>
      %6 = "scf.for"(%0, %2, %1, %5) ({
      ^bb0(%arg5: index, %arg6: vector<4xf32>):
        %8 = "vector.transfer_read"(%arg0, %0, %arg5, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<16x64xf16>, index, index, f16) -> vector<16x16xf16>
        "vector.transfer_write"(%8, %arg3, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> ()
        %9 = "vector.transfer_read"(%arg1, %0, %arg5, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<16x64xf16>, index, index, f16) -> vector<16x16xf16>
        "vector.transfer_write"(%9, %arg4, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> ()
        "gpu.barrier"() <{scope = #gpu.barrier_scope<workgroup>}> : () -> ()
        %10 = "vector.load"(%arg3, %4, %0) : (memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> vector<4xf16>
        %11 = "vector.load"(%arg4, %4, %0) : (memref<16x16xf16, #gpu.address_space<workgroup>>, index, index) -> vector<4xf16>
        %12 = "amdgpu.mfma"(%10, %11, %arg6) <{abid = 0 : i32, blgp = #rocdl.mfma_perm_b<none>, blocks = 1 : i32, cbsz = 0 : i32, k = 16 : i32, m = 16 : i32, n = 16 : i32}> : (vector<4xf16>, vector<4xf16>, vector<4xf32>) -> vector<4xf32>
        "scf.yield"(%12) : (vector<4xf32>) -> ()
      }) : (index, index, index, vector<4xf32>) -> vector<4xf32>
      %7 = "arith.addf"(%6, %6) <{fastmath = #arith.fastmath<none>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
      "vector.store"(%7, %arg2, %4, %0) : (vector<4xf32>, memref<16x16xf32>, index, index) -> ()
      "gpu.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}) : () -> ()

