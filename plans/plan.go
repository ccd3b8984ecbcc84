package plans

import (
	"fmt"
	"strings"

	"planner/model"
	"planner/notation"
)

// Plan is a solved graph: every value's layout, every op's intrinsic or
// execution layout, every conversion left with its mechanism and cost, the
// total and how sure it is. Build recomputes every cost from the model, so
// a plan's numbers do not depend on the search that chose it.
type Plan struct {
	File string
	// GraphHash is the SHA-256 of the graph file's bytes, hex, when known:
	// a plan read back is replayed only against the graph it was made for.
	GraphHash string
	Target    string
	Subgroups int
	// Provenance says where the target and the subgroup count came from
	// when the graph was read from other text than a graph file (MLIR):
	// the attribute stating each, or the flag giving it.
	Provenance []string
	Notation   string
	Status     string
	Cost       int64
	LowerBound int64
	Stopped    string // a feasible plan: the limit that stopped the search when it is not the time limit
	// Restricted says what the candidate layouts the search chose among
	// leave out, where they are a part of what the seeds and transfer
	// rules reach (solver.Problem.Restricted): an optimum is minimal over
	// them only. "" where they are all of it.
	Restricted string
	// NotVerified says why the verifier did not replay the plan before it
	// was printed ("" when it did).
	NotVerified string
	// Search says how the smt backend searched the buffers' placements
	// (symbolically, or enumerated and why); "" for the other backends.
	Search string
	Values []ValuePlan
	Ops    []OpPlan
	Conv   []ConvPlan
	Shared SharedPlan
	// Registers is the registers per lane the values hold at their peak.
	Registers RegisterPlan
	Stats     Stats
	Compare   *Comparison // set by planner solve --compare
	// ConversionBound is the graph's bound on the plan's conversions
	// (max_conversions; a TTGIR kernel's own ttg.convert_layout count),
	// nil where it sets none.
	ConversionBound *ConversionBound
	// ConversionBoundLifted says the graph bounds its conversions but the
	// solve lifted the bound (planner solve --max-conversions none).
	ConversionBoundLifted bool
}

// ConversionBound is a bound on a plan's conversions and what keeping it
// cost.
type ConversionBound struct {
	Max  int    `json:"max"`
	From string `json:"from"` // what set it: "the input's 2 ttg.convert_layout ops", "the graph's max_conversions"
	// Unbounded is the search's cheapest plan without the bound, where
	// the bound excluded it: its cost and its conversions.
	Unbounded *UnboundedPlan `json:"unbounded,omitempty"`
}

// UnboundedPlan is the cost and the conversions of a plan a bound on
// conversions excluded.
type UnboundedPlan struct {
	Cost        int64 `json:"cost"`
	Conversions int   `json:"conversions"`
}

// Text says the bound in one line: the plan's conversions, the bound and
// what set it, and the cheaper plan it excluded, if any.
func (b *ConversionBound) Text(conversions int) string {
	s := fmt.Sprintf("conversions: %d, at most %d (%s)", conversions, b.Max, b.From)
	if u := b.Unbounded; u != nil {
		s += fmt.Sprintf("; without the bound the cheapest plan costs %d with %s (planner solve --max-conversions none)", u.Cost, plural(u.Conversions, "conversion"))
	}
	return s
}

// ValuePlan is one value's layout.
type ValuePlan struct {
	Name     string
	Shape    []int
	DType    string
	Notation string // the notation Layout is written in
	Layout   string // the layout in that notation's attribute syntax
	Values   int    // values per lane
	Note     string // why the requested notation was not used
	layout   *model.Layout
}

