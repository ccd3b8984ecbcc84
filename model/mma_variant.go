package model

import (
	"fmt"
	"strings"
)

// The variants of running a dot on a record that compilers choose
// between, besides the record's own fragments tiled over the warps:
//
//   - the transposed accumulator: the record runs on (Bᵀ, Aᵀ) and computes
//     Dᵀ = Bᵀ·Aᵀ, so the dot's A is held as the record's B fragment
//     transposed, its B as the record's A transposed, and its accumulator
//     as the record's transposed (Triton's AMDMfmaEncodingAttr
//     isTransposed, include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td
//     and AMDMfmaEncodingAttr::toLinearLayout in
//     lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp, which swaps
//     the roles of the lanes and registers between M and N);
//   - a wider kWidth: each lane holds kWidth consecutive K elements of A
//     and B in one register group, more than the record's own, the K
//     steps of the instruction interleaved inside the group (Triton's
//     DotOperandEncodingAttr kWidth: nvidiaDotToLinearLayout and
//     mfmaDotToLinearLayout in LinearLayoutConversions.cpp put kWidth
//     registers innermost along K). That is a permutation of the K index
//     applied to A and B alike, and a dot's sum over K does not depend
//     on its order;
//   - K renumbered (k_order.go): any permutation of K's bits applied to
//     A and B alike, of which a kWidth's interleaving is one; offered
//     where it gives each lane one run of k, or where a pin holds K so;
//   - an FMA dot (a record of kind fma): no matrix instruction; every lane
//     computes its accumulator elements from whole rows of A and columns
//     of B held in its registers (Triton's FMA dot,
//     lib/Conversion/TritonGPUToLLVM/DotOpToLLVM/FMA.cpp, operands
//     #ttg.dot_op<{parent = #blocked}>).

// OwnKWidth is how many consecutive K elements each lane holds in its
// lowest registers in the record's A and B fragments (2 for mma.sync's
// f16 A, 4 for MFMA's f16 A), counted on the elements; 0 when the two
// operands disagree or have no layout.
func (r *Record) OwnKWidth() int {
	a, b := r.Operands["a"], r.Operands["b"]
	if a == nil || b == nil || a.Layout == nil || b.Layout == nil || a.Layout.Rank() != 2 || b.Layout.Rank() != 2 {
		return 0
	}
	wa, wb := consecutive(a.Layout, 1), consecutive(b.Layout, 0)
	if wa != wb {
		return 0
	}
	return wa
}

// consecutive counts the registers 0, 1, … of lane 0 that hold elements
// one apart along dimension d, the other coordinates fixed.
func consecutive(l *Layout, d int) int {
	first := l.Index(HwPoint{})
	n := 1
	for ; n < l.Size(Register); n++ {
		idx := l.Index(HwPoint{Value: n})
		for e := range idx {
			want := first[e]
			if e == d {
				want += n
			}
			if idx[e] != want {
				return n
			}
		}
	}
	return n
}

// InterleavedK is the position within the record's K tile (recordK wide,
// own consecutive K per lane) at which an operand of kWidth kWidth holds
// its K index k: within every chunk of recordK·kWidth/own indices, k
// splits into low own digits, kWidth/own instruction steps and the high
// rest, and the instruction sees the low and high digits.
func InterleavedK(k, recordK, own, kWidth int) int {
	if kWidth <= own || own < 1 {
		return k % recordK
	}
	within := k % (recordK * kWidth / own)
	return within/kWidth*own + within%own
}

// MMATile is the record's tile along the dot's M and N under choice ch:
// the record's M×N, or N×M when it runs transposed. An FMA record
// computes one element per lane and register.
func MMATile(ch *OpChoice) (int, int) {
	r := ch.Record
	if ch.Transposed {
		return r.N, r.M
	}
	return r.M, r.N
}

// FMAInstructions is how many FMAs one lane runs for a dot of depth k
// whose accumulator has layout acc: one per accumulator value and K index.
func FMAInstructions(acc *Layout, k int) int {
	return acc.Size(Register) * k
}

// costFMA prices an FMA dot: its FMAs at the target's ALU weight (an
// FMA is one full-rate arithmetic instruction: PTX ISA, "Floating Point
// Instructions: fma"; AMD CDNA3 ISA, V_FMA_F32 in the VOP3 opcodes; Intel
// Xe ISA, mad).
func costFMA(op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if result == nil {
		return 0, "", fmt.Errorf("mma %s on %s has no accumulator layout", op.Name, ch.Record.Name)
	}
	_, _, k, _ := MMADims(op)
	n := FMAInstructions(result, k)
	return int64(n) * t.Weights.ALU * Trips(op.In), fmt.Sprintf("%s × %d per warp", ch.Record.Name, n), nil
}

