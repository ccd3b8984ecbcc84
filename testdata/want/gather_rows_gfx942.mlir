// IREE's iree_vector_ext.transfer_gather, as IREE 3.13 writes it: the
// rows of a 64x64 f32 table picked by 64 row numbers loaded from memory
// (as a paged attention reads its pages), under a mask of the rows that
// exist, then scaled and written out. The gather is read as a load of
// the picked rows, contiguous along them; the row numbers (a
// vector<64xindex>) are read where they lie. On gfx942, 2 subgroups of
// 64 lanes.
func.func @gather_rows(%table: memref<4096x64xf32>, %pages: memref<64xindex>, %out: memref<64x64xf32>, %n: index)
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %ipad = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f32
  %two = arith.constant dense<2.000000e+00> : vector<64x64xf32>
  %rows = vector.transfer_read %pages[%c0], %ipad {in_bounds = [true]} : memref<64xindex>, vector<64xindex> // want dtype i64
  %live = vector.create_mask %n, %c64 : vector<64x64xi1>
  %g = iree_vector_ext.transfer_gather %table[%c0, %c0] [%rows : vector<64xindex>], %pad, %live <indexing_maps = [affine_map<(d0, d1)[s0] -> (s0, d1)>, affine_map<(d0, d1)[s0] -> (d0)>, affine_map<(d0, d1)[s0] -> (d0, d1)>]> : memref<4096x64xf32>, vector<64x64xf32>, vector<64x64xi1>
  %y = arith.mulf %g, %two : vector<64x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}

// want status optimal
// want conversions 0
// want cost 2137
