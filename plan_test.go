package planner_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/model"
	"planner/plans"
	"planner/plans/planfile"
)

// named finds the entry of a plan's list with the given name.
func named[T any](t *testing.T, items []T, nameOf func(T) string, name string) T {
	t.Helper()
	for _, it := range items {
		if nameOf(it) == name {
			return it
		}
	}
	t.Fatalf("no %s in the plan", name)
	var zero T
	return zero
}

func opPlan(t *testing.T, p *plans.Plan, name string) plans.OpPlan {
	t.Helper()
	return named(t, p.Ops, func(o plans.OpPlan) string { return o.Name }, name)
}

func valuePlan(t *testing.T, p *plans.Plan, name string) plans.ValuePlan {
	t.Helper()
	return named(t, p.Values, func(v plans.ValuePlan) string { return v.Name }, name)
}

// Seed 004's questions, with 2 warps splitting the rows: everything stays
// in registers, nothing converts between the two mmas, K comes through
// ldmatrix and V through ldmatrix.trans, and each row reduction combines
// the 4 lanes of a quad.
func TestFlashAttention2Warps(t *testing.T) {
	p := solveFile(t, "testdata/graphs/flash_attention_2warps.toml")
	if p.Status != "optimal" {
		t.Fatalf("status %s", p.Status)
	}
	if p.Shared.Scratch != 0 {
		t.Errorf("a conversion uses %d bytes of shared memory", p.Shared.Scratch)
	}
	for _, c := range p.Conv {
		if !c.Free {
			t.Errorf("conversion %%%s -> %s (%s) costs %d", c.Value, c.Consumer, c.Kind, c.Cost)
		}
		switch c.Consumer {
		case "d", "p", "pn", "pf", "acc_new":
			if c.Value == "s" || c.Value == "d" || c.Value == "p" || c.Value == "pn" || c.Value == "pf" {
				t.Errorf("%%%s is converted on its way from the first mma to the second", c.Value)
			}
		}
	}
	if k := opPlan(t, p, "k"); !strings.HasPrefix(k.Intrinsic, "ldmatrix_") || strings.HasSuffix(k.Intrinsic, "_trans") {
		t.Errorf("K is read with %q, want plain ldmatrix", k.Intrinsic)
	}
	if v := opPlan(t, p, "v"); !strings.HasPrefix(v.Intrinsic, "ldmatrix_") || !strings.HasSuffix(v.Intrinsic, "_trans") {
		t.Errorf("V is read with %q, want ldmatrix .trans", v.Intrinsic)
	}
	for _, name := range []string{"m_new", "l_new"} {
		if r := opPlan(t, p, name); r.Lanes != 4 || r.Subgroups != 1 {
			t.Errorf("reduction %s combines %d lanes and %d subgroups, want 4 and 1", name, r.Lanes, r.Subgroups)
		}
	}
	for _, name := range []string{"s", "acc_new"} {
		if o := opPlan(t, p, name); o.WarpsM != 2 || o.WarpsN != 1 || o.Warps != "2×1 warps" {
			t.Errorf("mma %s uses %s, want the rows split (2×1 warps)", name, o.Warps)
		}
	}
}

// With 4 warps over 32 rows the columns of S must split over warps: the
// plan says which values cross warps, by which mechanism, at what cost,
// and why.
func TestFlashAttention4Warps(t *testing.T) {
	p := solveFile(t, "testdata/graphs/flash_attention_4warps.toml")
	if p.Status != "optimal" {
		t.Fatalf("status %s", p.Status)
	}
	var crossing []plans.ConvPlan
	for _, c := range p.Conv {
		if c.Kind == "shared" {
			crossing = append(crossing, c)
		}
	}
	if len(crossing) == 0 {
		t.Fatal("no value crosses warps")
	}
	for _, c := range crossing {
		if c.Cost <= 0 || !strings.Contains(c.Why, "another subgroup") || c.Because == "" {
			t.Errorf("crossing %%%s -> %s lacks its cost or reasons: %+v", c.Value, c.Consumer, c)
		}
	}
	for _, name := range []string{"m_new", "l_new"} {
		if r := opPlan(t, p, name); r.Subgroups != 2 {
			t.Errorf("reduction %s combines %d subgroups, want 2", name, r.Subgroups)
		}
	}
	if s := opPlan(t, p, "s"); len(s.Considered) < 2 {
		t.Errorf("mma s lists %d arrangements considered", len(s.Considered))
	}
}

