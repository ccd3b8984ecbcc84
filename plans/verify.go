package plans

import (
	"fmt"
	"slices"
	"strings"

	"planner/model"
)

// VerifyError is the first place where a plan does not replay: the
// value, the element and the hardware point involved, and what is wrong.
// At names the parts of the plan the problem involves, the first the
// likeliest wrong, for a plan file to point at their keys.
type VerifyError struct {
	Value   string
	Element []int
	Point   *model.HwPoint
	What    string
	At      []Where
}

// Where names one part of a plan: the layout of a value, the layout a
// use requires (Use: the value, the consumer and the operand, as a
// conversion names them), a key of an op's choice ("" for the op as a
// whole), or a buffer's placement.
type Where struct {
	Value   string
	Use     [3]string
	Op, Key string
	Buffer  string
}

func atValue(v *model.Value) Where { return Where{Value: v.Name} }
func atUse(u model.Use) Where {
	return Where{Use: [3]string{model.UseValue(u).Name, u.Op.Name, model.OperandName(u)}}
}
func atOp(op *model.Op, key string) Where { return Where{Op: op.Name, Key: key} }

// at names the parts of the plan err involves, unless it names some.
func at(err error, w ...Where) error {
	if ve, ok := err.(*VerifyError); ok && len(ve.At) == 0 {
		ve.At = w
	}
	return err
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
// solver's encoding: the choices hold (VerifyChoices), every use gets
// the elements its consumer needs in the lanes it needs them, through
// the mechanism the plan claims (registers of the same lane, other lanes
// of the same subgroup, or shared memory), walked over every hardware
// point rather than analysed, and the plan's total is the sum of its
// parts.
//
// The two replays share nothing they write and run at once, on two
// goroutines; the choices' error, where both find one, is the one
// returned.
func Verify(g *model.Graph, a *model.Assignment, p *Plan) error {
	pts := newPointCache()
	choices := make(chan error, 1)
	go func() { choices <- verifyChoices(g, a, pts) }()
	mechanisms := verifyMechanisms(g, a, p, pts)
	if err := <-choices; err != nil {
		return err
	}
	return mechanisms
}

// VerifyChoices replays the choices of an assignment, whatever a plan
// claims of them: every value's layout holds every element of its
// tensor; all layouts spread over the same hardware; every op reads and
// makes its layouts as its kind ties them (an element-wise op's operands
// in its result's layout, a reduction's operand in the layout it runs
// in, a loop's carried values in one layout); every mma operand and
// every fragment a load record makes puts each element in the lane the
// record's fragment table names, and in the subgroup the mma's
// arrangement of warps gives it; every load record's memory rule accepts
// its buffer's placement.
func VerifyChoices(g *model.Graph, a *model.Assignment) error {
	return verifyChoices(g, a, newPointCache())
}

func verifyChoices(g *model.Graph, a *model.Assignment, pts *pointCache) error {
	ts := newTables(pts)
	for _, v := range g.Values {
		if l := a.Layouts[v]; l != nil && l.InShared() {
			continue // left in its buffer: checked with the mma that reads it
		}
		if err := holdsAll(v, a.Layouts[v], ts); err != nil {
			return at(err, atValue(v))
		}
	}
	if err := sameHardware(g, a); err != nil {
		return err
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
			if _, e := checkSharedUse(v, u, a.Layouts[v], req, a); e != nil {
				err = at(e, atUse(u), atValue(v), atOp(op, "intrinsic"))
				return
			}
		}
		ch := a.Ops[op]
		if op.Layout != nil && (ch == nil || ch.Exec == nil || op.Layout.Layout == nil || !ch.Exec.Equal(op.Layout.Layout)) {
			// The graph states the layout this store or copy runs in.
			err = &VerifyError{Value: op.Operands[0].Name, What: fmt.Sprintf("%s %s does not run in the layout the graph states for it at %s", op.Kind, op.Name, op.Layout.Pos),
				At: []Where{atOp(op, "exec")}}
			return
		}
		if err = ties(op, a, ts); err != nil {
			return
		}
		if ch == nil || ch.Record == nil {
			return
		}
		if err = kOrdersAgree(op, ch, a); err != nil {
			return
		}
		switch info := op.Info(); {
		case info.Flow == model.FlowRecord && (ch.Record.Kind == model.RecordFMA || ch.Transposed || ch.KWidth > 0 || ch.KOrder != nil):
			if err = verifyVariant(op, a, ch, ts); err != nil {
				err = at(err, variantWhere(op, err)...)
				return
			}
			if ch.Record.Kind != model.RecordFMA {
				if err = arrangement(g, op, ch, a, ts); err == nil {
					err = tiledOperands(op, ch, a)
				}
			}
		case info.Flow == model.FlowRecord:
			for i := range info.Roles {
				u := model.Use{Op: op, Index: i}
				if err = inFragment(op.Operands[i].Name, a.Required[u], ch.Record, model.RoleName(op, i), ts); err != nil {
					err = at(err, atUse(u), atOp(op, "intrinsic"), atOp(op, "blocks_along"), atOp(op, "transposed"), atOp(op, "k_width"))
					return
				}
			}
			if err = inFragment(op.Result.Name, a.Layouts[op.Result], ch.Record, "d", ts); err != nil {
				err = at(err, atValue(op.Result), atOp(op, "intrinsic"), atOp(op, "blocks_along"), atOp(op, "transposed"), atOp(op, "k_width"))
				return
			}
			if err = checkDescriptor(op, ch, a); err != nil {
				where := []Where{atOp(op, "intrinsic")}
				if _, buf := model.DescriptorOperand(op, ch.Record); buf != nil {
					where = append(where, Where{Buffer: buf.Name})
				}
				err = at(err, where...)
				return
			}
			if err = arrangement(g, op, ch, a, ts); err == nil {
				err = tiledOperands(op, ch, a)
			}
		case info.Records == model.RecordLoadGlobal || info.Records == model.RecordStoreGlobal:
			// A global block record: its messages must move the layout on
			// the surface the op accesses.
			v, l := op.Result, a.Layouts[op.Result]
			if v == nil {
				v, l = op.Operands[0], ch.Exec
			}
			if _, e := model.BlockMessages(op, l, ch.Record, v.DType.Bits); e != nil {
				at := []Where{atOp(op, "intrinsic")}
				if op.Result != nil {
					at = append([]Where{atValue(op.Result)}, at...)
				}
				err = &VerifyError{Value: v.Name, What: fmt.Sprintf("%s cannot move %%%s: %v", ch.Record.Name, v.Name, e), At: at}
			}
		case op.ReadsShared():
			if err = inFragment(op.Result.Name, a.Layouts[op.Result], ch.Record, "", ts); err != nil {
				err = at(err, atValue(op.Result), atOp(op, "intrinsic"))
				return
			}
			if ch.Buffer != nil {
				tile := [2]int{1, 1}
				if f := ch.Record.Fragment; f != nil && len(f.Shape) == 2 {
					tile = [2]int{f.Shape[0], f.Shape[1]}
				}
				if e := ch.Record.Memory.Admits(ch.Buffer, tile); e != nil {
					err = &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("%s cannot read buffer %s as placed (%s): %v", ch.Record.Name, op.Buffer.Name, ch.Buffer, e),
						At: []Where{atOp(op, "intrinsic"), {Buffer: op.Buffer.Name}}}
				}
			}
		}
	})
	return err
}

