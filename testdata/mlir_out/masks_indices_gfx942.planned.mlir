// Masks and indices: a tile read under a vector.create_mask, the columns
// below a run-time bound picked by comparing vector.step (a
// vector<64xindex>) with the bound, a masked write by that computed mask,
// and a vector.contract whose trait is the alias #matmul; the column
// numbers, cast to i32 by arith.index_cast, are written out too.
//
// The masks vector.create_mask and vector.constant_mask make, and
// vector.step's indices, are made by each lane from its elements'
// positions: constants, laid out as the op that reads them needs. A mask
// the kernel computes (%cm) is laid out like the data it masks: the
// masked write is read as a select by the mask before the store.
//
// On gfx942, 2 subgroups of 64 lanes.
#matmul = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
func.func @masked_gemm(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>, %cols: memref<64xi32>, %n: index)
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.000000e+00 : f16
  %zero = arith.constant dense<0.000000e+00> : vector<64x64xf32>
  %zero_l = "iree_vector_ext.to_layout"(%zero) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4, 4], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [4, 1], thread_strides = [1, 16]>}> : (vector<64x64xf32>) -> vector<64x64xf32>
  %rows = vector.create_mask %n, %c64 : vector<64x64xi1>
  %a = vector.transfer_read %A[%c0, %c0], %pad, %rows {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
  %a_l = "iree_vector_ext.to_layout"(%a) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
  %half = vector.constant_mask [32, 64] : vector<64x64xi1>
  %b = vector.transfer_read %B[%c0, %c0], %pad, %half {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
  %b_l = "iree_vector_ext.to_layout"(%b) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 4], batch_tile = [2, 1], outer_tile = [1, 1], thread_tile = [4, 16], element_tile = [8, 1], subgroup_strides = [0, 1], thread_strides = [16, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
  %a_cv = "iree_vector_ext.to_layout"(%a_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [4, 2], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 8], subgroup_strides = [0, 0], thread_strides = [1, 16]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
  %d = vector.contract #matmul %a_cv, %b_l, %zero_l {iree.amdgpu.mma = #iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32> // want intrinsic "mfma_f32_16x16x16_f16"
  %d_l = "iree_vector_ext.to_layout"(%d) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4, 4], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [4, 1], thread_strides = [1, 16]>}> : (vector<64x64xf32>) -> vector<64x64xf32>
  %s = vector.step : vector<64xindex> // want dtype i64
  %s_l = "iree_vector_ext.to_layout"(%s) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = [1], outer_tile = [1], thread_tile = [1], element_tile = [64], subgroup_strides = [0], thread_strides = [0]>}> : (vector<64xindex>) -> vector<64xindex>
  %nv = vector.broadcast %n : index to vector<64xindex>
  %nv_l = "iree_vector_ext.to_layout"(%nv) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4], batch_tile = [1], outer_tile = [1], thread_tile = [4], element_tile = [4], subgroup_strides = [1], thread_strides = [16]>}> : (vector<64xindex>) -> vector<64xindex>
  %s_cv = "iree_vector_ext.to_layout"(%s_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4], batch_tile = [1], outer_tile = [1], thread_tile = [4], element_tile = [4], subgroup_strides = [1], thread_strides = [16]>}> : (vector<64xindex>) -> vector<64xindex>
  %col = arith.cmpi ult, %s_cv, %nv_l : vector<64xindex>
  %col_l = "iree_vector_ext.to_layout"(%col) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4], batch_tile = [1], outer_tile = [1], thread_tile = [4], element_tile = [4], subgroup_strides = [1], thread_strides = [16]>}> : (vector<64xi1>) -> vector<64xi1>
  %cm = vector.broadcast %col_l : vector<64xi1> to vector<64x64xi1> // want dtype i1
  %cm_l = "iree_vector_ext.to_layout"(%cm) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [4, 4], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [4, 1], thread_strides = [1, 16]>}> : (vector<64x64xi1>) -> vector<64x64xi1>
  vector.transfer_write %d_l, %C[%c0, %c0], %cm_l {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  %s_cv_2 = "iree_vector_ext.to_layout"(%s_l) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [1], outer_tile = [1], thread_tile = [32], element_tile = [1], subgroup_strides = [1], thread_strides = [1]>}> : (vector<64xindex>) -> vector<64xindex>
  %si = arith.index_cast %s_cv_2 : vector<64xindex> to vector<64xi32> // want dtype i32
  %si_l = "iree_vector_ext.to_layout"(%si) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [2], batch_tile = [1], outer_tile = [1], thread_tile = [32], element_tile = [1], subgroup_strides = [1], thread_strides = [1]>}> : (vector<64xi32>) -> vector<64xi32>
  vector.transfer_write %si_l, %cols[%c0] {in_bounds = [true]} : vector<64xi32>, memref<64xi32>
  return
}

// want status optimal
// want cost 2524
// want conversions 3
