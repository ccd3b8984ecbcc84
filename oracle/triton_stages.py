"""Triton's make_ttgir cut in two: the passes that choose layouts, and the rest.

    layout_passes(mod, target, options)   # TTIR in, TTGIR with Triton's layout choice out
    rest_passes(mod, target, options, metadata=None)   # pipelining and after

Both run in place on a triton._C.libtriton.ir module and return it. target is
a triton.backends.compiler.GPUTarget ("cuda" with an int capability, or "hip"
with a gfx name); options the backend's parsed options
(make_backend(target).parse_options({...}): CUDAOptions or HIPOptions).
layout_passes followed by rest_passes runs exactly the passes, in the
order, of the backend's make_ttgir in triton 3.9.0 for a Triton (not
Gluon) kernel, so the two together are that stage.

layout_passes is the input the planner plans: the module as it stands after
Triton has chosen every layout (convert_to_ttgpuir, coalesce,
remove_layout_conversions, accelerate_matmul, optimize_dot_operands, ...) and
before loop fusion and software pipelining, which the TTGIR reader does not
read (docs/triton.md). Its signature is stable: the table generator of
docs/compiled.md imports it to time Triton's layout passes.
"""

from triton._C.libtriton import ir, passes


def _is_cuda(target):
    return target.backend == "cuda"


def layout_passes(mod, target, options):
    """Runs on a TTIR module the part of make_ttgir that chooses layouts and
    stops before loop fusion and pipelining; returns mod, now TTGIR."""
    if _is_cuda(target):
        _nvidia_layout(mod, int(target.arch), options)
    else:
        _amd_layout(mod, options)
    return mod


def rest_passes(mod, target, options, metadata=None):
    """Runs the remainder of make_ttgir (loop fusion, pipelining, prefetch,
    reduce_data_duplication, reorder, ...) on a module layout_passes made, or
    one the planner wrote back; returns mod. metadata, when given, receives
    what make_ttgir records (tensordesc_meta)."""
    if _is_cuda(target):
        _nvidia_rest(mod, int(target.arch), options)
    else:
        _amd_rest(mod, options)
    if metadata is not None:
        metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
    return mod


