package model_test

import (
	"slices"
	"testing"

	. "planner/model"
)

func TestOpTableSpellings(t *testing.T) {
	kinds := []OpKind{OpLoad, OpStore, OpCopyToShared, OpLoadShared, OpMMA, OpMMAScaled, OpElementwise, OpCast,
		OpReduce, OpBroadcast, OpTranspose, OpShapeCast, OpJoin, OpSplit, OpUnpack, OpConstant, OpArgument, OpLoop}
	for _, k := range kinds {
		if info := OpInfoOf(k); info == nil || info.Kind != k {
			t.Errorf("kind %s has no row", k)
		}
	}
	if len(OpRows()) != len(kinds) {
		t.Errorf("the table has %d rows, want %d", len(OpRows()), len(kinds))
	}
	tests := []struct {
		word string
		want OpKind // "" for none
	}{
		{"load", OpLoad}, {"copy_to_shared", OpCopyToShared}, {"mma", OpMMA}, {"mma_scaled", OpMMAScaled}, {"loop", OpLoop}, {"argument", OpArgument},
		{"extf", OpCast}, {"truncf", OpCast}, {"bitcast", OpCast}, {"cast", OpCast},
		{"exp2", OpElementwise}, {"select", OpElementwise}, {"add", OpElementwise},
		{"softplus", ""}, {"elementwise", ""}, {"", ""},
	}
	for _, tc := range tests {
		info := OpBySpelling(tc.word)
		switch {
		case tc.want == "" && info != nil:
			t.Errorf("%q spells %s, want no kind", tc.word, info.Kind)
		case tc.want != "" && (info == nil || info.Kind != tc.want):
			t.Errorf("%q spells %v, want %s", tc.word, info, tc.want)
		}
	}
	kindWords, fns := KnownOpKinds()
	if !slices.Contains(kindWords, "cast") || slices.Contains(kindWords, "add") {
		t.Errorf("known kinds %v: cast must be one, element-wise functions none", kindWords)
	}
	if !slices.IsSorted(fns) || len(fns) != len(ElementwiseFuncs) {
		t.Errorf("element-wise functions %v: want all %d, sorted", fns, len(ElementwiseFuncs))
	}
	if got := OperandKeys(); !slices.Equal(got, []string{"operands", "a", "b", "c", "scale_a", "scale_b", "init"}) {
		t.Errorf("operand keys %v", got)
	}
	for _, f := range []struct {
		name string
		sfu  bool
	}{{"exp", true}, {"div", true}, {"add", false}, {"select", false}, {"extf", false}} {
		if ElementwiseIsSFU(f.name) != f.sfu {
			t.Errorf("%s on the SFU: got %v, want %v", f.name, !f.sfu, f.sfu)
		}
	}
}

func value(name string, dtype string, shape ...int) *Value {
	dt, ok := ParseDType(dtype)
	if !ok {
		panic(dtype)
	}
	return &Value{Name: name, Shape: shape, DType: dt}
}

