// An XeGPU op the reader does not read: a scattered load.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_tdesc %A, %c0 : memref<64x32xf16>, index -> !xegpu.tensor_desc<16xf16> // want unknown-name: xegpu.create_tdesc is an XeGPU op the planner does not read
    gpu.return
  }
}
