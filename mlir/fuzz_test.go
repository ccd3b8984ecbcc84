package mlir

import (
	"fmt"
	"os"
	"path/filepath"
	"planner/mlir/mlirtest"
	"strings"
	"testing"

	"planner/mlir/ir"
	"planner/model"
)

// FuzzReadMLIR: any text is read to a graph (empty where the kernel has
// nothing to lay out) or rejected with errors,
// every one positioned (file, line, column and code); nothing panics.
func FuzzReadMLIR(f *testing.F) {
	for _, glob := range []string{"../examples/mlir/*.mlir", "../testdata/mlir/*.mlir", "../testdata/bad/mlir/*.mlir", "ir/testdata/*.mlir",
		"../testdata/mlir_out/*.planned.mlir", "testdata/ttgir/*.ttgir", "../testdata/bad/ttgir/*.ttgir", "../examples/ttgir/*.ttgir"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			if data, err := os.ReadFile(path); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadGraph("fuzz.mlir", data, Options{Targets: mlirtest.Targets, Offered: mlirtest.Offered, Trips: 2})
		if err != nil {
			list, ok := model.Errors(err)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T without a position: %v", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz.mlir" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Code == model.CodeNone {
					t.Fatalf("error without a file:line:col or code: %#v", e)
				}
				for _, p := range e.Related {
					if p.File == "" || p.Line < 1 {
						t.Fatalf("related position without a file or line: %#v", e)
					}
				}
			}
			return
		}
		if g == nil {
			t.Fatal("no error and no graph") // an empty graph is a kernel with nothing to lay out
		}
	})
}

// generated writes a function of about n ops on vectors: a loop of
// shared-memory reads, contractions, reductions, broadcasts and
// element-wise ops, repeated.
func generated(n int) string {
	var b strings.Builder
	b.WriteString(`#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @big(%in: memref<64x64xf16>, %s: memref<64x64xf16, #gpu.address_space<workgroup>>, %out: memref<64x64xf32>) attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 1, 1] subgroup_size = 32>, target = #nvvm.target<chip = "sm_80">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %h = arith.constant 0.000000e+00 : f16
  %acc0 = arith.constant dense<0.000000e+00> : vector<64x64xf32>
  %r:1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (vector<64x64xf32>) {
    %a = vector.transfer_read %s[%c0, %c0], %h {in_bounds = [true, true]} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<64x64xf16>
`)
	const step = `    %bK = vector.transfer_read %in[%c0, %c0], %h {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
    %dK = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %bK, PREV : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %zK = arith.constant dense<0xFF800000> : vector<64xf32>
    %mK = vector.multi_reduction <maximumf>, %dK, %zK [1] : vector<64x64xf32> to vector<64xf32>
    %tK = vector.broadcast %mK : vector<64xf32> to vector<64x64xf32>
    %uK = vector.transpose %tK, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %eK = arith.subf %dK, %uK : vector<64x64xf32>
    %xK = math.exp2 %eK fastmath<fast> : vector<64x64xf32>
    %yK = arith.mulf %xK, %dK : vector<64x64xf32>
`
	prev := "%acc"
	ops := 8
	for k := 0; ops < n; k++ {
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(step, "PREV", prev), "K", fmt.Sprint(k)))
		prev = fmt.Sprintf("%%y%d", k)
		ops += 9
	}
	fmt.Fprintf(&b, "    scf.yield %s : vector<64x64xf32>\n  }\n", prev)
	b.WriteString("  vector.transfer_write %r#0, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>\n  return\n}\n")
	return b.String()
}

func BenchmarkParse10kOps(b *testing.B) {
	data := []byte(generated(10000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ir.Parse("big.mlir", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadGraph10kOps(b *testing.B) {
	data := []byte(generated(10000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadGraph("big.mlir", data, Options{Targets: mlirtest.Targets}); err != nil {
			b.Fatal(err)
		}
	}
}

// The generated function of the read benchmarks has its 10k ops and
// reads into a graph (its speed, under 200 ms, is BenchmarkReadGraph10kOps's
// to show, not a test's).
func TestTenThousandOpsRead(t *testing.T) {
	data := []byte(generated(10000))
	m, err := ir.Parse("big.mlir", data)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(walkOps(m.Ops)); n < 10000 {
		t.Fatalf("the generated function has %d ops", n)
	}
	g, err := ReadGraph("big.mlir", data, Options{Targets: mlirtest.Targets})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Values) < 5000 {
		t.Fatalf("%d values", len(g.Values))
	}
}
