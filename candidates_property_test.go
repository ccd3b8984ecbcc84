package planner_test

import (
	"context"

	"path/filepath"
	"slices"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/model"
	"planner/notation"
	"planner/solver"
)

// TestNoPinBeatsTheOptimum holds the optimum to its promise: pinning any
// unpinned value of a graph to a layout from a set wider than the
// solver's candidates never gives a cheaper plan than the graph's own
// proven optimum. The layouts tried for a value are every blocked layout
// of its shape over the graph's subgroups (notation.Blocked: every split
// of the lanes and subgroups over the dimensions, every power-of-two
// size per thread, every order), every layout the input names (its pins,
// the layouts stated for stores and copies, and a TTGIR kernel's
// encodings), and the layouts the optimum gives the other values of the
// same shape. A pinned plan cheaper than the optimum is a layout the
// candidates missed.
//
// The short run takes select_constant_mask.toml (a free i1 mask, the case
// that failed) whole and a few graphs and kernels spread over the rest,
// with a sample of the layouts of each value; PLANNER_LONG_TESTS=1 takes
// every graph and example and more of each value's layouts (every named
// and same-shape layout, and blocked layouts spread over the whole
// enumeration).
func TestNoPinBeatsTheOptimum(t *testing.T) {
	var files []string
	for _, glob := range []string{"testdata/graphs/*.toml", "testdata/want/*.toml", "examples/graphs/*.toml",
		"examples/mlir/*.mlir", "examples/ttgir/*.ttgir", "testdata/mlir/*.mlir"} {
		fs, _ := filepath.Glob(glob)
		files = append(files, fs...)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return filepath.Ext(filepath.Base(f[:len(f)-len(filepath.Ext(f))])) == ".generic" })
	always := "testdata/want/select_constant_mask.toml"
	picked := golden.Sample(slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == always }), 4)
	picked = append([]string{always}, picked...)
	pl := testPlanner(t)
	for _, f := range picked {
		t.Run(filepath.Base(f), func(t *testing.T) {
			perValue := golden.Count(6, 48)
			if f == always {
				perValue = 1 << 20
			}
			noPinBeatsTheOptimum(t, pl, f, perValue)
		})
	}
}

// noPinBeatsTheOptimum solves the graph at path, then each unpinned
// value pinned to each of (at most perValue of) its wider layouts.
func noPinBeatsTheOptimum(t *testing.T, pl *planner.Planner, path string, perValue int) {
	ctx := context.Background()
	g, err := pl.ReadGraph(path)
	if err != nil {
		t.Skipf("not read: %v", err)
	}
	tgt, _, err := pl.Target(g)
	if err != nil {
		t.Fatal(err)
	}
	best, err := pl.Search(ctx, g, planner.Options{})
	if err != nil || best.Status != solver.StatusOptimal || best.Assignment == nil {
		t.Skipf("no proven optimum to hold the pins to (%v)", err)
	}
	named := namedLayouts(t, pl, path, g)
	for _, v := range g.Values {
		if v.Pin != nil || len(v.Shape) == 0 {
			continue
		}
		tried := widerLayouts(v, g, tgt, named, best.Assignment, perValue)
		for _, l := range tried {
			if l.Equal(best.Assignment.Layouts[v]) {
				continue
			}
			v.Pin = &model.Pin{Layout: l, Notation: linearOf(t, l), Pos: v.Pos}
			res, err := pl.Search(ctx, g, planner.Options{})
			v.Pin = nil
			if err != nil {
				t.Fatalf("%%%s pinned to %s: %v", v.Name, l, err)
			}
			if res.Assignment != nil && res.Cost < best.Cost {
				t.Errorf("%%%s pinned to %s: a plan of cost %d, but the optimum was proven at %d", v.Name, linearOf(t, l).Attr(), res.Cost, best.Cost)
			}
		}
	}
}

// linearOf writes a layout in Triton's linear notation, which writes
// every layout.
func linearOf(t *testing.T, l *model.Layout) model.Notation {
	n, err := notation.Express("linear", l)
	if err != nil {
		t.Fatalf("no linear notation of %s: %v", l, err)
	}
	return n
}

