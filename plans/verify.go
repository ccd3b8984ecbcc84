package plans

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
)

// VerifyError is the first place where a plan does not replay: the
// value, the element and the hardware point involved, and what is wrong.
type VerifyError struct {
	Value   string
	Element []int
	Point   *model.HwPoint
	What    string
}

func (e *VerifyError) Error() string {
	s := "plan does not verify: "
	if e.Value != "" {
		s += "%" + e.Value
	}
	if e.Element != nil {
		s += fmt.Sprintf(" element %v", e.Element)
	}
	if e.Point != nil {
		s += fmt.Sprintf(" (subgroup %d, lane %d, register %d)", e.Point.Subgroup, e.Point.Lane, e.Point.Value)
	}
	if e.Value == "" && e.Element == nil && e.Point == nil {
		return s + e.What
	}
	return s + ": " + e.What
}

// Verify replays a plan element by element, sharing no code with the
// solver's encoding: every value's layout holds every element of its
// tensor; every use gets the elements its consumer needs in the lanes it
// needs them, through the mechanism the plan claims (registers of the
// same lane, other lanes of the same subgroup, or shared memory), walked
// over every hardware point rather than analysed; every mma operand and
// every fragment a load record makes puts each element in the lane the
// record's fragment table names; every load record's memory rule accepts
// its buffer's placement; and the plan's total is the sum of its parts.
func Verify(g *model.Graph, a *model.Assignment, p *Plan) error {
	ts := newTables()
	for _, v := range g.Values {
		if l := a.Layouts[v]; l != nil && l.InShared() {
			continue // left in its buffer: checked with the mma that reads it
		}
		if err := holdsAll(v, a.Layouts[v], ts); err != nil {
			return err
		}
	}
	if err := sameHardware(g, a); err != nil {
		return err
	}
	claimed := map[[3]string]*ConvPlan{}
	for i, c := range p.Conv {
		claimed[[3]string{c.Value, c.Consumer, c.Operand}] = &p.Conv[i]
	}
	var err error
	g.Walk(func(op *model.Op) {
		if err != nil {
			return
		}
		for _, u := range Uses(op) {
			req := a.Required[u]
			if req == nil {
				continue
			}
			v := model.UseValue(u)
			if handled, e := checkSharedUse(v, u, a.Layouts[v], req, a); handled {
				if err = e; err == nil {
					if _, ok := claimed[[3]string{v.Name, op.Name, model.OperandName(u)}]; ok {
						err = &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan converts it into %s, but it is left in shared memory", op.Name)}
					}
				}
				if err != nil {
					return
				}
				continue
			}
			from, to := ts.of(a.Layouts[v]), ts.of(req)
			key := "use " + from.l.Key() + "|" + to.l.Key()
			kind, known := ts.kinds[key]
			var e error
			if !known {
				if kind, e = replayUse(v, from, to); e == nil {
					ts.kinds[key] = kind
				}
			}
			if e != nil {
				err = e
				return
			}
			c, ok := claimed[[3]string{v.Name, op.Name, model.OperandName(u)}]
			switch {
			case !ok && kind != "none":
				err = &VerifyError{Value: v.Name, What: fmt.Sprintf("%s needs it in another layout (%s), and the plan makes no conversion", op.Name, kind)}
			case ok && c.Kind != kind:
				err = &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan converts it into %s by %s, but the elements move by %s", op.Name, c.Kind, kind)}
			case ok && kind == "shuffle":
				err = ts.once(fmt.Sprintf("shuffle %s|%s|%d|%d", from.l.Key(), to.l.Key(), v.DType.Bits, c.Rounds), func() error {
					return replayShuffle(v, from, to, c.Rounds)
				})
			case ok && kind == "shared":
				err = ts.once(fmt.Sprintf("shared %s|%s|%d|%d %d %d %v %d %d", from.l.Key(), to.l.Key(), v.DType.Bits,
					c.ScratchBytes, c.ScratchPad, c.Words, c.ScratchOrder, c.StoreVector, c.LoadVector), func() error {
					return replayShared(v, from, to, c)
				})
			}
			if err != nil {
				return
			}
		}
		ch := a.Ops[op]
		if op.Layout != nil && (ch == nil || ch.Exec == nil || op.Layout.Layout == nil || !ch.Exec.Equal(op.Layout.Layout)) {
			// The graph states the layout this store or copy runs in.
			err = &VerifyError{Value: op.Operands[0].Name, What: fmt.Sprintf("%s %s does not run in the layout the graph states for it at %s", op.Kind, op.Name, op.Layout.Pos)}
			return
		}
		if ch == nil || ch.Record == nil {
			return
		}
		switch info := op.Info(); {
		case info.Flow == model.FlowRecord && (ch.Record.Kind == model.RecordFMA || ch.Transposed || ch.KWidth > 0):
			err = verifyVariant(op, a, ch, ts)
		case info.Flow == model.FlowRecord:
			for i := range info.Roles {
				if err = inFragment(op.Operands[i].Name, a.Required[model.Use{Op: op, Index: i}], ch.Record, model.RoleName(op, i), ts); err != nil {
					return
				}
			}
			if err = inFragment(op.Result.Name, a.Layouts[op.Result], ch.Record, "d", ts); err == nil {
				err = checkDescriptor(op, ch, a)
			}
		case op.ReadsShared():
			if err = inFragment(op.Result.Name, a.Layouts[op.Result], ch.Record, "", ts); err != nil {
				return
			}
			if ch.Buffer != nil {
				tile := [2]int{1, 1}
				if f := ch.Record.Fragment; f != nil && len(f.Shape) == 2 {
					tile = [2]int{f.Shape[0], f.Shape[1]}
				}
				if e := ch.Record.Memory.Admits(ch.Buffer, tile); e != nil {
					err = &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("%s cannot read buffer %s as placed (%s): %v", ch.Record.Name, op.Buffer.Name, ch.Buffer, e)}
				}
			}
		}
	})
	if err != nil {
		return err
	}
	var total int64
	for _, o := range p.Ops {
		total += o.Cost
	}
	for _, c := range p.Conv {
		total += c.Cost
	}
	if total != p.Cost {
		return &VerifyError{What: fmt.Sprintf("the ops and conversions cost %d, the plan says %d", total, p.Cost)}
	}
	return nil
}

