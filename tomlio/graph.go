package tomlio

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"planner/model"
)

// ReadGraph reads and checks a kernel graph file. targets gives the
// targets a graph may name.
func ReadGraph(path string, targets map[string]*model.Target) (*model.Graph, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseGraph(path, data, targets)
}

var graphKeys = []string{"target", "subgroups", "shared_memory", "no_conversions", "notation", "hard", "buffers", "pins", "op"}

// opKinds maps the kind key of an op to its model kind; element-wise
// functions and casts are kinds of their own in the file.
func opKind(kind string) (model.OpKind, string, bool) {
	switch kind {
	case "load", "store", "copy_to_shared", "load_shared", "mma", "reduce", "broadcast", "transpose", "shape_cast", "constant", "loop":
		return model.OpKind(kind), "", true
	case "extf", "truncf", "bitcast", "cast":
		return model.OpCast, kind, true
	}
	if _, ok := model.ElementwiseFns[kind]; ok {
		return model.OpElementwise, kind, true
	}
	return "", "", false
}

func knownOpKinds() string {
	kinds := []string{"load", "store", "copy_to_shared", "load_shared", "mma", "reduce", "broadcast", "transpose", "shape_cast", "constant", "loop", "extf", "truncf", "bitcast"}
	var fns []string
	for f := range model.ElementwiseFns {
		fns = append(fns, f)
	}
	slices.Sort(fns)
	return strings.Join(kinds, ", ") + ", or an element-wise function (" + strings.Join(fns, ", ") + ")"
}

// graphReader carries the state of reading one graph.
type graphReader struct {
	doc    *Document
	g      *model.Graph
	target *model.Target
	values map[string]*model.Value
	names  map[string]model.Pos // op names
	later  map[string]model.Pos // every value name some op defines, for use-before-definition errors
	uses   map[string][]string  // the operand names of the op defining each result, for cycle errors
	// inCycle marks the values of a cycle already reported; failed the
	// results of ops whose errors are reported.
	inCycle, failed map[string]bool
	depth           int
}

// definitions finds where every value name is defined, before the ops are
// read in order, so that a use before its definition can say where the
// definition is.
func (r *graphReader) definitions(t *Table, key string) {
	tables, ok := t.peekTableArray(key)
	if !ok {
		return
	}
	for _, ot := range tables {
		if name, ok := ot.m["result"].(string); ok {
			if _, seen := r.later[name]; !seen {
				r.later[name] = ot.Pos("result")
				r.uses[name] = operandNames(ot)
			}
		}
		for _, k := range []string{"iter_args", "results"} {
			if names, ok := ot.m[k].([]any); ok {
				for i, n := range names {
					if name, ok := n.(string); ok {
						if _, seen := r.later[name]; !seen {
							r.later[name] = ot.PosAt(k, i)
						}
					}
				}
			}
		}
		r.definitions(ot, "body")
	}
}

// codeReported marks a placeholder error: a problem already reported
// elsewhere (a value of a cycle), kept only to stop further checks.
const codeReported model.Code = -1

// operandNames lists the value names an op table uses, unchecked.
func operandNames(ot *Table) []string {
	var names []string
	for _, k := range []string{"operands", "a", "b", "c", "init"} {
		switch v := ot.m[k].(type) {
		case string:
			names = append(names, v)
		case []any:
			for _, n := range v {
				if name, ok := n.(string); ok {
					names = append(names, name)
				}
			}
		}
	}
	return names
}

// cycle finds a chain of uses from value from back to value to, through
// values defined later in the file: from, ..., to.
func (r *graphReader) cycle(from, to string) []string {
	seen := map[string]bool{}
	var walk func(name string) []string
	walk = func(name string) []string {
		if name == to {
			return []string{name}
		}
		if seen[name] {
			return nil
		}
		seen[name] = true
		for _, u := range r.uses[name] {
			if path := walk(u); path != nil {
				return append([]string{name}, path...)
			}
		}
		return nil
	}
	return walk(from)
}

// MaxLoopDepth bounds loop nesting.
const MaxLoopDepth = 8

