package solver

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"planner/model"
	"planner/solver/pbqp"
)

// NodeKind says what a node of the problem decides.
type NodeKind int

const (
	NodeValue   NodeKind = iota // the layout a value is produced in
	NodeMMA                     // an mma op's record and warp arrangement
	NodeExec                    // the layout a reduce, store or copy runs in
	NodeBuffers                 // the placements of the shared-memory buffers
)

// Node is one decision: a value's layout, an mma's arrangement, or an op's
// execution layout, with its finite list of choices.
type Node struct {
	ID      int
	Kind    NodeKind
	Value   *model.Value
	Op      *model.Op
	Layouts []*model.Layout // value and exec nodes
	MMA     []*MMAChoice    // mma nodes (a choice with no record: the mma has none that fits)
	Loads   []*model.Record // load_shared values and copy_to_shared ops: the intrinsic per choice (nil: plain loads or stores); read through Load
	// A buffer node: per choice, a placement of each of Buffers (nil for a
	// buffer that is not two-dimensional) and the bytes they take.
	Buffers    []*model.Buffer
	Placements [][]*model.SharedLayout
	Bytes      []int
}

// Name describes the node for people.
func (n *Node) Name() string {
	switch n.Kind {
	case NodeMMA:
		return "mma " + n.Op.Name
	case NodeExec:
		return fmt.Sprintf("%s %s", n.Op.Kind, n.Op.Name)
	case NodeBuffers:
		return "buffer placements"
	}
	return "%" + n.Value.Name
}

// Load is the load or store record of choice i (nil: a plain load or
// store, or an op that moves nothing).
func (n *Node) Load(i int) *model.Record {
	if n.Loads == nil {
		return nil
	}
	return n.Loads[i]
}

// Choices is how many choices the node has.
func (n *Node) Choices() int {
	switch n.Kind {
	case NodeMMA:
		return len(n.MMA)
	case NodeBuffers:
		return len(n.Placements)
	}
	return len(n.Layouts)
}

// EdgeKind says what an edge of the problem stands for.
type EdgeKind int

const (
	EdgeConversion EdgeKind = iota // a use of a value: converting it to what the consumer requires
	EdgeLink                       // a consumer's choice fixes a produced layout
	EdgeAccess                     // an op's access to its buffer: its cost for each placement
	EdgeDescriptor                 // an mma's reads of an operand's buffer through a descriptor (wgmma's B), per choice and placement
)

// Edge connects two nodes with a cost matrix (in the PBQP with the same
// index). A conversion edge goes from the value's node to the consumer's
// node; Required[j] is the layout the consumer requires when it takes
// choice j.
type Edge struct {
	Kind     EdgeKind
	From, To int
	Value    *model.Value
	Use      model.Use
	Required []*model.Layout
	Rule     *model.Fact // what the consumer needs of the value (a link: how it makes its result)
	NoConv   *model.Fact // the fact forbidding conversions on this use, if any
}

