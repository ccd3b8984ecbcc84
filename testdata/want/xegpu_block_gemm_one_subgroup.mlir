// A pvc DPAS GEMM with 2D block I/O on one subgroup of 16 lanes: a 32x64
// f32 accumulator carried over 8 trips of K = 64, A (32x64 bf16) through
// the plain 8x16 block load, B (64x64 bf16) through the VNNI-transforming
// 16x16 block load, the accumulator out through the 32-bit 8x16 block
// store, and nothing converted. Held whole, the accumulator (128
// registers per lane), A (64) and B (128) were live together: 320, over
// the 256 a pvc lane has, and the kernel had no plan. A and B are each
// read by the dpas alone, so they are streamed into it one K step of 16
// at a time, as XeGPU's blocking splits the loads and the dpas by
// inst_data and IGC schedules each block load by its dpas (docs/graphs.md,
// Registers): 128 + 16 + 32 = 176.
//
// want status optimal
// want registers 176
// want conversions 0
// want cost 17680
#la = #xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @gemm_block(%A: memref<32x512xbf16>, %B: memref<512x64xbf16>, %C: memref<32x64xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<32x512xbf16> -> !xegpu.tensor_desc<32x64xbf16, #la>
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<512x64xbf16> -> !xegpu.tensor_desc<64x64xbf16>
    %zero = arith.constant dense<0.000000e+00> : vector<32x64xf32>
    %r:3 = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %zero, %pa = %ta, %pb = %tb) -> (vector<32x64xf32>, !xegpu.tensor_desc<32x64xbf16, #la>, !xegpu.tensor_desc<64x64xbf16>) {
      %a = xegpu.load_nd %pa : !xegpu.tensor_desc<32x64xbf16, #la> -> vector<32x64xbf16> // want intrinsic "block_load_2d_16b_8x16"
      %b = xegpu.load_nd %pb : !xegpu.tensor_desc<64x64xbf16> -> vector<64x64xbf16> // want intrinsic "block_load_2d_16b_16x16_vnni"
      %d = xegpu.dpas %a, %b, %acc {layout_result_0 = #la} : vector<32x64xbf16>, vector<64x64xbf16>, vector<32x64xf32> -> vector<32x64xf32> // want intrinsic "dpas_m8n16k16_f32_bf16"
      %na = xegpu.update_nd_offset %pa, [%c0, %c64] : !xegpu.tensor_desc<32x64xbf16, #la>
      %nb = xegpu.update_nd_offset %pb, [%c64, %c0] : !xegpu.tensor_desc<64x64xbf16>
      scf.yield %d, %na, %nb : vector<32x64xf32>, !xegpu.tensor_desc<32x64xbf16, #la>, !xegpu.tensor_desc<64x64xbf16>
    }
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32>
    xegpu.store_nd %r#0, %tc : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32> // want intrinsic "block_store_2d_32b_8x16"
    gpu.return
  }
}
