package ir

import (
	"slices"
	"strconv"
	"strings"
)

// AffineMap is affine_map<(d0, d1)[s0] -> (results)> (mlir/docs/Dialects/Affine.md,
// "Affine Expressions"): dimensions and symbols by the names written,
// results as expressions over them.
type AffineMap struct {
	Dims, Syms []string
	Results    []*AffineExpr
}

// String prints the map as MLIR does, dimensions named d0, d1, ... and
// symbols s0, s1, ..., so that two spellings of one map print alike.
func (m *AffineMap) String() string {
	s := "(" + strings.Join(numbered("d", len(m.Dims)), ", ") + ")"
	if len(m.Syms) > 0 {
		s += "[" + strings.Join(numbered("s", len(m.Syms)), ", ") + "]"
	}
	res := make([]string, len(m.Results))
	for i, r := range m.Results {
		res[i] = r.format(m, 0)
	}
	return s + " -> (" + strings.Join(res, ", ") + ")"
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

// ResultDims gives, for each result, the dimension it is (-1 for the
// constant 0, a broadcast in a transfer's permutation map); false when a
// result is anything else.
func (m *AffineMap) ResultDims() ([]int, bool) {
	out := make([]int, len(m.Results))
	for i, r := range m.Results {
		switch {
		case r.Kind == ExprDim:
			out[i] = r.Pos
		case r.Kind == ExprConst && r.Value == 0:
			out[i] = -1
		default:
			return nil, false
		}
	}
	return out, true
}

// ExprKind says what an affine expression is.
type ExprKind int

const (
	ExprDim ExprKind = iota
	ExprSym
	ExprConst
	ExprAdd
	ExprMul
	ExprMod
	ExprFloorDiv
	ExprCeilDiv
)

// AffineExpr is one expression of a map: a dimension or symbol (Pos), a
// constant (Value), or an operation on L and R.
type AffineExpr struct {
	Kind  ExprKind
	Pos   int
	Value int64
	L, R  *AffineExpr
}

var exprOps = map[ExprKind]string{ExprAdd: " + ", ExprMul: " * ", ExprMod: " mod ", ExprFloorDiv: " floordiv ", ExprCeilDiv: " ceildiv "}

func (e *AffineExpr) format(m *AffineMap, parent int) string {
	switch e.Kind {
	case ExprDim:
		return "d" + strconv.Itoa(e.Pos)
	case ExprSym:
		return "s" + strconv.Itoa(e.Pos)
	case ExprConst:
		return strconv.FormatInt(e.Value, 10)
	}
	prec := 2
	if e.Kind == ExprAdd {
		prec = 1
	}
	s := e.L.format(m, prec) + exprOps[e.Kind] + e.R.format(m, prec+1)
	if prec < parent {
		s = "(" + s + ")"
	}
	return s
}

// symbolic reports whether e uses no dimension.
func (e *AffineExpr) symbolic() bool {
	switch e.Kind {
	case ExprDim:
		return false
	case ExprSym, ExprConst:
		return true
	}
	return e.L.symbolic() && e.R.symbolic()
}

// parseAffineMap reads the inside of affine_map<...> (the parser stands
// after the '<') up to and including the closing '>'.
func (p *parser) parseAffineMap() *AffineMap {
	m := &AffineMap{}
	names := map[string]bool{}
	readIDs := func(open, close string, into *[]string) {
		if !p.expect(open, "to open the map's "+map[string]string{"(": "dimensions", "[": "symbols"}[open]) {
			return
		}
		if p.tok.is(close) {
			p.nextTok()
			return
		}
		for p.ok() {
			if p.tok.kind != tBareID {
				p.failf(p.tok.pos, "expected a dimension or symbol name in an affine map, found %s", p.tok.describe())
				return
			}
			if names[p.tok.text] {
				p.failf(p.tok.pos, "%s is declared twice in the affine map", p.tok.text)
				return
			}
			names[p.tok.text] = true
			*into = append(*into, p.tok.text)
			p.nextTok()
			if p.tok.is(",") {
				p.nextTok()
				continue
			}
			p.expect(close, "after the map's "+map[string]string{"(": "dimensions", "[": "symbols"}[open])
			return
		}
	}
	readIDs("(", ")", &m.Dims)
	if p.ok() && p.tok.is("[") {
		readIDs("[", "]", &m.Syms)
	}
	if !p.ok() {
		return nil
	}
	if p.tok.kind != tArrow {
		p.failf(p.tok.pos, "expected '->' after an affine map's dimensions, found %s", p.tok.describe())
		return nil
	}
	p.nextTok()
	if !p.expect("(", "to open the affine map's results") {
		return nil
	}
	if p.tok.is(")") {
		p.nextTok()
	} else {
		for p.ok() {
			e := p.affineExpr(m, 0)
			if e == nil {
				return nil
			}
			m.Results = append(m.Results, e)
			if p.tok.is(",") {
				p.nextTok()
				continue
			}
			if !p.expect(")", "after the affine map's results") {
				return nil
			}
			break
		}
	}
	if !p.expect(">", "to close affine_map<") {
		return nil
	}
	return m
}

// affineExpr reads an expression: sums of terms at level 0, products and
// divisions at level 1.
func (p *parser) affineExpr(m *AffineMap, level int) *AffineExpr {
	if p.enter() {
		defer p.leave()
	} else {
		return nil
	}
	if level == 0 {
		l := p.affineExpr(m, 1)
		for l != nil && p.ok() && (p.tok.is("+") || p.tok.is("-")) {
			neg := p.tok.is("-")
			p.nextTok()
			r := p.affineExpr(m, 1)
			if r == nil {
				return nil
			}
			if neg {
				r = &AffineExpr{Kind: ExprMul, L: r, R: &AffineExpr{Kind: ExprConst, Value: -1}}
			}
			l = &AffineExpr{Kind: ExprAdd, L: l, R: r}
		}
		return l
	}
	l := p.affineUnary(m)
	for l != nil && p.ok() {
		var kind ExprKind
		switch {
		case p.tok.is("*"):
			kind = ExprMul
		case p.tok.kind == tBareID && p.tok.text == "mod":
			kind = ExprMod
		case p.tok.kind == tBareID && p.tok.text == "floordiv":
			kind = ExprFloorDiv
		case p.tok.kind == tBareID && p.tok.text == "ceildiv":
			kind = ExprCeilDiv
		default:
			return l
		}
		opTok := p.tok
		p.nextTok()
		r := p.affineUnary(m)
		if r == nil {
			return nil
		}
		switch {
		case kind == ExprMul && !l.symbolic() && !r.symbolic():
			p.failf(opTok.pos, "non-affine expression: one of the operands of '*' must be a constant or symbolic")
			return nil
		case kind != ExprMul && !r.symbolic():
			p.failf(opTok.pos, "non-affine expression: the right operand of '%s' must be a constant or symbolic", opTok.text)
			return nil
		}
		l = &AffineExpr{Kind: kind, L: l, R: r}
	}
	return l
}

func (p *parser) affineUnary(m *AffineMap) *AffineExpr {
	if !p.ok() {
		return nil
	}
	t := p.tok
	switch {
	case t.is("-"):
		p.nextTok()
		e := p.affineUnary(m)
		if e == nil {
			return nil
		}
		if e.Kind == ExprConst {
			e.Value = -e.Value
			return e
		}
		return &AffineExpr{Kind: ExprMul, L: e, R: &AffineExpr{Kind: ExprConst, Value: -1}}
	case t.is("("):
		p.nextTok()
		e := p.affineExpr(m, 0)
		if e == nil || !p.expect(")", "to close the parenthesised affine expression") {
			return nil
		}
		return e
	case t.kind == tInt:
		v, err := strconv.ParseInt(t.text, 0, 64)
		if err != nil {
			p.failf(t.pos, "the constant %s does not fit in 64 bits", t.text)
			return nil
		}
		p.nextTok()
		return &AffineExpr{Kind: ExprConst, Value: v}
	case t.kind == tBareID:
		if i := slices.Index(m.Dims, t.text); i >= 0 {
			p.nextTok()
			return &AffineExpr{Kind: ExprDim, Pos: i}
		}
		if i := slices.Index(m.Syms, t.text); i >= 0 {
			p.nextTok()
			return &AffineExpr{Kind: ExprSym, Pos: i}
		}
		declared := append(slices.Clone(m.Dims), m.Syms...)
		p.failf(t.pos, "%s is neither a dimension nor a symbol of the affine map (declared: %s)", t.text, orNone(declared))
		return nil
	}
	p.failf(t.pos, "expected an affine expression (a dimension, a symbol, a constant or a parenthesised expression), found %s", t.describe())
	return nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
