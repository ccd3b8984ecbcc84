package solver

import (
	"slices"

	"planner/model"
)

// Renumbered K (model/k_order.go): a dot may run with A and B holding K
// in another order than the record's, the same order for both. Two kinds
// are offered, each as its own choice with the order recorded on it:
//   - the lane-contiguous order of each record whose A and B hold a
//     tile's K in a lane's lowest registers and in its lanes
//     (model.LaneContiguousK): each lane's registers then hold one run of
//     consecutive k, the order Triton, IREE and llama.cpp use on RDNA4's
//     WMMA, where AMD's tables spread a lane's k over two runs; only
//     where that run fits one 16-byte access, as kWidths do;
//   - the orders the graph's own layouts of the dot's operands hold K in
//     (pins on A or B, or on the values element-wise ops, transposes and
//     other relabellings make them from: anchorOf): where such a layout is a choice's fragment of that
//     operand with K renumbered, the choice runs with that order in both
//     operands (anchoredKChoices), so an anchored operand costs no
//     conversion for its K order alone.
//
// A choice that renumbers K to what a kWidth choice of the same
// arrangement already holds is not offered twice: the kWidth one, which
// Triton writes, stays.

// laneContiguousChoices are the choices of chs, op's, run with each
// lane's K contiguous, where that differs from the record's order and
// from every choice of chs, and the run fits one vector access
// (maxGroupBits: a longer run reads no wider than the record's own runs).
func laneContiguousChoices(op *model.Op, chs []*MMAChoice) []*MMAChoice {
	bits := max(op.Operands[0].DType.Bits, op.Operands[1].DType.Bits)
	var out []*MMAChoice
	for _, ch := range chs {
		if !renumberable(ch) {
			continue
		}
		oa, run, okA := model.LaneContiguousK(ch.A, 1, ch.Record.K)
		ob, _, okB := model.LaneContiguousK(ch.B, 0, ch.Record.K)
		if !okA || !okB || !slices.Equal(oa, ob) || run*bits > maxGroupBits {
			continue
		}
		if v := withKOrder(ch, oa); v != nil && !hasLayouts(chs, v) && !hasLayouts(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// renumberable: ch runs a matrix instruction in its record's own K order,
// A and B in registers.
func renumberable(ch *MMAChoice) bool {
	return ch.Record != nil && ch.Record.Kind == model.RecordMMA && ch.KWidth == 0 && ch.KOrder == nil &&
		ch.A != nil && ch.B != nil && !ch.A.InShared() && !ch.B.InShared() && ch.A.Opaque() == "" && ch.B.Opaque() == ""
}

// withKOrder is ch with A and B holding K renumbered by o; nil when the
// layouts do not renumber so.
func withKOrder(ch *MMAChoice, o model.KOrder) *MMAChoice {
	a, ea := model.RenumberK(ch.A, 1, o)
	b, eb := model.RenumberK(ch.B, 0, o)
	if ea != nil || eb != nil {
		return nil
	}
	v := *ch
	v.KOrder, v.A, v.B = o, a, b
	return &v
}

// hasLayouts: some choice of chs runs v's record on v's arrangement with
// v's layouts.
func hasLayouts(chs []*MMAChoice, v *MMAChoice) bool {
	return slices.ContainsFunc(chs, func(c *MMAChoice) bool {
		return c.Record == v.Record && c.WarpsM == v.WarpsM && c.WarpsN == v.WarpsN && c.NFirst == v.NFirst && c.Outer == v.Outer &&
			c.Transposed == v.Transposed && c.A.Equal(v.A) && c.B.Equal(v.B) && c.C.Equal(v.C)
	})
}

// anchorKey tells apart the lists anchoredKChoices extends: one op's
// choices on one set of records.
type anchorKey struct {
	op   *model.Op
	base mmaKey
}

// withAnchoredK is chs, op's choices, with the choices that hold K as the
// pins on op's A and B do (made once per op and list).
func (p *Problem) withAnchoredK(op *model.Op, key mmaKey, chs []*MMAChoice) []*MMAChoice {
	k := anchorKey{op: op, base: key}
	if out, ok := p.build.anchored[k]; ok {
		return out
	}
	if p.build.anchored == nil {
		p.build.anchored = map[anchorKey][]*MMAChoice{}
	}
	out := chs
	if extra := anchoredKChoices(op, chs); len(extra) > 0 {
		out = slices.Concat(chs, extra)
	}
	p.build.anchored[k] = out
	return out
}

// maxAnchorDepth bounds how many ops back from an mma operand a pin is
// looked for.
const maxAnchorDepth = 4

// anchorOf is the layout a pin gives v: its own, or the one a pin on an
// operand of the element-wise and relabelling ops that make v carries to
// it (a pinned load's transpose), up to depth ops back; nil when none.
func anchorOf(v *model.Value, depth int) *model.Layout {
	if v.Pin != nil {
		return v.Pin.Layout
	}
	def := v.Def
	if def == nil || depth == 0 || def.Result != v {
		return nil
	}
	switch info := def.Info(); info.Flow {
	case model.FlowSame:
		for _, o := range def.Operands {
			if l := anchorOf(o, depth-1); l != nil && slices.Equal(o.Shape, v.Shape) {
				return l
			}
		}
	case model.FlowRelabel:
		if l := anchorOf(def.Operands[0], depth-1); l != nil && !l.InShared() && l.Opaque() == "" {
			return info.Forward.Apply(def, l)
		}
	}
	return nil
}

// anchoredKChoices are the choices of chs run with K renumbered as a pin
// on op's A (K along dimension 1) or B (K along dimension 0) holds it,
// in the order of chs, where that differs from every choice of chs.
func anchoredKChoices(op *model.Op, chs []*MMAChoice) []*MMAChoice {
	if len(op.Operands[0].Shape) != 2 || op.Scaled() {
		return nil // a batched or block-scaled product runs its records' own K order
	}
	type anchor struct {
		l  *model.Layout
		kd int
	}
	var anchors []anchor
	for i, kd := range []int{1, 0} {
		if i >= len(op.Operands) {
			break
		}
		if l := anchorOf(op.Operands[i], maxAnchorDepth); l != nil && !l.InShared() && l.Opaque() == "" {
			anchors = append(anchors, anchor{l, kd})
		}
	}
	if len(anchors) == 0 {
		return nil
	}
	var out []*MMAChoice
	for _, ch := range chs {
		if !renumberable(ch) {
			continue
		}
		for _, an := range anchors {
			frag := ch.A
			if an.kd == 0 {
				frag = ch.B
			}
			o, ok := model.DeriveKOrder(frag, an.l, an.kd)
			if !ok || o.Identity() {
				continue
			}
			if v := withKOrder(ch, o); v != nil && !hasLayouts(chs, v) && !hasLayouts(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
