// A row sum of a 64x64 f32 block on pvc, one subgroup of 16 lanes, the
// block load and the reduction's result given only inst_data: the block
// alone fills the 256 registers a lane has, so no plan exists, and the
// explanation asks the SAT solver many questions in a row.
#tile = #xegpu.layout<inst_data = [16, 16]>
#row = #xegpu.layout<inst_data = [16]>
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @row_sum(%src: memref<64x64xf32>, %dst: memref<64xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<64xf32>
    %in = xegpu.create_nd_tdesc %src[%c0, %c0] : memref<64x64xf32> -> !xegpu.tensor_desc<64x64xf32, #tile>
    %x = xegpu.load_nd %in : !xegpu.tensor_desc<64x64xf32, #tile> -> vector<64x64xf32>
    %s = vector.multi_reduction <add>, %x, %zero {layout_result_0 = #row} [1] : vector<64x64xf32> to vector<64xf32>
    %out = xegpu.create_nd_tdesc %dst[%c0] : memref<64xf32> -> !xegpu.tensor_desc<64xf32, #row>
    xegpu.store_nd %s, %out : vector<64xf32>, !xegpu.tensor_desc<64xf32, #row>
    gpu.return
  }
}
