package plans

import (
	"slices"
	"testing"

	"planner/model"
)

// A loop's crossings are the shared-memory conversions of the ops in its
// body (nested loops included) and of its carried values' yields, which
// run in every trip; a carried value's init is converted once, before the
// loop, and a conversion outside the loop is not the loop's.
func TestLoopCrossingsAreInsideTheLoop(t *testing.T) {
	inner := &model.Op{Name: "inner", Kind: model.OpLoop, Body: &model.Loop{Ops: []*model.Op{{Name: "y", Kind: model.OpElementwise}}}}
	loop := &model.Op{Name: "L", Kind: model.OpLoop, Body: &model.Loop{Ops: []*model.Op{{Name: "x", Kind: model.OpElementwise}, inner}}}
	shared := model.ConvShared.String()
	p := &Plan{Conv: []ConvPlan{
		{Value: "acc0", Consumer: "L", Operand: "init of acc", Kind: shared},
		{Value: "t", Consumer: "x", Operand: "operand 0", Kind: shared, Because: "x's layout", Why: "a bit held in another subgroup"},
		{Value: "u", Consumer: "x", Operand: "operand 1", Kind: model.ConvShuffle.String()},
		{Value: "w", Consumer: "y", Operand: "operand 0", Kind: shared},
		{Value: "acc_next", Consumer: "L", Operand: "yield of acc", Kind: shared},
		{Value: "o", Consumer: "after", Operand: "operand 0", Kind: shared},
	}}
	lp := answerLoop(loop, p, map[string]*OpPlan{})
	var got []string
	for _, c := range lp.Crossings {
		got = append(got, c.Value+" at "+c.Op)
	}
	if want := []string{"t at x", "w at y", "acc_next at L"}; !slices.Equal(got, want) {
		t.Errorf("crossings %q, want %q", got, want)
	}
	if lp.RegistersOnly {
		t.Error("a loop with crossings is said to run in registers only")
	}
	if why := lp.Crossings[0].Why; why != "x (operand 0) requires x's layout; a bit held in another subgroup" {
		t.Errorf("the crossing of %%t says %q", why)
	}
}
