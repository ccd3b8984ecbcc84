//go:build z3

// Package z3opt is a small cgo binding of Z3's C API
// (/usr/include/z3_api.h, z3_optimization.h) for the smt backends: the
// optimiser (MaxSMT with soft constraints, objective bounds),
// pseudo-Boolean constraints, checks under assumptions with their unsat
// cores (none of which github.com/aclements/go-z3 binds), and the
// Boolean and bit-vector terms the backends build, their methods named
// as go-z3's. Optimiser and terms must share one Z3 context, and go-z3
// keeps its context's C pointer unexported, so the binding makes its
// own and builds every term through the C API; the backends no longer
// use go-z3.
//
// A Context is made by one solve and closed by it: Close frees everything
// Z3 holds for it. Z3's errors (a misuse of the API) panic with Z3's
// message, so that the backend's recovery reports them as failures.
package z3opt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// open counts the contexts not yet closed, for the tests' leak check.
var open atomic.Int64

// Open is the number of contexts made and not yet closed.
func Open() int64 { return open.Load() }

// Context is one Z3 context. Its terms (Bool, BV) live until Close.
// Its methods are for one goroutine, except Interrupt.
type Context struct {
	c       C.Z3_context
	mu      sync.Mutex // guards closed against Interrupt
	closed  bool
	closing chan struct{} // closed by Close
	timers  []*time.Timer
	free    []func() // dec_refs of the optimisers, solvers and models
}

// Bool is a Boolean term of a Context; the zero Bool is none.
type Bool struct {
	ctx *Context
	a   C.Z3_ast
}

// BV is a bit-vector term of a Context.
type BV struct {
	ctx *Context
	a   C.Z3_ast
}

// NewContext makes a context. Its terms are freed with it: it is made
// with Z3_mk_context, whose terms' references Z3 counts itself, and the
// solvers, models and vectors made here are counted by hand.
func NewContext() *Context {
	cfg := C.Z3_mk_config()
	defer C.Z3_del_config(cfg)
	model := C.CString("model")
	defer C.free(unsafe.Pointer(model))
	yes := C.CString("true")
	defer C.free(unsafe.Pointer(yes))
	C.Z3_set_param_value(cfg, model, yes)
	ctx := &Context{c: C.Z3_mk_context(cfg), closing: make(chan struct{})}
	// No handler: an error sets the error code, which check reads
	// after every call (Z3's default handler would exit the process).
	C.Z3_set_error_handler(ctx.c, nil)
	open.Add(1)
	return ctx
}

// Close frees the context and everything made in it. It may be called
// more than once.
func (ctx *Context) Close() {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.closed {
		return
	}
	for _, t := range ctx.timers {
		t.Stop()
	}
	close(ctx.closing)
	for _, f := range ctx.free {
		f()
	}
	ctx.closed = true
	C.Z3_del_context(ctx.c)
	open.Add(-1)
}

// Interrupt stops the check running in the context, which then answers
// unknown. It may be called from any goroutine, also after Close.
func (ctx *Context) Interrupt() {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if !ctx.closed {
		C.Z3_interrupt(ctx.c)
	}
}

// InterruptAt interrupts the context's checks from the deadline on (a
// zero deadline: never), and InterruptOn once done is closed (nil:
// never): the checks of a solve stop at its time limit and when its
// context is cancelled. Z3 drops an interrupt that comes while no check
// runs, so from then on the context is interrupted every few
// milliseconds until Close: a check started later stops too.
func (ctx *Context) InterruptAt(deadline time.Time) {
	if deadline.IsZero() {
		return
	}
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	ctx.timers = append(ctx.timers, time.AfterFunc(time.Until(deadline), ctx.keepInterrupting))
}

// InterruptOn: see InterruptAt.
func (ctx *Context) InterruptOn(done <-chan struct{}) {
	if done == nil {
		return
	}
	go func() {
		select {
		case <-done:
			ctx.keepInterrupting()
		case <-ctx.closing:
		}
	}()
}

// keepInterrupting interrupts the context every few milliseconds until
// it is closed.
func (ctx *Context) keepInterrupting() {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		ctx.Interrupt()
		select {
		case <-t.C:
		case <-ctx.closing:
			return
		}
	}
}

