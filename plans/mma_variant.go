package plans

import (
	"fmt"
	"slices"

	"planner/model"
)

// variantNotes say in words how an mma's choice differs from its record's
// own fragments (model/mma_variant.go).
func variantNotes(ch *model.OpChoice) []string {
	var notes []string
	if ch.Record != nil && ch.Record.Kind == model.RecordFMA {
		notes = append(notes, "no matrix instruction: blocked accumulator, whole K rows of A and columns of B in each lane's registers")
	}
	if ch.Transposed {
		notes = append(notes, "transposed accumulator: the record runs on Bᵀ and Aᵀ")
	}
	if ch.KWidth > 0 && ch.Record != nil {
		notes = append(notes, fmt.Sprintf("kWidth %d: A and B hold %d consecutive K per register group, the record's own %d", ch.KWidth, ch.KWidth, ch.Record.OwnKWidth()))
	}
	if ch.KOrder != nil && ch.Record != nil {
		note := fmt.Sprintf("K renumbered (%s), A and B alike: %s", ch.KOrder, ch.KOrder.Words())
		if w, own := ch.OperandKWidth(), ch.Record.OwnKWidth(); w > own {
			note += fmt.Sprintf("; each lane's lowest registers hold %d consecutive k, the record's %d", w, own)
		}
		notes = append(notes, note)
	}
	if ch.WarpsB > 1 {
		notes = append(notes, fmt.Sprintf("a batched product: the batch over %d warps above these, the rest of it in registers", ch.WarpsB))
	}
	return notes
}

// verifyVariant replays an mma run as a variant of its record. A
// transposed accumulator: the record runs on (Bᵀ, Aᵀ), so the dot's A,
// reversed, must lie in the record's B fragment, its B in the record's A,
// and its accumulator, reversed, in the record's. A kWidth: A and B must
// both put every K index in the lane the record gives its interleaved
// position, the same K permutation for both, so that every instruction
// multiplies the A and B elements of the same K. An FMA dot: every lane
// must hold, for each accumulator element (m, n) it holds, all of row m
// of A and column n of B.
func verifyVariant(op *model.Op, a *model.Assignment, ch *model.OpChoice, ts *tables) error {
	req := func(i int) *model.Layout {
		if l := a.Required[model.Use{Op: op, Index: i}]; l != nil {
			return l
		}
		return a.Layouts[op.Operands[i]]
	}
	if ch.Record.Kind == model.RecordFMA {
		if err := verifyFMA(op, req(0), req(1), req(2), a.Layouts[op.Result], ts); err != nil {
			return err
		}
		return fmaAsBuilt(op, req(0), req(1), req(2), ch)
	}
	view := fragView{transposed: ch.Transposed, kWidth: ch.KWidth, kOrder: ch.KOrder}
	// The operand slots of the record each operand is read in (a
	// block-scaled product's scales after A, B and C), then the result's.
	slots := []string{"a", "b", "c", "scale_a", "scale_b"}
	if ch.Transposed {
		slots = []string{"b", "a", "c", "scale_b", "scale_a"}
	}
	for i := range op.Operands {
		if err := inFragmentAs(op.Operands[i].Name, req(i), ch.Record, slots[i], view, ts); err != nil {
			return err
		}
	}
	return inFragmentAs(op.Result.Name, a.Layouts[op.Result], ch.Record, "d", view, ts)
}

