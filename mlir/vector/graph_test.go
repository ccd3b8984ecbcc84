package vector

import (
	"fmt"
	"planner/mlir/mlirtest"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/tomlio"
)

// kernel wraps a function body on sm_80 with 4 subgroups.
func kernel(args, body string) string {
	return "func.func @k(" + args + ") attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = \"sm_80\">} {\n" + body + "\n  return\n}\n"
}

func readGraph(t *testing.T, text string, opt reader.Options) *model.Graph {
	t.Helper()
	if opt.Targets == nil {
		opt.Targets, opt.Offered = mlirtest.Targets, mlirtest.Offered
	}
	g, err := readKernelGraph("k.mlir", []byte(text), opt)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return g
}

func readError(t *testing.T, text string, opt reader.Options) string {
	t.Helper()
	if opt.Targets == nil {
		opt.Targets, opt.Offered = mlirtest.Targets, mlirtest.Offered
	}
	_, err := readKernelGraph("k.mlir", []byte(text), opt)
	if err == nil {
		t.Fatalf("no error reading\n%s", text)
	}
	list, ok := model.Errors(err)
	if !ok {
		t.Fatalf("error without a position: %v", err)
	}
	for _, e := range list {
		if e.Pos.File != "k.mlir" || e.Pos.Line < 1 || e.Code == model.CodeNone {
			t.Fatalf("error without a position or code: %#v", e)
		}
	}
	return err.Error()
}

func TestReadFlashAttentionSeed004(t *testing.T) {
	m := parseFile(t, "../examples/mlir/flash_attention_seed004.mlir")
	g, err := buildGraph(m, reader.Options{Targets: mlirtest.Targets})
	if err != nil {
		t.Fatal(err)
	}
	want := `9 = load_shared -> %9 [32 64] f16 buffer=alloc[32 64]
cst_0 = constant -> %cst_0 [32] f32
cst_1 = constant -> %cst_1 [32] f32
cst = constant -> %cst [32 64] f32
11 = loop trips=32 args(%arg1, %arg2, %arg3) = (%cst_0, %cst_1, %cst) yields(%16, %24, %39) results(%11#0, %11#1, %11#2)
  13 = load_shared -> %13 [128 64] f16 buffer=alloc_11[128 64]
  cst_2 = constant -> %cst_2 [32 128] f32
  15@b = transpose %13 -> %15@b [64 128] f16 perm=[1 0]
  15 = mma %9, %15@b, %cst_2 -> %15 [32 128] f32
  16 = reduce max %15, %arg1 -> %16 [32] f32 axis=1
  17 = broadcast %16 -> %17 [128 32] f32 dims=[0]
  18 = transpose %17 -> %18 [32 128] f32 perm=[1 0]
  19 = elementwise sub %15, %18 -> %19 [32 128] f32
  20 = elementwise exp2 %19 -> %20 [32 128] f32
  21 = elementwise sub %arg1, %16 -> %21 [32] f32
  22 = elementwise exp2 %21 -> %22 [32] f32
  23 = elementwise mul %22, %arg2 -> %23 [32] f32
  24 = reduce add %20, %23 -> %24 [32] f32 axis=1
  cst_3 = constant -> %cst_3 [32] f32
  25 = elementwise div %cst_3, %24 -> %25 [32] f32
  26 = broadcast %25 -> %26 [128 32] f32 dims=[0]
  27 = transpose %26 -> %27 [32 128] f32 perm=[1 0]
  28 = elementwise mul %20, %27 -> %28 [32 128] f32
  29 = cast truncf %28 -> %29 [32 128] f16
  30 = broadcast %23 -> %30 [64 32] f32 dims=[0]
  31 = broadcast %25 -> %31 [64 32] f32 dims=[0]
  32 = transpose %30 -> %32 [32 64] f32 perm=[1 0]
  33 = transpose %31 -> %33 [32 64] f32 perm=[1 0]
  34 = elementwise mul %32, %33 -> %34 [32 64] f32
  35 = elementwise mul %34, %arg3 -> %35 [32 64] f32
  37@mem = load_shared -> %37@mem [128 64] f16 buffer=alloc_12[128 64]
  37 = transpose %37@mem -> %37 [64 128] f16 perm=[1 0]
  39@b = transpose %37 -> %39@b [128 64] f16 perm=[1 0]
  39 = mma %29, %39@b, %35 -> %39 [32 64] f32
12 = cast truncf %11#2 -> %12 [32 64] f16
vector.transfer_write@95 = copy_to_shared %12 buffer=alloc_7[32 64]
`
	if got := mlirtest.Signature(g); got != want {
		t.Errorf("graph:\n%s\nwant:\n%s", got, want)
	}
	if g.Target != "sm_80" || g.Subgroups != 2 {
		t.Errorf("target %s, %d subgroups", g.Target, g.Subgroups)
	}
	wantProv := []string{
		"target sm_80 from hal.executable.target at ../examples/mlir/flash_attention_seed004.mlir:46:42",
		"subgroups 2: 64 threads (translation_info's workgroup_size [64, 1, 1] at ../examples/mlir/flash_attention_seed004.mlir:46:86) in subgroups of 32 lanes (translation_info's subgroup_size at ../examples/mlir/flash_attention_seed004.mlir:46:86)",
	}
	if strings.Join(g.Provenance, "\n") != strings.Join(wantProv, "\n") {
		t.Errorf("provenance:\n%s\nwant\n%s", strings.Join(g.Provenance, "\n"), strings.Join(wantProv, "\n"))
	}
	// Every value and op is where the MLIR writes it.
	v := g.Value("16")
	if v.Pos.String() != "../examples/mlir/flash_attention_seed004.mlir:67:5" || v.Def.Pos != v.Pos {
		t.Errorf("%%16 at %s, its op at %s", v.Pos, v.Def.Pos)
	}
	if a := g.Value("arg1"); a.Pos.String() != "../examples/mlir/flash_attention_seed004.mlir:62:62" {
		t.Errorf("%%arg1 at %s", a.Pos)
	}
	if b := g.Buffers[1]; b.Pos.String() != "../examples/mlir/flash_attention_seed004.mlir:52:3" {
		t.Errorf("buffer %s at %s", b.Name, b.Pos)
	}
	if g.Ops[0].Buffer.Layout == nil || g.Notation != "nested" {
		t.Errorf("buffer layout %v, notation %s", g.Ops[0].Buffer.Layout, g.Notation)
	}
}