// check panics with Z3's message if the last call failed.
func (ctx *Context) check() {
	if code := C.Z3_get_error_code(ctx.c); code != C.Z3_OK {
		panic(C.GoString(C.Z3_get_error_msg(ctx.c, code)))
	}
}

// Var is a Boolean unknown named name.
func (ctx *Context) Var(name string) Bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	sym := C.Z3_mk_string_symbol(ctx.c, cname)
	a := C.Z3_mk_const(ctx.c, sym, C.Z3_mk_bool_sort(ctx.c))
	ctx.check()
	return Bool{ctx, a}
}

// Const is true or false.
func (ctx *Context) Const(v bool) Bool {
	var a C.Z3_ast
	if v {
		a = C.Z3_mk_true(ctx.c)
	} else {
		a = C.Z3_mk_false(ctx.c)
	}
	ctx.check()
	return Bool{ctx, a}
}

// Not is the negation of b.
func (ctx *Context) Not(b Bool) Bool {
	a := C.Z3_mk_not(ctx.c, b.a)
	ctx.check()
	return Bool{ctx, a}
}

// asts is bs as a C array (in C memory, freed by the caller), nil for
// none.
func asts(bs []Bool) *C.Z3_ast {
	if len(bs) == 0 {
		return nil
	}
	arr := (*C.Z3_ast)(C.malloc(C.size_t(len(bs)) * C.size_t(unsafe.Sizeof(C.Z3_ast(nil)))))
	s := unsafe.Slice(arr, len(bs))
	for i, b := range bs {
		s[i] = b.a
	}
	return arr
}

// Or is the disjunction of bs (false for none).
func (ctx *Context) Or(bs ...Bool) Bool {
	if len(bs) == 0 {
		return ctx.Const(false)
	}
	arr := asts(bs)
	defer C.free(unsafe.Pointer(arr))
	a := C.Z3_mk_or(ctx.c, C.uint(len(bs)), arr)
	ctx.check()
	return Bool{ctx, a}
}

// And is the conjunction of bs (true for none).
func (ctx *Context) And(bs ...Bool) Bool {
	if len(bs) == 0 {
		return ctx.Const(true)
	}
	arr := asts(bs)
	defer C.free(unsafe.Pointer(arr))
	a := C.Z3_mk_and(ctx.c, C.uint(len(bs)), arr)
	ctx.check()
	return Bool{ctx, a}
}

// Implies is a → b.
func (ctx *Context) Implies(a, b Bool) Bool {
	r := C.Z3_mk_implies(ctx.c, a.a, b.a)
	ctx.check()
	return Bool{ctx, r}
}

