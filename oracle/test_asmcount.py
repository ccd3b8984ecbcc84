"""Unit tests of asmcount on small snippets (python -m unittest discover oracle)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import asmcount  # noqa: E402

PTX = """
.version 8.8
.target sm_80
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<40>;
	// ld.shared.b32 in a comment does not count
$L__BB0_1:
	st.shared.v4.b32 	[%r1], {%r2, %r3, %r4, %r5};
	@%p1 st.shared.b16 	[%r6], %rs1;
	bar.sync 	0;
	ld.shared.v2.b32 	{%r7, %r8}, [%r9];
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%r14];
	ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r15, %r16, %r17, %r18}, [%r14];
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r14], {%r10, %r11, %r12, %r13};
	ld.shared::cta.b32 	%r19, [%r20];
	bar.warp.sync 	-1;
	shfl.sync.bfly.b32 	%r21, %r22, 16, 31, -1;
	// begin inline asm
	{ .reg .pred p; setp.ne.b32 p, %r1, 0; @!p shfl.sync.idx.b32 %r23, %r24, 0, 31, -1; }
	// end inline asm
	barrier.sync 	1, 128;
	ld.global.b32 	%r25, [%rd1];
	@%p2 bra 	$L__BB0_1;
	ret;
}
"""

AMDGCN = """
	.text
	.globl	k                               ; -- Begin function k
k:                                      ; @k
; %bb.0:
	ds_write_b128 v46, v[84:87]
	ds_write_b16_d16_hi v52, v90 offset:64
	ds_store_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[94:97], v47
	ds_read2st64_b32 v[1:2], v3 offset1:1
	ds_load_b64 v[4:5], v6
	ds_bpermute_b32 v7, v8, v9
	ds_swizzle_b32 v10, v11 offset:swizzle(SWAP,16)
	v_add_f32_dpp v12, v13, v14 row_shr:1 row_mask:0xf bank_mask:0xf
	v_mov_b32_dpp v15, v16 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	v_max_f32_e32 v17, v18, v19 ; row_shr in a comment does not count
	s_endpgm
	.section	.AMDGPU.csdata,"",@progbits
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     4
    .name:           k
    .private_segment_fixed_size: 16
    .sgpr_count:     29
    .sgpr_spill_count: 0
    .vgpr_count:     110
    .vgpr_spill_count: 3
    .wavefront_size: 64
	.end_amdgpu_metadata
"""

PTXAS_LOG = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_80'
ptxas info    : Function properties for k
    8 bytes stack frame, 12 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 177 registers, used 1 barriers, 400 bytes cmem[0]
"""

TTGIR = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%a: tensor<16x16xf16, #blocked>) {
    // a ttg.convert_layout in a comment does not count
    %0 = ttg.convert_layout %a : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #blocked1>
    %1 = "ttg.convert_layout"(%0) : (tensor<16x16xf16, #blocked1>) -> tensor<16x16xf16, #blocked>
    %2 = arith.addf %1, %1 : tensor<16x16xf16, #blocked> loc("a//ttg.convert_layout x")
    tt.return
  }
}
"""


class TestPTX(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(asmcount.ptx_counts(PTX), {
            "smem_load": 4, "smem_store": 3, "shuffle": 2, "barrier": 2, "warp_barrier": 1})

    def test_statements_drop_predicates_labels_directives(self):
        ops = asmcount.ptx_statements(PTX)
        self.assertIn("st.shared.b16", ops)
        self.assertIn("bra", ops)
        self.assertNotIn(".reg", ops)
        self.assertFalse(any(o.startswith(("@", "$", ".")) for o in ops))

    def test_class(self):
        self.assertEqual(asmcount.ptx_class("ld.global.v4.b32"), None)
        self.assertEqual(asmcount.ptx_class("ld.volatile.shared.b32"), "smem_load")
        self.assertEqual(asmcount.ptx_class("st.shared::cta.b32"), "smem_store")
        self.assertEqual(asmcount.ptx_class("bar.warp.sync"), "warp_barrier")
        self.assertEqual(asmcount.ptx_class("barrier.sync.aligned"), "barrier")
        self.assertEqual(asmcount.ptx_class("cp.async.cg.shared.global"), None)

    def test_ptxas(self):
        self.assertEqual(asmcount.ptxas_resources(PTXAS_LOG),
                         {"registers": 177, "spill_stores": 12, "spill_loads": 4, "stack": 8})


class TestAMDGCN(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(asmcount.amdgcn_counts(AMDGCN), {
            "smem_load": 3, "smem_store": 3, "shuffle": 4, "barrier": 1, "warp_barrier": 0})

    def test_metadata_is_not_code(self):
        ops = [op for op, _ in asmcount.amdgcn_statements(AMDGCN)]
        self.assertEqual(ops[-1], "s_endpgm")

    def test_resources(self):
        self.assertEqual(asmcount.amdgcn_resources(AMDGCN), {
            "vgpr": 110, "agpr": 4, "sgpr": 29, "scratch": 16, "vgpr_spill": 3, "sgpr_spill": 0})


class TestTTGIR(unittest.TestCase):
    def test_convert_layouts(self):
        self.assertEqual(asmcount.count_convert_layouts(TTGIR), 2)


if __name__ == "__main__":
    unittest.main()
