// A tensor descriptor of a block of shared memory.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16, 3> -> !xegpu.tensor_desc<64x32xf16> // want bad-value: xegpu.create_nd_tdesc describes a block of %A in shared memory
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16>
    gpu.return
  }
}
