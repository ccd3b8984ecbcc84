package planfile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/tomlio"
)

// File is a plan that Write wrote (planner solve --format toml), read
// back: the graph it names and, once that graph is read, every choice the
// plan made (Rebuild).
type File struct {
	File      string // the plan file
	Graph     string // the graph file, as the plan names it
	GraphHash string // the graph's SHA-256 as the plan records it ("" when it records none)
	// Target and Subgroups are what the plan was made for, as it records
	// them ("", 0 when it does not): a kernel read from MLIR is read again
	// for them.
	Target    string
	Subgroups int
	// MaxConversions is the bound on conversions the plan was solved
	// under, as it records it: a number, "none" where the solve lifted
	// the graph's, or "" when it records none (the graph's own holds).
	MaxConversions string
	doc            *tomlio.Document
	root           *tomlio.Table
	// The tables Rebuild read, by what they describe, for errors to
	// point at.
	values, ops, buffers map[string]*tomlio.Table
	convs                map[[3]string]*tomlio.Table
}

// Read reads a plan file from disk as far as the graph it names.
func Read(path string) (*File, error) {
	data, err := tomlio.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a plan file's text as far as the graph it names.
func Parse(file string, data []byte) (*File, error) {
	doc, root, err := tomlio.ParseRoot(file, data, keysOf(""))
	if err != nil {
		return nil, err
	}
	pf := &File{File: file, doc: doc, root: root}
	if !root.Has("file") {
		root.Errorf("", model.CodeMissingKey, "missing key \"file\": expected a plan written by planner solve --format toml")
		return nil, doc.Err()
	}
	pf.Graph, _ = root.String("file", true)
	pf.GraphHash, _ = root.String("graph_sha256", false)
	if err := doc.Err(); err != nil {
		return nil, err
	}
	if v, ok := root.Raw("target"); ok {
		pf.Target, _ = v.(string)
	}
	if v, ok := root.Raw("subgroups"); ok {
		if n, ok := v.(int64); ok {
			pf.Subgroups = int(n)
		}
	}
	if v, ok := root.Raw("max_conversions"); ok {
		n, isInt := v.(int64)
		switch {
		case isInt && n >= 0:
			pf.MaxConversions = strconv.FormatInt(n, 10)
		case v == "none":
			pf.MaxConversions = "none"
		default:
			root.Errorf("max_conversions", model.CodeBadValue, "max_conversions is a number of conversions, 0 or more, or \"none\" (the solve lifted the graph's bound), found %v", v)
			return nil, doc.Err()
		}
	}
	return pf, nil
}

// HashGraph is the hex SHA-256 of a graph file's bytes, as plans record it.
func HashGraph(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// CheckGraph reports whether data is the graph the plan was made from,
// when the plan records its hash.
func (pf *File) CheckGraph(path string, data []byte) error {
	if pf.GraphHash == "" || HashGraph(data) == pf.GraphHash {
		return nil
	}
	pf.root.Errorf("graph_sha256", model.CodeIncompatible, "the plan was made from another version of %s: its SHA-256 is %s, the plan's %s", path, HashGraph(data), pf.GraphHash).Related = []model.Pos{pf.root.Pos("file")}
	return pf.doc.Err()
}

// Rebuild reads the plan's choices for graph g with the given records: the
// plan as written (its claims: costs, conversions and their mechanisms)
// and the assignment it describes (layouts, required layouts, intrinsics,
// arrangements, execution layouts, buffer placements). Every problem is
// reported at its line: a name the graph lacks, a value or op the plan
// leaves out, a layout that does not parse.
func (pf *File) Rebuild(g *model.Graph, records map[string]*model.Record) (*plans.Plan, *model.Assignment, error) {
	root := pf.root
	p := &plans.Plan{File: pf.Graph, GraphHash: pf.GraphHash}
	a := model.NewAssignment()
	if target, ok := root.String("target", true); ok && target != g.Target {
		root.Errorf("target", model.CodeIncompatible, "the plan is for target %q, the graph for %q", target, g.Target)
	}
	p.Target = g.Target
	p.Subgroups, _ = root.Int("subgroups", true)
	p.Notation, _ = root.String("notation", false)
	if root.Has("notation") && !slices.Contains(notation.Kinds, p.Notation) {
		root.Errorf("notation", model.CodeUnknownName, "unknown notation %q (expected one of %s)", p.Notation, strings.Join(notation.Kinds, ", "))
	}
	p.Status, _ = root.String("status", true)
	cost, _ := root.Int("cost", true)
	lower, _ := root.Int("lower_bound", false)
	p.Cost, p.LowerBound = int64(cost), int64(lower)
	if sm, ok := root.Sub("shared_memory", true); ok {
		sm.Expect(keysOf("shared_memory")...)
		p.Shared.Buffers, _ = sm.Int("buffers", true)
		p.Shared.Scratch, _ = sm.Int("scratch", true)
		p.Shared.Budget, _ = sm.Int("budget", true)
		sm.CheckUnknown()
	}
	if rt, ok := root.Sub("registers", true); ok {
		rt.Expect(keysOf("registers")...)
		p.Registers.Peak, _ = rt.Int("peak", true)
		p.Registers.At, _ = rt.String("at", true)
		p.Registers.Budget, _ = rt.Int("budget", true)
		p.Registers.Over, _ = rt.Int("over", false)
		spill, _ := rt.Int("spill_cost", false)
		p.Registers.SpillCost = int64(spill)
		p.Registers.Spill = g.SpillRegisters
		rt.CheckUnknown()
	}
	r := &planReader{g: g, records: records, p: p, a: a, pf: pf}
	pf.values, pf.ops, pf.buffers, pf.convs = map[string]*tomlio.Table{}, map[string]*tomlio.Table{}, map[string]*tomlio.Table{}, map[[3]string]*tomlio.Table{}
	r.buffers(root)
	r.values(root)
	r.ops(root)
	r.conversions(root)
	root.CheckUnknown()
	if err := pf.doc.Err(); err != nil {
		return nil, nil, err
	}
	return p, a, nil
}

type planReader struct {
	g       *model.Graph
	records map[string]*model.Record
	p       *plans.Plan
	a       *model.Assignment
	pf      *File
}

// entries reads the sub-tables of a table of named entries ([values."x"]).
func entries(root *tomlio.Table, key string) (*tomlio.Table, []string) {
	t, ok := root.Sub(key, false)
	if !ok {
		return nil, nil
	}
	return t, t.Keys()
}

func (r *planReader) buffers(root *tomlio.Table) {
	t, names := entries(root, "buffers")
	for _, name := range names {
		bt, ok := t.Sub(name, true)
		if !ok {
			continue
		}
		var buf *model.Buffer
		for _, b := range r.g.Buffers {
			if b.Name == name {
				buf = b
			}
		}
		if buf == nil {
			t.Errorf(name, model.CodeUnknownName, "the graph has no buffer %q", name)
			continue
		}
		r.pf.buffers[name] = bt
		bt.Expect(keysOf("buffers.*")...)
		if s := tomlio.BufferLayout(bt, buf); s != nil {
			r.a.Buffers[buf] = s
		}
		bp := plans.BufferPlan{Name: name, Shape: buf.Shape, DType: buf.DType.Name, Accesses: []plans.AccessPlan{}}
		bp.Bytes, _ = bt.Int("bytes", false)
		accesses, _ := bt.TableArray("accesses")
		for _, at := range accesses {
			at.Expect(keysOf("buffers.*.accesses[]")...)
			var ap plans.AccessPlan
			ap.Op, _ = at.String("op", true)
			ap.Access, _ = at.String("access", true)
			ap.Method, _ = at.String("method", false)
			ap.Instructions, _ = at.Int("instructions", false)
			ap.Wavefronts, _ = at.Int("wavefronts", true)
			ap.Ideal, _ = at.Int("ideal", true)
			ap.Conflicts, _ = at.Int("conflicts", true)
			at.CheckUnknown()
			bp.Accesses = append(bp.Accesses, ap)
		}
		bt.CheckNotKnown()
		r.p.Shared.Placed = append(r.p.Shared.Placed, bp)
	}
	// Every two-dimensional buffer an op accesses is placed.
	where := root
	if t != nil {
		where = t
	}
	accessed := map[*model.Buffer]bool{}
	r.g.Walk(func(op *model.Op) {
		if op.Buffer != nil {
			accessed[op.Buffer] = true
		}
	})
	for _, b := range r.g.Buffers {
		if b.Layout != nil && accessed[b] && (t == nil || !t.Has(b.Name)) {
			where.Errorf("", model.CodeMissingKey, "the plan gives buffer %s no placement: expected a [buffers.%q] table", b.Name, b.Name)
		}
	}
}

func (r *planReader) values(root *tomlio.Table) {
	t, names := entries(root, "values")
	byName := map[string]*model.Value{}
	for _, v := range r.g.Values {
		byName[v.Name] = v
	}
	for _, name := range names {
		vt, ok := t.Sub(name, true)
		if !ok {
			continue
		}
		v := byName[name]
		if v == nil {
			t.Errorf(name, model.CodeUnknownName, "the graph has no value %%%s", name)
			continue
		}
		r.pf.values[name] = vt
		vt.Expect(keysOf("values.*")...)
		l := r.readExact(vt, "exact", v.Shape)
		vt.CheckNotKnown()
		if l != nil {
			r.a.Layouts[v] = l
		}
		r.p.Values = append(r.p.Values, plans.ValuePlan{Name: name, Shape: v.Shape, DType: v.DType.Name})
	}
	where := root
	if t != nil {
		where = t
	}
	for _, v := range r.g.Values {
		if _, ok := byName[v.Name]; ok && (t == nil || !t.Has(v.Name)) {
			where.Errorf("", model.CodeMissingKey, "the plan gives %%%s no layout: expected a [values.%q] table", v.Name, v.Name)
		}
	}
}

// readExact reads a layout written in layout-file form under key: the
// frame keys and a [layout] table. The layout must cover shape.
func (r *planReader) readExact(t *tomlio.Table, key string, shape []int) *model.Layout {
	et, ok := t.Sub(key, true)
	if !ok {
		return nil
	}
	if et.Has("family") {
		return r.readOpaque(et, shape)
	}
	if et.Has("in_shared") {
		return readInShared(et, shape)
	}
	et.Expect("shape", "subgroup_size", "subgroups", "blocks", "layout")
	f, ok := tomlio.ReadFrame(et)
	lt, has := et.Sub("layout", true)
	et.CheckUnknown()
	if !ok || !has {
		return nil
	}
	if shape != nil && fmt.Sprint(f.Shape) != fmt.Sprint(shape) {
		et.Errorf("shape", model.CodeShapeMismatch, "expected the value's shape %v, found %v", shape, f.Shape)
		return nil
	}
	_, l := tomlio.DecodeLayout(lt, f)
	if l != nil && l.Size(model.Register) > l.Elements() {
		et.Errorf("layout", model.CodeTooLarge, "each lane holds %d values of a tensor of %d elements: registers repeat", l.Size(model.Register), l.Elements())
		return nil
	}
	return l
}

// readOpaque reads a fragment of unspecified lanes: its family, which one
// of the target's records must name, and the layout of its tiles.
func (r *planReader) readOpaque(et *tomlio.Table, shape []int) *model.Layout {
	et.Expect("shape", "subgroup_size", "subgroups", "blocks", "family", "tiles")
	family, _ := et.String("family", true)
	f, ok := tomlio.ReadFrame(et)
	tiles := r.readExact(et, "tiles", nil)
	et.CheckUnknown()
	if !ok {
		return nil
	}
	given := f.Shape
	var frag *model.Layout
	for _, name := range slices.Sorted(maps.Keys(r.records)) {
		for _, op := range []*model.Operand{r.records[name].Operands["a"], r.records[name].Operands["b"], r.records[name].Operands["c"], r.records[name].Operands["d"], r.records[name].Fragment} {
			if frag == nil && op != nil && op.Layout != nil && op.Layout.Opaque() == family {
				frag = op.Layout
			}
		}
	}
	switch {
	case frag == nil:
		et.Errorf("family", model.CodeUnknownName, "no record of target %s names fragment family %q", r.g.Target, family)
		return nil
	case tiles == nil:
		return nil
	case shape != nil && fmt.Sprint(given) != fmt.Sprint(shape):
		et.Errorf("shape", model.CodeShapeMismatch, "expected the value's shape %v, found %v", shape, given)
		return nil
	}
	l, err := model.TileBy(frag, tiles)
	if err != nil {
		et.Errorf("tiles", model.CodeShapeMismatch, "%v", err)
		return nil
	}
	if fmt.Sprint(l.Shape()) != fmt.Sprint(given) || l.Size(model.Lane) != f.SubgroupSize || l.Size(model.Subgroup) != f.Subgroups {
		et.Errorf("tiles", model.CodeShapeMismatch, "%v tiles of %v fragments cover %v over %d subgroups of %d lanes, not the %v over %d of %d given",
			tiles.Shape(), frag.Shape(), l.Shape(), l.Size(model.Subgroup), l.Size(model.Lane), given, f.Subgroups, f.SubgroupSize)
		return nil
	}
	return l
}

func (r *planReader) ops(root *tomlio.Table) {
	t, _ := entries(root, "ops")
	r.g.Walk(func(op *model.Op) {
		if t == nil || !t.Has(op.Name) {
			where := root
			if t != nil {
				where = t
			}
			where.Errorf("", model.CodeMissingKey, "the plan leaves out op %s: expected an [ops.%q] table", op.Name, op.Name)
			return
		}
		ot, ok := t.Sub(op.Name, true)
		if !ok {
			return
		}
		r.pf.ops[op.Name] = ot
		ot.Expect(keysOf("ops.*")...)
		cost, _ := ot.Int("cost", true)
		opp := plans.OpPlan{Name: op.Name, Cost: int64(cost), Pos: op.Pos}
		opp.Kind, _ = ot.String("kind", false)
		var rec *model.Record
		if name, has := ot.String("intrinsic", false); has {
			rec = r.records[name]
			want := op.Info().Records
			switch {
			case rec != nil && rec.Kind == model.RecordFMA && want == model.RecordMMA:
				// An FMA dot runs an mma op without a matrix instruction.
			case rec == nil:
				ot.Errorf("intrinsic", model.CodeUnknownName, "target %s offers no record named %q", r.g.Target, name)
			case rec.Kind != want:
				ot.Errorf("intrinsic", model.CodeIncompatible, "%s is a %s record; %s op %s takes no such record", name, rec.Kind, op.Kind, op.Name)
				rec = nil
			}
			opp.Intrinsic = name
		}
		switch info := op.Info(); {
		case info.Flow == model.FlowRecord:
			if rec == nil && !ot.Has("intrinsic") {
				ot.Errorf("", model.CodeMissingKey, "mma %s needs its intrinsic", op.Name)
			}
			if along, has := ot.String("blocks_along", false); has && rec != nil {
				// The view of a multi-block record with its blocks along
				// M or N.
				view, err := rec.BlockView(along)
				if err != nil {
					ot.Errorf("blocks_along", model.CodeBadValue, "%v", err).Related = []model.Pos{ot.Pos("intrinsic")}
				}
				rec = view
				opp.BlocksAlong = along
			} else if rec != nil && rec.Blocks > 1 {
				ot.Errorf("intrinsic", model.CodeMissingKey, "%s is a multi-block mma: expected blocks_along = %q or %q", rec.Name, model.BlocksAlongM, model.BlocksAlongN)
			}
			ch := &model.OpChoice{Record: rec}
			ch.WarpsM, _ = ot.Int("warps_m", true)
			ch.WarpsN, _ = ot.Int("warps_n", true)
			ch.NFirst, _ = ot.Bool("n_first", false)
			ch.Outer, _ = ot.Bool("outer", false)
			ch.WarpsB, _ = ot.Int("warps_b", false)
			ch.Transposed, _ = ot.Bool("transposed", false)
			ch.KWidth, _ = ot.Int("k_width", false)
			if ot.Has("k_width") && (rec == nil || ch.KWidth <= rec.OwnKWidth() || ch.KWidth%max(rec.OwnKWidth(), 1) != 0) {
				own := 0
				if rec != nil {
					own = rec.OwnKWidth()
				}
				ot.Errorf("k_width", model.CodeBadValue, "expected a k_width that is a multiple of the record's own %d and larger, found %d", own, ch.KWidth)
				ch.KWidth = 0
			}
			if order, has := ot.Ints("k_order", false); has {
				bits := 0
				if k := op.Operands[0].Shape; len(k) == 2 {
					for k[1]%(2<<bits) == 0 {
						bits++
					}
				}
				switch o := model.KOrder(order); {
				case !o.Valid(bits):
					ot.Errorf("k_order", model.CodeBadValue, "expected a k_order that permutes the K bits 0 to n-1 of a K of %d (at most %d bits), found %v", op.Operands[0].Shape[len(op.Operands[0].Shape)-1], bits, order)
				case ch.KWidth > 0:
					ot.Errorf("k_order", model.CodeBadValue, "expected k_width or k_order, found both").Related = []model.Pos{ot.Pos("k_width")}
				case !o.Identity():
					ch.KOrder = o
				}
			}
			if ch.WarpsM < 1 || ch.WarpsN < 1 || ch.WarpsM*ch.WarpsN*max(ch.WarpsB, 1) > r.g.Subgroups {
				ot.Errorf("warps_m", model.CodeBadValue, "expected warps_m × warps_n from 1 to the graph's %d subgroups, found %d × %d", r.g.Subgroups, ch.WarpsM, ch.WarpsN).Related = []model.Pos{ot.Pos("warps_n")}
				ch.WarpsM, ch.WarpsN = 1, 1
			}
			opp.WarpsM, opp.WarpsN, opp.NFirst, opp.Outer, opp.WarpsB = ch.WarpsM, ch.WarpsN, ch.NFirst, ch.Outer, ch.WarpsB
			if _, buf := model.DescriptorOperand(op, rec); buf != nil {
				ch.Buffer = r.a.Buffers[buf] // the buffer its descriptor reads
			}
			opp.Transposed, opp.KWidth, opp.KOrder = ch.Transposed, ch.KWidth, ch.KOrder
			r.a.Ops[op] = ch
		case op.ReadsShared():
			r.a.Ops[op] = &model.OpChoice{Record: rec, Buffer: r.a.Buffers[op.Buffer]}
		case info.Records == model.RecordLoadGlobal && rec != nil:
			r.a.Ops[op] = &model.OpChoice{Record: rec} // a global block load
		case info.Flow == model.FlowExec:
			ch := &model.OpChoice{Exec: r.readExact(ot, "exec", op.Operands[0].Shape)}
			if op.WritesShared() {
				ch.Buffer, ch.Record = r.a.Buffers[op.Buffer], rec
			} else if info.Records == model.RecordStoreGlobal {
				ch.Record = rec // a global block store, or plain stores (nil)
			}
			r.a.Ops[op] = ch
		}
		ot.CheckNotKnown()
		r.p.Ops = append(r.p.Ops, opp)
	})
	if t != nil {
		for _, name := range t.Keys() {
			if !opNamed(r.g, name) {
				t.Errorf(name, model.CodeUnknownName, "the graph has no op %s", name)
			}
		}
	}
}

func opNamed(g *model.Graph, name string) bool {
	found := false
	g.Walk(func(op *model.Op) { found = found || op.Name == name })
	return found
}

func (r *planReader) conversions(root *tomlio.Table) {
	uses := map[[3]string]model.Use{}
	r.g.Walk(func(op *model.Op) {
		for _, u := range plans.Uses(op) {
			uses[[3]string{plans.UseValue(u).Name, op.Name, plans.OperandName(u)}] = u
		}
	})
	list, _ := root.TableArray("conversions")
	at := map[model.Use]model.Pos{} // where each use's conversion is written
	for _, ct := range list {
		ct.Expect(keysOf("conversions[]")...)
		var c plans.ConvPlan
		c.Value, _ = ct.String("value", true)
		c.Consumer, _ = ct.String("consumer", true)
		c.Operand, _ = ct.String("operand", true)
		c.Kind, _ = ct.String("kind", true)
		count := func(key string, required bool) int {
			n, ok := ct.Int(key, required)
			if ok && n < 0 {
				ct.Errorf(key, model.CodeBadValue, "expected a count of 0 or more, found %d", n)
				return 0
			}
			return n
		}
		c.Cost = int64(count("cost", true))
		c.Free, _ = ct.Bool("free", false)
		c.Words = count("words", false)
		c.Moves = count("moves", false)
		c.Rounds = count("rounds", false)
		c.ScratchBytes = count("scratch_bytes", false)
		c.ScratchOrder, _ = ct.Ints("scratch_order", false)
		if ct.Has("scratch_order") && len(c.ScratchOrder) == 0 {
			ct.Errorf("scratch_order", model.CodeBadValue, "expected the dimensions in order, fastest first; found none")
		}
		if pairs, ok := ct.IntLists("scratch_row", false); ok {
			for i, d := range pairs {
				if len(d) != 2 || d[0] < 0 || d[1] < 0 {
					ct.ErrorfAt("scratch_row", i, model.CodeBadValue, "expected a [dimension, digit] pair of counts, found %v", d)
					continue
				}
				c.ScratchRow = append(c.ScratchRow, model.DigitRef{Axis: d[0], Digit: d[1]})
			}
		}
		c.ScratchPad = count("scratch_pad", false)
		c.StoreVector = count("store_vector", false)
		c.LoadVector = count("load_vector", false)
		u, ok := uses[[3]string{c.Value, c.Consumer, c.Operand}]
		if !ok {
			ct.Errorf(unknownUse(r.g, c), model.CodeUnknownName, "the graph has no use of %%%s by %s as %s", c.Value, c.Consumer, c.Operand).Related = []model.Pos{ct.Pos("value"), ct.Pos("consumer"), ct.Pos("operand")}
			ct.CheckNotKnown()
			continue
		}
		if first, dup := at[u]; dup {
			ct.Errorf("", model.CodeDuplicate, "a second conversion of %%%s into %s (%s)", c.Value, c.Consumer, c.Operand).Related = []model.Pos{first}
		} else {
			at[u] = ct.Pos("")
			r.pf.convs[[3]string{c.Value, c.Consumer, c.Operand}] = ct
		}
		if l := r.readExact(ct, "required", plans.UseValue(u).Shape); l != nil {
			r.a.Required[u] = l
		}
		c.Pos = u.Op.Pos
		ct.CheckNotKnown()
		r.p.Conv = append(r.p.Conv, c)
	}
	// A use the plan converts nothing for takes its value's layout.
	for _, u := range uses {
		if _, ok := r.a.Required[u]; !ok {
			r.a.Required[u] = r.a.Layouts[plans.UseValue(u)]
		}
	}
}

// ReadGraph reads the graph at path (the plan's own name for it, or where
// it now lies) and checks that it is the graph the plan was made from.
func (pf *File) ReadGraph(path string, targets map[string]*model.Target) (*model.Graph, error) {
	data, err := tomlio.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return pf.ParseGraph(path, data, targets)
}

// ParseGraph checks that data, the text of the graph at path, is the
// graph the plan was made from, and reads it.
func (pf *File) ParseGraph(path string, data []byte, targets map[string]*model.Target) (*model.Graph, error) {
	if err := pf.CheckGraph(path, data); err != nil {
		return nil, err
	}
	return tomlio.ParseGraph(path, data, targets)
}

// readInShared reads the layout of a value left in shared memory for an
// mma's descriptor: its shape and in_shared = true.
func readInShared(et *tomlio.Table, shape []int) *model.Layout {
	et.Expect("shape", "in_shared")
	given, _ := et.Ints("shape", true)
	in, _ := et.Bool("in_shared", true)
	et.CheckUnknown()
	switch {
	case !in:
		et.Errorf("in_shared", model.CodeBadValue, "expected in_shared = true or a layout")
		return nil
	case shape != nil && fmt.Sprint(given) != fmt.Sprint(shape):
		et.Errorf("shape", model.CodeShapeMismatch, "expected the value's shape %v, found %v", shape, given)
		return nil
	}
	l, err := model.LeftInShared(given)
	if err != nil {
		et.Errorf("shape", model.CodeShapeMismatch, "%v", err)
		return nil
	}
	return l
}

// unknownUse is the key of a conversion naming no use of the graph that
// is likeliest wrong: the value when the graph has none of that name,
// else the consumer when no op of that name reads the value, else the
// operand.
func unknownUse(g *model.Graph, c plans.ConvPlan) string {
	if !slices.ContainsFunc(g.Values, func(v *model.Value) bool { return v.Name == c.Value }) {
		return "value"
	}
	reads := false
	g.Walk(func(op *model.Op) {
		for _, u := range plans.Uses(op) {
			reads = reads || op.Name == c.Consumer && plans.UseValue(u).Name == c.Value
		}
	})
	if !reads {
		return "consumer"
	}
	return "operand"
}
