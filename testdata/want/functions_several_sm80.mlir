// A module of three functions, each planned on its own (no --func):
// @scale_rows and @row_max lay out their vectors, @touch has nothing to
// lay out and is left as written. Written back, each planned function
// gets its anchors, and the text of the others and the alias #rows_map
// only @row_max uses stay byte for byte. File wants are the functions'
// totals.
// want status optimal; cost 1776; conversions 0; subgroups 4
#rows_map = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_rows(%in: memref<64x64xf32>, %out: memref<64x64xf32>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %two = arith.constant dense<2.000000e+00> : vector<64x64xf32>
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<64x64xf32>
  %y = arith.mulf %x, %two : vector<64x64xf32> // want layout "register = [[0, 1], [0, 2], "
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}
func.func @row_max(%in: memref<32x128xf32>, %out: memref<32xf32>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant dense<0xFF800000> : vector<32xf32>
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = #rows_map} : memref<32x128xf32>, vector<32x128xf32>
  %m = vector.multi_reduction <maximumf>, %x, %ninf [1] : vector<32x128xf32> to vector<32xf32>
  vector.transfer_write %m, %out[%c0] {in_bounds = [true]} : vector<32xf32>, memref<32xf32>
  return
}
func.func @touch(%m: memref<4xf32>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  memref.store %v, %m[%c0] : memref<4xf32>
  return
}
