package plans

import (
	"encoding/json"
	"fmt"
	"io"
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
		return fmt.Sprintf("cost %d, proven minimal: no plan costs less", p.Cost)
	case p.Status == "feasible" && p.Stopped != "":
		return fmt.Sprintf("cost %d, not proven minimal: stopped at %s; no plan costs less than %d", p.Cost, p.Stopped, p.LowerBound)
	case p.Status == "feasible":
		return fmt.Sprintf("cost %d, not proven minimal: the time limit stopped the search; no plan costs less than %d", p.Cost, p.LowerBound)
	case p.Status == "greedy":
		return fmt.Sprintf("cost %d, the greedy baseline (anchors, propagation, first wins, rematerialisation, as compilers choose layouts), not proven minimal", p.Cost)
	}
	return p.Status
}

// WriteText writes the plan for people.
func (p *Plan) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "plan for %s on %s, %s\n", p.File, p.Target, plural(p.Subgroups, "subgroup"))
	fmt.Fprintf(&b, "status %s: %s\n", p.Status, p.Verdict())
	if p.NotVerified != "" {
		fmt.Fprintf(&b, "not verified: %s\n", p.NotVerified)
	}
	if p.Compare != nil {
		fmt.Fprintf(&b, "%s\n", p.Compare.Text())
	}
	fmt.Fprintf(&b, "shared memory: %d bytes of buffers, %d of conversion scratch, budget %d\n", p.Shared.Buffers, p.Shared.Scratch, p.Shared.Budget)
	if len(p.Shared.Placed) > 0 {
		b.WriteString("\nbuffers:\n")
	}
	for _, bp := range p.Shared.Placed {
		fmt.Fprintf(&b, "  %s %s %s, %d bytes: %s\n", bp.Name, dims(bp.Shape), bp.DType, bp.Bytes, bp.Placement)
		fmt.Fprintf(&b, "      %s\n", bp.Formula)
		for _, a := range bp.Accesses {
			verdict := "conflict free"
			if a.Conflicts > 0 {
				verdict = fmt.Sprintf("%d wavefronts of bank conflicts", a.Conflicts)
			}
			fmt.Fprintf(&b, "      %s by %s: %s; %s per subgroup\n", a.Access, a.Op, a.Method, verdict)
		}
	}
	fmt.Fprintf(&b, "\nvalues (layouts in %s notation):\n", p.Notation)
	nameW := 0
	for _, v := range p.Values {
		nameW = max(nameW, len(v.Name)+1)
	}
	for _, v := range p.Values {
		fmt.Fprintf(&b, "  %-*s %s %s, %d per lane: %s\n", nameW, "%"+v.Name, dims(v.Shape), v.DType, v.Values, v.Layout)
		if v.Notation != p.Notation && v.Notation != "fragment" {
			fmt.Fprintf(&b, "  %-*s   (in %s: %s)\n", nameW, "", v.Notation, v.Note)
		}
	}
	opW := nameW
	for _, o := range p.Ops {
		opW = max(opW, len(o.Name))
	}
	b.WriteString("\nops:\n")
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
			parts = append(parts, o.Warps+" warps")
		}
		fmt.Fprintf(&b, "  %-*s %-14s cost %d", opW, o.Name, o.Kind, o.Cost)
		if len(parts) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(parts, ", "))
		}
		b.WriteByte('\n')
		pad := strings.Repeat(" ", opW+18)
		if o.Lanes > 0 {
			fmt.Fprintf(&b, "%seach result combines %s and %s\n", pad, plural(o.Lanes, "lane"), plural(o.Subgroups, "subgroup"))
		}
		if o.Exec != "" {
			fmt.Fprintf(&b, "%sruns in %s\n", pad, o.Exec)
		}
		for _, r := range o.Rejected {
			fmt.Fprintf(&b, "%snot %s\n", pad, r)
		}
		if len(o.Considered) > 1 {
			fmt.Fprintf(&b, "%schosen among %d arrangements: %s\n", pad, len(o.Considered), strings.Join(o.Considered, "; "))
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
	fmt.Fprintf(&b, "\nsearch: %d candidate layouts, %d nodes, %d edges; %d nodes reduced exactly, %d left for SAT (%d variables, %d clauses, %d solves)\n",
		s.Candidates, s.Nodes, s.Edges, s.Reduced, s.CoreNodes, s.Variables, s.Clauses, s.Solves)
	if p.Search != "" {
		fmt.Fprintf(&b, "placements searched: %s\n", p.Search)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON is the plan for tools.
type JSON struct {
	Status      string               `json:"status"`
	Cost        int64                `json:"cost"`
	LowerBound  int64                `json:"lower_bound"`
	Stopped     string               `json:"stopped,omitempty"` // a limit other than time that stopped the search
	NotVerified string               `json:"not_verified,omitempty"`
	Search      string               `json:"placement_search,omitempty"`
	File        string               `json:"file"`
	Target      string               `json:"target"`
	Subgroups   int                  `json:"subgroups"`
	Values      map[string]ValueJSON `json:"values"`
	Ops         map[string]OpJSON    `json:"ops"`
	Conversions []ConvJSON           `json:"conversions"`
	Shared      SharedPlan           `json:"shared_memory"`
	Stats       Stats                `json:"stats"`
	Compare     *Comparison          `json:"compare,omitempty"`
}

// ValueJSON is one value in the JSON plan.
type ValueJSON struct {
	Layout   string `json:"layout"`
	Notation string `json:"notation"`
	Shape    []int  `json:"shape"`
	DType    string `json:"dtype"`
	Values   int    `json:"values_per_lane"`
}

// OpJSON is one op in the JSON plan.
type OpJSON struct {
	Kind      string   `json:"kind"`
	Intrinsic string   `json:"intrinsic,omitempty"`
	Warps     string   `json:"warps,omitempty"`
	Exec      string   `json:"layout,omitempty"`
	Method    string   `json:"method,omitempty"`
	Lanes     int      `json:"lanes,omitempty"`
	Subgroups int      `json:"subgroups,omitempty"`
	Cost      int64    `json:"cost"`
	Rejected  []string `json:"rejected,omitempty"`
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

// JSON builds the tools' view.
func (p *Plan) JSON() *JSON {
	j := &JSON{Status: p.Status, Cost: p.Cost, LowerBound: p.LowerBound, Stopped: p.Stopped, NotVerified: p.NotVerified, Search: p.Search, File: p.File, Target: p.Target, Subgroups: p.Subgroups,
		Values: map[string]ValueJSON{}, Ops: map[string]OpJSON{}, Conversions: []ConvJSON{}, Shared: p.Shared, Stats: p.Stats, Compare: p.Compare}
	for _, v := range p.Values {
		j.Values[v.Name] = ValueJSON{Layout: v.Layout, Notation: v.Notation, Shape: v.Shape, DType: v.DType, Values: v.Values}
	}
	for _, o := range p.Ops {
		j.Ops[o.Name] = OpJSON{Kind: o.Kind, Intrinsic: o.Intrinsic, Warps: o.Warps, Exec: o.Exec, Method: o.Method, Lanes: o.Lanes, Subgroups: o.Subgroups, Cost: o.Cost, Rejected: o.Rejected}
	}
	for _, c := range p.Conv {
		j.Conversions = append(j.Conversions, ConvJSON{Value: c.Value, Consumer: c.Consumer, Operand: c.Operand, Kind: c.Kind, Cost: c.Cost, Free: c.Free, Detail: c.Detail, Because: c.Because, Why: c.Why})
	}
	return j
}

// WriteJSON writes the plan for tools, indented.
func (p *Plan) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(p.JSON())
}

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
	ids := map[string]bool{}
	for _, o := range p.Ops {
		ids[o.Name] = true
		fmt.Fprintf(&b, "  %s [label=%s];\n", dotQuote(o.Name), dotLabel(o.Name, o.Kind, o.Intrinsic))
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
		attrs := "label=" + dotLabel("%"+e.Value)
		if c, ok := conv[[2]string{e.Value, e.Consumer}]; ok && !c.Free {
			attrs = fmt.Sprintf("label=%s, color=red, fontcolor=red, penwidth=2", dotLabel("%"+e.Value, fmt.Sprintf("%s, cost %d", c.Kind, c.Cost)))
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
