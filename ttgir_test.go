package planner_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/plans"
)

// convertRE finds the convert_layout ops of TTGIR text (not its comments).
var convertRE = regexp.MustCompile(`(?m)^\s*%[^=/]*=\s*"?(ttg|triton_gpu)\.convert_layout`)

// ttgirKernels are the TTGIR kernels the tests plan and write back.
func ttgirKernels(t *testing.T) []string {
	var files []string
	for _, glob := range []string{"mlir/testdata/ttgir/*.ttgir", "examples/ttgir/*.ttgir"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("%d TTGIR kernels, want at least 3", len(files))
	}
	return files
}

// --format mlir on TTGIR: each kernel written back with its plan (golden
// files under testdata/ttgir_out) reads back to the same cost, has
// one ttg.convert_layout per conversion of the plan besides those
// that only rename a layout for Triton's typing (an mma's result read as
// a #ttg.dot_op in the same registers), keeps to Triton's typing (the
// examples are checked so by TestTTGIRExamples, with the one known
// exception), and written again has as many. The short run reads back and
// writes again 6 kernels spread over the list (golden.Sample), the
// goldens and the rest are checked for every one; PLANNER_LONG_TESTS=1
// reads back every kernel.
func TestWriteTTGIRRoundTrip(t *testing.T) {
	pl := testPlanner(t)
	kernels := ttgirKernels(t)
	again := map[string]bool{}
	for _, path := range golden.Sample(kernels, 6) {
		again[path] = true
	}
	for _, path := range kernels {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first := solveMLIR(t, path, data, planner.Input{})
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, planner.Input{}, first); err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", "ttgir_out", filepath.Base(path)), out.String())
			converts := func(s string) int { return len(convertRE.FindAllString(s, -1)) }
			renamed, err := renamings(path, out.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if got := converts(out.String()) - renamed; got != len(first.Plan.Conv) {
				t.Errorf("%d convert_layouts (and %d renamings) written for a plan of %d conversions", got, renamed, len(first.Plan.Conv))
			}
			if !strings.HasPrefix(path, "examples") { // TestTTGIRExamples checks those
				if bad, err := tritonTyping(path+".planned.ttgir", out.Bytes()); err != nil || len(bad) > 0 {
					t.Errorf("written back, it breaks Triton's typing: %v\n%s", err, strings.Join(bad, "\n"))
				}
			}
			if !again[path] {
				return
			}
			second := solveMLIR(t, path+".planned.ttgir", out.Bytes(), planner.Input{})
			if second.Plan.Cost != first.Plan.Cost {
				t.Errorf("read back, the plan costs %d, first %d", second.Plan.Cost, first.Plan.Cost)
			}
			var again bytes.Buffer
			if err := pl.WriteMLIR(&again, path+".planned.ttgir", out.Bytes(), planner.Input{}, second); err != nil {
				t.Fatal(err)
			}
			if a, b := converts(out.String()), converts(again.String()); a != b {
				t.Errorf("written again, %d ttg.convert_layout ops; first %d", b, a)
			}
		})
	}
}

// --compare input: the input's own layouts priced by the same model cost
// no less than the plan; they convert the values the IR names at most
// once per convert_layout of the input; the JSON plan carries them, with
// their register peak, and follows its schema. The short run compares 8
// kernels spread over the list (golden.Sample), PLANNER_LONG_TESTS=1
// every one.
func TestCompareInput(t *testing.T) {
	pl := testPlanner(t)
	set := compileSchemas(t)
	for _, path := range golden.Sample(ttgirKernels(t), 8) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pl.SolveText(context.Background(), path, data, planner.Options{CompareInput: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Plan == nil {
				t.Fatalf("no plan: %s", res.Why)
			}
			c := res.Plan.Compare
			if c == nil || c.Baseline != plans.BaselineInput || c.NoPlan != "" {
				t.Fatalf("no comparison with the input's layouts: %+v", c)
			}
			if c.BaselineCost < c.Cost {
				t.Errorf("the plan costs %d, more than the input's own layouts, %d", c.Cost, c.BaselineCost)
			}
			if c.BaselineRegisters == nil || *c.BaselineRegisters <= 0 {
				t.Errorf("no register peak of the input's own layouts: %v", c.BaselineRegisters)
			}
			named := 0 // conversions of values the IR names, not of those the reader makes (%x@mem)
			for _, cv := range c.Conversions {
				if !strings.Contains(cv.Value, "@") {
					named++
				}
			}
			if in := len(convertRE.FindAllString(string(data), -1)); named > in {
				t.Errorf("the input's layouts make %d conversions of its values but it has %d convert_layouts", named, in)
			}
			var js bytes.Buffer
			if err := res.Plan.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			if msg := set.Check("plan", js.Bytes()); msg != "" {
				t.Errorf("the plan's JSON breaks schema/plan.schema.json:\n%s", msg)
			}
		})
	}
	// A kernel in the vector dialect states no Triton layouts to price.
	data, err := os.ReadFile("examples/mlir/softmax_row.mlir")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.SolveText(context.Background(), "examples/mlir/softmax_row.mlir", data, planner.Options{CompareInput: true}); err == nil || !strings.Contains(err.Error(), "not TTGIR") {
		t.Errorf("--compare input on the vector dialect: %v, want an error saying it is not TTGIR", err)
	}
}

