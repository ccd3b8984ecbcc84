package main

import (
	"testing"

	"planner/gen"
	"planner/tomlio"
)

// planner gen never writes what planner solve refuses by default: the
// largest graph of every family (a million ops, measured at 89.5 MiB for
// loops, the longest) stays under tomlio.DefaultMaxInput. Generating a
// million ops takes seconds, so the size is extrapolated from 20k ops,
// with 15% for the longer names of the larger graph.
func TestGenFitsTheDefaultInputLimit(t *testing.T) {
	const ops = 20_000
	for _, family := range gen.Families {
		text, err := gen.Graph(family, ops, 1)
		if err != nil {
			t.Fatal(err)
		}
		perOp := float64(len(text)) / ops
		if est := perOp * 1_000_000 * 1.15; est > tomlio.DefaultMaxInput {
			t.Errorf("%s: %.0f bytes an op at %d ops make about %.0f MiB at a million ops, more than the default --max-input of %s", family, perOp, ops, est/(1<<20), tomlio.ByteSize(tomlio.DefaultMaxInput))
		}
	}
}