// OpPlan is one op's choices and cost.
type OpPlan struct {
	Name      string
	Kind      string
	Intrinsic string
	Warps     string // an mma's arrangement: "2×2 warps (warp ids along N first)"
	Exec      string // the layout a reduce, store or copy runs in
	Method    string
	Lanes     int // a reduction: lanes of each subgroup taking part in each result
	Subgroups int // a reduction: subgroups taking part in each result
	// A reduction: how many lanes of a subgroup, and how many subgroups,
	// hold each result element afterwards (its result's layout), and the
	// lanes holding the first element in the first subgroup holding it.
	HeldLanes, HeldSubgroups int
	HeldFirst                []int
	// A loop: whether each trip runs in registers only, or which values
	// cross shared memory and why.
	Loop *LoopPlan
	Cost int64
	// The ways an mma could have run (its records and warp
	// arrangements), among which the plan's is the cheapest overall.
	Considered []model.Arrangement
	// Records rejected by their memory rule, with the reason.
	Rejected []string
	Pos      model.Pos
	// An mma's arrangement, as numbers: warps along M and N, warp ids
	// along N first, each warp one contiguous block.
	WarpsM, WarpsN int
	NFirst, Outer  bool
	// BlocksAlong: "M" or "N" where the intrinsic is a multi-block mma
	// whose blocks lie along that dimension (model.Record.BlockViews).
	BlocksAlong string
	// An mma's variant: the record run on (Bᵀ, Aᵀ) for a transposed
	// accumulator, and the operands' kWidth when wider than the record's
	// own (0: the record's own).
	Transposed bool
	KWidth     int
	// KOrder: A and B hold K renumbered alike (model.KOrder); nil for
	// the record's order.
	KOrder model.KOrder
	// WarpsB: a batched mma's warps along its batch (0 or 1: none).
	WarpsB int
	exec   *model.Layout
	record *model.Record
	reads  []useLayout
}

// useLayout is the layout one use of an op reads its value in.
type useLayout struct {
	index  int
	yield  bool
	layout *model.Layout
}

// Record is the record the plan runs the op on (Intrinsic is its name):
// the mma, or the shared-memory load intrinsic; nil for none.
func (o OpPlan) Record() *model.Record { return o.record }

// Reads is the layout the op reads the value of its use (index, yield)
// in (model.Use): the value's own layout, or the one a conversion before
// the op makes; nil where the op states none (it reads the value as it
// is).
func (o OpPlan) Reads(index int, yield bool) *model.Layout {
	for _, r := range o.reads {
		if r.index == index && r.yield == yield {
			return r.layout
		}
	}
	return nil
}

// ConvPlan is one conversion: a value converted before a consumer uses it.
type ConvPlan struct {
	Value    string
	Consumer string
	Operand  string
	Kind     string
	Detail   string
	Cost     int64
	Because  string
	Why      string // the hardware bit that forces the mechanism
	// Free: every lane already holds the values in registers in the
	// needed order; the consumer just reads other registers.
	Free bool
	Pos  model.Pos
	// What the mechanism claims, for the verifier to replay: shuffle
	// rounds and assembled words per lane; for a round trip through
	// shared memory the scratch bytes, its dimension order (fastest
	// first), the padding after each run of the fastest dimension, in
	// elements, and the store and load vector widths.
	Rounds, Moves, Words     int
	ScratchBytes, ScratchPad int
	ScratchOrder             []int
	ScratchRow               []model.DigitRef // the digits a scratch row runs along, where not ScratchOrder's first dimension's lowest
	StoreVector, LoadVector  int
	to, from                 *model.Layout
	use                      model.Use
}

// From is the layout the conversion starts from: the value's own
// (Required is the one it makes).
func (c ConvPlan) From() *model.Layout { return c.from }

// Use is the use the conversion is on, in the graph the plan was built
// from: its consumer op and which operand (Consumer and Operand name
// them).
func (c ConvPlan) Use() model.Use { return c.use }

// SharedPlan is the shared memory the plan uses.
type SharedPlan struct {
	Buffers int // bytes of the graph's buffers
	Scratch int // the largest conversion scratch (conversions reuse it)
	Budget  int
	// Placed is each buffer's placement and how the ops access it.
	Placed []BufferPlan
}

// BufferPlan is one buffer's placement: where its elements lie, its
// footprint, and every access with its wavefronts.
type BufferPlan struct {
	Name      string `json:"name"`
	Shape     []int  `json:"shape"`
	DType     string `json:"dtype"`
	Placement string `json:"placement"` // "dense row major", "rows padded to 72 elements", "swizzle 128B"
	Layout    string `json:"layout"`
	Formula   string `json:"formula"`
	Bytes     int    `json:"bytes"`
	// Allocated is the shape the kernel allocates where it differs from
	// Shape, the tile the plan prices (model.Buffer.Allocated).
	Allocated []int        `json:"allocated,omitempty"`
	Accesses  []AccessPlan `json:"accesses"`
	shared    *model.SharedLayout
}