// Problem is a graph turned into a PBQP, with what each node and edge
// stands for.
//
// Beside the exported fields it keeps only what is read after Build
// returns:
//
//   - facts, the facts and guards behind every forbidden entry (the view's
//     provenance, explain, relaxed rebuilds);
//   - the buffers' decisions (bufNodes, bufNode, bufSlot), the load
//     records (loadRecs, loadRecord, families) and the admitted rules
//     (admitted): the plan (finish) names the record of each access, and
//     the view's AccessCost and Admits check placements after the build;
//   - scratch and combined, regs and convBudget: the constraints no cost
//     matrix holds, which the search, greedy and the view read;
//   - valueNode and opNode: greedy and the register rows find a value's
//     or an op's decision through them; plainMMA: explain (collide) reads
//     the mma records whose fragments are specified;
//   - memo: the plan, greedy, explain and the register budget price
//     conversions and read layouts through the one copy the build made;
//   - watch, greedy and abandoned: the solve's limits, its cached baseline
//     and its cancellation.
//
// What only the build reads (the mma choices per op, the access cache,
// the no_convert names, the opaque mma ops, the FMA records) lives in a
// builder that Build drops when it returns.
type Problem struct {
	Graph   *model.Graph
	Target  *model.Target
	Budget  int
	Buffers int // bytes of the shared-memory buffers, at their smallest placement
	Nodes   []*Node
	Edges   []*Edge
	PBQP    *pbqp.Problem
	// Restricted says what the candidate layouts leave out, where they
	// are a part of what the seeds and the transfer rules reach (a
	// value's list full, MaxCandidates): a plan
	// proven minimal is minimal over them. "" where they are all of it.
	Restricted string
	facts      facts

	bufNodes   []*Node
	bufNode    map[*model.Buffer]*Node // the decision holding each buffer's placement
	bufSlot    map[*model.Buffer]int   // its position in that decision's sets
	loadRecs   []*model.Record
	blockRecs  []*model.Record                        // global block records (Intel 2D block loads and stores)
	loadRecord map[*model.Op]map[[2]int]*model.Record // a load's record per (layout, placement) choice
	admitted   sync.Map                               // admits, by admitKey
	// scratch lists the choices and pairs that use conversion or
	// reduction scratch; combined says one decision holds every buffer's
	// placement, so that the peak (buffers plus scratch) is checked by
	// solving once per scratch cap.
	scratch  []scratchUse
	combined bool
	memo     *layoutMemo
	watch    *watch // the limits and progress of a BuildWithin, nil otherwise

	valueNode map[*model.Value]*Node
	opNode    map[*model.Op]*Node
	// families lists the records of each fragment family whose lanes are
	// unspecified (WMMA): only they read or write such a fragment.
	families map[string][]*model.Record
	// plainMMA are the mma records whose fragments are not opaque.
	plainMMA []*model.Record
	regs     *registerUse // the register budget (registers.go); nil where none applies
	// convBudget is the graph's bound on conversions (conversions.go);
	// nil where it sets none.
	convBudget *conversionBudget
	greedy     *GreedyResult // the greedy baseline's answer, once asked for (Greedy)
	// abandoned is set (Abandon) once the caller answers without the
	// search: a search still running then leaves its plan unmade, so as
	// not to read the layouts the caller's plan is built from (their
	// caches fill on first use and are not safe for two goroutines).
	abandoned struct {
		sync.Mutex
		yes bool
	}
	build *builder // the build's own caches while Build runs; nil once it returns
}

// builder holds what only the build reads: Build makes one and drops it
// when it returns, so that a built problem keeps none of it.
type builder struct {
	edgeOf  map[string]model.Use // no_convert fact names to their use
	mmaMemo map[mmaKey][]*MMAChoice
	// anchored: an op's choices with those its pins add (k_order.go).
	anchored map[anchorKey][]*MMAChoice
	access   *model.AccessCache
	// opaqueMMA marks the mma ops whose values can stay in an opaque
	// fragment.
	opaqueMMA map[*model.Op]bool
	fmaRecs   []*model.Record // the target's FMA records (mma_variants.go)
	named     []*model.Layout // the layouts the input names (namedLayouts)
	// repeatsLeftOut: an mma's arrangements whose warps repeat a tile
	// were left out (namedRepeats; set by goroutines at once).
	repeatsLeftOut atomic.Bool
}

// Build turns a graph into a problem for a target with the given records.
func Build(g *model.Graph, t *model.Target, records []*model.Record) (*Problem, error) {
	return BuildRelaxed(g, t, records, nil)
}

// BuildRelaxed builds the problem with the named facts left out: what they
// forbid is allowed at its cost. Every build makes the same facts and
// guards; only the PBQP differs.
func BuildRelaxed(g *model.Graph, t *model.Target, records []*model.Record, relax map[string]bool) (*Problem, error) {
	return buildWatched(g, t, records, relax, nil)
}

