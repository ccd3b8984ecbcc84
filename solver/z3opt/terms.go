//go:build z3

package z3opt

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// bool and bv check the last call and wrap its term.
func (ctx *Context) bool(a C.Z3_ast) Bool {
	ctx.check()
	return Bool{ctx, a}
}

func (ctx *Context) bv(a C.Z3_ast) BV {
	ctx.check()
	return BV{ctx, a}
}

// Not is the negation.
func (b Bool) Not() Bool { return b.ctx.Not(b) }

// And is b and all of o.
func (b Bool) And(o ...Bool) Bool { return b.ctx.And(append([]Bool{b}, o...)...) }

// Or is b or any of o.
func (b Bool) Or(o ...Bool) Bool { return b.ctx.Or(append([]Bool{b}, o...)...) }

// Implies is b → o.
func (b Bool) Implies(o Bool) Bool { return b.ctx.Implies(b, o) }

// Ite is o where b holds, else e.
func (b Bool) Ite(o, e Bool) Bool { return b.ctx.bool(C.Z3_mk_ite(b.ctx.c, b.a, o.a, e.a)) }

// IfThenElse is t where b holds, else e.
func (b Bool) IfThenElse(t, e BV) BV { return b.ctx.bv(C.Z3_mk_ite(b.ctx.c, b.a, t.a, e.a)) }

// BVConst is a bit-vector unknown of width bits named name.
func (ctx *Context) BVConst(name string, width int) BV {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	sym := C.Z3_mk_string_symbol(ctx.c, cname)
	return ctx.bv(C.Z3_mk_const(ctx.c, sym, C.Z3_mk_bv_sort(ctx.c, C.uint(width))))
}

// BVNum is n as a bit-vector of width bits (modulo 2^width).
func (ctx *Context) BVNum(n int64, width int) BV {
	return ctx.bv(C.Z3_mk_int64(ctx.c, C.int64_t(n), C.Z3_mk_bv_sort(ctx.c, C.uint(width))))
}

// Add, Sub, Mul, Xor, And, Lsh (shift left), URsh (logical shift right)
// and URem (unsigned remainder) are the bit-vector operations of two
// terms of one width.
func (x BV) Add(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvadd(x.ctx.c, x.a, y.a)) }
func (x BV) Sub(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvsub(x.ctx.c, x.a, y.a)) }
func (x BV) Mul(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvmul(x.ctx.c, x.a, y.a)) }
func (x BV) Xor(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvxor(x.ctx.c, x.a, y.a)) }
func (x BV) And(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvand(x.ctx.c, x.a, y.a)) }
func (x BV) Lsh(y BV) BV  { return x.ctx.bv(C.Z3_mk_bvshl(x.ctx.c, x.a, y.a)) }
func (x BV) URsh(y BV) BV { return x.ctx.bv(C.Z3_mk_bvlshr(x.ctx.c, x.a, y.a)) }
func (x BV) URem(y BV) BV { return x.ctx.bv(C.Z3_mk_bvurem(x.ctx.c, x.a, y.a)) }

// Not is the bitwise complement.
func (x BV) Not() BV { return x.ctx.bv(C.Z3_mk_bvnot(x.ctx.c, x.a)) }

// Extract is bits hi down to lo.
func (x BV) Extract(hi, lo int) BV {
	return x.ctx.bv(C.Z3_mk_extract(x.ctx.c, C.uint(hi), C.uint(lo), x.a))
}

// Eq, NE and the unsigned comparisons.
func (x BV) Eq(y BV) Bool  { return x.ctx.bool(C.Z3_mk_eq(x.ctx.c, x.a, y.a)) }
func (x BV) NE(y BV) Bool  { return x.Eq(y).Not() }
func (x BV) ULT(y BV) Bool { return x.ctx.bool(C.Z3_mk_bvult(x.ctx.c, x.a, y.a)) }
func (x BV) ULE(y BV) Bool { return x.ctx.bool(C.Z3_mk_bvule(x.ctx.c, x.a, y.a)) }
func (x BV) UGT(y BV) Bool { return x.ctx.bool(C.Z3_mk_bvugt(x.ctx.c, x.a, y.a)) }
func (x BV) UGE(y BV) Bool { return x.ctx.bool(C.Z3_mk_bvuge(x.ctx.c, x.a, y.a)) }

// PBLe is the pseudo-Boolean constraint Σ coeffs[i]·bs[i] ≤ k
// (coefficients of either sign).
func (ctx *Context) PBLe(bs []Bool, coeffs []int, k int) Bool {
	if len(bs) != len(coeffs) {
		panic("z3opt: PBLe: terms and coefficients differ in number")
	}
	if len(bs) == 0 {
		return ctx.Const(0 <= k)
	}
	arr := asts(bs)
	defer C.free(unsafe.Pointer(arr))
	cs := (*C.int)(C.malloc(C.size_t(len(bs)) * C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(cs))
	for i, c := range coeffs {
		if c != int(C.int(c)) {
			panic(fmt.Sprintf("z3opt: PBLe: coefficient %d out of range", c))
		}
		unsafe.Slice(cs, len(bs))[i] = C.int(c)
	}
	return ctx.bool(C.Z3_mk_pble(ctx.c, C.uint(len(bs)), arr, cs, C.int(k)))
}

// BV is x's value in the model, unsigned (0 where the model leaves it
// free).
func (m *Model) BV(x BV) int64 {
	var v C.Z3_ast
	if !C.Z3_model_eval(m.ctx.c, m.m, x.a, true, &v) {
		m.ctx.check()
		panic("z3opt: cannot evaluate a bit-vector term")
	}
	var n C.uint64_t
	if !C.Z3_get_numeral_uint64(m.ctx.c, v, &n) {
		m.ctx.check()
		panic("z3opt: a bit-vector value is no number")
	}
	return int64(n)
}

// Push and Pop open and close a scope of the optimiser's assertions.
func (o *Optimize) Push() {
	C.Z3_optimize_push(o.ctx.c, o.o)
	o.ctx.check()
}

// Pop: see Push.
func (o *Optimize) Pop() {
	C.Z3_optimize_pop(o.ctx.c, o.o)
	o.ctx.check()
}
