package vector

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"planner/mlir/mlirtest"
	"slices"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/mlir/reader"
	"planner/model"
)

// The vector-dialect kernels of the repository, each with its generic
// form beside it (NAME.generic.mlir), and the options it is read with;
// nil options: the file is a parser test, not a kernel. A kernel that
// carries IREE's attributes or ops, or is in IREE 3.13's syntax
// (ireeSyntax), is judged by IREE (ireeJudged) and its generic form is
// IREE's (iree-opt's); the others are judged by mlir-opt-19, whose
// generic form is committed.
var kernelFiles = map[string]*reader.Options{
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
	"ir/testdata/syntax.mlir":                       nil,
}

// notIREEJudged are the kernels that carry IREE's attributes but that
// IREE 3.13 cannot judge, and why: mlir-opt-19 judges them, as it does
// the kernels without IREE's attributes.
var notIREEJudged = map[string]string{
	// IREE's to_layout takes a layout of its VectorLayoutInterface
	// (iree-org/iree compiler/src/iree/compiler/Codegen/Dialect/VectorExt/IR/VectorExtOps.td,
	// ToLayoutOp), and IREE refuses an attribute of a dialect it does not
	// register.
	"../testdata/mlir/linear_anchor.mlir": "its anchor's layout is #planner.linear, the planner's own notation, which no dialect of IREE's defines",
	// IREE 3.13's MLIR changed some of them: vector.store's nontemporal
	// is a property there, which the attribute dictionary may not state.
	"ir/testdata/syntax.mlir": "it is the reader's test of LLVM 19's custom forms, and of ops of unregistered dialects (my.unknown)",
}

// ireeSyntax are the kernels without IREE's attributes that are written
// in IREE 3.13's MLIR, which mlir-opt-19 refuses, and what of it: IREE
// judges them, as it does the kernels with IREE's attributes, and
// TestMLIROptPredatesIREESyntax checks that mlir-opt-19 still refuses
// them. Their matrix ops write their properties as keywords, where LLVM
// 19 wrote them in the attribute dictionary (mlir/ir/mma_props.go).
var ireeSyntax = map[string]string{
	"../testdata/mlir/wmma_gemm.mlir":         "gpu.subgroup_mma_load_matrix and _store_matrix write leadDimension 16",
	"../testdata/mlir/ldmatrix_mma_sync.mlir": "nvgpu.ldmatrix writes numTiles = 4 transpose = false, nvgpu.mma.sync mmaShape = [16, 8, 16]",
	"../testdata/mlir/mfma_tile.mlir":         "amdgpu.mfma writes its shape 16x16x16 before its operands",
}

// ireeAttributed says whether a kernel's text carries IREE's attributes
// (#iree_gpu.target, #iree_codegen.translation_info,
// #iree_vector_ext.nested_layout, ...) or ops (iree_vector_ext.to_layout).
func ireeAttributed(text string) bool {
	return strings.Contains(text, "#iree_") || strings.Contains(text, "iree_vector_ext.")
}

// ireeJudged says whether IREE judges a kernel: it carries IREE's
// attributes and notIREEJudged does not name it, or it is in IREE's
// syntax (ireeSyntax).
func ireeJudged(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, excluded := notIREEJudged[path]
	_, syntax := ireeSyntax[path]
	return ireeAttributed(string(data)) && !excluded || syntax
}

// xegpuFiles are the XeGPU kernels of the repository: mlir-opt-19's XeGPU
// dialect predates the layout attributes they carry (#xegpu.layout, and
// seed 003's #xegpu.sg_map) and xegpu.convert_layout, and IREE 3.13 has
// no XeGPU dialect at all, so no generic form of them is committed; they
// are checked by round trip only (TestWriteMLIRRoundTrip), and
// TestMLIROptPredatesXeGPULayouts and TestIREEHasNoXeGPU check that the
// judges still refuse them.
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

// The commands that print a kernel's generic form: IREE's for the kernels
// IREE judges, mlir-opt-19's for the others.
const (
	ireeGenericCmd  = "iree-opt --mlir-print-op-generic"
	mlirGenericCmd  = "mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic"
	ireeGenericNote = "IREE's own\n// generic form of %s (iree-base-compiler's iree-opt, pinned in\n// oracle/requirements.txt), which the tests read beside it (mlir/judge_test.go).\n"
	mlirGenericNote = "MLIR's own\n// generic form of %s, which the tests read beside it (mlir/judge_test.go).\n"
)

// genericHeader is the comment a committed generic form starts with.
func genericHeader(path string, iree bool) string {
	src := filepath.Base(path)
	if iree {
		return fmt.Sprintf("// %s %s: "+ireeGenericNote, ireeGenericCmd, src, src)
	}
	return fmt.Sprintf("// %s %s: "+mlirGenericNote, mlirGenericCmd, src, src)
}

