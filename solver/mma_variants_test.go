package solver

import (
	"testing"

	"planner/intrinsics"
	"planner/model"
	"planner/notation"
)

// Which variants each mma of the test graphs is offered, by the rules of
// mma_variants.go: the transposed accumulator only for records whose own
// accumulator holds consecutive rows per lane (MFMA, DPAS: yes; mma.sync:
// no), kWidths own × 2^j that K holds and that stay within 16 bytes, FMA
// dots only with an fma record of the dot's element types; and the graphs
// written for each variant are offered it.
func TestVariantOffers(t *testing.T) {
	want := map[string]struct{ transposed, kWidth, fma bool }{
		"mfma_transposed_chain": {true, true, false},
		"mma_dot_op_kwidth8":    {false, true, false},
		"fma_dot_f32":           {false, false, true},
		"back_to_back_gemm":     {false, true, false},
		"seed003_dpas_gemm":     {true, false, false},
	}
	for _, c := range testGraphs(t) {
		p, err := Build(c.graph, c.target, c.records)
		if err != nil {
			t.Fatal(err)
		}
		seen := struct{ transposed, kWidth, fma bool }{}
		for _, n := range p.Nodes {
			if n.Kind != NodeMMA {
				continue
			}
			a, b := n.Op.Operands[0], n.Op.Operands[1]
			for _, ch := range n.MMA {
				r := ch.Record
				switch {
				case r == nil:
				case r.Kind == model.RecordFMA:
					seen.fma = true
					if r.Operands["a"].DType.Name != a.DType.Name || r.Operands["b"].DType.Name != b.DType.Name {
						t.Errorf("%s: %s offered for %s by %s", c.name, ch, a.DType.Name, b.DType.Name)
					}
				default:
					if ch.Transposed {
						seen.transposed = true
						if !runsAlongM(r.Operands["c"].Layout) {
							t.Errorf("%s: %s is offered, but the record's accumulator runs along N", c.name, ch)
						}
					}
					if ch.KWidth > 0 {
						seen.kWidth = true
						own := r.OwnKWidth()
						f := ch.KWidth / own
						if ch.KWidth%own != 0 || f < 2 || f&(f-1) != 0 || ch.KWidth*a.DType.Bits > 128 || a.Shape[1]%(r.K*f) != 0 {
							t.Errorf("%s: %s: kWidth %d (own %d) for K = %d of %s", c.name, ch, ch.KWidth, own, a.Shape[1], a.DType.Name)
						}
					}
				}
			}
		}
		if w, ok := want[c.name]; ok && seen != w {
			t.Errorf("%s: offered transposed %v, kWidth %v, FMA %v; want %v, %v, %v", c.name, seen.transposed, seen.kWidth, seen.fma, w.transposed, w.kWidth, w.fma)
		}
	}
}

// The record's own kWidth, counted on its A and B fragments: 2 for
// mma.sync's f16 operands (PTX ISA: a0, a1 hold columns 2t and 2t+1), 4
// for MFMA 32x32x8 f16 (AMD matrix instruction calculator: lane l holds
// k = 4·(l/32) + i, i < 4), 1 for the tf32 m16n8k8 (one element per
// register), none for DPAS, whose A holds one K per lane and B two
// (Khronos cl_intel_subgroup_matrix_multiply_accumulate: `short8 a`,
// `int8 b` VNNI pairs), so no kWidth variant can interleave them alike.
func TestOwnKWidth(t *testing.T) {
	recs := map[string]*model.Record{}
	for _, c := range testGraphs(t) {
		for _, r := range c.records {
			recs[r.Name] = r
		}
	}
	for name, want := range map[string]int{"mma_m16n8k16_f32_f16": 2, "mfma_f32_32x32x8_f16": 4, "mma_m16n8k8_f32_tf32": 1, "dpas_m8n16k16_f32_bf16": 0} {
		r := recs[name]
		if r == nil {
			t.Fatalf("no record %s", name)
		}
		if got := r.OwnKWidth(); got != want {
			t.Errorf("%s: own kWidth %d, want %d", name, got, want)
		}
	}
}

