package mlir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/model"
)

// The vector-dialect kernels of the repository, each with its generic
// form beside it (NAME.generic.mlir, mlir-opt-19's), and the options it
// is read with; nil options: the file is a parser test, not a kernel.
var kernelFiles = map[string]*Options{
	"../examples/mlir/flash_attention_seed004.mlir": {},
	"../examples/mlir/softmax_row.mlir":             {},
	"../examples/mlir/layernorm_row.mlir":           {},
	"../examples/mlir/mfma_gemm_seed001.mlir":       {},
	"../examples/mlir/nested_anchor_seed000.mlir":   {},
	"../testdata/mlir/dynamic_loop.mlir":            {Func: "row_sum", Target: "gfx942", Trips: 16},
	"../testdata/mlir/pin_wide_lanes.mlir":          {Target: "sm_80"},
	"../testdata/mlir/linear_anchor.mlir":           {},
	"../testdata/mlir/scalar_sum.mlir":              {},
	"../testdata/mlir/wmma_gemm.mlir":               {},
	"../testdata/mlir/ldmatrix_mma_sync.mlir":       {},
	"../testdata/mlir/mfma_tile.mlir":               {},
	"testdata/syntax.mlir":                          nil,
}

// xegpuFiles are the XeGPU kernels of the repository: mlir-opt-19's XeGPU
// dialect predates the layout attributes they carry (#xegpu.layout, and
// seed 003's #xegpu.sg_map) and xegpu.convert_layout, so no generic form
// of them is committed; they are checked by round trip only
// (TestWriteMLIRRoundTrip), and TestMLIROptPredatesXeGPULayouts checks
// that mlir-opt-19 still refuses them.
var xegpuFiles = []string{"../examples/mlir/dpas_gemm_seed003.mlir", "../testdata/mlir/xegpu_k_loop.mlir"}

// genericOf is the file holding a kernel's generic form.
func genericOf(path string) string { return strings.TrimSuffix(path, ".mlir") + ".generic.mlir" }

// withoutHeader drops the comment lines a committed generic form starts
// with (which say where it comes from).
func withoutHeader(text string) string {
	for strings.HasPrefix(text, "//") {
		_, text, _ = strings.Cut(text, "\n")
	}
	return text
}

// Every kernel file is listed, and has its generic form beside it.
func TestKernelFilesListed(t *testing.T) {
	for _, glob := range []string{"../examples/mlir/*.mlir", "../testdata/mlir/*.mlir", "testdata/*.mlir"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			if strings.HasSuffix(f, ".generic.mlir") {
				if _, ok := kernelFiles[strings.TrimSuffix(f, ".generic.mlir")+".mlir"]; !ok {
					t.Errorf("%s is the generic form of no listed kernel", f)
				}
				continue
			}
			if slices.Contains(xegpuFiles, f) {
				continue
			}
			if _, ok := kernelFiles[f]; !ok {
				t.Errorf("%s is not in kernelFiles: list it, and commit its generic form beside it", f)
			}
			if _, err := os.Stat(genericOf(f)); err != nil {
				t.Errorf("%s has no generic form: mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic %s > %s", f, f, genericOf(f))
			}
		}
	}
}

// MLIR's own parser is the judge: mlir-opt-19 reads every kernel file of
// the repository, and its generic form of each is the one committed
// beside it (go test -update rewrites them). Skipped where mlir-opt-19 is
// not installed (Debian's mlir-19-tools; .ci/run installs it).
func TestMLIROptJudges(t *testing.T) {
	opt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 is not installed (apt-get install mlir-19-tools): the kernels are not checked by MLIR's own parser")
	}
	for path := range kernelFiles {
		out, err := exec.Command(opt, "--allow-unregistered-dialect", "--mlir-print-op-generic", path).CombinedOutput()
		if err != nil {
			t.Errorf("mlir-opt-19 rejects %s: %v\n%s", path, err, out)
			continue
		}
		committed, err := os.ReadFile(genericOf(path))
		if err == nil && withoutHeader(string(committed)) == string(out) {
			continue
		}
		if golden.Update() {
			src := filepath.Base(path)
			header := fmt.Sprintf("// mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic %s: MLIR's own\n// generic form of %s, which the tests read beside it (mlir/judge_test.go).\n", src, src)
			if err := os.WriteFile(genericOf(path), append([]byte(header), out...), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is not mlir-opt-19's generic form of %s (go test -update rewrites it)", genericOf(path), path)
	}
}

// mlir-opt-19 refuses the XeGPU kernels (its XeGPU dialect has no
// layout attributes): the reason they have no generic form. When this
// fails, a newer mlir-opt judges them, and they belong in kernelFiles.
func TestMLIROptPredatesXeGPULayouts(t *testing.T) {
	opt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 is not installed")
	}
	for _, path := range xegpuFiles {
		out, err := exec.Command(opt, "--allow-unregistered-dialect", path).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "unknown attribute `sg_map` in dialect `xegpu`") && !strings.Contains(string(out), "unknown attribute `layout` in dialect `xegpu`") {
			t.Errorf("mlir-opt-19 on %s: %v\n%s", path, err, out)
		}
	}
}