// becauseMMA says what an mma's choice needs of operand use u: the
// record's fragment of that operand tiled over the warps, or, for a
// variant, which fragment and how.
func becauseMMA(u Use, a *Assignment) string {
	ch := a.Ops[u.Op]
	r := ch.Record
	name := OperandName(u)
	switch {
	case r.Kind == RecordFMA:
		k := "row of A"
		if name == "b" {
			k = "column of B"
		}
		if name == "c" {
			return fmt.Sprintf("the blocked accumulator of the FMA dot (%s), record %s, on %s", r.Name, r.Pos, WarpArrangement(ch.WarpsM, ch.WarpsN, ch.NFirst, ch.Outer))
		}
		return fmt.Sprintf("the FMA dot (%s): each lane holds the whole %s for each accumulator element it holds, record %s, on %s", r.Name, k, r.Pos, WarpArrangement(ch.WarpsM, ch.WarpsN, ch.NFirst, ch.Outer))
	}
	slot, how := name, ""
	if ch.Transposed {
		slot = map[string]string{"a": "b", "b": "a"}[name]
		if slot == "" {
			slot = name
		}
		how += ", transposed"
	}
	if ch.KWidth > 0 && (name == "a" || name == "b") {
		how += fmt.Sprintf(", kWidth %d", ch.KWidth)
	}
	if ch.KOrder != nil && (name == "a" || name == "b") {
		how += ", K renumbered (" + ch.KOrder.String() + ", A and B alike)"
	}
	rname := r.Name
	if b := r.Blocking(); b != "" {
		rname += " (" + b + ")"
	}
	return fmt.Sprintf("the %s fragment of operand %s%s, record %s, on %s", rname, slot, how, r.Pos, GroupArrangement(ch.WarpsM, ch.WarpsN, r.Subgroups, ch.NFirst, ch.Outer))
}

// MMAVariant is how a graph states an mma must run, as a compiler's IR
// already says it (Triton's dot operands carry kWidth, its MFMA encoding
// isTransposed): KWidth 0 leaves the kWidth free, a nil Transposed the
// accumulator.
type MMAVariant struct {
	KWidth     int
	Transposed *bool
	Pos        Pos // the first of the keys
}

// Admits reports whether choice ch runs as v states: the kWidth its
// operands have (OperandKWidth: a K order gives one too) and
// its accumulator transposed or not. An FMA dot runs no matrix
// instruction, so a stated kWidth or accumulator rules it out.
func (v *MMAVariant) Admits(ch *OpChoice) bool {
	switch {
	case ch == nil || ch.Record == nil:
		return true
	case ch.Record.Kind == RecordFMA:
		return false
	case v.Transposed != nil && *v.Transposed != ch.Transposed:
		return false
	}
	return v.KWidth == 0 || ch.OperandKWidth() == v.KWidth
}

func (v *MMAVariant) String() string {
	var parts []string
	if v.KWidth > 0 {
		parts = append(parts, fmt.Sprintf("operands of kWidth %d", v.KWidth))
	}
	if v.Transposed != nil {
		if *v.Transposed {
			parts = append(parts, "its accumulator transposed")
		} else {
			parts = append(parts, "its accumulator not transposed")
		}
	}
	return strings.Join(parts, " and ")
}

// SubgroupGrid says how the subgroups of an accumulator split its rows
// and columns: the product of the radices of the subgroup digits that
// move along its rows (wm) and along its columns (wn), its last two
// dimensions. An FMA dot's arrangement is its accumulator's grid.
func SubgroupGrid(l *Layout) (wm, wn int) {
	_, wm, wn = BatchSubgroupGrid(l)
	return wm, wn
}

// BatchSubgroupGrid is SubgroupGrid with the subgroups along a batched
// accumulator's batch, its dimensions before the last two (wb).
func BatchSubgroupGrid(l *Layout) (wb, wm, wn int) {
	wb, wm, wn = 1, 1, 1
	r := l.Rank()
	for p, rad := range l.Radices(Subgroup) {
		for _, ref := range l.Image(Subgroup, p) {
			switch ref.Axis {
			case r - 2:
				wm *= rad
			case r - 1:
				wn *= rad
			default:
				wb *= rad
			}
		}
	}
	return wb, wm, wn
}
