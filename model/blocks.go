package model

import (
	"fmt"
	"sync"
)

// A multi-block mma (Record.Blocks > 1, the MFMA 4x4x4 16-block form)
// computes Blocks independent products in one instruction, every operand
// [block, rows, cols]. A dot op is two-dimensional, so the planner runs
// such a record through one of two views, each an ordinary record of one
// block over a wider tile:
//
//   - blocks along N: block b computes columns b·N … b·N+N-1 of the same
//     M rows. Every block then multiplies the same A, so A is held once per
//     block (a duplicated operand: the lanes of every block hold the same
//     elements), B and the accumulator are spread over the blocks. The tile
//     is M × (Blocks·N) × K.
//   - blocks along M: block b computes rows b·M …; B is held once per
//     block. The tile is (Blocks·M) × N × K.
//
// Blocks along K would need the blocks' products summed across lanes
// after the instruction and are not offered.
//
// Triton uses the 4x4x4 16-block MFMA in these two shapes, "4x64" and
// "64x4" (triton-lang/triton, lib/Dialect/TritonGPU/IR/Dialect.cpp,
// AMDMfmaEncodingAttr::getInstrShapeForOperand, which accepts mDim × nDim
// of 4 × 64 and 64 × 4 beside the square ones; its
// third_party/amd/lib/TritonAMDGPUToLLVM/ConvertLayoutOpToLLVM/SharedToDotOperandMFMA.cpp
// says of 64x4: "the 4x4 B operand is duplicated 16 times";
// lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
// AMDMfmaEncodingAttr::toLinearLayout, turns a 64x4 into a transposed 4x64
// "so that we can use the mfma broadcast"). Newer Triton lowers them with
// the instruction's CBSZ/ABID broadcast, one block's A sent to all
// (third_party/amd/lib/TritonAMDGPUToLLVM/DotOpToLLVM/MFMA.cpp,
// generateMFMATile); the records here
// describe the instruction with those modifiers at 0, so the view holds
// the shared operand in every block's lanes, and whatever makes that
// operand (a load, a conversion) is priced for every copy.

// BlocksAlong names how a record view lays its blocks: "M" or "N", "" for
// a record that is not a view.
const (
	BlocksAlongM = "M"
	BlocksAlongN = "N"
)

// Blocking says how a view lays the blocks of its record ("16 blocks
// along N"); "" for a record that is not a view.
func (r *Record) Blocking() string {
	if r.Base == nil || r.BlocksAlong == "" {
		return ""
	}
	return fmt.Sprintf("%d blocks along %s", r.Base.Blocks, r.BlocksAlong)
}

// blockViews keeps the views of each multi-block record, so that every
// use of a record gets the same two views.
var blockViews sync.Map // *Record -> []*Record

// BlockViews returns the two-dimensional views of a multi-block mma
// record, blocks along M then along N (see above); nil for a record of
// one block, and for one whose fragments do not fold (a register digit
// selecting the block).
func (r *Record) BlockViews() []*Record {
	if r.Kind != RecordMMA || r.Blocks <= 1 {
		return nil
	}
	if v, ok := blockViews.Load(r); ok {
		return v.([]*Record)
	}
	var views []*Record
	for _, along := range []string{BlocksAlongM, BlocksAlongN} {
		v, err := blockView(r, along)
		if err != nil {
			views = nil
			break
		}
		views = append(views, v)
	}
	v, _ := blockViews.LoadOrStore(r, views)
	return v.([]*Record)
}

// BlockView returns the view of record r with its blocks along "M" or
// "N".
func (r *Record) BlockView(along string) (*Record, error) {
	for _, v := range r.BlockViews() {
		if v.BlocksAlong == along {
			return v, nil
		}
	}
	return nil, errorf(CodeBadValue, "blocks_along", "%s has no view with its blocks along %q (expected %q or %q on a multi-block mma)", r.Name, along, BlocksAlongM, BlocksAlongN)
}

// blockView folds every operand of r into two dimensions.
func blockView(r *Record, along string) (*Record, error) {
	v := *r
	v.Blocks, v.BlocksAlong, v.Base = 1, along, r
	if along == BlocksAlongM {
		v.M *= r.Blocks
	} else {
		v.N *= r.Blocks
	}
	v.Operands = map[string]*Operand{}
	for name, op := range r.Operands {
		f, err := foldOperand(op, name, along, v.OperandShape(name))
		if err != nil {
			return nil, fmt.Errorf("%s operand %s: %w", r.Name, name, err)
		}
		v.Operands[name] = f
	}
	return &v, nil
}

// foldOperand folds one [block, rows, cols] operand: the block index
// becomes the high part of M (along M) or N (along N), or, for the
// operand that lacks that dimension, drops out, every block holding the
// same elements.
func foldOperand(op *Operand, name, along string, shape []int) (*Operand, error) {
	f := *op
	f.Shape = shape
	if op.Layout == nil {
		return &f, nil
	}
	var l *Layout
	var err error
	switch {
	case along == BlocksAlongM && name == "b", along == BlocksAlongN && name == "a":
		// The operand without the blocks' dimension: dropping the
		// block index leaves the digits that chose the block selecting
		// nothing.
		l, err = op.Layout.Slice(0)
		if err == nil && l.Size(Register) != op.Layout.Size(Register) {
			err = fmt.Errorf("a register digit selects the block, so the blocks cannot hold one operand")
		}
		f.Duplicated = true
	case along == BlocksAlongM:
		// [block, rows, cols] row major is [block·rows + row, cols].
		l, err = op.Layout.Reshape(shape)
	default:
		// [block, rows, cols] to [rows, block, cols], then the block
		// and the column make one index.
		l, err = op.Layout.Transpose([]int{1, 0, 2})
		if err == nil {
			l, err = l.Reshape(shape)
		}
	}
	if err != nil {
		return nil, err
	}
	f.Layout = l
	return &f, nil
}
