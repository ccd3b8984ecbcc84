package plans

import (
	"fmt"

	"planner/model"
)

// kOrdersAgree checks that an mma's A and B hold K in one order, the one
// the plan claims for it. Each operand's order is read from its layout
// against a reference tiling (model.DeriveKOrder): the record's fragments
// tiled as the plan's arrangement tiles them, against which the plan's K
// renumbering (model.KOrder) is claimed; for a kWidth, that tiling with K
// interleaved (model.InterleaveK), which puts the kWidth's registers
// innermost and so is the reference its operands must hold as they are.
// The two orders are compared element by element: every K index must sit
// at the same K position of the instruction in A as in B, or the
// instruction would multiply A's element of one k by B's of another. An
// operand whose layout is no renumbering of the reference (a layout in
// shared memory, one that is wrong in other ways) is left to the fragment
// checks, which say what is wrong with it.
func kOrdersAgree(op *model.Op, ch *model.OpChoice, a *model.Assignment) error {
	r := ch.Record
	if r == nil || r.Kind != model.RecordMMA || len(op.Operands) < 3 ||
		len(op.Operands[0].Shape) != 2 || len(op.Operands[1].Shape) != 2 || r.M == 0 || r.N == 0 || r.K == 0 {
		return nil
	}
	m, k, n := op.Operands[0].Shape[0], op.Operands[0].Shape[1], op.Operands[1].Shape[1]
	rm, rn := r.M, r.N
	if ch.Transposed {
		rm, rn = r.N, r.M
	}
	if m%rm != 0 || n%rn != 0 || k%r.K != 0 {
		return nil
	}
	ref, claimed, refName := *ch, ch.KOrder, "the record's"
	ref.KOrder = nil
	if ch.KWidth > 0 {
		claimed, refName = nil, fmt.Sprintf("kWidth %d's", ch.KWidth)
	}
	orderOf := func(i int, role string, kd int) (model.KOrder, bool) {
		got := a.Required[model.Use{Op: op, Index: i}]
		if got == nil || got.InShared() || got.Opaque() != "" {
			return nil, false
		}
		for _, w := range tilingsOf(r, &ref, m, n, k, role) {
			if o, ok := model.DeriveKOrder(w, got, kd); ok {
				return o, true
			}
		}
		return nil, false
	}
	oa, okA := orderOf(0, "a", 1)
	ob, okB := orderOf(1, "b", 0)
	if !okA || !okB {
		return nil
	}
	where := []Where{atUse(model.Use{Op: op, Index: 0}), atUse(model.Use{Op: op, Index: 1}), atOp(op, "k_order"), atOp(op, "k_width"), atOp(op, "intrinsic")}
	if kk, ok := firstDisagreement(oa, ob, k); ok {
		elem := []int{kk, 0}
		var at *model.HwPoint
		if hs := a.Required[model.Use{Op: op, Index: 1}].Holders(elem); len(hs) > 0 {
			at = pointAt(hs[0])
		}
		return &VerifyError{Value: op.Operands[1].Name, Element: elem, Point: at, At: where,
			What: fmt.Sprintf("%s multiplies the A and B elements at one K position of %s, so A and B must hold K in one order: operand a %%%s holds k = %d at %s K position %d (%s), operand b %%%s at position %d (%s)",
				op.Name, r.Name, op.Operands[0].Name, kk, refName, oa.Position(kk), orderText(oa, refName), op.Operands[1].Name, ob.Position(kk), orderText(ob, refName))}
	}
	if _, ok := firstDisagreement(oa, claimed, k); ok {
		return &VerifyError{Value: op.Operands[0].Name, At: where,
			What: fmt.Sprintf("%s: A and B hold K in one order, %s, but the plan says %s", op.Name, orderText(oa, refName), orderText(claimed, refName))}
	}
	return nil
}

// firstDisagreement is the first K index below k that orders o and p put
// at different positions; false when they agree on all.
func firstDisagreement(o, p model.KOrder, k int) (int, bool) {
	for kk := range k {
		if o.Position(kk) != p.Position(kk) {
			return kk, true
		}
	}
	return 0, false
}

// orderText names an order against a reference, ref ("the record's",
// "kWidth 8's"): the reference's own, or the renumbering.
func orderText(o model.KOrder, ref string) string {
	if o.Identity() {
		return ref + " own K order"
	}
	return "K renumbered, " + o.String()
}
