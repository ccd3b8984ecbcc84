package vector

import (
	"os"
	"os/exec"
	"planner/mlir/mlirtest"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/mlir/ir"
)

// llvm19Forms rewrite the matrix ops of the three matrix kernels from
// IREE 3.13's forms, their properties as keywords, to LLVM 19's, their
// properties in the attribute dictionary (mlir/ir/mma_props.go).
var llvm19Forms = map[string][][2]string{
	"../testdata/mlir/wmma_gemm.mlir": {
		{"] leadDimension 16 :", "] {leadDimension = 16 : index} :"},
	},
	"../testdata/mlir/ldmatrix_mma_sync.mlir": {
		{"numTiles = 4 transpose = false :", "{numTiles = 4 : i32, transpose = false} :"},
		{"numTiles = 2 transpose = false :", "{numTiles = 2 : i32, transpose = false} :"},
		{"nvgpu.mma.sync(%a, %b, %zero) mmaShape = [16, 8, 16] :", "nvgpu.mma.sync (%a, %b, %zero) {mmaShape = [16, 8, 16]} :"},
	},
	"../testdata/mlir/mfma_tile.mlir": {
		{"amdgpu.mfma 16x16x16 %a * %b + %acc_i :", "amdgpu.mfma %a * %b + %acc_i {abid = 0 : i32, cbsz = 0 : i32, k = 16 : i32, m = 16 : i32, n = 16 : i32, blocks = 1 : i32} blgp = none :"},
	},
}

// The matrix kernels read to the same graphs in both forms of their
// matrix ops: IREE 3.13's, which the files are written in, and LLVM 19's,
// which mlir-opt-19 reads (checked where it is installed).
func TestMatrixOpsBothForms(t *testing.T) {
	opt, _ := exec.LookPath("mlir-opt-19")
	for path, edits := range llvm19Forms {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		old := string(data)
		for _, e := range edits {
			if !strings.Contains(old, e[0]) {
				t.Fatalf("%s has no %q", path, e[0])
			}
			old = golden.ReplaceEvery(t, old, e[0], e[1])
		}
		o := *kernelFiles[path]
		o.Targets, o.Offered = mlirtest.Targets, mlirtest.Offered
		current, err := readKernelGraph(path, data, o)
		if err != nil {
			t.Fatalf("%v", err)
		}
		llvm19, err := readKernelGraph(path, []byte(old), o)
		if err != nil {
			t.Fatalf("LLVM 19's forms: %v", err)
		}
		if canonical(current) != canonical(llvm19) {
			t.Errorf("%s reads to another graph in LLVM 19's forms:\n%s\n---\n%s", path, canonical(current), canonical(llvm19))
		}
		if opt == "" {
			continue
		}
		cmd := exec.Command(opt, "--allow-unregistered-dialect", "-")
		cmd.Stdin = strings.NewReader(old)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("mlir-opt-19 refuses %s in LLVM 19's forms: %v\n%s", path, err, out)
		}
	}
}

// propsOf writes an op's properties and attributes as name=value, in the
// order they are read.
func propsOf(op *ir.Op) string {
	var parts []string
	for _, list := range [][]*ir.NamedAttr{op.Props, op.Attrs} {
		for _, a := range list {
			parts = append(parts, a.Name+"="+a.Value.String())
		}
	}
	return strings.Join(parts, " ")
}

// The optional properties of IREE 3.13's forms (the flags, the mfma's
// blocks and options in any order, an attribute dictionary after them)
// and of LLVM 19's read alike.
func TestMatrixOpProperties(t *testing.T) {
	const head = "func.func @f(%m: memref<16x16xf16, 3>, %i: index, %a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %x: f32, %y: vector<32xf32>) {\n  "
	for _, c := range []struct{ op, want string }{
		{`%r = gpu.subgroup_mma_load_matrix %m[%i, %i] leadDimension 32 transpose : memref<16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">`,
			"leadDimension=32 : index transpose=unit"},
		{`%r = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index, transpose} : memref<16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">`,
			"leadDimension=32 : index transpose=unit"},
		{`%r = gpu.subgroup_mma_load_matrix %m[%i, %i] leadDimension 16 {foo = 1 : i32} : memref<16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "COp">` + "\n  " +
			`gpu.subgroup_mma_store_matrix %r, %m[%i, %i] leadDimension 16 transpose : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16, 3>`,
			"leadDimension=16 : index transpose=unit"},
		{`%r = nvgpu.ldmatrix %m[%i, %i] numTiles = 2 transpose = true {foo = 1 : i32} : memref<16x16xf16, 3> -> vector<2x2xf16>`,
			"numTiles=2 : i32 transpose=true foo=1 : i32"},
		{`%r = nvgpu.ldmatrix %m[%i, %i] {numTiles = 2 : i32, transpose = true} : memref<16x16xf16, 3> -> vector<2x2xf16>`,
			"numTiles=2 : i32 transpose=true"},
		{`%r = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] tf32Enabled : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>`,
			"mmaShape=[16, 8, 16] tf32Enabled=unit"},
		{`%r = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16], tf32Enabled} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>`,
			"mmaShape=[16, 8, 16] tf32Enabled=unit"},
		{`%r = amdgpu.mfma blocks(2) 32x32x1 %x * %x + %y cbsz(1) blgp(bcast_second_32) abid(1) negateA {foo = 1 : i32} : f32, f32, vector<32xf32>`,
			"blocks=2 : i32 m=32 : i32 n=32 : i32 k=1 : i32 cbsz=1 : i32 blgp=#rocdl.mfma_perm_b<bcast_second_32> abid=1 : i32 negateA=unit foo=1 : i32"},
		{`%r = amdgpu.mfma %x * %x + %y {m = 32 : i32, n = 32 : i32, k = 1 : i32, blocks = 2 : i32} blgp = bcast_second_32 : f32, f32, vector<32xf32>`,
			"blgp=#amdgpu<mfma_perm_b bcast_second_32> m=32 : i32 n=32 : i32 k=1 : i32 blocks=2 : i32"},
	} {
		m, err := ir.Parse("p.mlir", []byte(head+c.op+"\n  return\n}\n"))
		if err != nil {
			t.Errorf("%s: %v", c.op, err)
			continue
		}
		ops := walkOps(m.Ops)
		if got := propsOf(ops[len(ops)-2]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.op, got, c.want)
		}
	}
}