// namedLayouts are the layouts the input names: its pins, the layouts
// stated for its ops, and for a TTGIR kernel every tensor's encoding (the
// kernel read with its input layouts pinned).
func namedLayouts(t *testing.T, pl *planner.Planner, path string, g *model.Graph) []*model.Layout {
	var out []*model.Layout
	add := func(gr *model.Graph) {
		for _, v := range gr.Values {
			if v.Pin != nil && v.Pin.Layout != nil {
				out = append(out, v.Pin.Layout)
			}
		}
		gr.Walk(func(op *model.Op) {
			if op.Layout != nil && op.Layout.Layout != nil {
				out = append(out, op.Layout.Layout)
			}
		})
	}
	add(g)
	if filepath.Ext(path) == ".ttgir" {
		if in, err := pl.ReadGraphInput(path, planner.Input{InputLayouts: true}); err == nil {
			add(in)
		}
	}
	return out
}

// widerLayouts are the layouts v is pinned to: the named layouts and the
// optimum's layouts of values of v's shape first, then v's blocked
// layouts, at most n in all (spread over the list).
func widerLayouts(v *model.Value, g *model.Graph, tgt *model.Target, named []*model.Layout, a *model.Assignment, n int) []*model.Layout {
	var out []*model.Layout
	add := func(l *model.Layout) {
		if l != nil && slices.Equal(l.Shape(), v.Shape) && !slices.ContainsFunc(out, l.Equal) && !l.InShared() && l.Opaque() == "" {
			out = append(out, l)
		}
	}
	for _, l := range named {
		add(l)
	}
	for _, w := range g.Values {
		add(a.Layouts[w])
	}
	first := len(out)
	for _, l := range blockedLayouts(v.Shape, tgt.SubgroupSize, g.Subgroups) {
		add(l)
	}
	if len(out) <= n {
		return out
	}
	return append(out[:min(first, n)], golden.Sample(out[first:], max(n-first, 2))...)
}

// blockedLayouts is every Triton blocked layout of shape over warps
// subgroups of lanes lanes: the lanes and the warps split over the
// dimensions in every way, every power-of-two size per thread up to each
// extent, and every order of the dimensions.
func blockedLayouts(shape []int, lanes, warps int) []*model.Layout {
	r := len(shape)
	f := model.Frame{Shape: shape, SubgroupSize: lanes, Subgroups: warps}
	var out []*model.Layout
	seen := map[string]bool{}
	for _, spt := range powerSplits(shape) {
		for _, tpw := range productSplits(lanes, r) {
			for _, wpc := range productSplits(warps, r) {
				for _, order := range permutations(r) {
					b := &notation.Blocked{SizePerThread: spt, ThreadsPerWarp: tpw, WarpsPerCTA: wpc, Order: order}
					l, err := b.Layout(f)
					if err != nil || seen[l.Key()] {
						continue
					}
					seen[l.Key()] = true
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// powerSplits lists every size per thread: a power of two up to each
// extent along each dimension.
func powerSplits(shape []int) [][]int {
	out := [][]int{{}}
	for _, s := range shape {
		var next [][]int
		for _, p := range out {
			for v := 1; v <= s; v *= 2 {
				next = append(next, append(slices.Clone(p), v))
			}
		}
		out = next
	}
	return out
}

// productSplits lists the ways to write n (a power of two) as a product
// of r powers of two, in order.
func productSplits(n, r int) [][]int {
	if r == 1 {
		return [][]int{{n}}
	}
	var out [][]int
	for v := 1; v <= n; v *= 2 {
		for _, rest := range productSplits(n/v, r-1) {
			out = append(out, append([]int{v}, rest...))
		}
	}
	return out
}

// permutations lists the orders of r dimensions.
func permutations(r int) [][]int {
	if r == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(r - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, r-1)
			out = append(out, q)
		}
	}
	return out
}
