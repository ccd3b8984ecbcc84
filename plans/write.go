package plans

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

func dims(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, "x")
}

// Verdict says in words how sure the cost is.
func (p *Plan) Verdict() string {
	switch {
	case p.Status == "optimal":
		// The optimum is over the candidate layouts the solver builds,
		// which are not every layout of each value (docs/graphs.md).
		over := "the candidate layouts"
		if p.Restricted != "" {
			over += " (" + p.Restricted + ")"
		}
		bound := ""
		if p.ConversionBound != nil {
			bound = " within the bound on conversions"
		}
		return fmt.Sprintf("cost %d, proven minimal over %s: no plan among them%s costs less", p.Cost, over, bound)
	case p.Status == "feasible" && p.Stopped != "":
		return fmt.Sprintf("cost %d, not proven minimal: stopped at %s; no plan costs less than %d", p.Cost, p.Stopped, p.LowerBound)
	case p.Status == "feasible":
		return fmt.Sprintf("cost %d, not proven minimal: the time limit stopped the search; no plan costs less than %d", p.Cost, p.LowerBound)
	case p.Status == "greedy":
		return fmt.Sprintf("cost %d, the greedy baseline (anchors, propagation, first wins, rematerialisation, as compilers choose layouts), not proven minimal", p.Cost)
	}
	return p.Status
}

// TextOptions are the choices of the text writer.
type TextOptions struct {
	// Verbose lists every arrangement an mma was chosen among, one a
	// line, instead of summarising them in one line.
	Verbose bool
}

// WriteText writes the plan for people.
func (p *Plan) WriteText(w io.Writer) error { return p.WriteTextWith(w, TextOptions{}) }

