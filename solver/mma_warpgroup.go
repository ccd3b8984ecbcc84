package solver

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
	"planner/solver/pbqp"
)

// warpgroupChoices lists the ways to run op with a record that several
// subgroups execute together (a wgmma warpgroup: `subgroups = 4`). The
// record's fragments already span its subgroups (their `warp` bases), so
// the graph's subgroups form groups of that many, and the groups are
// arranged over the output as tileMMA arranges single warps: gm groups
// along M and gn along N, then register repeats along M, N and K. The
// choice's WarpsM and WarpsN count groups. An operand the record reads
// from shared memory (in = "shared") has no register layout: the choice
// requires it left in shared memory (model.LeftInShared), and the
// problem checks the buffer it is loaded from against the record's
// memory rule. Groups must split the tiles evenly (no copies).
func warpgroupChoices(op *model.Op, r *model.Record, warps int) []*MMAChoice {
	a, b, c := op.Operands[0], op.Operands[1], op.Operands[2]
	m, k, n := a.Shape[0], a.Shape[1], b.Shape[1]
	ra, rb, rc, rd := r.Operands["a"], r.Operands["b"], r.Operands["c"], r.Operands["d"]
	switch {
	case r.Subgroups < 2 || warps%r.Subgroups != 0 || r.Blocks > 1:
		return nil
	case ra == nil || rb == nil || rc == nil || rd == nil || rc.Layout == nil || ra.Duplicated || rb.Duplicated:
		return nil
	case ra.Layout == nil && !ra.Shared || rb.Layout == nil && !rb.Shared:
		return nil // an operand left unspecified
	case ra.DType.Name != a.DType.Name || rb.DType.Name != b.DType.Name || rc.DType.Name != c.DType.Name || rd.DType.Name != op.Result.DType.Name:
		return nil
	case m%r.M != 0 || n%r.N != 0 || k%r.K != 0:
		return nil
	}
	groups := warps / r.Subgroups
	tm, tn := m/r.M, n/r.N
	var out []*MMAChoice
	for gm := 1; gm <= groups; gm++ {
		gn := groups / gm
		if groups%gm != 0 || tm%gm != 0 || tn%gn != 0 {
			continue
		}
		for _, outer := range []bool{false, true} {
			if outer && (tm/gm == 1 && tn/gn == 1 || groups == 1) {
				continue // no register repeats or one group: the same layouts
			}
			for _, nFirst := range []bool{true, false} {
				if !nFirst && (gm == 1 || gn == 1) {
					continue
				}
				if ch, err := tileMMA(r, m, n, k, gm, gn, nFirst, outer, repeatNFirst); err == nil {
					out = append(out, ch)
				}
			}
		}
	}
	return out
}

// tileOperand repeats the fragment of one of r's operands over shape as
// the factors say, or, for an operand r reads from shared memory, gives
// the layout of a value left there.
func tileOperand(r *model.Record, role string, shape []int, factors []model.TileFactor) (*model.Layout, error) {
	if o := r.Operands[role]; o.Shared {
		return model.LeftInShared(shape)
	}
	return model.Tile(r.Operands[role].Layout, shape, factors)
}

// warpgroupMisfit says why a record executed by several subgroups
// together cannot run op.
func warpgroupMisfit(op *model.Op, r *model.Record, warps int) string {
	a, b := op.Operands[0], op.Operands[1]
	m, n := a.Shape[0], b.Shape[1]
	switch {
	case warps%r.Subgroups != 0:
		return fmt.Sprintf("it runs on groups of %d warps, which %d warps do not form", r.Subgroups, warps)
	case r.Blocks > 1:
		return "multi-block records are not tiled"
	case tileMisfit(op, r) != "":
		return tileMisfit(op, r)
	}
	if len(warpgroupChoices(op, r, warps)) == 0 {
		return fmt.Sprintf("its operand types, or the %d×%d tiles of %d×%d over %d groups of %d warps, do not fit", m/r.M, n/r.N, r.M, r.N, warps/r.Subgroups, r.Subgroups)
	}
	return "it fits"
}

