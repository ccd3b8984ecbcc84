// A loop that carries two values but yields one (generic form, which MLIR's parser leaves to the verifier).
func.func @k(%in: memref<32x64xf32>, %out: memref<32x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.no_pipeline workgroup_size = [64, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.000000e+00 : f32
  %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf32>, vector<32x64xf32>
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %r:2 = "scf.for"(%c0, %c8, %c1, %x, %x) ({ // want rank-mismatch: scf.yield at testdata/bad/mlir/yield_count.mlir:10:5 yields 1 value(s) but the loop carries 2 iter_arg(s)
  ^bb0(%i: index, %a: vector<32x64xf32>, %b: vector<32x64xf32>):
    "scf.yield"(%a) : (vector<32x64xf32>) -> ()
  }) : (index, index, index, vector<32x64xf32>, vector<32x64xf32>) -> (vector<32x64xf32>, vector<32x64xf32>)
  %y = math.exp %r#0 : vector<32x64xf32>
  vector.transfer_write %y, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32>
  return
}
