package plans

import (
	"fmt"
	"io"
	"strings"

	"planner/model"
)

// WriteExplanationText writes an explanation for people: the conflicting
// facts numbered with their lines, how they collide (with the two layouts
// drawn side by side where a layout clash is the reason) and the cheapest
// relaxations; or, for a graph with a plan, why each conversion is there.
func WriteExplanationText(w io.Writer, e *model.Explanation) error {
	var b strings.Builder
	if e.Status != "unsat" {
		writeConversionsWhy(&b, e)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "%s: no plan exists on %s.\n\n", e.File, e.Target)
	if len(e.Outside) > 0 {
		b.WriteString("Outside the candidates (the minimum is taken over the planner's arrangements of each mma):\n")
		for _, s := range e.Outside {
			b.WriteString(wrap(s, "  ", 96))
		}
		b.WriteByte('\n')
	}
	b.WriteString(wrap(coreHeading(e), "", 96))
	for i, f := range e.Core {
		writeFact(&b, fmt.Sprintf("%2d. ", i+1), f)
	}
	b.WriteString("\nHow they collide:\n")
	for _, s := range e.Collision {
		b.WriteString(wrap(s, "  ", 96))
	}
	if e.Clash != nil {
		b.WriteByte('\n')
		b.WriteString(drawClash(e.Clash))
	}
	b.WriteString("\nRelaxations, cheapest first:\n")
	switch {
	case len(e.Relaxations) == 0 && hasRelaxable(e.Core):
		b.WriteString("  none of at most three facts makes the graph solvable on the layouts this build considers\n")
	case len(e.Relaxations) == 0:
		b.WriteString("  none: every fact of the conflict is hard (the kernel's ops, the hardware, or marked hard in the graph)\n")
	}
	for i, r := range e.Relaxations {
		var names []string
		for _, f := range r.Drop {
			names = append(names, "["+f.Name+"] ("+f.Pos.String()+")")
		}
		if r.Status == "unknown" {
			fmt.Fprintf(&b, "%2d. drop %s: the time limit ran out before a plan was found; it would cost at least %d\n", i+1, strings.Join(names, " and "), r.Cost)
			continue
		}
		fmt.Fprintf(&b, "%2d. drop %s: the best plan then costs %d (%s)\n", i+1, strings.Join(names, " and "), r.Cost, r.Status)
	}
	switch {
	case e.More > 0:
		fmt.Fprintf(&b, "  (%d more; --max shows them)\n", e.More)
	case e.More < 0:
		b.WriteString("  (more exist; only the first ones found were priced)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// coreHeading introduces the core with what dropping one of its facts
// does: "drop any one and a plan exists" only where each one dropped
// alone, every other fact of the graph kept, leaves a plan.
func coreHeading(e *model.Explanation) string {
	var alone []string
	for i, f := range e.Core {
		if i < len(e.DropAlone) && e.DropAlone[i] {
			alone = append(alone, "["+f.Name+"]")
		}
	}
	n := len(e.Core)
	switch {
	case n == 1 && len(alone) == 1:
		return "This fact alone rules out every plan:\n"
	case n == 1:
		return "This fact alone rules out every plan. Other facts conflict as well: dropping it alone leaves no plan; the relaxations below say what does:\n"
	case len(alone) == n:
		return fmt.Sprintf("These %d facts cannot all hold; drop any one and a plan exists:\n", n)
	}
	head := fmt.Sprintf("These %d facts cannot all hold (with every other fact dropped, any %d of them can). Other facts conflict as well: ", n, n-1)
	if len(alone) == 0 {
		return head + "dropping one of these alone leaves no plan; the relaxations below say what does:\n"
	}
	return head + fmt.Sprintf("dropping %s alone leaves a plan, dropping any other one of these alone does not:\n", strings.Join(alone, " or "))
}

func hasRelaxable(core []*model.Fact) bool {
	for _, f := range core {
		if !f.Hard {
			return true
		}
	}
	return false
}

func writeFact(b *strings.Builder, lead string, f *model.Fact) {
	hard := ""
	if f.Hard {
		hard = " (hard)"
		if f.Marked {
			hard = " (marked hard)"
		}
	}
	fmt.Fprintf(b, "%s[%s] %s%s\n", lead, f.Name, f.Pos, hard)
	indent := strings.Repeat(" ", len(lead))
	b.WriteString(wrap(f.Text, indent, 96))
	if len(f.Also) > 0 {
		var ps []string
		for _, p := range f.Also {
			ps = append(ps, p.String())
		}
		b.WriteString(wrap("from "+strings.Join(ps, ", "), indent, 96))
	}
}

// wrap breaks s into lines of at most width characters after indent.
func wrap(s, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(s) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent + "  "
		}
		if len(line) > len(indent) && !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}

// clashWindow bounds the part of a clash that is drawn.
const clashWindow = 16

// drawClash draws two layouts of one matrix side by side, cell =
// subgroup:lane:value (lane:value with one subgroup), marking with * the
// cells of the right one held elsewhere than in the left one.
func drawClash(c *model.Clash) string {
	shape := c.Left.Shape()
	if len(shape) != 2 || len(c.Right.Shape()) != 2 {
		return ""
	}
	rows, cols := min(shape[0], clashWindow), min(shape[1], clashWindow)
	one := c.Left.Size(model.Subgroup) == 1 && c.Right.Size(model.Subgroup) == 1
	blocks := c.Left.Size(model.Block) > 1 || c.Right.Size(model.Block) > 1
	cells := func(l *model.Layout) [][]string {
		hs := holdersByElement(l)
		out := make([][]string, rows)
		for r := range rows {
			for col := range cols {
				out[r] = append(out[r], cellText(hs[r*shape[1]+col], blocks, one))
			}
		}
		return out
	}
	left, right := cells(c.Left), cells(c.Right)
	// Fewer columns while the two grids would pass 160 characters.
	for w := cellWidth(left, right); cols > 4 && 2*(4+cols*(w+2))+5 > 160; {
		cols /= 2
		for r := range rows {
			left[r], right[r] = left[r][:cols], right[r][:cols]
		}
	}
	width := 1
	for r := range rows {
		for col := range cols {
			if left[r][col] != right[r][col] {
				right[r][col] += "*"
			}
			width = max(width, len(left[r][col]), len(right[r][col]))
		}
	}
	grid := func(g [][]string) []string {
		var lines []string
		head := "   "
		for col := range cols {
			head += fmt.Sprintf(" %*d", width, col)
		}
		lines = append(lines, head)
		for r := range rows {
			line := fmt.Sprintf("%3d", r)
			for col := range cols {
				line += fmt.Sprintf(" %*s", width, g[r][col])
			}
			lines = append(lines, line)
		}
		return lines
	}
	l, r := grid(left), grid(right)
	pad := len(l[0])
	var b strings.Builder
	cell := "cell = subgroup:lane:value"
	if one {
		cell = "cell = lane:value"
	}
	window := ""
	if rows < shape[0] || cols < shape[1] {
		window = fmt.Sprintf("; rows 0..%d, columns 0..%d of %dx%d", rows-1, cols-1, shape[0], shape[1])
	}
	fmt.Fprintf(&b, "  %s%s; * = held elsewhere than on the left\n", cell, window)
	fmt.Fprintf(&b, "  %-*s   | %s\n", pad, clip(c.LeftCaption, pad), c.RightCaption)
	for i := range l {
		fmt.Fprintf(&b, "  %-*s   | %s\n", pad, l[i], r[i])
	}
	return b.String()
}

func cellWidth(grids ...[][]string) int {
	w := 1
	for _, g := range grids {
		for _, row := range g {
			for _, c := range row {
				w = max(w, len(c))
			}
		}
	}
	return w
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func writeConversionsWhy(b *strings.Builder, e *model.Explanation) {
	fmt.Fprintf(b, "%s: the plan on %s costs %d (%s).\n", e.File, e.Target, e.Cost, e.Status)
	free := ""
	switch e.FreeSelections {
	case 0:
	case 1:
		free = " (besides 1 free register selection, which costs no instruction)"
	default:
		free = fmt.Sprintf(" (besides %d free register selections, which cost no instruction)", e.FreeSelections)
	}
	if len(e.Conversions) == 0 {
		fmt.Fprintf(b, "It has no conversions%s.\n", free)
		return
	}
	fmt.Fprintf(b, "Why each of its %d conversions is there%s:\n", len(e.Conversions), free)
	for i, c := range e.Conversions {
		fmt.Fprintf(b, "\n%2d. %%%s into %s (%s): %s, cost %d\n", i+1, c.Value, c.Consumer, c.Operand, kindName(c.Kind), c.Cost)
		if !c.Forced && c.WithoutStatus == "unknown" {
			fmt.Fprintf(b, "    avoidable, but the time limit ran out before the cheapest plan without it was found (it costs at least %d)\n", c.Without)
			continue
		}
		if !c.Forced {
			if c.Without == e.Cost {
				fmt.Fprintf(b, "    avoidable at no extra cost: another plan of cost %d goes without it\n", c.Without)
			} else {
				fmt.Fprintf(b, "    avoidable, but the cheapest plan without it costs %d (%+d)\n", c.Without, c.Without-e.Cost)
			}
			if len(c.Instead) == 0 {
				b.WriteString("    and makes no conversion at all\n")
			} else {
				b.WriteString("    and converts instead:\n")
			}
			for _, s := range c.Instead {
				fmt.Fprintf(b, "      %s\n", s)
			}
			continue
		}
		b.WriteString("    no plan goes without it; these facts force it:\n")
		for _, f := range c.Facts {
			writeFact(b, "      - ", f)
		}
	}
}

func kindName(k model.ConversionKind) string {
	switch k {
	case model.ConvRegister:
		return "register permutation"
	case model.ConvShuffle:
		return "shuffles"
	case model.ConvShared:
		return "round trip through shared memory"
	}
	return "conversion"
}

// ExplanationJSON is an explanation for tools.
type ExplanationJSON struct {
	SchemaVersion int        `json:"schema_version"`
	Status        string     `json:"status"`
	File          string     `json:"file"`
	Target        string     `json:"target"`
	Cost          *int64     `json:"cost,omitempty"`
	Core          []FactJSON `json:"core,omitempty"`
	Collision     []string   `json:"collision,omitempty"`
	Outside       []string   `json:"outside,omitempty"`
	// DropAlone is set, possibly empty, when the status is unsat: the
	// core's facts whose dropping alone, every other fact kept, leaves a
	// plan.
	DropAlone *[]string `json:"drop_alone,omitempty"`
	// Relaxations is set, possibly empty, when the status is unsat.
	Relaxations *[]RelaxationJSON `json:"relaxations,omitempty"`
	Conversions []WhyJSON         `json:"conversions,omitempty"`
	// FreeSelections counts the register selections of cost 0 the plan
	// lists apart from its conversions.
	FreeSelections int `json:"free_selections,omitempty"`
}

// FactJSON is one fact: its name, where it is written and what it says.
type FactJSON struct {
	Fact string   `json:"fact"`
	File string   `json:"file"`
	Line int      `json:"line"`
	Text string   `json:"text"`
	Hard bool     `json:"hard"`
	Also []string `json:"also,omitempty"`
}

// RelaxationJSON is one minimal relaxation and the cost of the best plan
// it allows.
type RelaxationJSON struct {
	Drop   []string `json:"drop"`
	Cost   int64    `json:"cost"`
	Status string   `json:"status"`
}

// WhyJSON explains one conversion.
type WhyJSON struct {
	Value    string     `json:"value"`
	Consumer string     `json:"consumer"`
	Operand  string     `json:"operand"`
	Kind     string     `json:"kind"`
	Cost     int64      `json:"cost"`
	Forced   bool       `json:"forced"`
	Facts    []FactJSON `json:"facts,omitempty"`
	Without  *int64     `json:"without,omitempty"`
	// WithoutStatus is the status of the search for the plan without
	// the conversion: with "unknown", Without is only a lower bound.
	WithoutStatus string   `json:"without_status,omitempty"`
	Instead       []string `json:"instead,omitempty"`
}

func factJSON(f *model.Fact) FactJSON {
	j := FactJSON{Fact: f.Name, File: f.Pos.File, Line: f.Pos.Line, Text: f.Text, Hard: f.Hard}
	for _, p := range f.Also {
		j.Also = append(j.Also, p.String())
	}
	return j
}

// WriteExplanationJSON writes the explanation as JSON.
func WriteExplanationJSON(w io.Writer, e *model.Explanation) error {
	j := ExplanationJSON{SchemaVersion: SchemaVersion, Status: e.Status, File: e.File, Target: e.Target, Collision: e.Collision, Outside: e.Outside, FreeSelections: e.FreeSelections}
	for _, f := range e.Core {
		j.Core = append(j.Core, factJSON(f))
	}
	if e.Status == "unsat" {
		relax := []RelaxationJSON{}
		for _, r := range e.Relaxations {
			rj := RelaxationJSON{Cost: r.Cost, Status: r.Status}
			for _, f := range r.Drop {
				rj.Drop = append(rj.Drop, f.Name)
			}
			relax = append(relax, rj)
		}
		j.Relaxations = &relax
		alone := []string{}
		for i, f := range e.Core {
			if i < len(e.DropAlone) && e.DropAlone[i] {
				alone = append(alone, f.Name)
			}
		}
		j.DropAlone = &alone
	} else {
		cost := e.Cost
		j.Cost = &cost
	}
	for _, c := range e.Conversions {
		wj := WhyJSON{Value: c.Value, Consumer: c.Consumer, Operand: c.Operand, Kind: c.Kind.String(), Cost: c.Cost, Forced: c.Forced}
		for _, f := range c.Facts {
			wj.Facts = append(wj.Facts, factJSON(f))
		}
		if !c.Forced {
			without := c.Without
			wj.Without = &without
			wj.WithoutStatus = c.WithoutStatus
			wj.Instead = c.Instead
		}
		j.Conversions = append(j.Conversions, wj)
	}
	return encodeJSON(w, j)
}
