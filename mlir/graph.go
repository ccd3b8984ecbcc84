package mlir

import "planner/mlir/ir"

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"planner/model"
)

// Options say how to read a kernel graph from MLIR.
type Options struct {
	// Func names the func.func to read (without @); "" reads the only one.
	Func string
	// Target and Subgroups give the target and the subgroup count where
	// the IR states none, or override what it states (0, "": take the
	// IR's).
	Target    string
	Subgroups int
	// Trips is the trip count assumed for a loop whose bounds are not
	// constants (0: such a loop is an error); plans say it was assumed.
	Trips int
	// Targets are the targets the planner knows.
	Targets map[string]*model.Target
	// KeepAnchors pins, in TTGIR, the results of tt.load and tt.dot, the
	// operands of tt.dot and the access of tt.store to the encodings the
	// IR gives them; without it the planner chooses them.
	KeepAnchors bool
	// InputLayouts pins, in TTGIR, every tensor to the encoding the IR
	// gives it, each ttg.convert_layout a conversion between its
	// operand's encoding and its result's: the input's own layout
	// choice, to be priced (planner solve --compare input).
	InputLayouts bool
	// Offered lists the records a target offers, which the matrix ops
	// of the gpu, nvgpu and amdgpu dialects are matched against (their
	// intrinsic); nil where the kernel is read without them.
	Offered func(t *model.Target) ([]*model.Record, error)
}

// ReadGraph reads MLIR text and builds the kernel graph of one of its
// functions: every vector value a model value and every op on vectors an op
// of the op table, positioned at its file:line:col.
func ReadGraph(file string, data []byte, opt Options) (*model.Graph, error) {
	k, err := ReadKernel(file, data, opt)
	if err != nil {
		return nil, err
	}
	return k.Graph(), nil
}

// Kernel is a kernel read once: its text, the module parsed from it, the
// graph of the function the options name and the map between the two,
// which the writer writes a plan back through (Kernel.Write) without
// reading the text again.
type Kernel struct {
	src string
	b   *builder
}

// ReadKernel reads MLIR text and builds the graph of one of its
// functions, keeping what maps the IR onto it.
func ReadKernel(file string, data []byte, opt Options) (*Kernel, error) {
	m, err := ir.Parse(file, data)
	if err != nil {
		return nil, err
	}
	b, err := build(m, opt)
	if err != nil {
		return nil, err
	}
	return &Kernel{src: string(data), b: b}, nil
}

// Graph is the graph of the kernel's function.
func (k *Kernel) Graph() *model.Graph { return k.b.g }

// Module is the module the kernel's text parses to.
func (k *Kernel) Module() *ir.Module { return k.b.mod }

// Text is the kernel's text as read.
func (k *Kernel) Text() string { return k.src }

// BuildGraph builds the graph of the function opt.Func names.
func BuildGraph(m *ir.Module, opt Options) (*model.Graph, error) {
	b, err := build(m, opt)
	if err != nil {
		return nil, err
	}
	return b.g, nil
}

