package solver

import (
	"testing"

	"planner/model"
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