// WriteTextWith writes the plan for people, as opt asks.
func (p *Plan) WriteTextWith(w io.Writer, opt TextOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "plan for %s on %s, %s\n", p.File, p.Target, plural(p.Subgroups, "subgroup"))
	for _, line := range p.Provenance {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	fmt.Fprintf(&b, "status %s: %s\n", p.Status, p.Verdict())
	if len(p.Values) > 0 || len(p.Ops) > 0 {
		b.WriteString("cost unit: one warp-wide ALU instruction; the target's [cost] table prices the rest in it\n")
	}
	if p.NotVerified != "" {
		fmt.Fprintf(&b, "not verified: %s\n", p.NotVerified)
	}
	if len(p.Values) == 0 && len(p.Ops) == 0 && p.Cost == 0 {
		b.WriteString("nothing to lay out: no op of the kernel reads or makes a vector or tensor, so the plan is empty\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	if p.ConversionBound != nil {
		fmt.Fprintf(&b, "%s\n", p.ConversionBound.Text(len(p.Conv)))
	}
	if p.Compare != nil {
		fmt.Fprintf(&b, "%s\n", p.Compare.Text())
	}
	fmt.Fprintf(&b, "shared memory: %d bytes of buffers, %d of conversion scratch, budget %d\n", p.Shared.Buffers, p.Shared.Scratch, p.Shared.Budget)
	fmt.Fprintf(&b, "%s\n", p.Registers.Text())
	if len(p.Shared.Placed) > 0 {
		b.WriteString("\nbuffers:\n")
	}
	for _, bp := range p.Shared.Placed {
		alloc := ""
		if len(bp.Allocated) > 0 {
			alloc = fmt.Sprintf(" (the tile its accesses touch, of a %s allocation)", dims(bp.Allocated))
		}
		fmt.Fprintf(&b, "  %s %s %s%s, %d bytes: %s\n", bp.Name, dims(bp.Shape), bp.DType, alloc, bp.Bytes, bp.Placement)
		fmt.Fprintf(&b, "      %s\n", bp.Formula)
		for _, a := range bp.Accesses {
			verdict := "conflict free"
			if a.Conflicts > 0 {
				verdict = fmt.Sprintf("%d wavefronts of bank conflicts", a.Conflicts)
			}
			fmt.Fprintf(&b, "      %s by %s: %s; %s per subgroup\n", a.Access, a.Op, a.Method, verdict)
		}
	}
	if hint := p.explainHint(); hint != "" {
		fmt.Fprintf(&b, "%s\n", hint)
	}
	aliases := p.layoutAliases()
	if len(aliases.defs) > 0 {
		b.WriteString("\nlayouts:\n")
		for _, d := range aliases.defs {
			fmt.Fprintf(&b, "  %s = %s\n", d.Name, d.Text)
		}
	}
	fmt.Fprintf(&b, "\nvalues (layouts in %s notation):\n", p.Notation)
	nameW := 0
	fallbacks := fallbackNotes{}
	for _, v := range p.Values {
		nameW = columnWidth(nameW, len(v.Name)+1)
	}
	for _, v := range p.Values {
		if strings.Contains(v.Name, "@") {
			b.WriteString("  (a name with @ is the planner's, for a value the kernel does not name: a second value of one\n" +
				"  name (%x@2), or the value before @ as one op reads it in a layout of its own (%x@a: operand a))\n")
			break
		}
	}
	for _, v := range p.Values {
		fmt.Fprintf(&b, "  %-*s %s %s, %d per lane: %s\n", nameW, "%"+v.Name, dims(v.Shape), v.DType, v.Values, aliases.short(v.Layout))
		if v.Notation != p.Notation && v.Notation != "fragment" {
			fmt.Fprintf(&b, "  %-*s   %s\n", nameW, "", fallbacks.note(p.Notation, v))
		}
	}
	opW := nameW
	for _, o := range p.Ops {
		opW = columnWidth(opW, len(o.Name))
	}
	b.WriteString("\nops (name, kind, line in " + p.File + "):\n")
	synthetic := syntheticNames{}
	for _, o := range p.Ops {
		var parts []string
		switch {
		case o.Intrinsic != "" && strings.HasPrefix(o.Method, o.Intrinsic):
			parts = append(parts, o.Method)
		case o.Intrinsic != "":
			parts = append(parts, o.Intrinsic)
			if o.Method != "" {
				parts = append(parts, o.Method)
			}
		case o.Method != "":
			parts = append(parts, o.Method)
		}
		if o.Warps != "" {
			parts = append(parts, o.Warps)
		}
		pad := strings.Repeat(" ", opW+3)
		row := fmt.Sprintf("  %-*s %-14s %-10s cost %d", opW, o.Name, o.Kind, p.lineOf(o.Pos), o.Cost)
		if len(parts) > 0 {
			row += ": " + strings.Join(parts, ", ")
		}
		b.WriteString(breakLine(row, TextWidth, pad+"    ") + "\n")
		if note := synthetic.opNote(o); note != "" {
			fmt.Fprintf(&b, "%s%s\n", pad, note)
		}
		if o.Lanes > 0 {
			fmt.Fprintf(&b, "%seach result combines %s\n", pad, lanesOf(o.Lanes, o.Subgroups))
			if o.HeldLanes > 0 {
				fmt.Fprintf(&b, "%s%s\n", pad, heldText(o))
			}
		}
		if o.Loop != nil {
			for _, line := range loopText(o.Loop) {
				fmt.Fprintf(&b, "%s%s\n", pad, line)
			}
		}
		if o.Exec != "" {
			fmt.Fprintf(&b, "%sruns in %s\n", pad, aliases.short(o.Exec))
		}
		for _, r := range o.Rejected {
			fmt.Fprintf(&b, "%snot %s\n", pad, r)
		}
		if len(o.Considered) > 1 {
			writeConsidered(&b, pad, o.Considered, opt.Verbose)
		}
	}
	var costly, free []ConvPlan
	for _, c := range p.Conv {
		if c.Free {
			free = append(free, c)
		} else {
			costly = append(costly, c)
		}
	}
	b.WriteString("\nconversions:\n")
	if len(costly) == 0 {
		b.WriteString("  none\n")
	}
	for _, c := range costly {
		fmt.Fprintf(&b, "  %%%s -> %s (%s): %s, cost %d: %s\n", c.Value, c.Consumer, c.Operand, c.Kind, c.Cost, c.Detail)
		fmt.Fprintf(&b, "      needed because %s requires %s\n", c.Consumer, c.Because)
		if c.Why != "" {
			fmt.Fprintf(&b, "      %s\n", c.Why)
		}
	}
	if len(free) > 0 {
		b.WriteString("\nfree register selections (the consumer reads the registers it needs; no instruction):\n")
		for _, c := range free {
			fmt.Fprintf(&b, "  %%%s -> %s (%s)\n", c.Value, c.Consumer, c.Operand)
		}
	}
	s := p.Stats
	fmt.Fprintf(&b, "\nsearch: %d candidate layouts, %d nodes, %d edges; %d nodes reduced exactly, ", s.Candidates, s.Nodes, s.Edges, s.Reduced)
	switch {
	case s.Branches > 0 && s.Solves == 0:
		fmt.Fprintf(&b, "%d left, decided by branching (%d branches)\n", s.CoreNodes, s.Branches)
	case s.Branches > 0:
		fmt.Fprintf(&b, "%d left for SAT after %d branches (%d variables, %d clauses, %d solves)\n", s.CoreNodes, s.Branches, s.Variables, s.Clauses, s.Solves)
	default:
		fmt.Fprintf(&b, "%d left for SAT (%d variables, %d clauses, %d solves)\n", s.CoreNodes, s.Variables, s.Clauses, s.Solves)
	}
	if p.Search != "" {
		fmt.Fprintf(&b, "placements searched: %s\n", p.Search)
	}
	text := wrapText(b.String(), TextWidth, func(line string) bool {
		return strings.HasPrefix(line, "  #") && strings.Contains(line, " = #")
	})
	_, err := io.WriteString(w, text)
	return err
}

// TextWidth is the column the text plan keeps to: a longer line is
// broken at a space, except an alias definition, which stays whole.
const TextWidth = 100

// layoutAliases names the layouts the text plan writes: every value's
// and every op's execution layout.
func (p *Plan) layoutAliases() *layoutAliases {
	var texts []string
	for _, v := range p.Values {
		texts = append(texts, v.Layout)
	}
	for _, o := range p.Ops {
		texts = append(texts, o.Exec)
	}
	return newLayoutAliases(texts)
}

// lineOf says where an op is in the plan's file ("line 52"), or in
// another file (file:line); "" where the op has no position.
func (p *Plan) lineOf(pos model.Pos) string {
	switch {
	case pos.Line == 0:
		return ""
	case pos.File == "" || pos.File == p.File:
		return fmt.Sprintf("line %d", pos.Line)
	}
	return fmt.Sprintf("%s:%d", pos.File, pos.Line)
}

// explainHint is the line pointing at planner explain when the plan
// converts, or runs its mmas on different warp grids: explain says why
// each conversion is there and what the alternatives cost.
func (p *Plan) explainHint() string {
	grids := map[string]bool{}
	for _, o := range p.Ops {
		if o.WarpsM > 0 {
			grids[fmt.Sprintf("%d×%d", o.WarpsM, o.WarpsN)] = true
		}
	}
	costly := 0
	for _, c := range p.Conv {
		if !c.Free {
			costly++
		}
	}
	switch {
	case len(grids) > 1:
		return fmt.Sprintf("why the mmas run on %d warp grids, with %s: planner explain %s", len(grids), plural(costly, "conversion"), p.File)
	case costly > 0:
		return fmt.Sprintf("why each of the %s is there, and what the alternatives cost: planner explain %s", plural(costly, "conversion"), p.File)
	}
	return ""
}

// syntheticNames explains, the first time each appears, a name the reader
// made for an op that names no result (tt.store@148: the tt.store at line
// 148).
type syntheticNames map[string]bool

func (s syntheticNames) opNote(o OpPlan) string {
	at := strings.LastIndexByte(o.Name, '@')
	if at <= 0 {
		return ""
	}
	kind, line := o.Name[:at], o.Name[at+1:]
	if _, err := strconv.Atoi(line); err != nil || s[kind] {
		return ""
	}
	s[kind] = true
	return fmt.Sprintf("(%s: the %s at line %s, named for its line since it has no result)", o.Name, kind, line)
}

// fallbackNotes words the line under a value written in a notation other
// than the plan's: the first value with a reason gets it in full, later
// values with the same reason point to that value.
type fallbackNotes map[string]string

func (f fallbackNotes) note(want string, v ValuePlan) string {
	reason := strings.TrimPrefix(v.Note, "not expressible as "+want+": ")
	s := fmt.Sprintf("written in %s, since %s notation cannot express it", v.Notation, want)
	if reason == "" {
		return s
	}
	if first, ok := f[reason]; ok {
		return s + " (for the same reason as %" + first + ")"
	}
	f[reason] = v.Name
	return s + ": " + reason
}

// writeConsidered writes the arrangements an mma was chosen among: one a
// line when verbose, else one line naming the records and the warp grids
// (solve --verbose lists them all).
func writeConsidered(b *strings.Builder, pad string, all []model.Arrangement, verbose bool) {
	if verbose {
		fmt.Fprintf(b, "%schosen among %d arrangements:\n", pad, len(all))
		for _, a := range all {
			fmt.Fprintf(b, "%s  %s\n", pad, a)
		}
		return
	}
	var records, grids []string
	for _, a := range all {
		if !slices.Contains(records, a.Record) {
			records = append(records, a.Record)
		}
		if g := fmt.Sprintf("%d×%d", a.WarpsM, a.WarpsN); !slices.Contains(grids, g) {
			grids = append(grids, g)
		}
	}
	recs := plural(len(records), "record")
	if len(records) <= 3 {
		recs = orList(records)
	}
	fmt.Fprintf(b, "%schosen among %d arrangements of %s on %s warps (solve --verbose lists them)\n", pad, len(all), recs, orList(grids))
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// JSON is the plan for tools (schema/plan.schema.json).
type JSON struct {
	SchemaVersion int                  `json:"schema_version"`
	Status        string               `json:"status"`
	Cost          int64                `json:"cost"`
	LowerBound    int64                `json:"lower_bound"`
	Stopped       string               `json:"stopped,omitempty"` // a limit other than time that stopped the search
	Restricted    string               `json:"restricted,omitempty"`
	NotVerified   string               `json:"not_verified,omitempty"`
	Search        string               `json:"placement_search,omitempty"`
	File          string               `json:"file"`
	Target        string               `json:"target"`
	Subgroups     int                  `json:"subgroups"`
	Provenance    []string             `json:"provenance,omitempty"`
	Notation      string               `json:"notation"`
	Values        map[string]ValueJSON `json:"values"`
	Ops           map[string]OpJSON    `json:"ops"`
	Conversions   []ConvJSON           `json:"conversions"`
	Shared        SharedJSON           `json:"shared_memory"`
	Registers     RegisterPlan         `json:"registers"`
	Stats         StatsJSON            `json:"stats"`
	Compare       *Comparison          `json:"compare,omitempty"`
	Bound         *ConversionBound     `json:"conversion_bound,omitempty"`
}

// ValueJSON is one value in the JSON plan.
type ValueJSON struct {
	Shape  []int       `json:"shape"`
	DType  string      `json:"dtype"`
	Values int         `json:"values_per_lane"`
	Layout *LayoutText `json:"layout"`
}

// OpJSON is one op in the JSON plan.
type OpJSON struct {
	Kind      string      `json:"kind"`
	Intrinsic string      `json:"intrinsic,omitempty"`
	Warps     string      `json:"warps,omitempty"`
	Exec      *LayoutText `json:"layout,omitempty"`
	Method    string      `json:"method,omitempty"`
	Lanes     int         `json:"lanes,omitempty"`
	Subgroups int         `json:"subgroups,omitempty"`
	// A reduction: lanes of a subgroup and subgroups holding each result
	// afterwards, and the lanes holding the first.
	HeldLanes     int   `json:"held_by_lanes,omitempty"`
	HeldSubgroups int   `json:"held_by_subgroups,omitempty"`
	HeldFirst     []int `json:"first_held_by,omitempty"`
	// A loop: whether it runs in registers only (answers.go, LoopPlan).
	Loop     *LoopPlan `json:"loop,omitempty"`
	Cost     int64     `json:"cost"`
	Rejected []string  `json:"rejected,omitempty"`
	// An mma's variant (plan.go, OpPlan).
	Transposed bool  `json:"transposed,omitempty"`
	KWidth     int   `json:"k_width,omitempty"`
	KOrder     []int `json:"k_order,omitempty"`
	WarpsB     int   `json:"warps_b,omitempty"`
}

// ConvJSON is one conversion in the JSON plan.
type ConvJSON struct {
	Value    string `json:"value"`
	Consumer string `json:"consumer"`
	Operand  string `json:"operand"`
	Kind     string `json:"kind"`
	Cost     int64  `json:"cost"`
	Free     bool   `json:"free,omitempty"`
	Detail   string `json:"detail"`
	Because  string `json:"because"`
	Why      string `json:"why,omitempty"`
}

// SharedJSON is the plan's shared memory, in bytes, with each buffer's
// placement.
type SharedJSON struct {
	BufferBytes  int          `json:"buffer_bytes"`
	ScratchBytes int          `json:"scratch_bytes"`
	BudgetBytes  int          `json:"budget_bytes"`
	Placed       []BufferPlan `json:"placed"`
}

// StatsJSON are the search's sizes. The plan carries no timings, so that
// the same graph gives the same bytes; planner bench reports the seconds.
type StatsJSON struct {
	Candidates int `json:"candidates"`
	Nodes      int `json:"nodes"`
	Edges      int `json:"edges"`
	Reduced    int `json:"reduced"`
	CoreNodes  int `json:"core_nodes"`
	Variables  int `json:"variables"`
	Clauses    int `json:"clauses"`
	Solves     int `json:"solves"`
	Branches   int `json:"branches,omitempty"`
}

// JSON builds the tools' view.
func (p *Plan) JSON() *JSON {
	s := p.Stats
	j := &JSON{SchemaVersion: SchemaVersion, Status: p.Status, Cost: p.Cost, LowerBound: p.LowerBound, Stopped: p.Stopped, Restricted: p.Restricted, NotVerified: p.NotVerified, Search: p.Search,
		File: p.File, Target: p.Target, Subgroups: p.Subgroups, Provenance: p.Provenance, Notation: p.Notation,
		Values: map[string]ValueJSON{}, Ops: map[string]OpJSON{}, Conversions: []ConvJSON{},
		Shared:    SharedJSON{BufferBytes: p.Shared.Buffers, ScratchBytes: p.Shared.Scratch, BudgetBytes: p.Shared.Budget, Placed: p.Shared.Placed},
		Registers: p.Registers,
		Stats: StatsJSON{Candidates: s.Candidates, Nodes: s.Nodes, Edges: s.Edges, Reduced: s.Reduced, CoreNodes: s.CoreNodes,
			Variables: s.Variables, Clauses: s.Clauses, Solves: s.Solves, Branches: s.Branches},
		Compare: p.Compare, Bound: p.ConversionBound}
	if j.Shared.Placed == nil {
		j.Shared.Placed = []BufferPlan{}
	}
	for _, v := range p.Values {
		lt := &LayoutText{Notation: v.Notation, Attr: v.Layout}
		if v.layout != nil && !v.layout.InShared() {
			lt = NewLayoutText(v.layout, p.Notation)
		}
		j.Values[v.Name] = ValueJSON{Shape: v.Shape, DType: v.DType, Values: v.Values, Layout: lt}
	}
	for _, o := range p.Ops {
		oj := OpJSON{Kind: o.Kind, Intrinsic: o.Intrinsic, Warps: o.Warps, Method: o.Method, Lanes: o.Lanes, Subgroups: o.Subgroups, Cost: o.Cost, Rejected: o.Rejected,
			HeldLanes: o.HeldLanes, HeldSubgroups: o.HeldSubgroups, HeldFirst: o.HeldFirst, Loop: o.Loop,
			Transposed: o.Transposed, KWidth: o.KWidth, KOrder: o.KOrder}
		if o.WarpsB > 1 {
			oj.WarpsB = o.WarpsB
		}
		switch {
		case o.exec != nil:
			oj.Exec = NewLayoutText(o.exec, p.Notation)
		case o.Exec != "":
			oj.Exec = &LayoutText{Notation: p.Notation, Attr: o.Exec}
		}
		j.Ops[o.Name] = oj
	}
	for _, c := range p.Conv {
		j.Conversions = append(j.Conversions, c.JSON())
	}
	return j
}

// JSON is the conversion as the JSON plan writes it.
func (c ConvPlan) JSON() ConvJSON {
	return ConvJSON{Value: c.Value, Consumer: c.Consumer, Operand: c.Operand, Kind: c.Kind, Cost: c.Cost, Free: c.Free, Detail: c.Detail, Because: c.Because, Why: c.Why}
}

// WriteJSON writes the plan for tools, indented.
func (p *Plan) WriteJSON(w io.Writer) error { return encodeJSON(w, p.JSON()) }

// The exact layouts behind a plan's strings, which the plan file writes
// so that a replay needs no search (package planfile).

// Exact is the value's layout.
func (v ValuePlan) Exact() *model.Layout { return v.layout }

// ExecLayout is the layout a reduce, store or copy runs in (nil for
// other ops).
func (o OpPlan) ExecLayout() *model.Layout { return o.exec }

// Required is the layout the consumer needs the value in.
func (c ConvPlan) Required() *model.Layout { return c.to }

// SharedLayout is the buffer's placement.
func (bp BufferPlan) SharedLayout() *model.SharedLayout { return bp.shared }

// WriteDOT writes the plan as a Graphviz graph: ops as boxes, values as
// edges from their producer to each consumer, conversions in red with
// their mechanism and cost, and each shared-memory buffer as a cylinder
// with dashed edges from the ops writing it and to the ops reading it.
// Labels are escStrings (https://graphviz.org/docs/attr-types/escString/):
// their lines are joined by the two characters \n, which Graphviz breaks.
func (p *Plan) WriteDOT(w io.Writer, g GraphShape) error {
	var b strings.Builder
	if p.NotVerified != "" {
		fmt.Fprintf(&b, "// not verified: %s\n", p.NotVerified)
	}
	b.WriteString("digraph plan {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n")
	if p.File != "" {
		fmt.Fprintf(&b, "  labelloc=t;\n  label=%s;\n", dotLabel(fmt.Sprintf("%s on %s, %s", p.File, p.Target, plural(p.Subgroups, "subgroup")),
			fmt.Sprintf("status %s, cost %d, %s", p.Status, p.Cost, plural(countCostly(p.Conv), "conversion"))))
	}
	aliases := p.layoutAliases()
	layoutOf := map[string]string{}
	for _, v := range p.Values {
		layoutOf[v.Name] = aliases.short(v.Layout)
	}
	ids := map[string]bool{}
	opLines := map[string][]string{}
	for _, o := range p.Ops {
		ids[o.Name] = true
		lines := []string{o.Name, o.Kind, o.Intrinsic}
		if o.WarpsM > 0 {
			lines = append(lines, fmt.Sprintf("%d×%d warps", o.WarpsM, o.WarpsN))
		}
		opLines[o.Name] = lines
	}
	if len(aliases.defs) > 0 {
		id := "layouts"
		for ids[id] {
			id += "'"
		}
		ids[id] = true
		lines := []string{"layouts"}
		for _, d := range aliases.defs {
			lines = append(lines, d.Name+" = "+d.Text)
		}
		fmt.Fprintf(&b, "  %s [shape=note, label=%s];\n", dotQuote(id), dotLeftLabel(lines...))
	}
	drawn := map[string]bool{}
	var drawLoop func(l GraphLoop, indent string)
	drawLoop = func(l GraphLoop, indent string) {
		fmt.Fprintf(&b, "%ssubgraph %s {\n", indent, dotQuote("cluster "+l.Name))
		carried := "carries nothing"
		if len(l.Carried) > 0 {
			carried = "carries %" + strings.Join(l.Carried, ", %")
		}
		title := "loop " + l.Name
		if l.Name == "loop" {
			title = "loop"
		}
		fmt.Fprintf(&b, "%s  label=%s;\n%s  style=rounded;\n", indent, dotLabel(fmt.Sprintf("%s, %s", title, plural(l.Trips, "trip")), carried), indent)
		for _, op := range l.Ops {
			if lines, ok := opLines[op]; ok && !drawn[op] {
				drawn[op] = true
				fmt.Fprintf(&b, "%s  %s [label=%s];\n", indent, dotQuote(op), dotLabel(lines...))
			}
		}
		for _, inner := range l.Loops {
			drawLoop(inner, indent+"  ")
		}
		fmt.Fprintf(&b, "%s}\n", indent)
	}
	for _, l := range g.Loops {
		drawLoop(l, "  ")
	}
	for _, o := range p.Ops {
		if !drawn[o.Name] {
			fmt.Fprintf(&b, "  %s [label=%s];\n", dotQuote(o.Name), dotLabel(opLines[o.Name]...))
		}
	}
	placed := map[string]BufferPlan{}
	for _, bp := range p.Shared.Placed {
		placed[bp.Name] = bp
	}
	bufferID := map[string]string{}
	for _, buf := range g.Buffers {
		id := "buffer " + buf.Name
		for ids[id] {
			id += "'"
		}
		ids[id], bufferID[buf.Name] = true, id
		lines := []string{buf.Name, "shared " + buf.Type}
		if bp, ok := placed[buf.Name]; ok {
			lines = append(lines, bp.Placement)
		}
		fmt.Fprintf(&b, "  %s [shape=cylinder, label=%s];\n", dotQuote(id), dotLabel(lines...))
	}
	conv := map[[2]string]ConvPlan{}
	for _, c := range p.Conv {
		conv[[2]string{c.Value, c.Consumer}] = c
	}
	for _, e := range g.Edges {
		attrs := "label=" + dotLabel("%"+e.Value, layoutOf[e.Value])
		if c, ok := conv[[2]string{e.Value, e.Consumer}]; ok && !c.Free {
			attrs = fmt.Sprintf("label=%s, color=red, fontcolor=red, penwidth=2", dotLabel("%"+e.Value, layoutOf[e.Value], fmt.Sprintf("converted: %s, cost %d", c.Kind, c.Cost)))
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", dotQuote(e.Producer), dotQuote(e.Consumer), attrs)
	}
	for _, buf := range g.Buffers {
		id := dotQuote(bufferID[buf.Name])
		for _, op := range buf.Writers {
			fmt.Fprintf(&b, "  %s -> %s [style=dashed, label=\"write\"];\n", dotQuote(op), id)
		}
		for _, op := range buf.Readers {
			fmt.Fprintf(&b, "  %s -> %s [style=dashed, label=\"read\"];\n", id, dotQuote(op))
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// countCostly counts the conversions that move data (not the free
// register selections).
func countCostly(cs []ConvPlan) int {
	n := 0
	for _, c := range cs {
		if !c.Free {
			n++
		}
	}
	return n
}

// dotLeftLabel is a label whose lines are left-aligned: each ended by
// the escString break \l rather than the centring \n.
func dotLeftLabel(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, l := range lines {
		q := dotQuote(l)
		b.WriteString(q[1:len(q)-1] + "\\l")
	}
	b.WriteByte('"')
	return b.String()
}

// dotQuote writes s as a DOT double-quoted string. In one, \" stands
// for a quote and every other character is itself
// (https://graphviz.org/doc/info/lang.html); a backslash is doubled so
// that it cannot escape the closing quote, and so that in a label, an
// escString, it is read as one backslash rather than as the start of an
// escape such as \N or \n.
func dotQuote(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n", "\r", "\\n")
	return "\"" + r.Replace(s) + "\""
}

// dotLabel is a label of the given lines, empty ones left out: each line
// quoted as dotQuote does, joined by the escString line break \n.
func dotLabel(lines ...string) string {
	var kept []string
	for _, l := range lines {
		if l != "" {
			q := dotQuote(l)
			kept = append(kept, q[1:len(q)-1])
		}
	}
	return "\"" + strings.Join(kept, "\\n") + "\""
}

// GraphShape lists a graph's data edges and shared-memory buffers for
// drawing: a value from the op producing it to an op using it, and a
// buffer between the ops writing it and those reading it.
type GraphShape struct {
	Edges   []GraphEdge
	Buffers []GraphBuffer
	// Loops are the graph's outermost loops, each with the loops it
	// holds, drawn as nested clusters.
	Loops []GraphLoop
}

// GraphLoop is one loop for drawing: its name, its trip count, the
// values it carries from trip to trip, the ops of its body (the loop op
// itself first) and the loops nested in it.
type GraphLoop struct {
	Name    string
	Trips   int
	Carried []string
	Ops     []string
	Loops   []GraphLoop
}

// GraphEdge is one value flowing between two ops.
type GraphEdge struct {
	Value, Producer, Consumer string
}

// GraphBuffer is one shared-memory buffer: its name, its shape and
// element type as the plan writes them ("128x32 f16"), and the ops that
// write it and read it, in program order.
type GraphBuffer struct {
	Name, Type       string
	Writers, Readers []string
}

// ShapeOf lists the data edges of a graph, each use of a value from the
// op producing it (the loop, for carried values and loop results), and
// its buffers with the ops writing and reading each.
func ShapeOf(g *model.Graph) GraphShape {
	var s GraphShape
	producer := func(v *model.Value) string {
		switch {
		case v.Arg != nil:
			return v.Arg.Op.Name
		case v.Def != nil:
			return v.Def.Name
		}
		return v.Name
	}
	buffers := map[*model.Buffer]*GraphBuffer{}
	for _, b := range g.Buffers {
		s.Buffers = append(s.Buffers, GraphBuffer{Name: b.Name, Type: dims(b.Shape) + " " + b.DType.Name})
	}
	for i, b := range g.Buffers {
		buffers[b] = &s.Buffers[i]
	}
	s.Loops = loopsOf(g.Ops)
	g.Walk(func(op *model.Op) {
		for _, v := range op.Operands {
			s.Edges = append(s.Edges, GraphEdge{Value: v.Name, Producer: producer(v), Consumer: op.Name})
		}
		if op.Body != nil {
			for i := range op.Body.Args {
				s.Edges = append(s.Edges, GraphEdge{Value: op.Body.Inits[i].Name, Producer: producer(op.Body.Inits[i]), Consumer: op.Name})
				s.Edges = append(s.Edges, GraphEdge{Value: op.Body.Yields[i].Name, Producer: producer(op.Body.Yields[i]), Consumer: op.Name})
			}
		}
		if b := buffers[op.Buffer]; b != nil {
			switch {
			case op.WritesShared():
				b.Writers = append(b.Writers, op.Name)
			case op.ReadsShared():
				b.Readers = append(b.Readers, op.Name)
			}
		}
	})
	return s
}

// loopsOf lists the loops among ops, each with its body's ops and the
// loops nested in it.
func loopsOf(ops []*model.Op) []GraphLoop {
	var out []GraphLoop
	for _, op := range ops {
		if op.Body == nil {
			continue
		}
		l := GraphLoop{Name: op.Name, Trips: op.Body.Trips, Ops: []string{op.Name}, Loops: loopsOf(op.Body.Ops)}
		for _, a := range op.Body.Args {
			l.Carried = append(l.Carried, a.Name)
		}
		for _, in := range op.Body.Ops {
			l.Ops = append(l.Ops, in.Name)
		}
		out = append(out, l)
	}
	return out
}

// maxColumn is the widest a column of names grows: a longer name runs
// past it on its own line and leaves the others aligned (and fmt pads
// no wider than 10⁶).
const maxColumn = 32

// columnWidth widens a column of width w to hold a name n characters
// long, up to maxColumn.
func columnWidth(w, n int) int {
	if n > maxColumn {
		return w
	}
	return max(w, n)
}