// Every graph under testdata/graphs solves to a proven optimum and its plan
// matches testdata/plans/<name>.txt, .json and .toml, all three written
// from one solve.
func TestGoldenPlans(t *testing.T) {
	graphs, _ := filepath.Glob("testdata/graphs/*.toml")
	if len(graphs) < 8 {
		t.Fatalf("only %d graphs", len(graphs))
	}
	for _, g := range graphs {
		name := strings.TrimSuffix(filepath.Base(g), ".toml")
		t.Run(name, func(t *testing.T) {
			plan := solveFile(t, g)
			if plan.Status != "optimal" {
				t.Fatalf("not proven optimal: %s", plan.Status)
			}
			for _, format := range []string{"text", "json", "toml"} {
				var out bytes.Buffer
				var err error
				switch format {
				case "text":
					err = plan.WriteText(&out)
				case "json":
					err = plan.WriteJSON(&out)
				case "toml":
					err = planfile.Write(&out, plan)
				}
				if err != nil {
					t.Fatal(err)
				}
				ext := map[string]string{"text": ".txt", "json": ".json", "toml": ".toml"}[format]
				golden.Compare(t, filepath.Join("testdata/plans", name+ext), out.String())
			}
		})
	}
}

// The plan does not depend on how many goroutines price and search it:
// every test graph solved on one CPU and on eight (GOMAXPROCS) prints its
// text golden. The build shares its pricing out over the CPUs, the
// reductions their larger products and the verifier its two replays.
// The short run solves 8 graphs spread over the folder (golden.Sample),
// PLANNER_LONG_TESTS=1 every one.
func TestSamePlanOnAnyCPUs(t *testing.T) {
	graphs, _ := filepath.Glob("testdata/graphs/*.toml")
	if len(graphs) == 0 {
		t.Fatal("no test graphs")
	}
	graphs = golden.Sample(graphs, 8)
	for _, procs := range []int{1, 8} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for _, g := range plansOffTheirGoldens(t, graphs) {
				t.Errorf("%s: on %d CPUs the plan differs from its golden", g, procs)
			}
		})
	}
}

// plansOffTheirGoldens solves each graph in a fresh planner (its caches
// empty) and lists those whose text plan differs from its golden.
func plansOffTheirGoldens(t *testing.T, graphs []string) []string {
	t.Helper()
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	var differ []string
	for _, g := range graphs {
		res, err := pl.SolveFile(context.Background(), g, planner.Options{})
		if err != nil || res.Plan == nil {
			t.Fatalf("%s: %v", g, err)
		}
		var out bytes.Buffer
		if err := res.Plan.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.Join("testdata/plans", strings.TrimSuffix(filepath.Base(g), ".toml")+".txt"))
		if out.String() != string(want) {
			differ = append(differ, g)
		}
	}
	return differ
}

// The same input gives the same plan, byte for byte: every test graph
// solved a second time, in a fresh planner (its caches empty), prints the
// text golden again. (The JSON and TOML writers are functions of the same
// plan; TestGoldenPlans checks them against their goldens.)
//
// The short run solves 12 graphs spread over the folder again
// (golden.Sample; TestGoldenPlans solves every one once), and
// PLANNER_LONG_TESTS=1 every one.
func TestSamePlanTwice(t *testing.T) {
	graphs, _ := filepath.Glob("testdata/graphs/*.toml")
	if len(graphs) == 0 {
		t.Fatal("no test graphs")
	}
	for _, g := range plansOffTheirGoldens(t, golden.Sample(graphs, 12)) {
		t.Errorf("%s: a second solve printed another plan", g)
	}
}

// Seed 003: the DPAS GEMM on pvc keeps the seed's pinned accumulator
// (sg_layout [8, 4], sg_data [32, 64]) and prints it in the xegpu
// notation. The row reduction runs in the layout of the transposed DPAS
// accumulator (each lane a piece of a row in its registers): shuffles
// bring it there for less than a reduction across the 16 lanes costs, so
// each result combines the 4 subgroups of a row of the grid and no lanes.
func TestSeed003DPAS(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed003_dpas_gemm.toml")
	if p.Status != "optimal" {
		t.Fatalf("status %s", p.Status)
	}
	if mma := opPlan(t, p, "d"); mma.Intrinsic != "dpas_m8n16k16_f32_bf16" {
		t.Errorf("mma runs %s", mma.Intrinsic)
	}
	d := valuePlan(t, p, "d")
	if d.Notation != "xegpu" || !strings.Contains(d.Layout, "sg_layout = [8, 4], sg_data = [32, 64]") {
		t.Errorf("accumulator printed as %s %s", d.Notation, d.Layout)
	}
	if r := opPlan(t, p, "row_max"); r.Lanes != 1 || r.Subgroups != 4 {
		t.Errorf("the row reduction combines %d lanes and %d subgroups, want 1 and 4", r.Lanes, r.Subgroups)
	}
}

