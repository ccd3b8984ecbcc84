// A pvc DPAS GEMM with 2D block I/O, as upstream XeGPU writes one at
// workgroup level: 16 subgroups compute a 128x128 f32 tile of A (128x256
// bf16) times B (256x128 bf16, row-major K x N) over a K loop of 8 trips of
// 32. A's descriptor carries the DPAS A distribution as an XeGPU layout
// (B's layout is left to the planner); A arrives through the plain 8x16
// block load, B through the VNNI-transforming 16x16 block load (what
// xegpu.load_nd's packed does), the accumulator leaves through the 32-bit
// 8x16 block store, and nothing is converted. Without A's layout the
// plan is the same (xegpu_block_gemm_free_a.mlir): the four subgroups
// that read each line of A read it from L1 after the first.
//
// want conversions 0
// want cost 4200

#la = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>

gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @gemm_block(%A: memref<128x256xbf16>, %B: memref<256x128xbf16>, %C: memref<128x128xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<128x256xbf16> -> !xegpu.tensor_desc<128x32xbf16, #la>
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<256x128xbf16> -> !xegpu.tensor_desc<32x128xbf16>
    %zero = arith.constant dense<0.000000e+00> : vector<128x128xf32>
    %r:3 = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %zero, %pa = %ta, %pb = %tb) -> (vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16, #la>, !xegpu.tensor_desc<32x128xbf16>) {
      %a = xegpu.load_nd %pa : !xegpu.tensor_desc<128x32xbf16, #la> -> vector<128x32xbf16> // want intrinsic "block_load_2d_16b_8x16"
      %b = xegpu.load_nd %pb : !xegpu.tensor_desc<32x128xbf16> -> vector<32x128xbf16> // want intrinsic "block_load_2d_16b_16x16_vnni"
      %d = xegpu.dpas %a, %b, %acc {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<128x32xbf16>, vector<32x128xbf16>, vector<128x128xf32> -> vector<128x128xf32> // want intrinsic "dpas_m8n16k16_f32_bf16"
      %na = xegpu.update_nd_offset %pa, [%c0, %c32] : !xegpu.tensor_desc<128x32xbf16, #la>
      %nb = xegpu.update_nd_offset %pb, [%c32, %c0] : !xegpu.tensor_desc<32x128xbf16>
      scf.yield %d, %na, %nb : vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16, #la>, !xegpu.tensor_desc<32x128xbf16>
    }
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<128x128xf32> -> !xegpu.tensor_desc<128x128xf32>
    xegpu.store_nd %r#0, %tc : vector<128x128xf32>, !xegpu.tensor_desc<128x128xf32> // want intrinsic "block_store_2d_32b_8x16"
    gpu.return
  }
}