// leftInShared is the extra choice of value v that an mma reading it
// through a descriptor needs: v left in the buffer its load_shared reads
// (no load; the mma's descriptor edge prices the reads). nil when v is not loaded from a placed buffer or no mma
// choice reads it so.
func (p *Problem) leftInShared(v *model.Value) *model.Layout {
	def := v.Def
	if def == nil || !def.ReadsShared() || !p.placed(def) {
		return nil
	}
	var out *model.Layout
	p.Graph.Walk(func(op *model.Op) {
		if out != nil || op.Info().Flow != model.FlowRecord {
			return
		}
		for i, x := range op.Operands {
			if x != v || i > 1 {
				continue
			}
			for _, ch := range p.mmaChoices(op, p.plainMMA, p.Graph.Notation) {
				if l := []*model.Layout{ch.A, ch.B}[i]; l.InShared() {
					out = l
					return
				}
			}
		}
	})
	return out
}

// descriptorSourceFact is, for an mma choice whose record reads an operand
// from shared memory, the rule that the operand must then be loaded from a
// placed buffer by a load_shared, when the graph's is not; nil otherwise.
func (p *Problem) descriptorSourceFact(op *model.Op, ch *MMAChoice) *model.Fact {
	i, buf := model.DescriptorOperand(op, ch.Record)
	if i < 0 || buf != nil && p.placed(op.Operands[i].Def) {
		return nil
	}
	slot := model.RoleName(op, i)
	return p.ruleFact(op, slot+".shared", fmt.Sprintf("%s reads %s (%%%s) from shared memory through a descriptor with %s, so %%%s must be loaded by a load_shared from a two-dimensional buffer",
		opText(op), slot, op.Operands[i].Name, ch.Record.Name, op.Operands[i].Name))
}

// descriptorEdge joins an mma whose choices read an operand through a
// descriptor to the decision of that operand's buffer placement: per
// choice and placement, the tensor core's reads of the buffer
// (model.DescriptorAccess), forbidden where the record's memory rule
// cannot describe the placement (model.DescriptorAdmits).
func (p *Problem) descriptorEdge(op *model.Op, n *Node) error {
	var buf *model.Buffer
	for _, ch := range n.MMA {
		if i, b := model.DescriptorOperand(op, ch.Record); i >= 0 && b != nil && p.placed(op.Operands[i].Def) {
			buf = b
		}
	}
	if buf == nil {
		return nil
	}
	bn, bi := p.bufNode[buf], p.bufSlot[buf]
	m := p.memo.mats.zero(n.Choices(), bn.Choices())
	var forbids []forbid
	for i, ch := range n.MMA {
		k, b := model.DescriptorOperand(op, ch.Record)
		if k < 0 || b != buf {
			continue
		}
		role := model.RoleName(op, k)
		for c, set := range bn.Placements {
			s := set[bi]
			if err := model.DescriptorAdmits(ch.Record, role, s); err != nil {
				forbids = append(forbids, forbid{I: int32(i), J: int32(c), Guard: p.guard(p.memoryFact(ch.Record))})
				continue
			}
			oc := &model.OpChoice{Record: ch.Record, WarpsM: ch.WarpsM, WarpsN: ch.WarpsN, Buffer: s}
			a, ok := model.DescriptorAccess(op, oc, p.Target)
			if !ok {
				return fmt.Errorf("%s: mma %s: the reads of buffer %s by %s cannot be counted", op.Pos, op.Name, buf.Name, ch.Record.Name)
			}
			m[i][c] = int64(a.Wavefronts) * p.Target.Weights.SharedWavefront * model.Trips(op.In)
		}
	}
	for _, f := range forbids {
		if p.inForce(f.Guard) {
			m[f.I][f.J] = Inf
		}
	}
	p.Edges = append(p.Edges, &Edge{Kind: EdgeDescriptor, From: n.ID, To: bn.ID, Use: model.Use{Op: op}})
	p.PBQP.Edges = append(p.PBQP.Edges, pbqp.Edge{A: n.ID, B: bn.ID, M: p.memo.mats.shared(m)})
	p.facts.edgeForbid = append(p.facts.edgeForbid, forbids)
	return nil
}

// descriptorPlacement is the placement of the buffer an mma choice reads
// an operand from through its descriptor, nil when it reads none so.
func (p *Problem) descriptorPlacement(op *model.Op, ch *MMAChoice, choice []int) *model.SharedLayout {
	if ch.Record == nil {
		return nil
	}
	if i, b := model.DescriptorOperand(op, ch.Record); i >= 0 && b != nil && p.bufNode[b] != nil {
		return p.placement(b, choice)
	}
	return nil
}

