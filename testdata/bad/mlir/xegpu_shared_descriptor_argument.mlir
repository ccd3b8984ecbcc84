// A tensor descriptor argument of a block of shared memory (memory_space = slm).
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%t: !xegpu.tensor_desc<64x32xf16, #xegpu.block_tdesc_attr<memory_space = slm>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} { // want bad-value: the tensor_desc %t describes a block of shared memory (memory_space = slm)
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16, #xegpu.block_tdesc_attr<memory_space = slm>> -> vector<64x32xf16>
    gpu.return
  }
}
