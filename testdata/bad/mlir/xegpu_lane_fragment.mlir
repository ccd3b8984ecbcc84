// A load_nd written at lane level (SIMT): each lane's fragment, not the block.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<8x1xf16> // want shape-mismatch: xegpu.load_nd gives vector<8x1xf16> from a block of [64 32]
    gpu.return
  }
}
