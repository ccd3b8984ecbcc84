package model

import (
	"slices"
	"strconv"
	"strings"
)

// The text of one Triton encoding attribute, read on its own: the reader
// of the layout files' and graph files' encodings (tomlio, which reads
// no MLIR) and of model's tests. TTGIR is not read here: the MLIR parser
// reads its attributes into trees with file:line:col on every field, and
// the TTGIR front end reads the encodings from them (mlir/dialect_attr.go,
// mlir/ttgir_encoding.go). Errors here give the byte offset in the
// string, which the caller places.

// ParseTriton reads a Triton encoding attribute as TTGIR prints it, such
// as #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
// warpsPerCTA = [4, 1], order = [1, 0]}>. The older #triton_gpu. prefix
// is read too. Errors give the byte offset in s where the problem is.
func ParseTriton(s string) (*Triton, error) {
	n, err := parseAttr(s, "#ttg.blocked<{...}>")
	if err != nil {
		return nil, err
	}
	enc, err := n.encoding()
	if err != nil {
		return nil, err
	}
	return &Triton{Enc: enc}, nil
}

// parseAttr reads s whole as one attribute; example names the kind
// expected in the error when s is some other value.
func parseAttr(s, example string) (*attrNode, error) {
	p := &attrParser{s: s}
	v, err := p.value()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = p.fail("the end of the attribute")
		}
	}
	if err != nil {
		return nil, err
	}
	if v.attr == nil {
		return nil, errorf(CodeBadValue, "encoding", "expected an encoding attribute such as %s, found %q", example, s)
	}
	return v.attr, nil
}

type attrParser struct {
	s string
	i int
}

// attrValue is a value inside an attribute: an integer, a boolean, a list
// or a nested attribute.
type attrValue struct {
	at      int
	isInt   bool
	n       int
	isBool  bool
	b       bool
	isList  bool
	list    []attrValue
	attr    *attrNode
	display string
}

type attrNode struct {
	at     int
	name   string // blocked, nvidia_mma, …
	keys   []string
	values map[string]attrValue
	pads   [][2]int // padded_shared's interval:+pad pairs
}

func (p *attrParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *attrParser) fail(expected string) error {
	found := "the end"
	if p.i < len(p.s) {
		found = strconv.Quote(p.s[p.i:min(len(p.s), p.i+12)])
	}
	return encodingError(CodeSyntax, p.i, "expected %s, found %s", expected, found)
}

func (p *attrParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *attrParser) word() string {
	p.space()
	j := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.i++
			continue
		}
		break
	}
	return p.s[j:p.i]
}