// A transposed MFMA choice in Triton's arrangement of the warps (ids
// along N first, each warp just above one fragment) holds its accumulator
// as #ttg.amd_mfma with isTransposed = true and its A and B as the
// #ttg.dot_op operands of that encoding, as the model reads them
// (notation/triton_encodings.go): Triton repeats the tiles in registers along N first,
// transposed or not (AMDMfmaEncodingAttr::toLinearLayout in
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp of
// triton-lang/triton), so a writer can name all three with one parent.
// The shapes repeat the tiles along M, along N and along both.
func TestTransposedMFMAIsTritons(t *testing.T) {
	recs := gfx942Records(t)
	checked := 0
	for _, s := range []struct{ m, k, n int }{{128, 32, 64}, {64, 32, 128}, {256, 64, 128}, {32, 16, 32}} {
		for _, ch := range mmaChoicesOf(f16Dot(s.m, s.k, s.n), recs, 4, "") {
			r := ch.Record
			if !ch.Transposed || ch.Outer || !ch.NFirst || r.M != r.N || r.M != 16 && r.M != 32 {
				continue
			}
			acc := &notation.AMDMFMA{Version: 3, WarpsPerCTA: []int{ch.WarpsM, ch.WarpsN}, InstrShape: []int{r.M, r.N}, IsTransposed: true}
			kw := ch.KWidth
			if kw == 0 {
				kw = r.OwnKWidth()
			}
			for _, o := range []struct {
				name string
				l    *model.Layout
				enc  notation.TritonEncoding
			}{{"C", ch.C, acc}, {"A", ch.A, &notation.DotOperand{OpIdx: 0, Parent: acc, KWidth: kw}}, {"B", ch.B, &notation.DotOperand{OpIdx: 1, Parent: acc, KWidth: kw}}} {
				want, err := (&notation.Triton{Enc: o.enc}).Layout(model.FrameOf(o.l))
				if err != nil {
					t.Fatalf("%dx%dx%d %s: %v", s.m, s.k, s.n, ch, err)
				}
				if !want.Equal(o.l) {
					t.Errorf("%dx%dx%d %s: %s is not %s:\n got %s\nwant %s", s.m, s.k, s.n, ch, o.name, o.enc.TritonAttr(), o.l, want)
				}
			}
			checked++
		}
	}
	if checked < 8 {
		t.Errorf("%d transposed MFMA choices checked, want at least 8", checked)
	}
}

// Where the graph writes its layouts as #ttg.blocked, which cannot write
// the transposed 16×16 MFMA accumulator in Triton's order once its tiles
// repeat along both M and N, that arrangement is offered in the mirrored
// dot's order (repeats along M first), which blocked writes; in linear
// notation only Triton's order is.
func TestTransposedMirroredOrderWhereBlocked(t *testing.T) {
	recs := gfx942Records(t)
	op := f16Dot(128, 32, 128)
	find := func(notation string) *MMAChoice {
		for _, ch := range mmaChoicesOf(op, recs, 4, notation) {
			if ch.Transposed && ch.KWidth == 0 && ch.Record.Name == "mfma_f32_16x16x16_f16" && ch.WarpsM == 1 && ch.WarpsN == 4 && !ch.Outer {
				return ch
			}
		}
		return nil
	}
	blocked, linear := find("blocked"), find("linear")
	if blocked == nil || linear == nil {
		t.Fatalf("the transposed 16x16 accumulator on 1x4 warps is offered as blocked %v, as linear %v", blocked != nil, linear != nil)
	}
	if _, err := notation.Express("blocked", blocked.C); err != nil {
		t.Errorf("offered in blocked notation, its accumulator is not blocked: %v", err)
	}
	if blocked.C.Equal(linear.C) {
		t.Errorf("the same accumulator in both notations, want the mirrored order where blocked")
	}
	// Register 4 is the first repeat of a tile's 4 registers.
	alongM := func(l *model.Layout) bool { return l.Index(model.HwPoint{Value: 4})[1] == l.Index(model.HwPoint{})[1] }
	if !alongM(blocked.C) || alongM(linear.C) {
		t.Errorf("the first register repeat lies along M: %v in blocked notation, %v in linear; want true, false", alongM(blocked.C), alongM(linear.C))
	}
}

// gfx942Records are the built-in records of gfx942.
func gfx942Records(t *testing.T) []*model.Record {
	lib, err := intrinsics.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var recs []*model.Record
	for _, n := range lib.Targets["gfx942"].Records {
		recs = append(recs, lib.Records[n])
	}
	return recs
}

// f16Dot is an m×k by k×n f16 dot accumulating in f32.
func f16Dot(m, k, n int) *model.Op {
	f16, _ := model.ParseDType("f16")
	f32, _ := model.ParseDType("f32")
	v := func(name string, shape []int, dt model.DType) *model.Value {
		return &model.Value{Name: name, Shape: shape, DType: dt}
	}
	return &model.Op{Name: "d", Kind: model.OpMMA, Result: v("d", []int{m, n}, f32),
		Operands: []*model.Value{v("a", []int{m, k}, f16), v("b", []int{k, n}, f16), v("c", []int{m, n}, f32)}}
}
