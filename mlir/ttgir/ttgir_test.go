package ttgir

import (
	"maps"
	"os"
	"path/filepath"
	"planner/mlir/mlirtest"
	"regexp"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// ttTargets are ttTestTargets with sm_90, sm_100 and sm_120, which TTGIR
// kernels name.
var ttTargets = func() map[string]*model.Target {
	t := maps.Clone(mlirtest.Targets)
	t["sm_90"] = &model.Target{Name: "sm_90", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 232448}
	t["sm_100"] = &model.Target{Name: "sm_100", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 232448, ScaledDot: model.ScaledDotDecompose,
		ScaledDotWhy: "sm_100 runs a block-scaled product on tcgen05.mma ... block_scale alone, its scales and accumulator in tensor memory, which the planner does not plan (its mma.sync has no block_scale)"}
	t["sm_120"] = &model.Target{Name: "sm_120", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 101376}
	t["gfx950"] = &model.Target{Name: "gfx950", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 163840}
	return t
}()

// TestTTGIRGraphs reads each kernel of testdata/ttgir three ways (the
// planner free to choose; --keep-anchors; the input's own layouts) and
// compares the graphs' signatures with NAME.graph.
func TestTTGIRGraphs(t *testing.T) {
	files, _ := filepath.Glob("testdata/ttgir/*.ttgir")
	if len(files) < 3 {
		t.Fatalf("%d kernels in testdata/ttgir, want at least 3", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ir.Parse(path, data)
			if err != nil {
				t.Fatal(err)
			}
			if !Is(m) {
				t.Fatalf("%s is not recognised as TTGIR", path)
			}
			var out strings.Builder
			for _, mode := range []struct {
				name string
				opt  reader.Options
			}{
				{"chosen by the planner", reader.Options{}},
				{"--keep-anchors", reader.Options{KeepAnchors: true}},
				{"the input's layouts", reader.Options{InputLayouts: true}},
			} {
				mode.opt.Targets = ttTargets
				g, err := readKernelGraph(path, data, mode.opt)
				if err != nil {
					t.Fatalf("%s: %v", mode.name, err)
				}
				if g.Notation != "triton" {
					t.Errorf("%s: notation %q, want triton", mode.name, g.Notation)
				}
				out.WriteString("// " + mode.name + "\n" + mlirtest.Signature(g))
				for _, v := range g.Values {
					if v.Pin != nil {
						out.WriteString("  %" + v.Name + " pinned to " + v.Pin.Notation.Attr() + "\n")
					}
				}
				g.Walk(func(op *model.Op) {
					if op.Layout != nil {
						out.WriteString("  " + op.Name + " runs in " + op.Layout.Notation.Attr() + "\n")
					}
				})
			}
			golden.Compare(t, strings.TrimSuffix(path, ".ttgir")+".graph", out.String())
		})
	}
}

// TestBadTTGIRFiles reads every file of testdata/bad/ttgir: each must
// fail with exactly the errors its // want comments name, and the text of
// them all must match testdata/bad/ttgir.golden.
func TestBadTTGIRFiles(t *testing.T) {
	bad := golden.Catalogue{Glob: "../testdata/bad/ttgir/*.ttgir", Least: 15, Comment: "//", Golden: "../testdata/bad/ttgir.golden"}
	bad.Run(t, func(t *testing.T, name string, data []byte) error {
		_, err := readKernelGraph(name, data, reader.Options{Targets: ttTargets, KeepAnchors: true, Offered: mlirtest.Offered})
		return mlirtest.Positioned(t, name, err)
	})
}

// TestTTGIROlderSpelling reads a kernel of testdata/ttgir in the older
// triton_gpu. spelling of the TritonGPU dialect: the same graph as in the
// ttg. spelling, and written back (with its own layouts) the same kernel,
// spelled ttg. throughout.
func TestTTGIROlderSpelling(t *testing.T) {
	path := "testdata/ttgir/transpose_shared_sm90.ttgir"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	older := regexp.MustCompile(`(^|[^A-Za-z0-9_.])ttg\.`).ReplaceAllString(string(data), "${1}triton_gpu.")
	if !strings.Contains(older, "triton_gpu.local_alloc") || !strings.Contains(older, "#triton_gpu.blocked") {
		t.Fatalf("%s: no ttg. spelling to make older", path)
	}
	opt := reader.Options{Targets: ttTargets, InputLayouts: true}
	code := func(s string) string { // the lines that are not comments
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "//") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	var sigs, written [2]string
	for i, text := range []string{string(data), older} {
		g, err := readKernelGraph(path, []byte(text), opt)
		if err != nil {
			t.Fatalf("spelling %d: %v", i, err)
		}
		sigs[i] = strings.ReplaceAll(mlirtest.Signature(g), "triton_gpu.", "ttg.")
		a := &model.Assignment{Layouts: map[*model.Value]*model.Layout{}, Buffers: map[*model.Buffer]*model.SharedLayout{}}
		for _, v := range g.Values {
			if v.Pin != nil {
				a.Layouts[v] = v.Pin.Layout
			}
		}
		for _, b := range g.Buffers {
			a.Buffers[b] = b.Layout
		}
		var out strings.Builder
		if err := writeAssigned(&out, path, []byte(text), opt, g, a); err != nil {
			t.Fatalf("spelling %d: %v", i, err)
		}
		written[i] = code(out.String())
	}
	if sigs[0] != sigs[1] {
		t.Errorf("the older spelling reads as another graph:\n%s", golden.Diff(sigs[0], sigs[1]))
	}
	if strings.Contains(written[1], "triton_gpu.") {
		t.Errorf("written back, the older spelling stays:\n%s", written[1])
	}
	if written[0] != written[1] {
		t.Errorf("the older spelling is written back otherwise:\n%s", golden.Diff(written[0], written[1]))
	}
}
