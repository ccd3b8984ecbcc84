// An amdgpu.mfma that permutes B across lanes (blgp): the reader reads
// B as it is.
gpu.module @k [#rocdl.target<chip = "gfx942">] {
  gpu.func @k(%a: vector<4xf16>, %b: vector<4xf16>) kernel {
    %c = arith.constant dense<0.000000e+00> : vector<4xf32>
    %d = amdgpu.mfma %a * %b + %c {abid = 0 : i32, cbsz = 0 : i32, k = 16 : i32, m = 16 : i32, n = 16 : i32, blocks = 1 : i32} blgp = bcast_first_32 : vector<4xf16>, vector<4xf16>, vector<4xf32> // want bad-value: blgp
    gpu.return
  }
}
