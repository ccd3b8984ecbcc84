package solver

import (
	"fmt"
	"strings"

	"planner/model"
)

// NodeKind says what a node of the problem decides.
type NodeKind int

const (
	NodeValue NodeKind = iota // the layout a value is produced in
	NodeMMA                   // an mma op's record and warp arrangement
	NodeExec                  // the layout a reduce, store or copy runs in
)

// Node is one decision: a value's layout, an mma's arrangement, or an op's
// execution layout, with its finite list of choices.
type Node struct {
	ID      int
	Kind    NodeKind
	Value   *model.Value
	Op      *model.Op
	Layouts []*model.Layout // value and exec nodes
	Origins []string
	MMA     []*MMAChoice    // mma nodes
	Loads   []*model.Record // load_shared values: the intrinsic per choice (nil: plain loads)
	Pos     model.Pos
}

// Name describes the node for people.
func (n *Node) Name() string {
	switch n.Kind {
	case NodeMMA:
		return "mma " + n.Op.Name
	case NodeExec:
		return fmt.Sprintf("%s %s", n.Op.Kind, n.Op.Name)
	}
	return "%" + n.Value.Name
}

// Choices is how many choices the node has.
func (n *Node) Choices() int {
	if n.Kind == NodeMMA {
		return len(n.MMA)
	}
	return len(n.Layouts)
}

// EdgeKind says what an edge of the problem stands for.
type EdgeKind int

const (
	EdgeConversion EdgeKind = iota // a use of a value: converting it to what the consumer requires
	EdgeLink                       // a consumer's choice fixes a produced layout
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
	Forbid   string // why conversions are forbidden on this edge, if they are
	Pos      model.Pos
}

// Problem is a graph turned into a PBQP, with what each node and edge
// stands for.
type Problem struct {
	Graph   *model.Graph
	Target  *model.Target
	Budget  int
	Buffers int // bytes of the shared-memory buffers
	Nodes   []*Node
	Edges   []*Edge
	PBQP    *PBQP
	convs   map[convKey]*model.Conversion

	valueNode map[*model.Value]*Node
	opNode    map[*model.Op]*Node
	rejected  map[*model.Op][]string // load records a buffer's placement rules out
}

type convKey struct {
	from, to string
	bits     int
}

// Build turns a graph into a problem for a target with the given records.
func Build(g *model.Graph, t *model.Target, records []*model.Record) (*Problem, error) {
	p := &Problem{Graph: g, Target: t, PBQP: &PBQP{}, convs: map[convKey]*model.Conversion{}, opNode: map[*model.Op]*Node{}}
	p.Budget = t.SharedMemory
	if g.SharedBudget > 0 {
		p.Budget = g.SharedBudget
	}
	for _, b := range g.Buffers {
		p.Buffers += b.Bytes()
	}
	var mmaRecs, loadRecs []*model.Record
	for _, r := range records {
		switch r.Kind {
		case model.RecordMMA:
			mmaRecs = append(mmaRecs, r)
		case model.RecordLoadShared:
			loadRecs = append(loadRecs, r)
		}
	}
	cands := p.candidates(mmaRecs)
	if err := p.nodes(cands, mmaRecs, loadRecs); err != nil {
		return nil, err
	}
	if err := p.edges(); err != nil {
		return nil, err
	}
	return p, nil
}