// bufferPlan finds a buffer's placement in a plan.
func bufferPlan(t *testing.T, p *plans.Plan, name string) plans.BufferPlan {
	t.Helper()
	return named(t, p.Shared.Placed, func(b plans.BufferPlan) string { return b.Name }, name)
}

// Seed 002 with the placement left to the planner: the 128x64 f16 A tile
// written by 16-byte vector copies and read by ldmatrix.x4 gets an XOR
// swizzle or padded rows, and both accesses are conflict free. Dense row
// major would not be: the 8 rows of an ldmatrix phase are 128 bytes apart
// and all start in bank 0.
func TestSeed002LdmatrixConflictFree(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed002_ldmatrix_swizzle.toml")
	as := bufferPlan(t, p, "As")
	if as.Placement == "dense row major" || (!strings.Contains(as.Placement, "swizzle") && !strings.Contains(as.Placement, "padd")) {
		t.Errorf("As is placed %q, want a swizzle or padding", as.Placement)
	}
	if len(as.Accesses) != 2 {
		t.Fatalf("As has %d accesses, want the copy and the load", len(as.Accesses))
	}
	for _, a := range as.Accesses {
		if a.Conflicts != 0 || a.Wavefronts != a.Ideal {
			t.Errorf("%s by %s: %d wavefronts, %d conflicts, want none", a.Access, a.Op, a.Wavefronts, a.Conflicts)
		}
		switch a.Access {
		case "write":
			if !strings.HasPrefix(a.Method, "8-element vectors") {
				t.Errorf("the copy writes %q, want 16-byte (8 x f16) vectors", a.Method)
			}
		case "read":
			if !strings.HasPrefix(a.Method, "ldmatrix_x4") {
				t.Errorf("the load reads %q, want ldmatrix_x4", a.Method)
			}
		}
	}
}

// Seed 002 through WMMA: the same A buffer read by wmma.load gets a
// constant-stride padded placement, no swizzle and no row-dependent pad
// (PTX ISA, "Matrix Storage for WMMA": one base pointer, one stride whose
// bytes are a multiple of 32), with its conflicts stated. By hand, under
// the record's counting (8 rows of 16 bytes per wavefront): dense rows are
// 128 bytes apart, so all 8 rows of a phase start on bank 0 (8
// wavefronts); 160 bytes (80 f16) puts rows 0..7 at 0, 32, 64, 96, 0, 32,
// 64, 96 modulo 128: 2 wavefronts a phase, the fewest a 32-byte multiple
// allows (192 gives 4, 224 gives 2 with more bytes). A warp's 16 loads of
// four phases each: 128 wavefronts against 64.
func TestSeed002WMMAConstantStride(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed002_wmma_gemm.toml")
	as := bufferPlan(t, p, "As")
	if as.Placement != "rows padded to 80 elements" || strings.Contains(as.Formula, "^") {
		t.Errorf("As is placed %q (%s), want rows padded to 80 elements and no swizzle", as.Placement, as.Formula)
	}
	var read bool
	for _, a := range as.Accesses {
		if a.Access != "read" {
			continue
		}
		read = true
		if !strings.HasPrefix(a.Method, "wmma_load_a_m16n16k16_f16 × 16") || a.Wavefronts != 128 || a.Ideal != 64 || a.Conflicts != 64 {
			t.Errorf("As read by %s: %q, %d wavefronts (%d ideal, %d conflicts), want wmma_load_a × 16, 128 (64, 64)", a.Op, a.Method, a.Wavefronts, a.Ideal, a.Conflicts)
		}
	}
	if !read {
		t.Errorf("As has no read in the plan: %+v", as.Accesses)
	}
	for _, v := range []string{"a", "b", "acc"} {
		if got := named(t, p.Values, func(v plans.ValuePlan) string { return v.Name }, v); got.Notation != "fragment" || !strings.Contains(got.Layout, "unspecified") {
			t.Errorf("%%%s is %s %q, want an opaque WMMA fragment", v, got.Notation, got.Layout)
		}
	}
}

