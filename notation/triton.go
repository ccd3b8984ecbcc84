package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"planner/mlir/ir"
	"planner/model"
)

// The TritonGPU encodings read from MLIR's attribute trees (ir.AttrNode)
// into this package's encoding types: the encodings of a TTGIR kernel's tensors
// and buffers (mlir/ttgir), and those a layout or graph file writes as
// text (tomlio, through ParseTriton). Every error is at the field, value
// or attribute it is about.

// encErr is an error about an encoding at pos. A name or attribute of
// the input longer than maxQuoted is shown by its first clippedQuoted
// bytes and its length, not echoed whole (a layout file's string may be
// huge).
func encErr(pos model.Pos, code model.Code, format string, args ...any) *model.Error {
	for i, a := range args {
		if st, ok := a.(fmt.Stringer); ok {
			a = st.String()
		}
		if t, ok := a.(string); ok && len(t) > maxQuoted {
			args[i] = strings.ToValidUTF8(t[:clippedQuoted], "") + "… (" + strconv.Itoa(len(t)) + " bytes)"
		}
	}
	return &model.Error{Pos: pos, Code: code, Index: -1, Msg: fmt.Sprintf(format, args...)}
}

// The longest input text an error quotes whole, and how much of a longer
// one it shows (as model.ClipQuoted does).
const (
	maxQuoted     = 2048
	clippedQuoted = 160
)

// encFields is a node read field by field: the first error is kept, and
// every read after it is a no-op.
type encFields struct {
	n   *ir.AttrNode
	err *model.Error
}

func (f *encFields) fail(e *model.Error) {
	if f.err == nil {
		f.err = e
	}
}

// check holds n's keys to the encoding's known and required keys.
func (f *encFields) check(known, required []string) bool {
	n := f.n
	if slices.Contains(known, "CTAsPerCGA") {
		// Triton 3.9 writes the CTA layout as CGALayout = [[...]], block
		// bases in CTA tiles (CGAEncodingAttr); earlier Triton as
		// CTAsPerCGA, CTASplitNum and CTAOrder.
		known = append(slices.Clone(known), "CGALayout")
	}
	for _, e := range n.Entries {
		if !slices.Contains(known, e.Key) {
			f.fail(encErr(e.Pos, model.CodeUnknownName, "#%s.%s has no field %s (known: %s)", n.Dialect, n.Name, e.Key, strings.Join(known, ", ")))
			return false
		}
	}
	for _, k := range required {
		if n.Entry(k) == nil {
			f.fail(encErr(n.Pos, model.CodeMissingKey, "#%s.%s needs %s", n.Dialect, n.Name, k))
			return false
		}
	}
	return true
}

func (f *encFields) value(key string) *ir.AttrValue {
	if e := f.n.Entry(key); e != nil {
		return e.Value
	}
	return nil
}

func (f *encFields) int(key string, def int) int {
	v := f.value(key)
	if v == nil {
		return def
	}
	if v.Kind != ir.AttrInt {
		f.fail(encErr(v.Pos, model.CodeBadType, "%s must be an integer", key))
		return 0
	}
	return v.Int
}

func (f *encFields) bool(key string) bool {
	v := f.value(key)
	if v == nil {
		return false
	}
	if v.Kind != ir.AttrBool {
		f.fail(encErr(v.Pos, model.CodeBadType, "%s must be true or false", key))
		return false
	}
	return v.Bool
}

func (f *encFields) ints(key string) []int {
	v := f.value(key)
	if v == nil {
		return nil
	}
	xs, err := encInts(v, key)
	if err != nil {
		f.fail(err)
	}
	return xs
}

func encInts(v *ir.AttrValue, key string) ([]int, *model.Error) {
	if v.Kind != ir.AttrList {
		return nil, encErr(v.Pos, model.CodeBadType, "%s must be a list of integers", key)
	}
	out := make([]int, len(v.List))
	for i, x := range v.List {
		if x.Kind != ir.AttrInt {
			return nil, encErr(x.Pos, model.CodeBadType, "%s must be a list of integers", key)
		}
		out[i] = x.Int
	}
	return out, nil
}

func (f *encFields) lists(key string) [][]int {
	v := f.value(key)
	if v == nil {
		return [][]int{}
	}
	if v.Kind != ir.AttrList {
		f.fail(encErr(v.Pos, model.CodeBadType, "%s must be a list of lists of integers", key))
		return nil
	}
	out := make([][]int, len(v.List))
	for i, x := range v.List {
		xs, err := encInts(x, key)
		if err != nil {
			f.fail(err)
			return nil
		}
		out[i] = xs
	}
	return out
}