// candidates seeds every value's candidate layouts and closes them under
// the ops' transfer rules.
func (p *Problem) candidates(mmaRecs []*model.Record) map[*model.Value]*candSet {
	g, lanes, warps := p.Graph, p.Target.SubgroupSize, p.Graph.Subgroups
	cands := map[*model.Value]*candSet{}
	for _, v := range g.Values {
		cands[v] = &candSet{keys: map[string]bool{}}
	}
	// Seeds: pins first, then intrinsic fragments, then memory layouts.
	for _, v := range g.Values {
		if v.Pin != nil {
			cands[v].add(v.Pin.Layout, fmt.Sprintf("pinned at %s", v.Pin.Pos))
		}
	}
	g.Walk(func(op *model.Op) {
		switch op.Kind {
		case model.OpMMA:
			for _, ch := range mmaChoices(op, mmaRecs, warps, g.Notation) {
				why := fmt.Sprintf("mma %s: %s", op.Name, ch)
				cands[op.Operands[0]].add(ch.A, why+", operand a")
				cands[op.Operands[1]].add(ch.B, why+", operand b")
				cands[op.Operands[2]].add(ch.C, why+", operand c")
				cands[op.Result].add(ch.C, why+", result")
			}
		case model.OpLoad, model.OpStore, model.OpCopyToShared, model.OpLoadShared:
			v := op.Result
			if v == nil {
				v = op.Operands[0]
			}
			contiguous := op.Contiguous
			if op.Kind == model.OpCopyToShared || op.Kind == model.OpLoadShared {
				contiguous = len(v.Shape) - 1
			}
			for _, l := range vectorLayouts(v.Shape, contiguous, v.DType.Bits, lanes, warps) {
				cands[v].add(l, fmt.Sprintf("%s %s: vectors along dim%d", op.Kind, op.Name, contiguous))
			}
		}
	})
	// Close under the transfer rules, a bounded number of rounds.
	for round := 0; round < 8; round++ {
		changed := false
		flow := func(from, to *model.Value, fn func(*model.Layout) *model.Layout, why string) {
			src := cands[from]
			for i := 0; i < len(src.list); i++ {
				l := src.list[i]
				if fn != nil {
					l = fn(l)
				}
				if l != nil && cands[to].add(l, why) {
					changed = true
				}
			}
		}
		same := func(a, b *model.Value, why string) {
			flow(a, b, nil, why)
			flow(b, a, nil, why)
		}
		g.Walk(func(op *model.Op) {
			why := fmt.Sprintf("through %s %s", op.Kind, op.Name)
			switch op.Kind {
			case model.OpElementwise, model.OpCast:
				for i, v := range op.Operands {
					if op.Fn == "select" && i == 0 && v.DType.Name != op.Result.DType.Name {
						continue
					}
					same(v, op.Result, why)
				}
			case model.OpTranspose:
				inv := transposeInverse(op.Perm)
				flow(op.Operands[0], op.Result, func(l *model.Layout) *model.Layout { r, _ := l.Transpose(op.Perm); return r }, why)
				flow(op.Result, op.Operands[0], func(l *model.Layout) *model.Layout { r, _ := l.Transpose(inv); return r }, why)
			case model.OpReduce:
				src := op.Operands[0]
				flow(src, op.Result, func(l *model.Layout) *model.Layout { r, _ := l.Slice(op.Axis); return r }, why)
				flow(op.Result, src, func(l *model.Layout) *model.Layout { r, _ := l.Broadcast(op.Axis, src.Shape[op.Axis]); return r }, why)
				if len(op.Operands) == 2 {
					same(op.Operands[1], op.Result, why)
				}
			case model.OpBroadcast:
				flow(op.Operands[0], op.Result, func(l *model.Layout) *model.Layout { return broadcastFrom(l, op.Dims, op.Result.Shape) }, why)
				flow(op.Result, op.Operands[0], func(l *model.Layout) *model.Layout { return sliceDims(l, op.Dims) }, why)
			case model.OpShapeCast:
				src := op.Operands[0]
				flow(src, op.Result, func(l *model.Layout) *model.Layout { r, _ := l.Reshape(op.Result.Shape); return r }, why)
				flow(op.Result, src, func(l *model.Layout) *model.Layout { r, _ := l.Reshape(src.Shape); return r }, why)
			case model.OpLoop:
				lp := op.Body
				for i := range lp.Args {
					same(lp.Inits[i], lp.Args[i], why)
					same(lp.Yields[i], lp.Args[i], why)
					same(lp.Args[i], lp.Results[i], why)
				}
			}
		})
		if !changed {
			break
		}
	}
	return cands
}