// Every subgroup's accesses are counted, not subgroup 0's alone: with
// A's rows 72 elements apart plus 4 every 8 rows, rows 8..15 (and every
// other block of 8) start 8 bytes off a 16-byte boundary, so the copy
// that writes them cannot use 16-byte vectors even if subgroup 0 writes
// only aligned rows; the plan says 4-element (8-byte) vectors.
func TestPlacementCountsEverySubgroup(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed001_fixed_placement.toml")
	as := bufferPlan(t, p, "As")
	written := false
	for _, a := range as.Accesses {
		if a.Access != "write" {
			continue
		}
		written = true
		if !strings.HasPrefix(a.Method, "4-element vectors") {
			t.Errorf("As written with %q, want 4-element vectors: 16-byte vectors misalign in rows 8..15", a.Method)
		}
	}
	if !written {
		t.Errorf("As has no write in the plan: %+v", as.Accesses)
	}
}

// Seed 001's LDS: A and B get placements with their conflicts counted,
// inside gfx942's 64 KiB. The MFMA's A operand at kWidth 8 is read in
// 16-byte rows, which a 128-byte swizzle serves without conflicts in no
// more bytes than the dense buffer, so a budget of exactly the dense
// buffers costs nothing more (at the record's own kWidth 4 the 8-byte
// reads wanted padded rows, which that budget left out).
func TestSeed001LDSPlacements(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed001_mfma_gemm.toml")
	if p.Shared.Buffers > 65536 || p.Shared.Budget != 65536 {
		t.Errorf("buffers take %d bytes of a %d-byte budget, want at most 64 KiB", p.Shared.Buffers, p.Shared.Budget)
	}
	for _, name := range []string{"As", "Bs"} {
		b := bufferPlan(t, p, name)
		if len(b.Accesses) != 2 || b.Formula == "" {
			t.Errorf("%s: %d accesses, formula %q", name, len(b.Accesses), b.Formula)
		}
		for _, a := range b.Accesses {
			if a.Conflicts != 0 {
				t.Errorf("%s %s by %s: %d wavefronts of conflicts with 64 KiB to spare", name, a.Access, a.Op, a.Conflicts)
			}
		}
	}
	if as := bufferPlan(t, p, "As"); !strings.Contains(as.Placement, "swizzle") {
		t.Errorf("As is placed %q, want a swizzle (the kWidth-8 MFMA A reads are 16-byte rows)", as.Placement)
	}
	tight := solveFile(t, "testdata/graphs/seed001_tight_budget.toml")
	if tight.Status != "optimal" || tight.Shared.Buffers > 49152 {
		t.Fatalf("tight budget: %s, %d bytes of buffers", tight.Status, tight.Shared.Buffers)
	}
	conflicts := 0
	for _, b := range tight.Shared.Placed {
		for _, a := range b.Accesses {
			conflicts += a.Conflicts
		}
	}
	if conflicts != 0 || tight.Cost != p.Cost {
		t.Errorf("tight budget: %d wavefronts of conflicts, cost %d vs %d with room: want the same conflict-free plan", conflicts, tight.Cost, p.Cost)
	}
	// With the MFMA stated to run on its own fragments (k_width = 4,
	// transposed = false, as IREE's MFMA_F32_32x32x8_F16 layout fixes
	// them), the 8-byte A reads want padded rows; with a budget of exactly
	// the dense buffers the padding no longer fits, and the plan keeps the
	// cheapest placements that do and pays for their conflicts.
	own := func(path string, tight bool) *plans.Plan {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := golden.ReplaceOnce(t, string(src), "  result = \"acc_next\"\n", "  result = \"acc_next\"\n  k_width = 4\n  transposed = false\n")
		if !tight {
			text = golden.ReplaceOnce(t, text, "shared_memory = 49152\n", "")
		}
		out := filepath.Join(t.TempDir(), filepath.Base(path))
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return solveFile(t, out)
	}
	roomy, tightOwn := own("testdata/graphs/seed001_tight_budget.toml", false), own("testdata/graphs/seed001_tight_budget.toml", true)
	if as := bufferPlan(t, roomy, "As"); !strings.Contains(as.Placement, "padded") {
		t.Errorf("own fragments: As is placed %q, want padded rows (the MFMA A reads are 8-byte columns of rows)", as.Placement)
	}
	conflicts = 0
	for _, b := range tightOwn.Shared.Placed {
		for _, a := range b.Accesses {
			conflicts += a.Conflicts
		}
	}
	// Without the padding, the plan pays for the A reads: in bank
	// conflicts, or in a conflict-free read into another layout (the
	// 16-block MFMA 4x4x4's fragments read As without conflicts) and a
	// conversion to the MFMA's.
	if roomy.Cost != 52864 || conflicts == 0 && len(tightOwn.Conv) == 0 || tightOwn.Cost <= roomy.Cost {
		t.Errorf("own fragments: %d wavefronts of conflicts, %d conversions, cost %d vs %d with room (want 52864): want the conflicts or a conversion paid for", conflicts, len(tightOwn.Conv), tightOwn.Cost, roomy.Cost)
	}
}

