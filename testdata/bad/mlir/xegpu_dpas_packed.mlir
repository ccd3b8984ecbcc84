// A B operand loaded VNNI-packed for DPAS.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16>
    %b = xegpu.load_nd %t {packed} : !xegpu.tensor_desc<64x32xf16> -> vector<32x32x2xf16> // want bad-value: xegpu.load_nd packs its block for VNNI
    gpu.return
  }
}