// nodes makes one node per value, one per mma, one per op that runs in a
// layout of its own, with their costs.
func (p *Problem) nodes(cands map[*model.Value]*candSet, mmaRecs, loadRecs []*model.Record) error {
	g, t := p.Graph, p.Target
	valueNode := map[*model.Value]*Node{}
	addNode := func(n *Node, costs []int64) {
		n.ID = len(p.Nodes)
		p.Nodes = append(p.Nodes, n)
		p.PBQP.Cost = append(p.PBQP.Cost, costs)
	}
	for _, v := range g.Values {
		cs := cands[v]
		n := &Node{Kind: NodeValue, Value: v, Pos: v.Pos}
		var costs []int64
		for i, l := range cs.list {
			if v.Pin != nil && !l.Equal(v.Pin.Layout) {
				continue // a pinned value has one choice
			}
			c, rec, err := p.valueCost(v, l, loadRecs)
			if err != nil {
				return err
			}
			n.Layouts = append(n.Layouts, l)
			n.Origins = append(n.Origins, cs.origin[i])
			n.Loads = append(n.Loads, rec)
			costs = append(costs, c)
		}
		if len(n.Layouts) == 0 {
			// No candidate at all: the value is unconstrained; give it the
			// first vector layout so that the problem stays well formed.
			for _, l := range vectorLayouts(v.Shape, len(v.Shape)-1, v.DType.Bits, t.SubgroupSize, g.Subgroups) {
				n.Layouts = append(n.Layouts, l)
				n.Origins = append(n.Origins, "default: vectors along the last dimension")
				n.Loads = append(n.Loads, nil)
				c, _, err := p.valueCost(v, l, loadRecs)
				if err != nil {
					return err
				}
				costs = append(costs, c)
				break
			}
		}
		valueNode[v] = n
		addNode(n, costs)
	}
	p.valueNode = valueNode
	var err error
	g.Walk(func(op *model.Op) {
		if err != nil {
			return
		}
		switch op.Kind {
		case model.OpMMA:
			n := &Node{Kind: NodeMMA, Op: op, Pos: op.Pos, MMA: mmaChoices(op, mmaRecs, g.Subgroups, g.Notation)}
			var costs []int64
			for _, ch := range n.MMA {
				c, _, e := model.OpCost(op, nil, &model.OpChoice{Record: ch.Record, WarpsM: ch.WarpsM, WarpsN: ch.WarpsN}, t)
				if e != nil {
					err = e
					return
				}
				costs = append(costs, c)
			}
			addNode(n, costs)
			p.opNode[op] = n
		case model.OpReduce, model.OpStore, model.OpCopyToShared:
			src := op.Operands[0]
			n := &Node{Kind: NodeExec, Op: op, Pos: op.Pos}
			var costs []int64
			vn := valueNode[src]
			for i, l := range vn.Layouts {
				var res *model.Layout
				if op.Kind == model.OpReduce {
					res, _ = l.Slice(op.Axis)
				}
				c, _, e := model.OpCost(op, res, &model.OpChoice{Exec: l}, t)
				if e != nil {
					err = e
					return
				}
				n.Layouts = append(n.Layouts, l)
				n.Origins = append(n.Origins, vn.Origins[i])
				costs = append(costs, c)
			}
			addNode(n, costs)
			p.opNode[op] = n
		}
	})
	return err
}

// valueCost is the cost of producing v in layout l: the cost of its
// defining op when the op's cost depends on the result's layout. For a
// shared-memory load it picks the cheapest way to load l.
func (p *Problem) valueCost(v *model.Value, l *model.Layout, loadRecs []*model.Record) (int64, *model.Record, error) {
	op := v.Def
	if op == nil || op.Kind == model.OpLoop {
		return 0, nil, nil
	}
	switch op.Kind {
	case model.OpLoad, model.OpElementwise, model.OpCast:
		c, _, err := model.OpCost(op, l, nil, p.Target)
		return c, nil, err
	case model.OpLoadShared:
		best, _, err := model.OpCost(op, l, nil, p.Target)
		if err != nil {
			return 0, nil, err
		}
		var rec *model.Record
		for _, r := range p.admitted(op, loadRecs) {
			if r.Fragment == nil || r.Fragment.DType.Bits != v.DType.Bits {
				continue
			}
			if _, ok := model.LoadInstructions(l, r); !ok {
				continue
			}
			c, _, err := model.OpCost(op, l, &model.OpChoice{Record: r}, p.Target)
			if err == nil && c < best {
				best, rec = c, r
			}
		}
		return best, rec, nil
	}
	return 0, nil, nil
}

// admitted lists the load records whose memory rule accepts the placement
// of op's buffer, noting the others with the reason once per op.
func (p *Problem) admitted(op *model.Op, recs []*model.Record) []*model.Record {
	b := op.Buffer
	if b == nil || b.Layout == nil {
		return recs
	}
	if p.rejected == nil {
		p.rejected = map[*model.Op][]string{}
	}
	_, noted := p.rejected[op]
	var out []*model.Record
	var reasons []string
	names := map[string][]string{}
	for _, r := range recs {
		if r.Fragment == nil || r.Fragment.DType.Bits != b.DType.Bits {
			continue
		}
		tile := [2]int{1, 1}
		if len(r.Fragment.Shape) == 2 {
			tile = [2]int{r.Fragment.Shape[0], r.Fragment.Shape[1]}
		}
		if err := r.Memory.Admits(b.Layout, tile); err != nil {
			why := err.Error()
			if names[why] == nil {
				reasons = append(reasons, why)
			}
			names[why] = append(names[why], r.Name)
			continue
		}
		out = append(out, r)
	}
	if !noted {
		p.rejected[op] = nil
		for _, why := range reasons {
			p.rejected[op] = append(p.rejected[op], fmt.Sprintf("%s: buffer %s (%s): %s", strings.Join(names[why], ", "), b.Name, b.Layout, why))
		}
	}
	return out
}
