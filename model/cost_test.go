package model_test

import (
	"math/rand/v2"
	"testing"

	. "planner/model"
	"planner/notation"
)

// The rank count of sectors agrees with walking every element, on 200
// seeded random blocked layouts at four element widths (at least 400
// comparisons).
func TestSectorsLinearAgreesWithElements(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	checked := 0
	for range 200 {
		rank := 1 + r.IntN(3)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = 1 << uint(1+r.IntN(5))
		}
		f := Frame{Shape: shape, SubgroupSize: 32, Subgroups: 1 << uint(r.IntN(3))}
		b := &notation.Blocked{SizePerThread: make([]int, rank), ThreadsPerWarp: make([]int, rank), WarpsPerCTA: make([]int, rank), Order: r.Perm(rank)}
		for d := range rank {
			b.SizePerThread[d], b.ThreadsPerWarp[d], b.WarpsPerCTA[d] = 1<<uint(r.IntN(3)), 1, 1
		}
		for range 5 {
			b.ThreadsPerWarp[r.IntN(rank)] *= 2
		}
		for k := 1; k < f.Subgroups; k *= 2 {
			b.WarpsPerCTA[r.IntN(rank)] *= 2
		}
		l, err := b.Layout(f)
		if err != nil {
			continue
		}
		for _, bits := range []int{8, 16, 32, 64} {
			c := r.IntN(rank)
			v := VectorWidth(l, c, bits)
			got, ok := SectorsLinear(l, c, bits, v)
			if !ok {
				t.Fatal("power-of-two layout not counted linearly")
			}
			if want := SectorsByElements(l, c, bits, v); got != want {
				t.Fatalf("%s over %v, %d bits, contiguous %d: %d sectors by rank, %d by elements", b.Attr(), shape, bits, c, got, want)
			}
			checked++
		}
	}
	if checked < 400 {
		t.Fatalf("only %d checked", checked)
	}
}
