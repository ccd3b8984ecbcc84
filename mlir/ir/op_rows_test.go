package ir

import (
	"strings"
	"testing"
)

// TestOpRowsHoldTogether checks that every row states a whole arity and
// a syntax (the front ends' tests check that every op they build has a
// row).
func TestOpRowsHoldTogether(t *testing.T) {
	for name, r := range opRows {
		if (r.in == anyArity) != (r.out == anyArity) {
			t.Errorf("%s states half an arity (%d, %d)", name, r.in, r.out)
		}
		if r.syntax == nil && r.parse == nil {
			t.Errorf("%s has no syntax", name)
		}
	}
}

// TestFormsRefuseMistakes shows the form checker can fail: each form or
// constraint below is wrong in one way.
func TestFormsRefuseMistakes(t *testing.T) {
	for _, c := range []struct {
		form, types, results, want string
	}{
		{"$a `,` $b attr-dict `:` type($result)", "a: result", "result", "b has no type"},
		{"$a attr-dict `:` type($a)", "a: index", "", "a has both"},
		{"$a attr-dict `:` type($a) `,` type($x)", "", "", "type($x) names no operand"},
		{"$a attr-dict", "a: b", "", "no other operand"},
		{"$a $a `:` type($a)", "", "", "a is named twice"},
		{"$a (attr-dict)? `:` type($a)", "", "", "starts with a literal"},
		{"$a (`,` $b `:` type($a)", "b: a", "", "unclosed optional group"},
		{"$a frobnicate `:` type($a)", "", "", "unknown directive"},
		{"$a `:` type($a)", "a index", "", "has no ':'"},
		{"$a `:` type($a) `,` type($r)", "", "r", ""},
		{"$a $b `:` type($r)", "a: r; b: elem(a)", "r", "whose type is itself constrained"},
	} {
		var results []string
		if c.results != "" {
			results = strings.Split(c.results, ",")
		}
		_, err := compileForm(c.form, c.types, results)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.form, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q with %q: got %v, want an error containing %q", c.form, c.types, err, c.want)
		}
	}
}

// TestFormsRead reads ops written in forms, and ones that break them,
// checking what the interpreter makes of each.
func TestFormsRead(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"func.func @f(%a: vector<4xf32>, %b: vector<4xf32>) {\n  %c = arith.addf %a, %b fastmath<fast> : vector<4xf32>\n}", ""},
		{"func.func @f(%a: vector<4xf32>, %b: vector<4xf32>) {\n  %c = arith.cmpf olt, %a, %b : vector<4xf32>\n}", ""},
		{"func.func @f(%a: vector<4xf32>) {\n  %c = arith.addf %a : vector<4xf32>\n}", "e.mlir:2:22: expected ',' between arith.addf's operands, found ':'"},
		{"func.func @f(%a: vector<4xf32>, %b: vector<4xf16>) {\n  %c = arith.addf %a, %b : vector<4xf32>\n}", "e.mlir:2:23: %b is used as vector<4xf32> but is defined as vector<4xf16>"},
		{"func.func @f(%m: memref<8xf32>, %i: index) {\n  %v = vector.load %m[%i] : memref<8xf32>, vector<4xf32>\n}", ""},
		{"func.func @f(%m: memref<8xf32>, %i: index) {\n  %v = vector.load %m[%i] : memref<8xf32> vector<4xf32>\n}", "e.mlir:2:43: expected ',' between vector.load's types, found 'vector'"},
		{"func.func @f(%a: vector<4x8xf32>) {\n  %t = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>\n}", ""},
		{"func.func @f(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<4xf32>) {\n  %d = vector.contract %a, %b, %c : vector<4xf32>, vector<4xf32> into vector<4xf32>\n}", "e.mlir:2:24: expected vector.contract's attributes {...}, found '%a'"},
		{"func.func @f(%a: vector<8x16xf16>, %b: vector<16x16xf16>, %c: vector<8x16xf32>) {\n  %d = xegpu.dpas %a, %b, %c : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32>\n}", ""},
		{"func.func @f(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {\n  %d = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>\n}", ""},
		{"func.func @f(%a: vector<8x16xf16>, %b: vector<16x16xf16>, %c: vector<8x16xf32>) {\n  %d = xegpu.dpas %a, %b, %c : vector<8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>\n}", "e.mlir:2:30: xegpu.dpas is given %acc but its types leave out that operand's"},
	} {
		m, err := Parse("e.mlir", []byte(c.src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		case c.want == "" && strings.Contains(c.src, "transpose"):
			op := m.Ops[0].Regions[0].Blocks[0].Ops[0]
			if a, ok := op.Attr("permutation"); !ok || a.Value.String() != "array<i64: 1, 0>" {
				t.Errorf("transpose's permutation: %v", a)
			}
		}
	}
}