// sameHardware checks that every layout of the assignment spreads over
// the same lanes and blocks, and over the graph's subgroups.
func sameHardware(g *model.Graph, a *model.Assignment) error {
	var ref *model.Layout
	check := func(what string, l *model.Layout) error {
		if l == nil || l.InShared() {
			return nil
		}
		if ref == nil {
			ref = l
		}
		got := [3]int{l.Size(model.Lane), l.Size(model.Subgroup), l.Size(model.Block)}
		want := [3]int{ref.Size(model.Lane), g.Subgroups, ref.Size(model.Block)}
		if got != want {
			return &VerifyError{Value: what, What: fmt.Sprintf("its layout spreads over %d lanes, %d subgroups and %d blocks; the plan's other layouts over %d, %d and %d", got[0], got[1], got[2], want[0], want[1], want[2])}
		}
		return nil
	}
	var err error
	for _, v := range g.Values {
		if err == nil {
			err = check(v.Name, a.Layouts[v])
		}
	}
	g.Walk(func(op *model.Op) {
		for _, u := range Uses(op) {
			if err == nil {
				err = check(model.UseValue(u).Name, a.Required[u])
			}
		}
		if ch := a.Ops[op]; ch != nil && err == nil {
			err = check(op.Name, ch.Exec)
		}
	})
	return err
}