// AccessPlan is one op's access to a buffer, per subgroup.
type AccessPlan struct {
	Op           string `json:"op"`
	Access       string `json:"access"` // "write" or "read"
	Method       string `json:"method"`
	Instructions int    `json:"instructions"`
	Wavefronts   int    `json:"wavefronts"`
	Ideal        int    `json:"ideal"`
	Conflicts    int    `json:"conflicts"`
}

// Stats are the search's sizes, as the solver reports them.
type Stats struct {
	Candidates, Nodes, Edges, CoreNodes, Reduced, Variables, Clauses, Solves int
	// Branches counts the choices tried by branching on the core (0: the
	// SAT search alone decided it; left out of the JSON then).
	Branches int
}

// Build makes the plan of an assignment. notation picks how layouts are
// written ("" for the graph's own).
func Build(g *model.Graph, t *model.Target, a *model.Assignment, notationKind string) (*Plan, error) {
	if notationKind == "" {
		notationKind = g.Notation
	}
	p := &Plan{File: g.File, Target: t.Name, Subgroups: g.Subgroups, Provenance: g.Provenance, Notation: notationKind}
	memo := model.NewMemo() // the ops and conversions of a large graph repeat the same layouts
	p.Registers = registerPlan(g, t, a)
	p.Cost = p.Registers.SpillCost
	p.Shared.Budget = t.SharedMemory
	if g.HasBudget {
		p.Shared.Budget = g.SharedBudget
	}
	placed := map[*model.Buffer]*BufferPlan{}
	for _, b := range g.Buffers {
		s := a.Buffers[b]
		if s == nil {
			p.Shared.Buffers += b.Bytes()
			continue
		}
		p.Shared.Buffers += s.Bytes()
		p.Shared.Placed = append(p.Shared.Placed, BufferPlan{Name: b.Name, Shape: b.Shape, DType: b.DType.Name,
			Placement: s.Describe(), Layout: s.String(), Formula: s.Formula(), Bytes: s.Bytes(), Allocated: b.Allocated, Accesses: []AccessPlan{}, shared: s})
	}
	for i := range p.Shared.Placed {
		for _, b := range g.Buffers {
			if b.Name == p.Shared.Placed[i].Name {
				placed[b] = &p.Shared.Placed[i]
			}
		}
	}
	uses, tt := tritonUses(g, t, a)
	texts := newLayoutTexts(notationKind)
	p.Values = make([]ValuePlan, 0, len(g.Values))
	for _, v := range g.Values {
		l := a.Layouts[v]
		if l == nil {
			return nil, fmt.Errorf("the plan gives %s no layout", v.Name)
		}
		vp := ValuePlan{Name: v.Name, Shape: v.Shape, DType: v.DType.Name, Values: l.Size(model.Register), layout: l}
		vp.Notation, vp.Layout, vp.Note = texts.writeAs(l, uses[v])
		if l.InShared() {
			vp.Notation, vp.Layout, vp.Values, vp.Note = "shared", leftInSharedText(v), 0, ""
		}
		p.Values = append(p.Values, vp)
	}
	var err error
	// Conversions between the same two layouts of values of the same
	// width are the same conversion: analysed once.
	type convKey struct {
		from, to *model.Layout
		bits     int
	}
	type analysed struct {
		perTrip int64
		conv    *model.Conversion
	}
	convs := map[convKey]analysed{}
	p.Ops = make([]OpPlan, 0, g.OpCount())
	g.Walk(func(op *model.Op) {
		if err != nil {
			return
		}
		var res *model.Layout
		if op.Result != nil {
			res = a.Layouts[op.Result]
		}
		ch := a.Ops[op]
		cost, method, e := memo.OpCost(op, res, ch, t)
		if e != nil {
			var at []Where
			if op.Result != nil {
				at = append(at, atValue(op.Result))
			}
			err = &VerifyError{What: fmt.Sprintf("%s %s: %v", op.Kind, op.Name, e), At: append(at, atOp(op, "intrinsic"), atOp(op, "exec"), atOp(op, ""))}
			return
		}
		info := op.Info()
		opp := OpPlan{Name: op.Name, Kind: op.KindName(), Cost: cost, Method: method, Pos: op.Pos}
		if ch != nil {
			if ch.Record != nil {
				opp.Intrinsic, opp.record = ch.Record.Name, ch.Record
			}
			opp.Rejected = ch.Rejected
			if info.Flow == model.FlowRecord {
				opp.WarpsM, opp.WarpsN, opp.NFirst, opp.Outer = ch.WarpsM, ch.WarpsN, ch.NFirst, ch.Outer
				opp.Transposed, opp.KWidth, opp.KOrder, opp.WarpsB = ch.Transposed, ch.KWidth, ch.KOrder, ch.WarpsB
				opp.Considered = ch.Considered
				var notes []string
				if r := ch.Record; r != nil && r.Base != nil {
					opp.BlocksAlong = r.BlocksAlong
					notes = append(notes, blocksNote(r))
				}
				if ch.Record != nil && ch.Record.Kind == model.RecordMMA {
					_, m, _, n := model.MMADims(op)
					tm, tn := model.MMATile(ch)
					if copies := ch.WarpsM * ch.WarpsN / (min(ch.WarpsM, m/tm) * min(ch.WarpsN, n/tn)); copies > 1 {
						notes = append(notes, fmt.Sprintf("fewer tiles than warps: each tile held by %d warps", copies))
					}
				}
				notes = append(notes, variantNotes(ch)...)
				group := 1
				if ch.Record != nil {
					group = ch.Record.Subgroups
				}
				opp.Warps = model.GroupArrangement(ch.WarpsM, ch.WarpsN, group, ch.NFirst, ch.Outer, notes...)
			}
			if ch.Exec != nil {
				opp.exec = ch.Exec
				_, opp.Exec, _ = texts.writeAs(ch.Exec, tritonUse{role: notation.AnyRole, target: tt})
			}
			if info.Combines && ch.Exec != nil {
				r := model.DescribeReduction(ch.Exec, op.Axis)
				opp.Lanes, opp.Subgroups = r.Lanes, r.Subgroups
				opp.HeldLanes, opp.HeldSubgroups, opp.HeldFirst = texts.heldBy(res)
			}
		}
		for _, u := range Uses(op) {
			if req := a.Required[u]; req != nil {
				opp.reads = append(opp.reads, useLayout{u.Index, u.Yield, req})
			}
		}
		p.Ops = append(p.Ops, opp)
		p.Cost += cost
		if buf, acc, ok := descriptorRead(op, ch, t); ok && placed[buf] != nil {
			placed[buf].Accesses = append(placed[buf].Accesses, acc)
		}
		if bp := placed[op.Buffer]; bp != nil {
			if acc, ok := memo.OpAccess(op, res, ch, t); ok {
				kind := "read"
				if info.Writes {
					kind = "write"
				}
				bp.Accesses = append(bp.Accesses, AccessPlan{Op: op.Name, Access: kind, Method: method, Instructions: acc.Instructions,
					Wavefronts: acc.Wavefronts, Ideal: acc.Ideal, Conflicts: acc.Conflicts()})
			}
		}
		// The conversions on the op's uses.
		for _, u := range Uses(op) {
			v := model.UseValue(u)
			req := a.Required[u]
			if req == nil || req.InShared() {
				continue // nothing to convert: an mma's descriptor reads the value's buffer
			}
			k := convKey{a.Layouts[v], req, v.DType.Bits}
			an, ok := convs[k]
			if !ok {
				_, conv, e := memo.UseCost(v, a.Layouts[v], req, t)
				if e != nil {
					err = &VerifyError{Value: v.Name, What: fmt.Sprintf("%s reads it as %s: %v", op.Name, model.OperandName(u), e), At: []Where{atUse(u), atValue(v)}}
					return
				}
				an = analysed{model.ConversionCost(conv, t, a.Layouts[v].Size(model.Lane)), conv}
				convs[k] = an
			}
			c, conv := an.perTrip*model.ValueTrips(v), an.conv
			p.Cost += c
			if conv.Kind == model.ConvNone {
				continue
			}
			if conv.Kind == model.ConvShared {
				p.Shared.Scratch = max(p.Shared.Scratch, conv.ScratchBytes)
			}
			p.Conv = append(p.Conv, ConvPlan{
				Value: v.Name, Consumer: op.Name, Operand: model.OperandName(u), Kind: conv.Kind.String(),
				Detail: convDetail(conv), Cost: c, Because: because(u, a), Why: conv.Reason(),
				Free: c == 0 && conv.Kind == model.ConvRegister && conv.Moves == 0, Pos: op.Pos,
				Rounds: conv.Rounds, Moves: conv.Moves, Words: conv.Words, ScratchBytes: conv.ScratchBytes, ScratchPad: conv.ScratchPad,
				ScratchOrder: conv.ScratchOrder, ScratchRow: conv.ScratchRow, StoreVector: conv.StoreVector, LoadVector: conv.LoadVector, to: req, from: a.Layouts[v], use: u,
			})
		}
	})
	if err != nil {
		return nil, err
	}
	answerLoops(g, p)
	return p, nil
}

