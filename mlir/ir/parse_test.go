package ir

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"planner/model"
)

func mustParse(t *testing.T, name, text string) *Module {
	t.Helper()
	m, err := Parse(name, []byte(text))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m
}

func parseFile(t *testing.T, path string) *Module {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(path, data)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m
}

// walkOps lists a module's ops in the order they are written, nested ops
// after the op whose region holds them.
func walkOps(ops []*Op) []*Op {
	var out []*Op
	for _, op := range ops {
		out = append(out, op)
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				out = append(out, walkOps(b.Ops)...)
			}
		}
	}
	return out
}

// shape describes an op as far as both its forms must agree: its name,
// its operands' and results' types, and its regions' blocks' arguments.
func shape(op *Op) string {
	var b strings.Builder
	b.WriteString(op.Name + "(")
	for i, o := range op.Operands {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(o.Value.Type.String())
	}
	b.WriteString(") ->")
	for _, r := range op.Results {
		t := "?"
		if r.Type != nil {
			t = r.Type.String()
		}
		b.WriteString(" " + t)
	}
	for _, r := range op.Regions {
		b.WriteString(" {")
		for _, blk := range r.Blocks {
			b.WriteString(" ^(")
			for i, a := range blk.Args {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(a.Type.String())
			}
			b.WriteString(")")
		}
		b.WriteString(" }")
	}
	return b.String()
}

// Every custom form the reader knows reads as mlir-opt-19 reads it: the
// same ops, in the same order, with the same operands (in the generic
// order), results and block arguments, type for type. syntax.generic.mlir
// is mlir-opt-19 --allow-unregistered-dialect --mlir-print-op-generic of
// syntax.mlir.
func TestCustomFormsMatchGeneric(t *testing.T) {
	custom := walkOps(parseFile(t, "testdata/syntax.mlir").Ops)
	generic := walkOps(parseFile(t, "testdata/syntax.generic.mlir").Ops)
	if len(custom) != len(generic) {
		t.Fatalf("%d ops in the custom form, %d in the generic form", len(custom), len(generic))
	}
	for i := range custom {
		c, g := custom[i], generic[i]
		if c.Opaque {
			t.Errorf("%s: %s was skipped, not read", c.Pos, c.Name)
			continue
		}
		if shape(c) != shape(g) {
			t.Errorf("%s: custom form reads as\n\t%s\nthe generic form at %s as\n\t%s", c.Pos, shape(c), g.Pos, shape(g))
		}
	}
}

// The attributes the graph reads come out of both forms alike.
func TestCustomFormAttributes(t *testing.T) {
	custom := walkOps(parseFile(t, "testdata/syntax.mlir").Ops)
	generic := walkOps(parseFile(t, "testdata/syntax.generic.mlir").Ops)
	compare := map[string][]string{
		"vector.transfer_read":      {"permutation_map", "operandSegmentSizes"},
		"vector.transfer_write":     {"permutation_map", "operandSegmentSizes"},
		"vector.contract":           {"indexing_maps", "kind"},
		"vector.multi_reduction":    {"kind", "reduction_dims"},
		"vector.reduction":          {"kind"},
		"vector.transpose":          {"permutation"},
		"vector.extract":            {"static_position"},
		"vector.insert":             {"static_position"},
		"iree_vector_ext.to_layout": {"layout"},
		"memref.alloc":              {"operandSegmentSizes"},
		"affine.apply":              {"map"},
		"gpu.block_id":              {"dimension", "upper_bound"},
	}
	for i, c := range custom {
		for _, name := range compare[c.Name] {
			ca, cok := c.Attr(name)
			ga, gok := generic[i].Attr(name)
			switch {
			case !gok:
				t.Errorf("%s: the generic form of %s has no %s", generic[i].Pos, c.Name, name)
			case !cok:
				if name != "permutation_map" {
					t.Errorf("%s: %s has no %s", c.Pos, c.Name, name)
				}
			case ca.Value.String() != ga.Value.String():
				t.Errorf("%s: %s's %s reads as %s, the generic form's as %s", c.Pos, c.Name, name, ca.Value, ga.Value)
			}
		}
	}
}