// The enum cases of both spellings.
func TestEnumCase(t *testing.T) {
	for _, c := range []struct {
		a          *ir.DialectAttr
		kind, want string
	}{
		{&ir.DialectAttr{Name: "amdgpu", Body: "mfma_perm_b none", HasBody: true}, "mfma_perm_b", "none"},
		{&ir.DialectAttr{Name: "rocdl.mfma_perm_b", Body: "none", HasBody: true}, "mfma_perm_b", "none"},
		{&ir.DialectAttr{Name: "gpu", Body: "mma_element_wise mulf", HasBody: true}, "mma_element_wise", "mulf"},
		{&ir.DialectAttr{Name: "gpu.mma_element_wise", Body: "mulf", HasBody: true}, "mma_element_wise", "mulf"},
		{&ir.DialectAttr{Name: "gpu.mma_element_wise", Body: "mulf", HasBody: true}, "mfma_perm_b", ""},
		{&ir.DialectAttr{Name: "gpu", Body: "dim x", HasBody: true}, "mma_element_wise", ""},
	} {
		if got, _ := ir.EnumCase(c.a, c.kind); got != c.want {
			t.Errorf("enumCase(%s, %s) = %q, want %q", c.a, c.kind, got, c.want)
		}
	}
}

// The new forms' mistakes are reported where they are, saying what was
// expected.
func TestMatrixOpPropertyErrors(t *testing.T) {
	const head = "func.func @f(%m: memref<16x16xf16, 3>, %i: index, %x: vector<4xf16>, %y: vector<4xf32>) {\n  "
	for _, c := range []struct{ op, want string }{
		{`%r = amdgpu.mfma 16 x16x16 %x * %x + %y : vector<4xf16>, vector<4xf16>, vector<4xf32>`,
			"p.mlir:2:20: expected amdgpu.mfma's dimensions as MxNxK (16x16x16), found 16"},
		{`%r = amdgpu.mfma 16x16x16 %x * %x + %y abid(0) abid(0) : vector<4xf16>, vector<4xf16>, vector<4xf32>`,
			"p.mlir:2:50: amdgpu.mfma's abid is given twice (first at p.mlir:2:42)"},
		{`%r = amdgpu.mfma blocks(1) %x * %x + %y : vector<4xf16>, vector<4xf16>, vector<4xf32>`,
			"p.mlir:2:30: expected amdgpu.mfma's MxNxK after blocks, found '%x'"},
		{`%r = amdgpu.mfma 16x16x16 %x * %x + %y blgp(1) : vector<4xf16>, vector<4xf16>, vector<4xf32>`,
			"p.mlir:2:47: expected blgp's value (none, bcast_first_32, ...), found '1'"},
		{`%r = nvgpu.ldmatrix %m[%i, %i] numTiles = 4 : memref<16x16xf16, 3> -> vector<4x2xf16>`,
			"p.mlir:2:47: expected nvgpu.ldmatrix's transpose = true|false after its numTiles, found ':'"},
		{`%r = gpu.subgroup_mma_load_matrix %m[%i, %i] leadDimension 16 {leadDimension = 16 : index} : memref<16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">`,
			"p.mlir:2:66: gpu.subgroup_mma_load_matrix's leadDimension is given twice: as a keyword at p.mlir:2:48 and in its attribute dictionary"},
		{`%r = gpu.subgroup_mma_load_matrix %m[%i, %i] leadDimension : memref<16x16xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">`,
			"p.mlir:2:62: expected leadDimension's value, an integer, found ':'"},
	} {
		_, err := ir.Parse("p.mlir", []byte(head+c.op+"\n  return\n}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.op, err, c.want)
		}
	}
}