// Every kernel file is listed, and has its generic form beside it,
// printed by its judge.
func TestKernelFilesListed(t *testing.T) {
	for _, glob := range []string{"../examples/mlir/*.mlir", "../testdata/mlir/*.mlir", "ir/testdata/*.mlir"} {
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
			iree := ireeJudged(t, f)
			cmd := mlirGenericCmd
			if iree {
				cmd = ireeGenericCmd
			}
			generic, err := os.ReadFile(genericOf(f))
			if err != nil {
				t.Errorf("%s has no generic form: %s %s > %s (and its header, genericHeader)", f, cmd, f, genericOf(f))
				continue
			}
			if !strings.HasPrefix(string(generic), "// "+cmd+" ") {
				t.Errorf("%s is not %s's generic form of %s (it carries IREE's attributes: %v): %s %s > %s", genericOf(f), strings.Fields(cmd)[0], f, iree, cmd, f, genericOf(f))
			}
		}
	}
	for path := range notIREEJudged {
		if _, ok := kernelFiles[path]; !ok {
			t.Errorf("notIREEJudged names %s, which is not in kernelFiles", path)
		}
	}
	for path := range ireeSyntax {
		if _, ok := kernelFiles[path]; !ok {
			t.Errorf("ireeSyntax names %s, which is not in kernelFiles", path)
		}
	}
}

// judgeGeneric runs a judge on a kernel and checks that it accepts it and
// prints the committed generic form (go test -update rewrites it).
func judgeGeneric(t *testing.T, judge, path string, iree bool, args ...string) {
	t.Helper()
	out, err := exec.Command(judge, append(args, path)...).CombinedOutput()
	if err != nil {
		t.Errorf("%s rejects %s: %v\n%s", filepath.Base(judge), path, err, out)
		return
	}
	committed, err := os.ReadFile(genericOf(path))
	if err == nil && withoutHeader(string(committed)) == string(out) {
		return
	}
	if golden.Update() {
		if err := os.WriteFile(genericOf(path), append([]byte(genericHeader(path, iree)), out...), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not %s's generic form of %s (go test -update rewrites it)", genericOf(path), filepath.Base(judge), path)
}

// MLIR's own parser is the judge of the kernels without IREE's
// attributes (and of those notIREEJudged names): mlir-opt-19 reads each,
// and its generic form of each is the one committed beside it. Skipped
// where mlir-opt-19 is not installed (Debian's mlir-19-tools; .ci/run
// installs it).
func TestMLIROptJudges(t *testing.T) {
	opt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 is not installed (apt-get install mlir-19-tools): the kernels are not checked by MLIR's own parser")
	}
	for path := range kernelFiles {
		if !ireeJudged(t, path) {
			judgeGeneric(t, opt, path, false, "--allow-unregistered-dialect", "--mlir-print-op-generic")
		}
	}
}

// ireeOpt is IREE's iree-opt: on the PATH, or beside the oracle's Python
// (the virtual environment oracle/setup.sh makes, whose iree-base-compiler
// installs it in its bin); "" where there is none.
func ireeOpt() string {
	if p, err := exec.LookPath("iree-opt"); err == nil {
		return p
	}
	if py := os.Getenv("PLANNER_ORACLE_PYTHON"); py != "" {
		p := filepath.Join(filepath.Dir(py), "iree-opt")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// IREE is the judge of the kernels that carry its attributes: iree-opt
// reads each in IREE's context (its dialects registered, unregistered
// dialects refused, the module verified), and its generic form of each is
// the one committed beside it. Skipped where iree-opt is not found.
func TestIREEOptJudges(t *testing.T) {
	opt := ireeOpt()
	if opt == "" {
		t.Skip("iree-opt is not found (on the PATH, or beside $PLANNER_ORACLE_PYTHON: oracle/setup.sh): the kernels with IREE's attributes are not checked by IREE")
	}
	for path := range kernelFiles {
		if ireeJudged(t, path) {
			judgeGeneric(t, opt, path, true, "--mlir-print-op-generic")
		}
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

// mlir-opt-19 refuses the kernels in IREE 3.13's syntax (ireeSyntax): the
// reason IREE judges them. When this fails, mlir-opt-19 reads them, and
// ireeSyntax need not name them.
func TestMLIROptPredatesIREESyntax(t *testing.T) {
	opt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 is not installed")
	}
	for path, why := range ireeSyntax {
		out, err := exec.Command(opt, "--allow-unregistered-dialect", path).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "error:") {
			t.Errorf("mlir-opt-19 reads %s, whose %s: %v\n%s", path, why, err, out)
		}
	}
}

// IREE 3.13 registers no XeGPU dialect (nor XeVM, whose target an XeGPU
// kernel's gpu.module names): iree-opt refuses an XeGPU op as one of an
// unregistered dialect. When this fails, IREE can judge XeGPU kernels.
func TestIREEHasNoXeGPU(t *testing.T) {
	opt := ireeOpt()
	if opt == "" {
		t.Skip("iree-opt is not found")
	}
	cmd := exec.Command(opt, "-")
	cmd.Stdin = strings.NewReader(`"xegpu.fence"() <{fence_op_flush = #xegpu.fence_op_flush<none>, memory_kind = #xegpu.memory_scope<global>}> : () -> ()` + "\n")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unregistered dialect") {
		t.Errorf("iree-opt on an xegpu op: %v\n%s", err, out)
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
		o.Targets, o.Offered = mlirtest.Targets, mlirtest.Offered
		read := func(p string) string {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			g, err := readKernelGraph(p, data, o)
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