// Uses lists an op's uses in plan order: its operands, and for a loop
// each carried value's init and yield.
func Uses(op *model.Op) []model.Use { return model.OpUses(op) }

// UseValue is the value a use takes.
func UseValue(u model.Use) *model.Value { return model.UseValue(u) }

// OperandName names a use as plans do ("a", "operand 1", "init of acc").
func OperandName(u model.Use) string { return model.OperandName(u) }

// because says why the consumer needs the layout it does.
func because(u model.Use, a *model.Assignment) string {
	if b := u.Op.Info().Because; b != nil {
		return b(u, a)
	}
	return ""
}

func convDetail(c *model.Conversion) string {
	switch c.Kind {
	case model.ConvRegister:
		return fmt.Sprintf("%d of %d words assembled per lane", c.Moves, c.Words)
	case model.ConvShuffle:
		return fmt.Sprintf("%d shuffle rounds, %d words assembled per lane", c.Rounds, c.Moves)
	case model.ConvShared:
		side := func(n, vector int, record, what string) string {
			if record != "" {
				return fmt.Sprintf("%d %s %s", n, record, plural(n, what)[len(fmt.Sprint(n))+1:])
			}
			return plural(n, what) + " of " + plural(vector, "element")
		}
		s := fmt.Sprintf("%d scratch bytes; %s and %s per lane", c.ScratchBytes,
			side(c.Stores, c.StoreVector, c.StoreRecord, "store"), side(c.Loads, c.LoadVector, c.LoadRecord, "load"))
		if c.Moves > 0 {
			s += fmt.Sprintf(", %s", plural(c.Moves, "byte permute"))
		}
		if c.CrossesBlocks {
			s += "; across blocks"
		}
		return s
	}
	return ""
}