func (p *attrParser) value() (attrValue, error) {
	p.space()
	at := p.i
	if p.i >= len(p.s) {
		return attrValue{}, p.fail("a value")
	}
	switch c := p.s[p.i]; {
	case c == '#':
		p.i++
		n, err := p.node(at)
		return attrValue{at: at, attr: n}, err
	case c == '[':
		p.i++
		v := attrValue{at: at, isList: true, list: []attrValue{}}
		if p.eat("]") {
			return v, nil
		}
		for {
			if len(v.list) >= 1<<12 {
				return v, p.fail("a shorter list")
			}
			x, err := p.value()
			if err != nil {
				return v, err
			}
			v.list = append(v.list, x)
			if p.eat("]") {
				return v, nil
			}
			if !p.eat(",") {
				return v, p.fail("',' or ']'")
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		j := p.i + 1
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(p.s[p.i:j])
		if err != nil || n < -1<<20 || n > 1<<20 {
			return attrValue{}, p.fail("an integer of at most 2^20")
		}
		p.i = j
		// MLIR may print an integer's type: kWidth = 2 : i32.
		save := p.i
		if p.eat(":") {
			if w := p.word(); !strings.HasPrefix(w, "i") {
				p.i = save
			}
		}
		return attrValue{at: at, isInt: true, n: n}, nil
	default:
		w := p.word()
		switch w {
		case "true", "false":
			return attrValue{at: at, isBool: true, b: w == "true"}, nil
		}
		p.i = at
		return attrValue{}, p.fail("a number, a list, true, false or an attribute")
	}
}

// node reads an attribute after its '#': dialect.name<{key = value, …}>.
func (p *attrParser) node(at int) (*attrNode, error) {
	full := p.word()
	name, ok := strings.CutPrefix(full, "ttg.")
	if !ok {
		name, ok = strings.CutPrefix(full, "triton_gpu.")
	}
	if !ok {
		if name, ok = strings.CutPrefix(full, "ttig."); ok && name != "dpas" {
			p.i = at
			return nil, encodingError(CodeBadValue, at, "Intel's #ttig.%s is not read (of Intel's encodings only #ttig.dpas is)", name)
		}
	}
	if !ok {
		p.i = at
		if !strings.Contains(full, ".") {
			return nil, encodingError(CodeBadValue, at, "#%s is an alias; write the encoding it names in full", full)
		}
		return nil, encodingError(CodeBadValue, at, "#%s is not a TritonGPU encoding (expected the prefix ttg. or triton_gpu.)", full)
	}
	n := &attrNode{at: at, name: name, values: map[string]attrValue{}}
	if name == "padded_shared" {
		// #ttg.padded_shared<[interval:+pad, …] {fields}>
		if !p.eat("<") || !p.eat("[") {
			return nil, p.fail("'<[' after #" + clipName(full))
		}
		for {
			iv, err := p.value()
			if err != nil || !iv.isInt || !p.eat(":") || !p.eat("+") {
				return nil, p.fail("interval:+pad")
			}
			pad, err := p.value()
			if err != nil || !pad.isInt {
				return nil, p.fail("the padding after '+'")
			}
			if len(n.pads) >= 64 {
				return nil, p.fail("fewer paddings")
			}
			n.pads = append(n.pads, [2]int{iv.n, pad.n})
			if p.eat("]") {
				break
			}
			if !p.eat(",") {
				return nil, p.fail("',' or ']'")
			}
		}
		if p.eat(">") {
			return n, nil
		}
		p.eat(",") // Triton's own description writes <[2:+2], {...}>
		if !p.eat("{") {
			return nil, p.fail("'{' or '>'")
		}
		return n, p.fields(n)
	}
	if !p.eat("<") || !p.eat("{") {
		return nil, p.fail("'<{' after #" + clipName(full))
	}
	return n, p.fields(n)
}

// fields reads an attribute's fields after its '{', up to its closing
// '}>'.
func (p *attrParser) fields(n *attrNode) error {
	if p.eat("}") {
		if !p.eat(">") {
			return p.fail("'>'")
		}
		return nil
	}
	for {
		p.space()
		kat := p.i
		key := p.word()
		if key == "" {
			return p.fail("a field name")
		}
		if _, dup := n.values[key]; dup {
			p.i = kat
			return encodingError(CodeDuplicate, kat, "%s is given twice", key)
		}
		if !p.eat("=") {
			return p.fail("'=' after " + key)
		}
		v, err := p.value()
		if err != nil {
			return err
		}
		n.keys = append(n.keys, key)
		n.values[key] = v
		if p.eat("}") {
			break
		}
		if !p.eat(",") {
			return p.fail("',' or '}'")
		}
	}
	if !p.eat(">") {
		return p.fail("'>'")
	}
	return nil
}

// fields checks n's keys against the encoding's known and required keys.
func (n *attrNode) fields(known, required []string) error {
	for _, k := range n.keys {
		if !slices.Contains(known, k) {
			return encodingError(CodeUnknownName, n.values[k].at, "#ttg.%s has no field %s (known: %s)", n.name, k, strings.Join(known, ", "))
		}
	}
	for _, k := range required {
		if _, ok := n.values[k]; !ok {
			return encodingError(CodeMissingKey, n.at, "#ttg.%s needs %s", n.name, k)
		}
	}
	return nil
}

func (n *attrNode) int(key string, def int) (int, error) {
	v, ok := n.values[key]
	if !ok {
		return def, nil
	}
	if !v.isInt {
		return 0, encodingError(CodeBadType, v.at, "%s must be an integer", key)
	}
	return v.n, nil
}

func (n *attrNode) bool(key string) (bool, error) {
	v, ok := n.values[key]
	if !ok {
		return false, nil
	}
	if !v.isBool {
		return false, encodingError(CodeBadType, v.at, "%s must be true or false", key)
	}
	return v.b, nil
}

func (n *attrNode) ints(key string) ([]int, error) {
	v, ok := n.values[key]
	if !ok {
		return nil, nil
	}
	return v.ints(key)
}

func (v attrValue) ints(key string) ([]int, error) {
	if !v.isList {
		return nil, encodingError(CodeBadType, v.at, "%s must be a list of integers", key)
	}
	out := make([]int, len(v.list))
	for i, x := range v.list {
		if !x.isInt {
			return nil, encodingError(CodeBadType, x.at, "%s must be a list of integers", key)
		}
		out[i] = x.n
	}
	return out, nil
}

func (n *attrNode) lists(key string) ([][]int, error) {
	v, ok := n.values[key]
	if !ok {
		return [][]int{}, nil
	}
	if !v.isList {
		return nil, encodingError(CodeBadType, v.at, "%s must be a list of lists of integers", key)
	}
	out := make([][]int, len(v.list))
	for i, x := range v.list {
		xs, err := x.ints(key)
		if err != nil {
			return nil, err
		}
		out[i] = xs
	}
	return out, nil
}

func (n *attrNode) parent() (TritonEncoding, error) {
	v := n.values["parent"]
	if v.attr == nil {
		return nil, encodingError(CodeBadType, v.at, "parent must be an encoding attribute")
	}
	return v.attr.encoding()
}

// encoding builds the encoding n names.
func (n *attrNode) encoding() (TritonEncoding, error) {
	var errs []error
	ints := func(k string) []int { x, err := n.ints(k); errs = append(errs, err); return x }
	num := func(k string, def int) int { x, err := n.int(k, def); errs = append(errs, err); return x }
	done := func(enc TritonEncoding) (TritonEncoding, error) {
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		return enc, nil
	}
	switch n.name {
	case "blocked":
		if err := n.fields([]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}); err != nil {
			return nil, err
		}
		b := &TritonBlocked{Blocked: Blocked{SizePerThread: ints("sizePerThread"), ThreadsPerWarp: ints("threadsPerWarp"),
			WarpsPerCTA: ints("warpsPerCTA"), Order: ints("order")},
			CTAsPerCGA: ints("CTAsPerCGA"), CTASplitNum: ints("CTASplitNum"), CTAOrder: ints("CTAOrder")}
		if b.oneCTA() {
			b.CTAsPerCGA, b.CTASplitNum, b.CTAOrder = nil, nil, nil
		}
		return done(b)
	case "nvidia_mma":
		if err := n.fields([]string{"versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"versionMajor", "warpsPerCTA", "instrShape"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		return done(&NvidiaMMA{VersionMajor: num("versionMajor", 0), VersionMinor: num("versionMinor", 0),
			WarpsPerCTA: ints("warpsPerCTA"), InstrShape: ints("instrShape")})
	case "amd_mfma":
		if err := n.fields([]string{"version", "versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "MDim", "NDim", "isTransposed", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"warpsPerCTA"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		m := &AMDMFMA{Version: num("version", num("versionMajor", 0)), WarpsPerCTA: ints("warpsPerCTA"), InstrShape: ints("instrShape")}
		if _, ok := n.values["MDim"]; ok && m.InstrShape == nil {
			// Earlier Triton wrote MDim and NDim instead of instrShape.
			m.InstrShape = []int{num("MDim", 0), num("NDim", 0)}
		}
		t, err := n.bool("isTransposed")
		m.IsTransposed = t
		errs = append(errs, err)
		return done(m)
	case "dot_op":
		if err := n.fields([]string{"opIdx", "parent", "kWidth"}, []string{"opIdx", "parent"}); err != nil {
			return nil, err
		}
		p, err := n.parent()
		if err != nil {
			return nil, err
		}
		d := &DotOperand{OpIdx: num("opIdx", 0), Parent: p, KWidth: num("kWidth", 0)}
		if _, ok := p.(*TritonBlocked); !ok && d.KWidth == 0 {
			return nil, encodingError(CodeBadValue, n.at, "a dot operand of %s needs kWidth", p.TritonAttr())
		}
		return done(d)
	case "slice":
		if err := n.fields([]string{"dim", "parent"}, []string{"dim", "parent"}); err != nil {
			return nil, err
		}
		p, err := n.parent()
		if err != nil {
			return nil, err
		}
		return done(&SliceEncoding{Dim: num("dim", 0), Parent: p})
	case "linear":
		if err := n.fields([]string{"register", "lane", "warp", "block"}, []string{"register", "lane", "warp"}); err != nil {
			return nil, err
		}
		x := &Linear{}
		for _, f := range []struct {
			key string
			dst *[][]int
		}{{"register", &x.Register}, {"lane", &x.Lane}, {"warp", &x.Warp}, {"block", &x.Block}} {
			v, err := n.lists(f.key)
			errs = append(errs, err)
			*f.dst = v
		}
		return done(x)
	case "dpas":
		if err := n.fields([]string{"repeatCount", "systolicDepth", "executionSize", "opsPerChan", "threadsPerWarp", "warpsPerCTA", "repCluster", "A", "B", "C", "CTAsPerCGA", "CTASplitNum", "CTAOrder"},
			[]string{"repeatCount", "systolicDepth", "executionSize", "opsPerChan", "threadsPerWarp", "warpsPerCTA", "repCluster"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		// A, B and C are the operand tiles Triton prints beside the
		// fields; they follow from them and are checked here.
		m := &IntelDPAS{RepeatCount: num("repeatCount", 0), SystolicDepth: num("systolicDepth", 0), ExecutionSize: num("executionSize", 0),
			OpsPerChan: num("opsPerChan", 0), ThreadsPerWarp: num("threadsPerWarp", 0), WarpsPerCTA: ints("warpsPerCTA"), RepCluster: ints("repCluster")}
		if len(m.RepCluster) == 2 {
			want := map[string][]int{
				"A": {m.RepeatCount * m.RepCluster[0], m.SystolicDepth * m.OpsPerChan},
				"B": {m.SystolicDepth * m.OpsPerChan, m.ExecutionSize * m.RepCluster[1]},
				"C": {m.RepeatCount * m.RepCluster[0], m.ExecutionSize * m.RepCluster[1]},
			}
			for _, k := range []string{"A", "B", "C"} {
				if got := ints(k); got != nil && !slices.Equal(got, want[k]) {
					return nil, encodingError(CodeBadValue, n.values[k].at, "%s = %v, but the fields give %v", k, got, want[k])
				}
			}
		}
		return done(m)
	case "amd_wmma":
		if err := n.fields([]string{"version", "warpsPerCTA", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"version", "warpsPerCTA"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		return done(&AMDWMMA{Version: num("version", 0), WarpsPerCTA: ints("warpsPerCTA")})
	}
	if strings.HasSuffix(n.name, "_shared") {
		return nil, encodingError(CodeBadValue, n.at, "#ttg.%s is a shared-memory encoding: give it as a buffer's encoding (docs/shared-memory.md)", n.name)
	}
	return nil, encodingError(CodeUnknownName, n.at, "unknown distributed encoding #ttg.%s (known: blocked, nvidia_mma, amd_mfma, amd_wmma, dot_op, slice, linear, and Intel's dpas)", n.name)
}

// oneCTA refuses CTA fields other than a single CTA on an encoding whose
// CTA layout is not modelled.
func (n *attrNode) oneCTA() error {
	for _, k := range []string{"CTAsPerCGA", "CTASplitNum"} {
		if xs, err := n.ints(k); err != nil {
			return err
		} else if product(xs) != 1 {
			return encodingError(CodeBadValue, n.values[k].at, "#ttg.%s over %d CTAs is not read; only #ttg.blocked and #ttg.linear span several blocks", n.name, product(xs))
		}
	}
	return nil
}

// ParseTritonShared reads one of Triton's shared-memory encodings as the
// placement of a rows × cols buffer of elemBits-bit elements:
//
//   - #ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>: element
//     (r, c) of a row-major buffer lies at r·cols + (c XOR
//     vec·((r / perPhase) mod maxPhase) mod cols)
//     (sharedToLinearLayoutNoLeadingOffset in triton-lang/triton
//     lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp), an XOR of
//     byte-address bits;
//   - #ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth}>:
//     the 32, 64 or 128-byte swizzle of 8-row tiles that wgmma reads
//     (sharedToLinearLayoutLeadingOffset), the named swizzle modes here,
//     for a buffer whose rows are exactly that wide;
//   - #ttg.padded_shared<[interval:+pad, ...]>: pad elements after every
//     interval elements, both powers of two, the pads of every pair
//     added (PaddedSharedEncodingAttr in
//     include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td), for
//     intervals that are whole numbers of rows: one pair, or a pad after
//     every row (a row stride) and one every few rows.
//
// Only row-major placements (order [1, 0], transposed = false) have a
// SharedLayout; the others are refused with the reason.
func ParseTritonShared(s string, rows, cols, elemBits int) (*SharedLayout, error) {
	n, err := parseAttr(s, "#ttg.swizzled_shared<{...}>")
	if err != nil {
		return nil, err
	}
	e, err := n.sharedEncoding()
	if err != nil {
		return nil, err
	}
	return e.Placement(rows, cols, elemBits)
}

// sharedEncoding reads the fields of a shared encoding's node.
func (n *attrNode) sharedEncoding() (*TritonSharedEncoding, error) {
	e := &TritonSharedEncoding{Name: n.name}
	var errs []error
	num := func(k string) int { x, err := n.int(k, 0); errs = append(errs, err); return x }
	first := func() (*TritonSharedEncoding, error) {
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	switch n.name {
	case "swizzled_shared":
		if err := n.fields([]string{"vec", "perPhase", "maxPhase", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"vec", "perPhase", "maxPhase", "order"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		e.Vec, e.PerPhase, e.MaxPhase = num("vec"), num("perPhase"), num("maxPhase")
		order, err := n.ints("order")
		e.Order = order
		errs = append(errs, err)
		return first()
	case "nvmma_shared":
		if err := n.fields([]string{"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "CTAsPerCGA", "CTASplitNum", "CTAOrder"}, []string{"swizzlingByteWidth", "elementBitWidth"}); err != nil {
			return nil, err
		}
		if err := n.oneCTA(); err != nil {
			return nil, err
		}
		e.SwizzlingByteWidth, e.ElementBitWidth = num("swizzlingByteWidth"), num("elementBitWidth")
		tr, err := n.bool("transposed")
		e.Transposed = tr
		errs = append(errs, err)
		fp4, err := n.bool("fp4Padded")
		e.FP4Padded = fp4
		errs = append(errs, err)
		return first()
	case "padded_shared":
		if err := n.fields([]string{"order", "shape"}, nil); err != nil {
			return nil, err
		}
		if o, ok := n.values["order"]; ok {
			order, err := o.ints("order")
			if err != nil {
				return nil, err
			}
			e.Order = order
		}
		e.Pads = slices.Clone(n.pads)
		return e, nil
	}
	return nil, encodingError(CodeUnknownName, n.at, "unknown shared encoding #ttg.%s (known: swizzled_shared, nvmma_shared, padded_shared)", n.name)
}

// clipName shortens an attribute name read from the input to its first
// characters for a message.
func clipName(name string) string {
	if len(name) <= maxQuoted {
		return name
	}
	return strings.ToValidUTF8(name[:clippedQuoted], "") + "… (" + strconv.Itoa(len(name)) + " bytes)"
}
