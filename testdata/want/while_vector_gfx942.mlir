// scf.while carrying a vector: a tile is halved by exp and scale until a
// run-time count runs out, then written out. The loop's condition passes
// its arguments on unchanged (the form the reader reads); its trip count
// is known only at run time, so it is priced at the documented default.
// On gfx942, 2 subgroups of 64 lanes.
func.func @halve_while(%in: memref<64x64xf32>, %out: memref<64x64xf32>, %n: index)
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.000000e+00 : f32
  %half = arith.constant dense<5.000000e-01> : vector<64x64xf32>
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<64x64xf32>
  %r:2 = scf.while (%i = %c0, %v = %x) : (index, vector<64x64xf32>) -> (index, vector<64x64xf32>) { // want method "16 iterations"
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %v : index, vector<64x64xf32>
  } do {
  ^bb0(%j: index, %w: vector<64x64xf32>):
    %e = math.exp %w : vector<64x64xf32>
    %h = arith.mulf %e, %half : vector<64x64xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1, %h : index, vector<64x64xf32>
  }
  vector.transfer_write %r#1, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}

// want status optimal
// want conversions 0
// want cost 4624