// write expresses a layout in the notation, falling back to linear, cute
// and table when the notation cannot write it.
func write(l *model.Layout, notation string) (kind, text, note string) {
	return writeAs(l, notation, anyUse)
}

// anyUse is the use write assumes: any role, any vendor, under warpgroup
// mma.
var anyUse = tritonUse{role: notation.AnyRole, target: notation.TritonTarget{WarpgroupMMA: true}}

// tritonUse is what the Triton notation needs to know of a value beyond
// its layout to name its encoding as Triton would: whether an mma reads it
// as A or B or makes it (its role), and the target's vendor and whether
// the plan runs warpgroup mma (notation.TritonTarget).
type tritonUse struct {
	role   notation.TritonRole
	target notation.TritonTarget
}

// layoutTexts writes the layouts of one plan, each distinct layout (and
// use) once: a large graph gives many values the same few layouts, and
// its plan then holds one copy of each text rather than one per value.
type layoutTexts struct {
	notation string
	written  map[writtenKey][3]string
	held     map[*model.Layout]heldAnswer
}

type writtenKey struct {
	l   *model.Layout
	use tritonUse
}

type heldAnswer struct {
	lanes, subgroups int
	first            []int
}

func newLayoutTexts(notation string) *layoutTexts {
	return &layoutTexts{notation: notation, written: map[writtenKey][3]string{}, held: map[*model.Layout]heldAnswer{}}
}

// writeAs is writeAs in the plan's notation, once per layout and use.
func (t *layoutTexts) writeAs(l *model.Layout, use tritonUse) (kind, text, note string) {
	k := writtenKey{l, use}
	w, ok := t.written[k]
	if !ok {
		w[0], w[1], w[2] = writeAs(l, t.notation, use)
		t.written[k] = w
	}
	return w[0], w[1], w[2]
}