// build builds the graph of the function opt.Func names, keeping what
// maps the IR onto it (for writing a plan back into the IR).
func build(m *ir.Module, opt Options) (*builder, error) {
	funcs := ir.Funcs(m)
	top := model.Pos{File: m.File, Line: 1, Col: 1}
	var names []string
	for _, f := range funcs {
		names = append(names, "@"+ir.FuncName(f))
	}
	var fn *ir.Op
	switch {
	case len(funcs) == 0:
		return nil, &model.Error{Pos: top, Code: model.CodeMissingKey, Index: -1, Msg: "the file has no func.func: the planner reads a kernel written as a function"}
	case opt.Func != "":
		for _, f := range funcs {
			if ir.FuncName(f) == strings.TrimPrefix(opt.Func, "@") {
				fn = f
			}
		}
		if fn == nil {
			return nil, &model.Error{Pos: top, Code: model.CodeUnknownName, Index: -1,
				Msg: fmt.Sprintf("the file has no function @%s (its functions: %s)", strings.TrimPrefix(opt.Func, "@"), strings.Join(names, ", "))}
		}
	case len(funcs) > 1:
		return nil, &model.Error{Pos: funcs[1].Pos, Code: model.CodeBadValue, Index: -1,
			Msg: fmt.Sprintf("the file has %d functions (%s): name the kernel with --func NAME", len(funcs), strings.Join(names, ", "))}
	default:
		fn = funcs[0]
	}
	if len(fn.Regions) == 0 || len(fn.Regions[0].Blocks) == 0 {
		return nil, &model.Error{Pos: fn.Pos, Code: model.CodeMissingKey, Index: -1, Msg: fmt.Sprintf("@%s is a declaration: the planner reads a function with a body", ir.FuncName(fn))}
	}
	b := &builder{
		mod: m, fn: fn, opt: opt,
		g:        &model.Graph{File: m.File},
		vals:     map[*ir.Value]*model.Value{},
		ints:     map[*ir.Value]int64{},
		mems:     map[*ir.Value]*memInfo{},
		bufs:     map[*ir.Value]*model.Buffer{},
		folded:   map[*ir.Value]*model.Value{},
		unsq:     map[*ir.Value]*unsqueeze{},
		scalars:  map[*model.Value]bool{},
		failed:   map[*ir.Value]bool{},
		names:    map[string]bool{},
		opNames:  map[string]bool{},
		over:     map[*ir.Operand]*model.Value{},
		tdescs:   map[*ir.Value]*tdesc{},
		moved:    map[*ir.Op]*model.Value{},
		free:     map[*ir.Value]bool{},
		freeUse:  map[*ir.Operand]*model.Value{},
		encs:     map[string]*encInfo{},
		encErrs:  map[string]bool{},
		made:     map[*ir.Op][]*model.Op{},
		descs:    map[*ir.Value]*memDesc{},
		lane:     map[*ir.Value]bool{},
		laneMMAs: map[*ir.Op]laneMMA{},
		tt:       IsTTGIR(m),
	}
	if b.tt {
		b.ttContext()
		b.markFree(fn)
	} else {
		b.context()
	}
	if len(b.errs) > 0 {
		b.errs.Sort()
		return nil, b.errs
	}
	b.body(fn.Regions[0].Blocks[0])
	b.finish()
	if len(b.errs) > 0 {
		b.errs.Sort()
		return nil, b.errs
	}
	return b, nil
}

// memInfo is what the reader knows of a memref value: where it lives and,
// for shared memory, the buffer its accesses make.
type memInfo struct {
	space string // "global" or "shared"
	typ   *ir.MemRefType
}

// unsqueeze is a shape_cast that only puts dimensions of extent 1 into
// a value, read into the broadcast that grows them.
type unsqueeze struct {
	src      *model.Value
	inserted []int // the new dimensions of extent 1, in the cast's shape
}

type builder struct {
	mod    *ir.Module
	fn     *ir.Op
	opt    Options
	g      *model.Graph
	target *model.Target
	// vals maps each vector value to the graph's value; ints the integer
	// constants (for loop bounds); mems the memrefs; bufs the shared
	// buffers by memref.
	vals map[*ir.Value]*model.Value
	ints map[*ir.Value]int64
	mems map[*ir.Value]*memInfo
	bufs map[*ir.Value]*model.Buffer
	// folded are values the graph reads as another: an extf an mma
	// widens itself, a vector constant only a reduction's identity init
	// uses (nil), a to_layout's result.
	folded map[*ir.Value]*model.Value
	unsq   map[*ir.Value]*unsqueeze
	// scalars are graph values of shape [1] that stand for a scalar (a
	// vector.reduction's result).
	scalars map[*model.Value]bool
	// failed are the values whose op's error is reported: their uses are
	// not reported again.
	failed  map[*ir.Value]bool
	errs    model.ErrorList
	names   map[string]bool // every graph value's name
	opNames map[string]bool
	loop    *model.Loop
	depth   int
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
	// tt is set for a TTGIR kernel (ttgir.go): tensors play the part of
	// vectors. free are its tensors made at each use (index and pointer
	// arithmetic, splats, constants), freeUse the constant each use of
	// one reads; encs the encodings read, by spelling and shape; descs
	// the shared-memory descriptors.
	tt      bool
	free    map[*ir.Value]bool
	freeUse map[*ir.Operand]*model.Value
	encs    map[string]*encInfo
	encErrs map[string]bool // the encodings' mistakes reported
	// converts counts the ttg.convert_layout ops of computed tensors
	// read: the input's own conversions, which bound the plan's by
	// default.
	converts int
	// cur is the op being read; made the graph ops each op was read into.
	cur   *ir.Op
	made  map[*ir.Op][]*model.Op
	descs map[*ir.Value]*memDesc
	// recs are the records the target offers, once a matrix op asked
	// (mma.go); lane the IR values that are each lane's share of a
	// subgroup's tile (mma_lane.go), laneMMAs the records of the
	// lane-level mma ops.
	recs     []*model.Record
	lane     map[*ir.Value]bool
	laneMMAs map[*ir.Op]laneMMA
}