func TestOpTyping(t *testing.T) {
	f16, f32 := value("x", "f16", 64, 32), value("y", "f32", 64, 32)
	a, b, c := value("a", "f16", 16, 16), value("b", "f16", 16, 8), value("c", "f32", 16, 8)
	vec := value("v", "f32", 64)
	i1 := value("m", "i1", 64, 32)
	f32dt, _ := ParseDType("f32")
	f16dt, _ := ParseDType("f16")
	buf := &Buffer{Name: "B", Shape: []int{64, 32}, DType: f32dt}
	tests := []struct {
		word  string
		args  OpArgs
		shape []int  // the result's shape when typed
		dtype string // and element type
		err   TypeError
	}{
		{word: "mma", args: OpArgs{Operands: []*Value{a, b, c}}, shape: []int{16, 8}, dtype: "f32"},
		{word: "mma", args: OpArgs{Operands: []*Value{vec, b, c}}, err: TypeError{Key: "kind", Index: -1, Code: CodeRankMismatch,
			Msg: "mma operands must be matrices, or batches of them (rank 3, the batch first): A [64], B [16 8], C [16 8]"}},
		// A batch of products, the batch first (Triton's batched tt.dot).
		{word: "mma", args: OpArgs{Operands: []*Value{value("a", "f16", 4, 16, 16), value("b", "f16", 4, 16, 8), value("c", "f32", 4, 16, 8)}}, shape: []int{4, 16, 8}, dtype: "f32"},
		{word: "mma", args: OpArgs{Operands: []*Value{value("a", "f16", 4, 16, 16), value("b", "f16", 2, 16, 8), value("c", "f32", 4, 16, 8)}}, err: TypeError{Key: "kind", Index: -1, Code: CodeShapeMismatch,
			Msg: "a batched mma needs one batch: A [4 16 16], B [2 16 8], C [4 16 8]"}},
		// A block-scaled product: one scale per 32 of K of each row of A
		// and column of B.
		{word: "mma_scaled", args: OpArgs{Operands: []*Value{value("a", "f8e4m3", 16, 64), value("b", "f8e4m3", 64, 8), c, value("sa", "u8", 16, 2), value("sb", "u8", 2, 8)}}, shape: []int{16, 8}, dtype: "f32"},
		{word: "mma_scaled", args: OpArgs{Operands: []*Value{value("a", "f8e4m3", 16, 64), value("b", "f8e4m3", 64, 8), c, value("sa", "u8", 16, 2), value("sb", "u8", 8, 2)}}, err: TypeError{Key: "kind", Index: -1, Code: CodeShapeMismatch,
			Msg: "mma_scaled needs scale_a M×(K/block) and scale_b (K/block)×N for A [16 64] and B [64 8]: found scale_a [16 2], scale_b [8 2]"}},
		{word: "mma", args: OpArgs{Operands: []*Value{b, b, c}}, err: TypeError{Key: "kind", Index: -1, Code: CodeShapeMismatch,
			Msg: "mma needs A M×K, B K×N, C M×N: found A [16 8], B [16 8], C [16 8]"}},
		// A and B may differ (FP8 e4m3 by e5m2): which pairs exist is the
		// records' business.
		{word: "mma", args: OpArgs{Operands: []*Value{value("a", "f8e4m3", 16, 32), value("b", "f8e5m2", 32, 8), c}}, shape: []int{16, 8}, dtype: "f32"},
		{word: "add", args: OpArgs{Operands: []*Value{f32, f32, f32}}, shape: []int{64, 32}, dtype: "f32"},
		{word: "add", args: OpArgs{}, err: TypeError{Key: "operands", Index: -1, Code: CodeBadValue, Msg: "add needs operands"}},
		{word: "sub", args: OpArgs{Operands: []*Value{f32}}, err: TypeError{Key: "operands", Index: -1, Code: CodeBadValue,
			Msg: "sub takes 2 operand(s), found 1"}},
		{word: "mul", args: OpArgs{Operands: []*Value{f32, f16}}, err: TypeError{Key: "operands", Index: 1, Code: CodeShapeMismatch,
			Msg: "mul operands must agree: y is [64 32] x f32, x is [64 32] x f16"}},
		{word: "select", args: OpArgs{Operands: []*Value{i1, f32, f32}}, shape: []int{64, 32}, dtype: "f32"},
		{word: "select", args: OpArgs{Operands: []*Value{i1, f32, f16}}, err: TypeError{Key: "operands", Index: 2, Code: CodeShapeMismatch,
			Msg: "select operands must agree: y is [64 32] x f32, x is [64 32] x f16"}},
		{word: "select", args: OpArgs{Operands: []*Value{value("v", "i1", 64), f32, f32}}, err: TypeError{Key: "operands", Index: 0, Code: CodeShapeMismatch,
			Msg: "select operands must agree: y is [64 32] x f32, v is [64] x i1"}},
		// The condition is i1, as arith.select's.
		{word: "select", args: OpArgs{Operands: []*Value{f32, f32, f32}}, err: TypeError{Key: "operands", Index: 0, Code: CodeShapeMismatch,
			Msg: "select's condition y is [64 32] x f32: a condition is i1, one boolean per element"}},
		{word: "extf", args: OpArgs{Operands: []*Value{f16}, DType: f32dt}, shape: []int{64, 32}, dtype: "f32"},
		{word: "extf", args: OpArgs{Operands: []*Value{f32}, DType: f16dt}, err: TypeError{Key: "dtype", Index: -1, Code: CodeBadValue,
			Msg: "extf from f32 to f16 changes the width the wrong way"}},
		{word: "bitcast", args: OpArgs{Operands: []*Value{f32}, DType: f16dt}, err: TypeError{Key: "dtype", Index: -1, Code: CodeBadValue,
			Msg: "bitcast from f32 to f16 changes the width the wrong way"}},
		{word: "cast", args: OpArgs{Operands: []*Value{f32}, DType: f16dt}, shape: []int{64, 32}, dtype: "f16"},
		{word: "reduce", args: OpArgs{Operands: []*Value{f32, vec}, Axis: 1}, shape: []int{64}, dtype: "f32"},
		{word: "reduce", args: OpArgs{Operands: []*Value{f32, vec, vec}, Axis: 1}, err: TypeError{Key: "operands", Index: -1, Code: CodeBadValue,
			Msg: "reduce takes one operand (and an init)"}},
		{word: "reduce", args: OpArgs{Operands: []*Value{f32}, Axis: 2}, err: TypeError{Key: "axis", Index: -1, Code: CodeBadValue,
			Msg: "axis 2 is out of range for y [64 32]"}},
		{word: "reduce", args: OpArgs{Operands: []*Value{vec}, Axis: 0}, err: TypeError{Key: "axis", Index: -1, Code: CodeBadValue,
			Msg: "reducing the only dimension of v leaves a scalar; keep a dimension of extent 1"}},
		{word: "reduce", args: OpArgs{Operands: []*Value{f32, vec}, Axis: 0}, err: TypeError{Key: "init", Index: -1, Code: CodeShapeMismatch,
			Msg: "the init of a reduction of y along 0 is [32] x f32, found [64] x f32"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}, Dims: []int{1}}, shape: []int{64, 32}, dtype: "f32"},
		{word: "broadcast", args: OpArgs{Operands: []*Value{value("c", "f32", 64, 1)}, Shape: []int{64, 32}, Dims: []int{1}}, shape: []int{64, 32}, dtype: "f32"},
		{word: "broadcast", args: OpArgs{Operands: []*Value{f32}, Shape: []int{64, 32}, Dims: []int{1}}, err: TypeError{Key: "dims", Index: -1, Code: CodeShapeMismatch,
			Msg: "broadcasting y [64 32] to [64 32] along dimensions [1] of the same rank: those dimensions of y must have extent 1 and the others must agree"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}, Dims: []int{0}}, err: TypeError{Key: "dims", Index: -1, Code: CodeShapeMismatch,
			Msg: "broadcasting v [64] to [64 32] along new dimensions [0] leaves [32], not v's shape [64]: dims = [1] would fit"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}, Dims: []int{1, 1}}, err: TypeError{Key: "dims", Index: 1, Code: CodeBadValue,
			Msg: "dims names dimension 1 twice: each dimension the broadcast adds or grows is named once"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}, Dims: []int{2}}, err: TypeError{Key: "dims", Index: 0, Code: CodeBadValue,
			Msg: "dims[0] = 2 is not a dimension of the result [64 32] (0 to 1)"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}, Dims: []int{0, 1}}, err: TypeError{Key: "dims", Index: -1, Code: CodeRankMismatch,
			Msg: "broadcasting v [64] to [64 32] adds 1 dimension(s), but dims names 2: [0 1]"}},
		{word: "broadcast", args: OpArgs{Operands: []*Value{vec}, Shape: []int{64, 32}}, err: TypeError{Key: "dims", Index: -1, Code: CodeBadValue,
			Msg: "dims is empty: it names the dimensions of [64 32] that the broadcast adds or grows"}},
		{word: "transpose", args: OpArgs{Operands: []*Value{f32}, Perm: []int{1, 0}}, shape: []int{32, 64}, dtype: "f32"},
		{word: "transpose", args: OpArgs{Operands: []*Value{f32}, Perm: []int{0, 0}}, err: TypeError{Key: "perm", Index: -1, Code: CodeBadValue,
			Msg: "[0 0] is not a permutation of the 2 dimensions of y"}},
		{word: "shape_cast", args: OpArgs{Operands: []*Value{f32}, Shape: []int{2048}}, shape: []int{2048}, dtype: "f32"},
		{word: "shape_cast", args: OpArgs{Operands: []*Value{f32}, Shape: []int{2047}}, err: TypeError{Key: "shape", Index: -1, Code: CodeShapeMismatch,
			Msg: "shape_cast of y [64 32] (2048 elements) to [2047] (2047 elements)"}},
		// Bytes of two 4-bit elements along an axis, read as those elements.
		{word: "unpack", args: OpArgs{Operands: []*Value{value("x", "i8", 16, 32)}, Axis: 1, DType: DType{Name: "f4e2m1", Bits: 4}}, shape: []int{16, 64}, dtype: "f4e2m1"},
		{word: "unpack", args: OpArgs{Operands: []*Value{value("x", "i8", 16, 32)}, Axis: 0, DType: DType{Name: "f4e2m1", Bits: 4}}, shape: []int{32, 32}, dtype: "f4e2m1"},
		{word: "unpack", args: OpArgs{Operands: []*Value{f16}, Axis: 1, DType: DType{Name: "f4e2m1", Bits: 4}}, err: TypeError{Key: "operands", Index: -1, Code: CodeShapeMismatch,
			Msg: "unpack reads bytes: x is [64 32] x f16"}},
		{word: "unpack", args: OpArgs{Operands: []*Value{value("x", "i8", 16, 32)}, Axis: 1, DType: f16dt}, err: TypeError{Key: "dtype", Index: -1, Code: CodeBadValue,
			Msg: "unpack gives two elements of a byte: f16 is not 4 bits wide"}},
		{word: "unpack", args: OpArgs{Operands: []*Value{value("x", "i8", 16, 32)}, Axis: 2, DType: DType{Name: "f4e2m1", Bits: 4}}, err: TypeError{Key: "axis", Index: -1, Code: CodeBadValue,
			Msg: "axis 2 is out of range for x [16 32]"}},
		{word: "load_shared", args: OpArgs{Buffer: buf}, shape: []int{64, 32}, dtype: "f32"},
		{word: "copy_to_shared", args: OpArgs{Operands: []*Value{f32}, Buffer: buf}},
		{word: "copy_to_shared", args: OpArgs{Operands: []*Value{f16}, Buffer: buf}, err: TypeError{Key: "buffer", Index: -1, Code: CodeShapeMismatch,
			Msg: "buffer B holds [64 32] x f32 but x is [64 32] x f16"}},
		{word: "load", args: OpArgs{Shape: []int{8}, DType: f16dt}, shape: []int{8}, dtype: "f16"},
		{word: "constant", args: OpArgs{Shape: []int{8}}}, // the bad dtype is reported where it is read
	}
	for _, tc := range tests {
		info := OpBySpelling(tc.word)
		tc.args.Spelling = tc.word
		typ, errs := info.Type(&tc.args)
		switch {
		case tc.err.Msg != "":
			if typ != nil || len(errs) != 1 || errs[0] != tc.err {
				t.Errorf("%s %v: got %v, %+v; want the error %+v", tc.word, tc.args.Operands, typ, errs, tc.err)
			}
		case errs != nil:
			t.Errorf("%s %v: unexpected errors %+v", tc.word, tc.args.Operands, errs)
		case tc.shape == nil && typ != nil:
			t.Errorf("%s %v: typed %v, want no result", tc.word, tc.args.Operands, typ)
		case tc.shape != nil && (typ == nil || !slices.Equal(typ.Shape, tc.shape) || typ.DType.Name != tc.dtype):
			t.Errorf("%s %v: typed %v, want %v x %s", tc.word, tc.args.Operands, typ, tc.shape, tc.dtype)
		}
	}
}