func TestFuncSelection(t *testing.T) {
	two := kernel("", "") + golden.ReplaceOnce(t, kernel("", ""), "@k", "@other")
	if e := readError(t, two, reader.Options{}); !strings.Contains(e, "k.mlir:5:1: the file has 2 functions (@k, @other): name the kernel with --func NAME") {
		t.Errorf("two functions: %s", e)
	}
	if e := readError(t, two, reader.Options{Func: "nope"}); !strings.Contains(e, "the file has no function @nope (its functions: @k, @other)") {
		t.Errorf("--func nope: %s", e)
	}
	body := `  %c = arith.constant dense<1.0> : vector<4xf32>`
	g := readGraph(t, kernel("", "")+golden.ReplaceOnce(t, kernel("", body), "@k", "@other"), reader.Options{Func: "@other"})
	if len(g.Ops) != 1 {
		t.Errorf("--func @other read %d ops", len(g.Ops))
	}
	if e := readError(t, "func.func private @d(i32)\n", reader.Options{}); !strings.Contains(e, "@d is a declaration") {
		t.Errorf("declaration: %s", e)
	}
	// A function with no op on vectors reads to an empty graph, whose
	// plan says there is nothing to lay out.
	if g := readGraph(t, kernel("", "  %i = arith.constant 0 : index"), reader.Options{}); len(g.Ops) != 0 || len(g.Values) != 0 {
		t.Errorf("no vector op: read %d ops and %d values", len(g.Ops), len(g.Values))
	}
}