// ExactlyOne is the pseudo-Boolean constraint that exactly one of bs
// holds (Z3_mk_pbeq with unit coefficients).
func (ctx *Context) ExactlyOne(bs ...Bool) Bool {
	if len(bs) == 0 {
		return ctx.Const(false)
	}
	arr := asts(bs)
	defer C.free(unsafe.Pointer(arr))
	coeffs := (*C.int)(C.malloc(C.size_t(len(bs)) * C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(coeffs))
	for i := range unsafe.Slice(coeffs, len(bs)) {
		unsafe.Slice(coeffs, len(bs))[i] = 1
	}
	a := C.Z3_mk_pbeq(ctx.c, C.uint(len(bs)), arr, coeffs, 1)
	ctx.check()
	return Bool{ctx, a}
}

// AtMost is the pseudo-Boolean constraint that at most k of bs hold.
func (ctx *Context) AtMost(k int, bs ...Bool) Bool {
	if len(bs) == 0 {
		return ctx.Const(k >= 0)
	}
	arr := asts(bs)
	defer C.free(unsafe.Pointer(arr))
	a := C.Z3_mk_atmost(ctx.c, C.uint(len(bs)), arr, C.uint(k))
	ctx.check()
	return Bool{ctx, a}
}

// String is b in SMT-LIB.
func (ctx *Context) String(b Bool) string {
	s := C.GoString(C.Z3_ast_to_string(ctx.c, b.a))
	ctx.check()
	return s
}

// Result is the answer of a check.
type Result int

const (
	Unknown Result = iota // stopped (interrupt, timeout) or undecided
	Sat
	Unsat
)

func result(l C.Z3_lbool) Result {
	switch l {
	case C.Z3_L_TRUE:
		return Sat
	case C.Z3_L_FALSE:
		return Unsat
	}
	return Unknown
}

func (r Result) String() string { return [...]string{"unknown", "sat", "unsat"}[r] }

// params is a parameter set with a timeout in milliseconds until
// deadline (none for a zero deadline), and with unsat cores for a
// solver that checks assumptions. The caller dec_refs it.
func (ctx *Context) params(deadline time.Time, cores bool) C.Z3_params {
	p := C.Z3_mk_params(ctx.c)
	C.Z3_params_inc_ref(ctx.c, p)
	if !deadline.IsZero() {
		ms := max(time.Until(deadline).Milliseconds(), 1)
		name := C.CString("timeout")
		defer C.free(unsafe.Pointer(name))
		C.Z3_params_set_uint(ctx.c, p, C.Z3_mk_string_symbol(ctx.c, name), C.uint(min(ms, 1<<31)))
	}
	if cores {
		name := C.CString("unsat_core")
		defer C.free(unsafe.Pointer(name))
		C.Z3_params_set_bool(ctx.c, p, C.Z3_mk_string_symbol(ctx.c, name), true)
	}
	ctx.check()
	return p
}

// Optimize is Z3's optimiser: hard constraints, soft ones with weights
// (MaxSMT), and their optimum. It is freed with its context.
type Optimize struct {
	ctx *Context
	o   C.Z3_optimize
}

// NewOptimize makes an optimiser whose checks give up at deadline (none
// for zero) with unknown. It is freed with its context.
func (ctx *Context) NewOptimize(deadline time.Time) *Optimize {
	o := C.Z3_mk_optimize(ctx.c)
	ctx.check()
	C.Z3_optimize_inc_ref(ctx.c, o)
	ctx.free = append(ctx.free, func() { C.Z3_optimize_dec_ref(ctx.c, o) })
	p := ctx.params(deadline, false)
	C.Z3_optimize_set_params(ctx.c, o, p)
	C.Z3_params_dec_ref(ctx.c, p)
	ctx.check()
	return &Optimize{ctx: ctx, o: o}
}

// Assert adds a hard constraint.
func (o *Optimize) Assert(b Bool) {
	C.Z3_optimize_assert(o.ctx.c, o.o, b.a)
	o.ctx.check()
}

// AssertSoft adds a soft constraint: leaving b false costs weight (more
// than 0). Soft constraints of one group add up into one objective,
// whose index it returns.
func (o *Optimize) AssertSoft(b Bool, weight int64, group string) int {
	w := C.CString(strconv.FormatInt(weight, 10))
	defer C.free(unsafe.Pointer(w))
	g := C.CString(group)
	defer C.free(unsafe.Pointer(g))
	i := C.Z3_optimize_assert_soft(o.ctx.c, o.o, b.a, w, C.Z3_mk_string_symbol(o.ctx.c, g))
	o.ctx.check()
	return int(i)
}

// Check looks for the optimum: Sat once it is proven (Lower equals
// Upper), Unsat when the hard constraints cannot hold, Unknown when
// stopped (Model may then hold the best found).
func (o *Optimize) Check() Result {
	r := C.Z3_optimize_check(o.ctx.c, o.o, 0, nil)
	o.ctx.check()
	return result(r)
}

// ReasonUnknown says why the last check answered unknown.
func (o *Optimize) ReasonUnknown() string {
	s := C.GoString(C.Z3_optimize_get_reason_unknown(o.ctx.c, o.o))
	o.ctx.check()
	return s
}

// Model is the last check's model, nil if there is none.
func (o *Optimize) Model() *Model {
	m := C.Z3_optimize_get_model(o.ctx.c, o.o)
	if C.Z3_get_error_code(o.ctx.c) != C.Z3_OK || m == nil {
		return nil
	}
	return o.ctx.model(m)
}

// Lower and Upper are objective i's bounds after a check; ok is false
// where Z3 gives no integer (an infinite bound).
func (o *Optimize) Lower(i int) (int64, bool) {
	return o.ctx.numeral(C.Z3_optimize_get_lower(o.ctx.c, o.o, C.uint(i)))
}

// Upper: see Lower.
func (o *Optimize) Upper(i int) (int64, bool) {
	return o.ctx.numeral(C.Z3_optimize_get_upper(o.ctx.c, o.o, C.uint(i)))
}

// numeral reads an integer term.
func (ctx *Context) numeral(a C.Z3_ast) (int64, bool) {
	ctx.check()
	var v C.int64_t
	if !C.Z3_get_numeral_int64(ctx.c, a, &v) {
		C.Z3_set_error(ctx.c, C.Z3_OK) // not an integer: no error
		return 0, false
	}
	return int64(v), true
}

// Model is a model of a check, freed with its context.
type Model struct {
	ctx *Context
	m   C.Z3_model
}

func (ctx *Context) model(m C.Z3_model) *Model {
	C.Z3_model_inc_ref(ctx.c, m)
	ctx.free = append(ctx.free, func() { C.Z3_model_dec_ref(ctx.c, m) })
	return &Model{ctx: ctx, m: m}
}

// Value is b's value in the model (false where the model leaves it
// free).
func (m *Model) Value(b Bool) bool {
	var v C.Z3_ast
	if !C.Z3_model_eval(m.ctx.c, m.m, b.a, true, &v) {
		m.ctx.check()
		panic(fmt.Sprintf("z3opt: cannot evaluate %s", m.ctx.String(b)))
	}
	return C.Z3_get_bool_value(m.ctx.c, v) == C.Z3_L_TRUE
}

// Solver is Z3's solver, for checks under assumptions and their unsat
// cores.
type Solver struct {
	ctx *Context
	s   C.Z3_solver
}

// NewSolver makes a solver whose checks give up at deadline (none for
// zero) with unknown. It is freed with its context.
func (ctx *Context) NewSolver(deadline time.Time) *Solver {
	s := C.Z3_mk_solver(ctx.c)
	ctx.check()
	C.Z3_solver_inc_ref(ctx.c, s)
	ctx.free = append(ctx.free, func() { C.Z3_solver_dec_ref(ctx.c, s) })
	p := ctx.params(deadline, true)
	C.Z3_solver_set_params(ctx.c, s, p)
	C.Z3_params_dec_ref(ctx.c, p)
	ctx.check()
	return &Solver{ctx: ctx, s: s}
}

// Assert adds a constraint.
func (s *Solver) Assert(b Bool) {
	C.Z3_solver_assert(s.ctx.c, s.s, b.a)
	s.ctx.check()
}

// Check decides the constraints with the assumptions (Boolean unknowns
// or their negations) taken to hold.
func (s *Solver) Check(assumptions ...Bool) Result {
	arr := asts(assumptions)
	defer C.free(unsafe.Pointer(arr))
	r := C.Z3_solver_check_assumptions(s.ctx.c, s.s, C.uint(len(assumptions)), arr)
	s.ctx.check()
	return result(r)
}

// Core is, after a check answered Unsat, the indices in assumptions of
// those that the unsat core Z3 found uses: they alone cannot hold with
// the constraints. assumptions must be the last check's.
func (s *Solver) Core(assumptions []Bool) []int {
	v := C.Z3_solver_get_unsat_core(s.ctx.c, s.s)
	s.ctx.check()
	C.Z3_ast_vector_inc_ref(s.ctx.c, v)
	defer C.Z3_ast_vector_dec_ref(s.ctx.c, v)
	in := map[C.uint]bool{}
	for i := range C.Z3_ast_vector_size(s.ctx.c, v) {
		in[C.Z3_get_ast_id(s.ctx.c, C.Z3_ast_vector_get(s.ctx.c, v, i))] = true
	}
	s.ctx.check()
	var out []int
	for i, a := range assumptions {
		if in[C.Z3_get_ast_id(s.ctx.c, a.a)] {
			out = append(out, i)
		}
	}
	return out
}

// Model is the last check's model, nil if there is none.
func (s *Solver) Model() *Model {
	m := C.Z3_solver_get_model(s.ctx.c, s.s)
	if C.Z3_get_error_code(s.ctx.c) != C.Z3_OK || m == nil {
		return nil
	}
	return s.ctx.model(m)
}
