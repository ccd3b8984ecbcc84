package planfile

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/tomlio"
)

// Write writes plan p as TOML: everything the text shows, and
// everything a replay needs to rebuild the plan's choices without
// searching again (planner verify): the graph file with its SHA-256, every
// value's layout exactly (an "exact" table in layout-file form: frame
// keys, then a [layout] table in the linear notation, or in cute or table
// form where linear cannot write it), every mma's arrangement as
// numbers, every execution layout, every buffer's placement keys as a
// graph writes them, and every conversion's required layout and claimed
// mechanism.
func Write(w io.Writer, p *plans.Plan) error {
	var b strings.Builder
	q := strconv.Quote
	if p.NotVerified != "" {
		fmt.Fprintf(&b, "# not verified: %s\n", p.NotVerified)
	}
	fmt.Fprintf(&b, "file = %s\n", q(p.File))
	if p.GraphHash != "" {
		fmt.Fprintf(&b, "graph_sha256 = %s\n", q(p.GraphHash))
	}
	fmt.Fprintf(&b, "target = %s\nsubgroups = %d\nnotation = %s\nstatus = %s\ncost = %d\nlower_bound = %d\n",
		q(p.Target), p.Subgroups, q(p.Notation), q(p.Status), p.Cost, p.LowerBound)
	switch {
	case p.ConversionBound != nil:
		fmt.Fprintf(&b, "max_conversions = %d\n", p.ConversionBound.Max)
	case p.ConversionBoundLifted:
		b.WriteString("max_conversions = \"none\"\n")
	}
	fmt.Fprintf(&b, "\n[shared_memory]\nbuffers = %d\nscratch = %d\nbudget = %d\n", p.Shared.Buffers, p.Shared.Scratch, p.Shared.Budget)
	fmt.Fprintf(&b, "\n[registers]\npeak = %d\nat = %s\nbudget = %d\n", p.Registers.Peak, q(p.Registers.At), p.Registers.Budget)
	if p.Registers.Over > 0 {
		fmt.Fprintf(&b, "over = %d\n", p.Registers.Over)
	}
	if p.Registers.SpillCost > 0 {
		fmt.Fprintf(&b, "spill_cost = %d\n", p.Registers.SpillCost)
	}
	for _, bp := range p.Shared.Placed {
		fmt.Fprintf(&b, "\n[buffers.%s]\nshape = %s\ndtype = %s\nplacement = %s\nlayout = %s\nformula = %s\nbytes = %d\n",
			q(bp.Name), tomlio.IntArray(bp.Shape), q(bp.DType), q(bp.Placement), q(bp.Layout), q(bp.Formula), bp.Bytes)
		writePlacement(&b, bp.SharedLayout())
		for _, a := range bp.Accesses {
			fmt.Fprintf(&b, "\n[[buffers.%s.accesses]]\nop = %s\naccess = %s\nmethod = %s\ninstructions = %d\nwavefronts = %d\nideal = %d\nconflicts = %d\n",
				q(bp.Name), q(a.Op), q(a.Access), q(a.Method), a.Instructions, a.Wavefronts, a.Ideal, a.Conflicts)
		}
	}
	for _, v := range p.Values {
		fmt.Fprintf(&b, "\n[values.%s]\nshape = %s\ndtype = %s\nnotation = %s\nlayout = %s\n", q(v.Name), tomlio.IntArray(v.Shape), q(v.DType), q(v.Notation), q(v.Layout))
		writeExact(&b, "values."+q(v.Name)+".exact", v.Exact())
	}
	for _, o := range p.Ops {
		fmt.Fprintf(&b, "\n[ops.%s]\nkind = %s\ncost = %d\n", q(o.Name), q(o.Kind), o.Cost)
		for _, kv := range [][2]string{{"intrinsic", o.Intrinsic}, {"warps", o.Warps}, {"layout", o.Exec}, {"method", o.Method}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, "%s = %s\n", kv[0], q(kv[1]))
			}
		}
		if o.Lanes > 0 {
			fmt.Fprintf(&b, "lanes = %d\nsubgroups = %d\n", o.Lanes, o.Subgroups)
		}
		if o.WarpsM > 0 {
			fmt.Fprintf(&b, "warps_m = %d\nwarps_n = %d\nn_first = %v\nouter = %v\n", o.WarpsM, o.WarpsN, o.NFirst, o.Outer)
			if o.BlocksAlong != "" {
				fmt.Fprintf(&b, "blocks_along = %s\n", q(o.BlocksAlong))
			}
			if o.Transposed {
				b.WriteString("transposed = true\n")
			}
			if o.KWidth > 0 {
				fmt.Fprintf(&b, "k_width = %d\n", o.KWidth)
			}
			if o.KOrder != nil {
				fmt.Fprintf(&b, "k_order = %s\n", tomlio.IntArray(o.KOrder))
			}
			if o.WarpsB > 1 {
				fmt.Fprintf(&b, "warps_b = %d\n", o.WarpsB)
			}
		}
		writeExact(&b, "ops."+q(o.Name)+".exec", o.ExecLayout())
	}
	for _, c := range p.Conv {
		fmt.Fprintf(&b, "\n[[conversions]]\nvalue = %s\nconsumer = %s\noperand = %s\nkind = %s\ncost = %d\nfree = %v\ndetail = %s\nbecause = %s\nwhy = %s\n",
			q(c.Value), q(c.Consumer), q(c.Operand), q(c.Kind), c.Cost, c.Free, q(c.Detail), q(c.Because), q(c.Why))
		fmt.Fprintf(&b, "words = %d\nmoves = %d\nrounds = %d\n", c.Words, c.Moves, c.Rounds)
		if c.Kind == "shared" {
			fmt.Fprintf(&b, "scratch_bytes = %d\nscratch_order = %s\nscratch_pad = %d\nstore_vector = %d\nload_vector = %d\n",
				c.ScratchBytes, tomlio.IntArray(c.ScratchOrder), c.ScratchPad, c.StoreVector, c.LoadVector)
			if len(c.ScratchRow) > 0 {
				pairs := make([]string, len(c.ScratchRow))
				for i, d := range c.ScratchRow {
					pairs[i] = tomlio.IntArray([]int{d.Axis, d.Digit})
				}
				fmt.Fprintf(&b, "scratch_row = [%s]\n", strings.Join(pairs, ", "))
			}
		}
		writeExact(&b, "conversions.required", c.Required())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writePlacement writes a buffer placement's keys as a graph's [buffers]
// table takes them.
func writePlacement(b *strings.Builder, s *model.SharedLayout) {
	if s == nil {
		return
	}
	if s.Stride != 0 {
		fmt.Fprintf(b, "row_stride = %d\n", s.Stride)
	}
	if s.PadEvery > 0 {
		fmt.Fprintf(b, "pad = %d\npad_every = %d\n", s.Pad, s.PadEvery)
	}
	if s.Swizzle != "" && s.Swizzle != "none" {
		fmt.Fprintf(b, "swizzle = %q\n", s.Swizzle)
	}
	if x := s.XOR; x.Bits > 0 {
		fmt.Fprintf(b, "xor = [%d, %d, %d]\n", x.Bits, x.Base, x.Shift)
	}
	if s.ColumnMajor {
		fmt.Fprintf(b, "column_major = true\n")
	}
	if s.ColumnBlocks() > 1 {
		fmt.Fprintf(b, "column_block = %d\n", s.ColumnBlock)
	}
}

// writeExact writes layout l as the table header: the frame keys, then
// a [header.layout] table in the first notation of linear, cute and
// table that can write it.
func writeExact(b *strings.Builder, header string, l *model.Layout) {
	if l == nil {
		return
	}
	if l.InShared() {
		// Left in shared memory: no register holds it.
		fmt.Fprintf(b, "\n[%s]\nshape = %s\nin_shared = true\n", header, tomlio.IntArray(l.Shape()))
		return
	}
	if l.Opaque() != "" {
		// A fragment of unspecified lanes: its family and its tiles.
		f := model.FrameOf(l)
		fmt.Fprintf(b, "\n[%s]\nshape = %s\nsubgroup_size = %d\nsubgroups = %d\nfamily = %s\n", header, tomlio.IntArray(f.Shape), f.SubgroupSize, f.Subgroups, strconv.Quote(l.Opaque()))
		writeExact(b, header+".tiles", l.Tiles())
		return
	}
	for _, k := range []string{"linear", "cute", "table"} {
		n, err := notation.Express(k, l)
		if err != nil {
			continue
		}
		f := model.FrameOf(l)
		fmt.Fprintf(b, "\n[%s]\nshape = %s\nsubgroup_size = %d\nsubgroups = %d\n", header, tomlio.IntArray(f.Shape), f.SubgroupSize, f.Subgroups)
		if f.Blocks > 1 {
			fmt.Fprintf(b, "blocks = %d\n", f.Blocks)
		}
		fmt.Fprintf(b, "\n[%s.layout]\n", header)
		tomlio.WriteNotation(b, n)
		return
	}
}