// variantWhere names the parts of the plan an error of verifyVariant on
// mma op involves: the operand's use or the result the error names
// first, then the op's intrinsic and variant keys.
func variantWhere(op *model.Op, err error) []Where {
	var w []Where
	if ve, ok := err.(*VerifyError); ok {
		for i, v := range op.Operands {
			if v.Name == ve.Value {
				w = append(w, atUse(model.Use{Op: op, Index: i}))
				break
			}
		}
		if len(w) == 0 && op.Result != nil && op.Result.Name == ve.Value {
			w = append(w, atValue(op.Result))
		}
	}
	return append(w, atOp(op, "intrinsic"), atOp(op, "transposed"), atOp(op, "k_width"))
}

// VerifyMechanisms replays what a plan claims of its choices: every use
// the plan converts, and none other, needs a conversion; each by the
// mechanism the plan names, replayed with the plan's own counts (shuffle
// rounds; scratch layout, padding and vectors); and the total is the sum
// of the ops' and conversions' costs. The choices are VerifyChoices's.
func VerifyMechanisms(g *model.Graph, a *model.Assignment, p *Plan) error {
	return verifyMechanisms(g, a, p, newPointCache())
}

func verifyMechanisms(g *model.Graph, a *model.Assignment, p *Plan, pts *pointCache) error {
	ts := newTables(pts)
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
			c, ok := claimed[[3]string{v.Name, op.Name, model.OperandName(u)}]
			where := atUse(u)
			if handled, e := checkSharedUse(v, u, a.Layouts[v], req, a); handled {
				if err = e; err == nil && ok {
					err = &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan converts it into %s, but it is left in shared memory", op.Name)}
				}
				if err != nil {
					err = at(err, where)
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
				err = at(e, where, atValue(v))
				return
			}
			if ok && c.Kind == "shared" && kind == "shuffle" {
				// A movement within a subgroup that the target's compiler
				// lowers through shared memory (model.LowerShuffles): the
				// round trip carries it, as it carries any within a block.
				kind = "shared"
			}
			switch {
			case !ok && kind != "none":
				err = &VerifyError{Value: v.Name, What: fmt.Sprintf("%s needs it in another layout (%s), and the plan makes no conversion", op.Name, kind)}
			case ok && c.Kind != kind:
				err = &VerifyError{Value: v.Name, What: fmt.Sprintf("the plan converts it into %s by %s, but the elements move by %s", op.Name, c.Kind, kind)}
				where.Key = "kind"
			case ok && kind == "shuffle":
				err = ts.once(fmt.Sprintf("shuffle %s|%s|%d|%d", from.l.Key(), to.l.Key(), v.DType.Bits, c.Rounds), func() error {
					return replayShuffle(v, from, to, c.Rounds)
				})
				where.Key = "rounds"
			case ok && kind == "shared":
				err = ts.once(fmt.Sprintf("shared %s|%s|%d|%d %d %d %v %v %d %d", from.l.Key(), to.l.Key(), v.DType.Bits,
					c.ScratchBytes, c.ScratchPad, c.Words, c.ScratchOrder, c.ScratchRow, c.StoreVector, c.LoadVector), func() error {
					return replayShared(v, from, to, c)
				})
			}
			if err != nil {
				err = at(err, where, atValue(v))
				return
			}
		}
	})
	if err != nil {
		return err
	}
	total := p.Registers.SpillCost // a claim compared with Build's where a plan is read back
	for _, o := range p.Ops {
		total += o.Cost
	}
	for _, c := range p.Conv {
		total += c.Cost
	}
	if total != p.Cost {
		return &VerifyError{What: fmt.Sprintf("the ops, conversions and spills cost %d, the plan says %d", total, p.Cost), At: []Where{{Key: "cost"}}}
	}
	if g.HasMaxConversions && len(p.Conv) > g.MaxConversions {
		// Every use that converts is one of p.Conv (checked above).
		return &VerifyError{What: fmt.Sprintf("the plan converts %d times, more than the %d that %s allows", len(p.Conv), g.MaxConversions, g.MaxConversionsFrom), At: []Where{{Key: "conversions"}}}
	}
	return verifyRegisters(g, a, p)
}

