// An amdgpu.mfma 32x32x4 on f16, which gfx942 has no record of (its f16
// MFMAs are 32x32x8, 16x16x16 and the 16-block 4x4x4).
gpu.module @k [#rocdl.target<chip = "gfx942">] {
  gpu.func @k(%a: vector<4xf16>, %b: vector<4xf16>) kernel {
    %c = arith.constant dense<0.000000e+00> : vector<16xf32>
    %d = amdgpu.mfma %a * %b + %c {abid = 0 : i32, cbsz = 0 : i32, k = 4 : i32, m = 32 : i32, n = 32 : i32, blocks = 1 : i32} blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32> // want unknown-name: offers no record for an mma m32n32k4 with A f16
    gpu.return
  }
}
