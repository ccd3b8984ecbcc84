package model

// A conversion's round trip through shared memory may read (or write) its
// scratch with a row-pointer record (ldmatrix, stmatrix) in place of plain
// vector accesses, as Triton lowers a layout conversion where the layouts
// allow it: ldmatrix (with .trans where the destination holds its elements
// across the scratch's rows) for the load, stmatrix on sm_90 for the store
// (triton-lang/triton, lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp
// and third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ConvertLayoutOpToLLVM.cpp,
// which try the ldmatrix/stmatrix lowering before the generic swizzled
// round trip; the compiled flash attention and transpose kernels of
// docs/compiled.md show ldmatrix.x4.trans reading a conversion's scratch).
//
// Which layouts a record serves is read from its fragment, never from its
// name: the fragment is one matrix of 8 rows (dimension 0, each row a
// RowBytes-long run of the scratch's fastest dimension, at an address of
// its own) by the elements of a row (dimension 1). A layout fits when, for
// some choice of its registers, each of the fragment's register and lane
// digits that selects an element within a row is the layout's digit of
// the same position of the scratch's fastest dimension, and the digits
// that select a row pick distinct rows: digits of other positions, jointly
// independent. The remaining register digits pick the record's matrices.

// rowAccess is one side of a round trip done with a row-pointer record.
type rowAccess struct {
	record *Record
	access Access
}

// rowRecords are the target's row-pointer records of kind k whose
// fragment has the element width given.
func rowRecords(t *Target, k RecordKind, elemBits int) []*Record {
	var out []*Record
	for _, r := range t.ScratchRows {
		if r.Kind == k && r.Fragment != nil && r.Fragment.DType.Bits == elemBits {
			out = append(out, r)
		}
	}
	return out
}

// rowFit says how many instructions a lane of l needs to move its
// registers through record r when the scratch's fastest dimension is
// fast, and whether r fits l at all.
func rowFit(l *Layout, fast int, r *Record) (instructions int, ok bool) {
	frag := r.Fragment.Layout
	if frag == nil || frag.Rank() != 2 || r.Memory.Rule != "row_pointers" {
		return 0, false
	}
	if !l.Radices(Lane).IsPow2() || !l.Radices(Register).IsPow2() || !l.DimRadices(fast).IsPow2() {
		return 0, false
	}
	fr, _ := frag.hwBits(Register)
	fl, _ := frag.hwBits(Lane)
	lr, _ := l.hwBits(Register)
	ll, _ := l.hwBits(Lane)
	if len(fl) != len(ll) || len(fr) > len(lr) {
		return 0, false
	}
	// The digits of the scratch's fastest dimension a row spans.
	var rowMask uint64
	rowDigits := 0
	for _, d := range frag.m.out.digits {
		if d.axis == 1 {
			rowDigits++
		}
	}
	within := make([]uint64, rowDigits) // l's image of position c of dimension fast
	for _, d := range l.m.out.digits {
		if d.axis == fast && d.radix == 2 && d.pos < rowDigits {
			within[d.pos] = 1 << uint(d.flat)
			rowMask |= 1 << uint(d.flat)
		}
	}
	for _, w := range within {
		if w == 0 {
			return 0, false // the dimension is shorter than a row
		}
	}
	rows := &basis{}
	// need checks one digit of l against the fragment digit img selects.
	need := func(img, have uint64) bool {
		ref := frag.m.out.digits
		for _, d := range ref {
			if img != 1<<uint(d.flat) {
				continue
			}
			if d.axis == 1 {
				return have == within[d.pos]
			}
			return have != 0 && have&rowMask == 0 && rows.add(have)
		}
		return false
	}
	for i, img := range fl {
		if !need(img, ll[i]) {
			return 0, false
		}
	}
	used := make([]bool, len(lr))
	for _, img := range fr {
		found := false
		for j, have := range lr {
			if used[j] {
				continue
			}
			snapshot := *rows
			if need(img, have) {
				used[j], found = true, true
				break
			}
			*rows = snapshot
		}
		if !found {
			return 0, false
		}
	}
	per := frag.Size(Register) * max(r.Matrices, 1)
	return ceilDiv(distinctPerLane(l), per), true
}

