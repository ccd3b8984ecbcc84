// mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic mfma_gemm_seed001.mlir: MLIR's own
// generic form of mfma_gemm_seed001.mlir, which the tests read beside it (mlir/judge_test.go).
#map = affine_map<()[s0] -> (s0 * 256)>
#map1 = affine_map<()[s0] -> (s0 * 128)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4096x1024xf16>, memref<1024x4096xf16>, memref<4096x4096xf32>) -> (), sym_name = "matmul_256x128x64"}> ({
  ^bb0(%arg0: memref<4096x1024xf16>, %arg1: memref<1024x4096xf16>, %arg2: memref<4096x4096xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 64 : index}> : () -> index
    %2 = "arith.constant"() <{value = 1024 : index}> : () -> index
    %3 = "arith.constant"() <{value = 0.000000e+00 : f16}> : () -> f16
    %4 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<256x64xf16, #gpu.address_space<workgroup>>
    %5 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<64x128xf16, #gpu.address_space<workgroup>>
    %6 = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
    %7 = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
    %8 = "affine.apply"(%7) <{map = #map}> : (index) -> index
    %9 = "affine.apply"(%6) <{map = #map1}> : (index) -> index
    %10 = "arith.constant"() <{value = dense<0.000000e+00> : vector<256x128xf32>}> : () -> vector<256x128xf32>
    %11 = "scf.for"(%0, %2, %1, %10) ({
    ^bb0(%arg3: index, %arg4: vector<256x128xf32>):
      %12 = "vector.transfer_read"(%arg0, %8, %arg3, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map2}> : (memref<4096x1024xf16>, index, index, f16) -> vector<256x64xf16>
      "vector.transfer_write"(%12, %4, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map2}> : (vector<256x64xf16>, memref<256x64xf16, #gpu.address_space<workgroup>>, index, index) -> ()
      %13 = "vector.transfer_read"(%arg1, %arg3, %9, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map2}> : (memref<1024x4096xf16>, index, index, f16) -> vector<64x128xf16>
      "vector.transfer_write"(%13, %5, %0, %0) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map2}> : (vector<64x128xf16>, memref<64x128xf16, #gpu.address_space<workgroup>>, index, index) -> ()
      "gpu.barrier"() : () -> ()
      %14 = "vector.transfer_read"(%4, %0, %0, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map2}> : (memref<256x64xf16, #gpu.address_space<workgroup>>, index, index, f16) -> vector<256x64xf16>
      %15 = "vector.transfer_read"(%5, %0, %0, %3) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map2}> : (memref<64x128xf16, #gpu.address_space<workgroup>>, index, index, f16) -> vector<64x128xf16>
      %16 = "vector.contract"(%14, %15, %arg4) <{indexing_maps = [#map3, #map4, #map5], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<256x64xf16>, vector<64x128xf16>, vector<256x128xf32>) -> vector<256x128xf32>
      "gpu.barrier"() : () -> ()
      "scf.yield"(%16) : (vector<256x128xf32>) -> ()
    }) : (index, index, index, vector<256x128xf32>) -> vector<256x128xf32>
    "vector.transfer_write"(%11, %arg2, %8, %9) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map2}> : (vector<256x128xf32>, memref<4096x4096xf32>, index, index) -> ()
    "func.return"() : () -> ()
  }) {hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.gpu.target = #iree_gpu.target<arch = "gfx942">}>, translation_info = #iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute workgroup_size = [256, 1, 1] subgroup_size = 64>} : () -> ()
}) : () -> ()

