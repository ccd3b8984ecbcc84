package vector

import (
	"slices"
	"strings"
	"testing"

	"planner/mlir/reader"
	"planner/model"
)

// A kernel written as a gpu.func in a gpu.module (its workgroup
// attribution a shared-memory buffer, its target on the module) reads
// to the graph of the same kernel written as a func.func.
func TestGPUFuncReadsAsFunc(t *testing.T) {
	body := `
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.000000e+00 : f16
    %x = vector.transfer_read %in[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf16>, vector<32x64xf16>
    vector.transfer_write %x, %s[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf16>, memref<32x64xf16, #gpu.address_space<workgroup>>
    %y = vector.transfer_read %s[%c0, %c0], %p {in_bounds = [true, true]} : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<32x64xf16>
    %z = math.exp %y : vector<32x64xf16>
    vector.transfer_write %z, %out[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf16>, memref<32x64xf16>
`
	fn := `func.func @k(%in: memref<32x64xf16>, %out: memref<32x64xf16>, %s: memref<32x64xf16, #gpu.address_space<workgroup>>) attributes {target = #rocdl.target<chip = "gfx942">, gpu.known_block_size = array<i32: 128, 1, 1>} {` + body + "    return\n}\n"
	gpu := `gpu.module @m [#rocdl.target<chip = "gfx942">] {
  gpu.func @k(%in: memref<32x64xf16>, %out: memref<32x64xf16>) workgroup(%s: memref<32x64xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {` + body + "    gpu.return\n  }\n}\n"
	a, b := canonical(readGraph(t, fn, reader.Options{})), canonical(readGraph(t, gpu, reader.Options{}))
	if a != b {
		t.Fatalf("func.func reads to\n%s\ngpu.func to\n%s", a, b)
	}
	if !strings.Contains(b, "buffer 0 [32 64] f16") || !strings.Contains(b, "gfx942, 2 subgroups") {
		t.Fatalf("the gpu.func's buffer, target or subgroups are not read:\n%s", b)
	}
}

// xegpuKernel is a kernel on pvc (16 lanes) with 4 subgroups whose body
// reads a 64x32 f32 block into %a.
func xegpuKernel(body string) string {
	return `gpu.module @m [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf32>, %C: memref<64x32xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf32> -> !xegpu.tensor_desc<64x32xf32>
    %a = xegpu.load_nd %t : !xegpu.tensor_desc<64x32xf32> -> vector<64x32xf32>
` + body + `
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<64x32xf32> -> !xegpu.tensor_desc<64x32xf32>
    xegpu.store_nd %e, %tc : vector<64x32xf32>, !xegpu.tensor_desc<64x32xf32>
    gpu.return
  }
}
`
}

// XeGPU's anchors: a layout_result_N pins the op's result (seed 003's
// sg_map with wi_layout is the layout with lane_layout); a convert_layout
// whose two layouts are one pins its operand; one between two layouts
// makes a new value in the target layout and pins its operand to the
// input layout.
func TestXeGPUAnchors(t *testing.T) {
	const rows = `#xegpu.layout<sg_layout = [4, 1], sg_data = [16, 32], lane_layout = [1, 16], lane_data = [1, 1]>`
	const rowsOld = `#xegpu.sg_map<sg_layout = [4, 1], sg_data = [16, 32], wi_layout = [1, 16], wi_data = [1, 1]>`
	const cols = `#xegpu.layout<sg_layout = [1, 4], sg_data = [64, 8], lane_layout = [16, 1], lane_data = [1, 1]>`
	g := readGraph(t, xegpuKernel(`    %e = math.exp %a {layout_result_0 = `+rowsOld+`} : vector<64x32xf32>`), reader.Options{})
	pinned := readGraph(t, xegpuKernel(`    %e = math.exp %a {layout_result_0 = `+rows+`} : vector<64x32xf32>`), reader.Options{})
	if e := g.Value("e"); e == nil || e.Pin == nil || !e.Pin.Layout.Equal(pinned.Value("e").Pin.Layout) || g.Notation != "xegpu" {
		t.Fatalf("layout_result_0 with sg_map: %%e is %+v, notation %s", e, g.Notation)
	}
	g = readGraph(t, xegpuKernel(`    %e = xegpu.convert_layout %a <{input_layout = `+rows+`, target_layout = `+rows+`}> : vector<64x32xf32>`), reader.Options{})
	if a := g.Value("a"); a == nil || a.Pin == nil || !a.Pin.Layout.Equal(pinned.Value("e").Pin.Layout) || g.Value("e") != nil {
		t.Fatalf("an anchoring convert_layout: %%a is %+v, %%e %+v", a, g.Value("e"))
	}
	g = readGraph(t, xegpuKernel(`    %e = xegpu.convert_layout %a <{input_layout = `+rows+`, target_layout = `+cols+`}> : vector<64x32xf32>`), reader.Options{})
	a, e := g.Value("a"), g.Value("e")
	if a == nil || a.Pin == nil || e == nil || e.Pin == nil || e.Def == nil || e.Def.Operands[0] != a || a.Pin.Layout.Equal(e.Pin.Layout) {
		t.Fatalf("a converting convert_layout: %%a is %+v, %%e %+v", a, e)
	}
}

