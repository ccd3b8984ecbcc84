// A kernel whose to_layout anchor is written in linear bases
// (#planner.linear, what planner solve --format mlir writes where IREE's
// nested_layout cannot write a layout): each of the 32 lanes of the one
// subgroup holds one row of the 32x64 tile.
#rows = #planner.linear<register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], subgroup = []>
func.func @exp_rows(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [32, 1, 1] subgroup_size = 32>, hal.executable.target = #hal.executable.target<"cuda", "cuda-nvptx-fb", {iree.gpu.target = #iree_gpu.target<arch = "sm_80">}>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %y = "iree_vector_ext.to_layout"(%x) <{layout = #rows}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %y_cv = "iree_vector_ext.to_layout"(%y) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [16, 1], outer_tile = [1, 1], thread_tile = [2, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %z = math.exp %y_cv : vector<32x64xf32>
  %z_l = "iree_vector_ext.to_layout"(%z) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [16, 1], outer_tile = [1, 1], thread_tile = [2, 16], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [16, 1]>}> : (vector<32x64xf32>) -> vector<32x64xf32>
  vector.transfer_write %z_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
