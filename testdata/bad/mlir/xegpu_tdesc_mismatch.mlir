// A load_nd whose tensor_desc type is not the descriptor's: one has a layout, the other none.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16, #xegpu.layout<sg_layout = [4, 1]>>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16> // want shape-mismatch: %t is used as !xegpu.tensor_desc<64x32xf16> but is defined as
    gpu.return
  }
}
