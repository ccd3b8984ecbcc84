package plans

import (
	"fmt"

	"planner/model"
)

// An mma whose record reads an operand from shared memory (wgmma's B)
// takes that operand where its load_shared left it: the value's layout is
// model.LeftInShared, no register holds it, and the record's descriptor
// reads the buffer in one of its modes.

// leftInSharedText describes a value left in shared memory for the plan.
func leftInSharedText(v *model.Value) string {
	buf := "its buffer"
	if v.Def != nil && v.Def.Buffer != nil {
		buf = "buffer " + v.Def.Buffer.Name
	}
	return fmt.Sprintf("left in %s: no register holds it; an mma reads it there through its descriptor", buf)
}

// descriptorRead is the access plan of an mma reading an operand's buffer
// through its record's descriptor, for the buffer's list of accesses.
func descriptorRead(op *model.Op, ch *model.OpChoice, t *model.Target) (*model.Buffer, AccessPlan, bool) {
	acc, ok := model.DescriptorAccess(op, ch, t)
	if !ok {
		return nil, AccessPlan{}, false
	}
	i, buf := model.DescriptorOperand(op, ch.Record)
	mode, _ := ch.Buffer.DescriptorMode()
	return buf, AccessPlan{Op: op.Name, Access: "read", Method: fmt.Sprintf("%s reads %s through its descriptor, swizzle %s: %d wavefronts per warp (%d without conflicts)",
		ch.Record.Name, model.RoleName(op, i), mode, acc.Wavefronts, acc.Ideal),
		Instructions: acc.Instructions, Wavefronts: acc.Wavefronts, Ideal: acc.Ideal, Conflicts: acc.Conflicts()}, true
}

// checkSharedUse checks a use whose value or required layout is left in
// shared memory: the consumer must be an mma whose record reads that
// operand from shared memory, from the buffer the value's load_shared
// reads (the value may also be loaded into registers for other
// consumers; a value left in shared memory serves no other). handled is
// false for uses in registers.
func checkSharedUse(v *model.Value, u model.Use, have, req *model.Layout, a *model.Assignment) (handled bool, err error) {
	if !have.InShared() && !req.InShared() {
		return false, nil
	}
	op := u.Op
	switch {
	case !req.InShared():
		return true, &VerifyError{Value: v.Name, What: fmt.Sprintf("it is left in shared memory, but %s needs it in registers", op.Name)}
	case v.Def == nil || !v.Def.ReadsShared() || v.Def.Buffer == nil:
		return true, &VerifyError{Value: v.Name, What: "it is left in shared memory, but no load_shared makes it"}
	}
	ch := a.Ops[op]
	if op.Info().Flow != model.FlowRecord || ch == nil || ch.Record == nil {
		return true, &VerifyError{Value: v.Name, What: fmt.Sprintf("it is left in shared memory, but %s is no mma that reads an operand from there", op.Name)}
	}
	if i, buf := model.DescriptorOperand(op, ch.Record); i != u.Index || buf != v.Def.Buffer {
		return true, &VerifyError{Value: v.Name, What: fmt.Sprintf("it is left in shared memory, but %s reads its operand %s in registers", ch.Record.Name, model.RoleName(op, u.Index))}
	}
	return true, nil
}

// checkDescriptor replays an mma's descriptor read: the buffer's placement
// in the assignment is the one the mma's choice reads, the record's rule
// admits it, and every element of the operand lies where the descriptor's
// canonical layout puts it. That layout is written here from the PTX
// ISA's description, not from the placement's formula: rows of the
// mode's span (16 bytes without a swizzle; 32, 64 or 128 with one), 8-row
// core-matrix groups one after the other (the stride dimension byte
// offset, 8 spans), atoms one span wide repeated across the columns at
// the leading dimension byte offset (the descriptor is given the bytes
// of all the buffer's rows one span wide: "Strides", the leading
// dimension byte offset of a swizzled MN-major layout is the stride from
// one atom to the next along MN), the buffer's transpose stored so where
// it is column major (a K-major B: atoms of 8 rows along N, a row's span
// along K), and in a swizzled mode the
// 16-byte chunk index within the span XORed with the index of the
// 128-byte line the chunk lies in, modulo the chunks of a span ("Shared
// Memory Matrix Layout", its swizzling modes; NVIDIA/cutlass
// include/cute/atom/mma_traits_sm90_gmma.hpp, the canonical layouts).
func checkDescriptor(op *model.Op, ch *model.OpChoice, a *model.Assignment) error {
	i, buf := model.DescriptorOperand(op, ch.Record)
	if i < 0 {
		return nil
	}
	v := op.Operands[i]
	if buf == nil {
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("%s reads it from shared memory, but no load_shared from a buffer makes it", ch.Record.Name)}
	}
	s := a.Buffers[buf]
	switch {
	case s == nil || ch.Buffer == nil:
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("%s reads buffer %s through its descriptor, but the plan gives it no placement", ch.Record.Name, buf.Name)}
	case s.String() != ch.Buffer.String():
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("%s reads buffer %s as %s, but the buffer is placed as %s", ch.Record.Name, buf.Name, ch.Buffer, s)}
	}
	role := model.RoleName(op, i)
	if err := model.DescriptorAdmits(ch.Record, role, s); err != nil {
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("%s cannot read buffer %s as placed (%s): %v", ch.Record.Name, buf.Name, s, err)}
	}
	mode, _ := s.DescriptorMode()
	span := map[string]int{"none": 16, "32B": 32, "64B": 64, "128B": 128}[mode]
	bytes := s.ElemBits / 8
	rows, _ := s.StoredShape()
	atom := span / bytes // an atom's columns
	lbo := rows * span   // from one atom to the next along the columns
	for i := range v.Shape[0] {
		for j := range v.Shape[1] {
			r, c := i, j // where the element is stored: (j, i) in a column-major buffer (K-major B)
			if s.ColumnMajor {
				r, c = j, i
			}
			addr := (c/atom)*lbo + (r/8)*8*span + (r%8)*span + (c%atom)*bytes
			if chunks := span / 16; chunks > 1 {
				chunk := (addr / 16) % chunks
				addr += ((chunk ^ (addr/128)%chunks) - chunk) * 16
			}
			if got := s.ByteOffset(i, j); got != addr {
				return &VerifyError{Value: v.Name, Element: []int{i, j}, What: fmt.Sprintf("buffer %s holds it at byte %d; %s's descriptor in mode %s reads it at byte %d", buf.Name, got, ch.Record.Name, mode, addr)}
			}
		}
	}
	return nil
}