// Positions: an op is where its statement starts (its first result),
// a value where its name is written, a use where it is written.
func TestPositions(t *testing.T) {
	m := mustParse(t, "p.mlir", `func.func @f(%a: vector<4xf32>) {
  %x, %y:2 = "my.op"(%a) : (vector<4xf32>) -> (f32, f32, f32)
    %z = arith.addf %a,   %a : vector<4xf32>
  return
}`)
	fn := m.Ops[0]
	if fn.Pos != (model.Pos{File: "p.mlir", Line: 1, Col: 1}) {
		t.Errorf("func at %s", fn.Pos)
	}
	body := fn.Regions[0].Blocks[0]
	arg := body.Args[0]
	if arg.Pos.String() != "p.mlir:1:14" || arg.Name != "a" {
		t.Errorf("argument %s at %s", arg.Name, arg.Pos)
	}
	op := body.Ops[0]
	if op.Pos.String() != "p.mlir:2:3" || op.NamePos.String() != "p.mlir:2:14" {
		t.Errorf("op at %s, name at %s", op.Pos, op.NamePos)
	}
	var names []string
	for _, r := range op.Results {
		names = append(names, fmt.Sprintf("%s@%d:%d", r.Name, r.Pos.Line, r.Pos.Col))
	}
	if got := strings.Join(names, " "); got != "x@2:3 y#0@2:7 y#1@2:7" {
		t.Errorf("results %s", got)
	}
	add := body.Ops[1]
	if add.Pos.String() != "p.mlir:3:5" || add.Operands[1].Pos.String() != "p.mlir:3:27" {
		t.Errorf("add at %s, its second operand at %s", add.Pos, add.Operands[1].Pos)
	}
	if len(arg.Uses) != 3 || arg.Uses[2].Op != add || arg.Uses[2].Index != 1 {
		t.Errorf("uses of %%a: %v", arg.Uses)
	}
}

