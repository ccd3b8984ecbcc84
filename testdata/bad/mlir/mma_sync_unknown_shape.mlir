// An nvgpu.mma.sync of shape m16n8k4 in f16, which no record of sm_80
// runs (its f16 products are m16n8k8 and m16n8k16).
gpu.module @k [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%a: vector<1x2xf16>, %b: vector<1x2xf16>) kernel {
    %c = arith.constant dense<0.000000e+00> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 4]} : (vector<1x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32> // want unknown-name: offers no record for an mma m16n8k4 with A f16, B f16, C f32
    gpu.return
  }
}