func (b *builder) errorf(pos model.Pos, code model.Code, format string, args ...any) *model.Error {
	e := &model.Error{Pos: pos, Code: code, Index: -1, Msg: fmt.Sprintf(format, args...)}
	b.errs = append(b.errs, e)
	return e
}

// fail reports an error at op and marks its results failed.
func (b *builder) fail(op *ir.Op, code model.Code, format string, args ...any) *model.Error {
	for _, r := range op.Results {
		b.failed[r] = true
	}
	return b.errorf(op.Pos, code, format, args...)
}

// Where the target and the subgroup count come from.
var (
	archRE      = regexp.MustCompile(`\b(arch|chip)\s*=\s*"([^"]*)"`)
	wgSizeRE    = regexp.MustCompile(`\bworkgroup_size\s*=\s*\[([^\]]*)\]`)
	sgSizeRE    = regexp.MustCompile(`\bsubgroup_size\s*=\s*(\d+)`)
	sgSizeDefRE = regexp.MustCompile(`^\d+$`)
)

// stated is something the IR states, where it states it.
type stated struct {
	value string
	pos   model.Pos
	what  string // the attribute that states it
}

// holders are the function and every op around it, innermost first:
// the ops whose attributes say what the kernel runs on.
func (b *builder) holders() []*ir.Op {
	var out []*ir.Op
	for op := b.fn; op != nil; {
		out = append(out, op)
		if op.Parent == nil || op.Parent.Region == nil {
			break
		}
		op = op.Parent.Region.Parent
	}
	return out
}