func TestTargetAndSubgroups(t *testing.T) {
	body := `  %c = arith.constant dense<1.0> : vector<64xf32>`
	fn := func(attrs string) string {
		return "func.func @k() attributes {" + attrs + "} {\n" + body + "\n  return\n}\n"
	}
	for _, c := range []struct {
		text      string
		opt       reader.Options
		target    string
		subgroups int
		prov      string
	}{
		{fn(`translation_info = #iree_codegen.translation_info<pipeline = X workgroup_size = [256, 1, 1] subgroup_size = 64>, hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.gpu.target = #iree_gpu.target<arch = "gfx942", features = "">}>`),
			reader.Options{}, "gfx942", 4, "target gfx942 from hal.executable.target at k.mlir:1:141 | subgroups 4: 256 threads (translation_info's workgroup_size [256, 1, 1] at k.mlir:1:28) in subgroups of 64 lanes (translation_info's subgroup_size at k.mlir:1:28)"},
		// The target named by an alias inside the executable target, as
		// IREE's printer writes it.
		{"#t = #iree_gpu.target<arch = \"gfx942\", features = \"\", wgp = <subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024]>>\n" + fn(`translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [128, 1, 1] subgroup_size = 64>, hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree_codegen.target_info = #t}>`),
			reader.Options{}, "gfx942", 2, "target gfx942 from hal.executable.target at k.mlir:2:176 | subgroups 2: 128 threads (translation_info's workgroup_size [128, 1, 1] at k.mlir:2:28) in subgroups of 64 lanes (translation_info's subgroup_size at k.mlir:2:28)"},
		{fn(`gpu.known_block_size = array<i32: 32, 4, 1>, t = #rocdl.target<chip = "gfx942">`),
			reader.Options{}, "gfx942", 2, "target gfx942 from t at k.mlir:1:73 | subgroups 2: 128 threads (gpu.known_block_size [32, 4, 1] at k.mlir:1:28) in subgroups of 64 lanes (gfx942's subgroup size)"},
		{fn(`gpu.known_block_size = array<i32: 32, 4, 1>, t = #rocdl.target<chip = "gfx942">`),
			reader.Options{Target: "sm_80", Subgroups: 8}, "sm_80", 8, "target sm_80 from --target | subgroups 8 from --subgroups"},
		{fn(`workgroup_size = [64, 2, 1]`), reader.Options{Target: "pvc"}, "pvc", 8, "target pvc from --target | subgroups 8: 128 threads (workgroup_size [64, 2, 1] at k.mlir:1:28) in subgroups of 16 lanes (pvc's subgroup size)"},
	} {
		g := readGraph(t, c.text, c.opt)
		if g.Target != c.target || g.Subgroups != c.subgroups || strings.Join(g.Provenance, " | ") != c.prov {
			t.Errorf("%s:\nread %s, %d subgroups: %s\nwant %s, %d: %s", c.text, g.Target, g.Subgroups, strings.Join(g.Provenance, " | "), c.target, c.subgroups, c.prov)
		}
	}
	for _, c := range []struct {
		text string
		opt  reader.Options
		want string
	}{
		{fn(`workgroup_size = [64, 1, 1]`), reader.Options{}, "k.mlir:1:1: the IR names no target (an #iree_gpu.target<arch = ...> or a chip = \"...\" attribute): give --target NAME (known: gfx942, pvc, sm_80)"},
		{fn(`a = #nvvm.target<chip = "sm_80">, b = #rocdl.target<chip = "gfx942">`), reader.Options{Subgroups: 1}, `k.mlir:1:62: the IR names two targets, "sm_80" (a at k.mlir:1:28) and "gfx942" (b): name the one to plan for with --target`},
		{fn(`a = #nvvm.target<chip = "sm_99">`), reader.Options{Subgroups: 1}, `k.mlir:1:28: unknown target "sm_99" (known: gfx942, pvc, sm_80)`},
		{fn(``), reader.Options{Target: "sm_80"}, "k.mlir:1:1: the IR states no workgroup size (an IREE translation_info with workgroup_size, or gpu.known_block_size): give --subgroups N"},
		{fn(`translation_info = #iree_codegen.translation_info<pipeline = X workgroup_size = [64, 1, 1] subgroup_size = 64>`), reader.Options{Target: "sm_80"}, "k.mlir:1:28: the IR states translation_info's subgroup_size = 64, but sm_80's subgroups have 32 lanes: give --target a target of 64 lanes"},
		{fn(`workgroup_size = [96, 1, 1]`), reader.Options{Target: "sm_80"}, "k.mlir:1:28: 3 subgroups is not a power of two"},
		{fn(`workgroup_size = [48, 1, 1]`), reader.Options{Target: "sm_80"}, "k.mlir:1:28: workgroup_size [48, 1, 1] gives 48 threads, not a whole number of 32-lane subgroups"},
		{fn(``), reader.Options{Target: "gfx942", Subgroups: 32}, "k.mlir:1:1: gfx942 allows at most 16 subgroups per block, found 32"},
	} {
		if e := readError(t, c.text, c.opt); !strings.HasPrefix(e, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.text, e, c.want)
		}
	}
}