// oneCTA refuses CTA fields other than a single CTA on an encoding whose
// CTA layout is not modelled.
func (f *encFields) oneCTA() bool {
	if cga := f.lists("CGALayout"); f.err != nil {
		return false
	} else if len(cga) > 0 {
		f.fail(encErr(f.value("CGALayout").Pos, model.CodeBadValue, "#%s.%s over %d CTAs is not read; only #ttg.blocked and #ttg.linear span several blocks", f.n.Dialect, f.n.Name, 1<<min(len(cga), 30)))
		return false
	}
	for _, k := range []string{"CTAsPerCGA", "CTASplitNum"} {
		xs := f.ints(k)
		if f.err != nil {
			return false
		}
		if p := intsProduct(xs); p != 1 {
			f.fail(encErr(f.value(k).Pos, model.CodeBadValue, "#%s.%s over %d CTAs is not read; only #ttg.blocked and #ttg.linear span several blocks", f.n.Dialect, f.n.Name, p))
			return false
		}
	}
	return true
}

func intsProduct(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

// ctaWarps reads the warp bases of a ctaLayout dictionary, {warp =
// [[...], ...]} with an empty block list where one is given (one CTA).
func (f *encFields) ctaWarps(v *ir.AttrValue) [][]int {
	if v.Kind != ir.AttrDict {
		f.fail(encErr(v.Pos, model.CodeBadType, "ctaLayout must be a dictionary, {warp = [...]}"))
		return nil
	}
	sub := &encFields{n: v.Node}
	for _, e := range v.Node.Entries {
		if e.Key != "warp" && e.Key != "block" {
			f.fail(encErr(e.Pos, model.CodeUnknownName, "ctaLayout has no field %s (known: warp, block)", e.Key))
			return nil
		}
	}
	if v.Node.Entry("warp") == nil {
		f.fail(encErr(v.Pos, model.CodeMissingKey, "ctaLayout needs warp"))
		return nil
	}
	warps, blocks := sub.lists("warp"), sub.lists("block")
	if sub.err != nil {
		f.fail(sub.err)
		return nil
	}
	if len(blocks) > 0 {
		f.fail(encErr(v.Node.Entry("block").Pos, model.CodeBadValue, "a #ttg.amd_wmma over %d CTAs is not read; only #ttg.blocked and #ttg.linear span several blocks", 1<<len(blocks)))
		return nil
	}
	return warps
}

// parent reads the encoding a dot_op or slice names as its parent.
func (f *encFields) parent() TritonEncoding {
	v := f.value("parent")
	if v == nil {
		return nil // required: check has said so
	}
	if v.Node == nil {
		f.fail(encErr(v.Pos, model.CodeBadType, "parent must be an encoding attribute"))
		return nil
	}
	enc, err := TritonEncodingOf(v.Node)
	if err != nil {
		f.fail(err)
	}
	return enc
}

// TritonEncodingOf reads the distributed encoding n names.
func TritonEncodingOf(n *ir.AttrNode) (TritonEncoding, *model.Error) {
	f := &encFields{n: n}
	done := func(enc TritonEncoding) (TritonEncoding, *model.Error) {
		if f.err != nil {
			return nil, f.err
		}
		return enc, nil
	}
	if n.Dialect == "ttig" && n.Name != "dpas" {
		return nil, encErr(n.Pos, model.CodeBadValue, "Intel's #ttig.%s is not read (of Intel's encodings only #ttig.dpas is)", n.Name)
	}
	switch n.Name {
	case "blocked":
		if !f.check([]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}) {
			return done(nil)
		}
		b := &TritonBlocked{Blocked: Blocked{SizePerThread: f.ints("sizePerThread"), ThreadsPerWarp: f.ints("threadsPerWarp"),
			WarpsPerCTA: f.ints("warpsPerCTA"), Order: f.ints("order")},
			CTAsPerCGA: f.ints("CTAsPerCGA"), CTASplitNum: f.ints("CTASplitNum"), CTAOrder: f.ints("CTAOrder")}
		if intsProduct(b.CTAsPerCGA) == 1 {
			b.CTAsPerCGA, b.CTASplitNum, b.CTAOrder = nil, nil, nil
		}
		if cga := f.value("CGALayout"); cga != nil {
			if b.CTAsPerCGA != nil {
				return nil, encErr(cga.Pos, model.CodeBadValue, "#%s.blocked gives its CTAs twice, as CGALayout and as CTAsPerCGA", n.Dialect)
			}
			if b.CGABases = f.lists("CGALayout"); len(b.CGABases) == 0 {
				b.CGABases = nil // one CTA
			}
		}
		return done(b)
	case "nvidia_mma":
		if n.Entry("instrShape") == nil {
			// Triton 3.9's parser gives the attribute instrShape = [],
			// which its own layout conversion cannot lay out
			// (nvidiaMmaTile in lib/Dialect/TritonGPU/IR/
			// LinearLayoutConversions.cpp asserts an entry per
			// dimension): a kernel so written does not compile.
			return nil, encErr(n.Pos, model.CodeMissingKey, "#%s.nvidia_mma needs instrShape ([16, 8] for version 2, [16, N, K] for version 3): Triton 3.9 reads one without it as instrShape = [], which it cannot lay out (its nvidiaMmaTile asserts an entry per dimension), so no Triton 3.9 kernel holds one; older Triton's tests omit it", n.Dialect)
		}
		if !f.check([]string{"versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"versionMajor", "warpsPerCTA", "instrShape"}) || !f.oneCTA() {
			return done(nil)
		}
		return done(&NvidiaMMA{VersionMajor: f.int("versionMajor", 0), VersionMinor: f.int("versionMinor", 0),
			WarpsPerCTA: f.ints("warpsPerCTA"), InstrShape: f.ints("instrShape")})
	case "amd_mfma":
		if e := n.Entry("isTranspose"); e != nil {
			// Triton 3.9's parser skips a key it does not know, so it
			// would read the encoding as not transposed whatever the
			// field says.
			return nil, encErr(e.Pos, model.CodeUnknownName, "#%s.amd_mfma's isTranspose is an older Triton's spelling of isTransposed: Triton 3.9 ignores the field and reads the encoding as not transposed, so write isTransposed", n.Dialect)
		}
		if !f.check([]string{"version", "versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "MDim", "NDim", "isTransposed", "tilesPerWarp", "elementBitWidth", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"warpsPerCTA"}) || !f.oneCTA() {
			return done(nil)
		}
		m := &AMDMFMA{Version: f.int("version", f.int("versionMajor", 0)), WarpsPerCTA: f.ints("warpsPerCTA"), InstrShape: f.ints("instrShape")}
		if f.value("MDim") != nil && m.InstrShape == nil {
			// Earlier Triton wrote MDim and NDim instead of instrShape.
			m.InstrShape = []int{f.int("MDim", 0), f.int("NDim", 0)}
		}
		m.IsTransposed = f.bool("isTransposed")
		m.TilesPerWarp, m.ElementBitWidth = f.ints("tilesPerWarp"), f.int("elementBitWidth", 0)
		return done(m)
	case "dot_op":
		if !f.check([]string{"opIdx", "parent", "kWidth"}, []string{"opIdx", "parent"}) {
			return done(nil)
		}
		p := f.parent()
		if f.err != nil {
			return done(nil)
		}
		d := &DotOperand{OpIdx: f.int("opIdx", 0), Parent: p, KWidth: f.int("kWidth", 0)}
		if _, ok := p.(*TritonBlocked); !ok && d.KWidth == 0 {
			return nil, encErr(n.Pos, model.CodeBadValue, "a dot operand of %s needs kWidth", p.TritonAttr())
		}
		return done(d)
	case "slice":
		if !f.check([]string{"dim", "parent"}, []string{"dim", "parent"}) {
			return done(nil)
		}
		p := f.parent()
		return done(&SliceEncoding{Dim: f.int("dim", 0), Parent: p})
	case "linear":
		if !f.check([]string{"register", "lane", "warp", "block"}, []string{"register", "lane", "warp"}) {
			return done(nil)
		}
		return done(&Linear{Register: f.lists("register"), Lane: f.lists("lane"), Warp: f.lists("warp"), Block: f.lists("block")})
	case "dpas":
		if !f.check([]string{"repeatCount", "systolicDepth", "executionSize", "opsPerChan", "threadsPerWarp", "warpsPerCTA", "repCluster", "A", "B", "C", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"repeatCount", "systolicDepth", "executionSize", "opsPerChan", "threadsPerWarp", "warpsPerCTA", "repCluster"}) || !f.oneCTA() {
			return done(nil)
		}
		// A, B and C are the operand tiles Triton prints beside the
		// fields; they follow from them and are checked here.
		m := &IntelDPAS{RepeatCount: f.int("repeatCount", 0), SystolicDepth: f.int("systolicDepth", 0), ExecutionSize: f.int("executionSize", 0),
			OpsPerChan: f.int("opsPerChan", 0), ThreadsPerWarp: f.int("threadsPerWarp", 0), WarpsPerCTA: f.ints("warpsPerCTA"), RepCluster: f.ints("repCluster")}
		if len(m.RepCluster) == 2 {
			want := map[string][]int{
				"A": {m.RepeatCount * m.RepCluster[0], m.SystolicDepth * m.OpsPerChan},
				"B": {m.SystolicDepth * m.OpsPerChan, m.ExecutionSize * m.RepCluster[1]},
				"C": {m.RepeatCount * m.RepCluster[0], m.ExecutionSize * m.RepCluster[1]},
			}
			for _, k := range []string{"A", "B", "C"} {
				if got := f.ints(k); got != nil && !slices.Equal(got, want[k]) {
					f.fail(encErr(f.value(k).Pos, model.CodeBadValue, "%s = %v, but the fields give %v", k, got, want[k]))
				}
			}
		}
		return done(m)
	case "amd_wmma":
		if !f.check([]string{"version", "isTranspose", "warpsPerCTA", "ctaLayout", "instrShape", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"version"}) || !f.oneCTA() {
			return done(nil)
		}
		m := &AMDWMMA{Version: f.int("version", 0), WarpsPerCTA: f.ints("warpsPerCTA"), IsTranspose: f.bool("isTranspose"), InstrShape: f.ints("instrShape")}
		switch cta := f.value("ctaLayout"); {
		case cta == nil && m.WarpsPerCTA == nil:
			return nil, encErr(n.Pos, model.CodeMissingKey, "#%s.amd_wmma needs its warps: ctaLayout = {warp = [...]} (or warpsPerCTA, as earlier Triton wrote it)", n.Dialect)
		case cta != nil && m.WarpsPerCTA != nil:
			return nil, encErr(cta.Pos, model.CodeBadValue, "#%s.amd_wmma gives its warps twice, as ctaLayout and as warpsPerCTA", n.Dialect)
		case cta != nil:
			m.WarpBases = f.ctaWarps(cta)
		case (m.IsTranspose || m.InstrShape != nil) && allPow2(m.WarpsPerCTA):
			// The spelling between the two (isTranspose or
			// instrShape beside warpsPerCTA): read as 3.9's, the
			// warps row major.
			m.WarpBases, m.WarpsPerCTA = rowMajorWarpBases(m.WarpsPerCTA), nil
		}
		return done(m)
	}
	if strings.HasSuffix(n.Name, "_shared") {
		return nil, encErr(n.Pos, model.CodeBadValue, "#%s.%s is a shared-memory encoding: give it as a buffer's encoding (docs/shared-memory.md)", n.Dialect, n.Name)
	}
	return nil, encErr(n.Pos, model.CodeUnknownName, "unknown distributed encoding #%s.%s (known: blocked, nvidia_mma, amd_mfma, amd_wmma, dot_op, slice, linear, and Intel's dpas)", n.Dialect, n.Name)
}

// EncodingNode is the node of an attribute written as a tensor's
// encoding, or the error saying why it is none.
func EncodingNode(a ir.Attr, at model.Pos) (*ir.AttrNode, *model.Error) {
	d, ok := a.(*ir.DialectAttr)
	switch {
	case !ok:
		return nil, encErr(at, model.CodeBadValue, "expected an encoding attribute such as #ttg.blocked<{...}>, found %s", a)
	case d.TreeErr != nil:
		return nil, d.TreeErr
	case d.Tree == nil && !strings.Contains(d.Name, "."):
		return nil, encErr(at, model.CodeBadValue, "#%s is an alias; write the encoding it names in full", d.Name)
	case d.Tree == nil:
		return nil, encErr(at, model.CodeBadValue, "#%s is not a TritonGPU encoding (expected the prefix ttg. or triton_gpu.)", d.Name)
	}
	return d.Tree, nil
}

// SharedEncoding reads the shared-memory encoding n names.
func SharedEncoding(n *ir.AttrNode) (*TritonSharedEncoding, *model.Error) {
	f := &encFields{n: n}
	e := &TritonSharedEncoding{Name: n.Name}
	done := func() (*TritonSharedEncoding, *model.Error) {
		if f.err != nil {
			return nil, f.err
		}
		return e, nil
	}
	switch n.Name {
	case "swizzled_shared":
		if !f.check([]string{"vec", "perPhase", "maxPhase", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"vec", "perPhase", "maxPhase", "order"}) || !f.oneCTA() {
			return done()
		}
		e.Vec, e.PerPhase, e.MaxPhase, e.Order = f.int("vec", 0), f.int("perPhase", 0), f.int("maxPhase", 0), f.ints("order")
		return done()
	case "nvmma_shared":
		if !f.check([]string{"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"swizzlingByteWidth", "elementBitWidth"}) || !f.oneCTA() {
			return done()
		}
		e.SwizzlingByteWidth, e.ElementBitWidth = f.int("swizzlingByteWidth", 0), f.int("elementBitWidth", 0)
		e.Transposed, e.FP4Padded = f.bool("transposed"), f.bool("fp4Padded")
		return done()
	case "padded_shared":
		if !f.check([]string{"order", "shape", "offset", "block"}, nil) {
			return done()
		}
		if e := n.Entry("offset"); e != nil {
			// Triton 3.9 writes a padded layout's element order as
			// linear bases (PaddedSharedEncodingAttr's linear
			// component): read, not modelled.
			return nil, encErr(e.Pos, model.CodeBadValue, "#%s.padded_shared with its offsets as linear bases is not modelled as a buffer's placement (only order and shape are); without --keep-anchors the planner chooses the placement", n.Dialect)
		}
		e.Order = f.ints("order")
		if len(n.Items) == 0 {
			return nil, encErr(n.Pos, model.CodeMissingKey, "#%s.padded_shared needs its paddings, [interval:+pad, ...]", n.Dialect)
		}
		for _, it := range n.Items {
			if it.Kind != ir.AttrPad {
				return nil, encErr(it.Pos, model.CodeBadType, "expected interval:+pad, both integers")
			}
			if len(e.Pads) >= 64 {
				return nil, encErr(it.Pos, model.CodeTooLarge, "more than 64 paddings")
			}
			e.Pads = append(e.Pads, [2]int{it.Int, it.Pad})
		}
		return done()
	}
	switch n.Name {
	case "amd_rotating_shared", "shared_linear", "partitioned_shared":
		// Triton 3.9's other shared encodings (TritonGPUAttrDefs.td):
		// valid, and not modelled as placements.
		return nil, encErr(n.Pos, model.CodeBadValue, "#%s.%s is not modelled as a buffer's placement (the planner models swizzled_shared, nvmma_shared and padded_shared); without --keep-anchors it chooses the placement", n.Dialect, n.Name)
	case "shared":
		// Triton 3.9's parser has no #ttg.shared ("unknown attribute
		// `shared` in dialect `ttg`"): earlier Triton's one shared
		// encoding, split since into swizzled_shared and nvmma_shared.
		return nil, encErr(n.Pos, model.CodeUnknownName, "#%s.shared is an older Triton's shared encoding, which Triton 3.9 does not parse: it writes #ttg.swizzled_shared (vec, perPhase, maxPhase, order) in its place, or #ttg.nvmma_shared where the older one had hasLeadingOffset = true", n.Dialect)
	}
	return nil, encErr(n.Pos, model.CodeUnknownName, "unknown shared encoding #%s.%s (known: swizzled_shared, nvmma_shared, padded_shared)", n.Dialect, n.Name)
}

// ParseTriton reads a Triton encoding attribute written as text, such as
// a layout file's #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp =
// [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}> (the older #triton_gpu.
// prefix too), by MLIR's attribute parser; at is where the text starts,
// and every error is at its file:line:col counted from there.
func ParseTriton(text string, at model.Pos) (*Triton, error) {
	n, err := parseNode(text, at)
	if err != nil {
		return nil, err
	}
	enc, eerr := TritonEncodingOf(n)
	if eerr != nil {
		return nil, eerr
	}
	return &Triton{Enc: enc}, nil
}

// ParseTritonShared reads a Triton shared-memory encoding written as
// text (#ttg.swizzled_shared<{...}>, #ttg.nvmma_shared<{...}>,
// #ttg.padded_shared<[...] {...}>) as the placement of a rows × cols
// buffer of elemBits-bit elements (TritonSharedEncoding.Placement);
// at is where the text starts.
func ParseTritonShared(text string, at model.Pos, rows, cols, elemBits int) (*model.SharedLayout, error) {
	n, err := parseNode(text, at)
	if err != nil {
		return nil, err
	}
	e, eerr := SharedEncoding(n)
	if eerr != nil {
		return nil, eerr
	}
	return e.Placement(rows, cols, elemBits)
}

// parseNode reads text as one TritonGPU attribute's tree.
func parseNode(text string, at model.Pos) (*ir.AttrNode, error) {
	a, err := ir.ParseAttr(text, at)
	if err != nil {
		return nil, err
	}
	n, nerr := EncodingNode(a, at)
	if nerr != nil {
		return nil, nerr
	}
	return n, nil
}
