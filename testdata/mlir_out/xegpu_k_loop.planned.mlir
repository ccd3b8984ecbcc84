// An XeGPU GEMM with its K loop: the loop carries the accumulator and the
// two tensor descriptors, which update_nd_offset moves along K. A's
// descriptor states its layout (a pin of every A tile loaded through it);
// the DPAS reads its accumulator in the layout its layout_operand_2 names.
// The loop also carries the running maximum of the partial products, an
// iter_arg nothing pins (written back, it is anchored by a convert_layout).
// On pvc (subgroups of 16 lanes), 256 threads: 16 subgroups.

gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @gemm_k(%A: memref<128x256xf16>, %B: memref<256x128xf16>, %C: memref<128x128xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<128x256xf16> -> !xegpu.tensor_desc<128x32xf16, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>>
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<256x128xf16> -> !xegpu.tensor_desc<32x128xf16, #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>>
    %zero = arith.constant {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} dense<0.000000e+00> : vector<128x128xf32>
    %r:4 = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %zero, %pa = %ta, %pb = %tb, %m = %zero) -> (vector<128x128xf32>, !xegpu.tensor_desc<128x32xf16, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>>, !xegpu.tensor_desc<32x128xf16, #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>>, vector<128x128xf32>) {
      %m_l = xegpu.convert_layout %m <{input_layout = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<128x128xf32>
      %a = xegpu.load_nd %pa : !xegpu.tensor_desc<128x32xf16, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>> -> vector<128x32xf16>
      %b = xegpu.load_nd %pb {layout_result_0 = #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>} : !xegpu.tensor_desc<32x128xf16, #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>> -> vector<32x128xf16>
      %a_cv = xegpu.convert_layout %a <{input_layout = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<128x32xf16>
      %d = xegpu.dpas %a_cv, %b, %acc {layout_operand_2 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [8, 1]>, layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, planner.intrinsic = "dpas_m8n16k16_f32_f16"} : vector<128x32xf16>, vector<32x128xf16>, vector<128x128xf32> -> vector<128x128xf32>
      %na = xegpu.update_nd_offset %pa, [%c0, %c32] : !xegpu.tensor_desc<128x32xf16, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>>
      %nb = xegpu.update_nd_offset %pb, [%c32, %c0] : !xegpu.tensor_desc<32x128xf16, #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>>
      %m2 = arith.maximumf %m_l, %d {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<128x128xf32>
      scf.yield %d, %na, %nb, %m2 : vector<128x128xf32>, !xegpu.tensor_desc<128x32xf16, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [1, 16], lane_data = [1, 1]>>, !xegpu.tensor_desc<32x128xf16, #xegpu.layout<sg_layout = [1, 16], sg_data = [32, 32], inst_data = [32, 16], lane_layout = [1, 16], lane_data = [2, 1]>>, vector<128x128xf32>
    } {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, layout_result_3 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>}
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<128x128xf32> -> !xegpu.tensor_desc<128x128xf32, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    %out = arith.addf %r#0, %r#3 {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<128x128xf32>
    xegpu.store_nd %out, %tc : vector<128x128xf32>, !xegpu.tensor_desc<128x128xf32, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>>
    gpu.return
  }
}