// How each op maps onto the op table.
func TestOpMapping(t *testing.T) {
	for _, c := range []struct {
		name, args, body, want string
	}{
		{"global read and write, contiguous dimension", "%g: memref<64x128xf32>, %o: memref<128x64xf32, #gpu.address_space<global>>",
			`  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %x = vector.transfer_read %g[%c0, %c0], %p {in_bounds = [true, true]} : memref<64x128xf32>, vector<32x128xf32>
  %y = vector.transfer_read %g[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<64x128xf32>, vector<128x32xf32>
  vector.transfer_write %y, %o[%c0, %c0] : vector<128x32xf32>, memref<128x64xf32, #gpu.address_space<global>>
  %l = vector.load %g[%c0, %c0] : memref<64x128xf32>, vector<4x8xf32>
  vector.store %x, %o[%c0, %c0] : memref<128x64xf32, #gpu.address_space<global>>, vector<32x128xf32>`,
			`x = load -> %x [32 128] f32 contiguous=1
y = load -> %y [128 32] f32 contiguous=0
vector.transfer_write@6 = store %y contiguous=1
l = load -> %l [4 8] f32 contiguous=1
vector.store@8 = store %x contiguous=1
`},
		{"shared: one tile per buffer, transposed accesses", "%s: memref<2x64x32xf16, 3>",
			`  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f16
  %a = vector.transfer_read %s[%c0, %c0, %c0], %p : memref<2x64x32xf16, 3>, vector<64x32xf16>
  %b = vector.transfer_read %s[%c0, %c0, %c0], %p {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>} : memref<2x64x32xf16, 3>, vector<32x64xf16>
  vector.transfer_write %b, %s[%c0, %c0, %c0] {permutation_map = affine_map<(d0, d1, d2) -> (d2, d1)>} : vector<32x64xf16>, memref<2x64x32xf16, 3>`,
			`a = load_shared -> %a [64 32] f16 buffer=s[64 32]
b@mem = load_shared -> %b@mem [64 32] f16 buffer=s[64 32]
b = transpose %b@mem -> %b [32 64] f16 perm=[1 0]
b@mem@2 = transpose %b -> %b@mem@2 [64 32] f16 perm=[1 0]
vector.transfer_write@6 = copy_to_shared %b@mem@2 buffer=s[64 32]
`},
		{"element-wise ops, casts, comparisons, select", "%a: vector<8x8xf32>, %c: i1",
			`  %x = arith.addf %a, %a : vector<8x8xf32>
  %y = math.exp2 %x fastmath<fast> : vector<8x8xf32>
  %z = arith.maxnumf %x, %y : vector<8x8xf32>
  %q = arith.cmpf olt, %x, %z : vector<8x8xf32>
  %s = arith.select %q, %x, %z : vector<8x8xi1>, vector<8x8xf32>
  %u = arith.select %c, %s, %y : vector<8x8xf32>
  %h = arith.truncf %u : vector<8x8xf32> to vector<8x8xf16>
  %i = arith.fptosi %h : vector<8x8xf16> to vector<8x8xi32>
  %f = math.fma %x, %y, %z : vector<8x8xf32>
  %n = arith.negf %f : vector<8x8xf32>`,
			`a_in = argument -> %a_in [8 8] f32
x = elementwise add %a_in, %a_in -> %x [8 8] f32
y = elementwise exp2 %x -> %y [8 8] f32
z = elementwise max %x, %y -> %z [8 8] f32
q = elementwise cmp %x, %z -> %q [8 8] i1
s = elementwise select %q, %x, %z -> %s [8 8] f32
u@cond = constant -> %u@cond [8 8] i1
u = elementwise select %u@cond, %s, %y -> %u [8 8] f32
h = cast truncf %u -> %h [8 8] f16
i = cast cast %h -> %i [8 8] i32
f = elementwise fma %x, %y, %z -> %f [8 8] f32
n = elementwise neg %f -> %n [8 8] f32
`},
		{"broadcasts: new leading dimensions, grown dimensions, both, a scalar, a shape_cast read in", "%v: vector<16xf32>, %w: vector<16x1xf32>, %f: f32",
			`  %a = vector.broadcast %v : vector<16xf32> to vector<4x16xf32>
  %b = vector.broadcast %w : vector<16x1xf32> to vector<16x8xf32>
  %c = vector.broadcast %w : vector<16x1xf32> to vector<2x16x8xf32>
  %d = vector.broadcast %f : f32 to vector<16x8xf32>
  %e = vector.shape_cast %v : vector<16xf32> to vector<16x1xf32>
  %g = vector.broadcast %e : vector<16x1xf32> to vector<16x8xf32>
  %h = vector.splat %f : vector<4xf32>
  %i = vector.broadcast %v : vector<16xf32> to vector<16xf32>
  %j = arith.addf %i, %v : vector<16xf32>`,
			`v_in = argument -> %v_in [16] f32
w_in = argument -> %w_in [16 1] f32
a = broadcast %v_in -> %a [4 16] f32 dims=[0]
b = broadcast %w_in -> %b [16 8] f32 dims=[1]
c@lead = broadcast %w_in -> %c@lead [2 16 1] f32 dims=[0]
c = broadcast %c@lead -> %c [2 16 8] f32 dims=[2]
d = constant -> %d [16 8] f32
g = broadcast %v_in -> %g [16 8] f32 dims=[1]
h = constant -> %h [4] f32
j = elementwise add %v_in, %v_in -> %j [16] f32
`},
		{"reductions: one dimension, identity inits dropped, to a scalar", "%a: vector<8x16xf32>",
			`  %z = arith.constant dense<0.0> : vector<8xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<16xf32>
  %one = arith.constant dense<2.0> : vector<8xf32>
  %s = vector.multi_reduction <add>, %a, %z [1] : vector<8x16xf32> to vector<8xf32>
  %m = vector.multi_reduction <maximumf>, %a, %ninf [0] : vector<8x16xf32> to vector<16xf32>
  %p = vector.multi_reduction <mul>, %a, %one [1] : vector<8x16xf32> to vector<8xf32>
  %r = vector.reduction <add>, %m : vector<16xf32> into f32
  %q = vector.reduction <minimumf>, %s, %r : vector<8xf32> into f32
  %b = vector.broadcast %q : f32 to vector<4x8xf32>`,
			`a_in = argument -> %a_in [8 16] f32
one = constant -> %one [8] f32
s = reduce add %a_in -> %s [8] f32 axis=1
m = reduce max %a_in -> %m [16] f32 axis=0
p = reduce mul %a_in, %one -> %p [8] f32 axis=1
r@row = shape_cast %m -> %r@row [1 16] f32
r = reduce add %r@row -> %r [1] f32 axis=1
q@row = shape_cast %s -> %q@row [1 8] f32
q = reduce min %q@row, %r -> %q [1] f32 axis=1
b@lead = broadcast %q -> %b@lead [4 1] f32 dims=[0]
b = broadcast %b@lead -> %b [4 8] f32 dims=[1]
`},
		{"contractions: any operand transposed; extf widening only for an mma folded", "%a: vector<16x32xf16>, %b: vector<8x32xf16>, %c: vector<16x8xf32>",
			`  %ea = arith.extf %a : vector<16x32xf16> to vector<16x32xf32>
  %eb = arith.extf %b : vector<8x32xf16> to vector<8x32xf32>
  %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ea, %eb, %c : vector<16x32xf32>, vector<8x32xf32> into vector<16x8xf32>
  %at = vector.transpose %a, [1, 0] : vector<16x32xf16> to vector<32x16xf16>
  %e = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %at, %b, %d : vector<32x16xf16>, vector<8x32xf16> into vector<16x8xf32>
  %w = arith.extf %e : vector<16x8xf32> to vector<16x8xf64>`,
			`a_in = argument -> %a_in [16 32] f16
b_in = argument -> %b_in [8 32] f16
c_in = argument -> %c_in [16 8] f32
d@b = transpose %b_in -> %d@b [32 8] f16 perm=[1 0]
d = mma %a_in, %d@b, %c_in -> %d [16 8] f32
at = transpose %a_in -> %at [32 16] f16 perm=[1 0]
e@a = transpose %at -> %e@a [16 32] f16 perm=[1 0]
e@b = transpose %b_in -> %e@b [32 8] f16 perm=[1 0]
e = mma %e@a, %e@b, %d -> %e [16 8] f32
w = cast extf %e -> %w [16 8] f64
`},
		{"extract and insert of whole vectors; transpose; shape_cast", "%a: vector<1x1x8xf32>",
			`  %e = vector.extract %a[0, 0] : vector<8xf32> from vector<1x1x8xf32>
  %i = vector.insert %e, %a[0, 0] : vector<8xf32> into vector<1x1x8xf32>
  %s = vector.shape_cast %i : vector<1x1x8xf32> to vector<2x4xf32>
  %t = vector.transpose %s, [1, 0] : vector<2x4xf32> to vector<4x2xf32>`,
			`a_in = argument -> %a_in [1 1 8] f32
e = shape_cast %a_in -> %e [8] f32
i = shape_cast %e -> %i [1 1 8] f32
s = shape_cast %i -> %s [2 4] f32
t = transpose %s -> %t [4 2] f32 perm=[1 0]
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := kernel(c.args, c.body)
			if strings.Contains(c.args, "vector") {
				text = pinArgs(t, text, c.args)
			}
			g := readGraph(t, text, reader.Options{})
			got := mlirtest.Signature(g)
			got = strings.ReplaceAll(got, " pinned", "")
			if got != c.want {
				t.Errorf("graph:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// pinArgs anchors every vector argument %a with a to_layout that
// repeats the whole vector in every lane: the argument arrives as %a_in,
// and %a is the anchored value the body uses.
func pinArgs(t testing.TB, text, args string) string {
	var pins []string
	for _, a := range strings.Split(args, ", ") {
		name, typ, _ := strings.Cut(a, ": ")
		if !strings.HasPrefix(typ, "vector<") {
			continue
		}
		rank := strings.Count(typ, "x")
		ones := strings.TrimSuffix(strings.Repeat("1, ", rank), ", ")
		zeros := strings.TrimSuffix(strings.Repeat("0, ", rank), ", ")
		dims := strings.Split(strings.TrimPrefix(typ, "vector<"), "x")
		pins = append(pins, fmt.Sprintf(`  %s = "iree_vector_ext.to_layout"(%s_in) <{layout = #iree_vector_ext.nested_layout<subgroup_tile = [%s], batch_tile = [%s], outer_tile = [%s], thread_tile = [%s], element_tile = [%s], subgroup_strides = [%s], thread_strides = [%s]>}> : (%s) -> %s`,
			name, name, ones, ones, ones, ones, strings.Join(dims[:rank], ", "), zeros, zeros, typ, typ))
		text = golden.ReplaceOnce(t, text, name+": ", name+"_in: ")
	}
	return golden.ReplaceOnce(t, text, " {\n", " {\n"+strings.Join(pins, "\n")+"\n")
}

