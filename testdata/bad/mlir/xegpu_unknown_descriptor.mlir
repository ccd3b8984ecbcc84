// A tensor descriptor an op the reader does not know makes: the reader cannot see its memory.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%p: ui64) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = "my.make_tdesc"(%p) : (ui64) -> !xegpu.tensor_desc<64x32xf16>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16> -> vector<64x32xf16> // want unknown-name: xegpu.load_nd reads the tensor_desc %t, which no xegpu.create_nd_tdesc in the function makes
    gpu.return
  }
}
