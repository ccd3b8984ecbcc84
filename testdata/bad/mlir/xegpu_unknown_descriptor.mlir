// A tensor descriptor passed in as an argument: the reader cannot see its memory.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%t: !xegpu.tensor_desc<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16> // want unknown-name: xegpu.load_nd reads the tensor_desc %t, which no xegpu.create_nd_tdesc in the function makes
    gpu.return
  }
}
