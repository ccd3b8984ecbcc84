// Issue 30's DPAS GEMM with 2D block I/O as its own case: the kernel of
// xegpu_block_gemm_vnni.mlir with no layout on A's descriptor, the
// planner free to choose A's. 16 subgroups on 4x4 hold A in the DPAS A
// distribution, the four subgroups along N the same 32 rows; before loads
// were priced with the reuse of replicated reads, the four subgroups'
// block loads of each line cost four reads from L2, and the plan loaded A
// once over 16x1 subgroups and exchanged it through shared memory every
// trip (cost 5592, the exchange 1440 of it). The repeats now hit L1
// (model.ReusedSectorCost): A loads straight into the DPAS layout and
// nothing is converted, at the cost of the kernel with A's layout stated.
//
// want conversions 0
// want cost 4200

gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @gemm_block(%A: memref<128x256xbf16>, %B: memref<256x128xbf16>, %C: memref<128x128xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<128x256xbf16> -> !xegpu.tensor_desc<128x32xbf16>
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<256x128xbf16> -> !xegpu.tensor_desc<32x128xbf16>
    %zero = arith.constant dense<0.000000e+00> : vector<128x128xf32>
    %r:3 = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %zero, %pa = %ta, %pb = %tb) -> (vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16>, !xegpu.tensor_desc<32x128xbf16>) {
      %a = xegpu.load_nd %pa : !xegpu.tensor_desc<128x32xbf16> -> vector<128x32xbf16> // want intrinsic "block_load_2d_16b_8x16"; method "each sector read by 4 subgroups"; conversions 0
      %b = xegpu.load_nd %pb : !xegpu.tensor_desc<32x128xbf16> -> vector<32x128xbf16> // want intrinsic "block_load_2d_16b_16x16_vnni"
      %d = xegpu.dpas %a, %b, %acc {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<128x32xbf16>, vector<32x128xbf16>, vector<128x128xf32> -> vector<128x128xf32> // want intrinsic "dpas_m8n16k16_f32_bf16"
      %na = xegpu.update_nd_offset %pa, [%c0, %c32] : !xegpu.tensor_desc<128x32xbf16>
      %nb = xegpu.update_nd_offset %pb, [%c32, %c0] : !xegpu.tensor_desc<32x128xbf16>
      scf.yield %d, %na, %nb : vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16>, !xegpu.tensor_desc<32x128xbf16>
    }
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<128x128xf32> -> !xegpu.tensor_desc<128x128xf32>
    xegpu.store_nd %r#0, %tc : vector<128x128xf32>, !xegpu.tensor_desc<128x128xf32> // want intrinsic "block_store_2d_32b_8x16"
    gpu.return
  }
}
