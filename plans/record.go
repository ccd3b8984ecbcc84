package plans

import (
	"fmt"
	"io"
	"strings"

	"planner/model"
)

// RecordOperands lists a record's operands in the order they are shown:
// a, b, c, d (then scale_a and scale_b) for an mma, the fragment for a
// load or store.
func RecordOperands(r *model.Record) []*model.Operand {
	var out []*model.Operand
	for _, n := range []string{"a", "b", "c", "d", "scale_a", "scale_b"} {
		if op := r.Operands[n]; op != nil {
			out = append(out, op)
		}
	}
	if r.Fragment != nil {
		out = append(out, r.Fragment)
	}
	return out
}

// WriteRecordText describes a record and draws each operand's layout as
// `planner layout show` does. offeredBy lists the targets offering it.
func WriteRecordText(w io.Writer, r *model.Record, offeredBy []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s)\n", r.Name, r.Kind, r.Vendor)
	fmt.Fprintf(&b, "  instruction  %s\n", r.Instruction)
	fmt.Fprintf(&b, "  defined at   %s\n", r.Pos)
	fmt.Fprintf(&b, "  source       %s\n", r.Source)
	sg := plural(r.SubgroupSize, "lane")
	if r.Subgroups > 1 {
		sg = fmt.Sprintf("%d subgroups of %s", r.Subgroups, sg)
	}
	if r.Kind == model.RecordFMA {
		sg = "any (each lane on its own elements)"
	}
	fmt.Fprintf(&b, "  subgroup     %s\n", sg)
	switch r.Kind {
	case model.RecordFMA:
		b.WriteString("  shape        one element per lane and instruction: d = a·b + c\n")
	case model.RecordMMA:
		fmt.Fprintf(&b, "  shape        M %d, N %d, K %d", r.M, r.N, r.K)
		if r.Blocks > 1 {
			fmt.Fprintf(&b, ", %d independent blocks", r.Blocks)
		}
		if r.ScaleVec > 0 {
			fmt.Fprintf(&b, ", block-scaled: %d scale factors per row of A and per column of B", r.ScaleVec)
		}
		b.WriteByte('\n')
	default:
		fmt.Fprintf(&b, "  matrices     %d", r.Matrices)
		if r.Trans {
			b.WriteString(", transposed")
		}
		if r.Transform != "" && r.Transform != "none" {
			fmt.Fprintf(&b, ", transform %s", r.Transform)
		}
		b.WriteByte('\n')
	}
	if r.Memory.Rule != "" {
		fmt.Fprintf(&b, "  memory       %s: %s\n", r.Memory.Rule, r.Memory.Describe())
	}
	if r.Kind == model.RecordFMA {
		b.WriteString("  cost         the target's alu weight per FMA\n")
	} else {
		fmt.Fprintf(&b, "  cost         %d\n", r.Cost)
	}
	if why := r.Unplanned(); why != "" {
		fmt.Fprintf(&b, "  not planned  %s\n", why)
	} else if r.Scaled() {
		b.WriteString("  planned      for block-scaled products alone (a graph's mma_scaled, Triton's tt.dot_scaled)\n")
	}
	if len(offeredBy) > 0 {
		fmt.Fprintf(&b, "  targets      %s\n", strings.Join(offeredBy, ", "))
	} else {
		b.WriteString("  targets      none offers it\n")
	}
	if r.Notes != "" {
		fmt.Fprintf(&b, "  notes        %s\n", r.Notes)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for _, op := range RecordOperands(r) {
		note := operandNote(op)
		if op == r.Fragment && r.Kind.TensorMemory() {
			note += ", over TMEM lanes x 32-bit columns"
		}
		fmt.Fprintf(w, "\noperand %s: %s %s%s\n", op.Name, dimsString(op.Shape), op.DType.Name, note)
		if op.Layout != nil && op.Layout.Opaque() == "" {
			if err := WriteLayoutText(w, op.Layout, op.Notation); err != nil {
				return err
			}
		}
	}
	return nil
}

