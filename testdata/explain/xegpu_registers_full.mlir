// A row sum of a 32x64 f32 block on pvc, one subgroup of 16 lanes, the
// block load pinned to a layout that spreads it over 4 lanes along its
// rows (the other 12 holding copies) and the reduction's result over 16
// lanes: the block so needs 512 of the 256 registers a lane has, so no
// plan exists, and the explanation asks the SAT solver many questions in
// a row.
#tile = #xegpu.layout<lane_layout = [1, 4], lane_data = [1, 1]>
#row = #xegpu.layout<lane_layout = [16], lane_data = [1]>
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @row_sum(%src: memref<32x64xf32>, %dst: memref<32xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32, known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<32xf32>
    %in = xegpu.create_nd_tdesc %src[%c0, %c0] : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #tile>
    %x = xegpu.load_nd %in : !xegpu.tensor_desc<32x64xf32, #tile> -> vector<32x64xf32>
    %s = vector.multi_reduction <add>, %x, %zero {layout_result_0 = #row} [1] : vector<32x64xf32> to vector<32xf32>
    %out = xegpu.create_nd_tdesc %dst[%c0] : memref<32xf32> -> !xegpu.tensor_desc<32xf32, #row>
    xegpu.store_nd %s, %out : vector<32xf32>, !xegpu.tensor_desc<32xf32, #row>
    gpu.return
  }
}