// rowSide prices moving l's registers through the best row-pointer
// record of kind k that fits it with the scratch's fastest dimension fast:
// every instruction moves its matrices' rows, one wavefront per Banks ×
// BankBytes bytes, assumed free of bank conflicts (Triton swizzles the
// scratch of an ldmatrix/stmatrix conversion for that: its
// getSharedLayout/optimalSwizzling in lib/Tools/GenericSwizzling.cpp).
func rowSide(l *Layout, fast, elemBits int, k RecordKind, t *Target) (rowAccess, bool) {
	var best rowAccess
	found := false
	for _, r := range rowRecords(t, k, elemBits) {
		n, ok := rowFit(l, fast, r)
		if !ok {
			continue
		}
		rowsPer := r.Fragment.Layout.shape[0]
		waves := ceilDiv(rowsPer*r.Memory.RowBytes, max(t.Banks*t.BankBytes, 1)) * max(r.Matrices, 1)
		a := Access{Instructions: n, Wavefronts: n * waves, Ideal: n * waves,
			Bytes: r.Fragment.Layout.Size(Register) * max(r.Matrices, 1) * elemBits / 8}
		a.Vector = a.Bytes * 8 / elemBits
		if !found || vectorAccessCost(a, t) < vectorAccessCost(best.access, t) {
			best, found = rowAccess{r, a}, true
		}
	}
	return best, found
}

// plainSide prices plain vector accesses of l along fast, free of bank
// conflicts (the swizzled scratch a row-pointer side shares with them).
func plainSide(l *Layout, fast, elemBits int, t *Target) Access {
	v := vectorWidth(l, fast, elemBits)
	n := ceilDiv(l.Size(Register), v)
	w := int(wavefronts(t, l.Size(Lane), v*elemBits/8))
	return Access{Instructions: n, Wavefronts: n * w, Ideal: n * w, Vector: v, Bytes: v * elemBits / 8}
}

// tryScratchRows replaces c's plain round trip (counted by CountScratch)
// with one that reads or writes the scratch with row-pointer records
// where that costs less, choosing the scratch's fastest dimension anew.
func tryScratchRows(c *Conversion, src, dst *Layout, t *Target) {
	if len(t.ScratchRows) == 0 || c.ElemBits%8 != 0 {
		return
	}
	cost := vectorAccessCost(c.StoreAccess, t) + vectorAccessCost(c.LoadAccess, t)
	for fast := dst.Rank() - 1; fast >= 0; fast-- {
		ld, loadRows := rowSide(dst, fast, c.ElemBits, RecordLoadShared, t)
		st, storeRows := rowSide(src, fast, c.ElemBits, RecordStoreShared, t)
		if !loadRows && !storeRows {
			continue
		}
		store, load := plainSide(src, fast, c.ElemBits, t), plainSide(dst, fast, c.ElemBits, t)
		storeRec, loadRec := "", ""
		if storeRows && vectorAccessCost(st.access, t) < vectorAccessCost(store, t) {
			store, storeRec = st.access, st.record.Name
		}
		if loadRows && vectorAccessCost(ld.access, t) < vectorAccessCost(load, t) {
			load, loadRec = ld.access, ld.record.Name
		}
		if storeRec == "" && loadRec == "" {
			continue
		}
		if total := vectorAccessCost(store, t) + vectorAccessCost(load, t); total < cost {
			cost = total
			c.ScratchOrder = append(make([]int, 0, dst.Rank()), fast) // fresh: a copied Conversion shares the old one
			for d := dst.Rank() - 1; d >= 0; d-- {
				if d != fast {
					c.ScratchOrder = append(c.ScratchOrder, d)
				}
			}
			if c.ScratchPad > 0 {
				c.ScratchBytes = (src.Elements()*c.ElemBits + 7) / 8
			}
			c.ScratchPad = 0
			c.StoreAccess, c.LoadAccess = store, load
			c.StoreRecord, c.LoadRecord = storeRec, loadRec
			// The data each lane moves, element by element, for the
			// verifier's replay: a row-pointer side is replayed one
			// element at a time (it moves the same elements).
			c.StoreVector, c.Stores = 1, store.Instructions
			if storeRec == "" {
				c.StoreVector = store.Vector
			}
			c.LoadVector, c.Loads = 1, load.Instructions
			if loadRec == "" {
				c.LoadVector = load.Vector
			}
		}
	}
}