// heldBy is heldBy once per layout; the plans that share a layout share
// its list of lanes, which nothing writes to.
func (t *layoutTexts) heldBy(l *model.Layout) (lanes, subgroups int, first []int) {
	h, ok := t.held[l]
	if !ok {
		h.lanes, h.subgroups, h.first = heldBy(l)
		t.held[l] = h
	}
	return h.lanes, h.subgroups, h.first
}

// writeAs is write for a value used as use says.
func writeAs(l *model.Layout, notationKind string, use tritonUse) (kind, text, note string) {
	if l.Opaque() != "" {
		return "fragment", OpaqueText(l), ""
	}
	for _, k := range []string{notationKind, "linear", "cute", "table"} {
		var n model.Notation
		var err error
		if k == "triton" {
			n, err = expressTriton(l, use)
		} else {
			n, err = notation.Express(k, l)
		}
		if err != nil {
			if k == notationKind {
				note = err.Error()
			}
			continue
		}
		text = n.Attr()
		if k == "table" {
			text = strings.ReplaceAll(strings.TrimSpace(text), "\n", "; ")
		}
		return k, text, note
	}
	return "", "", note
}

// expressTriton writes a value's layout as Triton would name it: by its
// role where an mma reads or makes it; else as an accumulator (or a slice
// of one) where one gives the layout, since a value no mma reads as A or
// B but laid out as an accumulator is an accumulator's neighbour
// (scaled, reduced, carried through a loop); else by the best fit.
func expressTriton(l *model.Layout, use tritonUse) (*notation.Triton, error) {
	if use.role == notation.AnyRole {
		if t, err := notation.ExpressTritonFor(l, notation.Accumulator, use.target); err == nil {
			switch t.Enc.(type) {
			case *notation.TritonBlocked, *notation.Linear:
			default:
				return t, nil
			}
		}
	}
	return notation.ExpressTritonFor(l, use.role, use.target)
}

// tritonUses gives each value of the plan its tritonUse: the role of the
// mma records that read or make it (A, B, or accumulator for c and d; no
// role where they disagree or none does), and the target t with whether
// any op of the plan runs a warpgroup mma (a record of more than one
// subgroup), which it also returns for values of no role.
func tritonUses(g *model.Graph, t *model.Target, a *model.Assignment) (map[*model.Value]tritonUse, notation.TritonTarget) {
	warpgroup := false
	roles := map[*model.Value]notation.TritonRole{}
	mixed := map[*model.Value]bool{}
	set := func(v *model.Value, r notation.TritonRole) {
		if old, ok := roles[v]; ok && old != r {
			mixed[v] = true
		}
		roles[v] = r
	}
	g.Walk(func(op *model.Op) {
		ch := a.Ops[op]
		if ch == nil || ch.Record == nil || ch.Record.Kind != model.RecordMMA {
			return
		}
		warpgroup = warpgroup || ch.Record.Subgroups > 1
		for i, v := range op.Operands {
			switch i {
			case 0:
				set(v, notation.OperandA)
			case 1:
				set(v, notation.OperandB)
			default:
				set(v, notation.Accumulator)
			}
		}
		if op.Result != nil {
			set(op.Result, notation.Accumulator)
		}
	})
	tt := notation.TritonTargetOf(t, warpgroup)
	out := map[*model.Value]tritonUse{}
	for _, v := range g.Values {
		u := tritonUse{role: roles[v], target: tt}
		if mixed[v] {
			u.role = notation.AnyRole
		}
		out[v] = u
	}
	return out, tt
}

// OpaqueText describes a layout whose lanes and registers are unspecified
// within each fragment: its family, and which subgroup and register
// repeat hold which tile, in linear notation over the grid of tiles.
func OpaqueText(l *model.Layout) string {
	s := l.Opaque() + " fragments (lanes and registers unspecified)"
	if t := l.Tiles(); t != nil {
		if n, err := notation.Express("linear", t); err == nil {
			s += fmt.Sprintf(", tiles %v: %s", t.Shape(), n.Attr())
		}
	}
	return s
}

// blocksNote says how the blocks of a multi-block mma lie over the tile
// (model.Record.BlockViews) and which operand every block holds.
func blocksNote(r *model.Record) string {
	held := "A"
	if r.BlocksAlong == model.BlocksAlongM {
		held = "B"
	}
	return fmt.Sprintf("%s, each holding all of %s", r.Blocking(), held)
}
