// A tensor_desc layout whose sg_data does not divide the block.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16, #xegpu.layout<sg_layout = [4, 1], sg_data = [24, 32]>> // want bad-value: sg_data 24 does not divide the extent 64
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16, #xegpu.layout<sg_layout = [4, 1], sg_data = [24, 32]>> -> vector<64x32xf16>
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    xegpu.store_nd %a, %tc : vector<64x32xf16>, !xegpu.tensor_desc<64x32xf16>
    gpu.return
  }
}