// ties checks that op reads its operands and makes its result in the
// layouts its kind ties together: an element-wise op reads every
// operand in its result's layout; a relabelling op (broadcast, reshape,
// transpose) reads its operand in the layout its result's implies; an op
// that runs in a layout of its own reads its first operand in it, its
// others in its result's layout, and makes its result in the layout it
// implies; a loop carries each value in one layout, from its init and
// its yield to its result.
func ties(op *model.Op, a *model.Assignment, ts *tables) error {
	info := op.Info()
	var res *model.Layout
	if op.Result != nil {
		res = a.Layouts[op.Result]
	}
	read := func(u model.Use, want *model.Layout, what string, from ...Where) error {
		got := a.Required[u]
		if got == nil || got.Equal(want) || got.InShared() {
			return nil
		}
		return &VerifyError{Value: model.UseValue(u).Name, What: fmt.Sprintf("%s %s reads it as %s in %s, and the plan gives it another layout there", op.Kind, op.Name, model.OperandName(u), what),
			At: append([]Where{atUse(u)}, from...)}
	}
	var err error
	switch info.Flow {
	case model.FlowSame:
		for i := range op.Operands {
			if err == nil && res != nil {
				err = read(model.Use{Op: op, Index: i}, res, "the layout of its result %"+op.Result.Name, atValue(op.Result))
			}
		}
	case model.FlowRelabel:
		for i := range op.Operands {
			if err == nil && res != nil && !res.InShared() {
				err = read(model.Use{Op: op, Index: i}, ts.derive(op, info.Backward, res), "the layout its result %"+op.Result.Name+"'s implies", atValue(op.Result))
			}
		}
	case model.FlowExec:
		ch := a.Ops[op]
		if ch == nil || ch.Exec == nil {
			return &VerifyError{Value: op.Operands[0].Name, What: fmt.Sprintf("%s %s runs in a layout of its own, and the plan gives it none", op.Kind, op.Name), At: []Where{atOp(op, "")}}
		}
		err = read(model.Use{Op: op}, ch.Exec, "the layout it runs in", atOp(op, "exec"))
		for i := 1; err == nil && i < len(op.Operands) && res != nil; i++ {
			err = read(model.Use{Op: op, Index: i}, res, "the layout of its result %"+op.Result.Name, atValue(op.Result))
		}
		if tr := info.Forward; err == nil && tr != nil && res != nil {
			if made := ts.derive(op, tr, ch.Exec); made == nil || !made.Equal(res) {
				err = &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("%s %s makes it in the layout it runs in implies, and the plan gives it another", op.Kind, op.Name),
					At: []Where{atValue(op.Result), atOp(op, "exec")}}
			}
		}
	case model.FlowCarry:
		lp := op.Body
		for i, arg := range lp.Args {
			l := a.Layouts[arg]
			what := fmt.Sprintf("the layout it carries %%%s in", arg.Name)
			if err == nil {
				err = read(model.Use{Op: op, Index: i}, l, what, atValue(arg))
			}
			if err == nil && lp.Yields[i] != arg {
				err = read(model.Use{Op: op, Index: i, Yield: true}, l, what, atValue(arg))
			}
			if r := a.Layouts[lp.Results[i]]; err == nil && r != nil && l != nil && !r.Equal(l) {
				err = &VerifyError{Value: lp.Results[i].Name, What: fmt.Sprintf("loop %s leaves it in the layout it carries %%%s in, and the plan gives it another", op.Name, arg.Name),
					At: []Where{atValue(lp.Results[i]), atValue(arg)}}
			}
		}
	}
	return err
}