# NVIDIA: CUDABackend.make_ttgir in triton/backends/nvidia/compiler.py
# (triton 3.9.0), its passes up to the first loop_aware_cse.
def _nvidia_layout(mod, capability, opt):
    from triton._C.libtriton import nvidia
    if opt.maxnreg is not None:
        mod.set_attr("ttg.maxnreg", ir.builder(mod.context).get_int32_attr(opt.maxnreg))
    pm = ir.pass_manager(mod.context)
    pm.enable_debug()
    emu_tf32 = capability // 10 >= 8
    passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{capability}", opt.num_warps, 32, opt.num_ctas)
    if opt.clc:
        nvidia.passes.ttnvgpuir.add_to_clc(pm)
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_f32_dot_tc(pm, emu_tf32)
    nvidia.passes.ttnvgpuir.add_assign_cga_layouts(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    nvidia.passes.ttnvgpuir.add_optimize_cta_locality(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_thread_locality(pm)
    passes.ttgpuir.add_accelerate_matmul(pm)
    nvidia.passes.ttnvgpuir.add_check_matmul_two_cta(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_dot_operands(pm, capability >= 80)
    nvidia.passes.ttnvgpuir.add_optimize_descriptor_encoding(pm)
    passes.ttir.add_loop_aware_cse(pm)
    pm.run(mod, "make_ttgir_layouts")


# NVIDIA: the rest of CUDABackend.make_ttgir in triton/backends/nvidia/compiler.py
# (triton 3.9.0), from the capability branch (fuse_nested_loops, pipelining) on.
def _nvidia_rest(mod, capability, opt):
    from triton._C.libtriton import nvidia
    from triton.backends.nvidia.compiler import is_enabled
    pm = ir.pass_manager(mod.context)
    dump_enabled = pm.enable_debug()
    if capability // 10 in [8, 9]:
        passes.ttgpuir.add_fuse_nested_loops(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_triton_licm(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttgpuir.add_combine_tensor_select_and_if(pm)
        nvidia.passes.hopper.add_hopper_warpspec(pm, opt.num_stages, dump_enabled)
        passes.ttgpuir.add_assign_latencies(pm, opt.num_stages)
        passes.ttgpuir.add_schedule_loops(pm)
        passes.ttgpuir.add_pipeline(pm, opt.num_stages, dump_enabled)
    elif capability // 10 >= 10:
        passes.ttgpuir.add_fuse_nested_loops(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_triton_licm(pm)
        passes.ttgpuir.add_optimize_accumulator_init(pm)
        passes.ttgpuir.add_hoist_tmem_alloc(pm, False)
        nvidia.passes.ttnvgpuir.add_promote_lhs_to_tmem(pm)
        passes.ttgpuir.add_assign_latencies(pm, opt.num_stages)
        passes.ttgpuir.add_schedule_loops(pm)
        passes.ttgpuir.add_warp_specialize(pm, opt.num_stages)
        passes.ttgpuir.add_pipeline(pm, opt.num_stages, dump_enabled)
        passes.ttgpuir.add_optimize_partition_warps(pm)
        passes.ttgpuir.add_combine_tensor_select_and_if(pm)
        passes.ttgpuir.add_hoist_tmem_alloc(pm, True)
        nvidia.passes.ttnvgpuir.add_remove_tmem_tokens(pm)
    else:
        passes.ttir.add_triton_licm(pm)
    passes.common.add_canonicalizer(pm)
    passes.ttir.add_loop_aware_cse(pm)
    if capability // 10 == 8:
        passes.ttgpuir.add_prefetch(pm)
    passes.ttgpuir.add_optimize_dot_operands(pm, capability >= 80)
    passes.ttgpuir.add_coalesce_async_copy(pm)
    nvidia.passes.ttnvgpuir.add_optimize_tmem_layouts(pm)
    nvidia.passes.ttnvgpuir.add_tmem_load_reduce(pm)
    if capability // 10 >= 9:
        nvidia.passes.ttnvgpuir.add_tma_lowering(pm)
    if capability // 10 >= 10:
        nvidia.passes.ttnvgpuir.add_lower_clc(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    nvidia.passes.ttnvgpuir.add_interleave_tmem(pm)
    passes.ttgpuir.add_reduce_data_duplication(pm)
    passes.ttgpuir.add_reorder_instructions(pm)
    passes.ttir.add_loop_aware_cse(pm)
    passes.common.add_symbol_dce(pm)
    nvidia.passes.ttnvgpuir.add_fence_insertion(pm, capability)
    nvidia.passes.ttnvgpuir.add_lower_mma(pm)
    nvidia.passes.ttnvgpuir.add_hoist_mbarrier_lifecycle(pm, capability)
    passes.common.add_sccp(pm)
    passes.common.add_cse(pm)
    passes.common.add_canonicalizer(pm)
    if is_enabled(opt, "fpsan"):
        passes.ttgpuir.add_fp_sanitizer(pm, opt.fpsan_homomorphic_casts)
        passes.ttgpuir.add_remove_layout_conversions(pm, True)
        passes.common.add_canonicalizer(pm)
        passes.common.add_cse(pm)
    pm.run(mod, "make_ttgir")


# AMD: HIPBackend.make_ttgir in triton/backends/amd/compiler.py (triton
# 3.9.0), its early pass manager (convert_to_ttgpuir) and its second one up
# to sink_layout_conversions.
def _amd_layout(mod, options):
    from triton._C.libtriton import amd
    pm = ir.pass_manager(mod.context)
    pm.enable_debug()
    passes.ttir.add_convert_to_ttgpuir(pm, f"hip:{options.arch}", options.num_warps, options.warp_size,
                                       options.num_ctas)
    pm.run(mod, "make_ttgir_early")
    pm = ir.pass_manager(mod.context)
    pm.enable_debug()
    emu_tf32 = False
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_f32_dot_tc(pm, emu_tf32)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_thread_locality(pm)
    amd.passes.ttgpuir.add_accelerate_matmul(pm, options.arch, options.matrix_instr_nonkdim, options.kpack)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    amd.passes.ttgpuir.add_optimize_epilogue(pm)
    amd.passes.ttgpuir.add_optimize_dot_operands(pm, options.arch)
    amd.passes.ttgpuir.add_hoist_layout_conversions(pm)
    amd.passes.ttgpuir.add_sink_layout_conversions(pm)
    pm.run(mod, "make_ttgir_layouts")


# AMD: the rest of HIPBackend.make_ttgir in triton/backends/amd/compiler.py
# (triton 3.9.0), from fuse_nested_loops on.
def _amd_rest(mod, options):
    from triton import knobs
    from triton._C.libtriton import amd
    from triton.backends.amd import compiler as amdc
    pm = ir.pass_manager(mod.context)
    pm.enable_debug()
    passes.ttgpuir.add_fuse_nested_loops(pm)
    passes.common.add_canonicalizer(pm)
    passes.ttir.add_triton_licm(pm)
    passes.common.add_canonicalizer(pm)
    use_async_copy = amdc.is_async_copy_enabled(options.base_arch)
    use_block_pingpong = amdc.is_pingpong_schedule_enabled(options.arch, use_async_copy)
    amd.passes.ttgpuir.add_optimize_descriptor_encoding(pm)
    amd.passes.ttgpuir.add_schedule_loops(pm, options.num_stages)
    amd.passes.ttgpuir.add_pipeline(pm, use_async_copy, use_block_pingpong)
    if use_async_copy:
        amd.passes.ttgpuir.add_coalesce_async_copy(pm, options.arch)
    amd.passes.ttgpuir.add_convert_to_tensor_ops(pm)
    passes.common.add_canonicalizer(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_reduce_data_duplication(pm)
    if amdc.is_in_thread_transpose_enabled(options.arch):
        amd.passes.ttgpuir.add_in_thread_transpose(pm)
        passes.ttgpuir.add_remove_layout_conversions(pm)
    amd.passes.ttgpuir.add_move_up_prologue_loads(pm)
    if use_block_pingpong and options.num_stages > 1:
        amd.passes.ttgpuir.add_block_pingpong(pm, options.num_stages)
    if knobs.amd.use_buffer_ops:
        amd.passes.ttgpuir.add_canonicalize_pointers(pm)
        passes.common.add_canonicalizer(pm)
        amd.passes.ttgpuir.add_convert_to_buffer_ops(
            pm,
            options.arch,
            knobs.amd.use_buffer_atomics,
            knobs.amd.buffer_ops_analyze_small_tensor_range,
        )
        amd.passes.ttgpuir.add_optimize_buffer_op_ptr(pm)
    amd.passes.ttgpuir.add_fold_true_cmpi(pm)
    amd.passes.ttgpuir.add_prepare_if_combining(pm)
    passes.common.add_canonicalizer(pm)
    passes.common.add_cse(pm)
    passes.common.add_symbol_dce(pm)
    if amdc.is_enabled(options, "fpsan") and amdc.is_fpsan_supported(options.base_arch):
        amd.passes.ttgpuir.add_fp_sanitizer(pm)
        passes.ttgpuir.add_fp_sanitizer(pm, options.fpsan_homomorphic_casts)
    pm.run(mod, "make_ttgir")
