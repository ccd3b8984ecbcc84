package vector

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
)

// memInfo is what the reader knows of a memref value: where it lives and,
// for shared memory, the buffer its accesses make.
type memInfo struct {
	space string // "global" or "shared"
	typ   *ir.MemRefType
}

// builder reads a kernel in the vector dialect (with IREE's, XeGPU's and
// the gpu, nvgpu and amdgpu dialects' matrix ops).
type builder struct {
	*reader.Builder
	mems map[*ir.Value]*memInfo
	bufs map[*ir.Value]*model.Buffer
	// iree is set when the IR carries IREE's attributes (a
	// translation_info, an #iree_gpu.target): plans then write layouts in
	// IREE's nested notation.
	iree bool
	// xegpu is set when the IR has XeGPU ops or layouts: plans then write
	// layouts in XeGPU's notation, and --format mlir writes them as XeGPU
	// does (layout_result_N attributes, xegpu.convert_layout).
	xegpu bool
	// over are the graph values some operands read in place of their
	// value's own: the value anchored to a layout_operand_N's layout, or
	// to the layout of the tensor_desc a store_nd writes through.
	over map[*ir.Operand]*model.Value
	// tdescs are the tensor descriptors: the memref each describes a
	// block of.
	tdescs map[*ir.Value]*tdesc
	// moved are the graph values an XeGPU load_nd gives or a store_nd
	// writes, as they lie in the block (before a load's transpose), by op.
	moved map[*ir.Op]*model.Value
	// recs are the records the target offers, once a matrix op asked
	// (mma.go); lane the IR values that are each lane's share of a
	// subgroup's tile (mma_lane.go), laneMMAs the records of the
	// lane-level mma ops.
	recs     []*model.Record
	lane     map[*ir.Value]bool
	laneMMAs map[*ir.Op]laneMMA
	// madeAtAccess are the operands of accesses (a masked transfer's mask,
	// a gather's index vectors) that the lanes make in the access's own
	// layout (constants, create_mask, vector.step): the graph reads no
	// layout for them there, and the writer anchors none.
	madeAtAccess map[*ir.Operand]bool
}

// sgSizeDefRE reads a subgroup size attribute's integer: digits only.
var sgSizeDefRE = regexp.MustCompile(`^\d+$`)

// context sets the graph's target and subgroup count from the flags or
// from what the IR states, and says where each came from.
func (b *builder) context() {
	g := b.G
	holders := b.Holders()
	var archs []reader.Stated
	var threads, sgSize *reader.Stated
	for _, h := range holders {
		for _, list := range [][]*ir.NamedAttr{h.Props, h.Attrs} {
			for _, na := range list {
				// The aliases a dialect attribute's body names are read
				// as their values: IREE's printer names the target by
				// alias (#hal.executable.target<..., {iree_codegen.target_info
				// = #target}>).
				b.Mod.Fields(na.Value, func(f ir.Field) {
					switch {
					case f.Kind == ir.FieldDialect:
						b.iree = b.iree || strings.HasPrefix(f.Key, "iree_")
					case f.Kind == ir.FieldString && isArchKey(f.Key):
						if !slices.ContainsFunc(archs, func(s reader.Stated) bool { return s.Value == f.Value }) {
							archs = append(archs, reader.Stated{Value: f.Value, Pos: na.Pos, What: na.Name})
						}
					}
				})
				if da, ok := na.Value.(*ir.DialectAttr); ok && strings.HasSuffix(da.Name, "translation_info") {
					b.Mod.Fields(da, func(f ir.Field) {
						switch {
						case f.Key == "workgroup_size" && f.Kind == ir.FieldList && threads == nil:
							threads = &reader.Stated{Value: f.Value, Pos: na.Pos, What: "translation_info's workgroup_size"}
						case f.Key == "subgroup_size" && f.Kind == ir.FieldInt && sgSize == nil:
							sgSize = &reader.Stated{Value: f.Value, Pos: na.Pos, What: "translation_info's subgroup_size"}
						}
					})
				}
				switch na.Name {
				case "gpu.known_block_size", "known_block_size", "workgroup_size":
					if threads == nil {
						if s := intsText(na.Value); s != "" {
							threads = &reader.Stated{Value: s, Pos: na.Pos, What: na.Name}
						}
					}
				case "subgroup_size", "gpu.known_subgroup_size", "intel_reqd_sub_group_size":
					if sgSize == nil {
						if ia, ok := na.Value.(*ir.IntAttr); ok && sgSizeDefRE.MatchString(ia.Text) {
							sgSize = &reader.Stated{Value: ia.Text, Pos: na.Pos, What: na.Name}
						}
					}
				}
			}
		}
	}
	switch {
	case b.Opt.Target != "":
		g.Target = b.Opt.Target
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from --target", g.Target))
	case len(archs) > 1:
		e := b.Errorf(archs[1].Pos, model.CodeDuplicate, "the IR names two targets, %q (%s at %s) and %q (%s): name the one to plan for with --target", archs[0].Value, archs[0].What, archs[0].Pos, archs[1].Value, archs[1].What)
		e.Related = []model.Pos{archs[0].Pos}
		return
	case len(archs) == 1:
		g.Target, g.TargetPos = archs[0].Value, archs[0].Pos
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from %s at %s", g.Target, archs[0].What, archs[0].Pos))
	default:
		b.Errorf(b.Fn.Pos, model.CodeMissingKey, "the IR names no target (an #iree_gpu.target<arch = ...> or a chip = \"...\" attribute): give --target NAME (known: %s)", b.KnownTargets())
		return
	}
	t := b.LookupTarget()
	if t == nil {
		return
	}
	switch {
	case b.Opt.Subgroups > 0:
		g.Subgroups = b.Opt.Subgroups
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d from --subgroups", g.Subgroups))
	case threads != nil:
		n, ok := product(threads.Value)
		if !ok {
			b.Errorf(threads.Pos, model.CodeBadValue, "%s [%s] is not a list of positive sizes", threads.What, threads.Value)
			return
		}
		size, from := t.SubgroupSize, fmt.Sprintf("%s's subgroup size", t.Name)
		if sgSize != nil {
			size, _ = strconv.Atoi(sgSize.Value)
			from = fmt.Sprintf("%s at %s", sgSize.What, sgSize.Pos)
			if size != t.SubgroupSize {
				b.Errorf(sgSize.Pos, model.CodeIncompatible, "the IR states %s = %d, but %s's subgroups have %d lanes: give --target a target of %d lanes", sgSize.What, size, t.Name, t.SubgroupSize, size)
				return
			}
		}
		if size < 1 || n%size != 0 {
			b.Errorf(threads.Pos, model.CodeBadValue, "%s [%s] gives %d threads, not a whole number of %d-lane subgroups", threads.What, threads.Value, n, size)
			return
		}
		g.Subgroups, g.SubgroupsPos = n/size, threads.Pos
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d: %d threads (%s [%s] at %s) in subgroups of %d lanes (%s)", g.Subgroups, n, threads.What, threads.Value, threads.Pos, size, from))
	case b.subgroupOp() != nil:
		// A function of subgroup-level matrix ops (WMMA, ldmatrix,
		// mma.sync, mfma) is one subgroup's work.
		mo := b.subgroupOp()
		g.Subgroups = 1
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups 1: the IR states no workgroup size, and %s at %s is one subgroup's work", mo.Name, mo.Pos))
	default:
		b.Errorf(b.Fn.Pos, model.CodeMissingKey, "the IR states no workgroup size (an IREE translation_info with workgroup_size, or gpu.known_block_size): give --subgroups N")
		return
	}
	b.CheckSubgroups()
}

