// A vector argument of an XeGPU kernel that no layout attribute anchors
// is a value the plan lays out. Written back, its layout is XeGPU's own
// anchor of an operand, a layout_operand_N attribute on each op that
// reads it (never IREE's to_layout, which an XeGPU kernel has no dialect
// for).
//
// On pvc (subgroups of 16 lanes), 64 threads: 4 subgroups. A 32x64 f32
// tile arrives as an argument; its exponential is added to it and the sum
// stored through a tensor descriptor. XeGPU has no judge here: IREE 3.13
// has no xegpu dialect and mlir-opt-19's predates its layouts.
gpu.module @kernels [#xevm.target<chip = "pvc">] {
  gpu.func @exp_add(%v: vector<32x64xf32>, %C: memref<32x64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} { // want layout "#xegpu.layout<sg_layout = [4, 1]"
    %c0 = arith.constant 0 : index
    %y = math.exp %v {layout_operand_0 = #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>, layout_result_0 = #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>} : vector<32x64xf32>
    %z = arith.addf %y, %v {layout_operand_1 = #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>, layout_result_0 = #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>} : vector<32x64xf32>
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>>
    xegpu.store_nd %z, %tc : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32, #xegpu.layout<sg_layout = [4, 1], sg_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>>
    gpu.return
  }
}

// want status optimal
// want cost 424
// want conversions 0
