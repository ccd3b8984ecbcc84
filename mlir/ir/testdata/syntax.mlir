// Every custom form the reader knows, once or more, as mlir-opt-19 reads
// them (mlir-opt-19 --allow-unregistered-dialect syntax.mlir); its generic
// form is syntax.generic.mlir. TestCustomFormsMatchGeneric reads both.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#minor = affine_map<(d0, d1, d2) -> (d1, d2)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#sym = affine_map<(d0)[s0, s1] -> (d0 * 4 + s0 floordiv 2 - (d0 + s1) mod 8 + (d0 + 1) ceildiv 2)>
!vec = vector<16x16xf16>
#layout = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [4, 8], element_tile = [4, 2], subgroup_strides = [0, 0], thread_strides = [8, 1]>

module attributes {gpu.container_module, my.dict = {a = 1 : i32, b = "s", c = [1.5, -2, true], d = unit}} {
  func.func private @decl(i32, f32) -> i32
  func.func @all(%g: memref<64x64xf16>, %s: memref<16x16xf16, #gpu.address_space<workgroup>>,
                 %d: memref<?x64xf32, strided<[64, 1], offset: ?>>, %v: !vec, %b: vector<4x4xi1>,
                 %i: index, %f: f32) -> (vector<16x16xf16>, f32) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t = arith.constant true
    %h = arith.constant 0.000000e+00 : f16
    %m = arith.constant -1 : i32
    %hexf = arith.constant 0xFF800000 : f32
    %cv = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
    %ci = arith.constant {tag} dense<7> : vector<4xi32>
    %tid = gpu.thread_id x
    %bid = gpu.block_id y upper_bound 4
    %bdim = gpu.block_dim z
    %ap = affine.apply #sym(%tid)[%c1, %c8]
    %ap2 = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%bid]
    %r0 = vector.transfer_read %g[%c0, %tid], %h {in_bounds = [true, true]} : memref<64x64xf16>, vector<16x16xf16>
    %r1 = vector.transfer_read %s[%c0, %c0], %h {in_bounds = [true, false], permutation_map = #tr} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %r2 = vector.transfer_read %s[%c0, %c0], %h, %b {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<4x4xf16>
    vector.transfer_write %r0, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
    vector.transfer_write %r1, %g[%c0, %c0] {permutation_map = #tr} : vector<16x16xf16>, memref<64x64xf16>
    %l = vector.load %d[%i, %c0] : memref<?x64xf32, strided<[64, 1], offset: ?>>, vector<8xf32>
    vector.store %l, %d[%i, %c8] {nontemporal = true} : memref<?x64xf32, strided<[64, 1], offset: ?>>, vector<8xf32>
    %e0 = arith.extf %r0 : vector<16x16xf16> to vector<16x16xf32>
    %e1 = arith.extf %r1 fastmath<fast> : vector<16x16xf16> to vector<16x16xf32>
    %acc = arith.constant dense<0.000000e+00> : vector<16x16xf32>
    %mm = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %e0, %e1, %acc : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
    %mt = vector.contract {indexing_maps = [#km, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, iree.amdgpu.mma = #iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>} %r0, %r1, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %red = arith.constant dense<0xFF800000> : vector<16xf32>
    %mr = vector.multi_reduction <maximumf>, %mm, %red [1] : vector<16x16xf32> to vector<16xf32>
    %mr2 = vector.multi_reduction <add>, %mt, %red {tag} [0] : vector<16x16xf32> to vector<16xf32>
    %sc = vector.reduction <add>, %mr : vector<16xf32> into f32
    %sc2 = vector.reduction <maxnumf>, %mr2, %f fastmath<nnan> : vector<16xf32> into f32
    %bc = vector.broadcast %mr : vector<16xf32> to vector<16x16xf32>
    %bs = vector.broadcast %f : f32 to vector<16x16xf32>
    %sp = vector.splat %sc : vector<16x16xf32>
    %tp = vector.transpose %bc, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
    %cs = vector.shape_cast %tp : vector<16x16xf32> to vector<256xf32>
    %cs2 = vector.shape_cast %mr : vector<16xf32> to vector<16x1xf32>
    %ex = vector.extract %tp[0] : vector<16xf32> from vector<16x16xf32>
    %ex2 = vector.extract %tp[%i, 3] : f32 from vector<16x16xf32>
    %in = vector.insert %ex, %tp[1] : vector<16xf32> into vector<16x16xf32>
    %in2 = vector.insert %f, %in[2, %i] : f32 into vector<16x16xf32>
    %add = arith.addf %tp, %bs : vector<16x16xf32>
    %sub = arith.subf %add, %sp fastmath<fast> : vector<16x16xf32>
    %mul = arith.mulf %sub, %in2 : vector<16x16xf32>
    %div = arith.divf %mul, %add : vector<16x16xf32>
    %mx = arith.maximumf %div, %mul : vector<16x16xf32>
    %mn = arith.minnumf %div, %mul : vector<16x16xf32>
    %ng = arith.negf %mn : vector<16x16xf32>
    %ii = arith.addi %i, %c1 overflow<nsw> : index
    %xi = arith.xori %ci, %ci : vector<4xi32>
    %cmp = arith.cmpf ogt, %mx, %ng : vector<16x16xf32>
    %cmpi = arith.cmpi slt, %i, %c8 : index
    %sel = arith.select %cmp, %mx, %ng : vector<16x16xi1>, vector<16x16xf32>
    %sel2 = arith.select %t, %mx, %ng : vector<16x16xf32>
    %ex2f = math.exp2 %sel : vector<16x16xf32>
    %exf = math.exp %sel2 fastmath<afn> : vector<16x16xf32>
    %rs = math.rsqrt %exf : vector<16x16xf32>
    %ab = math.absf %rs : vector<16x16xf32>
    %th = math.tanh %ab : vector<16x16xf32>
    %fm = math.fma %th, %ab, %rs : vector<16x16xf32>
    %vf = vector.fma %fm, %th, %ab : vector<16x16xf32>
    %tr = arith.truncf %vf : vector<16x16xf32> to vector<16x16xf16>
    %bt = arith.bitcast %tr : vector<16x16xf16> to vector<16x16xi16>
    %si = arith.sitofp %ci : vector<4xi32> to vector<4xf32>
    %ic = arith.index_cast %i : index to i32
    %al = memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
    %al2 = memref.alloc(%i)[%c8] : memref<?x64xf32, affine_map<(d0, d1)[s0] -> (d0 * 64 + d1 + s0)>>
    %alc = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
    gpu.barrier
    memref.dealloc %al : memref<32x64xf16, #gpu.address_space<workgroup>>
    %anc = "iree_vector_ext.to_layout"(%tr) <{layout = #layout}> : (vector<16x16xf16>) -> vector<16x16xf16>
    %anc2 = "iree_vector_ext.to_layout"(%anc) {layout = #layout, shared_memory_conversion} : (vector<16x16xf16>) -> vector<16x16xf16>
    %lp:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%x = %anc2, %sum = %f) -> (vector<16x16xf16>, f32) {
      %y = arith.addf %x, %x : vector<16x16xf16>
      %s2 = arith.addf %sum, %sum : f32
      scf.yield %y, %s2 : vector<16x16xf16>, f32
    }
    %lp2 = scf.for %k = %c0 to %i step %c1 iter_args(%x = %lp#0) -> vector<16x16xf16> {
      scf.for %j = %c0 to %c8 step %c1 {
        gpu.barrier
      }
      scf.yield %x : vector<16x16xf16>
    } {tag}
    %ui = scf.for %k2 = %m to %m step %m iter_args(%a = %m) -> (i32) : i32 {
      scf.yield %a : i32
    }
    %wh:2 = scf.while (%wa = %m, %wv = %lp2) : (i32, vector<16x16xf16>) -> (i32, vector<16x16xf16>) {
      %wc = arith.cmpi slt, %wa, %m : i32
      scf.condition(%wc) %wa, %wv : i32, vector<16x16xf16>
    } do {
    ^bb0(%wa2: i32, %wv2: vector<16x16xf16>):
      scf.yield %wa2, %wv2 : i32, vector<16x16xf16>
    } attributes {tag}
    "my.unknown"(%i) ({
    ^bb0(%arg: index):
      "my.terminator"() : () -> ()
    }) {attr = #my.thing<"a" -> [1, {b}]>} : (index) -> ()
    %gen:2 = "my.two"() : () -> (i32, i64)
    return %lp2, %sc : vector<16x16xf16>, f32
  }
}
