// A kernel that names no target, read without --target.
func.func @k( // want missing-key: the IR names no target
    %in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %y = math.exp %x : vector<32x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