// arrangement checks an mma's arrangement of warps (or of groups of
// warps, for a record run by several) against its layouts: the plan's
// warps_m × warps_n groups number the graph's subgroups; group g sits at
// row g / warps_n and column g % warps_n of the arrangement when its ids
// run along N first, at row g % warps_m and column g / warps_m
// otherwise; the rows of record tiles along M go to the arrangement's
// rows in turn (tile i to row i mod rows), or, with outer, in contiguous
// runs (tile i to row i / (tiles / rows)); where there are fewer tiles
// than rows, rows beyond them hold copies. Every element of A, C and D
// must lie in a subgroup whose row holds its tile's row, and every
// element of B, C and D in one whose column holds its tile's column.
func arrangement(g *model.Graph, op *model.Op, ch *model.OpChoice, a *model.Assignment, ts *tables) error {
	r := ch.Record
	group := max(r.Subgroups, 1)
	wm, wn := ch.WarpsM, ch.WarpsN
	keys := []Where{atOp(op, "warps_m"), atOp(op, "warps_n"), atOp(op, "n_first"), atOp(op, "outer")}
	bad := func(where []Where, format string, args ...any) error {
		return &VerifyError{Value: op.Result.Name, What: fmt.Sprintf(format, args...), At: append(slices.Clip(where), keys...)}
	}
	// A batched product's warps along the batch lie above these.
	if wb := max(ch.WarpsB, 1); wm < 1 || wn < 1 || wm*wn*group*wb != g.Subgroups {
		return bad(nil, "%s runs %d×%d groups of %d warps (the batch over %d), which do not number the graph's %d subgroups", op.Name, wm, wn, group, wb, g.Subgroups)
	}
	if (wm == 1 || wn == 1) && !ch.NFirst {
		// The solver writes a single row or column of warps as ids along
		// N first; the other order is the same arrangement.
		return &VerifyError{Value: op.Result.Name, What: fmt.Sprintf("%s runs %d×%d warps, a single row or column, whose ids run along it: expected n_first = true", op.Name, wm, wn),
			At: []Where{atOp(op, "n_first"), atOp(op, "warps_m"), atOp(op, "warps_n")}}
	}
	// A transposed accumulator runs the record on (Bᵀ, Aᵀ): its tile's M
	// lies along the result's columns and its N along the rows.
	rm, rn := r.M, r.N
	if ch.Transposed {
		rm, rn = r.N, r.M
	}
	if rm == 0 || rn == 0 || len(op.Result.Shape) != 2 {
		return nil
	}
	tm, tn := op.Result.Shape[0]/rm, op.Result.Shape[1]/rn
	if tm == 0 || tn == 0 {
		return bad(nil, "%s's %dx%d result is smaller than the %dx%d tile of %s", op.Name, op.Result.Shape[0], op.Result.Shape[1], rm, rn, r.Name)
	}
	um, un := min(wm, tm), min(wn, tn)
	owner := func(tile, tiles, rows int) int {
		if ch.Outer {
			return tile / max(tiles/rows, 1)
		}
		return tile % rows
	}
	place := func(s int) (int, int) {
		gr := s / group
		if ch.NFirst {
			return (gr / wn) % um, (gr % wn) % un
		}
		return (gr % wm) % um, (gr / wm) % un
	}
	check := func(l *model.Layout, name string, rowDim, colDim int, where Where) error {
		if l == nil || l.InShared() || l.Opaque() != "" || l.Rank() != 2 {
			return nil
		}
		return ts.once(fmt.Sprintf("arrangement %s|%s|%d %d %d %d %v %v|%d %d", l.Key(), r.Name, wm, wn, rm, rn, ch.NFirst, ch.Outer, rowDim, colDim), func() error {
			t := ts.of(l)
			idx := make([]int, 2)
			shape := l.Shape()
			for i, e := range t.elems {
				coords(e, shape, idx)
				p := t.point(i)
				row, col := place(p.Subgroup)
				if rowDim >= 0 && owner(idx[rowDim]/rm, tm, um) != row || colDim >= 0 && owner(idx[colDim]/rn, tn, un) != col {
					return bad([]Where{where}, "%s: subgroup %d holds the tile of %s at %v, which %d×%d warps%s%s place elsewhere", op.Name, p.Subgroup, name, idx, wm, wn,
						map[bool]string{true: " with ids along N first", false: " with ids along M first"}[ch.NFirst], map[bool]string{true: ", outer", false: ""}[ch.Outer])
				}
			}
			return nil
		})
	}
	uses := []struct {
		name     string
		row, col int
	}{{"A", 0, -1}, {"B", -1, 1}, {"C", 0, 1}}
	for i, u := range uses {
		if i >= len(op.Operands) {
			break
		}
		use := model.Use{Op: op, Index: i}
		if err := check(a.Required[use], u.name, u.row, u.col, atUse(use)); err != nil {
			return err
		}
	}
	return check(a.Layouts[op.Result], "D", 0, 1, atValue(op.Result))
}