// descriptorCollision says how a core with the memory rule f of an mma
// record that reads an operand through a descriptor collides: the mma
// must use the record (an intrinsic fact) or has no other, and the
// buffer's placement (its fact, or every placement considered) breaks
// the rule, with why for a stated placement. false when f is a load
// record's rule.
func (p *Problem) descriptorCollision(f *model.Fact, core []*model.Fact, ref func(*model.Fact) string) ([]string, bool) {
	name := strings.TrimPrefix(f.Name, "memory:")
	var r *model.Record
	for _, rec := range p.plainMMA {
		if rec.Name == name && rec.SharedOperand() != "" {
			r = rec
		}
	}
	if r == nil {
		return nil, false
	}
	by, verb := strings.Join(refsOf(core, model.FactIntrinsic), " "), "makes"
	if by == "" {
		by, verb = "The other facts", "make"
	}
	placement := "every placement the planner considers for the buffer"
	if bufs := refsOf(core, model.FactBuffer); len(bufs) > 0 {
		placement = "the buffer's placement " + strings.Join(bufs, " ")
	}
	says := []string{fmt.Sprintf("%s %s the mma read operand %s from shared memory through the descriptor of %s, whose memory rule %s %s breaks.",
		by, verb, r.SharedOperand(), r.Name, ref(f), placement)}
	p.Graph.Walk(func(op *model.Op) {
		i, buf := model.DescriptorOperand(op, r)
		if i < 0 || buf == nil || buf.Layout == nil || !slices.Contains(core, p.bufferFact(buf)) {
			return
		}
		if err := model.DescriptorAdmits(r, r.SharedOperand(), buf.Layout); err != nil {
			says = append(says, fmt.Sprintf("Buffer %s as placed (%s) breaks it: %v.", buf.Name, buf.Layout, err))
		}
	})
	return says, true
}

// descriptorNote adds to an mma operand's rule which of its records read
// that operand from shared memory instead, where its load_shared leaves
// it.
func descriptorNote(chs []*MMAChoice, slot string) string {
	var names []string
	for _, ch := range chs {
		if ch.Record != nil && ch.Record.SharedOperand() == slot && !slices.Contains(names, ch.Record.Name) {
			names = append(names, ch.Record.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s reads it from shared memory through a descriptor instead, from the buffer its load_shared reads", strings.Join(names, " or "))
}

// loadedForDescriptor reports whether edge k, at choices i and j, hands a
// value loaded into registers to an mma that reads its buffer through a
// descriptor instead: no conversion, but not the value passed as it is
// (the greedy baseline, as compilers do, leaves such an operand in shared
// memory).
func (p *Problem) loadedForDescriptor(k, i, j int) bool {
	e := p.Edges[k]
	if e.Kind != EdgeConversion {
		return false
	}
	to := e.Required[j]
	return to != nil && to.InShared() && !p.Nodes[e.From].Layouts[i].InShared()
}

// descriptorEdges lists, for each mma node that reads an operand
// through a descriptor, the indices of its descriptor edges, so that a
// caller asking of every choice of every mma does not scan every edge.
func (p *Problem) descriptorEdges() map[int][]int {
	out := map[int][]int{}
	for k, e := range p.Edges {
		if e.Kind == EdgeDescriptor {
			out[e.From] = append(out[e.From], k)
		}
	}
	return out
}

// descriptorReadable reports whether choice i of mma node n can read its
// descriptor operand from some placement its buffer may take (true for a
// choice that reads none); edges are n's descriptor edges
// (descriptorEdges). The greedy baseline anchors an mma on wgmma only
// where the buffer can be laid out for it, as Triton picks its Hopper MMA
// only where the operand's shared-memory layout can be one a descriptor
// names.
func (p *Problem) descriptorReadable(edges []int, i int) bool {
	for _, k := range edges {
		row, own := p.PBQP.Edges[k].M[i], p.PBQP.Cost[p.Edges[k].To]
		readable := false
		for c := range row {
			readable = readable || row[c] < Inf && own[c] < Inf
		}
		if !readable {
			return false
		}
	}
	return true
}