// TestOpTransfers maps the mma accumulator across each op that relabels
// or slices a layout, forward and back.
func TestOpTransfers(t *testing.T) {
	acc := mmaAccumulator(t) // 16×8
	row := value("r", "f32", 16)
	src := value("s", "f32", 16, 8)
	tests := []struct {
		name      string
		op        *Op
		resShape  []int
		roundTrip bool // Backward(Forward(l)) is l again
	}{
		{"transpose", &Op{Kind: OpTranspose, Perm: []int{1, 0}, Operands: []*Value{src}, Result: value("t", "f32", 8, 16)}, []int{8, 16}, true},
		{"shape_cast", &Op{Kind: OpShapeCast, Operands: []*Value{src}, Result: value("t", "f32", 128)}, []int{128}, true},
		{"shape_cast 3d", &Op{Kind: OpShapeCast, Operands: []*Value{src}, Result: value("t", "f32", 2, 8, 8)}, []int{2, 8, 8}, true},
		{"reduce", &Op{Kind: OpReduce, Axis: 1, Operands: []*Value{src}, Result: row}, []int{16}, false},
	}
	for _, tc := range tests {
		info := tc.op.Info()
		fwd := info.Forward.Apply(tc.op, acc)
		if fwd == nil || !slices.Equal(fwd.Shape(), tc.resShape) {
			t.Fatalf("%s: forward gives %v, want a layout of shape %v", tc.name, fwd, tc.resShape)
		}
		back := info.Backward.Apply(tc.op, fwd)
		if back == nil || !slices.Equal(back.Shape(), src.Shape) {
			t.Fatalf("%s: backward gives %v, want a layout of shape %v", tc.name, back, src.Shape)
		}
		if tc.roundTrip != back.Equal(acc) {
			t.Errorf("%s: backward of forward equal to the operand's layout: %v, want %v", tc.name, back.Equal(acc), tc.roundTrip)
		}
		// Forward of backward gives back a result layout always.
		if again := info.Forward.Apply(tc.op, back); again == nil || !again.Equal(fwd) {
			t.Errorf("%s: forward of backward of %v is %v", tc.name, fwd, again)
		}
		// Derived layouts are cached by key: one key, one map.
		if info.Forward.Key(tc.op) == info.Backward.Key(tc.op) && !info.Forward.Apply(tc.op, fwd).Equal(back) {
			t.Errorf("%s: forward and backward differ but share the cache key %q", tc.name, info.Forward.Key(tc.op))
		}
	}
	// A broadcast is the inverse view: forward from the sliced rows,
	// backward (a slice) gives the rows again.
	rows, err := acc.Slice(1)
	if err != nil {
		t.Fatal(err)
	}
	bc := &Op{Kind: OpBroadcast, Dims: []int{1}, Operands: []*Value{row}, Result: value("b", "f32", 16, 8)}
	info := bc.Info()
	wide := info.Forward.Apply(bc, rows)
	if wide == nil || !slices.Equal(wide.Shape(), []int{16, 8}) {
		t.Fatalf("broadcast forward gives %v", wide)
	}
	if back := info.Backward.Apply(bc, wide); back == nil || !back.Equal(rows) {
		t.Errorf("broadcast: slice of broadcast is %v, want the rows %v", back, rows)
	}
	if info.Widens == nil || !info.Widens(bc) {
		t.Error("a broadcast widens its operand")
	}
	// A broadcast of a 16×1 column to 16×8 (tt.broadcast): the column's
	// layout is the rows' with a dimension of extent 1, forward gives the
	// same 16×8 layout as broadcasting the rows, and backward the column.
	col, err := rows.Broadcast(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ex := &Op{Kind: OpBroadcast, Dims: []int{1}, Operands: []*Value{value("c", "f32", 16, 1)}, Result: value("b", "f32", 16, 8)}
	if got := ex.Info().Forward.Apply(ex, col); got == nil || !got.Equal(wide) {
		t.Errorf("broadcast of a 16×1 column gives %v, want %v", got, wide)
	}
	if back := ex.Info().Backward.Apply(ex, wide); back == nil || !back.Equal(col) {
		t.Errorf("broadcast of a 16×1 column: backward gives %v, want %v", back, col)
	}
	if ex.Info().Forward.Key(ex) == info.Forward.Key(bc) {
		t.Error("the two forms of broadcast share a cache key")
	}
	// Every element-wise operand and a cast's operand take the result's
	// layout; a reduction's init takes its result's.
	for _, tc := range []struct {
		op   *Op
		i    int
		want bool
	}{
		{&Op{Kind: OpElementwise, Fn: "add", Operands: []*Value{src, src}, Result: src}, 1, true},
		{&Op{Kind: OpCast, Fn: "extf", Operands: []*Value{src}, Result: src}, 0, true},
		{&Op{Kind: OpReduce, Operands: []*Value{src, row}, Result: row}, 0, false},
		{&Op{Kind: OpReduce, Operands: []*Value{src, row}, Result: row}, 1, true},
		{&Op{Kind: OpStore, Operands: []*Value{src}}, 0, false},
		{&Op{Kind: OpTranspose, Operands: []*Value{src}, Result: src}, 0, false},
	} {
		if got := SharesResultLayout(tc.op, tc.i); got != tc.want {
			t.Errorf("%s operand %d in the result's layout: %v, want %v", tc.op.Kind, tc.i, got, tc.want)
		}
	}
}

func TestOperandNames(t *testing.T) {
	acc := value("acc", "f32", 16)
	loop := &Op{Kind: OpLoop, Body: &Loop{Args: []*Value{acc}}}
	tests := []struct {
		use  Use
		want string
	}{
		{Use{Op: &Op{Kind: OpMMA}, Index: 1}, "b"},
		{Use{Op: &Op{Kind: OpReduce}, Index: 1}, "init"},
		{Use{Op: &Op{Kind: OpReduce}, Index: 0}, "operand 0"},
		{Use{Op: &Op{Kind: OpElementwise, Fn: "add"}, Index: 1}, "operand 1"},
		{Use{Op: loop, Index: 0}, "init of acc"},
		{Use{Op: loop, Index: 0, Yield: true}, "yield of acc"},
	}
	for _, tc := range tests {
		if got := OperandName(tc.use); got != tc.want {
			t.Errorf("%s use %d: %q, want %q", tc.use.Op.Kind, tc.use.Index, got, tc.want)
		}
	}
	names := []struct {
		op         *Op
		kind, word string
	}{
		{&Op{Kind: OpReduce, Fn: "max"}, "reduce max", "reduce"},
		{&Op{Kind: OpElementwise, Fn: "exp"}, "exp", "exp"},
		{&Op{Kind: OpCast, Fn: "truncf"}, "truncf", "truncf"},
		{&Op{Kind: OpTranspose}, "transpose", "transpose"},
	}
	for _, n := range names {
		if n.op.KindName() != n.kind || n.op.Spelling() != n.word {
			t.Errorf("%s: KindName %q, Spelling %q; want %q, %q", n.op.Kind, n.op.KindName(), n.op.Spelling(), n.kind, n.word)
		}
	}
}