// sameHardware checks that every layout of the assignment spreads over
// the same lanes and blocks, and over the graph's subgroups.
func sameHardware(g *model.Graph, a *model.Assignment) error {
	var ref *model.Layout
	check := func(what string, where Where, l *model.Layout) error {
		if l == nil || l.InShared() {
			return nil
		}
		if ref == nil {
			ref = l
		}
		got := [3]int{l.Size(model.Lane), l.Size(model.Subgroup), l.Size(model.Block)}
		want := [3]int{ref.Size(model.Lane), g.Subgroups, ref.Size(model.Block)}
		if got != want {
			return &VerifyError{Value: what, What: fmt.Sprintf("its layout spreads over %d lanes, %d subgroups and %d blocks; the plan's other layouts over %d, %d and %d", got[0], got[1], got[2], want[0], want[1], want[2]),
				At: []Where{where}}
		}
		return nil
	}
	var err error
	for _, v := range g.Values {
		if err == nil {
			err = check(v.Name, atValue(v), a.Layouts[v])
		}
	}
	g.Walk(func(op *model.Op) {
		for _, u := range Uses(op) {
			if err == nil {
				err = check(model.UseValue(u).Name, atUse(u), a.Required[u])
			}
		}
		if ch := a.Ops[op]; ch != nil && err == nil {
			err = check(op.Name, atOp(op, "exec"), ch.Exec)
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
	if ts.holds[l] {
		return nil // the same layout held every element of an earlier value of its shape
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
	ts.holds[l] = true
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
			return "", &VerifyError{Value: v.Name, Element: unlinear(e, v.Shape), Point: pointAt(pt), What: "needed here, but its layout holds it nowhere"}
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
	kOrder     model.KOrder // K renumbered (model.KOrder)
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
	// The (lane, register) pairs holding each position, and its lanes,
	// in one array each: position e's are at [start[e], start[e+1]).
	n := frag.Layout.Elements()
	start := make([]int, n+1)
	for _, e := range ft.elems {
		start[e+1]++
	}
	for e := range n {
		start[e+1] += start[e]
	}
	regsAt := make([][2]int, len(ft.elems))
	lanesAt := make([]int, len(ft.elems))
	nRegs, nLanes := make([]int, n), make([]int, n)
	for i, e := range ft.elems {
		pt := ft.point(i)
		regsAt[start[e]+nRegs[e]] = [2]int{pt.Lane, pt.Value}
		nRegs[e]++
		if held := lanesAt[start[e] : start[e]+nLanes[e]]; !slices.Contains(held, pt.Lane) {
			lanesAt[start[e]+nLanes[e]] = pt.Lane
			nLanes[e]++
		}
	}
	regs := func(e int) [][2]int { return regsAt[start[e] : start[e]+nRegs[e]] }
	lanes := func(e int) []int { return lanesAt[start[e] : start[e]+nLanes[e]] }
	fregs := frag.Layout.Size(model.Register)
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
	if view.kOrder != nil && (slot == "a" || slot == "b") {
		name += " with K renumbered (" + view.kOrder.String() + ")"
	}
	idx, in, at := make([]int, len(shape)), make([]int, len(shape)), make([]int, len(shape))
	held := make([]bool, l.Size(model.Lane))
	var checked []int
	kd := map[string]int{"a": 1, "b": 0}[slot] // K's dimension in the record's slot
	own := r.OwnKWidth()
	for i, e := range lt.elems {
		coords(e, shape, idx)
		copy(at, idx)
		if view.transposed {
			slices.Reverse(at)
		}
		if (slot == "a" || slot == "b") && view.kOrder != nil {
			at[kd] = view.kOrder.Position(at[kd])
		}
		for d := range at {
			in[d] = at[d] % tile[d]
		}
		if (slot == "a" || slot == "b") && view.kWidth > 0 {
			in[kd] = model.InterleavedK(at[kd], tile[kd], own, view.kWidth)
		}
		p := lt.point(i)
		pos := model.LinearIndex(in, tile)
		want := lanes(pos)
		if !slices.Contains(want, p.Lane%group) {
			want = slices.Sorted(slices.Values(want))
			what := fmt.Sprintf("the %s puts tile position %v in lane %s, not lane %d", name, in, laneList(want), p.Lane)
			if group < l.Size(model.Lane) {
				what = fmt.Sprintf("the %s puts tile position %v in lane %s of a group of %d lanes, not lane %d of its group", name, in, laneList(want), group, p.Lane%group)
			}
			return &VerifyError{Value: value, Element: slices.Clone(idx), Point: pointAt(p), What: what}
		}
		// An mma reads its operands register by register: the register
		// of the fragment the element sits in must be the one the
		// record's table names for it in that lane (the fragment's
		// registers are the lowest of a tiled layout's). At a kWidth
		// above the record's own, each lane's register group interleaves
		// the K of several instructions, so the register is not the
		// record's; the lane check above and verifyVariant's pairing of A
		// and B stand for it there.
		if slot != "" && view.kWidth == 0 && !slices.Contains(regs(pos), [2]int{p.Lane % group, p.Value % fregs}) {
			return &VerifyError{Value: value, Element: slices.Clone(idx), Point: pointAt(p),
				What: fmt.Sprintf("the %s puts tile position %v in lane %d at another register than %d of its %d", name, in, p.Lane%group, p.Value%fregs, fregs)}
		}
		// Where the record holds a position in several lanes (a
		// duplicated operand: RDNA3 WMMA's A and B, a multi-block mma's
		// shared operand), every one of them must hold the element (in
		// the lane group of p, where the fragment covers one group).
		if len(want) < 2 {
			continue
		}
		base := p.Lane - p.Lane%group
		// The same element in the same group of lanes of the same
		// subgroup is the same check: done once (checked[e] is the last
		// group it was done in, plus one).
		key := (i/lt.regs/lt.lanes)*lt.lanes + base + 1
		if checked == nil {
			checked = make([]int, l.Elements())
		}
		if checked[e] == key {
			continue
		}
		checked[e] = key
		markHolders(lt, e, p, held, true)
		for _, w := range want {
			if !held[w+base] {
				return &VerifyError{Value: value, Element: slices.Clone(idx),
					What: fmt.Sprintf("the %s holds tile position %v in every one of lanes %v, and lane %d of subgroup %d lacks it", name, in, slices.Sorted(slices.Values(want)), w+base, p.Subgroup)}
			}
		}
		markHolders(lt, e, p, held, false)
	}
	return nil
}

// markHolders sets held[lane] to mark for every lane of the subgroup
// (and block) of point p that holds element e in layout table t.
func markHolders(t *points, e int, p model.HwPoint, held []bool, mark bool) {
	for _, h := range t.holders(e) {
		if q := t.point(h); q.Subgroup == p.Subgroup && q.Block == p.Block {
			held[q.Lane] = mark
		}
	}
}

// laneList writes lanes as "5" or "5 or 21".
func laneList(lanes []int) string {
	parts := make([]string, len(lanes))
	for i, l := range lanes {
		parts[i] = fmt.Sprint(l)
	}
	return strings.Join(parts, " or ")
}

// pointAt is a copy of p to point at: taking the address of a loop's
// point in an error would move every iteration's point to the heap.
func pointAt(p model.HwPoint) *model.HwPoint { return &p }

func unlinear(e int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = e % shape[d]
		e /= shape[d]
	}
	return idx
}

// tiledOperands checks that each operand an mma reads in registers is
// exactly a layout its arrangement tiles the record's fragment into
// (model.TileMMA; for a transposed accumulator the mirrored dot's tiling
// transposed back, and with a wider kWidth its K interleaved by
// model.InterleaveK): the fragment checks and the arrangement's accept
// any order of the register repeats, and a plan must claim the one the
// mma runs. The accumulator's repeats may run along N or along M first.
func tiledOperands(op *model.Op, ch *model.OpChoice, a *model.Assignment) error {
	r := ch.Record
	if len(op.Operands) < 3 || len(op.Operands[0].Shape) != 2 || len(op.Operands[1].Shape) != 2 || r.M == 0 || r.N == 0 || r.K == 0 {
		return nil
	}
	m, k, n := op.Operands[0].Shape[0], op.Operands[0].Shape[1], op.Operands[1].Shape[1]
	rm, rn := r.M, r.N
	if ch.Transposed {
		rm, rn = r.N, r.M
	}
	if m%rm != 0 || n%rn != 0 || k%r.K != 0 {
		return nil // the arrangement check says why
	}
	for i, role := range []string{"a", "b", "c"} {
		u := model.Use{Op: op, Index: i}
		got := a.Required[u]
		if got == nil || got.InShared() || got.Opaque() != "" {
			continue
		}
		wants := tilingsOf(r, ch, m, n, k, role)
		if wants == nil {
			continue // an operand in shared memory, or no tiling to compare with
		}
		if !slices.ContainsFunc(wants, func(w *model.Layout) bool { return got.Equal(w) }) {
			return &VerifyError{Value: op.Operands[i].Name, What: fmt.Sprintf("%s reads it as %s in a layout that %s on %s does not tile: each register repeat of the fragment must hold the tile the mma runs there (K repeats innermost)",
				op.Name, model.RoleName(op, i), r.Name, model.WarpArrangement(ch.WarpsM, ch.WarpsN, ch.NFirst, ch.Outer)),
				At: []Where{atUse(u), atOp(op, "intrinsic"), atOp(op, "warps_m"), atOp(op, "warps_n"), atOp(op, "transposed"), atOp(op, "k_width")}}
		}
	}
	return nil
}

// tilingsOf are the layouts an mma of m×k by k×n running as ch tiles its
// operand role (a, b or c) into, in either order of the accumulator's
// repeats; nil when the record gives the operand no layout in registers.
func tilingsOf(r *model.Record, ch *model.OpChoice, m, n, k int, role string) []*model.Layout {
	// A transposed accumulator runs the mirrored dot (Bᵀ, Aᵀ), N×K by
	// K×M, whose A is our B and whose B our A, its warps exchanged.
	from := map[string]string{"a": "a", "b": "b", "c": "c"}
	wm, wn, dm, dn := ch.WarpsM, ch.WarpsN, m, n
	nFirsts := []bool{ch.NFirst}
	if ch.Transposed {
		from = map[string]string{"a": "b", "b": "a", "c": "c"}
		wm, wn, dm, dn = ch.WarpsN, ch.WarpsM, n, m
		nFirsts = []bool{!ch.NFirst}
		if wm == 1 || wn == 1 {
			nFirsts = []bool{true, false}
		}
	}
	o := r.Operands[from[role]]
	if o == nil || o.Shared || o.Layout == nil {
		return nil
	}
	var out []*model.Layout
	for _, nFirst := range nFirsts {
		for _, accMFirst := range []bool{false, true} {
			t := model.TileMMA(r, dm, dn, k, wm, wn, nFirst, ch.Outer, accMFirst)
			factors, shape := t.C, []int{dm, dn}
			switch from[role] {
			case "a":
				factors, shape = t.A, []int{dm, k}
			case "b":
				factors, shape = t.B, []int{k, dn}
			}
			l, err := model.Tile(o.Layout, shape, factors)
			if err == nil && ch.Transposed {
				l, err = l.Transpose([]int{1, 0})
			}
			if err == nil && ch.KOrder != nil && role != "c" {
				l, err = model.RenumberK(l, map[string]int{"a": 1, "b": 0}[role], ch.KOrder)
			}
			if err == nil && ch.KWidth > 0 && role != "c" {
				own := r.OwnKWidth()
				kd := map[string]int{"a": 1, "b": 0}[role]
				var ok bool
				if l, ok = model.InterleaveK(l, kd, r.K, own, ch.KWidth/max(own, 1)); !ok {
					err = fmt.Errorf("no interleaving")
				}
			}
			if err == nil {
				out = append(out, l)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
