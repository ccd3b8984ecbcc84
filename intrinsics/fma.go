package intrinsics

import (
	"planner/model"
	"planner/tomlio"
)

// parseFMA reads an fma record: a scalar fused multiply-add each lane
// runs on its own elements, d = a·b + c, with the element type of each
// operand in [a] … [d] and nothing else (no shape, no layout: an FMA dot
// lays its operands out in blocked layouts of the planner's choosing).
// It may not give subgroup_size or cost: it runs in any subgroup and one
// FMA costs the target's alu weight.
func parseFMA(root *tomlio.Table, r *model.Record) bool {
	for _, key := range []string{"subgroup_size", "cost"} {
		if root.Has(key) {
			root.Errorf(key, model.CodeUnknownKey, "an fma record runs in every lane on its own elements and costs the target's alu weight: it takes no %s", key)
		}
	}
	ok := true
	for _, name := range []string{"a", "b", "c", "d"} {
		t, has := root.Sub(name, true)
		if !has {
			ok = false
			continue
		}
		t.Expect("dtype")
		op := &model.Operand{Name: name, Pos: t.Pos("")}
		if dt, has := t.String("dtype", true); has {
			d, known := model.ParseDType(dt)
			if !known {
				t.Errorf("dtype", model.CodeUnknownName, "unknown element type %q", dt)
			}
			op.DType = d
		}
		t.CheckUnknown()
		r.Operands[name] = op
	}
	return ok
}