func buildWatched(g *model.Graph, t *model.Target, records []*model.Record, relax map[string]bool, w *watch) (*Problem, error) {
	memo := newLayoutMemo()
	p := &Problem{Graph: g, Target: t, PBQP: &pbqp.Problem{}, opNode: map[*model.Op]*Node{},
		memo: memo, watch: w,
		build: &builder{edgeOf: map[string]model.Use{}, access: memo.ops.NewAccessCache(), named: namedLayouts(g)}}
	defer func() { p.build = nil }()
	p.facts = facts{byName: map[string]*model.Fact{}, relax: relax, keys: map[string]int{}}
	budget, capacity := p.budgetFacts()
	p.Budget = t.SharedMemory
	if p.relaxed(capacity) {
		p.Budget = unlimitedBytes
	}
	if budget != nil && !p.relaxed(budget) {
		p.Budget = min(p.Budget, g.SharedBudget)
	}
	var mmaRecs, loadRecs []*model.Record
	for _, r := range records {
		switch r.Kind {
		case model.RecordMMA:
			mmaRecs = append(mmaRecs, r)
			if !opaqueRecord(r) {
				p.plainMMA = append(p.plainMMA, r)
			}
		case model.RecordLoadShared:
			loadRecs = append(loadRecs, r)
		case model.RecordFMA:
			p.build.fmaRecs = append(p.build.fmaRecs, r)
		}
	}
	p.loadRecs = loadRecs
	p.blockRecs = blockRecords(records)
	p.families = familiesOf(records)
	p.build.opaqueMMA = opaqueMMAs(g)
	p.prefetchMMA(mmaRecs)
	cands := p.candidates(mmaRecs)
	if err := w.err(); err != nil {
		return nil, err
	}
	p.bufferNodes()
	if err := p.nodes(cands, mmaRecs, loadRecs); err != nil {
		return nil, p.bounded(err)
	}
	if err := p.edges(); err != nil {
		return nil, p.bounded(err)
	}
	p.registerForbids()
	p.convBudget = p.newConversionBudget()
	if err := p.markHard(); err != nil {
		return nil, p.bounded(err)
	}
	if p.build.repeatsLeftOut.Load() {
		p.Restricted = strings.Join(slices.DeleteFunc([]string{p.Restricted, repeatsLeftOut}, func(s string) bool { return s == "" }), "; ")
	}
	return p, nil
}

// repeatsLeftOut says, in a plan's status, what the mma arrangements
// leave out where some mma could repeat its tiles over its warps
// (repeatedTileChoices) but the input names none of those arrangements.
const repeatsLeftOut = "mma arrangements whose warps repeat a tile only where the input names them"

// bounded adds to a limit that stopped the build the lower bound of what
// was built (LimitError says why it holds).
func (p *Problem) bounded(err error) error {
	var l *LimitError
	if !errors.As(err, &l) || len(p.PBQP.Cost) == 0 {
		return err
	}
	l.Bounded, l.LowerBound = true, p.MinimaBound()
	return err
}

// MinimaBound is a lower bound on every plan's cost, before any search:
// each decision at its cheapest choice and each edge at its cheapest pair
// of choices (a sum's minimum is at least the sum of its terms' minima).
func (p *Problem) MinimaBound() int64 {
	least := func(c []int64) int64 {
		if len(c) == 0 {
			return 0
		}
		return slices.Min(c)
	}
	lb := int64(0)
	for _, c := range p.PBQP.Cost {
		lb = pbqp.AddSat(lb, least(c))
	}
	for _, e := range p.PBQP.Edges {
		best := pbqp.Inf
		for _, row := range e.M {
			best = min(best, least(row))
		}
		lb = pbqp.AddSat(lb, best)
	}
	return lb
}

// unlimitedBytes stands for a budget that a relaxed capacity leaves.
const unlimitedBytes = 1<<31 - 1