// swapLaneDigits is l with the images of its first two lane digits
// exchanged: lanes 1 and 2 (and so on) trade what they hold.
func swapLaneDigits(t *testing.T, l *model.Layout) *model.Layout {
	t.Helper()
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	for h := range model.NumHwDims {
		hw[h] = l.Radices(model.HwDim(h))
		for p := range hw[h] {
			images[h] = append(images[h], l.Image(model.HwDim(h), p))
		}
	}
	lane := images[model.Lane]
	lane[0], lane[1] = lane[1], lane[0]
	var dims []model.Radices
	for d := range l.Rank() {
		dims = append(dims, l.DimRadices(d))
	}
	out, err := model.NewLayout(hw, dims, images)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every plan the library returns is verified (Solve runs the verifier); a plan with one element moved to the wrong lane fails, and
// the error names the element, the lane and the register.
func TestVerifyCatchesAMovedElement(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/pinned_mma_operand.toml")
	g, a := res.Problem.Graph, res.Assignment
	if err := plans.Verify(g, a, plan); err != nil {
		t.Fatalf("the plan as solved: %v", err)
	}
	var mma *model.Op
	g.Walk(func(op *model.Op) {
		if op.Name == "d" {
			mma = op
		}
	})
	use := model.Use{Op: mma, Index: 1}
	a.Required[use] = swapLaneDigits(t, a.Required[use]) // what mma %d is handed
	err := plans.Verify(g, a, plan)
	var ve *plans.VerifyError
	if !errors.As(err, &ve) || ve.Value != "b" || ve.Element == nil || ve.Point == nil || !strings.Contains(ve.Error(), "operand b") {
		t.Fatalf("a moved element verified, or the error does not name it: %v", err)
	}
	t.Log(err)
}

// A placement the graph states as an explicit XOR swizzle is kept, like a
// stated pad or swizzle mode, and is a fact the graph may mark hard.
func TestStatedXORPlacementIsKept(t *testing.T) {
	p := solveFile(t, "testdata/graphs/seed002_stated_xor.toml")
	for _, b := range p.Shared.Placed {
		if b.Name == "As" && b.Placement != "swizzle xor(bits 2, base 4, shift 7)" {
			t.Errorf("buffer As is placed as %q, not as the graph states", b.Placement)
		}
	}
}

// A store runs in the layout the graph states for it: the plan's execution
// layout for the store is exactly the stated one.
func TestStoreRunsInItsStatedLayout(t *testing.T) {
	plan, res := solveResult(t, "testdata/graphs/store_stated_layout.toml")
	g, a := res.Problem.Graph, res.Assignment
	var store *model.Op
	g.Walk(func(op *model.Op) {
		if op.Layout != nil {
			store = op
		}
	})
	if store == nil {
		t.Fatal("no op states its layout")
	}
	if got := a.Ops[store].Exec; got == nil || store.Layout.Layout == nil || !got.Equal(store.Layout.Layout) {
		t.Errorf("%s runs in %v, not the stated %v", store.Name, got, store.Layout.Layout)
	}
	// The verifier checks it: the same plan with the store running in %x's
	// layout (another one) is refused.
	x := a.Layouts[g.Value("x")]
	if x.Equal(store.Layout.Layout) {
		t.Fatal("the test needs x in another layout than the store's")
	}
	a.Ops[store].Exec = x
	if err := plans.Verify(g, a, plan); err == nil || !strings.Contains(err.Error(), "does not run in the layout the graph states") {
		t.Errorf("a store out of its stated layout verified: %v", err)
	}
}
