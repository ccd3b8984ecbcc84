// A 3-D vector.transpose between an anchored read and a write, IREE's
// transpose test shape (Codegen/Common/GPU/test of iree-org/iree,
// transpose_3d): a 32x16x16 f16 tile read from a 32x32x32 memref and
// anchored by iree_vector_ext.to_layout, transposed by [1, 2, 0] and
// written back, on gfx942 with 2 subgroups of 64 lanes.
//
// The transpose relabels the anchor's layout, keeping each lane's
// registers in the anchor's order, in which the write finds no vector of
// more than one element. The same layout with its registers along the
// written rows (the layout IREE's analysis gives the transposed vector,
// thread_strides [4, 32, 1]) is one register permutation away (32) and
// writes 4-element vectors: 4128 for the read, 32, and 1040 for the
// write. Before the candidates held that reordering, the plan sent the
// tile through 16 KiB of shared memory at 6330.
#layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1, 1], batch_tile = [1, 2, 4], outer_tile = [1, 1, 1], thread_tile = [4, 8, 2], element_tile = [4, 1, 2], subgroup_strides = [1, 2, 2], thread_strides = [1, 4, 32]>
func.func @transpose_3d(%arr: memref<32x32x32xf16>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [128, 1, 1] subgroup_size = 64>, target = #rocdl.target<chip = "gfx942">} {
  %c0 = arith.constant 0 : index
  %cst_0 = arith.constant 0.0 : f16
  %root = vector.transfer_read %arr[%c0, %c0, %c0], %cst_0 {in_bounds = [true, true, true]} : memref<32x32x32xf16>, vector<32x16x16xf16>
  %rootl = iree_vector_ext.to_layout %root to layout(#layout) : vector<32x16x16xf16>
  %t = vector.transpose %rootl, [1, 2, 0] : vector<32x16x16xf16> to vector<16x16x32xf16>
  vector.transfer_write %t, %arr[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<16x16x32xf16>, memref<32x32x32xf16>
  return
}
// want cost 5200; conversions 1