func operandNote(op *model.Operand) string {
	var parts []string
	if op.Registers > 0 {
		parts = append(parts, plural(op.Registers, "32-bit register")+" per lane")
	}
	if op.Duplicated {
		parts = append(parts, "duplicated across lanes")
	}
	if op.Shared {
		parts = append(parts, "read from shared memory (see memory)")
	}
	if op.TensorMemory {
		parts = append(parts, "in tensor memory, addressed by the instruction (tcgen05.ld and tcgen05.st move it to and from registers)")
	}
	if op.Unspecified {
		switch {
		case op.Layout != nil && op.Layout.Opaque() != "":
			parts = append(parts, fmt.Sprintf("layout unspecified by the architecture: fragment family %s, exchanged only with the family's records", op.Layout.Opaque()))
		case op.Layout != nil:
			parts = append(parts, "layout unspecified by the architecture; the one drawn is one implementation's")
		default:
			parts = append(parts, "layout unspecified by the architecture: reached only through the record's loads and stores")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// RecordJSON is the machine-readable view of a record.
type RecordJSON struct {
	SchemaVersion int                     `json:"schema_version"`
	Name          string                  `json:"name"`
	Kind          string                  `json:"kind"`
	Vendor        string                  `json:"vendor"`
	Instruction   string                  `json:"instruction"`
	Source        string                  `json:"source"`
	File          string                  `json:"file"`
	Line          int                     `json:"line"`
	SubgroupSize  int                     `json:"subgroup_size"`
	Subgroups     int                     `json:"subgroups"`
	Shape         []int                   `json:"shape,omitempty"`
	Blocks        int                     `json:"blocks,omitempty"`
	ScaleVec      int                     `json:"scale_vec,omitempty"`
	Matrices      int                     `json:"matrices,omitempty"`
	Trans         bool                    `json:"trans,omitempty"`
	Transform     string                  `json:"transform,omitempty"`
	Cost          int64                   `json:"cost"`
	NotPlanned    string                  `json:"not_planned,omitempty"`
	Memory        *MemoryJSON             `json:"memory,omitempty"`
	Targets       []string                `json:"targets"`
	Operands      map[string]*OperandJSON `json:"operands"`
}

// MemoryJSON is a memory rule.
type MemoryJSON struct {
	Rule string `json:"rule"`
	Text string `json:"text"`
}

// OperandJSON is one operand; Layout follows `planner layout show --format json`.
type OperandJSON struct {
	DType        string      `json:"dtype"`
	Shape        []int       `json:"shape,omitempty"`
	Registers    int         `json:"registers,omitempty"`
	Duplicated   bool        `json:"duplicated,omitempty"`
	Shared       bool        `json:"shared,omitempty"`
	TensorMemory bool        `json:"tensor_memory,omitempty"`
	Unspecified  bool        `json:"unspecified,omitempty"`
	Family       string      `json:"family,omitempty"`
	Layout       *LayoutJSON `json:"layout,omitempty"`
}

// WriteRecordJSON writes the JSON view of a record, indented.
func WriteRecordJSON(w io.Writer, r *model.Record, offeredBy []string) error {
	return encodeJSON(w, NewRecordJSON(r, offeredBy))
}

// NewRecordJSON builds the JSON view of a record.
func NewRecordJSON(r *model.Record, offeredBy []string) *RecordJSON {
	j := &RecordJSON{SchemaVersion: SchemaVersion, Name: r.Name, Kind: string(r.Kind), Vendor: r.Vendor, Instruction: r.Instruction, Source: r.Source,
		File: r.Pos.File, Line: r.Pos.Line, SubgroupSize: r.SubgroupSize, Subgroups: r.Subgroups, Cost: r.Cost,
		Matrices: r.Matrices, Trans: r.Trans, Targets: offeredBy, Operands: map[string]*OperandJSON{}, NotPlanned: r.Unplanned(), ScaleVec: r.ScaleVec}
	if j.Targets == nil {
		j.Targets = []string{}
	}
	if r.Kind == model.RecordMMA {
		j.Shape = []int{r.M, r.N, r.K}
		if r.Blocks > 1 {
			j.Blocks = r.Blocks
		}
	} else if r.Transform != "none" {
		j.Transform = r.Transform
	}
	if r.Memory.Rule != "" {
		j.Memory = &MemoryJSON{Rule: r.Memory.Rule, Text: r.Memory.Describe()}
	}
	for _, op := range RecordOperands(r) {
		oj := &OperandJSON{DType: op.DType.Name, Shape: op.Shape, Registers: op.Registers, Duplicated: op.Duplicated, Shared: op.Shared, TensorMemory: op.TensorMemory, Unspecified: op.Unspecified}
		if op.Layout != nil {
			oj.Family = op.Layout.Opaque()
		}
		if op.Layout != nil && op.Layout.Opaque() == "" {
			oj.Layout = NewLayoutJSON(op.Layout, op.Notation)
		}
		j.Operands[op.Name] = oj
	}
	return j
}