// holdsAll checks that layout l holds every element of v.
func holdsAll(v *model.Value, l *model.Layout, ts *tables) error {
	if l == nil {
		return &VerifyError{Value: v.Name, What: "the plan gives it no layout"}
	}
	if !slices.Equal(l.Shape(), v.Shape) {
		return &VerifyError{Value: v.Name, What: fmt.Sprintf("its layout is over %v, the value is %v", l.Shape(), v.Shape)}
	}
	held := make([]bool, v.Elements())
	for _, e := range ts.of(l).elems {
		held[e] = true
	}
	for e, ok := range held {
		if !ok {
			return &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), What: "no lane holds it"}
		}
	}
	return nil
}

// replayUse walks every point of the layout a use requires and finds
// where the value's layout holds that element: in the same lane ("none"
// when every point holds the very same element, "register" otherwise),
// in another lane of the same subgroup ("shuffle"), or only in another
// subgroup or block ("shared").
func replayUse(v *model.Value, from, to *points) (string, error) {
	level, same := 0, from.regs == to.regs
	for j, e := range to.elems {
		hs := from.holders(e)
		if len(hs) == 0 {
			pt := to.point(j)
			return "", &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: &pt, What: "needed here, but its layout holds it nowhere"}
		}
		best := 2
		for _, h := range hs {
			switch {
			case from.lane(h) == to.lane(j):
				best = 0
			case from.subgroup(h) == to.subgroup(j):
				best = min(best, 1)
			}
		}
		level = max(level, best)
		same = same && from.elems[j] == e
	}
	if same && level == 0 {
		return "none", nil
	}
	return []string{"register", "shuffle", "shared"}[level], nil
}

// inFragment checks that every element of layout l sits in the lane the
// record's fragment of operand slot ("" for a load's fragment) gives its
// position within the record's tile.
func inFragment(value string, l *model.Layout, r *model.Record, slot string, ts *tables) error {
	if l == nil {
		return nil
	}
	return inFragmentAs(value, l, r, slot, fragView{}, ts)
}

// fragView says how a dot's operand meets the record's operand slot: its
// coordinates reversed (a transposed accumulator's run of the record on
// Bᵀ and Aᵀ) and its K positions interleaved (a kWidth above the
// record's own).
type fragView struct {
	transposed bool
	kWidth     int
}

// inFragmentAs is inFragment for an operand held as view says.
func inFragmentAs(value string, l *model.Layout, r *model.Record, slot string, view fragView, ts *tables) error {
	if l == nil {
		return nil
	}
	return ts.once(fmt.Sprintf("fragment %s|%s|%s|%v", l.Key(), r.Name, slot, view), func() error {
		return inFragmentOnce(value, l, r, slot, view, ts)
	})
}

