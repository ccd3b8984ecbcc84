// The transposed-B block I/O GEMM of xegpu_block_gemm_transposed.mlir on
// bmg (Xe2): the same 2D block records serve it (one instruction registry
// and one set of block I/O restrictions for PVC and BMG in MLIR's XeGPU
// uArch, IntelGpuXe2.h), and at 128 registers per lane the plan just fits
// bmg's budget (128 GRFs of 64 bytes for a subgroup of 16).
//
// want conversions 0
// want cost 4200

#la = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#lbt = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [16, 16], lane_layout = [16, 1], lane_data = [1, 2], order = [0, 1]>

gpu.module @kernels [#xevm.target<chip = "bmg">] {
  gpu.func @gemm_block(%A: memref<128x256xbf16>, %Bt: memref<128x256xbf16>, %C: memref<128x128xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<128x256xbf16> -> !xegpu.tensor_desc<128x32xbf16, #la>
    %tb = xegpu.create_nd_tdesc %Bt[%c0, %c0] : memref<128x256xbf16> -> !xegpu.tensor_desc<128x32xbf16, #lbt>
    %zero = arith.constant dense<0.000000e+00> : vector<128x128xf32>
    %r:3 = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %zero, %pa = %ta, %pb = %tb) -> (vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16, #la>, !xegpu.tensor_desc<128x32xbf16, #lbt>) {
      %a = xegpu.load_nd %pa : !xegpu.tensor_desc<128x32xbf16, #la> -> vector<128x32xbf16> // want intrinsic "block_load_2d_16b_8x16"
      %b = xegpu.load_nd %pb {transpose = array<i64: 1, 0>} : !xegpu.tensor_desc<128x32xbf16, #lbt> -> vector<32x128xbf16> // want intrinsic "block_load_2d_32b_16x8_transpose"
      %d = xegpu.dpas %a, %b, %acc {layout_result_0 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : vector<128x32xbf16>, vector<32x128xbf16>, vector<128x128xf32> -> vector<128x128xf32> // want intrinsic "dpas_m8n16k16_f32_bf16"
      %na = xegpu.update_nd_offset %pa, [%c0, %c32] : !xegpu.tensor_desc<128x32xbf16, #la>
      %nb = xegpu.update_nd_offset %pb, [%c0, %c32] : !xegpu.tensor_desc<128x32xbf16, #lbt>
      scf.yield %d, %na, %nb : vector<128x128xf32>, !xegpu.tensor_desc<128x32xbf16, #la>, !xegpu.tensor_desc<128x32xbf16, #lbt>
    }
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<128x128xf32> -> !xegpu.tensor_desc<128x128xf32>
    xegpu.store_nd %r#0, %tc : vector<128x128xf32>, !xegpu.tensor_desc<128x128xf32> // want intrinsic "block_store_2d_32b_8x16"
    gpu.return
  }
}