// Types print as MLIR writes them, aliases resolved; memory spaces and
// layouts are told apart.
func TestTypes(t *testing.T) {
	m := mustParse(t, "t.mlir", `!v = vector<2x[4]xf16>
#s = strided<[64, 1], offset: ?>
func.func @f(%a: !v, %b: memref<?x64xbf16, #s, 3>, %c: memref<8xf8E4M3FN, #gpu.address_space<workgroup>>,
             %d: tensor<*xi8>, %e: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %f: !llvm.ptr<1>,
             %g: complex<f32>, %h: tuple<i1, si8, ui16>, %i: vector<4 x 8 x f32>) -> ((i32) -> i32) {
  return
}`)
	var got []string
	for _, a := range m.Ops[0].Regions[0].Blocks[0].Args {
		got = append(got, a.Type.String())
	}
	want := []string{"vector<2x[4]xf16>", "memref<?x64xbf16, strided<[64, 1], offset: ?>, 3>",
		"memref<8xf8E4M3FN, #gpu.address_space<workgroup>>", "tensor<*xi8>",
		"memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>", "!llvm.ptr<1>", "complex<f32>", "tuple<i1, si8, ui16>", "vector<4x8xf32>"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("types:\n got %s\nwant %s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
	b := m.Ops[0].Regions[0].Blocks[0].Args[1].Type.(*MemRefType)
	if _, ok := b.Layout.(*StridedAttr); !ok || b.MemSpace.String() != "3" {
		t.Errorf("memref layout %v, memory space %v", b.Layout, b.MemSpace)
	}
	ft, _ := m.Ops[0].Attr("function_type")
	if ft.Value.String() != "("+strings.Join(want, ", ")+") -> ((i32) -> i32)" {
		t.Errorf("function type %s", ft.Value)
	}
}

// Affine maps read their expressions with MLIR's precedence and print
// with MLIR's names.
func TestAffineMaps(t *testing.T) {
	for text, want := range map[string]string{
		"(i, j) -> (j, i)":                              "(d0, d1) -> (d1, d0)",
		"(d0)[s0] -> (d0 * 4 + s0 floordiv 2)":          "(d0)[s0] -> (d0 * 4 + s0 floordiv 2)",
		"(d0, d1) -> (d0 - d1, -d0, 0, (d1 + 1) mod 8)": "(d0, d1) -> (d0 + d1 * -1, d0 * -1, 0, (d1 + 1) mod 8)",
		"() -> ()":                             "() -> ()",
		"(d0)[s0] -> (d0 * s0, d0 ceildiv s0)": "(d0)[s0] -> (d0 * s0, d0 ceildiv s0)",
	} {
		m := mustParse(t, "a.mlir", "#m = affine_map<"+text+">\n")
		if got := m.AttrAliases["m"].(*AffineMapAttr).Map.String(); got != want {
			t.Errorf("affine_map<%s> reads as %s, want %s", text, got, want)
		}
	}
}

// Attributes of every builtin kind read, and dialect attributes are kept
// as written.
func TestAttributes(t *testing.T) {
	m := mustParse(t, "a.mlir", `#a = [1, -2 : i8, 3.5, -0.5 : f16, "s", true, unit, @sym, @a::@b, f32, vector<2xi1>]
#b = {x = 1, "y z" = [], w}
#c = dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
#d = dense<0xFF800000> : vector<8xf32>
#e = array<i64: 1, -2, 3>
#f = #my.attr<{a = [1, 2]}, "q>", (x) -> y>
#g = #gpu<dim x>
#h = loc("f.mlir":1:2)
#i = dense<"0x0102"> : vector<2xi8>
#j = dense<(1.0, 2.0)> : tensor<complex<f32>>
`)
	want := map[string]string{
		"a": `[1, -2 : i8, 3.5, -0.5 : f16, "s", true, unit, @sym, @a::@b, f32, vector<2xi1>]`,
		"b": `{x = 1, y z = [], w}`,
		"c": `dense<[[1, 2], [3, 4]]> : vector<2x2xi32>`,
		"d": `dense<0xFF800000> : vector<8xf32>`,
		"e": `array<i64: 1, -2, 3>`,
		"f": `#my.attr<{a = [1, 2]}, "q>", (x) -> y>`,
		"g": `#gpu<dim x>`,
		"h": `loc("f.mlir":1:2)`,
		"i": `dense<"0x0102"> : vector<2xi8>`,
		"j": `dense<(1.0, 2.0)> : tensor<complex<f32>>`,
	}
	for k, w := range want {
		if got := m.AttrAliases[k].String(); got != w {
			t.Errorf("#%s reads as %s, want %s", k, got, w)
		}
	}
	if d := m.AttrAliases["d"].(*DenseAttr); !d.Splat || d.Count != 1 {
		t.Errorf("dense<0xFF800000> is not a splat: %+v", d)
	}
}

// An op the reader does not know, in its custom form, is skipped to the
// end of its line (and through the brackets it opens), its results
// defined; what vectors it mentions is noted.
func TestOpaqueOps(t *testing.T) {
	m := mustParse(t, "o.mlir", `func.func @f(%v: vector<4xf32>, %i: index) {
  %a, %b = my.op %i, [1, 2] {x = 1}
  my.region %a {
    %c = my.inner %b
  } -> vector<4xf32>
  %d = my.use %v : index
  %e = arith.addi %a, %b : index
  return
}`)
	ops := m.Ops[0].Regions[0].Blocks[0].Ops
	if len(ops) != 5 {
		t.Fatalf("%d ops", len(ops))
	}
	if !ops[0].Opaque || len(ops[0].Results) != 2 || len(ops[0].Mentions) != 0 {
		t.Errorf("my.op: %+v", ops[0])
	}
	if !ops[1].Opaque || strings.Join(ops[1].Mentions, ",") != "vector<...>" {
		t.Errorf("my.region mentions %v", ops[1].Mentions)
	}
	if strings.Join(ops[2].Mentions, ",") != "%v" {
		t.Errorf("my.use mentions %v", ops[2].Mentions)
	}
	if ops[3].Name != "arith.addi" || ops[3].Operands[0].Value != ops[0].Results[0] {
		t.Errorf("arith.addi reads %v", ops[3].Operands)
	}
	if ops[0].Results[0].Type.String() != "index" {
		t.Errorf("a skipped op's result takes the type of its first typed use, found %v", ops[0].Results[0].Type)
	}
}

// Every problem is one error at the file:line:col it is about.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"func.func @f() {\n  return\n", "e.mlir:1:16: the region opened here is not closed: expected '}' before the end of the file"},
		{"func.func @f(%a: f32) {\n  %b = arith.addf %a, %c : f32\n}", "e.mlir:2:23: use of undefined value %c"},
		{"func.func @f(%a: f32) {\n  %b = arith.addf %a, %a : f16\n}", "e.mlir:2:19: %a is used as f16 but is defined as f32 at e.mlir:1:14"},
		{"func.func @f(%a: f32) {\n  %a = arith.addf %a, %a : f32\n}", "e.mlir:2:3: redefinition of %a, defined first at e.mlir:1:14"},
		{"#m = affine_map<(d0) -> (d1)>", "e.mlir:1:26: d1 is neither a dimension nor a symbol of the affine map (declared: d0)"},
		{"#m = affine_map<(d0, d1) -> (d0 * d1)>", "e.mlir:1:33: non-affine expression: one of the operands of '*' must be a constant or symbolic"},
		{"!t = vector<?x4xf32>", "e.mlir:1:13: a vector's dimensions are static: found '?' (a dynamic vector)"},
		{"#c = dense<[1, 2, 3]> : vector<4xi32>", "e.mlir:1:6: dense<...> lists 3 element(s) but vector<4xi32> has 4"},
		{"#a = #undefined", "e.mlir:1:6: undefined attribute alias #undefined"},
		{"func.func @f() {\n  %x = \"my.op\"() : () -> (i32, i32)\n}", "e.mlir:2:3: my.op defines 2 result(s) but 1 name(s) are bound to them"},
		{"func.func @f() {\n  %x = arith.constant 1\n}", "e.mlir:2:23: arith.constant needs a typed value"},
		{"#s = \"abc\n", "e.mlir:1:6: the string is not closed on its line"},
		{"func.func @f(%a: vector<4xf32>) {\n  %b = vector.broadcast %a : vector<4xf32> into vector<2x4xf32>\n}", "e.mlir:2:44: expected 'to' between vector.broadcast's types, found 'into'"},
		{strings.Repeat("[", 100), "e.mlir:1:"},
	} {
		_, err := Parse("e.mlir", []byte(c.text))
		if err == nil {
			t.Errorf("%q: no error, want %s", c.text, c.want)
			continue
		}
		e, ok := err.(*model.Error)
		if !ok || e.Pos.Line < 1 || e.Code == model.CodeNone {
			t.Errorf("%q: error without a position: %#v", c.text, err)
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

// TestSpanEndsAfterTrailingLoc: an op's span runs through its trailing
// loc(...) whatever the location holds (Triton prints every op with one,
// an alias, a file position, a name or a call site), so that the TTGIR
// writer, which replaces and removes ops by their spans, leaves none of it
// behind.
func TestSpanEndsAfterTrailingLoc(t *testing.T) {
	for _, loc := range []string{
		`loc(#loc3)`,
		`loc("kernels.py":12:7)`,
		`loc("acc"(#loc9))`,
		`loc(callsite(#loc3 at #loc4))`,
		`loc(unknown)`,
	} {
		src := "#loc3 = loc(\"k.py\":1:1)\n#loc4 = loc(\"k.py\":2:1)\n#loc9 = loc(\"k.py\":3:1)\n" +
			"func.func @f(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32 " + loc + "\n  return %b : f32 " + loc + "\n}\n"
		m := mustParse(t, "locs.mlir", src)
		for _, op := range walkOps(m.Ops) {
			if op.Name == "func.func" {
				continue
			}
			if got := src[op.Span.Off:op.Span.End]; !strings.HasSuffix(got, loc) {
				t.Errorf("%s with %s: span %q does not end with its location", op.Name, loc, got)
			}
		}
	}
}
