// A convert_layout without the layout it converts to.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16>
    %b = xegpu.convert_layout %a <{input_layout = #xegpu.layout<sg_layout = [4, 1]>}> : vector<64x32xf16> // want missing-key: xegpu.convert_layout has no target_layout
    gpu.return
  }
}
