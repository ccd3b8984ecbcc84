// A layout_result_0 whose XeGPU layout has a field XeGPU does not have.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16>
    %e = math.exp %a {layout_result_0 = #xegpu.layout<sg_layout = [4, 1], lane_tile = [1, 16]>} : vector<64x32xf16> // want unknown-key: xegpu.layout has no field lane_tile
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    xegpu.store_nd %e, %tc : vector<64x32xf16>, !xegpu.tensor_desc<64x32xf16>
    gpu.return
  }
}
