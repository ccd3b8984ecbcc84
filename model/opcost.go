package model

import "fmt"

// OpCost is the cost of one op under its choices, over all its runs (its
// trips): the result's layout (for ops whose result is laid out by the
// op), and the op's choice (intrinsic, arrangement, execution layout). The
// second result says how the op runs, for plans.
func OpCost(op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	return (*Memo)(nil).OpCost(op, result, ch, t)
}

// OpCost is OpCost, remembering in m what it works out of the layouts.
func (m *Memo) OpCost(op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if cost := op.Info().Cost; cost != nil {
		return cost(m, op, result, ch, t)
	}
	return 0, "", nil
}

// The op table's cost rules (OpInfo.Cost), each over all the op's trips.

// costLoop costs nothing itself (its body's ops count its trips); a loop
// whose trip count is dynamic says what count its body was priced at.
func costLoop(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if op.Body != nil && op.Body.Dynamic {
		return 0, fmt.Sprintf("trip count dynamic: priced as %d iterations (assumed)", op.Body.Trips), nil
	}
	return 0, "", nil
}

func costLoad(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if ch != nil && ch.Record != nil {
		return blockCost(m, op, result, ch, op.Result.DType.Bits, t)
	}
	c, v := GlobalLoadCost(result, op.Contiguous, op.Result.DType.Bits, t)
	return c * Trips(op.In), fmt.Sprintf("%d-element vectors", v) + reuseText(result, t), nil
}

// reuseText says, for a load's plan, how many subgroups read each of its
// sectors where the target prices their reuse (ReusedSectorCost).
func reuseText(l *Layout, t *Target) string {
	if n := l.SubgroupCopies(); n > 1 && t.Weights.L1Sector < t.Weights.GlobalSector {
		return fmt.Sprintf(", each sector read by %d subgroups (%d of them from L1)", n, n-1)
	}
	return ""
}

func costStore(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if ch == nil || ch.Exec == nil {
		return 0, "", fmt.Errorf("store %s has no layout to run in", op.Name)
	}
	if ch.Record != nil {
		return blockCost(m, op, ch.Exec, ch, op.Operands[0].DType.Bits, t)
	}
	c, v := GlobalAccessCost(ch.Exec, op.Contiguous, op.Operands[0].DType.Bits, t)
	return c * Trips(op.In), fmt.Sprintf("%d-element vectors", v), nil
}

func costCopyToShared(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if ch == nil || ch.Exec == nil {
		return 0, "", fmt.Errorf("copy %s has no layout to run in", op.Name)
	}
	if ch.Record != nil {
		return recordCost(m, op, ch.Exec, ch, t)
	}
	trips := Trips(op.In)
	if a, ok := m.OpAccess(op, nil, ch, t); ok {
		return vectorAccessCost(a, t) * trips, accessText(a), nil
	}
	c, v := SharedAccessCost(ch.Exec, op.Operands[0].DType.Bits, t)
	return c * trips, fmt.Sprintf("%d-element vectors", v), nil
}

func costLoadShared(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if result != nil && result.InShared() {
		return 0, "no load: left in shared memory, read by an mma through its descriptor", nil
	}
	if ch != nil && ch.Record != nil {
		return recordCost(m, op, result, ch, t)
	}
	trips := Trips(op.In)
	if a, ok := m.OpAccess(op, result, ch, t); ok {
		return vectorAccessCost(a, t) * trips, accessText(a), nil
	}
	c, v := SharedAccessCost(result, op.Result.DType.Bits, t)
	return c * trips, fmt.Sprintf("%d-element vectors", v), nil
}

func costMMA(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if ch == nil || ch.Record == nil {
		return 0, "", fmt.Errorf("mma %s has no intrinsic", op.Name)
	}
	if ch.Record.Kind == RecordFMA {
		return costFMA(op, result, ch, t)
	}
	n := MMAInstructions(op, ch)
	cost := int64(n) * ch.Record.Cost
	method := fmt.Sprintf("%s × %d per warp", ch.Record.Name, n)
	if a, ok := DescriptorAccess(op, ch, t); ok {
		// The operand the instruction reads from shared memory: its
		// wavefronts (the record's cost is its math alone).
		cost += int64(a.Wavefronts) * t.Weights.SharedWavefront
		i, buf := DescriptorOperand(op, ch.Record)
		mode, _ := ch.Buffer.DescriptorMode()
		method += fmt.Sprintf(", %s from buffer %s through its descriptor (swizzle %s): %d wavefronts per warp (%d without conflicts)",
			RoleName(op, i), buf.Name, mode, a.Wavefronts, a.Ideal)
	}
	return cost * Trips(op.In), method, nil
}

func costElementwise(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	return ElementwiseCost(result, op.Fn, t) * Trips(op.In), "", nil
}

func costCast(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	return int64(result.Size(Register)) * t.Weights.ALU * Trips(op.In), "", nil
}

