package ttgir

import (
	"fmt"
	"strings"
	"testing"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// twoNames reduces one tile along its rows and another along its columns:
// slice<dim 0> of #blocked and slice<dim 1> of #blocked1 are one layout
// of 64 elements (4 lanes and 4 warps along it, 4 registers each, the
// other lanes copies), which Triton's typing names after each reduce's
// operand. The input converts between them, a conversion the plan drops.
const twoNames = `#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%A: !tt.ptr<f32>, %B: !tt.ptr<f32>, %C: !tt.ptr<f32>) {
    %pa = tt.splat %A : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %a = tt.load %pa : tensor<64x64x!tt.ptr<f32>, #blocked>
    %sa = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pb = tt.splat %B : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %sb = "tt.reduce"(%b) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.maxnumf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<64x64xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %ca = ttg.convert_layout %sa : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %ea = tt.expand_dims %ca {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xf32, #blocked1>
    %eb = tt.expand_dims %sb {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xf32, #blocked1>
    %s = arith.addf %ea, %eb : tensor<64x1xf32, #blocked1>
    %pc = tt.splat %C : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    tt.store %pc, %s : tensor<64x1x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}
`

// One layout, two names: written back with the input's own layouts (the
// convert_layout between two names of one layout is no conversion), each
// reduce's result is the slice of its own operand's encoding, and each
// expand_dims reads the slice of its result's: %sa keeps its #blocked
// parent, and a ttg.convert_layout of the name alone gives the
// expand_dims of %sa the #blocked1 parent. A single name per layout
// breaks one of the four.
func TestTTGIRNamesPerValue(t *testing.T) {
	opt := reader.Options{Targets: ttTargets, InputLayouts: true}
	g, err := readKernelGraph("k.ttgir", []byte(twoNames), opt)
	if err != nil {
		t.Fatal(err)
	}
	a := &model.Assignment{Layouts: map[*model.Value]*model.Layout{}}
	for _, v := range g.Values {
		if v.Pin != nil {
			a.Layouts[v] = v.Pin.Layout
		}
	}
	sa, sb := a.Layouts[g.Value("sa")], a.Layouts[g.Value("sb")]
	if sa == nil || sb == nil || !sa.Equal(sb) {
		t.Fatalf("the reduces' results are not one layout: %v, %v", sa, sb)
	}
	var out strings.Builder
	if err := writeAssigned(&out, "k.ttgir", []byte(twoNames), opt, g, a); err != nil {
		t.Fatal(err)
	}
	m, err := ir.Parse("out.ttgir", []byte(out.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// An encoding's tree is written with what each alias names in its
	// place.
	enc := func(v *ir.Value) string {
		a := v.Type.(*ir.TensorType).Encoding
		if da, ok := a.(*ir.DialectAttr); ok && da.Tree != nil {
			return da.Tree.String()
		}
		return a.String()
	}
	checked := 0
	ir.Visit(ir.Funcs(m)[0].Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		var have, want string
		switch op.Name {
		case "tt.reduce":
			have, want = enc(op.Results[0]), fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", axisOf(op), enc(op.Operands[0].Value))
		case "tt.expand_dims":
			have, want = enc(op.Operands[0].Value), fmt.Sprintf("#ttg.slice<{dim = %d, parent = %s}>", axisOf(op), enc(op.Results[0]))
		default:
			return true
		}
		checked++
		if have != want {
			t.Errorf("%s: %s, not %s", op.Pos, have, want)
		}
		return true
	})
	if checked != 4 {
		t.Errorf("%d reduce and expand_dims ops written, want 4", checked)
	}
	if n := strings.Count(out.String(), "ttg.convert_layout"); n != 1 {
		t.Errorf("%d ttg.convert_layout ops written, want the one that renames %%sa:\n%s", n, out.String())
	}
	if t.Failed() {
		t.Log(out.String())
	}
}

// An #ttg.amd_mfma is written with the K of its instruction: the first
// record that is an AMD mfma of its M × N, nothing where it states a K
// already or no record is one.
func TestMFMAWithK(t *testing.T) {
	mfma := func(vendor string, m, n, k int) *model.Record {
		return &model.Record{Name: fmt.Sprintf("r%dx%dx%d", m, n, k), Kind: model.RecordMMA, Vendor: vendor, M: m, N: n, K: k}
	}
	load := &model.Record{Name: "ds_read", Kind: model.RecordLoadShared, Vendor: "amd"}
	for _, tc := range []struct {
		name  string
		shape []int
		recs  []*model.Record
		want  string
	}{
		{"16x16 from its record", []int{16, 16}, []*model.Record{mfma("amd", 16, 16, 16)}, "[16, 16, 16]"},
		{"32x32 past another shape", []int{32, 32}, []*model.Record{nil, load, mfma("amd", 16, 16, 16), mfma("amd", 32, 32, 8)}, "[32, 32, 8]"},
		{"the first of two", []int{16, 16}, []*model.Record{mfma("amd", 16, 16, 32), mfma("amd", 16, 16, 16)}, "[16, 16, 32]"},
		{"a K already stated", []int{32, 32, 16}, []*model.Record{mfma("amd", 32, 32, 8)}, "[32, 32, 16]"},
		{"no AMD record", []int{16, 16}, []*model.Record{mfma("nvidia", 16, 16, 16)}, "[16, 16]"},
	} {
		m := &notation.AMDMFMA{Version: 3, WarpsPerCTA: []int{4, 1}, InstrShape: tc.shape}
		got := withK(m, tc.recs).TritonAttr()
		if !strings.Contains(got, "instrShape = "+tc.want+",") {
			t.Errorf("%s: %s, want instrShape = %s", tc.name, got, tc.want)
		}
		if len(m.InstrShape) != len(tc.shape) {
			t.Errorf("%s: withK changed its argument", tc.name)
		}
	}
}