// canonical writes a graph without its names and positions: values by
// the order they are defined in, every op's kind, keys, operands and
// result, loops with their carried values, buffers, pins, target and
// subgroups, so that two spellings of one kernel compare equal.
func canonical(g *model.Graph) string {
	ids := map[*model.Value]int{}
	for i, v := range g.Values {
		ids[v] = i
	}
	bufs := map[*model.Buffer]int{}
	var b strings.Builder
	fmt.Fprintf(&b, "target %s, %d subgroups, notation %s\n", g.Target, g.Subgroups, g.Notation)
	for i, buf := range g.Buffers {
		bufs[buf] = i
		fmt.Fprintf(&b, "buffer %d %v %s %+v\n", i, buf.Shape, buf.DType.Name, buf.Layout)
	}
	val := func(v *model.Value) string {
		s := fmt.Sprintf("v%d %v %s", ids[v], v.Shape, v.DType.Name)
		if p := v.Pin; p != nil {
			s += fmt.Sprintf(" pinned(%s %v %q)", p.Notation.Kind(), p.Layout, p.Unrealisable)
		}
		return s
	}
	list := func(vs []*model.Value) string {
		var parts []string
		for _, v := range vs {
			parts = append(parts, val(v))
		}
		return "[" + strings.Join(parts, "; ") + "]"
	}
	var walk func(ops []*model.Op, indent string)
	walk = func(ops []*model.Op, indent string) {
		for _, op := range ops {
			fmt.Fprintf(&b, "%s%s %s %s axis=%d perm=%v dims=%v contiguous=%d", indent, op.Kind, op.Fn, list(op.Operands), op.Axis, op.Perm, op.Dims, op.Contiguous)
			if op.Buffer != nil {
				fmt.Fprintf(&b, " buffer=%d", bufs[op.Buffer])
			}
			if op.Intrinsic != "" {
				fmt.Fprintf(&b, " intrinsic=%s", op.Intrinsic)
			}
			if op.Result != nil {
				fmt.Fprintf(&b, " -> %s", val(op.Result))
			}
			if l := op.Body; l != nil {
				fmt.Fprintf(&b, " trips=%d dynamic=%v args=%s inits=%s yields=%s results=%s\n", l.Trips, l.Dynamic, list(l.Args), list(l.Inits), list(l.Yields), list(l.Results))
				walk(l.Ops, indent+"  ")
				continue
			}
			b.WriteString("\n")
		}
	}
	walk(g.Ops, "")
	return b.String()
}

// Both forms of every kernel read to the same graph: the custom forms'
// parsers are checked against a parser nobody here wrote.
func TestGenericForms(t *testing.T) {
	for path, opt := range kernelFiles {
		if opt == nil {
			continue
		}
		o := *opt
		o.Targets, o.Offered = testTargets, testOffered
		read := func(p string) string {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			g, err := ReadGraph(p, data, o)
			if err != nil {
				t.Fatalf("%v", err)
			}
			return canonical(g)
		}
		custom, generic := read(path), read(genericOf(path))
		if custom != generic {
			t.Errorf("%s and its generic form read to different graphs:\n%s\n---\n%s", path, custom, generic)
		}
		if !strings.Contains(custom, "\n") || strings.Count(custom, "\n") < 3 {
			t.Errorf("%s reads to a near-empty graph:\n%s", path, custom)
		}
	}
}
