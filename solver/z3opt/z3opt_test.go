//go:build z3

package z3opt

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Soft constraints find the cheapest of three exclusive choices, with a
// pair among them forbidden, and report the optimum as both bounds.
func TestOptimizeSoft(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	o := ctx.NewOptimize(time.Time{})
	a, b := []Bool{ctx.Var("a0"), ctx.Var("a1"), ctx.Var("a2")}, []Bool{ctx.Var("b0"), ctx.Var("b1")}
	o.Assert(ctx.ExactlyOne(a...))
	o.Assert(ctx.ExactlyOne(b...))
	costA, costB := []int64{1, 5, 9}, []int64{2, 7}
	var obj int
	for i, c := range costA {
		obj = o.AssertSoft(ctx.Not(a[i]), c, "cost")
	}
	for i, c := range costB {
		o.AssertSoft(ctx.Not(b[i]), c, "cost")
	}
	// a0 and b0 together are forbidden; a0 with b1 costs 3 more.
	o.Assert(ctx.Or(ctx.Not(a[0]), ctx.Not(b[0])))
	o.AssertSoft(ctx.Or(ctx.Not(a[0]), ctx.Not(b[1])), 3, "cost")
	if r := o.Check(); r != Sat {
		t.Fatalf("check: %v", r)
	}
	m := o.Model()
	var got []string
	for i := range a {
		if m.Value(a[i]) {
			got = append(got, fmt.Sprint("a", i))
		}
	}
	for i := range b {
		if m.Value(b[i]) {
			got = append(got, fmt.Sprint("b", i))
		}
	}
	// a1+b0 = 7, a0+b1 = 1+7+3 = 11, a2+b0 = 11.
	lo, ok1 := o.Lower(obj)
	hi, ok2 := o.Upper(obj)
	if !slices.Equal(got, []string{"a1", "b0"}) || !ok1 || !ok2 || lo != 7 || hi != 7 {
		t.Errorf("got %v with bounds %d..%d, want [a1 b0] at 7", got, lo, hi)
	}
}

// Exactly-one and at-most are pseudo-Boolean constraints: with one of
// two forced on, exactly-one of both is unsat under the other.
func TestPseudoBoolean(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	x, y, z := ctx.Var("x"), ctx.Var("y"), ctx.Var("z")
	if s := ctx.String(ctx.ExactlyOne(x, y, z)); !strings.Contains(s, "pbeq") {
		t.Errorf("exactly-one is %s, want a pseudo-Boolean equality", s)
	}
	s := ctx.NewSolver(time.Time{})
	s.Assert(ctx.ExactlyOne(x, y))
	s.Assert(ctx.AtMost(1, y, z))
	if r := s.Check(x, y); r != Unsat {
		t.Errorf("x and y under exactly-one: %v", r)
	}
	if r := s.Check(x, z); r != Sat {
		t.Errorf("x and z: %v", r)
	}
	if r := s.Check(y, z); r != Unsat {
		t.Errorf("y and z under at-most-one: %v", r)
	}
}

// The unsat core names the assumptions that conflict, not the others.
func TestUnsatCore(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	s := ctx.NewSolver(time.Time{})
	g := []Bool{ctx.Var("g0"), ctx.Var("g1"), ctx.Var("g2"), ctx.Var("g3")}
	x := ctx.Var("x")
	s.Assert(ctx.Implies(g[1], x))
	s.Assert(ctx.Implies(g[3], ctx.Not(x)))
	if r := s.Check(g...); r != Unsat {
		t.Fatalf("check: %v", r)
	}
	if core := s.Core(g); !slices.Equal(core, []int{1, 3}) {
		t.Errorf("core %v, want [1 3]", core)
	}
}

// pigeonhole asserts that holes+1 pigeons sit in holes holes, one each:
// unsat, and too hard to decide in a second for 14 holes.
func pigeonhole(ctx *Context, s *Solver, holes int) {
	p := make([][]Bool, holes+1)
	for i := range p {
		p[i] = make([]Bool, holes)
		for j := range p[i] {
			p[i][j] = ctx.Var(fmt.Sprintf("p%d_%d", i, j))
		}
		s.Assert(ctx.Or(p[i]...))
	}
	for j := range holes {
		for i := range p {
			for k := i + 1; k < len(p); k++ {
				s.Assert(ctx.Or(ctx.Not(p[i][j]), ctx.Not(p[k][j])))
			}
		}
	}
}

// A check past its deadline answers unknown, interrupted: the pigeonhole
// problem stops within about 200 ms, and a check that starts after the
// deadline (Z3 drops an interrupt while no check runs) stops too.
func TestInterruptAtDeadline(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	s := ctx.NewSolver(time.Time{}) // no timeout of its own: the interrupt stops it
	ctx.InterruptAt(time.Now().Add(200 * time.Millisecond))
	pigeonhole(ctx, s, 14)
	for k := range 2 {
		start := time.Now()
		if r := s.Check(); r != Unknown {
			t.Errorf("check %d: pigeonhole 14: %v", k, r)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("check %d ran %v past a 200 ms deadline", k, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A done channel closed before the check interrupts it.
func TestInterruptOnDone(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	s := ctx.NewSolver(time.Time{})
	pigeonhole(ctx, s, 14)
	done := make(chan struct{})
	close(done)
	ctx.InterruptOn(done)
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	if r := s.Check(); r != Unknown {
		t.Errorf("pigeonhole 14: %v", r)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the check ran %v after its context was cancelled", d)
	}
}

// A cancelled context's done channel interrupts the check, and Close
// frees every context: none stays open.
func TestInterruptOnAndClose(t *testing.T) {
	before := Open()
	done := make(chan struct{})
	ctx := NewContext()
	ctx.InterruptOn(done)
	close(done)
	time.Sleep(10 * time.Millisecond)
	ctx.Close()
	ctx.Close()
	ctx.Interrupt() // after Close: nothing
	for range 50 {
		c := NewContext()
		o := c.NewOptimize(time.Now().Add(time.Second))
		o.AssertSoft(c.Var("v"), 1, "cost")
		o.Check()
		o.Model()
		c.Close()
	}
	if n := Open(); n != before {
		t.Errorf("%d contexts open, want %d", n, before)
	}
}

// Z3's errors panic with its message (here an objective that does not
// exist).
func TestErrorPanics(t *testing.T) {
	ctx := NewContext()
	defer ctx.Close()
	o := ctx.NewOptimize(time.Time{})
	o.Check()
	defer func() {
		r := recover()
		if _, ok := r.(string); !ok {
			t.Errorf("recovered %v, want Z3's message", r)
		}
	}()
	o.Lower(3)
	t.Errorf("no panic")
}
