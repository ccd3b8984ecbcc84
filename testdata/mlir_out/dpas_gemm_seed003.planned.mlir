// Seed 003 (the XeGPU workgroup-level proposal, intel/mlir-extensions
// pull request 1033, "Appendix 1.2 Gemm with transpose, broadcast, and
// reduction"): a bf16 DPAS GEMM on pvc, one workgroup of 32 subgroups of
// 16 lanes computing a 256x256 f32 tile from A (256x32) and B, which
// arrives transposed (256x32, its contiguous dimension along K) and is
// transposed back; the product is reduced along its rows, the row maxima
// broadcast back and subtracted. The accumulator is anchored to the
// seed's #sg_map_d (sg_layout = [8, 4], sg_data = [32, 64], lane layout
// [1, 16], order [1, 0]) with the inst_data = [8, 16] the proposal adds
// later, in the seed's own spelling (#xegpu.sg_map, wi_layout, wi_data),
// as a layout_result_0 anchor. The same kernel written by hand as a
// graph: testdata/graphs/seed003_dpas_gemm.toml. Layouts print in XeGPU's
// notation.
//
//   planner solve examples/mlir/dpas_gemm_seed003.mlir --format mlir

#sg_map_d = #xegpu.sg_map<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], wi_layout = [1, 16], wi_data = [1, 1], order = [1, 0]>

gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @gemm_rowmax(%A: memref<256x32xbf16>, %Bt: memref<256x32xbf16>, %C: memref<256x256xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<256x32xbf16> -> !xegpu.tensor_desc<256x32xbf16, #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    %tb = xegpu.create_nd_tdesc %Bt[%c0, %c0] : memref<256x32xbf16> -> !xegpu.tensor_desc<256x32xbf16, #xegpu.layout<sg_layout = [32, 1], sg_data = [64, 32], lane_layout = [16, 1], lane_data = [1, 1]>>
    xegpu.prefetch_nd %ta : !xegpu.tensor_desc<256x32xbf16, #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    %a = xegpu.load_nd %ta {layout_result_0 = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : !xegpu.tensor_desc<256x32xbf16, #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>> -> vector<256x32xbf16>
    %bt = xegpu.load_nd %tb {layout_result_0 = #xegpu.layout<sg_layout = [32, 1], sg_data = [64, 32], lane_layout = [16, 1], lane_data = [1, 1]>} : !xegpu.tensor_desc<256x32xbf16, #xegpu.layout<sg_layout = [32, 1], sg_data = [64, 32], lane_layout = [16, 1], lane_data = [1, 1]>> -> vector<256x32xbf16>
    %b = vector.transpose %bt, [1, 0] {layout_result_0 = #xegpu.layout<sg_layout = [1, 32], sg_data = [32, 64], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>} : vector<256x32xbf16> to vector<32x256xbf16>
    %c = arith.constant {layout_result_0 = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} dense<0.000000e+00> : vector<256x256xf32>
    %d = xegpu.dpas %a, %b, %c {layout_result_0 = #sg_map_d, planner.intrinsic = "dpas_m8n16k16_f32_bf16"} : vector<256x32xbf16>, vector<32x256xbf16>, vector<256x256xf32> -> vector<256x256xf32>
    %ninf = arith.constant dense<0xFF800000> : vector<256xf32>
    %d_cv = xegpu.convert_layout %d <{input_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], lane_layout = [16, 1], lane_data = [1, 1]>}> : vector<256x256xf32>
    %row_max = vector.multi_reduction <maximumf>, %d_cv, %ninf {layout_result_0 = #xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], lane_layout = [16, 1], lane_data = [1, 1]>, dims = [1]>} [1] : vector<256x256xf32> to vector<256xf32>
    // planner: the layout %row_max is converted to in linear bases, as XeGPU's layout cannot write it (not expressible as xegpu: no order numbers its lanes and subgroups the way it does (xegpu numbers both densely, order[0] fastest first, with one order for both))
    %row_max_cv = xegpu.convert_layout %row_max <{input_layout = #xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], lane_layout = [16, 1], lane_data = [1, 1]>, dims = [1]>, target_layout = #planner.linear<register = [[1], [2], [4], [8], [16]], lane = [[0], [0], [0], [0]], subgroup = [[0], [0], [32], [64], [128]]>}> : vector<256xf32>
    %col = vector.shape_cast %row_max_cv : vector<256xf32> to vector<256x1xf32>
    %row_max_b = vector.broadcast %col {layout_result_0 = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<256x1xf32> to vector<256x256xf32>
    %e = arith.subf %d, %row_max_b {layout_result_0 = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<256x256xf32>
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<256x256xf32> -> !xegpu.tensor_desc<256x256xf32, #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    xegpu.store_nd %e, %tc : vector<256x256xf32>, !xegpu.tensor_desc<256x256xf32, #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    gpu.return
  }
}
