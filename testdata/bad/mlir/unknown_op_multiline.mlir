// An op the reader does not know, written over several lines (a trailing
// comma, a type list on a line of its own, an attribute dictionary after
// it), then an unknown op on scalars and ops the reader knows: the first
// is skipped as one statement and refused by name at its own line, and the
// statements after it are read as they are written (%r:2 is defined).
func.func @k(%m: memref<32x32xf32>) attributes {gpu.known_block_size = array<i32: 32, 1, 1>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %p : memref<32x32xf32>, vector<32x32xf32>
  %w = acme.blend %v, // want unknown-name: acme.blend is not understood, and it touches vectors (%v, vector<...>)
       %v
       : vector<32x32xf32>
       {weights = [1, 2],
        mode = "soft"}
  %r:2 = acme.pair %p : (f32) -> (f32, f32)
  %s = arith.addf %r#0, %r#1 : f32
  %y = arith.addf %v, %v : vector<32x32xf32>
  vector.transfer_write %y, %m[%c0, %c0] : vector<32x32xf32>, memref<32x32xf32>
  return
}