func costReduce(m *Memo, op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	if ch == nil || ch.Exec == nil {
		return 0, "", fmt.Errorf("reduce %s has no layout to run in", op.Name)
	}
	c := ReduceCost(ch.Exec, op.Axis, op.Operands[0].DType.Bits, t)
	if len(op.Operands) == 2 {
		c += int64(result.Size(Register)) * t.Weights.ALU
	}
	return c * Trips(op.In), "", nil
}

// recordCost prices a shared-memory load or store through its record:
// the instructions that make (or take) layout l, each at the record's
// cost plus its issue, and the wavefronts its conflicts add when its
// buffer is placed (the record's cost is its conflict-free time).
func recordCost(m *Memo, op *Op, l *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	n, ok := m.LoadInstructions(l, ch.Record)
	if !ok {
		return 0, "", fmt.Errorf("%s cannot move the layout of %s", ch.Record.Name, op.Name)
	}
	cost := int64(n) * (ch.Record.Cost + t.Weights.Issue)
	method := fmt.Sprintf("%s × %d", ch.Record.Name, n)
	if a, ok := m.OpAccess(op, l, ch, t); ok {
		cost += int64(a.Conflicts()) * t.Weights.SharedWavefront
		method += fmt.Sprintf(", %d wavefronts (%d without conflicts)", a.Wavefronts, a.Ideal)
	}
	return cost * Trips(op.In), method, nil
}

// MMAInstructions is how many instructions one warp issues for op with
// the record and warp arrangement chosen.
func MMAInstructions(op *Op, ch *OpChoice) int {
	batch, m, k, n := MMADims(op)
	tm, tn := MMATile(ch)
	// Each warp runs its share of the tiles along M and N (and of a
	// batched mma's matrices); where there are fewer tiles than warps,
	// the warps hold copies and each runs one.
	share := func(tiles, warps int) int { return max(tiles/max(warps, 1), 1) }
	return share(batch, ch.WarpsB) * share(m/tm, ch.WarpsM) * share(n/tn, ch.WarpsN) * (k / ch.Record.K)
}

// LoadInstructions is how many instructions of a shared-memory load record
// produce layout l, and whether they can: l must be the record's fragment
// repeated, each instruction loading Matrices fragments.
func LoadInstructions(l *Layout, r *Record) (int, bool) {
	return (*Memo)(nil).LoadInstructions(l, r)
}

// LoadInstructions is LoadInstructions, remembering in m how l repeats
// the record's fragment.
func (m *Memo) LoadInstructions(l *Layout, r *Record) (int, bool) {
	if r.Fragment == nil || r.Fragment.Layout == nil || l.Size(Lane) != r.SubgroupSize {
		return 0, false
	}
	copies, ok := m.MatchFragment(l, r.Fragment.Layout)
	if !ok || copies%r.Matrices != 0 {
		return 0, false
	}
	return copies / r.Matrices, true
}

// fragmentMatch is MatchFragment's answer.
type fragmentMatch struct {
	copies int
	ok     bool
}

// UseCost is the cost of converting a value to the layout a use requires,
// over all the times the value is produced, and the conversion.
func UseCost(v *Value, from, to *Layout, t *Target) (int64, *Conversion, error) {
	return (*Memo)(nil).UseCost(v, from, to, t)
}

// UseCost is UseCost, with the conversion analysed once per pair of
// layouts and element width (Memo.Analyze) and its scratch accesses
// counted from m's tables, in a copy the caller owns.
func (m *Memo) UseCost(v *Value, from, to *Layout, t *Target) (int64, *Conversion, error) {
	shared, err := m.Analyze(from, to, v.DType.Bits)
	if err != nil {
		return 0, nil, err
	}
	c := new(Conversion)
	*c = *shared
	LowerShuffles(c, from, to, t)
	CountScratch(c, from, to, t, m.NewAccessCache())
	return ConversionCost(c, t, from.Size(Lane)) * ValueTrips(v), c, nil
}

// vectorAccessCost prices plain vector loads or stores: the issue of
// every instruction and every wavefront, conflicts included.
func vectorAccessCost(a Access, t *Target) int64 {
	return int64(a.Instructions)*t.Weights.Issue + int64(a.Wavefronts)*t.Weights.SharedWavefront
}

func accessText(a Access) string {
	return fmt.Sprintf("%d-element vectors, %d wavefronts (%d without conflicts)", a.Vector, a.Wavefronts, a.Ideal)
}

// RecordAccess counts the wavefronts a load record's reads of buffer buf
// take when they produce layout l: rows of RowBytes through one pointer
// each (ldmatrix), or vectors of Bytes per lane (ds_read). false when
// there is no placement to count against or the rule names no access.
func RecordAccess(buf *SharedLayout, l *Layout, r *Record, t *Target) (Access, bool) {
	return (*Memo)(nil).recordAccess(buf, l, r, t)
}

