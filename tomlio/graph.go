package tomlio

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"planner/model"
	"planner/notation"
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

var graphKeys = []string{"target", "subgroups", "shared_memory", "registers", "no_conversions", "max_conversions", "notation", "hard", "buffers", "pins", "op"}

// knownOpKinds lists the kind words of the op table for messages.
func knownOpKinds() string {
	kinds, fns := model.KnownOpKinds()
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
	// unnamed: some op's result or loop's names are of the wrong type
	// (reported), so an unknown name may be one of them.
	unnamed bool
	depth   int
	// root is the graph's table; definitions have been found (later,
	// uses and unnamed), which only the messages of unknown names need,
	// once found is set.
	root  *Table
	found bool
	// whole: the document is streamed, and a message needs what it no
	// longer holds (the definitions): it is to be read whole.
	whole bool
}

// findDefinitions finds the definitions once, when a message first needs
// them: a graph without mistakes never does.
func (r *graphReader) findDefinitions() {
	if r.doc.spans != nil {
		r.whole = true
		return
	}
	if !r.found {
		r.found = true
		r.definitions(r.root, "op")
	}
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
		if v, ok := ot.m["result"]; ok {
			if _, isString := v.(string); !isString {
				r.unnamed = true
			}
		}
		for _, k := range []string{"iter_args", "results"} {
			if v, ok := ot.m[k]; ok {
				names, isArray := v.([]any)
				r.unnamed = r.unnamed || !isArray || slices.ContainsFunc(names, func(n any) bool { _, ok := n.(string); return !ok })
			}
		}
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

// operandKeys are the keys that name an op's operands.
var operandKeys = model.OperandKeys()

// operandNames lists the value names an op table uses, unchecked.
func operandNames(ot *Table) []string {
	var names []string
	for _, k := range operandKeys {
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

// ParseGraph reads a kernel graph's text. It is read streamed where it
// can be, one op table at a time (parseStreamed), so that what it holds
// beside the text is the graph and one op; a graph with a mistake, or
// one the streamed reading cannot follow, is read again whole, which
// reports every problem.
func ParseGraph(file string, data []byte, targets map[string]*model.Target) (*model.Graph, error) {
	if err := emptyInput(file, data, "a graph: its target, subgroups and [[op]] tables (docs/graphs.md)"); err != nil {
		return nil, err
	}
	if err := checkBounds(file, data); err != nil {
		return nil, err
	}
	if doc, ok := parseStreamed(file, data); ok {
		if g, whole, err := readGraph(doc, targets); err == nil && !whole {
			return g, nil
		}
	}
	doc, err := parseBounded(file, data)
	if err != nil {
		return nil, err
	}
	g, _, err := readGraph(doc, targets)
	return g, err
}

// readGraph reads the graph of a parsed document; whole is set when a
// streamed document must be read whole (its result is then to be
// dropped).
func readGraph(doc *Document, targets map[string]*model.Target) (_ *model.Graph, whole bool, _ error) {
	root := doc.Root()
	root.Expect(graphKeys...)
	n := len(doc.spans) // the ops, when streamed: the maps by name are sized once
	r := &graphReader{doc: doc, g: &model.Graph{File: doc.File}, values: make(map[string]*model.Value, n), names: make(map[string]model.Pos, n), later: map[string]model.Pos{}, uses: map[string][]string{}, inCycle: map[string]bool{}, failed: map[string]bool{}}
	r.root = root
	g := r.g
	var hasTarget bool
	g.Target, hasTarget = root.String("target", true)
	g.TargetPos = root.Pos("target")
	if hasTarget { // "" too: it names no target
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
	// The pins and the layouts ops state are read over the subgroups:
	// when they are wrong, Subgroups stays 0 and those are not read.
	var subgroupsOK bool
	g.Subgroups, subgroupsOK = root.Int("subgroups", true)
	if subgroupsOK {
		g.SubgroupsPos = root.Pos("subgroups")
		before := len(doc.Errs)
		switch {
		case g.Subgroups < 1:
			root.Errorf("subgroups", model.CodeBadValue, "subgroups must be positive, found %d", g.Subgroups)
		case g.Subgroups&(g.Subgroups-1) != 0:
			// Every notation builds the canonical linear layout, which
			// gives each bit of the subgroup id a basis (docs/layouts.md).
			root.Errorf("subgroups", model.CodeNotPowerOfTwo, "subgroups = %d is not a power of two: a layout gives each bit of the subgroup id a basis, so a block has 1, 2, 4, 8, ... subgroups", g.Subgroups)
		case r.target != nil && g.Subgroups > r.target.MaxSubgroups:
			root.Errorf("subgroups", model.CodeBadValue, "%s allows at most %d subgroups per block, found %d", r.target.Name, r.target.MaxSubgroups, g.Subgroups)
		}
		if len(doc.Errs) > before {
			g.Subgroups = 0
		}
	} else {
		g.Subgroups = 0
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
	if m, ok := root.String("registers", false); ok {
		switch m {
		case "budget":
		case "spill":
			g.SpillRegisters = true
		default:
			root.Errorf("registers", model.CodeBadValue, "registers is \"budget\" (the default: no plan holds more registers per lane than the target gives) or \"spill\" (plans may exceed it and say by how much), found %q", m)
		}
	}
	g.RegistersPos = root.Pos("registers")
	g.NoConversions, _ = root.Bool("no_conversions", false)
	g.NoConvPos = root.Pos("no_conversions")
	if n, ok := root.Int("max_conversions", false); ok {
		g.MaxConversionsPos = root.Pos("max_conversions")
		if n < 0 {
			root.Errorf("max_conversions", model.CodeBadValue, "max_conversions bounds how many conversions a plan may have: 0 or more, found %d", n)
		} else {
			g.HasMaxConversions, g.MaxConversions = true, n
			g.MaxConversionsFrom = "the graph's max_conversions"
		}
	}
	if n, ok := root.String("notation", false); ok {
		if !slices.Contains(notation.Kinds, n) {
			root.Errorf("notation", model.CodeUnknownName, "unknown notation %q (expected one of %s)", n, strings.Join(notation.Kinds, ", "))
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
			if !model.ValidName(name) {
				bufs.Errorf(name, model.CodeBadValue, "%q cannot name a buffer: %s", name, model.NameRule)
			}
			bt.Expect("shape", "dtype", "row_stride", "pad", "pad_every", "swizzle", "xor", "column_block", "column_major", "encoding")
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
	pinned := map[string]bool{} // the values with a pin table, read well or not
	if pins, ok := root.Sub("pins", false); ok && r.target != nil && g.Subgroups > 0 {
		byName := map[string][]*model.Value{} // a name two loop bodies define has two values
		for _, v := range g.Values {
			byName[v.Name] = append(byName[v.Name], v)
		}
		for _, name := range pins.Keys() {
			pinned[name] = true
			pt, ok := pins.Sub(name, true)
			if !ok {
				continue
			}
			// Any value of the graph may be pinned, those a loop body
			// defines and a loop's iter_args too; a name two loop bodies
			// each define is ambiguous.
			defs := byName[name]
			if len(defs) == 0 {
				r.findDefinitions()
				if !r.failed[name] && !r.unnamed { // else its op's error is reported
					pins.Errorf(name, model.CodeUnknownName, "pinned value %q is not defined by any op", name)
				}
				continue
			}
			if len(defs) > 1 {
				e := pins.Errorf(name, model.CodeDuplicate, "pinned value %q is defined %d times (at %s and %s): rename one", name, len(defs), defs[0].Pos, defs[1].Pos)
				for _, d := range defs {
					e.Related = append(e.Related, d.Pos)
				}
				continue
			}
			v := defs[0]
			if v.Pin = r.pin(pt, v.Shape); v.Pin != nil && g.Notation == "" {
				g.Notation = v.Pin.Notation.Kind()
			}
		}
	}
	// A value given in registers (a kernel argument) comes in the layout
	// the caller chose: the graph must say which.
	if r.target != nil && g.Subgroups > 0 {
		g.Walk(func(op *model.Op) {
			if op.Info().Given && op.Result != nil && op.Result.Pin == nil && !pinned[op.Result.Name] {
				r.doc.Errs = append(r.doc.Errs, &model.Error{Pos: op.Pos, Code: model.CodeMissingKey, Index: -1,
					Msg: fmt.Sprintf("%%%s arrives in registers in the layout its caller chose: state it under [pins.%s]", op.Result.Name, op.Result.Name)})
			}
		})
	}
	if g.Notation == "" {
		g.Notation = "linear"
	}
	root.CheckUnknown()
	doc.Errs = slices.DeleteFunc(doc.Errs, func(e *model.Error) bool { return e.Code == codeReported })
	if err := doc.Err(); err != nil {
		return nil, r.whole, err
	}
	return g, r.whole, nil
}

// pin reads a layout table (a pin, or the layout a store runs in) for a
// tensor of the given shape on the graph's target and subgroups. A layout
// written for another subgroup count or size is read as a pin no plan can
// meet (explanations say why); any other problem is an error, and nil.
func (r *graphReader) pin(pt *Table, shape []int) *model.Pin {
	f := model.Frame{Shape: shape, SubgroupSize: r.target.SubgroupSize, Subgroups: r.g.Subgroups}
	n := decodeNotation(pt)
	if n == nil {
		return nil
	}
	l, why, err := notation.PinLayout(n, f, r.target.Name)
	if err != nil {
		reportLayoutError(pt, err)
		return nil
	}
	return &model.Pin{Layout: l, Notation: n, Pos: pt.Pos(""), Unrealisable: why}
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
	var ops []*model.Op
	if t == r.root && key == "op" && r.doc.spans != nil {
		t.use(key)
		for i := range r.doc.spans {
			ot, ok := r.doc.replay(i)
			if !ok {
				r.whole = true
				return ops
			}
			ops = r.readOp(ops, ot, loop)
			r.doc.overlay = nil
		}
		return ops
	}
	tables, ok := t.TableArray(key)
	if !ok {
		return nil
	}
	for _, ot := range tables {
		ops = r.readOp(ops, ot, loop)
	}
	return ops
}

// readOp reads the op of table ot onto ops.
func (r *graphReader) readOp(ops []*model.Op, ot *Table, loop *model.Loop) []*model.Op {
	if op := r.op(ot, loop); op != nil {
		ops = append(ops, op)
	} else {
		r.failNames(ot)
	}
	// A result the op failed to define is reported once, at the op.
	if name, ok := ot.m["result"].(string); ok && r.values[name] == nil {
		r.failed[name] = true
	}
	return ops
}

// lookup resolves an operand name, reporting an unknown one.
func (r *graphReader) lookup(t *Table, key string, i int, name string) *model.Value {
	v, ok := r.values[name]
	if !ok {
		r.findDefinitions()
		msg := fmt.Sprintf("unknown value %q", name)
		result, _ := t.m["result"].(string)
		path := r.cycle(name, result)
		at, defined := r.later[name]
		switch {
		case r.inCycle[name] || r.failed[name] || r.unnamed && !defined:
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
	if !model.ValidName(name) {
		msg := fmt.Sprintf("%q cannot name a value: %s", name, model.NameRule)
		if i >= 0 {
			t.ErrorfAt(key, i, model.CodeBadValue, "%s", msg)
		} else {
			t.Errorf(key, model.CodeBadValue, "%s", msg)
		}
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
	t.Expect(model.OpKeys...)
	kindName, ok := t.String("kind", true)
	if !ok {
		t.CheckNotKnown()
		return nil
	}
	info := model.OpBySpelling(kindName)
	if info == nil {
		t.Errorf("kind", model.CodeUnknownName, "unknown op kind %q (expected %s)", kindName, knownOpKinds())
		return nil
	}
	op := &model.Op{Kind: info.Kind, Pos: t.Pos("kind"), In: loop}
	if info.ByFunction {
		op.Fn = kindName
	}
	before := len(r.doc.Errs)
	result, hasResult := t.String("result", false)
	op.Name, _ = t.String("name", false)
	if t.Has("name") && op.Name != "" && !model.ValidName(op.Name) {
		t.Errorf("name", model.CodeBadValue, "%q cannot name an op: %s", op.Name, model.NameRule)
	}
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
	if info.Flow == model.FlowCarry {
		r.loop(t, op, loop)
	} else {
		r.typed(t, op, info, kindName, result, hasResult, before)
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
		if t.unusedKnown() {
			t.CheckUnused(withArticle(kindName+" op"), opKeysOf(info)...)
		}
		t.CheckUnknown()
	} else {
		t.CheckNotKnown()
	}
	return op
}

// opKeysOf lists the keys an op table of a row may hold, for messages.
func opKeysOf(info *model.OpInfo) []string {
	keys := []string{"kind", "name"}
	if info.Result {
		keys = append(keys, "result")
	}
	if info.Operands {
		keys = append(keys, "operands")
		for _, r := range info.Roles {
			if r.Key {
				keys = append(keys, r.Name)
			}
		}
	}
	for _, k := range info.Keys {
		keys = append(keys, k.Name)
	}
	return append(keys, "no_convert")
}

// gates says which gates of an op's keys are open.
type gates [model.GateAfterResult + 1]bool

// typed reads an op of a row other than the loop, as the row says: its
// operands, its keys in their turn, then, when the operands, the result's
// name and the gate keys are good, its typing rule, which defines the
// result.
func (r *graphReader) typed(t *Table, op *model.Op, info *model.OpInfo, kindName, result string, hasResult bool, before int) {
	args := &model.OpArgs{Spelling: kindName}
	if info.Operands {
		if info.ByRole && !t.Has("operands") {
			for _, role := range info.Roles {
				if n, ok := t.String(role.Name, true); ok {
					if v := r.lookup(t, role.Name, -1, n); v != nil {
						op.Operands = append(op.Operands, v)
					}
				}
			}
		} else {
			op.Operands = r.operands(t, op, "operands")
		}
	}
	good := gates{model.GateBeforeResult: true, model.GateAfterResult: true}
	readKeys := func(when model.KeyWhen) {
		for _, k := range info.Keys {
			if k.When == when && !r.opKey(t, op, info, k.Name, args) && k.Gate != model.GateNone {
				good[k.Gate] = false
			}
		}
	}
	readKeys(model.KeyFirst)
	for _, role := range info.Roles {
		if !role.Optional {
			continue
		}
		if n, ok := t.String(role.Name, false); ok {
			if v := r.lookup(t, role.Name, -1, n); v != nil {
				op.Operands = append(op.Operands, v)
			}
		}
	}
	args.Operands = op.Operands
	if r.gate(t, op, info, kindName, hasResult, before, good) {
		readKeys(model.KeyLate)
		if info.Type != nil {
			typ, errs := info.Type(args)
			for _, e := range errs {
				if e.Index >= 0 {
					t.ErrorfAt(e.Key, e.Index, e.Code, "%s", e.Msg)
				} else {
					t.Errorf(e.Key, e.Code, "%s", e.Msg)
				}
			}
			if info.Result && typ != nil && errs == nil {
				op.Result = r.define(t, "result", -1, result, typ.Shape, typ.DType, op)
			}
		}
	}
	readKeys(model.KeyLast)
	if slices.ContainsFunc(info.Keys, func(k model.OpKey) bool { return k.Name == "combiner" }) && !slices.Contains(model.ReduceCombiners, op.Fn) {
		t.Errorf("combiner", model.CodeUnknownName, "unknown combiner %q (expected add, max, min or mul)", op.Fn)
	}
}

// gate checks, in the reader's order, what must hold before an op is
// typed: no error in its operands, their number, the result's name and
// the gate keys.
func (r *graphReader) gate(t *Table, op *model.Op, info *model.OpInfo, kindName string, hasResult bool, before int, good gates) bool {
	if info.Operands && len(r.doc.Errs) != before {
		return false
	}
	if info.Arity > 0 && len(op.Operands) != info.Arity {
		t.Errorf("operands", model.CodeBadValue, "%s takes %d operand(s), found %d", kindName, info.Arity, len(op.Operands))
		return false
	}
	if !good[model.GateBeforeResult] {
		return false
	}
	if info.Result && !hasResult {
		if !t.Has("result") { // else a result of the wrong type, reported
			t.Errorf("kind", model.CodeMissingKey, "a %s op needs a result name (key \"result\")", kindName)
		}
		return false
	}
	return good[model.GateAfterResult]
}

// opKey reads one key of an op table into the op and the typing rule's
// arguments; false when it did not read well.
func (r *graphReader) opKey(t *Table, op *model.Op, info *model.OpInfo, key string, args *model.OpArgs) bool {
	switch key {
	case "shape":
		args.Shape = r.shape(t, key)
		return args.Shape != nil
	case "dtype":
		args.DType = r.dtype(t, key)
		return args.DType.Bits > 0
	case "contiguous", "mask":
		if key == "mask" && !t.Has(key) {
			return true // unmasked
		}
		// Over the tensor accessed: a load's own shape, a store's operand's.
		shape := args.Shape
		if !slices.ContainsFunc(info.Keys, func(k model.OpKey) bool { return k.Name == "shape" }) {
			shape = op.Operands[0].Shape
		}
		if shape == nil { // the op's shape is wrong, and reported
			t.get(key)
			return false
		}
		if key == "mask" {
			op.Mask = r.mask(t, key, shape)
			return op.Mask != nil
		}
		op.Contiguous = r.contiguous(t, shape)
	case "value":
		t.get(key)
	case "surface":
		op.Surface = r.surface(t, key)
		return op.Surface != nil
	case "layout":
		// The layout a store or copy runs in, as a compiler already chose
		// it: a pin of the stored value's access.
		if lt, ok := t.Sub(key, false); ok && r.target != nil && r.g.Subgroups > 0 {
			op.Layout = r.pin(lt, op.Operands[0].Shape)
		}
	case "buffer":
		op.Buffer = r.buffer(t)
		args.Buffer = op.Buffer
		return op.Buffer != nil
	case "axis":
		var ok bool
		op.Axis, ok = t.Int(key, true)
		args.Axis = op.Axis
		return ok
	case "perm":
		op.Perm, _ = t.Ints(key, true)
		args.Perm = op.Perm
	case "dims":
		op.Dims, _ = t.Ints(key, true)
		args.Dims = op.Dims
	case "combiner":
		op.Fn, _ = t.String(key, true)
	case "intrinsic":
		r.intrinsic(t, op)
	case "k_width", "transposed":
		r.variant(t, op, key)
	default:
		panic("source: the op table names key " + key + ", which the reader cannot read")
	}
	return true
}

// buffer reads the buffer an op names.
func (r *graphReader) buffer(t *Table) *model.Buffer {
	name, ok := t.String("buffer", true)
	if !ok {
		return nil
	}
	for _, b := range r.g.Buffers {
		if b.Name == name {
			if b.Shape == nil || b.DType.Bits == 0 {
				// The buffer's error is reported at the buffer; a
				// placeholder stops the op's checks.
				t.Errorf("buffer", codeReported, "")
				return nil
			}
			return b
		}
	}
	t.Errorf("buffer", model.CodeUnknownName, "unknown buffer %q; declare it under [buffers.%s] with shape and dtype", name, name)
	return nil
}

// intrinsic reads the record an op names (an mma record for an mma, a
// load record for a load_shared). The name must be one the graph's target
// offers, when the reader has the target's record list, and of the kind
// the op runs, when it has the records' kinds.
func (r *graphReader) intrinsic(t *Table, op *model.Op) {
	name, ok := t.String("intrinsic", false)
	if !ok {
		return
	}
	op.Intrinsic, op.IntrinsicPos = name, t.Pos("intrinsic")
	if r.target == nil || r.target.Records == nil {
		return
	}
	if !slices.Contains(r.target.Records, name) {
		t.Errorf("intrinsic", model.CodeUnknownName, "target %s offers no record named %q", r.target.Name, name)
		return
	}
	want := op.Info().Records
	if kind, known := r.target.RecordKinds[name]; known && want != "" && !kind.Serves(want) {
		t.Errorf("intrinsic", model.CodeBadValue, "%s is not %s of %s: it is %s (planner intrinsics list --target %s gives each record's kind)",
			name, want.Words(), r.target.Name, kind.Words(), r.target.Name)
	}
}

// variant reads how an mma states it must run: the kWidth of its operands
// (a positive number) or whether its accumulator is transposed.
func (r *graphReader) variant(t *Table, op *model.Op, key string) {
	if !t.Has(key) {
		return
	}
	if op.Variant == nil {
		op.Variant = &model.MMAVariant{Pos: t.Pos(key)}
	}
	if key == "transposed" {
		if b, ok := t.Bool(key, true); ok {
			op.Variant.Transposed = &b
		}
		return
	}
	if n, ok := t.Int(key, true); ok {
		if n < 1 {
			t.Errorf(key, model.CodeBadValue, "a kWidth is a positive number of consecutive K elements per lane, found %d", n)
			return
		}
		op.Variant.KWidth = n
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
		root.typeError("hard", nil, "an array of strings", v)
		return nil
	}
	var out []model.HardMark
	for i, e := range arr {
		s, ok := e.(string)
		switch {
		case !ok:
			root.typeError("hard", []int{i}, "a string", e)
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

// mask reads a load's or store's mask: per dimension of the tensor
// accessed, over how many consecutive elements the mask is constant (0:
// along the whole dimension; model.AccessMask). nil when it is wrong
// (reported).
func (r *graphReader) mask(t *Table, key string, shape []int) *model.AccessMask {
	c, ok := t.Ints(key, true)
	if !ok {
		return nil
	}
	if len(c) != len(shape) {
		t.Errorf(key, model.CodeRankMismatch, "mask has %d entries: expected %d, one constancy per dimension of the tensor accessed", len(c), len(shape))
		return nil
	}
	for d, n := range c {
		if n < 0 || n > shape[d] {
			t.Errorf(key, model.CodeBadValue, "mask's constancy along dimension %d is %d: expected 0 (constant along the whole dimension) to %d (its size), the elements over which the mask is the same", d, n, shape[d])
			return nil
		}
	}
	return &model.AccessMask{Constancy: c}
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

func (r *graphReader) loop(t *Table, op *model.Op, parent *model.Loop) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > MaxLoopDepth {
		t.Errorf("kind", model.CodeTooLarge, "loops nest more than %d deep", MaxLoopDepth)
		r.failNames(t)
		return
	}
	l := &model.Loop{Name: op.Name, Parent: parent, Op: op, Pos: op.Pos}
	op.Body = l
	// A loop that stops at an error leaves the names its body and its
	// results would define undefined: uses of them are not reported again.
	done := false
	defer func() {
		if !done {
			r.failNames(t)
		}
	}()
	if word, ok := t.m["trips"].(string); ok {
		// A trip count known only at run time: the graph states the
		// count to price the body at.
		t.get("trips")
		if word != "dyn" {
			t.Errorf("trips", model.CodeBadValue, "trips is a count or \"dyn\" (known only at run time, with assume_trips), found %q", word)
		} else if n, ok := t.Int("assume_trips", false); !ok {
			if t.Has("assume_trips") { // of the wrong type, reported
				return
			}
			t.Errorf("trips", model.CodeMissingKey, "a loop with trips = \"dyn\" needs assume_trips: the count its body is priced at")
		} else if n < 1 {
			t.Errorf("assume_trips", model.CodeBadValue, "a loop runs at least once, found assume_trips = %d", n)
		} else {
			l.Trips, l.Dynamic = n, true
		}
	} else {
		var read bool
		l.Trips, read = t.Int("trips", true) // not read: reported, of the wrong type or out of range
		if read && l.Trips < 1 {
			t.Errorf("trips", model.CodeBadValue, "a loop runs at least once, found trips = %d", l.Trips)
		}
		if t.Has("assume_trips") {
			t.Errorf("assume_trips", model.CodeBadValue, "assume_trips is for a loop with trips = \"dyn\"; this loop runs %d times", l.Trips)
		}
	}
	before := len(r.doc.Errs)
	args, _ := t.Strings("iter_args", false)
	inits, _ := t.Strings("inits", false)
	yields, _ := t.Strings("yields", false)
	results, _ := t.Strings("results", false)
	if len(r.doc.Errs) > before { // a list of the wrong type, reported
		return
	}
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
	done = true
}

// failNames marks every name an op table (and its body) would define as
// failed: its errors are reported, and its uses are not reported again.
func (r *graphReader) failNames(t *Table) {
	if name, ok := t.m["result"].(string); ok && r.values[name] == nil {
		r.failed[name] = true
	}
	for _, k := range []string{"iter_args", "results"} {
		if names, ok := t.m[k].([]any); ok {
			for _, n := range names {
				if name, ok := n.(string); ok && r.values[name] == nil {
					r.failed[name] = true
				}
			}
		}
	}
	if body, ok := t.peekTableArray("body"); ok {
		for _, b := range body {
			r.failNames(b)
		}
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

// tritonPlacement reads a buffer's placement given as a Triton shared
// encoding, in place of the other placement keys.
func tritonPlacement(bt *Table, b *model.Buffer) *model.SharedLayout {
	for _, k := range []string{"row_stride", "pad", "pad_every", "swizzle", "xor", "column_block", "column_major"} {
		if bt.Has(k) {
			bt.Errorf(k, model.CodeDuplicate, "give the placement as encoding or as %s and its kin, not both", k).Related = []model.Pos{bt.Pos("encoding")}
			bt.get(k)
		}
	}
	text, ok := bt.String("encoding", true)
	if !ok {
		return nil
	}
	l, err := notation.ParseTritonShared(text, bt.TextPos("encoding"), b.Shape[0], b.Shape[1], b.DType.Bits)
	if err != nil {
		bt.Report(err)
		return nil
	}
	return l
}

// BufferLayout reads a two-dimensional buffer's placement in shared
// memory: row_stride, pad elements every pad_every rows, a swizzle
// mode or an explicit XOR swizzle xor = [bits, base, shift] on byte
// offsets, column_block, the columns of each block when the rows are
// cut into blocks laid out one after another (a wgmma operand of several
// swizzle atoms), and column_major, the buffer's transpose stored so (a
// K-major wgmma B). With none of them the buffer is dense, row major.
func BufferLayout(bt *Table, b *model.Buffer) *model.SharedLayout {
	given := false
	placement := []string{"row_stride", "pad", "pad_every", "swizzle", "xor", "column_block", "column_major", "encoding"}
	for _, k := range placement {
		given = given || bt.Has(k)
	}
	if b.Shape == nil || b.DType.Bits == 0 {
		// The shape or the type is wrong, and reported: the placement is
		// not read over it.
		for _, k := range placement {
			bt.get(k)
		}
		return nil
	}
	if len(b.Shape) != 2 {
		if given {
			bt.Errorf("", model.CodeRankMismatch, "a shared-memory placement (row_stride, pad, pad_every, swizzle) is for two-dimensional buffers; %s has %d dimensions", b.Name, len(b.Shape))
		}
		return nil
	}
	if bt.Has("encoding") {
		return tritonPlacement(bt, b)
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
	// pad elements after every pad_every rows: each needs the other, and
	// a padding of 0, or every 0 rows, is none.
	before := len(bt.doc.Errs)
	l.Pad = nonNegative("pad", 1<<16)
	l.PadEvery = nonNegative("pad_every", 1<<16)
	switch {
	case len(bt.doc.Errs) > before:
	case bt.Has("pad") && !bt.Has("pad_every"):
		bt.Errorf("pad", model.CodeMissingKey, "pad needs pad_every: pad elements go after every pad_every rows")
	case bt.Has("pad_every") && !bt.Has("pad"):
		bt.Errorf("pad_every", model.CodeMissingKey, "pad_every needs pad: pad elements go after every pad_every rows")
	case l.Pad > 0 && l.PadEvery == 0:
		bt.Errorf("pad_every", model.CodeBadValue, "pad_every = 0: the %d pad elements go after every pad_every rows, so pad_every is at least 1", l.Pad)
	case l.PadEvery > 0 && l.Pad == 0:
		bt.Errorf("pad", model.CodeBadValue, "pad = 0 pads nothing after every %d rows: pad is at least 1 (or leave out pad and pad_every)", l.PadEvery)
	}
	if len(bt.doc.Errs) > before {
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
	if cm, ok := bt.Bool("column_major", false); ok {
		l.ColumnMajor = cm
	}
	if w, ok := bt.Int("column_block", false); ok {
		_, cols := l.StoredShape()
		switch {
		case w < 1 || w > cols || cols%w != 0:
			bt.Errorf("column_block", model.CodeBadValue, "column_block divides the buffer's %d stored columns, found %d", cols, w)
		case l.Stride != 0 || l.PadEvery > 0:
			bt.Errorf("column_block", model.CodeBadValue, "a buffer in column blocks is dense within each block: give row_stride or pad, or column_block, not both")
		case w < cols:
			l.ColumnBlock = w
		}
	}
	return l
}

// surface reads a load's or store's [op.surface]: the two-dimensional
// region of global memory it accesses, in bytes (width, pitch, the base's
// alignment, the start column x) and rows (height).
func (r *graphReader) surface(t *Table, key string) *model.Surface {
	st, ok := t.Sub(key, false)
	if !ok {
		return nil
	}
	var s model.Surface
	good := true
	for _, f := range []struct {
		key string
		at  *int
		min int
	}{{"width", &s.Width, 1}, {"height", &s.Height, 1}, {"pitch", &s.Pitch, 1}, {"base_alignment", &s.BaseAlignment, 1}, {"x", &s.X, 0}} {
		n, ok := st.Int(f.key, f.key != "x")
		switch {
		case !ok:
			good = good && f.key == "x" && !st.Has(f.key)
		case n < f.min:
			st.Errorf(f.key, model.CodeBadValue, "expected %s of at least %d, found %d", f.key, f.min, n)
			good = false
		default:
			*f.at = n
		}
	}
	st.CheckUnknown("width", "height", "pitch", "base_alignment", "x")
	if !good {
		return nil
	}
	return &s
}