// fmaAsBuilt checks that an FMA dot is the one its accumulator c
// defines: A is c without its N (the lanes along N hold copies) with the
// whole K in registers, B is c without its M likewise, and the
// arrangement is the accumulator's (its subgroups along M and N, ids
// along M first, not outermost). Any register order of A and B would
// compute the same dot, but the plan claims this one: a plan file that
// says otherwise is refused rather than believed.
func fmaAsBuilt(op *model.Op, al, bl, cl *model.Layout, ch *model.OpChoice) error {
	_, _, k, _ := model.MMADims(op)
	r := len(op.Operands[0].Shape)
	for i, l := range []*model.Layout{al, bl} {
		d := r - 1 - i // A drops N (the last dimension), B drops M (the one before)
		rest, err := cl.Slice(d)
		if err != nil {
			return &VerifyError{Value: op.Operands[2].Name, What: fmt.Sprintf("the FMA dot %s: %v", op.Name, err)}
		}
		broadcast := rest.Broadcast
		if r == 3 {
			broadcast = rest.BroadcastBelow // a batch's FMA operands, K lowest (fmaChoice)
		}
		want, err := broadcast(d, k)
		if err != nil || !want.Equal(l) {
			return &VerifyError{Value: op.Operands[i].Name,
				What: fmt.Sprintf("the FMA dot %s reads operand %s as its accumulator %%%s lays it out, with the whole K in registers; the plan has another layout", op.Name, model.RoleName(op, i), op.Operands[2].Name)}
		}
	}
	wb, wm, wn := model.BatchSubgroupGrid(cl)
	if ch.WarpsM != wm || ch.WarpsN != wn || max(ch.WarpsB, 1) != wb || ch.NFirst || ch.Outer {
		return &VerifyError{Value: op.Result.Name,
			What: fmt.Sprintf("the FMA dot %s runs on its accumulator's %d×%d warps, the batch over %d (n_first = false, outer = false), not %d×%d over %d (n_first = %v, outer = %v)", op.Name, wm, wn, wb, ch.WarpsM, ch.WarpsN, max(ch.WarpsB, 1), ch.NFirst, ch.Outer),
			At:   []Where{atOp(op, "warps_m"), atOp(op, "warps_n"), atOp(op, "n_first"), atOp(op, "outer")}}
	}
	return nil
}

// verifyFMA checks an FMA dot lane by lane: the accumulator stays where
// it is (D as C), and each lane holds the whole row of A and column of B
// for every accumulator element it holds.
func verifyFMA(op *model.Op, al, bl, cl, dl *model.Layout, ts *tables) error {
	if al == nil || bl == nil || cl == nil || dl == nil {
		return &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("the FMA dot %s lacks the layout of an operand", op.Name)}
	}
	at, bt, ct, dt := ts.of(al), ts.of(bl), ts.of(cl), ts.of(dl)
	if !slices.Equal(ct.elems, dt.elems) || ct.regs != dt.regs {
		return &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("the FMA dot %s accumulates in place, so its result must be laid out as its accumulator %%%s", op.Name, op.Operands[2].Name)}
	}
	_, m, k, n := model.MMADims(op)
	cshape := op.Operands[2].Shape
	haveA, haveB := map[int]bool{}, map[int]bool{}
	idx := make([]int, len(cshape))
	for lane := 0; lane*ct.regs < len(ct.elems); lane++ {
		clear(haveA)
		clear(haveB)
		for _, e := range at.elems[lane*at.regs : (lane+1)*at.regs] {
			haveA[e] = true
		}
		for _, e := range bt.elems[lane*bt.regs : (lane+1)*bt.regs] {
			haveB[e] = true
		}
		for j := lane * ct.regs; j < (lane+1)*ct.regs; j++ {
			coords(ct.elems[j], cshape, idx)
			// Row i and column jj of matrix b of the batch (b = 0 for a
			// product of matrices).
			b, i, jj := 0, idx[len(idx)-2], idx[len(idx)-1]
			if len(idx) == 3 {
				b = idx[0]
			}
			for kk := range k {
				var miss *points
				var e int
				switch a, bb := b*m*k+i*k+kk, b*k*n+kk*n+jj; {
				case !haveA[a]:
					miss, e = at, a
				case !haveB[bb]:
					miss, e = bt, bb
				default:
					continue
				}
				name, shape := op.Operands[0].Name, op.Operands[0].Shape
				if miss == bt {
					name, shape = op.Operands[1].Name, op.Operands[1].Shape
				}
				p := ct.point(j)
				return &VerifyError{Value: name, Element: unlinear(e, shape), Point: pointAt(p),
					What: fmt.Sprintf("the FMA dot %s accumulates element %v in this lane, which does not hold this element of %%%s", op.Name, slices.Clone(idx), name)}
			}
		}
	}
	return nil
}