func inFragmentOnce(value string, l *model.Layout, r *model.Record, slot string, view fragView, ts *tables) error {
	frag := r.Fragment
	if slot != "" {
		frag = r.Operands[slot]
	}
	if frag == nil || frag.Layout == nil || l == nil {
		return nil
	}
	tile := frag.Layout.Shape()
	if len(tile) != l.Rank() {
		if r.Blocks > 1 {
			return &VerifyError{Value: value, What: fmt.Sprintf("%s is a multi-block mma, which runs a %d-dimensional value only with its blocks along M or N", r.Name, l.Rank())}
		}
		return nil
	}
	ft := ts.of(frag.Layout)
	lanes := make([][]int, frag.Layout.Elements())
	for i, e := range ft.elems {
		if ln := ft.point(i).Lane; !slices.Contains(lanes[e], ln) {
			lanes[e] = append(lanes[e], ln)
		}
	}
	// A load's fragment may cover one group of lanes; every group holds
	// its own copy of the tile (its addresses say where it reads).
	group := frag.Layout.Size(model.Lane)
	lt := ts.of(l)
	shape := l.Shape()
	name := r.Name + " fragment"
	if slot != "" {
		name = fmt.Sprintf("%s operand %s", r.Name, slot)
	}
	if view.transposed {
		name += " (run on Bᵀ and Aᵀ)"
	}
	if view.kWidth > 0 && (slot == "a" || slot == "b") {
		name += fmt.Sprintf(" at kWidth %d", view.kWidth)
	}
	idx, in, at := make([]int, len(shape)), make([]int, len(shape)), make([]int, len(shape))
	kd := map[string]int{"a": 1, "b": 0}[slot] // K's dimension in the record's slot
	own := r.OwnKWidth()
	for i, e := range lt.elems {
		coords(e, shape, idx)
		copy(at, idx)
		if view.transposed {
			slices.Reverse(at)
		}
		for d := range at {
			in[d] = at[d] % tile[d]
		}
		if (slot == "a" || slot == "b") && view.kWidth > 0 {
			in[kd] = model.InterleavedK(at[kd], tile[kd], own, view.kWidth)
		}
		p := lt.point(i)
		want := lanes[model.LinearIndex(in, tile)]
		if !slices.Contains(want, p.Lane%group) {
			want = slices.Sorted(slices.Values(want))
			what := fmt.Sprintf("the %s puts tile position %v in lane %s, not lane %d", name, in, laneList(want), p.Lane)
			if group < l.Size(model.Lane) {
				what = fmt.Sprintf("the %s puts tile position %v in lane %s of a group of %d lanes, not lane %d of its group", name, in, laneList(want), group, p.Lane%group)
			}
			return &VerifyError{Value: value, Element: slices.Clone(idx), Point: &p, What: what}
		}
		// Where the record holds a position in several lanes (a
		// duplicated operand: RDNA3 WMMA's A and B, a multi-block mma's
		// shared operand), every one of them must hold the element (in
		// the lane group of p, where the fragment covers one group).
		base := p.Lane - p.Lane%group
		for _, w := range want {
			if w+base != p.Lane && !holdsIn(lt, e, p, w+base) {
				return &VerifyError{Value: value, Element: slices.Clone(idx),
					What: fmt.Sprintf("the %s holds tile position %v in every one of lanes %v, and lane %d of subgroup %d lacks it", name, in, slices.Sorted(slices.Values(want)), w+base, p.Subgroup)}
			}
		}
	}
	return nil
}

// holdsIn reports whether lane lane of the subgroup (and block) of point
// p holds element e in layout table t.
func holdsIn(t *points, e int, p model.HwPoint, lane int) bool {
	for _, h := range t.holders(e) {
		q := t.point(h)
		if q.Lane == lane && q.Subgroup == p.Subgroup && q.Block == p.Block {
			return true
		}
	}
	return false
}

// laneList writes lanes as "5" or "5 or 21".
func laneList(lanes []int) string {
	parts := make([]string, len(lanes))
	for i, l := range lanes {
		parts[i] = fmt.Sprint(l)
	}
	return strings.Join(parts, " or ")
}

func unlinear(e int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = e % shape[d]
		e /= shape[d]
	}
	return idx
}