// ParseGraph reads a kernel graph's text.
func ParseGraph(file string, data []byte, targets map[string]*model.Target) (*model.Graph, error) {
	doc, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	root := doc.Root()
	root.Expect(graphKeys...)
	r := &graphReader{doc: doc, g: &model.Graph{File: file}, values: map[string]*model.Value{}, names: map[string]model.Pos{}, later: map[string]model.Pos{}, uses: map[string][]string{}, inCycle: map[string]bool{}, failed: map[string]bool{}}
	r.definitions(root, "op")
	g := r.g
	g.Target, _ = root.String("target", true)
	g.TargetPos = root.Pos("target")
	if g.Target != "" {
		t, ok := targets[g.Target]
		if !ok {
			var known []string
			for n := range targets {
				known = append(known, n)
			}
			slices.Sort(known)
			root.Errorf("target", model.CodeUnknownName, "unknown target %q (known: %s)", g.Target, strings.Join(known, ", "))
		}
		r.target = t
	}
	g.Subgroups, _ = root.Int("subgroups", true)
	if root.Has("subgroups") {
		g.SubgroupsPos = root.Pos("subgroups")
		switch {
		case g.Subgroups < 1:
			root.Errorf("subgroups", model.CodeBadValue, "subgroups must be positive, found %d", g.Subgroups)
		case r.target != nil && g.Subgroups > r.target.MaxSubgroups:
			root.Errorf("subgroups", model.CodeBadValue, "%s allows at most %d subgroups per block, found %d", r.target.Name, r.target.MaxSubgroups, g.Subgroups)
		}
	}
	g.SharedBudget, g.HasBudget = root.Int("shared_memory", false)
	g.BudgetPos = root.Pos("shared_memory")
	if g.HasBudget {
		// 0 is a budget like any other: no buffers and no conversion
		// through shared memory.
		if g.SharedBudget < 0 {
			root.Errorf("shared_memory", model.CodeBadValue, "the shared-memory budget cannot be negative, found %d", g.SharedBudget)
		} else if r.target != nil && g.SharedBudget > r.target.SharedMemory {
			root.Errorf("shared_memory", model.CodeBadValue, "the budget of %d bytes is more than %s's %d bytes per block", g.SharedBudget, r.target.Name, r.target.SharedMemory)
		}
	}
	g.NoConversions, _ = root.Bool("no_conversions", false)
	g.NoConvPos = root.Pos("no_conversions")
	if n, ok := root.String("notation", false); ok {
		if !slices.Contains(model.Kinds, n) {
			root.Errorf("notation", model.CodeUnknownName, "unknown notation %q (expected one of %s)", n, strings.Join(model.Kinds, ", "))
		}
		g.Notation = n
	}
	g.Hard = hardMarks(root)
	if bufs, ok := root.Sub("buffers", false); ok {
		for _, name := range bufs.Keys() {
			bt, ok := bufs.Sub(name, true)
			if !ok {
				continue
			}
			bt.Expect("shape", "dtype", "row_stride", "pad", "pad_every", "swizzle", "xor")
			b := &model.Buffer{Name: name, Pos: bt.Pos("")}
			b.Shape = r.shape(bt, "shape")
			b.DType = r.dtype(bt, "dtype")
			b.Layout = BufferLayout(bt, b)
			bt.CheckUnknown()
			g.Buffers = append(g.Buffers, b)
		}
		slices.SortFunc(g.Buffers, func(a, b *model.Buffer) int { return a.Pos.Line - b.Pos.Line })
	}
	ops := r.opList(root, "op", nil)
	g.Ops = ops
	if len(ops) == 0 && len(doc.Errs) == 0 {
		root.Errorf("", model.CodeMissingKey, "the graph has no ops; write them as [[op]] tables")
	}
	if pins, ok := root.Sub("pins", false); ok && r.target != nil && g.Subgroups > 0 {
		for _, name := range pins.Keys() {
			pt, ok := pins.Sub(name, true)
			if !ok {
				continue
			}
			v, known := r.values[name]
			if !known {
				pins.Errorf(name, model.CodeUnknownName, "pinned value %q is not defined by any op", name)
				continue
			}
			f := model.Frame{Shape: v.Shape, SubgroupSize: r.target.SubgroupSize, Subgroups: g.Subgroups}
			n := decodeNotation(pt)
			if n == nil {
				continue
			}
			l, err := n.Layout(f)
			var why string
			if err != nil {
				// A layout written for another subgroup count or size is
				// read, as a pin no plan can meet; any other problem is an
				// error.
				if why = unrealisable(n, f, r.target.Name); why == "" {
					reportLayoutError(pt, err)
					continue
				}
				l = nil
			}
			v.Pin = &model.Pin{Layout: l, Notation: n, Pos: pt.Pos(""), Unrealisable: why}
			if g.Notation == "" {
				g.Notation = n.Kind()
			}
		}
	}
	if g.Notation == "" {
		g.Notation = "linear"
	}
	root.CheckUnknown()
	doc.Errs = slices.DeleteFunc(doc.Errs, func(e *model.Error) bool { return e.Code == codeReported })
	if err := doc.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

func (r *graphReader) shape(t *Table, key string) []int {
	s, ok := t.Ints(key, true)
	if !ok {
		return nil
	}
	if len(s) == 0 {
		t.Errorf(key, model.CodeBadValue, "a shape needs at least one dimension")
		return nil
	}
	if len(s) > model.MaxRank {
		t.Errorf(key, model.CodeTooLarge, "rank %d is more than %d", len(s), model.MaxRank)
		return nil
	}
	n := 1
	for i, e := range s {
		if e < 1 {
			t.ErrorfAt(key, i, model.CodeBadValue, "extent %d is not positive", e)
			return nil
		}
		n *= e
		if n > model.MaxElements {
			t.Errorf(key, model.CodeTooLarge, "the tensor %v has more than %d elements", s, model.MaxElements)
			return nil
		}
	}
	return s
}

func (r *graphReader) dtype(t *Table, key string) model.DType {
	name, ok := t.String(key, true)
	if !ok {
		return model.DType{}
	}
	dt, known := model.ParseDType(name)
	if !known {
		t.Errorf(key, model.CodeUnknownName, "unknown element type %q (known: %s)", name, strings.Join(model.DTypeNames(), ", "))
	}
	return dt
}

// opList reads the array of op tables at key of t (the graph's [[op]] or a
// loop's [[op.body]]).
func (r *graphReader) opList(t *Table, key string, loop *model.Loop) []*model.Op {
	tables, ok := t.TableArray(key)
	if !ok {
		return nil
	}
	var ops []*model.Op
	for _, ot := range tables {
		if op := r.op(ot, loop); op != nil {
			ops = append(ops, op)
		}
		// A result the op failed to define is reported once, at the op.
		if name, ok := ot.m["result"].(string); ok && r.values[name] == nil {
			r.failed[name] = true
		}
	}
	return ops
}

var opKeys = []string{"kind", "name", "result", "operands", "shape", "dtype", "contiguous", "buffer", "intrinsic",
	"axis", "combiner", "init", "perm", "dims", "value", "no_convert", "trips", "iter_args", "inits", "yields", "results", "body", "a", "b", "c"}

// lookup resolves an operand name, reporting an unknown one.
func (r *graphReader) lookup(t *Table, key string, i int, name string) *model.Value {
	v, ok := r.values[name]
	if !ok {
		msg := fmt.Sprintf("unknown value %q", name)
		result, _ := t.m["result"].(string)
		path := r.cycle(name, result)
		at, defined := r.later[name]
		switch {
		case r.inCycle[name] || r.failed[name]:
			// Reported with its cycle or at its op; a placeholder stops the op's
			// other checks and is dropped before the errors are returned.
			t.Errorf(key, codeReported, "")
			return nil
		case defined && result != "" && len(path) > 1:
			for _, n := range path {
				r.inCycle[n] = true
			}
			msg = fmt.Sprintf("%q needs %q, defined later at %s: the values form a cycle (%s); a dataflow graph has none (only a loop's yields feed back)",
				result, name, at, strings.Join(append([]string{result}, path...), " <- "))
		case defined:
			msg = fmt.Sprintf("%q is used before its definition at %s (or outside the loop that defines it)", name, at)
		default:
			if s := closest(name, sortedNames(r.values)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
		}
		if !strings.Contains(msg, "cycle") {
			msg += "; a value must be defined by an earlier op (only a loop's yields feed back)"
		}
		if i >= 0 {
			t.ErrorfAt(key, i, model.CodeUnknownName, "%s", msg)
		} else {
			t.Errorf(key, model.CodeUnknownName, "%s", msg)
		}
		return nil
	}
	return v
}

func sortedNames(m map[string]*model.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// define records a new value, rejecting a name used twice.
func (r *graphReader) define(t *Table, key string, i int, name string, shape []int, dt model.DType, def *model.Op) *model.Value {
	pos := t.Pos(key)
	if i >= 0 {
		pos = t.PosAt(key, i)
	}
	if prev, ok := r.values[name]; ok {
		msg := fmt.Sprintf("value %q is also defined at %s", name, prev.Pos)
		var e *model.Error
		if i >= 0 {
			e = t.ErrorfAt(key, i, model.CodeDuplicate, "%s", msg)
		} else {
			e = t.Errorf(key, model.CodeDuplicate, "%s", msg)
		}
		e.Related = []model.Pos{prev.Pos}
		return nil
	}
	if name == "" {
		t.Errorf(key, model.CodeBadValue, "a value needs a name")
		return nil
	}
	v := &model.Value{Name: name, Shape: shape, DType: dt, Pos: pos, Def: def}
	r.values[name] = v
	r.g.Values = append(r.g.Values, v)
	return v
}

func (r *graphReader) operands(t *Table, op *model.Op, key string) []*model.Value {
	names, ok := t.Strings(key, true)
	if !ok {
		return nil
	}
	var out []*model.Value
	for i, n := range names {
		v := r.lookup(t, key, i, n)
		if v == nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

func (r *graphReader) op(t *Table, loop *model.Loop) *model.Op {
	t.Expect(opKeys...)
	kindName, ok := t.String("kind", true)
	if !ok {
		t.CheckUnknown()
		return nil
	}
	kind, fn, known := opKind(kindName)
	if !known {
		t.Errorf("kind", model.CodeUnknownName, "unknown op kind %q (expected %s)", kindName, knownOpKinds())
		return nil
	}
	op := &model.Op{Kind: kind, Fn: fn, Pos: t.Pos("kind"), In: loop}
	before := len(r.doc.Errs)
	result, hasResult := t.String("result", false)
	op.Name, _ = t.String("name", false)
	if op.Name == "" {
		op.Name = result
	}
	if op.Name == "" {
		op.Name = fmt.Sprintf("%s@%d", kindName, op.Pos.Line)
	}
	if prev, dup := r.names[op.Name]; dup && op.Name != result {
		t.Errorf("name", model.CodeDuplicate, "op %q is also defined at %s", op.Name, prev).Related = []model.Pos{prev}
	}
	r.names[op.Name] = op.Pos

	needResult := func() bool {
		if !hasResult {
			t.Errorf("kind", model.CodeMissingKey, "a %s op needs a result name (key \"result\")", kindName)
			return false
		}
		return true
	}
	arity := func(n int) bool {
		if len(op.Operands) != n {
			t.Errorf("operands", model.CodeBadValue, "%s takes %d operand(s), found %d", kindName, n, len(op.Operands))
			return false
		}
		return true
	}
	bufferOf := func() *model.Buffer {
		name, ok := t.String("buffer", true)
		if !ok {
			return nil
		}
		for _, b := range r.g.Buffers {
			if b.Name == name {
				return b
			}
		}
		t.Errorf("buffer", model.CodeUnknownName, "unknown buffer %q; declare it under [buffers.%s] with shape and dtype", name, name)
		return nil
	}

	switch kind {
	case model.OpMMA:
		if t.Has("operands") {
			op.Operands = r.operands(t, op, "operands")
		} else {
			for _, k := range []string{"a", "b", "c"} {
				if n, ok := t.String(k, true); ok {
					if v := r.lookup(t, k, -1, n); v != nil {
						op.Operands = append(op.Operands, v)
					}
				}
			}
		}
		if len(r.doc.Errs) == before && arity(3) && needResult() {
			a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
			switch {
			case len(a.Shape) != 2 || len(b.Shape) != 2 || len(c.Shape) != 2:
				t.Errorf("kind", model.CodeRankMismatch, "mma operands must be matrices: A %v, B %v, C %v", a.Shape, b.Shape, c.Shape)
			case a.Shape[1] != b.Shape[0] || a.Shape[0] != c.Shape[0] || b.Shape[1] != c.Shape[1]:
				t.Errorf("kind", model.CodeShapeMismatch, "mma needs A M×K, B K×N, C M×N: found A %v, B %v, C %v", a.Shape, b.Shape, c.Shape)
			case a.DType.Name != b.DType.Name:
				t.Errorf("kind", model.CodeBadValue, "mma needs A and B of one element type: found %s and %s", a.DType.Name, b.DType.Name)
			default:
				op.Result = r.define(t, "result", -1, result, slices.Clone(c.Shape), c.DType, op)
			}
		}
		r.intrinsic(t, op)
	case model.OpLoad:
		if needResult() {
			shape := r.shape(t, "shape")
			dt := r.dtype(t, "dtype")
			op.Contiguous = r.contiguous(t, shape)
			if shape != nil && dt.Bits > 0 {
				op.Result = r.define(t, "result", -1, result, shape, dt, op)
			}
		}
	case model.OpConstant:
		if needResult() {
			shape := r.shape(t, "shape")
			dt := r.dtype(t, "dtype")
			t.get("value")
			if shape != nil && dt.Bits > 0 {
				op.Result = r.define(t, "result", -1, result, shape, dt, op)
			}
		}
	case model.OpStore:
		op.Operands = r.operands(t, op, "operands")
		if len(r.doc.Errs) == before && arity(1) {
			op.Contiguous = r.contiguous(t, op.Operands[0].Shape)
		}
	case model.OpCopyToShared:
		op.Operands = r.operands(t, op, "operands")
		op.Buffer = bufferOf()
		if len(r.doc.Errs) == before && arity(1) && op.Buffer != nil {
			v := op.Operands[0]
			if !slices.Equal(v.Shape, op.Buffer.Shape) || v.DType.Name != op.Buffer.DType.Name {
				t.Errorf("buffer", model.CodeShapeMismatch, "buffer %s holds %v x %s but %s is %v x %s", op.Buffer.Name, op.Buffer.Shape, op.Buffer.DType.Name, v.Name, v.Shape, v.DType.Name)
			}
		}
	case model.OpLoadShared:
		op.Buffer = bufferOf()
		if needResult() && op.Buffer != nil {
			op.Result = r.define(t, "result", -1, result, slices.Clone(op.Buffer.Shape), op.Buffer.DType, op)
		}
		r.intrinsic(t, op)
	case model.OpElementwise:
		op.Operands = r.operands(t, op, "operands")
		if len(r.doc.Errs) == before && needResult() {
			want := model.ElementwiseFns[fn]
			switch {
			case len(op.Operands) == 0:
				t.Errorf("operands", model.CodeBadValue, "%s needs operands", fn)
			case want > 0 && len(op.Operands) != want:
				t.Errorf("operands", model.CodeBadValue, "%s takes %d operand(s), found %d", fn, want, len(op.Operands))
			default:
				first := op.Operands[0]
				good := true
				for i, v := range op.Operands[1:] {
					if fn == "select" && i == 0 {
						continue // the condition may be a mask of another type
					}
					if !slices.Equal(v.Shape, first.Shape) || v.DType.Name != first.DType.Name {
						t.ErrorfAt("operands", i+1, model.CodeShapeMismatch, "%s operands must agree: %s is %v x %s, %s is %v x %s",
							fn, first.Name, first.Shape, first.DType.Name, v.Name, v.Shape, v.DType.Name)
						good = false
					}
				}
				if good {
					op.Result = r.define(t, "result", -1, result, slices.Clone(first.Shape), first.DType, op)
				}
			}
		}
	case model.OpCast:
		op.Operands = r.operands(t, op, "operands")
		if len(r.doc.Errs) == before && arity(1) && needResult() {
			dt := r.dtype(t, "dtype")
			src := op.Operands[0]
			switch {
			case dt.Bits == 0:
			case fn == "extf" && dt.Bits <= src.DType.Bits, fn == "truncf" && dt.Bits >= src.DType.Bits, fn == "bitcast" && dt.Bits != src.DType.Bits:
				t.Errorf("dtype", model.CodeBadValue, "%s from %s to %s changes the width the wrong way", fn, src.DType.Name, dt.Name)
			default:
				op.Result = r.define(t, "result", -1, result, slices.Clone(src.Shape), dt, op)
			}
		}
	case model.OpReduce:
		op.Operands = r.operands(t, op, "operands")
		op.Fn, _ = t.String("combiner", true)
		axis, hasAxis := t.Int("axis", true)
		op.Axis = axis
		if init, ok := t.String("init", false); ok {
			if v := r.lookup(t, "init", -1, init); v != nil {
				op.Operands = append(op.Operands, v)
			}
		}
		if len(r.doc.Errs) == before && hasAxis && needResult() {
			if len(op.Operands) == 0 || len(op.Operands) > 2 {
				t.Errorf("operands", model.CodeBadValue, "reduce takes one operand (and an init)")
				break
			}
			src := op.Operands[0]
			switch {
			case axis < 0 || axis >= len(src.Shape):
				t.Errorf("axis", model.CodeBadValue, "axis %d is out of range for %s %v", axis, src.Name, src.Shape)
			case len(src.Shape) == 1:
				t.Errorf("axis", model.CodeBadValue, "reducing the only dimension of %s leaves a scalar; keep a dimension of extent 1", src.Name)
			default:
				shape := slices.Delete(slices.Clone(src.Shape), axis, axis+1)
				if len(op.Operands) == 2 {
					init := op.Operands[1]
					if !slices.Equal(init.Shape, shape) || init.DType.Name != src.DType.Name {
						t.Errorf("init", model.CodeShapeMismatch, "the init of a reduction of %s along %d is %v x %s, found %v x %s", src.Name, axis, shape, src.DType.Name, init.Shape, init.DType.Name)
						break
					}
				}
				op.Result = r.define(t, "result", -1, result, shape, src.DType, op)
			}
		}
		switch op.Fn {
		case "add", "max", "min", "mul", "":
		default:
			t.Errorf("combiner", model.CodeUnknownName, "unknown combiner %q (expected add, max, min or mul)", op.Fn)
		}
	case model.OpBroadcast:
		op.Operands = r.operands(t, op, "operands")
		shape := r.shape(t, "shape")
		dims, _ := t.Ints("dims", true)
		op.Dims = dims
		if len(r.doc.Errs) == before && arity(1) && needResult() && shape != nil {
			src := op.Operands[0]
			var rest []int
			ok := len(dims) > 0
			for d := range shape {
				if slices.Contains(dims, d) {
					continue
				}
				rest = append(rest, shape[d])
			}
			for _, d := range dims {
				if d < 0 || d >= len(shape) {
					ok = false
				}
			}
			if !ok || !slices.Equal(rest, src.Shape) {
				t.Errorf("dims", model.CodeShapeMismatch, "broadcasting %s %v to %v must add dimensions %v: the other dimensions must be %v", src.Name, src.Shape, shape, dims, src.Shape)
			} else {
				op.Result = r.define(t, "result", -1, result, shape, src.DType, op)
			}
		}
	case model.OpTranspose:
		op.Operands = r.operands(t, op, "operands")
		perm, _ := t.Ints("perm", true)
		op.Perm = perm
		if len(r.doc.Errs) == before && arity(1) && needResult() {
			src := op.Operands[0]
			if !isPerm(perm, len(src.Shape)) {
				t.Errorf("perm", model.CodeBadValue, "%v is not a permutation of the %d dimensions of %s", perm, len(src.Shape), src.Name)
			} else {
				shape := make([]int, len(perm))
				for i, p := range perm {
					shape[i] = src.Shape[p]
				}
				op.Result = r.define(t, "result", -1, result, shape, src.DType, op)
			}
		}
	case model.OpShapeCast:
		op.Operands = r.operands(t, op, "operands")
		shape := r.shape(t, "shape")
		if len(r.doc.Errs) == before && arity(1) && needResult() && shape != nil {
			src := op.Operands[0]
			if product(shape) != src.Elements() {
				t.Errorf("shape", model.CodeShapeMismatch, "shape_cast of %s %v (%d elements) to %v (%d elements)", src.Name, src.Shape, src.Elements(), shape, product(shape))
			} else {
				op.Result = r.define(t, "result", -1, result, shape, src.DType, op)
			}
		}
	case model.OpLoop:
		r.loop(t, op, loop)
	}
	if t.Has("no_convert") {
		op.NoConvertPos = t.Pos("no_convert")
	}
	if nc, ok := t.Strings("no_convert", false); ok {
		op.NoConvert = make([]bool, len(op.Operands))
		for i, n := range nc {
			k := slices.IndexFunc(op.Operands, func(v *model.Value) bool { return v.Name == n })
			if k < 0 {
				t.ErrorfAt("no_convert", i, model.CodeUnknownName, "%q is not an operand of this op", n)
				continue
			}
			op.NoConvert[k] = true
		}
	}
	for i, v := range op.Operands {
		v.Uses = append(v.Uses, model.Use{Op: op, Index: i})
	}
	if len(r.doc.Errs) == before {
		t.CheckUnknown()
		t.CheckUnused("a " + kindName + " op")
	} else {
		t.CheckNotKnown()
	}
	return op
}

// intrinsic reads the record an op names (an mma record for an mma, a
// load record for a load_shared). The name must be one the graph's target
// offers, when the reader has the target's record list; whether the record
// is of the op's kind is for the solver, which has the records.
func (r *graphReader) intrinsic(t *Table, op *model.Op) {
	name, ok := t.String("intrinsic", false)
	if !ok {
		return
	}
	op.Intrinsic, op.IntrinsicPos = name, t.Pos("intrinsic")
	if r.target != nil && r.target.Records != nil && !slices.Contains(r.target.Records, name) {
		t.Errorf("intrinsic", model.CodeUnknownName, "target %s offers no record named %q", r.target.Name, name)
	}
}

// hardMarks reads the graph's hard list: the names of the facts an
// explanation never offers to relax. Only their form is checked here; the
// solver checks that each names a fact of the graph.
func hardMarks(root *Table) []model.HardMark {
	v, ok := root.get("hard")
	if !ok {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		root.Errorf("hard", model.CodeBadType, "expected an array of strings, found %s", typeName(v))
		return nil
	}
	var out []model.HardMark
	for i, e := range arr {
		s, ok := e.(string)
		switch {
		case !ok:
			root.ErrorfAt("hard", i, model.CodeBadType, "expected a string, found %s", typeName(e))
		case s == "":
			root.ErrorfAt("hard", i, model.CodeBadValue, "a hard entry cannot be empty: write a fact's name as `planner explain` prints it in brackets, e.g. \"pin:a\"")
		case strings.ContainsFunc(s, unicode.IsSpace):
			root.ErrorfAt("hard", i, model.CodeBadValue, "%q has a space: write a fact's name as `planner explain` prints it in brackets, e.g. \"pin:a\" or \"no_convert:a->d\"", s)
		default:
			out = append(out, model.HardMark{Name: s, Pos: root.PosAt("hard", i)})
		}
	}
	return out
}

func (r *graphReader) contiguous(t *Table, shape []int) int {
	c, ok := t.Int("contiguous", false)
	if !ok {
		return len(shape) - 1
	}
	if c < 0 || c >= len(shape) {
		t.Errorf("contiguous", model.CodeBadValue, "contiguous dimension %d is out of range for rank %d", c, len(shape))
		return len(shape) - 1
	}
	return c
}

func isPerm(p []int, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, x := range p {
		if x < 0 || x >= n || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func product(xs []int) int {
	n := 1
	for _, x := range xs {
		n *= x
	}
	return n
}

func (r *graphReader) loop(t *Table, op *model.Op, parent *model.Loop) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > MaxLoopDepth {
		t.Errorf("kind", model.CodeTooLarge, "loops nest more than %d deep", MaxLoopDepth)
		return
	}
	l := &model.Loop{Name: op.Name, Parent: parent, Op: op, Pos: op.Pos}
	op.Body = l
	l.Trips, _ = t.Int("trips", true)
	if t.Has("trips") && l.Trips < 1 {
		t.Errorf("trips", model.CodeBadValue, "a loop runs at least once, found trips = %d", l.Trips)
	}
	args, _ := t.Strings("iter_args", false)
	inits, _ := t.Strings("inits", false)
	yields, _ := t.Strings("yields", false)
	results, _ := t.Strings("results", false)
	if len(inits) != len(args) || len(yields) != len(args) || len(results) != len(args) {
		t.Errorf("iter_args", model.CodeRankMismatch, "a loop needs as many inits, yields and results as iter_args: %d iter_args, %d inits, %d yields, %d results",
			len(args), len(inits), len(yields), len(results))
		return
	}
	for i, n := range inits {
		v := r.lookup(t, "inits", i, n)
		if v == nil {
			return
		}
		l.Inits = append(l.Inits, v)
		v.Uses = append(v.Uses, model.Use{Op: op, Index: i})
	}
	for i, n := range args {
		init := l.Inits[i]
		v := r.define(t, "iter_args", i, n, slices.Clone(init.Shape), init.DType, nil)
		if v == nil {
			return
		}
		v.Arg = l
		l.Args = append(l.Args, v)
	}
	l.Ops = r.opList(t, "body", l)
	for i, n := range yields {
		v := r.lookup(t, "yields", i, n)
		if v == nil {
			return
		}
		arg := l.Args[i]
		if !slices.Equal(v.Shape, arg.Shape) || v.DType.Name != arg.DType.Name {
			t.ErrorfAt("yields", i, model.CodeShapeMismatch, "yield %s is %v x %s but iter_arg %s is %v x %s", v.Name, v.Shape, v.DType.Name, arg.Name, arg.Shape, arg.DType.Name)
			return
		}
		l.Yields = append(l.Yields, v)
		v.Uses = append(v.Uses, model.Use{Op: op, Index: i, Yield: true})
	}
	// The body's own names stay visible after the loop only through its
	// results.
	for _, bop := range l.Ops {
		forgetBody(r, bop)
	}
	for i, n := range results {
		arg := l.Args[i]
		v := r.define(t, "results", i, n, slices.Clone(arg.Shape), arg.DType, op)
		if v == nil {
			return
		}
		l.Results = append(l.Results, v)
	}
}

// forgetBody removes the values defined inside a loop body (and its iter
// args) from scope.
func forgetBody(r *graphReader, op *model.Op) {
	if op.Result != nil {
		delete(r.values, op.Result.Name)
	}
	if op.Body != nil {
		for _, a := range op.Body.Args {
			delete(r.values, a.Name)
		}
		for _, b := range op.Body.Ops {
			forgetBody(r, b)
		}
		for _, res := range op.Body.Results {
			delete(r.values, res.Name)
		}
	}
}

// BufferLayout reads a two-dimensional buffer's placement in shared
// memory: row_stride, pad elements every pad_every rows, and a swizzle
// mode or an explicit XOR swizzle xor = [bits, base, shift] on byte
// offsets. With none of them the buffer is dense, row major.
func BufferLayout(bt *Table, b *model.Buffer) *model.SharedLayout {
	given := false
	for _, k := range []string{"row_stride", "pad", "pad_every", "swizzle", "xor"} {
		given = given || bt.Has(k)
	}
	if len(b.Shape) != 2 || b.DType.Bits == 0 {
		if given {
			bt.Errorf("", model.CodeRankMismatch, "a shared-memory placement (row_stride, pad, pad_every, swizzle) is for two-dimensional buffers; %s has %d dimensions", b.Name, len(b.Shape))
		}
		return nil
	}
	l := &model.SharedLayout{Rows: b.Shape[0], Cols: b.Shape[1], ElemBits: b.DType.Bits, Swizzle: "none"}
	nonNegative := func(key string, limit int) int {
		v, ok := bt.Int(key, false)
		if ok && (v < 0 || v > limit) {
			bt.Errorf(key, model.CodeBadValue, "%s is from 0 to %d, found %d", key, limit, v)
			return 0
		}
		return v
	}
	l.Stride = nonNegative("row_stride", 1<<20)
	if l.Stride != 0 && l.Stride < l.Cols {
		bt.Errorf("row_stride", model.CodeBadValue, "rows of %d elements cannot be %d elements apart", l.Cols, l.Stride)
		l.Stride = 0
	}
	l.Pad = nonNegative("pad", 1<<16)
	l.PadEvery = nonNegative("pad_every", 1<<16)
	if (l.Pad > 0) != (l.PadEvery > 0) {
		bt.Errorf("pad", model.CodeMissingKey, "pad and pad_every go together: pad elements after every pad_every rows")
		l.Pad, l.PadEvery = 0, 0
	}
	if sw, ok := bt.String("swizzle", false); ok {
		if !slices.Contains(model.SwizzleModes, sw) {
			bt.Errorf("swizzle", model.CodeUnknownName, "unknown swizzle %q (expected %s)", sw, strings.Join(model.SwizzleModes, ", "))
		} else {
			l.Swizzle = sw
		}
	}
	if xs, ok := bt.Ints("xor", false); ok {
		switch {
		case len(xs) != 3:
			bt.Errorf("xor", model.CodeRankMismatch, "xor is [bits, base, shift], found %d numbers", len(xs))
		case xs[0] < 1 || xs[0] > 8 || xs[1] < 0 || xs[1] > 16 || xs[2] < 1 || xs[2] > 16:
			bt.Errorf("xor", model.CodeBadValue, "xor = [bits 1..8, base 0..16, shift 1..16], found %v", xs)
		case xs[2] < xs[0]:
			bt.Errorf("xor", model.CodeBadValue, "xor's shift %d is less than its %d bits: the bits it reads would overlap the bits it changes", xs[2], xs[0])
		case l.Swizzle != "none":
			bt.Errorf("xor", model.CodeDuplicate, "give swizzle or xor, not both")
		default:
			l.XOR = model.Swizzle{Bits: xs[0], Base: xs[1], Shift: xs[2]}
		}
	}
	return l
}
