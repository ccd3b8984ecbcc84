package solver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// Every forbidden choice and pair of choices of a problem carries a guard:
// the set of facts that together forbid it. The PBQP holds Inf there while
// every fact of one of its guards is in force; a relaxed fact lifts what it
// guards back to its cost. The explanations encode the same guards in SAT
// with one selector per fact.

// forbid is one guarded entry: choice I of a node (J unused) or the pair
// (I, J) of an edge.
type forbid struct {
	I, J  int32
	Guard int32
}

// facts is a problem's register of facts and guards.
type facts struct {
	list   []*model.Fact
	byName map[string]*model.Fact
	relax  map[string]bool // facts this build leaves out
	guards [][]int         // interned sorted sets of fact IDs
	keys   map[string]int
	single []int32          // single[id]: 1 + the guard of fact id alone, or 0
	pairs  map[[2]int]int32 // the guard of two facts, by their IDs in order

	budget, capacity *model.Fact // budgetFacts, once made

	nodeForbid [][]forbid // per node
	edgeForbid [][]forbid // per PBQP edge (see edgeForbids)
	// linkGuard holds, for a link edge whose rule is in force, the guard
	// of every pair its matrix forbids: its forbids are then the Inf
	// entries of the matrix, not listed (a 48×48 link edge would list
	// two thousand), and edgeForbid has none for it.
	linkGuard map[int]int32
}

// edgeForbids lists what PBQP edge k forbids and under which guards.
func (p *Problem) edgeForbids(k int) []forbid {
	g, ok := p.facts.linkGuard[k]
	if !ok {
		return p.facts.edgeForbid[k]
	}
	var out []forbid
	for i, row := range p.PBQP.Edges[k].M {
		for j, c := range row {
			if c >= Inf {
				out = append(out, forbid{I: int32(i), J: int32(j), Guard: g})
			}
		}
	}
	return out
}

// Facts lists the problem's facts in the order they were made.
func (p *Problem) Facts() []*model.Fact { return p.facts.list }

// Fact looks a fact up by name.
func (p *Problem) Fact(name string) *model.Fact { return p.facts.byName[name] }

// fact returns the fact of that name, making it on first use.
func (p *Problem) fact(kind model.FactKind, name string, pos model.Pos, text string) *model.Fact {
	if f := p.facts.byName[name]; f != nil {
		return f
	}
	f := &model.Fact{ID: len(p.facts.list), Kind: kind, Name: name, Pos: pos, Text: text, Hard: !kind.Relaxable()}
	p.facts.list = append(p.facts.list, f)
	p.facts.byName[name] = f
	return f
}

// guard interns a set of facts (nil entries are skipped).
func (p *Problem) guard(fs ...*model.Fact) int32 {
	if len(fs) == 2 && fs[0] != nil && fs[1] != nil {
		// Two facts (a rule and what it needs, the commonest guard of a
		// pair): looked up by their numbers.
		k := [2]int{min(fs[0].ID, fs[1].ID), max(fs[0].ID, fs[1].ID)}
		g, ok := p.facts.pairs[k]
		if !ok {
			g = p.guardOf(fs)
			if p.facts.pairs == nil {
				p.facts.pairs = map[[2]int]int32{}
			}
			p.facts.pairs[k] = g
		}
		return g
	}
	if len(fs) != 1 || fs[0] == nil {
		return p.guardOf(fs)
	}
	// The common case, one fact: looked up by its number.
	id := fs[0].ID
	if id < len(p.facts.single) && p.facts.single[id] > 0 {
		return p.facts.single[id] - 1
	}
	g := p.guardOf(fs)
	if id >= len(p.facts.single) {
		p.facts.single = append(p.facts.single, make([]int32, id+1-len(p.facts.single))...)
	}
	p.facts.single[id] = g + 1
	return g
}