// context sets the graph's target and subgroup count from the flags or
// from what the IR states, and says where each came from.
func (b *builder) context() {
	g := b.g
	holders := b.holders()
	var archs []stated
	var threads, sgSize *stated
	for _, h := range holders {
		for _, list := range [][]*ir.NamedAttr{h.Props, h.Attrs} {
			for _, na := range list {
				// The aliases a dialect attribute's body names are read
				// through: IREE's printer names the target by alias
				// (#hal.executable.target<..., {iree_codegen.target_info
				// = #target}>).
				text := b.expand(na.Value, 0)
				b.iree = b.iree || strings.Contains(text, "#iree_")
				for _, m := range archRE.FindAllStringSubmatch(text, -1) {
					if !slices.ContainsFunc(archs, func(s stated) bool { return s.value == m[2] }) {
						archs = append(archs, stated{m[2], na.Pos, na.Name})
					}
				}
				if da, ok := na.Value.(*ir.DialectAttr); ok && strings.HasSuffix(da.Name, "translation_info") {
					if m := wgSizeRE.FindStringSubmatch(da.Body); m != nil && threads == nil {
						threads = &stated{m[1], na.Pos, "translation_info's workgroup_size"}
					}
					if m := sgSizeRE.FindStringSubmatch(da.Body); m != nil && sgSize == nil {
						sgSize = &stated{m[1], na.Pos, "translation_info's subgroup_size"}
					}
				}
				switch na.Name {
				case "gpu.known_block_size", "known_block_size", "workgroup_size":
					if threads == nil {
						if s := intsText(na.Value); s != "" {
							threads = &stated{s, na.Pos, na.Name}
						}
					}
				case "subgroup_size", "gpu.known_subgroup_size", "intel_reqd_sub_group_size":
					if sgSize == nil {
						if ia, ok := na.Value.(*ir.IntAttr); ok && sgSizeDefRE.MatchString(ia.Text) {
							sgSize = &stated{ia.Text, na.Pos, na.Name}
						}
					}
				}
			}
		}
	}
	switch {
	case b.opt.Target != "":
		g.Target = b.opt.Target
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from --target", g.Target))
	case len(archs) > 1:
		e := b.errorf(archs[1].pos, model.CodeDuplicate, "the IR names two targets, %q (%s at %s) and %q (%s): name the one to plan for with --target", archs[0].value, archs[0].what, archs[0].pos, archs[1].value, archs[1].what)
		e.Related = []model.Pos{archs[0].pos}
		return
	case len(archs) == 1:
		g.Target, g.TargetPos = archs[0].value, archs[0].pos
		g.Provenance = append(g.Provenance, fmt.Sprintf("target %s from %s at %s", g.Target, archs[0].what, archs[0].pos))
	default:
		b.errorf(b.fn.Pos, model.CodeMissingKey, "the IR names no target (an #iree_gpu.target<arch = ...> or a chip = \"...\" attribute): give --target NAME (known: %s)", b.knownTargets())
		return
	}
	t := b.lookupTarget()
	if t == nil {
		return
	}
	switch {
	case b.opt.Subgroups > 0:
		g.Subgroups = b.opt.Subgroups
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d from --subgroups", g.Subgroups))
	case threads != nil:
		n, ok := product(threads.value)
		if !ok {
			b.errorf(threads.pos, model.CodeBadValue, "%s [%s] is not a list of positive sizes", threads.what, threads.value)
			return
		}
		size, from := t.SubgroupSize, fmt.Sprintf("%s's subgroup size", t.Name)
		if sgSize != nil {
			size, _ = strconv.Atoi(sgSize.value)
			from = fmt.Sprintf("%s at %s", sgSize.what, sgSize.pos)
			if size != t.SubgroupSize {
				b.errorf(sgSize.pos, model.CodeIncompatible, "the IR states %s = %d, but %s's subgroups have %d lanes: give --target a target of %d lanes", sgSize.what, size, t.Name, t.SubgroupSize, size)
				return
			}
		}
		if size < 1 || n%size != 0 {
			b.errorf(threads.pos, model.CodeBadValue, "%s [%s] gives %d threads, not a whole number of %d-lane subgroups", threads.what, threads.value, n, size)
			return
		}
		g.Subgroups, g.SubgroupsPos = n/size, threads.pos
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups %d: %d threads (%s [%s] at %s) in subgroups of %d lanes (%s)", g.Subgroups, n, threads.what, threads.value, threads.pos, size, from))
	case b.subgroupOp() != nil:
		// A function of subgroup-level matrix ops (WMMA, ldmatrix,
		// mma.sync, mfma) is one subgroup's work.
		mo := b.subgroupOp()
		g.Subgroups = 1
		g.Provenance = append(g.Provenance, fmt.Sprintf("subgroups 1: the IR states no workgroup size, and %s at %s is one subgroup's work", mo.Name, mo.Pos))
	default:
		b.errorf(b.fn.Pos, model.CodeMissingKey, "the IR states no workgroup size (an IREE translation_info with workgroup_size, or gpu.known_block_size): give --subgroups N")
		return
	}
	b.checkSubgroups()
}

// knownTargets lists the targets the planner knows, for messages.
func (b *builder) knownTargets() string {
	var ks []string
	for k := range b.opt.Targets {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ", ")
}

// lookupTarget sets the builder's target to the graph's; nil (reported)
// when the planner does not know it.
func (b *builder) lookupTarget() *model.Target {
	g := b.g
	t, ok := b.opt.Targets[g.Target]
	if !ok {
		at := g.TargetPos
		if at.Line == 0 {
			at = b.fn.Pos
		}
		b.errorf(at, model.CodeUnknownName, "unknown target %q (known: %s)", g.Target, b.knownTargets())
		return nil
	}
	b.target = t
	return t
}

// checkSubgroups checks the graph's subgroup count: a power of two within
// the target's limit.
func (b *builder) checkSubgroups() {
	g, t := b.g, b.target
	at := g.SubgroupsPos
	if at.Line == 0 {
		at = b.fn.Pos
	}
	switch n := g.Subgroups; {
	case n&(n-1) != 0:
		b.errorf(at, model.CodeNotPowerOfTwo, "%d subgroups is not a power of two: a layout gives each bit of the subgroup id a basis, so a block has 1, 2, 4, 8, ... subgroups", n)
	case n > t.MaxSubgroups:
		b.errorf(at, model.CodeBadValue, "%s allows at most %d subgroups per block, found %d", t.Name, t.MaxSubgroups, n)
	}
}

// intsText gives an integer list attribute's entries, comma-separated
// (as translation_info's text states them), or "".
func intsText(a ir.Attr) string {
	xs, ok := intsOf(a)
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