func TestLoops(t *testing.T) {
	body := `  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant dense<0.0> : vector<32xf32>
  %s = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %c10 step %c3 iter_args(%acc = %z, %t = %s) -> (vector<32xf32>, f32) {
    %n = arith.addf %acc, %acc : vector<32xf32>
    %u = arith.addf %t, %t : f32
    scf.yield %n, %u : vector<32xf32>, f32
  }`
	g := readGraph(t, kernel("", body), reader.Options{})
	want := `z = constant -> %z [32] f32
r = loop trips=4 args(%acc) = (%z) yields(%n) results(%r#0)
  n = elementwise add %acc, %acc -> %n [32] f32
`
	if got := mlirtest.Signature(g); got != want {
		t.Errorf("graph:\n%s\nwant:\n%s", got, want)
	}
	dyn := golden.ReplaceOnce(t, body, "to %c10", "to %n10")
	dyn = golden.ReplaceOnce(t, dyn, "  %c0 =", "  %n10 = gpu.block_dim x\n  %c0 =")
	if e := readError(t, kernel("", dyn), reader.Options{}); !strings.Contains(e, "k.mlir:8:3: the trip count of scf.for is known only at run time: %n10 (upper bound) is not an arith.constant; give --trips N, the count to price its body at") {
		t.Errorf("dynamic bound: %s", e)
	}
	g = readGraph(t, kernel("", dyn), reader.Options{Trips: 16})
	if l := g.Ops[1].Body; l.Trips != 16 || !l.Dynamic {
		t.Errorf("--trips 16 gives %d trips, dynamic %v", l.Trips, l.Dynamic)
	}
	if e := readError(t, kernel("", golden.ReplaceOnce(t, body, "to %c10", "to %c0")), reader.Options{}); !strings.Contains(e, "scf.for from 0 to 0 runs no iteration") {
		t.Errorf("empty loop: %s", e)
	}
}