// candidates seeds every value's candidate layouts and closes them under
// the ops' transfer rules.
func (p *Problem) candidates(mmaRecs []*model.Record) map[*model.Value]*candSet {
	g, lanes, warps := p.Graph, p.Target.SubgroupSize, p.Graph.Subgroups
	cands := map[*model.Value]*candSet{}
	for _, v := range g.Values {
		cands[v] = newCandSet(p.memo)
	}
	// Seeds: pins first, then intrinsic fragments, then memory layouts.
	for _, v := range g.Values {
		if v.Pin != nil && v.Pin.Layout != nil {
			cands[v].add(v.Pin.Layout)
		}
	}
	g.Walk(func(op *model.Op) {
		if op.Layout != nil && op.Layout.Layout != nil {
			cands[op.Operands[0]].add(op.Layout.Layout)
		}
	})
	p.watch.phase("build", "candidates, seeds", p.ops())
	g.Walk(func(op *model.Op) {
		if p.watch.step() != nil {
			return // the caller reads the limit from the watch
		}
		info := op.Info()
		switch {
		case info.Flow == model.FlowRecord:
			recs := p.mmaRecordsFor(op, mmaRecs)
			if f := p.intrinsicFact(op); f != nil && !p.relaxed(f) {
				recs = named(mmaRecs, op.Intrinsic)
			}
			for _, ch := range p.variantSeeds(op, p.mmaChoices(op, recs, g.Notation)) {
				// An operand left in shared memory is offered by its own
				// node alone (leftInShared), never carried to others.
				for i, l := range []*model.Layout{ch.A, ch.B} {
					if !l.InShared() {
						cands[op.Operands[i]].add(l)
					}
				}
				cands[op.Operands[2]].add(ch.C)
				cands[op.Result].add(ch.C)
				if ch.ScaleA != nil {
					cands[op.Operands[3]].add(ch.ScaleA)
					cands[op.Operands[4]].add(ch.ScaleB)
				}
			}
		case info.Memory != model.MemoryNone:
			v := op.Result
			if v == nil {
				v = op.Operands[0]
			}
			contiguous := op.VectorDim(v)
			for _, l := range vectorLayouts(v.Shape, contiguous, v.DType.Bits, lanes, warps) {
				cands[v].add(l)
			}
		}
	})
	p.namedLoadSeeds(cands, warps)
	// The layouts the input names without pinning them, to every value of
	// their shape, after the seeds of the ops (on a tie the plan keeps
	// the first candidate).
	for _, l := range g.Named {
		for _, v := range g.Values {
			if slices.Equal(l.Shape(), v.Shape) {
				cands[v].add(l)
			}
		}
	}
	// Close under the transfer rules, round after round until none adds
	// a layout (each round that goes on adds one, and every list is
	// bounded by MaxCandidates, so the closure ends). Each
	// flow remembers how much of its source it has taken: candidates only
	// ever join the end of a list, and one refused stays refused. Every
	// round walks the same flows in the same order: done is by the flow's
	// place in that order.
	var done []int
	changed, pooled := true, false
	for round := 0; changed || !pooled; round++ {
		if !changed {
			// Closed: every value of a shape is offered the layouts the
			// others of that shape reached, and the closure goes on (in
			// a graph of up to maxPooled values).
			pooled = true
			if len(g.Values) > maxPooled {
				break
			}
			poolByShape(g, cands)
		}
		changed = false
		site := 0
		flow := func(from, to *model.Value, how string, fn func(*model.Layout) *model.Layout) {
			src := cands[from]
			if site == len(done) {
				done = append(done, 0)
			}
			i := done[site]
			for ; i < len(src.list); i++ {
				l := src.list[i]
				if fn != nil {
					l = p.memo.derive(l, how, fn)
				}
				if l != nil && cands[to].add(l) {
					changed = true
				}
			}
			done[site] = i
			site++
		}
		same := func(a, b *model.Value) {
			flow(a, b, "", nil)
			flow(b, a, "", nil)
		}
		p.watch.phase("build", fmt.Sprintf("candidates, round %d", round+1), p.ops())
		g.Walk(func(op *model.Op) {
			if p.watch.step() != nil {
				return
			}
			info := op.Info()
			// A relabel's every operand is in Backward of its result's
			// layout (a join's two); another op's Forward and Backward
			// are of its first operand only.
			relabeled := op.Operands[:min(1, len(op.Operands))]
			if info.Flow == model.FlowRelabel {
				relabeled = op.Operands
			}
			for _, src := range relabeled {
				if tr := info.Forward; tr != nil && op.Result != nil {
					flow(src, op.Result, tr.Key(op), func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
				}
				if tr := info.Backward; tr != nil {
					flow(op.Result, src, tr.Key(op), func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
				}
			}
			for i, v := range op.Operands {
				if !model.SharesResultLayout(op, i) {
					continue
				}
				if op.Func().Cond && i == 0 && v.DType.Name != op.Result.DType.Name {
					// A select's condition of another type takes the
					// layouts the select computes in (it is read in the
					// result's layout), and gives none of its own to the
					// result: without them, a mask made for the select
					// (a free tensor of a TTGIR kernel, a constant) had
					// only its own seeds and was converted.
					flow(op.Result, v, "", nil)
					continue
				}
				same(v, op.Result)
			}
			if info.Memory != model.MemoryNone {
				// A layout a transfer brings to a load or a store keeps
				// its source's register order, which may leave a lane's
				// consecutive elements in registers apart: the same
				// layout with the registers along the access (a register
				// permutation away) reads and writes them as vectors.
				v := op.Result
				if v == nil {
					v = op.Operands[0]
				}
				order := accessOrder(op, v)
				flow(v, v, fmt.Sprint("registers along", order), func(l *model.Layout) *model.Layout {
					r, err := l.RegistersAlong(order)
					if err != nil {
						return nil
					}
					return r
				})
			}
			if info.Flow == model.FlowCarry {
				lp := op.Body
				for i := range lp.Args {
					same(lp.Inits[i], lp.Args[i])
					same(lp.Yields[i], lp.Args[i])
					same(lp.Args[i], lp.Results[i])
				}
			}
		})
	}
	p.Restricted = restriction(g, cands)
	if len(g.Values) > maxPooled {
		unpooled := fmt.Sprintf("a value's shape mates' layouts not offered in a graph of over %d values", maxPooled)
		p.Restricted = strings.Join(slices.DeleteFunc([]string{p.Restricted, unpooled}, func(s string) bool { return s == "" }), "; ")
	}
	return cands
}

// restriction says what the candidates leave out, "" where they hold
// every layout the seeds and the transfers reach: the values whose lists
// were full (MaxCandidates).
func restriction(g *model.Graph, cands map[*model.Value]*candSet) string {
	var full []string
	for _, v := range g.Values {
		if cands[v].full {
			full = append(full, "%"+v.Name)
		}
	}
	switch {
	case len(full) == 0:
		return ""
	case len(full) > 3:
		return fmt.Sprintf("at most %d a value: %s and %d more", MaxCandidates, strings.Join(full[:2], ", "), len(full)-2)
	}
	return fmt.Sprintf("at most %d a value: %s", MaxCandidates, strings.Join(full, ", "))
}

// maxPooled is the most values a graph may have for its values to be
// offered the layouts of the others of their shape: a generated graph of
// thousands of values of one shape would give each of them every
// layout, and its build and search grow with the square of that.
const maxPooled = 512

// poolByShape offers every value the candidates of the other values of
// its shape, but a value that has none: no op reads it in a layout of
// its own (a mask its access makes), so any layout does.
func poolByShape(g *model.Graph, cands map[*model.Value]*candSet) {
	pool := map[string][]*model.Layout{}
	key := func(v *model.Value) string { return fmt.Sprint(v.Shape) }
	for _, v := range g.Values {
		k := key(v)
		for _, l := range cands[v].list {
			if !l.InShared() && l.Opaque() == "" && !slices.Contains(pool[k], l) {
				pool[k] = append(pool[k], l)
			}
		}
	}
	for _, v := range g.Values {
		if len(cands[v].list) == 0 {
			continue // nothing reads it in a layout: any one does
		}
		for _, l := range pool[key(v)] {
			cands[v].add(l)
		}
	}
}

// accessOrder is the order in which a memory op runs over v's
// dimensions: the contiguous one first, then the others from the last.
func accessOrder(op *model.Op, v *model.Value) []int {
	c := op.VectorDim(v)
	order := []int{c}
	for d := len(v.Shape) - 1; d >= 0; d-- {
		if d != c {
			order = append(order, d)
		}
	}
	return order
}

// nodes makes one node per value, one per mma, one per op that runs in a
// layout of its own, with their costs and the facts that forbid choices.
func (p *Problem) nodes(cands map[*model.Value]*candSet, mmaRecs, loadRecs []*model.Record) error {
	g, t := p.Graph, p.Target
	valueNode := map[*model.Value]*Node{}
	addNode := p.addNode
	var sc nodeScratch
	p.watch.phase("build", "costs of values", len(g.Values))
	for _, v := range g.Values {
		if err := p.watch.step(); err != nil {
			return err
		}
		cs := cands[v]
		n := &Node{Kind: NodeValue, Value: v}
		list := cs.list
		if len(list) == 0 {
			// No candidate at all: the value is unconstrained; give it the
			// first vector layout so that the problem stays well formed.
			list = vectorLayouts(v.Shape, len(v.Shape)-1, v.DType.Bits, t.SubgroupSize, g.Subgroups)
			if len(list) == 0 {
				return &model.Error{Pos: v.Pos, Code: model.CodeShapeMismatch, Index: -1,
					Msg: fmt.Sprintf("no layout of %%%s (%s) over %d subgroups of %d lanes could be built", v.Name, dims(v.Shape), g.Subgroups, t.SubgroupSize)}
			}
			list = list[:1]
		}
		if l := p.leftInShared(v); l != nil {
			list = append(slices.Clip(list), l)
		}
		var costs []int64
		n.Layouts, n.Loads, costs = sc.layouts[:0], sc.loads[:0], sc.costs[:0]
		var forbids []forbid
		pin := p.pinFact(v)
		for i, l := range list {
			c, rec, guards, err := p.valueCost(v, l, loadRecs)
			if err != nil {
				return err
			}
			switch {
			case pin != nil && v.Pin.Layout == nil:
				guards = append(guards, p.guard(pin, p.subgroupsFact()))
			case pin != nil && !l.Equal(v.Pin.Layout):
				guards = append(guards, p.guard(pin))
			}
			for _, gd := range guards {
				forbids = append(forbids, forbid{I: int32(i), Guard: gd})
			}
			n.Layouts = append(n.Layouts, l)
			n.Loads = append(n.Loads, rec)
			costs = append(costs, c)
		}
		sc = nodeScratch{n.Layouts, n.Loads, costs}
		p.shareLists(n)
		valueNode[v] = n
		addNode(n, costs, forbids)
	}
	p.valueNode = valueNode
	var err error
	p.watch.phase("build", "costs of ops", p.ops())
	g.Walk(func(op *model.Op) {
		if err == nil {
			err = p.watch.step()
		}
		if err != nil {
			return
		}
		switch info := op.Info(); {
		case info.Flow == model.FlowRecord:
			n := &Node{Kind: NodeMMA, Op: op}
			var costs []int64
			var forbids []forbid
			intr := p.intrinsicFact(op)
			opRecs := p.mmaRecordsFor(op, mmaRecs)
			chs := p.mmaChoices(op, opRecs, g.Notation)
			if intr != nil {
				// The named record's choices as the notation allows them,
				// then the others, which the fact forbids.
				chs = p.mmaChoices(op, named(mmaRecs, op.Intrinsic), g.Notation)
				for _, ch := range p.mmaChoices(op, opRecs, g.Notation) {
					if ch.Record.Name != op.Intrinsic {
						chs = append(chs, ch)
					}
				}
			}
			records := p.recordsFact(op, opRecs, mmaRecs)
			if len(chs) == 0 {
				chs = []*MMAChoice{{}} // no record fits: a placeholder the records fact forbids
			}
			n.MMA = chs
			for i, ch := range chs {
				if ch.Record == nil {
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(records)})
					costs = append(costs, 0)
					continue
				}
				if intr != nil && ch.Record.Name != op.Intrinsic {
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(intr)})
				}
				if f := p.descriptorSourceFact(op, ch); f != nil {
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(f)})
				}
				if vf := p.variantFact(op); vf != nil && !op.Variant.Admits(ch.opChoice()) {
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(vf)})
				}
				c, _, e := p.memo.ops.OpCost(op, ch.C, ch.opChoice(), t)
				if e != nil {
					err = e
					return
				}
				costs = append(costs, c)
			}
			addNode(n, costs, forbids)
			p.opNode[op] = n
		case info.Flow == model.FlowExec:
			src := op.Operands[0]
			n := &Node{Kind: NodeExec, Op: op}
			var costs []int64
			n.Layouts, n.Loads, costs = sc.layouts[:0], sc.loads[:0], sc.costs[:0]
			var forbids []forbid
			var uses []scratchUse
			vn := valueNode[src]
			stated := p.layoutFact(op)
			for i, l := range vn.Layouts {
				if l.InShared() {
					// No op runs in shared memory, and nothing converts out
					// of it (edges). It is the value's last choice, so the
					// indices before it are this node's too.
					continue
				}
				switch {
				case stated != nil && op.Layout.Layout == nil:
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(stated, p.subgroupsFact())})
				case stated != nil && !l.Equal(op.Layout.Layout):
					forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(stated)})
				}
				var res *model.Layout
				if tr := info.Forward; tr != nil {
					res = p.memo.derive(l, tr.Key(op), func(l *model.Layout) *model.Layout { return tr.Apply(op, l) })
				}
				if info.Combines {
					if scratch := p.memo.reduceScratch(l, op.Axis, src.DType.Bits); scratch > 0 {
						rule := p.ruleFact(op, "shared", fmt.Sprintf("%s combines the partial results of its subgroups through shared memory", opText(op)))
						if !p.relaxed(rule) {
							uses = append(uses, scratchUse{Edge: -1, I: int32(i), Bytes: scratch})
						}
						for _, gd := range p.overBudget(nil, scratch, rule) {
							forbids = append(forbids, forbid{I: int32(i), Guard: gd})
						}
					}
				}
				var c int64
				var store *model.Record
				switch {
				case l.Opaque() != "":
					// An unspecified fragment leaves registers only through
					// a store record of its family, into a placed buffer.
					if store = p.familyStore(op, l); store == nil || !p.placed(op) {
						store = nil
						forbids = append(forbids, forbid{I: int32(i), Guard: p.guard(p.familyFact(l))})
					}
				case !p.placed(op):
					var e error
					if c, _, e = p.memo.ops.OpCost(op, res, &model.OpChoice{Exec: l}, t); e != nil {
						err = e
						return
					}
					if info.Records == model.RecordStoreGlobal {
						c, store = p.cheapestBlock(op, src, nil, l, c)
					}
				}
				n.Loads = append(n.Loads, store)
				n.Layouts = append(n.Layouts, l)
				costs = append(costs, c)
			}
			sc = nodeScratch{n.Layouts, n.Loads, costs}
			p.shareLists(n)
			addNode(n, costs, forbids)
			p.opNode[op] = n
			for _, u := range uses {
				u.Node = n.ID
				p.scratch = append(p.scratch, u)
			}
		}
	})
	return err
}