// sharedAliasRE and wgmmaMemdescRE find, in written TTGIR, the shared
// encodings' alias definitions and the encodings of the memory
// descriptors a ttng.warp_group_dot reads (its types after " : ").
var (
	sharedAliasRE  = regexp.MustCompile(`(?m)^(#\w+) = (#ttg\.\w+)`)
	wgmmaMemdescRE = regexp.MustCompile(`!ttg\.memdesc<[^,]+,\s*(#[\w.]+)`)
)

// Every memory descriptor a ttng.warp_group_dot reads is written in
// #ttg.nvmma_shared, the one shared encoding Triton's verifier takes for
// wgmma's shared-memory operands (triton-lang/triton
// lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp, WarpGroupDotOp::verify: "WGMMA
// B operand must have NVMMA shared layout"), whether the planner chose
// the buffers' placements or kept the kernel's own.
func TestWGMMAOperandsNVMMAShared(t *testing.T) {
	pl := testPlanner(t)
	dots := 0
	for _, path := range ttgirKernels(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("ttng.warp_group_dot")) {
			continue
		}
		for _, in := range []planner.Input{{}, {KeepAnchors: true}} {
			res := solveMLIR(t, path, data, in)
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, in, res); err != nil {
				t.Fatal(err)
			}
			aliases := map[string]string{}
			for _, m := range sharedAliasRE.FindAllStringSubmatch(out.String(), -1) {
				aliases[m[1]] = m[2]
			}
			for i, line := range strings.Split(out.String(), "\n") {
				at := strings.LastIndex(line, " : ")
				if !strings.Contains(line, "ttng.warp_group_dot ") || at < 0 {
					continue
				}
				dots++
				for _, m := range wgmmaMemdescRE.FindAllStringSubmatch(line[at:], -1) {
					enc := m[1]
					if a, ok := aliases[enc]; ok {
						enc = a
					}
					if enc != "#ttg.nvmma_shared" {
						t.Errorf("%s (keep anchors %v), written line %d: warp_group_dot reads a memory descriptor in %s (%s), not #ttg.nvmma_shared", path, in.KeepAnchors, i+1, m[1], enc)
					}
				}
			}
		}
	}
	if dots == 0 {
		t.Fatal("no ttng.warp_group_dot written: the test checks nothing")
	}
}

// mfmaShapeRE finds the instrShape of each #ttg.amd_mfma in TTGIR text.
var mfmaShapeRE = regexp.MustCompile(`#ttg\.amd_mfma<\{[^}]*instrShape = \[([^\]]*)\]`)

// Every #ttg.amd_mfma written states its instruction's (M, N, K): Triton's
// AMD backend lowers a dot by instrShape[2] (convertDot in
// third_party/amd/lib/TritonAMDGPUToLLVM/DotOpToLLVM/MFMA.cpp) and Triton
// 3.9.0 stops on an assertion compiling one that states [M, N] only.
// The short run plans the kernels for an AMD target (ttg.target "hip:"),
// the only ones an #ttg.amd_mfma is written for; PLANNER_LONG_TESTS=1
// every kernel.
func TestMFMAInstrShapeHasK(t *testing.T) {
	pl := testPlanner(t)
	seen := 0
	for _, path := range ttgirKernels(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !golden.LongTests() && !bytes.Contains(data, []byte(`ttg.target = "hip:`)) {
			continue
		}
		for _, in := range []planner.Input{{}, {KeepAnchors: true}} {
			res := solveMLIR(t, path, data, in)
			var out bytes.Buffer
			if err := pl.WriteMLIR(&out, path, data, in, res); err != nil {
				t.Fatal(err)
			}
			for _, m := range mfmaShapeRE.FindAllStringSubmatch(out.String(), -1) {
				seen++
				if n := len(strings.Split(m[1], ",")); n != 3 {
					t.Errorf("%s (keep anchors %v): #ttg.amd_mfma written with instrShape [%s], %d values; Triton reads (M, N, K)", path, in.KeepAnchors, m[1], n)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no #ttg.amd_mfma written: the test checks nothing")
	}
}

// A function planned in a module keeps its signature: the written text
// of testdata/ttgir_signature/device_fn_returns_sm80.ttgir (planned with
// --func scale_rows) has the function's line as read, and its tt.return
// gives the declared result type (TestWrittenKernelProperties and
// TestJudgesTwoFunctionModules check the rest of it, the function not
// planned included).
func TestTTGIRSignatureKept(t *testing.T) {
	path := "testdata/ttgir_signature/device_fn_returns_sm80.ttgir"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in := planner.Input{Func: "scale_rows"}
	res := solveMLIR(t, path, data, in)
	var out bytes.Buffer
	if err := testPlanner(t).WriteMLIR(&out, path, data, in, res); err != nil {
		t.Fatal(err)
	}
	header := regexp.MustCompile(`(?m)^.*tt\.func private @scale_rows.*$`)
	if a, b := header.FindString(string(data)), header.FindString(out.String()); a == "" || a != b {
		t.Errorf("the signature was\n%s\nwritten\n%s", a, b)
	}
	declared := regexp.MustCompile(`-> (tensor<.*>)\s+attributes`).FindStringSubmatch(header.FindString(string(data)))
	ret := regexp.MustCompile(`tt\.return %\w+ : (.*)`).FindStringSubmatch(out.String())
	if declared == nil || ret == nil || ret[1] != declared[1] {
		t.Errorf("tt.return gives %q, the function declares %q", ret, declared)
	}
}
