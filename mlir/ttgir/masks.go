package ttgir

import (
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// accessMask is the mask a tt.load or tt.store reads (operand i), as the
// register model counts it (model.AccessMask): over how many elements of
// each dimension it is certainly constant. Accesses that read one mask
// value share one; nil where the access has no mask.
func (b *ttBuilder) accessMask(op *ir.Op, i int) *model.AccessMask {
	if i >= len(op.Operands) || !isTensor(op.Operands[i].Value.Type) {
		return nil
	}
	v := op.Operands[i].Value
	if b.masks == nil {
		b.masks = map[*ir.Value]*model.AccessMask{}
	}
	if m, ok := b.masks[v]; ok {
		return m
	}
	m := &model.AccessMask{Constancy: b.constancy(v, 0), EachTrip: v.Def != nil && v.Def.Parent == op.Parent && inLoop(op)}
	b.masks[v] = m
	return m
}

// inLoop reports whether op is in the body of an scf.for, at any depth.
func inLoop(op *ir.Op) bool {
	for op != nil && op.Parent != nil && op.Parent.Region != nil {
		op = op.Parent.Region.Parent
		if op != nil && ir.TTName(op.Name) == "scf.for" {
			return true
		}
	}
	return false
}

// constancy is, for each dimension of an integer, boolean or pointer
// tensor, over how many consecutive elements (aligned blocks of that
// many) its elements are certainly equal, 0 where they are equal along
// the whole dimension, following Triton's AxisInfo analysis
// (lib/Analysis/AxisInfo.cpp) as far as masks need it: a make_range
// differs at every element (1), a splat or a constant nowhere (0);
// expand_dims, broadcast, trans and casts carry their operand's;
// element-wise ops take, per dimension, the finest of their operands'
// (gcd); and a comparison of a range of unit stride with a splat of a
// function argument known to be a multiple of D (tt.divisibility = D) is
// constant over aligned blocks of D, Triton's rule for a mask against a
// divisible bound (CmpOpAxisInfoVisitor). What it cannot follow differs
// at every element.
func (b *ttBuilder) constancy(v *ir.Value, depth int) []int {
	tt, ok := v.Type.(*ir.TensorType)
	if !ok {
		return nil // a scalar operand is the same everywhere
	}
	every := make([]int, len(tt.Shape))
	for d := range every {
		every[d] = 1
	}
	out := make([]int, len(tt.Shape))
	op := v.Def
	if depth > 64 {
		return every
	}
	if op == nil {
		return every
	}
	arg := func(i int) []int {
		if i >= len(op.Operands) {
			return nil
		}
		return b.constancy(op.Operands[i].Value, depth+1)
	}
	switch name := ir.TTName(op.Name); {
	case name == "tt.splat" || name == "arith.constant":
		return out
	case name == "tt.expand_dims":
		src, k := arg(0), 0
		for d := range out {
			if d != axisOf(op) && k < len(src) {
				out[d] = src[k]
				k++
			}
		}
		return out
	case name == "tt.broadcast":
		src := arg(0)
		in := shapeOf(op.Operands[0].Value.Type)
		for d := range out {
			if d < len(src) && d < len(in) && in[d] == tt.Shape[d] {
				out[d] = src[d]
			}
		}
		return out
	case name == "tt.trans":
		src := arg(0)
		order, ok := reader.IntsAttr(op, "order")
		if !ok || len(order) != len(out) {
			return every
		}
		for d, o := range order {
			if o >= len(src) {
				return every
			}
			out[d] = src[o]
		}
		return out
	case name == "arith.cmpi" && len(op.Operands) == 2:
		a, c := arg(0), arg(1)
		if len(a) != len(out) || len(c) != len(out) {
			return every
		}
		unitA, unitC := b.unitStride(op.Operands[0].Value, 0), b.unitStride(op.Operands[1].Value, 0)
		divA, divC := b.splatDivisibility(op.Operands[0].Value), b.splatDivisibility(op.Operands[1].Value)
		for d := range out {
			switch {
			case a[d] == 1 && c[d] == 0 && d < len(unitA) && unitA[d] && divC > 1:
				out[d] = min(divC, tt.Shape[d])
			case c[d] == 1 && a[d] == 0 && d < len(unitC) && unitC[d] && divA > 1:
				out[d] = min(divA, tt.Shape[d])
			default:
				out[d] = finest(a[d], c[d])
			}
		}
		return out
	case name == "ttg.convert_layout" || name == "tt.addptr" || strings.HasPrefix(name, "arith."):
		// Element-wise: constant where every operand is.
		for i := range op.Operands {
			src := arg(i)
			if src == nil {
				continue
			}
			if len(src) != len(out) {
				return every
			}
			for d, c := range src {
				out[d] = finest(out[d], c)
			}
		}
		return out
	}
	return every
}

// finest is the constancy of an element-wise result of operands of
// constancies a and b (0: along the whole dimension): their gcd.
func finest(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// splatDivisibility is the divisibility Triton knows of a splat's scalar
// (scalarDivisibility); 0 when v is no splat.
func (b *ttBuilder) splatDivisibility(v *ir.Value) int {
	if v.Def == nil || ir.TTName(v.Def.Name) != "tt.splat" || len(v.Def.Operands) != 1 {
		return 0
	}
	return scalarDivisibility(v.Def.Operands[0].Value, 0)
}

// maxDivisibility caps a divisibility, as Triton's AxisInfo caps it at
// the highest power of two an int32 holds.
const maxDivisibility = 1 << 30

// scalarDivisibility is the largest power of two an i32 scalar is known to
// be a multiple of, as Triton's AxisInfo finds it: a function argument
// marked tt.divisibility = D, D; a constant, the largest power of two
// dividing it; a product, the product of its operands'; a sum or a
// difference, the smaller of its operands'; a loop's induction variable,
// the smaller of its lower bound's and its step's; anything else 1.
func scalarDivisibility(v *ir.Value, depth int) int {
	if depth > 64 {
		return 1
	}
	if op := v.Def; op != nil {
		arg := func(i int) int {
			if i >= len(op.Operands) {
				return 1
			}
			return scalarDivisibility(op.Operands[i].Value, depth+1)
		}
		switch ir.TTName(op.Name) {
		case "arith.constant":
			a, ok := op.Attr("value")
			if !ok {
				return 1
			}
			ia, ok := a.Value.(*ir.IntAttr)
			if !ok {
				return 1
			}
			n, err := strconv.ParseInt(ia.Text, 10, 64)
			if err != nil {
				return 1
			}
			if n == 0 {
				return maxDivisibility
			}
			return min(int(n&-n), maxDivisibility)
		case "arith.muli":
			return min(arg(0)*arg(1), maxDivisibility)
		case "arith.addi", "arith.subi":
			return min(arg(0), arg(1))
		}
		return 1
	}
	blk := v.Block
	if blk == nil || blk.Region == nil || blk.Region.Parent == nil {
		return 1
	}
	parent := blk.Region.Parent
	switch {
	case ir.TTName(parent.Name) == "scf.for" && v.Index == 0 && len(parent.Operands) >= 3:
		return min(scalarDivisibility(parent.Operands[0].Value, depth+1), scalarDivisibility(parent.Operands[2].Value, depth+1))
	case v.Index < len(parent.ArgAttrs):
		for _, a := range parent.ArgAttrs[v.Index] {
			if a.Name != "tt.divisibility" {
				continue
			}
			if ia, ok := a.Value.(*ir.IntAttr); ok {
				if n, err := strconv.Atoi(ia.Text); err == nil && n > 0 {
					return min(n, maxDivisibility)
				}
			}
		}
	}
	return 1
}