// The forms XeGPU's ops have had: a descriptor of a pointer with its
// shape and strides labelled, one without offsets whose store_nd gives
// them, properties on a load, the transpose of a load read as a load then
// a transpose, a DPAS without an accumulator.
func TestXeGPUForms(t *testing.T) {
	text := `gpu.module @m [#xevm.target<chip = "pvc">] {
  gpu.func @k(%src: ui64, %w: index, %h: index, %B: memref<16x8xf16>, %C: memref<8x16xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = xegpu.create_nd_tdesc %src[%c0, %c0], shape:[%h, %w], strides: [%w, %c1] : ui64 -> !xegpu.tensor_desc<8x16xf16>
    %a = xegpu.load_nd %t <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
    %tb = xegpu.create_nd_tdesc %B[0, 0] : memref<16x8xf16> -> !xegpu.tensor_desc<16x8xf16>
    %b = xegpu.load_nd %tb {transpose = array<i64: 1, 0>} : !xegpu.tensor_desc<16x8xf16> -> vector<8x16xf16>
    %bb = vector.transpose %b, [1, 0] : vector<8x16xf16> to vector<16x8xf16>
    %d = xegpu.dpas %a, %bb : vector<8x16xf16>, vector<16x8xf16> -> vector<8x8xf32>
    %e = vector.broadcast %d : vector<8x8xf32> to vector<2x8x8xf32>
    %f = vector.shape_cast %e : vector<2x8x8xf32> to vector<8x16xf32>
    %tc = xegpu.create_nd_tdesc %C : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    xegpu.store_nd %f, %tc[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
    gpu.return
  }
}
`
	g := readGraph(t, text, reader.Options{})
	var kinds []string
	g.Walk(func(op *model.Op) { kinds = append(kinds, string(op.Kind)) })
	want := "load load transpose transpose constant mma broadcast shape_cast store"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("read as %s, want %s", got, want)
	}
	if v := g.Value("b@mem"); v == nil || v.Def.Contiguous != 1 || !slices.Equal(v.Shape, []int{16, 8}) {
		t.Fatalf("the transposed load reads %+v", v)
	}
}

// The layouts XeGPU's ops carry under their own names anchor as the
// layout_result_N and layout_operand_N they stand for: load_nd's layout
// (as an attribute or a property) its result's, store_nd's its stored
// value's.
func TestXeGPUOpAnchors(t *testing.T) {
	const rows = `#xegpu.layout<sg_layout = [4, 1], sg_data = [16, 32], lane_layout = [1, 16], lane_data = [1, 1]>`
	const cols = `#xegpu.layout<sg_layout = [1, 4], sg_data = [64, 8], lane_layout = [16, 1], lane_data = [1, 1]>`
	kernel := func(load, store string) string {
		return `gpu.module @m [#xevm.target<chip = "pvc">] {
  gpu.func @k(%A: memref<64x32xf32>, %C: memref<64x32xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<64x32xf32> -> !xegpu.tensor_desc<64x32xf32>
    %a = xegpu.load_nd %t ` + load + ` : !xegpu.tensor_desc<64x32xf32> -> vector<64x32xf32>
    %e = math.exp %a : vector<64x32xf32>
    %tc = xegpu.create_nd_tdesc %C[%c0, %c0] : memref<64x32xf32> -> !xegpu.tensor_desc<64x32xf32>
    xegpu.store_nd %e, %tc ` + store + ` : vector<64x32xf32>, !xegpu.tensor_desc<64x32xf32>
    gpu.return
  }
}
`
	}
	for _, c := range []struct{ name, load, store, want string }{
		{"load_nd layout", "{layout = " + rows + "}", "", "layout_result_0"},
		{"load_nd layout property", "<{layout = " + rows + "}>", "", "layout_result_0"},
		{"store_nd layout", "", "{layout = " + cols + "}", "layout_operand_0"},
	} {
		got := canonical(readGraph(t, kernel(c.load, c.store), reader.Options{}))
		load, store := "", ""
		if c.load != "" {
			load = "{" + c.want + " = " + rows + "}"
		} else {
			store = "{" + c.want + " = " + cols + "}"
		}
		want := canonical(readGraph(t, kernel(load, store), reader.Options{}))
		plain := canonical(readGraph(t, kernel("", ""), reader.Options{}))
		if got != want || got == plain {
			t.Errorf("%s reads to\n%s\nwant (as %s)\n%s", c.name, got, c.want, want)
		}
	}
}