func TestToLayoutPins(t *testing.T) {
	layout := `#iree_vector_ext.nested_layout<subgroup_tile = [4, 1], batch_tile = [1, 1], outer_tile = [1, 1], thread_tile = [8, 4], element_tile = [1, 16], subgroup_strides = [1, 0], thread_strides = [4, 1]>`
	body := `  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %x = vector.transfer_read %g[%c0, %c0], %p : memref<32x64xf32>, vector<32x64xf32>
  %y = iree_vector_ext.to_layout %x to layout(#l) : vector<32x64xf32>
  %z = arith.addf %y, %y : vector<32x64xf32>
  %w = iree_vector_ext.to_layout %z to layout(#l) : vector<32x64xf32>
  %v = arith.mulf %w, %z : vector<32x64xf32>`
	g := readGraph(t, "#l = "+layout+"\n"+kernel("%g: memref<32x64xf32>", body), reader.Options{})
	want := `x = load -> %x [32 64] f32 contiguous=1 pinned
z = elementwise add %x, %x -> %z [32 64] f32
w = shape_cast %z -> %w [32 64] f32 pinned
v = elementwise mul %w, %z -> %v [32 64] f32
`
	if got := mlirtest.Signature(g); got != want {
		t.Errorf("graph:\n%s\nwant:\n%s", got, want)
	}
	x := g.Value("x")
	if x.Pin.Pos.String() != "k.mlir:6:3" || x.Pin.Notation.Kind() != "nested" || x.Pin.Layout == nil || g.Notation != "nested" {
		t.Errorf("pin at %s in %s, layout %v, graph notation %s", x.Pin.Pos, x.Pin.Notation.Kind(), x.Pin.Layout, g.Notation)
	}
	// A layout for another subgroup count is read as a pin no plan can
	// meet, with the reason.
	g = readGraph(t, "#l = "+layout+"\n"+kernel("%g: memref<32x64xf32>", body), reader.Options{Target: "pvc", Subgroups: 4})
	if p := g.Value("x").Pin; p.Layout != nil || !strings.Contains(p.Unrealisable, "spreads over 32 lanes per subgroup, but pvc's subgroups have 16 lanes") {
		t.Errorf("unrealisable pin: %+v", p)
	}
	for _, c := range []struct{ layout, want string }{
		{golden.ReplaceOnce(t, layout, "thread_tile = [8, 4]", "thread_tile = [8, 2]"), "k.mlir:6:47: dimension 1: subgroup 1 × batch 1 × outer 1 × thread 2 × element 16 = 32, but the shape has 64"},
		{golden.ReplaceOnce(t, layout, "thread_strides = [4, 1]", "thread_strides = [4, 3]"), "k.mlir:1:197: thread stride 3 is not a power of two"},
		{golden.ReplaceOnce(t, layout, "batch_tile", "warp_tile"), "k.mlir:1:61: nested_layout has no field warp_tile (its fields: subgroup_tile, batch_tile, outer_tile, thread_tile, element_tile, subgroup_strides, thread_strides)"},
		{golden.ReplaceOnce(t, layout, ", thread_strides = [4, 1]", ""), "k.mlir:6:47: nested_layout lacks thread_strides"},
		{golden.ReplaceOnce(t, layout, "outer_tile = [1, 1]", "outer_tile = [1, x]"), "k.mlir:1:99: outer_tile's entries are integers, found 'x'"},
	} {
		text := "#l = " + c.layout + "\n" + kernel("%g: memref<32x64xf32>", body)
		if e := readError(t, text, reader.Options{}); !strings.HasPrefix(e, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.layout, e, c.want)
		}
	}
}

