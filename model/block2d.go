package model

import (
	"fmt"
	"sync"
)

// Global block records (Intel's 2D block loads and stores,
// docs/records.md): how a load or store of a value in a layout runs as
// their messages, and what each message costs.

// blockFragments remembers BlockFragment's views, per record and width.
var blockFragments sync.Map // [blockFragmentKey]*Layout

type blockFragmentKey struct {
	r    *Record
	bits int
}

// BlockFragment is the register layout one message of global block record
// r moves, in elements of bits: the record's own fragment when its element
// is that wide; for a record of wider elements (32-bit words read for
// 16-bit data: the transposing block load, which Intel documents for
// 32-bit data only), each word split into its elements along the
// fragment's last dimension, the one contiguous in memory, the element at
// the lower address in the lower bits (Intel GPUs are little-endian), so
// that a lane holds the elements of its words as consecutive values. nil
// when r has no fragment or its element is narrower than bits or not a
// multiple of it.
func BlockFragment(r *Record, bits int) *Layout {
	f := r.Fragment
	if f == nil || f.Layout == nil || bits <= 0 || f.DType.Bits < bits || f.DType.Bits%bits != 0 || f.Layout.Rank() != 2 {
		return nil
	}
	if f.DType.Bits == bits {
		return f.Layout
	}
	k := blockFragmentKey{r, bits}
	if v, ok := blockFragments.Load(k); ok {
		return v.(*Layout)
	}
	split := f.DType.Bits / bits
	rad := RadicesOf(split)
	images := make([]Image, len(rad))
	for i := range rad {
		images[i] = Image{{Axis: 1, Digit: i}}
	}
	word, err := NewLayout([NumHwDims]Radices{rad, nil, nil, nil}, []Radices{nil, rad}, [NumHwDims][]Image{images})
	if err != nil {
		return nil
	}
	view, err := word.Product(f.Layout)
	if err != nil {
		return nil
	}
	v, _ := blockFragments.LoadOrStore(k, view)
	return v.(*Layout)
}

// PacksPairs reports whether a message of r for elements of bits packs
// several consecutive rows (VNNI, transform = "vnni") or memory columns
// (a wider element split, BlockFragment) into each lane's 32-bit words:
// the packing Intel's DPAS reads its B operand in, which no other
// consumer takes.
func PacksPairs(r *Record, bits int) bool {
	return r.Transform == "vnni" || r.Fragment != nil && r.Fragment.DType.Bits > bits
}

// BlockMessages is Memo.BlockMessages without a memo.
func BlockMessages(op *Op, l *Layout, r *Record, bits int) (int, error) {
	return (*Memo)(nil).BlockMessages(op, l, r, bits)
}

// BlockMessages is how many messages of global block record r move op's
// value in layout l (the result of a load, the layout a store runs in),
// or why r cannot: the access must be two-dimensional, contiguous along
// its last dimension, on a surface the input states (Op.Surface) and
// the record's memory rule admits, and l must be the record's fragment
// (BlockFragment) repeated, each repeat a message of its own.
func (m *Memo) BlockMessages(op *Op, l *Layout, r *Record, bits int) (int, error) {
	if r.Kind != RecordLoadGlobal && r.Kind != RecordStoreGlobal {
		return 0, fmt.Errorf("%s is not a global block record", r.Name)
	}
	if op.Surface == nil {
		return 0, fmt.Errorf("the input does not say which surface %s accesses", op.Name)
	}
	if l == nil || l.Rank() != 2 || op.Contiguous != 1 {
		return 0, fmt.Errorf("%s is not a two-dimensional access contiguous along its last dimension", op.Name)
	}
	if err := r.Memory.AdmitsSurface(*op.Surface); err != nil {
		return 0, err
	}
	frag := BlockFragment(r, bits)
	if frag == nil || l.Size(Lane) != r.SubgroupSize {
		return 0, fmt.Errorf("%s moves %d-bit elements over %d lanes", r.Name, r.Fragment.DType.Bits, r.SubgroupSize)
	}
	copies, ok := m.MatchFragment(l, frag)
	if !ok {
		return 0, fmt.Errorf("the layout is not %s's fragment repeated", r.Name)
	}
	return copies, nil
}

// blockCost prices op's access of l as messages of its record: a load's
// messages with the reuse of the sectors other subgroups read too
// (ReusedSectorCost, the record's cost being its sectors at the target's
// GlobalSector), as a vector load's are.
func blockCost(m *Memo, op *Op, l *Layout, ch *OpChoice, bits int, t *Target) (int64, string, error) {
	n, err := m.BlockMessages(op, l, ch.Record, bits)
	if err != nil {
		return 0, "", fmt.Errorf("%s cannot move %s: %v", ch.Record.Name, op.Name, err)
	}
	each, method := ch.Record.Cost, fmt.Sprintf("%s × %d", ch.Record.Name, n)
	if ch.Record.Kind == RecordLoadGlobal {
		each = ReusedSectorCost(each, l.SubgroupCopies(), t)
		method += reuseText(l, t)
	}
	return int64(n) * (each + t.Weights.Issue) * Trips(op.In), method, nil
}
