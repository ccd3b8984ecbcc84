// An amdgpu.mfma of 16 blocks: 16 independent 4x4x4 products, which no
// one matrix product of the graph is.
gpu.module @k [#rocdl.target<chip = "gfx942">] {
  gpu.func @k(%a: vector<4xf16>, %b: vector<4xf16>) kernel {
    %c = arith.constant dense<0.000000e+00> : vector<4xf32>
    %d = amdgpu.mfma %a * %b + %c {abid = 0 : i32, cbsz = 0 : i32, k = 4 : i32, m = 4 : i32, n = 4 : i32, blocks = 16 : i32} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32> // want bad-value: blocks = 16
    gpu.return
  }
}