// Seed 000's worked example, as a to_layout anchor, pins the value to
// the layout examples/layouts/seed000_nested.toml describes.
func TestSeed000Anchor(t *testing.T) {
	g, err := buildGraph(parseFile(t, "../examples/mlir/nested_anchor_seed000.mlir"), reader.Options{Targets: mlirtest.Targets})
	if err != nil {
		t.Fatal(err)
	}
	want, err := tomlio.ReadLayoutFile("../examples/layouts/seed000_nested.toml")
	if err != nil {
		t.Fatal(err)
	}
	x := g.Value("x")
	if x.Pin == nil || x.Pin.Layout == nil || !x.Pin.Layout.Equal(want.Layout) {
		t.Fatalf("%%x is pinned to %+v, want the layout of seed000_nested.toml", x.Pin)
	}
	if g.Target != "gfx942" || g.Subgroups != 4 || g.Notation != "nested" {
		t.Errorf("read on %s with %d subgroups in %s notation", g.Target, g.Subgroups, g.Notation)
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct{ args, body, want string }{
		{"%a: vector<4xf32>", `  %b = vector.interleave %a, %a : vector<4xf32> -> vector<8xf32>`, "k.mlir:2:3: vector.interleave is not understood, and it touches vectors (%a, vector<...>): the reader understands vector."},
		{"%a: vector<4xf32>", `  %b = "my.op"(%a) : (vector<4xf32>) -> vector<4xf32>`, "k.mlir:2:3: my.op is not understood, and it touches vectors: the reader understands"},
		{"%a: vector<4xf32>", `  %b = math.erf %a : vector<4xf32>`, "k.mlir:2:3: math.erf is not understood, and it touches vectors"},
		{"%a: vector<[4]xf32>", ``, "k.mlir:1:14: argument %a is the scalable vector vector<[4]xf32>"},
		{"%t: tensor<4xf32>", ``, "k.mlir:1:14: argument %t is a tensor<4xf32>: the planner reads kernels in the vector dialect"},
		{"%m: memref<4xf32>", `  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %t = arith.constant dense<1.0> : tensor<4xf32>`, "k.mlir:4:3: arith.constant works on tensors"},
		{"%m: memref<?x4xf32, 3>", `  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %p : memref<?x4xf32, 3>, vector<4xf32>`, "k.mlir:1:14: the shared-memory buffer %m has the shape of memref<?x4xf32, 3>, which is not constant"},
		{"%m: memref<8x8xf32, #gpu.address_space<private>>", ``, "k.mlir:1:14: %m is in memory space #gpu.address_space<private>, which the planner does not know"},
		{"%a: vector<4x8xf32>", `  %b = vector.extract %a[1] : vector<8xf32> from vector<4x8xf32>`, "k.mlir:2:3: vector.extract takes position [1] of [4 8], a part of the vector"},
		{"%a: vector<4x8xf32>", `  %s = arith.constant 0.0 : f32
  %b = vector.multi_reduction <add>, %a, %s [0, 2] : vector<4x8xf32> to f32`, "k.mlir:3:3: vector.multi_reduction's reduction_dims [0 2] are not distinct dimensions of [4 8]"},
		{"%a: vector<4x8xf32>", `  %z = arith.constant dense<0.0> : vector<4xf32>
  %b = vector.multi_reduction <xor>, %a, %z [1] : vector<4x8xf32> to vector<4xf32>`, "k.mlir:3:3: vector.multi_reduction combines with <xor>"},
		{"%a: vector<4x8xf32>", `  %b = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %a, %a : vector<4x8xf32>, vector<4x8xf32> into vector<4x8xf32>`, "vector.contract's indexing_maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] are not a matrix product's: B must be K×N or N×K"},
	} {
		text := kernel(c.args, c.body)
		if e := readError(t, text, reader.Options{}); !strings.Contains(e, c.want) {
			t.Errorf("%s\n%s:\n got %s\nwant %s", c.args, c.body, e, c.want)
		}
	}
}

// A WMMA type reads as the vector of its shape and elements, and the
// operand it is; anything else is not one.
func TestMMAMatrixOf(t *testing.T) {
	for _, c := range []struct{ text, vec, role string }{
		{`!gpu.mma_matrix<16x16xf16, "AOp">`, "vector<16x16xf16>", "AOp"},
		{`!gpu.mma_matrix<16x8xi8,"BOp">`, "vector<16x8xi8>", "BOp"},
		{`!gpu.mma_matrix<16x16xsi32, "COp">`, "vector<16x16xsi32>", "COp"},
		{`!gpu.mma_matrix<16x16x16, "COp">`, "", ""},
		{`!gpu.mma_matrix<16x16xs8, "COp">`, "", ""},
		{`!gpu.mma_matrix<16x16xf16, "DOp">`, "", ""},
		{`!gpu.mma_matrix<16xf16, "AOp">`, "", ""},
		{`!gpu.other<16x16xf16, "AOp">`, "", ""},
	} {
		v, role, ok := ir.MMAMatrixOf(&ir.OpaqueType{Text: c.text})
		got := ""
		if ok {
			got = v.String()
		}
		if got != c.vec || role != c.role {
			t.Errorf("%s reads as %q, %q; want %q, %q", c.text, got, role, c.vec, c.role)
		}
	}
}
