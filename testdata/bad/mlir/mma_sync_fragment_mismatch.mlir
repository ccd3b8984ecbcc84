// An nvgpu.mma.sync m16n8k16 whose A is a lane's vector<2x2xf16>: the
// 16x16 A tile gives each of 32 lanes 8 elements.
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%A: memref<16x16xf16, #gpu.address_space<workgroup>>, %B: memref<8x16xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %a = vector.load %A[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<2x2xf16> // want shape-mismatch: 4 elements per lane, but the [16 16] tile
    %b = nvgpu.ldmatrix %B[%c0, %c0] {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %c = arith.constant dense<0.000000e+00> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return
  }
}
