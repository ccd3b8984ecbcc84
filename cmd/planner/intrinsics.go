package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"planner/intrinsics"
	"planner/model"
	"planner/plans"
)

func newIntrinsicsCmd(records *[]string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "intrinsics",
		Short: "list, draw and check intrinsic records",
	}
	cmd.AddCommand(newIntrinsicsListCmd(records), newIntrinsicsShowCmd(records), newIntrinsicsCheckCmd(), newIntrinsicsTargetsCmd(records))
	return cmd
}

func newIntrinsicsTargetsCmd(records *[]string) *cobra.Command {
	return &cobra.Command{
		Use:   "targets",
		Short: "list the targets: lanes per subgroup, subgroups, shared memory, banks and records",
		Long: `Lists every target the records define (the built-in ones and those of
--records), one row each: its vendor, the lanes of a subgroup (warp,
wavefront, Intel subgroup), the most subgroups a block may have, the shared
memory a block may use, the banks (count x width), how many records it
offers (` + "`planner intrinsics list --target T`" + ` lists them) and the target it
extends, if any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := intrinsics.Load(*records...)
			if err != nil {
				return err
			}
			return writeTargetList(cmd.OutOrStdout(), lib)
		},
	}
}

func writeTargetList(w io.Writer, lib *intrinsics.Library) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVENDOR\tLANES\tSUBGROUPS\tSHARED MEMORY\tBANKS\tREGISTERS\tRECORDS\tEXTENDS")
	for _, n := range lib.TargetNames() {
		t := lib.Targets[n]
		shared := fmt.Sprintf("%d B", t.SharedMemory)
		if t.SharedMemory%1024 == 0 {
			shared = fmt.Sprintf("%d KiB", t.SharedMemory/1024)
		}
		extends := t.Extends
		if extends == "" {
			extends = "-"
		}
		regs := "-"
		switch {
		case t.Registers > 0 && t.RegisterFile > 0:
			regs = fmt.Sprintf("%d per lane, %d per block", t.Registers, t.RegisterFile)
		case t.Registers > 0:
			regs = fmt.Sprintf("%d per lane", t.Registers)
		case t.RegisterFile > 0:
			regs = fmt.Sprintf("%d per block", t.RegisterFile)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d x %d B\t%s\t%d\t%s\n", t.Name, t.Vendor, t.SubgroupSize, t.MaxSubgroups, shared, t.Banks, t.BankBytes, regs, len(t.Records), extends)
	}
	return tw.Flush()
}

func newIntrinsicsListCmd(records *[]string) *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "list the intrinsic records, or those one target offers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := intrinsics.Load(*records...)
			if err != nil {
				return err
			}
			var names []string
			if target != "" {
				t, ok := lib.Target(target)
				if !ok {
					return fmt.Errorf("unknown target %q (known: %s)", target, strings.Join(lib.TargetNames(), ", "))
				}
				names = t.Records
			} else {
				names = lib.RecordNames()
			}
			return writeRecordList(cmd.OutOrStdout(), lib, names)
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "only the records this target offers")
	return cmd
}

func writeRecordList(w io.Writer, lib *intrinsics.Library, names []string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tVENDOR\tLANES\tSHAPE\tTYPES\tTARGETS")
	for _, n := range names {
		r := lib.Records[n]
		lanes := fmt.Sprint(r.SubgroupSize)
		if r.Subgroups > 1 {
			lanes = fmt.Sprintf("%dx%d", r.Subgroups, r.SubgroupSize)
		}
		var shape, types string
		if r.Kind == model.RecordMMA {
			shape = fmt.Sprintf("%dx%dx%d", r.M, r.N, r.K)
			if r.Blocks > 1 {
				shape += fmt.Sprintf(" x%d blocks", r.Blocks)
			}
			var ts []string
			for _, op := range plans.RecordOperands(r) {
				if op.Name != "c" {
					ts = append(ts, op.DType.Name)
				}
			}
			types = strings.Join(ts, ",")
		} else if f := r.Fragment; f != nil {
			shape = strings.Trim(strings.ReplaceAll(fmt.Sprint(f.Shape), " ", "x"), "[]")
			if r.Matrices > 1 {
				shape += fmt.Sprintf(" x%d", r.Matrices)
			}
			types = f.DType.Name
		} else {
			shape = fmt.Sprintf("%d B/lane", r.Memory.Bytes)
		}
		offered := strings.Join(lib.OfferedBy(n), ",")
		if offered == "" {
			offered = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, r.Kind, r.Vendor, lanes, shape, types, offered)
	}
	return tw.Flush()
}

func newIntrinsicsShowCmd(records *[]string) *cobra.Command {
	var format, operand string
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "describe a record and draw each operand's layout",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := intrinsics.Load(*records...)
			if err != nil {
				return err
			}
			r, ok := lib.Records[args[0]]
			if !ok {
				return fmt.Errorf("unknown record %q; `planner intrinsics list` lists them", args[0])
			}
			out := cmd.OutOrStdout()
			offered := lib.OfferedBy(r.Name)
			switch format {
			case "text":
				return plans.WriteRecordText(out, r, offered)
			case "json":
				return plans.WriteRecordJSON(out, r, offered)
			case "svg":
				ds, err := svgOperands(r, operand)
				if err != nil {
					return err
				}
				return plans.WriteLayoutsSVG(out, ds...)
			}
			return badFlag("format", format, "text", "svg", "json")
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, svg or json")
	cmd.Flags().StringVar(&operand, "operand", "", "with --format svg: the one operand to draw (a, b, c, d, scale_a, scale_b or fragment; default: every operand with a layout)")
	return cmd
}

// svgOperands lists the drawings of a record's SVG picture: the operand
// named, or, with no name, every operand with a layout to draw.
func svgOperands(r *model.Record, name string) ([]plans.SVGDrawing, error) {
	var drawn []string
	var all []plans.SVGDrawing
	for _, op := range plans.RecordOperands(r) {
		if op.Layout == nil || op.Layout.Opaque() != "" {
			continue
		}
		d := plans.SVGDrawing{Caption: fmt.Sprintf("%s: operand %s", r.Name, op.Name), Layout: op.Layout, Notation: op.Notation}
		if op.Name == name {
			return []plans.SVGDrawing{d}, nil
		}
		drawn = append(drawn, op.Name)
		all = append(all, d)
	}
	switch {
	case len(drawn) == 0:
		return nil, fmt.Errorf("record %s has no operand with a layout to draw", r.Name)
	case name == "":
		return all, nil
	}
	return nil, fmt.Errorf("record %s has no operand %q with a layout (operands with layouts: %s)", r.Name, name, strings.Join(drawn, ", "))
}

func newIntrinsicsCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE|DIR...",
		Short: "check new records and targets: schema, shapes, coverage, packing, subgroup sizes, memory rules",
		Long: `Checks record and target files (a file, or a folder searched recursively) as a
linter: every finding is printed as file:line:col: [rule] message, where the
rule is one of the record rules (record-shape, record-coverage, record-packing,
record-subgroup, record-memory) or a schema rule (unknown-key, missing-key,
bad-type, bad-value, unknown-name, ...). Records are checked against the
built-in targets that offer them. Exit code 1 when there is any finding.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, errs := intrinsics.Check(args...)
			if len(errs) > 0 {
				return findings(errs)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s and %s checked: no findings\n", plural(len(lib.Records), "record"), plural(len(lib.Targets), "target"))
			return nil
		},
	}
}

// findings is a checker's report: each error with its rule.
type findings model.ErrorList

func (f findings) Error() string {
	var b strings.Builder
	for i, e := range f {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.Pos.Line > 0 || e.Pos.File != "" {
			fmt.Fprintf(&b, "%s: ", e.Pos)
		}
		fmt.Fprintf(&b, "[%s] %s", e.Code, e.Msg)
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
