package solver

import (
	"testing"

	"planner/model"
)

// readAsB follows a value to an mma's B operand through relabels and the
// loops that carry it, and no further.
func TestReadAsB(t *testing.T) {
	mma := func(a, b, c *model.Value) *model.Op {
		return &model.Op{Kind: model.OpMMA, Operands: []*model.Value{a, b, c}}
	}
	use := func(v *model.Value, u model.Use) { v.Uses = append(v.Uses, u) }
	a, b, c := &model.Value{Name: "a"}, &model.Value{Name: "b"}, &model.Value{Name: "c"}
	d := mma(a, b, c)
	use(a, model.Use{Op: d, Index: 0})
	use(b, model.Use{Op: d, Index: 1})
	use(c, model.Use{Op: d, Index: 2})
	if readAsB(a) || !readAsB(b) || readAsB(c) {
		t.Fatalf("direct operands: a %v, b %v, c %v; want only b", readAsB(a), readAsB(b), readAsB(c))
	}
	// A transposed block: bt -> transpose -> b2 -> B.
	bt, b2 := &model.Value{Name: "bt"}, &model.Value{Name: "b2"}
	tr := &model.Op{Kind: model.OpTranspose, Operands: []*model.Value{bt}, Result: b2}
	use(bt, model.Use{Op: tr, Index: 0})
	use(b2, model.Use{Op: mma(a, b2, c), Index: 1})
	if !readAsB(bt) {
		t.Fatal("a block transposed into B is not read as B")
	}
	// A load for the next trip: yielded, carried as the loop's argument,
	// read as B there.
	next, arg, res := &model.Value{Name: "next"}, &model.Value{Name: "arg"}, &model.Value{Name: "res"}
	loop := &model.Op{Kind: model.OpLoop, Body: &model.Loop{Args: []*model.Value{arg}, Results: []*model.Value{res}}}
	use(next, model.Use{Op: loop, Index: 0, Yield: true})
	use(arg, model.Use{Op: mma(a, arg, c), Index: 1})
	use(arg, model.Use{Op: loop, Index: 0, Yield: true}) // a cycle, cut
	if !readAsB(next) {
		t.Fatal("a value a loop carries into B is not read as B")
	}
}
