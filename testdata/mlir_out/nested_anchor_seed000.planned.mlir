// The worked example of IREE's nested_layout documentation (seed 000) as
// an anchor: a 64x64 f16 tile over 4 subgroups of 64 lanes on gfx942,
// pinned by iree_vector_ext.to_layout to the layout in which each thread
// holds a vector<2x16> and subgroups 2 and 3 repeat subgroups 0 and 1
// (examples/layouts/seed000_nested.toml). The planner lays out the rest
// around the anchor: the read, the exp and the write.
//
//   planner solve examples/mlir/nested_anchor_seed000.mlir

#layout = #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [2, 4], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], subgroup_strides = [1, 0], thread_strides = [1, 16]>
#executable_target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.gpu.target = #iree_gpu.target<arch = "gfx942">}>
#translation = #iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute workgroup_size = [256, 1, 1] subgroup_size = 64>

func.func @exp_tile(%in: memref<64x64xf16>, %out: memref<64x64xf16>) attributes {hal.executable.target = #executable_target, translation_info = #translation} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.000000e+00 : f16
  %x = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
  %xl = "iree_vector_ext.to_layout"(%x) <{layout = #layout}> : (vector<64x64xf16>) -> vector<64x64xf16>
  %xl_cv = "iree_vector_ext.to_layout"(%xl) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
  %e = math.exp %xl_cv : vector<64x64xf16>
  %e_l = "iree_vector_ext.to_layout"(%e) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [8, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 8], element_tile = [1, 8], subgroup_strides = [1, 0], thread_strides = [8, 1]>}> : (vector<64x64xf16>) -> vector<64x64xf16>
  vector.transfer_write %e_l, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, memref<64x64xf16>
  return
}
