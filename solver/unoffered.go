package solver

import (
	"fmt"

	"planner/model"
	"planner/notation"
)

// UnofferedMMAPins says, one sentence for each mma op whose result is
// pinned to a matrix encoding (#ttg.nvidia_mma, #ttg.amd_mfma,
// #ttg.amd_wmma, #ttg.intel_dpas: an arrangement of an mma's warps over
// its tiles) none of its choices computes, which op, the encoding and
// why: where the input's own layouts find no plan because
// an arrangement it names is not among the planner's, the cause lies in
// the candidates, not in the graph's constraints. Empty where every
// pinned accumulator is a choice of its op.
func (p *Problem) UnofferedMMAPins() []string {
	var out []string
	for _, n := range p.Nodes {
		if n.Kind != NodeMMA || n.Op.Result == nil {
			continue
		}
		pin := n.Op.Result.Pin
		if pin == nil || pin.Layout == nil || !matrixEncoding(pin.Notation) || computesPin(n.MMA, pin.Layout) {
			continue
		}
		out = append(out, unofferedSentence(n.Op, pin))
	}
	return out
}

// computesPin: some choice of chs computes accumulator l.
func computesPin(chs []*MMAChoice, l *model.Layout) bool {
	for _, ch := range chs {
		if ch.C != nil && ch.C.Equal(l) {
			return true
		}
	}
	return false
}

// matrixEncoding: n is one of Triton's matrix encodings.
func matrixEncoding(n model.Notation) bool {
	t, ok := n.(*notation.Triton)
	if !ok {
		return false
	}
	switch t.Enc.(type) {
	case *notation.NvidiaMMA, *notation.AMDMFMA, *notation.AMDWMMA, *notation.IntelDPAS:
		return true
	}
	return false
}

// unofferedSentence says why op's pinned accumulator is none of its
// choices.
func unofferedSentence(op *model.Op, pin *model.Pin) string {
	enc := pin.Notation.Attr()
	why := "no arrangement of its records over the warps computes it"
	if c := pin.Layout.SubgroupCopies(); c > 1 {
		why = fmt.Sprintf("its warps repeat a tile (each element held by %d warps: a warp bit that selects no tile), and no arrangement of its records that repeats tiles computes it", c)
	}
	return fmt.Sprintf("the mma %s (%s) computes its result in %s, which is not among the planner's arrangements of the mma: %s", op.Name, pin.Pos, enc, why)
}
