// An nvgpu.ldmatrix of 3 matrices: ldmatrix loads 1, 2 or 4.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%A: memref<16x16xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.ldmatrix %A[%c0, %c0] {numTiles = 3 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<3x2xf16> // want bad-value: numTiles = 1, 2 or 4
    %b = arith.addf %a, %a : vector<3x2xf16>
    gpu.return
  }
}
