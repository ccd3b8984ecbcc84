// An sg_map field (seed 003's spelling) that is not a list of integers.
gpu.module @k [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf16>, %C: memref<64x32xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf16> -> !xegpu.tensor_desc<64x32xf16, #xegpu.sg_map<sg_layout = [4, 1], wi_layout = [1, x]>> // want bad-value: lane_layout's entries are integers, found 'x'
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf16, #xegpu.sg_map<sg_layout = [4, 1], wi_layout = [1, x]>> -> vector<64x32xf16>
    gpu.return
  }
}