func (m *Memo) recordAccess(buf *SharedLayout, l *Layout, r *Record, t *Target) (Access, bool) {
	if buf == nil || l == nil || l.Rank() != 2 {
		return Access{}, false
	}
	switch mem := r.Memory; {
	case mem.Rule == "row_pointers", mem.Rule == "constant_stride" && mem.RowBytes > 0:
		banks, bankBytes := bankGeometry(t)
		return buf.accessRows(tablesOf(m, l), max(1, banks*bankBytes/mem.RowBytes), mem.RowBytes, t), true
	case mem.Rule == "vector":
		return m.AccessVectors(buf, l, max(1, mem.Bytes*8/buf.ElemBits), t), true
	}
	return Access{}, false
}

// OpAccess is how a copy_to_shared or load_shared op touches its buffer
// under its choices: its instructions and wavefronts, conflicts included.
// false when the op has no placed buffer to count against.
func OpAccess(op *Op, result *Layout, ch *OpChoice, t *Target) (Access, bool) {
	return (*Memo)(nil).OpAccess(op, result, ch, t)
}

// OpAccess is OpAccess, remembering in m what it counts.
func (m *Memo) OpAccess(op *Op, result *Layout, ch *OpChoice, t *Target) (Access, bool) {
	if ch == nil || ch.Buffer == nil || result != nil && result.InShared() {
		return Access{}, false // a value left in shared memory is not loaded
	}
	switch info := op.Info(); {
	case info.Memory != MemoryShared:
		return Access{}, false
	case info.Writes:
		if ch.Exec == nil {
			return Access{}, false
		}
		return m.AccessVectors(ch.Buffer, ch.Exec, vectorWidth(ch.Exec, ch.Buffer.ContiguousDim(ch.Exec.Rank()), op.Operands[0].DType.Bits), t), true
	case ch.Record != nil:
		return m.recordAccess(ch.Buffer, result, ch.Record, t)
	}
	return m.AccessVectors(ch.Buffer, result, vectorWidth(result, ch.Buffer.ContiguousDim(result.Rank()), op.Result.DType.Bits), t), true
}

// OpPattern is what a copy_to_shared or load_shared op touches under its
// choices, whatever the placement, with the alignment its record's rule
// asks of each access, for subgroup 0. false when the op does not access
// a buffer.
func OpPattern(op *Op, result *Layout, ch *OpChoice, t *Target) (AccessPattern, bool) {
	return opPatternBy(op, result, ch, t, 0)
}

// OpPatterns is OpPattern for every subgroup that holds other elements
// (Layout.SubgroupsApart), subgroup 0 first: an access costs what its
// busiest subgroup's pattern costs.
func OpPatterns(op *Op, result *Layout, ch *OpChoice, t *Target) ([]AccessPattern, bool) {
	l := result
	if info := op.Info(); info.Memory == MemoryShared && info.Writes && ch != nil {
		l = ch.Exec
	}
	if l == nil || l.InShared() {
		return nil, false
	}
	var out []AccessPattern
	for _, sub := range l.SubgroupsApart() {
		p, ok := opPatternBy(op, result, ch, t, sub)
		if !ok {
			return nil, false
		}
		out = append(out, p)
	}
	return out, true
}

// opPatternBy is OpPattern for subgroup sub.
func opPatternBy(op *Op, result *Layout, ch *OpChoice, t *Target, sub int) (AccessPattern, bool) {
	if ch == nil || ch.Record != nil && ch.Record.Memory.Rule == "constant_stride" {
		// A one-stride record (wmma.load, wmma.store) reads its tiles in
		// an order the architecture leaves unspecified: no pattern.
		return AccessPattern{}, false
	}
	switch info := op.Info(); {
	case info.Memory != MemoryShared:
		return AccessPattern{}, false
	case info.Writes:
		if ch.Exec == nil {
			return AccessPattern{}, false
		}
		bits := op.Operands[0].DType.Bits
		return VectorPatternBy(ch.Exec, vectorWidth(ch.Exec, ch.Exec.Rank()-1, bits), bits, t, sub), true
	default:
		bits := op.Result.DType.Bits
		if r := ch.Record; r != nil {
			switch m := r.Memory; m.Rule {
			case "row_pointers":
				banks, bankBytes := bankGeometry(t)
				p := RowPatternBy(result, max(1, banks*bankBytes/m.RowBytes), m.RowBytes, bits, sub)
				p.Align = m.Alignment
				return p, true
			case "vector":
				p := VectorPatternBy(result, max(1, m.Bytes*8/bits), bits, t, sub)
				p.Align = m.Alignment
				return p, true
			}
			return AccessPattern{}, false
		}
		return VectorPatternBy(result, vectorWidth(result, result.Rank()-1, bits), bits, t, sub), true
	}
}
