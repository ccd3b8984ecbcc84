package model

import "fmt"

// OpCost is the cost of one op under its choices, over all its runs (its
// trips): the result's layout (for ops whose result is laid out by the
// op), and the op's choice (intrinsic, arrangement, execution layout). The
// second result says how the op runs, for plans.
func OpCost(op *Op, result *Layout, ch *OpChoice, t *Target) (int64, string, error) {
	trips := Trips(op.In)
	bits := func(v *Value) int { return v.DType.Bits }
	switch op.Kind {
	case OpLoad:
		c, v := GlobalAccessCost(result, op.Contiguous, bits(op.Result), t)
		return c * trips, fmt.Sprintf("%d-element vectors", v), nil
	case OpStore:
		if ch == nil || ch.Exec == nil {
			return 0, "", fmt.Errorf("store %s has no layout to run in", op.Name)
		}
		c, v := GlobalAccessCost(ch.Exec, op.Contiguous, bits(op.Operands[0]), t)
		return c * trips, fmt.Sprintf("%d-element vectors", v), nil
	case OpCopyToShared:
		if ch == nil || ch.Exec == nil {
			return 0, "", fmt.Errorf("copy %s has no layout to run in", op.Name)
		}
		c, v := SharedAccessCost(ch.Exec, bits(op.Operands[0]), t)
		return c * trips, fmt.Sprintf("%d-element vectors", v), nil
	case OpLoadShared:
		if ch != nil && ch.Record != nil {
			n, ok := LoadInstructions(result, ch.Record)
			if !ok {
				return 0, "", fmt.Errorf("%s cannot produce the layout of %s", ch.Record.Name, op.Result.Name)
			}
			return int64(n) * (ch.Record.Cost + t.Weights.Issue) * trips, fmt.Sprintf("%s × %d", ch.Record.Name, n), nil
		}
		c, v := SharedAccessCost(result, bits(op.Result), t)
		return c * trips, fmt.Sprintf("%d-element vectors", v), nil
	case OpMMA:
		if ch == nil || ch.Record == nil {
			return 0, "", fmt.Errorf("mma %s has no intrinsic", op.Name)
		}
		n := MMAInstructions(op, ch)
		return int64(n) * ch.Record.Cost * trips, fmt.Sprintf("%s × %d per warp", ch.Record.Name, n), nil
	case OpElementwise:
		return ElementwiseCost(result, op.Fn, t) * trips, "", nil
	case OpCast:
		return int64(result.Size(Register)) * t.Weights.ALU * trips, "", nil
	case OpReduce:
		if ch == nil || ch.Exec == nil {
			return 0, "", fmt.Errorf("reduce %s has no layout to run in", op.Name)
		}
		c := ReduceCost(ch.Exec, op.Axis, bits(op.Operands[0]), t)
		if len(op.Operands) == 2 {
			c += int64(result.Size(Register)) * t.Weights.ALU
		}
		return c * trips, "", nil
	}
	return 0, "", nil
}

// MMAInstructions is how many instructions one warp issues for op with
// the record and warp arrangement chosen.
func MMAInstructions(op *Op, ch *OpChoice) int {
	a, b := op.Operands[0], op.Operands[1]
	m, k, n := a.Shape[0], a.Shape[1], b.Shape[1]
	r := ch.Record
	return (m / (r.M * ch.WarpsM)) * (n / (r.N * ch.WarpsN)) * (k / r.K)
}

// LoadInstructions is how many instructions of a shared-memory load record
// produce layout l, and whether they can: l must be the record's fragment
// repeated, each instruction loading Matrices fragments.
func LoadInstructions(l *Layout, r *Record) (int, bool) {
	if r.Fragment == nil || r.Fragment.Layout == nil || l.Size(Lane) != r.SubgroupSize {
		return 0, false
	}
	copies, ok := MatchFragment(l, r.Fragment.Layout)
	if !ok || copies%r.Matrices != 0 {
		return 0, false
	}
	return copies / r.Matrices, true
}

// UseCost is the cost of converting a value to the layout a use requires,
// over all the times the value is produced, and the conversion.
func UseCost(v *Value, from, to *Layout, t *Target) (int64, *Conversion, error) {
	c, err := Analyze(from, to, v.DType.Bits)
	if err != nil {
		return 0, nil, err
	}
	return ConversionCost(c, t, from.Size(Lane)) * ValueTrips(v), c, nil
}