// guardOf is guard through the sorted list of the facts' numbers.
func (p *Problem) guardOf(fs []*model.Fact) int32 {
	var idBuf [8]int
	var keyBuf [64]byte
	ids := idBuf[:0]
	for _, f := range fs {
		if f != nil && !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	slices.Sort(ids)
	k := keyBuf[:0]
	for _, id := range ids {
		k = strconv.AppendInt(k, int64(id), 10)
		k = append(k, ',')
	}
	if g, ok := p.facts.keys[string(k)]; ok {
		return int32(g)
	}
	p.facts.guards = append(p.facts.guards, slices.Clone(ids))
	p.facts.keys[string(k)] = len(p.facts.guards) - 1
	return int32(len(p.facts.guards) - 1)
}

// inForce reports whether every fact of guard g is in force in this build.
func (p *Problem) inForce(g int32) bool {
	for _, id := range p.facts.guards[g] {
		if p.facts.relax[p.facts.list[id].Name] {
			return false
		}
	}
	return true
}

// relaxed reports whether the build leaves fact f out.
func (p *Problem) relaxed(f *model.Fact) bool { return f != nil && p.facts.relax[f.Name] }

// markHard applies the graph's `hard` list.
func (p *Problem) markHard() error {
	for _, h := range p.Graph.Hard {
		f := p.facts.byName[h.Name]
		if f == nil {
			return &model.Error{Pos: h.Pos, Code: model.CodeUnknownName, Index: -1,
				Msg: fmt.Sprintf("hard names %q, which is no fact of this graph (%s)", h.Name, p.relaxableNames())}
		}
		if f.Hard && !f.Marked {
			continue // already hard
		}
		f.Hard, f.Marked = true, true
	}
	return nil
}

// relaxableNames lists the names a graph's hard list may use.
func (p *Problem) relaxableNames() string {
	var names []string
	for _, f := range p.facts.list {
		if f.Kind.Relaxable() {
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		return "it has no facts a user may relax"
	}
	if len(names) > 12 {
		names = append(names[:12], "...")
	}
	return "its facts: " + strings.Join(names, ", ")
}

// The graph's facts.

func (p *Problem) pinFact(v *model.Value) *model.Fact {
	if v.Pin == nil {
		return nil
	}
	text := fmt.Sprintf("%%%s is pinned to %s", v.Name, pinText(v.Pin))
	return p.fact(model.FactPin, "pin:"+v.Name, v.Pin.Pos, text)
}

// layoutFact is the fact that a store or copy runs in the layout the graph
// states for it (nil when it states none).
func (p *Problem) layoutFact(op *model.Op) *model.Fact {
	if op.Layout == nil {
		return nil
	}
	text := fmt.Sprintf("%s runs in %s", opText(op), pinText(op.Layout))
	return p.fact(model.FactPin, "layout:"+op.Name, op.Layout.Pos, text)
}

func pinText(pin *model.Pin) string {
	if pin.Layout == nil {
		return fmt.Sprintf("a %s layout that cannot be realised: %s", pin.Notation.Kind(), pin.Unrealisable)
	}
	return pin.Notation.Attr()
}

func (p *Problem) subgroupsFact() *model.Fact {
	g := p.Graph
	subgroups := fmt.Sprintf("%d subgroups", g.Subgroups)
	if g.Subgroups == 1 {
		subgroups = "1 subgroup"
	}
	return p.fact(model.FactSubgroups, "subgroups", g.SubgroupsPos,
		fmt.Sprintf("the block runs %s of %d lanes (%s)", subgroups, p.Target.SubgroupSize, p.Target.Name))
}

// noConvertFact is the fact forbidding conversions on one use, nil when
// the use may convert.
func (p *Problem) noConvertFact(v *model.Value, use model.Use) *model.Fact {
	op := use.Op
	own := use.Index < len(op.NoConvert) && op.NoConvert[use.Index] && !use.Yield
	if !own && !p.Graph.NoConversions {
		return nil
	}
	name := fmt.Sprintf("no_convert:%s->%s", v.Name, op.Name)
	if use.Yield {
		name = fmt.Sprintf("no_convert:%s->%s.yield", v.Name, op.Name)
	}
	if f := p.facts.byName[name]; f != nil && p.build.edgeOf[name] != use {
		name = fmt.Sprintf("%s#%d", name, use.Index)
	}
	text := fmt.Sprintf("the use of %%%s by %s allows no conversion", v.Name, opText(op))
	pos := op.NoConvertPos
	if pos.Line == 0 {
		pos = op.Pos
	}
	if !own {
		text += " (no_conversions = true)"
		pos = p.Graph.NoConvPos
	}
	if use.Yield {
		text = fmt.Sprintf("%%%s, yielded by %s, allows no conversion into the carried value (no_conversions = true)", v.Name, opText(op))
	}
	f := p.fact(model.FactNoConvert, name, pos, text)
	p.build.edgeOf[name] = use
	return f
}

// budgetFacts are the facts that bound shared memory: the graph's budget
// (when it gives one) and the target's capacity.
func (p *Problem) budgetFacts() (budget, capacity *model.Fact) {
	if p.facts.capacity != nil {
		return p.facts.budget, p.facts.capacity
	}
	g, t := p.Graph, p.Target
	capacity = p.fact(model.FactCapacity, "capacity:"+t.Name, t.Pos,
		fmt.Sprintf("%s has %s of shared memory per block", t.Name, bytesText(t.SharedMemory)))
	if g.HasBudget {
		budget = p.fact(model.FactBudget, "shared_memory", g.BudgetPos,
			fmt.Sprintf("the graph limits shared memory to %s", bytesText(g.SharedBudget)))
	}
	p.facts.budget, p.facts.capacity = budget, capacity
	return budget, capacity
}

// overBudget appends to out the guards that forbid needing extra bytes
// of shared memory on top of the buffers, each with the rule fact that
// needs them.
func (p *Problem) overBudget(out []int32, extra int, rule *model.Fact) []int32 {
	budget, capacity := p.budgetFacts()
	if budget != nil && p.Buffers+extra > p.Graph.SharedBudget {
		out = append(out, p.guard(budget, rule))
	}
	if p.Buffers+extra > p.Target.SharedMemory {
		out = append(out, p.guard(capacity, rule))
	}
	return out
}

func bytesText(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d KiB (%d bytes)", n/1024, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (p *Problem) intrinsicFact(op *model.Op) *model.Fact {
	if op.Intrinsic == "" {
		return nil
	}
	pos := op.IntrinsicPos
	if pos.Line == 0 {
		pos = op.Pos
	}
	text := fmt.Sprintf("%s must use %s", opText(op), op.Intrinsic)
	for _, r := range p.plainMMA {
		if why := r.Unplanned(); r.Name == op.Intrinsic && why != "" {
			text += fmt.Sprintf(", which it cannot: %s, which the planner describes but does not plan", why)
		} else if why := model.ScaleMisfit(op, r); r.Name == op.Intrinsic && why != "" {
			text += fmt.Sprintf(", which it cannot: %s", why)
		}
	}
	return p.fact(model.FactIntrinsic, "intrinsic:"+op.Name, pos, text)
}

func (p *Problem) bufferFact(b *model.Buffer) *model.Fact {
	if b == nil || !stated(b) {
		return nil // dense row major: nothing the user chose
	}
	return p.fact(model.FactBuffer, "buffer:"+b.Name, b.Pos, fmt.Sprintf("buffer %s is placed as %s", b.Name, b.Layout))
}

// memoryFact is a load record's rule on the addresses it reads.
func (p *Problem) memoryFact(r *model.Record) *model.Fact {
	return p.fact(model.FactMemory, "memory:"+r.Name, r.Memory.Pos, fmt.Sprintf("%s needs %s", r.Name, r.Memory.Describe()))
}

// fragmentFact is the fact that a load record's register fragment is left
// unspecified by its architecture, so no value can be planned from it.
func (p *Problem) fragmentFact(r *model.Record) *model.Fact {
	pos := r.Pos
	if r.Fragment != nil {
		pos = r.Fragment.Pos
	}
	return p.fact(model.FactFragment, "fragment:"+r.Name, pos,
		fmt.Sprintf("%s leaves the lanes and registers of its result unspecified, so no register layout of it can be planned", r.Name))
}

// ruleFact is what an op needs of one operand slot (or, for slot
// "result", how it makes its result): a fact of the kernel, always hard.
func (p *Problem) ruleFact(op *model.Op, slot, text string) *model.Fact {
	return p.fact(model.FactRule, fmt.Sprintf("rule:%s.%s", op.Name, slot), op.Pos, text)
}

// opText names an op for people: "mma %d", "loop l".
func opText(op *model.Op) string {
	if op.Info().Flow == model.FlowCarry {
		return "loop " + op.Name
	}
	k := op.Spelling()
	if op.Result != nil && op.Result.Name == op.Name {
		return fmt.Sprintf("%s %%%s", k, op.Name)
	}
	return fmt.Sprintf("%s %s", k, op.Name)
}

// useRule is the rule fact of one use: what the consumer needs of the
// value it reads.
func (p *Problem) useRule(v *model.Value, use model.Use, to *Node) *model.Fact {
	op := use.Op
	switch info := op.Info(); {
	case info.Flow == model.FlowRecord:
		slot := model.RoleName(op, use.Index)
		f := p.ruleFact(op, slot, fmt.Sprintf("%s reads %s (%%%s) in the %s fragment of its record, tiled over the warps: %s",
			opText(op), slot, v.Name, strings.ToUpper(slot), mmaRecordList(to.MMA))+descriptorNote(to.MMA, slot))
		if len(f.Also) == 0 {
			f.Also = recordLines(to.MMA, slot)
		}
		return f
	case info.Flow == model.FlowCarry:
		lp := op.Body
		if use.Yield {
			return p.ruleFact(op, fmt.Sprintf("yield%d", use.Index), fmt.Sprintf("loop %s carries %%%s into the next iteration as %%%s, in one layout", op.Name, v.Name, lp.Args[use.Index].Name))
		}
		return p.ruleFact(op, fmt.Sprintf("init%d", use.Index), fmt.Sprintf("loop %s starts %%%s from %%%s, in one layout", op.Name, lp.Args[use.Index].Name, v.Name))
	}
	slot := model.RoleName(op, use.Index)
	if slot == "" {
		slot = strconv.Itoa(use.Index)
	}
	if needs := op.Info().Needs; needs != nil {
		return p.ruleFact(op, slot, opText(op)+" "+needs(op, use.Index, v.Name))
	}
	return p.ruleFact(op, slot, fmt.Sprintf("%s needs %%%s in its result's layout", opText(op), v.Name))
}

// recordLines are the lines of the operand slot ("a" to "d") of each
// record an mma's choices use.
func recordLines(chs []*MMAChoice, slot string) []model.Pos {
	var out []model.Pos
	seen := map[string]bool{}
	for _, ch := range chs {
		if ch.Record != nil && !seen[ch.Record.Name] {
			seen[ch.Record.Name] = true
			out = append(out, ch.Record.Operands[slot].Pos)
		}
	}
	return out
}

// mmaRecordList names the records an mma's choices use, with their files.
func mmaRecordList(chs []*MMAChoice) string {
	var names []string
	seen := map[string]bool{}
	for _, ch := range chs {
		if ch.Record != nil && !seen[ch.Record.Name] {
			seen[ch.Record.Name] = true
			names = append(names, ch.Record.Name)
		}
	}
	if len(names) == 0 {
		return "none fits"
	}
	return strings.Join(names, " or ")
}

// recordsFact is the fact that an mma has some record of the target to
// run on; its text says why each record does not fit when none does.
//
// opRecs are the records the op can use here; every mma record of the
// target (all) is named when none fits, with why it is out.
func (p *Problem) recordsFact(op *model.Op, opRecs, all []*model.Record) *model.Fact {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	text := fmt.Sprintf("%s (A %s %s, B %s %s, C %s %s) runs on a record of %s that fits it",
		opText(op), dims(a.Shape), a.DType.Name, dims(b.Shape), b.DType.Name, dims(c.Shape), c.DType.Name, p.Target.Name)
	f := p.fact(model.FactRecords, "records:"+op.Name, op.Pos, text)
	// The notation only orders and filters the choices that fit, never
	// down to none (mmaChoicesOf): the choices the build made tell.
	if len(p.mmaChoices(op, opRecs, p.Graph.Notation)) == 0 {
		var why []string
		for _, r := range all {
			reason := misfit(op, r, p.Graph.Subgroups)
			if !slices.Contains(opRecs, r) {
				reason = opaqueMisfit(op, r)
			}
			why = append(why, fmt.Sprintf("%s: %s", r.Name, reason))
			f.Also = append(f.Also, r.Pos)
		}
		if len(why) == 0 {
			why = append(why, "the target offers no mma records")
		}
		f.Text += "; none does (" + strings.Join(why, "; ") + ")"
	}
	return f
}

// opaqueMisfit says why an mma record with opaque (WMMA) fragments cannot
// run op: the shapes or types, as for any record, or else that an operand
// or the result of op cannot stay in such a fragment here (see opaque.go).
func opaqueMisfit(op *model.Op, r *model.Record) string {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
	switch {
	case ra == nil || rb == nil || rc == nil || rd == nil:
		return "it lacks an operand"
	case ra.DType.Name != a.DType.Name || rb.DType.Name != b.DType.Name || rc.DType.Name != c.DType.Name || rd.DType.Name != op.Result.DType.Name:
		return fmt.Sprintf("it multiplies %s by %s into %s, not %s by %s into %s", ra.DType.Name, rb.DType.Name, rc.DType.Name, a.DType.Name, b.DType.Name, c.DType.Name)
	case tileMisfit(op, r) != "":
		return tileMisfit(op, r)
	}
	return fmt.Sprintf("its fragments are unspecified (WMMA), and an operand or the result of %s is also read or made in a layout here, which such a fragment cannot be", opText(op))
}

// misfit says why record r cannot run op.
func misfit(op *model.Op, r *model.Record, warps int) string {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	_, m, _, n := model.MMADims(op)
	ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
	if why := r.Unplanned(); why != "" {
		return why + ", which the planner describes but does not plan"
	}
	if why := model.ScaleMisfit(op, r); why != "" {
		return why
	}
	if r.Subgroups > 1 {
		return warpgroupMisfit(op, r, warps)
	}
	switch {
	case ra == nil || rb == nil || rc == nil || rd == nil || ra.Layout == nil || rb.Layout == nil || rc.Layout == nil:
		return "its operands are not all register fragments"
	case ra.DType.Name != a.DType.Name || rb.DType.Name != b.DType.Name || rc.DType.Name != c.DType.Name || rd.DType.Name != op.Result.DType.Name:
		return fmt.Sprintf("it multiplies %s by %s into %s, not %s by %s into %s", ra.DType.Name, rb.DType.Name, rc.DType.Name, a.DType.Name, b.DType.Name, c.DType.Name)
	case r.Blocks > 1 && blockMisfit(op, r) != "":
		return blockMisfit(op, r)
	case tileMisfit(op, r) != "":
		return tileMisfit(op, r)
	}
	return fmt.Sprintf("the %d×%d tiles of %d×%d do not split evenly over %d warps", m/r.M, n/r.N, r.M, r.N, warps)
}

// tileMisfit says which of the dot's M, N and K the record's tile does
// not divide, or "" when it divides all three.
func tileMisfit(op *model.Op, r *model.Record) string {
	_, m, k, n := model.MMADims(op)
	switch {
	case m%r.M != 0:
		return fmt.Sprintf("M = %d is not a multiple of %d", m, r.M)
	case n%r.N != 0:
		return fmt.Sprintf("N = %d is not a multiple of %d", n, r.N)
	case k%r.K != 0:
		return fmt.Sprintf("K = %d is not a multiple of %d", k, r.K)
	}
	return ""
}

func dims(shape []int) string {
	var parts []string
	for _, s := range shape {
		parts = append(parts, strconv.Itoa(s))
	}
	return strings.Join(parts, "×")
}

// familyFact is the fact that the fragments of a family have lanes and
// registers the architecture leaves unspecified: no conversion reaches or
// leaves one, and only the records of its family read or write it. ls
// are the layouts involved; the first opaque one names the family.
func (p *Problem) familyFact(ls ...*model.Layout) *model.Fact {
	family := ""
	for _, l := range ls {
		if l != nil && l.Opaque() != "" {
			family = l.Opaque()
			break
		}
	}
	if f := p.facts.byName["fragment:"+family]; f != nil {
		return f
	}
	recs := p.families[family]
	var names []string
	pos := model.Pos{}
	for _, r := range recs {
		names = append(names, r.Name)
	}
	if len(recs) > 0 {
		pos = familyOperand(recs[0], family).Pos
	}
	return p.fact(model.FactFragment, "fragment:"+family, pos,
		fmt.Sprintf("the lanes and registers of a %s fragment are unspecified by the architecture: no conversion reaches or leaves it, and only %s read or write it", family, joinNames(names)))
}

// familyOperand is the operand of r in fragment family f.
func familyOperand(r *model.Record, f string) *model.Operand {
	for _, op := range recordOperands(r) {
		if op.Layout != nil && op.Layout.Opaque() == f {
			return op
		}
	}
	return &model.Operand{Pos: r.Pos}
}

// recordOperands are r's operands: a, b, c, d, then the fragment.
func recordOperands(r *model.Record) []*model.Operand {
	var out []*model.Operand
	for _, op := range []*model.Operand{r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"], r.Fragment} {
		if op != nil {
			out = append(out, op)
		}
	}
	return out
}

// familiesOf lists, per fragment family, the records with an operand in
// it, in the order given.
func familiesOf(records []*model.Record) map[string][]*model.Record {
	out := map[string][]*model.Record{}
	for _, r := range records {
		seen := map[string]bool{}
		for _, op := range recordOperands(r) {
			if op.Layout != nil && op.Layout.Opaque() != "" && !seen[op.Layout.Opaque()] {
				seen[op.Layout.Opaque()] = true
				out[op.Layout.Opaque()] = append(out[op.Layout.Opaque()], r)
			}
		}
	}
	return out
}