// intsText gives an integer list attribute's entries, comma-separated
// (as translation_info's text states them), or "".
func intsText(a ir.Attr) string {
	xs, ok := reader.IntsOf(a)
	if !ok {
		return ""
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// product multiplies a comma-separated list of positive integers.
func product(s string) (int, bool) {
	n := 1
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > 1<<16 {
			return 0, false
		}
		n *= v
		if n > 1<<20 {
			return 0, false
		}
	}
	return n, true
}

// Build reads fn of m, a kernel in the vector dialect, into its graph, kept with what
// writes a plan back into its text.
func Build(m *ir.Module, fn *ir.Op, opt reader.Options) (reader.Kernel, error) {
	b, err := build(m, fn, opt)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// build reads fn of m into its graph.
func build(m *ir.Module, fn *ir.Op, opt reader.Options) (*builder, error) {
	b := &builder{
		Builder:      reader.NewBuilder(m, fn, opt),
		mems:         map[*ir.Value]*memInfo{},
		bufs:         map[*ir.Value]*model.Buffer{},
		over:         map[*ir.Operand]*model.Value{},
		tdescs:       map[*ir.Value]*tdesc{},
		moved:        map[*ir.Op]*model.Value{},
		lane:         map[*ir.Value]bool{},
		laneMMAs:     map[*ir.Op]laneMMA{},
		madeAtAccess: map[*ir.Operand]bool{},
	}
	b.Front = b
	b.FreeArguments = true // docs/mlir.md: a vector argument no anchor pins is laid out by the plan
	b.context()
	if err := b.Err(); err != nil {
		return nil, err
	}
	entry := fn.Regions[0].Blocks[0]
	b.arguments(entry)
	b.Body(entry)
	b.finish()
	if err := b.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// Operand reads the operands an XeGPU layout or a descriptor's layout
// anchors (over) as their anchored values.
func (b *builder) Operand(o *ir.Operand) (*model.Value, bool) {
	mv := b.over[o]
	return mv, mv != nil
}

// Free reports false: the vector reader makes no value at each use.
func (b *builder) Free(v *ir.Value) bool { return false }

// Carry carries a lane's share and a tensor descriptor through a loop.
func (b *builder) Carry(in, arg, res *ir.Value) {
	if b.lane[in] {
		b.lane[arg], b.lane[res] = true, true
	}
	if d := b.tdescs[in]; d != nil {
		// A tensor descriptor the loop carries (moved on by
		// update_nd_offset): the same block on every trip.
		b.tdescs[arg], b.tdescs[res] = d, d
	}
}

// LaneShare reports whether v is a lane's share of a subgroup's tile.
func (b *builder) LaneShare(v *ir.Value) bool { return b.lane[v] }

// LaneConstant reads a constant lanes' shares are made of (laneConstant).
func (b *builder) LaneConstant(op *ir.Op, res *ir.Value) bool { return b.laneConstant(op, res) }

// LaneOperand is the tile an element-wise op on lanes' shares works on,
// its result then a lane's share too.
func (b *builder) LaneOperand(op *ir.Op, res *ir.Value) []int {
	tile := b.laneOperand(op)
	if tile != nil {
		b.lane[res] = true
	}
	return tile
}

// isArchKey reports whether key names a target's chip: arch, chip, or a
// dialect's (nvvm.chip).
func isArchKey(key string) bool {
	_, last, _ := cutLast(key, ".")
	return last == "arch" || last == "chip"
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", s, false
	}
	return s[:i], s[i+len(sep):], true
}
