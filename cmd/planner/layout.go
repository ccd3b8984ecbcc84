package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/tomlio"
)

func newLayoutCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "layout",
		Short: "show, translate and compare distributed layouts",
		Long: `A layout file is TOML: shape, subgroup_size (lanes), subgroups, optionally
blocks and dtype, and a [layout] table whose notation key is one of
nested (IREE), xegpu (MLIR XeGPU), blocked (Triton), linear (bases), cute
(CuTe), table (explicit rows) or triton (a Triton encoding attribute, as
encoding = "#ttg.nvidia_mma<{...}>"). See docs/layouts.md.`,
	}
	cmd.AddCommand(newLayoutShowCmd(), newLayoutConvertCmd(), newLayoutDiffCmd())
	return cmd
}

func newLayoutShowCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "show FILE",
		Short: "draw a layout: which subgroup, lane and value hold each element",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lf, err := tomlio.ReadLayoutFile(args[0])
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch format {
			case "text":
				return plans.WriteLayoutText(out, lf.Layout, lf.Notation)
			case "svg":
				return plans.WriteLayoutSVG(out, lf.Layout, lf.Notation)
			case "json":
				return plans.WriteLayoutJSON(out, lf.Layout, lf.Notation)
			}
			return badFlag("format", format, "text", "svg", "json")
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, svg or json")
	return cmd
}

func badFlag(name, value string, allowed ...string) error {
	return &model.Error{Code: model.CodeBadValue, Index: -1,
		Msg: fmt.Sprintf("--%s %q: expected one of %s", name, value, strings.Join(allowed, ", "))}
}

func newLayoutConvertCmd() *cobra.Command {
	var to, format string
	cmd := &cobra.Command{
		Use:   "convert --to NOTATION FILE",
		Short: "write a layout in another notation, or say what stands in the way",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if to == "" {
				return badFlag("to", to, notation.Kinds...)
			}
			lf, err := tomlio.ReadLayoutFile(args[0])
			if err != nil {
				return err
			}
			n, err := notation.Express(to, lf.Layout)
			if err != nil {
				if e, ok := err.(*model.Error); ok {
					c := *e
					c.Pos = model.Pos{File: args[0]}
					return &c
				}
				return err
			}
			out := cmd.OutOrStdout()
			switch format {
			case "toml":
				return tomlio.WriteLayoutFile(out, lf.Frame, lf.DType, n)
			case "attr":
				_, err := fmt.Fprintln(out, strings.TrimRight(n.Attr(), "\n"))
				return err
			}
			return badFlag("format", format, "toml", "attr")
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "target notation: "+strings.Join(notation.Kinds, ", "))
	cmd.Flags().StringVar(&format, "format", "toml", "toml (a layout file) or attr (the compiler's attribute syntax)")
	return cmd
}

func newLayoutDiffCmd() *cobra.Command {
	var dtype, format, target string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "the cheapest conversion from layout A to layout B, in words and numbers",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := tomlio.ReadLayoutFile(args[0])
			if err != nil {
				return err
			}
			b, err := tomlio.ReadLayoutFile(args[1])
			if err != nil {
				return err
			}
			dt, err := diffDType(dtype, a, b)
			if err != nil {
				return err
			}
			c, err := model.Analyze(a.Layout, b.Layout, dt.Bits)
			if err != nil {
				if e, ok := err.(*model.Error); ok {
					d := *e
					d.Pos = model.Pos{File: args[1]}
					return &d
				}
				return err
			}
			if target != "" {
				pl, err := newPlanner(cmd, nil)
				if err != nil {
					return err
				}
				t, ok := pl.Records.Target(target)
				if !ok {
					return badFlag("target", target, pl.Records.TargetNames()...)
				}
				if n := a.Layout.Size(model.Lane); n != t.SubgroupSize {
					return fmt.Errorf("--target %s: its subgroups have %d lanes, the layouts' %d", target, t.SubgroupSize, n)
				}
				// As the target's compiler lowers it: a shuffle it does
				// through shared memory, and the round trip's accesses
				// counted on its banks.
				model.LowerShuffles(c, a.Layout, b.Layout, t)
				model.CountScratch(c, a.Layout, b.Layout, t, nil)
			}
			out := cmd.OutOrStdout()
			switch format {
			case "text":
				return writeDiffText(out, a, b, dt, c)
			case "json":
				return plans.WriteDocument(out, plans.NewConversionJSON(args[0], args[1], dt, c))
			}
			return badFlag("format", format, "text", "json")
		},
	}
	cmd.Flags().StringVar(&dtype, "dtype", "", "element type (default: the files' dtype, else f32)")
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	cmd.Flags().StringVar(&target, "target", "", "price it as this target's compiler lowers it (shuffle_transpositions); default: the layouts alone")
	return cmd
}

// diffDType picks the element type: the flag, else the files' (which must
// agree), else f32.
func diffDType(flag string, a, b *tomlio.LayoutFile) (model.DType, error) {
	if flag != "" {
		dt, ok := model.ParseDType(flag)
		if !ok {
			return dt, badFlag("dtype", flag, model.DTypeNames()...)
		}
		return dt, nil
	}
	switch {
	case a.DType.Name != "" && b.DType.Name != "" && a.DType.Bits != b.DType.Bits:
		return model.DType{}, &model.Error{Pos: model.Pos{File: b.File}, Code: model.CodeIncompatible, Index: -1,
			Msg: fmt.Sprintf("dtype %s differs from %s's %s; give --dtype", b.DType.Name, a.File, a.DType.Name)}
	case a.DType.Name != "":
		return a.DType, nil
	case b.DType.Name != "":
		return b.DType, nil
	}
	dt, _ := model.ParseDType("f32")
	return dt, nil
}

func writeDiffText(w io.Writer, a, b *tomlio.LayoutFile, dt model.DType, c *model.Conversion) error {
	var s strings.Builder
	fmt.Fprintf(&s, "from %s: %s", a.File, plans.Header(a.Layout, a.Notation))
	fmt.Fprintf(&s, "to   %s: %s", b.File, plans.Header(b.Layout, b.Notation))
	fmt.Fprintf(&s, "element type %s (%d bits)\n", dt.Name, dt.Bits)
	s.WriteString(plans.DescribeConversion(c))
	_, err := io.WriteString(w, s.String())
	return err
}