// nodeScratch holds the lists a node's choices are gathered in, reused
// from node to node: shareLists and addNode keep copies.
type nodeScratch struct {
	layouts []*model.Layout
	loads   []*model.Record
	costs   []int64
}

// shareLists makes a node's layouts the build's one copy of that list,
// and its records a copy of their own, or none when it has none (Load
// reads them).
func (p *Problem) shareLists(n *Node) {
	n.Layouts = p.memo.list(n.Layouts)
	if slices.ContainsFunc(n.Loads, func(r *model.Record) bool { return r != nil }) {
		n.Loads = slices.Clone(n.Loads)
	} else {
		n.Loads = nil
	}
}

// familyStore is the store record of l's fragment family that a
// copy_to_shared op can write l with, nil if none.
func (p *Problem) familyStore(op *model.Op, l *model.Layout) *model.Record {
	if op.Info().Records != model.RecordStoreShared {
		return nil
	}
	for _, r := range p.families[l.Opaque()] {
		if r.Kind != model.RecordStoreShared || r.Fragment == nil || r.Fragment.DType.Bits != op.Operands[0].DType.Bits {
			continue
		}
		if _, ok := p.memo.ops.LoadInstructions(l, r); ok {
			return r
		}
	}
	return nil
}

// named keeps the record of that name.
func named(recs []*model.Record, name string) []*model.Record {
	var out []*model.Record
	for _, r := range recs {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

// reduceScratch is the shared memory a reduction along axis needs when it
// runs in layout l: one partial result per subgroup that shares a result.
func reduceScratch(l *model.Layout, axis, elemBits int) int {
	r := model.DescribeReduction(l, axis)
	if r.Subgroups <= 1 {
		return 0
	}
	res, err := l.Slice(axis)
	if err != nil {
		return 0
	}
	return res.Elements() * r.Subgroups * max((elemBits+7)/8, 1)
}

// addNode adds a decision with its costs; the choices the guards in force
// forbid cost Inf.
func (p *Problem) addNode(n *Node, costs []int64, forbids []forbid) {
	n.ID = len(p.Nodes)
	p.Nodes = append(p.Nodes, n)
	for _, f := range forbids {
		if p.inForce(f.Guard) {
			costs[f.I] = Inf
		}
	}
	p.PBQP.Cost = append(p.PBQP.Cost, p.memo.row(costs))
	p.facts.nodeForbid = append(p.facts.nodeForbid, forbids)
}

// valueCost is the cost of producing v in layout l: the cost of its
// defining op when the op's cost depends on the result's layout. A load
// from a placed buffer costs on its edge to the buffer node; here only
// what a record the op names cannot make is forbidden.
func (p *Problem) valueCost(v *model.Value, l *model.Layout, loadRecs []*model.Record) (int64, *model.Record, []int32, error) {
	op := v.Def
	if l.Opaque() != "" && (op == nil && v.Arg == nil || op != nil && op.Info().Memory == model.MemoryGlobal) {
		// Only the records of its family make an unspecified fragment: a
		// graph input or a global load cannot (a loop's carried value
		// takes its init's and its yield's layout).
		return 0, nil, []int32{p.guard(p.familyFact(l))}, nil
	}
	if op == nil {
		return 0, nil, nil, nil
	}
	switch info := op.Info(); {
	case info.ResultCost:
		c, _, err := p.memo.ops.OpCost(op, l, nil, p.Target)
		if err != nil || info.Records != model.RecordLoadGlobal {
			return c, nil, nil, err
		}
		c, rec := p.cheapestBlock(op, v, l, nil, c)
		return c, rec, nil, nil
	case info.Records == model.RecordLoadShared:
		named, guards, err := p.namedLoadGuards(op, l, loadRecs)
		if err != nil || p.placed(op) {
			return 0, nil, guards, err
		}
		best, rec, err := p.loadCost(op, l, nil, loadRecs)
		if err != nil {
			return 0, nil, nil, err
		}
		if rec == nil && l.Opaque() != "" {
			return 0, nil, append(guards, p.guard(p.familyFact(l))), nil
		}
		if named != nil && len(guards) == 0 && !p.relaxed(p.intrinsicFact(op)) {
			best, _, err = p.memo.ops.OpCost(op, l, &model.OpChoice{Record: named}, p.Target)
			rec = named
		}
		return best, rec, guards, err
	}
	return 0, nil, nil, nil
}

// namedLoadGuards checks the load record an op names against layout l:
// the guards forbidding l when the record cannot make it (or leaves its
// fragment unspecified), and the record.
func (p *Problem) namedLoadGuards(op *model.Op, l *model.Layout, loadRecs []*model.Record) (*model.Record, []int32, error) {
	intr := p.intrinsicFact(op)
	if intr == nil {
		return nil, nil, nil
	}
	r := p.namedLoad(op, loadRecs)
	if r == nil {
		return nil, nil, &model.Error{Pos: intr.Pos, Code: model.CodeUnknownName, Index: -1,
			Msg: fmt.Sprintf("%s is not a shared-memory load record of %s", op.Intrinsic, p.Target.Name)}
	}
	if r.Fragment == nil || r.Fragment.Layout == nil {
		return r, []int32{p.guard(intr, p.fragmentFact(r))}, nil
	}
	if f := r.Fragment.Layout; f.Opaque() != l.Opaque() {
		return r, []int32{p.guard(intr, p.familyFact(f, l))}, nil
	}
	if _, ok := p.memo.ops.LoadInstructions(l, r); !ok || r.Fragment.DType.Bits != op.Result.DType.Bits {
		return r, []int32{p.guard(intr)}, nil
	}
	return r, nil, nil
}

// namedLoad is the load record an op names, nil if the target has none of
// that name.
func (p *Problem) namedLoad(op *model.Op, loadRecs []*model.Record) *model.Record {
	for _, r := range loadRecs {
		if r.Name == op.Intrinsic {
			return r
		}
	}
	return nil
}

// recordTile is the tile a load record moves, for its memory rule.
func recordTile(r *model.Record) [2]int {
	tile := [2]int{1, 1}
	if r.Fragment != nil && len(r.Fragment.Shape) == 2 {
		tile = [2]int{r.Fragment.Shape[0], r.Fragment.Shape[1]}
	} else if op := r.Operands["a"]; op != nil && len(op.Shape) == 2 {
		tile = [2]int{op.Shape[0], op.Shape[1]}
	}
	return tile
}