// SameCosts compares the claims of a plan read back (p) with the plan the
// model builds again from the same choices (q): the total, every op's
// cost, every conversion's mechanism, cost and counts, the shared memory
// used, and every buffer access's wavefronts and conflicts. It reports
// the first claim that differs.
func SameCosts(p, q *Plan) error {
	diff := func(what string, claimed, model any) error {
		return &VerifyError{What: fmt.Sprintf("%s: the plan says %v, the model gives %v", what, claimed, model)}
	}
	opCost := map[string]int64{}
	for _, o := range q.Ops {
		opCost[o.Name] = o.Cost
	}
	for _, o := range p.Ops {
		if c, ok := opCost[o.Name]; ok && c != o.Cost {
			return diff("the cost of op "+o.Name, o.Cost, c)
		}
	}
	convs := map[[3]string]ConvPlan{}
	for _, c := range q.Conv {
		convs[[3]string{c.Value, c.Consumer, c.Operand}] = c
	}
	for _, c := range p.Conv {
		m, ok := convs[[3]string{c.Value, c.Consumer, c.Operand}]
		if !ok {
			return &VerifyError{Value: c.Value, What: fmt.Sprintf("the plan converts it into %s (%s), the model needs no conversion", c.Consumer, c.Operand)}
		}
		name := fmt.Sprintf("the conversion of %%%s into %s (%s)", c.Value, c.Consumer, c.Operand)
		claims := [][3]any{{"kind", c.Kind, m.Kind}, {"cost", c.Cost, m.Cost}, {"words", c.Words, m.Words}, {"moves", c.Moves, m.Moves},
			{"rounds", c.Rounds, m.Rounds}, {"scratch bytes", c.ScratchBytes, m.ScratchBytes}, {"scratch padding", c.ScratchPad, m.ScratchPad},
			{"scratch order", fmt.Sprint(c.ScratchOrder), fmt.Sprint(m.ScratchOrder)}, {"store vector", c.StoreVector, m.StoreVector},
			{"load vector", c.LoadVector, m.LoadVector}}
		for _, k := range claims {
			if k[1] != k[2] {
				return diff(name+", "+k[0].(string), k[1], k[2])
			}
		}
		delete(convs, [3]string{c.Value, c.Consumer, c.Operand})
	}
	for _, c := range q.Conv {
		if _, left := convs[[3]string{c.Value, c.Consumer, c.Operand}]; left {
			return &VerifyError{Value: c.Value, What: fmt.Sprintf("%s needs it converted (%s, cost %d), and the plan makes no conversion", c.Consumer, c.Kind, c.Cost)}
		}
	}
	if p.Shared.Buffers != q.Shared.Buffers || p.Shared.Scratch != q.Shared.Scratch {
		return diff("shared memory (buffers, scratch)", [2]int{p.Shared.Buffers, p.Shared.Scratch}, [2]int{q.Shared.Buffers, q.Shared.Scratch})
	}
	// Every buffer and every access the model places, each once, with
	// its bytes and counts.
	buffers := map[string]BufferPlan{}
	access := map[string]AccessPlan{}
	for _, b := range q.Shared.Placed {
		buffers[b.Name] = b
		for _, a := range b.Accesses {
			access[b.Name+" "+a.Access+" "+a.Op] = a
		}
	}
	for _, b := range p.Shared.Placed {
		m, ok := buffers[b.Name]
		if !ok {
			return &VerifyError{What: fmt.Sprintf("the plan places buffer %s, which the model does not place", b.Name)}
		}
		delete(buffers, b.Name)
		if b.Bytes != m.Bytes {
			return diff("the bytes of buffer "+b.Name, b.Bytes, m.Bytes)
		}
		for _, a := range b.Accesses {
			k := b.Name + " " + a.Access + " " + a.Op
			m, ok := access[k]
			if !ok {
				return &VerifyError{What: fmt.Sprintf("the plan lists a %s of buffer %s by %s, which the model does not make, or lists it twice", a.Access, b.Name, a.Op)}
			}
			delete(access, k)
			if a.Wavefronts != m.Wavefronts || a.Ideal != m.Ideal || a.Conflicts != m.Conflicts {
				return diff(fmt.Sprintf("the %s of buffer %s by %s (wavefronts, ideal, conflicts)", a.Access, b.Name, a.Op),
					[3]int{a.Wavefronts, a.Ideal, a.Conflicts}, [3]int{m.Wavefronts, m.Ideal, m.Conflicts})
			}
		}
	}
	for _, b := range q.Shared.Placed {
		if _, left := buffers[b.Name]; left {
			return &VerifyError{What: fmt.Sprintf("the plan gives buffer %s no placement", b.Name)}
		}
		for _, a := range b.Accesses {
			if _, left := access[b.Name+" "+a.Access+" "+a.Op]; left {
				return &VerifyError{What: fmt.Sprintf("the plan leaves out the %s of buffer %s by %s", a.Access, b.Name, a.Op)}
			}
		}
	}
	if p.Cost != q.Cost {
		return diff("the total cost", p.Cost, q.Cost)
	}
	return nil
}
