package model

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

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
	return errorf(CodeSyntax, "encoding", "at offset %d: expected %s, found %s", p.i, expected, found)
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
			return nil, errorf(CodeBadValue, "encoding", "at offset %d: Intel's #ttig.%s is not read (of Intel's encodings only #ttig.dpas is)", at, name)
		}
	}
	if !ok {
		p.i = at
		if !strings.Contains(full, ".") {
			return nil, errorf(CodeBadValue, "encoding", "at offset %d: #%s is an alias; write the encoding it names in full", at, full)
		}
		return nil, errorf(CodeBadValue, "encoding", "at offset %d: #%s is not a TritonGPU encoding (expected the prefix ttg. or triton_gpu.)", at, full)
	}
	n := &attrNode{at: at, name: name, values: map[string]attrValue{}}
	if name == "padded_shared" {
		// #ttg.padded_shared<[interval:+pad, …] {fields}>
		if !p.eat("<") || !p.eat("[") {
			return nil, p.fail("'<[' after #" + full)
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
		return nil, p.fail("'<{' after #" + full)
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
			return errorf(CodeDuplicate, "encoding", "at offset %d: %s is given twice", kat, key)
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
			return errorf(CodeUnknownName, "encoding", "at offset %d: #ttg.%s has no field %s (known: %s)", n.values[k].at, n.name, k, strings.Join(known, ", "))
		}
	}
	for _, k := range required {
		if _, ok := n.values[k]; !ok {
			return errorf(CodeMissingKey, "encoding", "at offset %d: #ttg.%s needs %s", n.at, n.name, k)
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
		return 0, errorf(CodeBadType, "encoding", "at offset %d: %s must be an integer", v.at, key)
	}
	return v.n, nil
}

func (n *attrNode) bool(key string) (bool, error) {
	v, ok := n.values[key]
	if !ok {
		return false, nil
	}
	if !v.isBool {
		return false, errorf(CodeBadType, "encoding", "at offset %d: %s must be true or false", v.at, key)
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
		return nil, errorf(CodeBadType, "encoding", "at offset %d: %s must be a list of integers", v.at, key)
	}
	out := make([]int, len(v.list))
	for i, x := range v.list {
		if !x.isInt {
			return nil, errorf(CodeBadType, "encoding", "at offset %d: %s must be a list of integers", x.at, key)
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
		return nil, errorf(CodeBadType, "encoding", "at offset %d: %s must be a list of lists of integers", v.at, key)
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
		return nil, errorf(CodeBadType, "encoding", "at offset %d: parent must be an encoding attribute", v.at)
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
			return nil, errorf(CodeBadValue, "encoding", "at offset %d: a dot operand of %s needs kWidth", n.at, p.TritonAttr())
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
					return nil, errorf(CodeBadValue, "encoding", "at offset %d: %s = %v, but the fields give %v", n.values[k].at, k, got, want[k])
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
		return nil, errorf(CodeBadValue, "encoding", "at offset %d: #ttg.%s is a shared-memory encoding: give it as a buffer's encoding (docs/shared-memory.md)", n.at, n.name)
	}
	return nil, errorf(CodeUnknownName, "encoding", "at offset %d: unknown distributed encoding #ttg.%s (known: blocked, nvidia_mma, amd_mfma, amd_wmma, dot_op, slice, linear, and Intel's dpas)", n.at, n.name)
}

// oneCTA refuses CTA fields other than a single CTA on an encoding whose
// CTA layout is not modelled.
func (n *attrNode) oneCTA() error {
	for _, k := range []string{"CTAsPerCGA", "CTASplitNum"} {
		if xs, err := n.ints(k); err != nil {
			return err
		} else if product(xs) != 1 {
			return errorf(CodeBadValue, "encoding", "at offset %d: #ttg.%s over %d CTAs is not read; only #ttg.blocked and #ttg.linear span several blocks", n.values[k].at, n.name, product(xs))
		}
	}
	return nil
}

// TritonRole narrows the encodings ExpressTritonAs tries to those of one
// operand of a dot: some layouts are both an accumulator and an operand
// (mma.sync's 16 × 16 A fragment is also the accumulator of a 16 × 16
// wgmma; mfma 16x16's B fragment with kWidth 4 is also its accumulator).
type TritonRole int

const (
	AnyRole TritonRole = iota
	OperandA
	OperandB
	Accumulator
)

// ExpressTriton writes l as a Triton encoding: a named encoding where one
// gives l exactly, else #ttg.linear. Only layouts no linear layout can
// write (an extent or hardware count that is not a power of two, other
// than a blocked layout's whole tiles) have none.
func ExpressTriton(l *Layout) (*Triton, error) { return ExpressTritonAs(l, AnyRole) }

// ExpressTritonAs is ExpressTriton trying, among the matrix encodings, only
// those of the given role.
func ExpressTritonAs(l *Layout, role TritonRole) (*Triton, error) {
	return ExpressTritonFor(l, role, TritonTarget{WarpgroupMMA: true})
}

// TritonTarget is what naming a layout as Triton would needs to know of
// the target beyond the layout's frame: its vendor, whose matrix encodings
// alone are tried (#ttg.nvidia_mma on "nvidia", #ttg.amd_mfma and
// #ttg.amd_wmma on "amd", #ttig.dpas on "intel"; every vendor's where it
// is empty, as for a layout named with no target), and whether it runs
// warpgroup mma (Hopper's wgmma, the only mma whose accumulator is
// #ttg.nvidia_mma version 3).
type TritonTarget struct {
	Vendor       string
	WarpgroupMMA bool
}

// TritonTargetOf is the TritonTarget of t for a plan that does or does
// not run warpgroup mma.
func TritonTargetOf(t *Target, warpgroupMMA bool) TritonTarget {
	tt := TritonTarget{WarpgroupMMA: warpgroupMMA}
	if t != nil {
		tt.Vendor = t.Vendor
	}
	return tt
}

// vendors reports whether the target is of vendor v or names none.
func (tt TritonTarget) vendors(v string) bool { return tt.Vendor == "" || tt.Vendor == v }

// ExpressTritonFor is ExpressTritonAs for a target: only the target's
// vendor's matrix encodings are tried, so that a plan for a 32-lane
// NVIDIA warp is never named by an AMD wave32 encoding of the same map,
// and the warpgroup encodings (#ttg.nvidia_mma version 3) only where the
// target runs warpgroup mma, so that a plan for sm_80 prints the version 2
// tile that Triton's mma.sync lowering uses even where a wgmma tile would
// give the same map with fewer repeats.
func ExpressTritonFor(l *Layout, role TritonRole, tt TritonTarget) (*Triton, error) {
	if enc := namedTriton(l, role, tt); enc != nil {
		return &Triton{Enc: enc}, nil
	}
	if b, err := ExpressBlocked(l); err == nil {
		// Blocked keeps registers beyond a small tensor as copies where
		// Triton drops them: only a blocked layout that Triton builds
		// the same is written as #ttg.blocked.
		t := &Triton{Enc: &TritonBlocked{Blocked: *b}}
		if back, err := t.Layout(FrameOf(l)); err == nil && back.Equal(l) {
			return t, nil
		}
	}
	x, err := ExpressLinear(l)
	if err != nil {
		why := err.Error()
		var e *Error
		if errors.As(err, &e) {
			why = e.Msg
		}
		return nil, notExpressible("triton", "no Triton encoding fits, and as #ttg.linear: %s", strings.TrimPrefix(why, "not expressible as linear: "))
	}
	return &Triton{Enc: x}, nil
}

// namedTriton finds the matrix encoding (nvidia_mma, amd_mfma, amd_wmma
// or a dot operand of one), or else a slice of an accumulator, that gives
// l, or nil. When several do, it prefers the one whose tile fits the
// tensor best (the fewest bases cut off by a smaller tensor, then the
// fewest register repeats), then an mma.sync, mfma or wmma accumulator,
// then an operand, then a wgmma or transposed mfma accumulator, then the
// first tried.
func namedTriton(l *Layout, role TritonRole, tt TritonTarget) TritonEncoding {
	r := l.Rank()
	if r > 3 || l.Size(Block) != 1 {
		return nil
	}
	want, err := ExpressLinear(l)
	if err != nil {
		return nil
	}
	f := FrameOf(l)
	var best TritonEncoding
	bestScore := -1
	try := func(c tritonCandidate) {
		b, err := c.enc.ll(f)
		if err != nil || !sameBases(b.linear(), want) {
			return
		}
		if s := (b.cut*64+b.grown)*4 + c.tier; bestScore < 0 || s < bestScore {
			best, bestScore = c.enc, s
		}
	}
	if r >= 2 {
		for _, c := range matrixCandidates(f.SubgroupSize, f.Subgroups, r, tt) {
			d, isDot := c.enc.(*DotOperand)
			switch {
			case role == Accumulator && isDot, role == OperandA && (!isDot || d.OpIdx != 0), role == OperandB && (!isDot || d.OpIdx != 1):
				continue
			}
			try(c)
		}
	}
	if best != nil || role == OperandA || role == OperandB || r+1 < 2 {
		return best
	}
	// A reduction's result: a slice of an accumulator.
	for _, c := range matrixCandidates(f.SubgroupSize, f.Subgroups, r+1, tt) {
		if _, isDot := c.enc.(*DotOperand); isDot {
			continue
		}
		for dim := range r + 1 {
			try(tritonCandidate{&SliceEncoding{Dim: dim, Parent: c.enc}, c.tier})
		}
	}
	return best
}

// tritonCandidate is an encoding the writer tries, with its rank in the
// preference among equally good fits.
type tritonCandidate struct {
	enc  TritonEncoding
	tier int
}

// matrixCandidates lists the matrix encodings of a rank for the lanes and
// warps on the target: accumulators of every warp split, and their
// operands.
func matrixCandidates(lanes, warps, rank int, tt TritonTarget) []tritonCandidate {
	var out []tritonCandidate
	add := func(enc TritonEncoding, tier int) { out = append(out, tritonCandidate{enc, tier}) }
	dots := func(parent TritonEncoding, ops int) {
		for op := range ops {
			for k := 1; k <= 16; k *= 2 {
				add(&DotOperand{OpIdx: op, Parent: parent, KWidth: k}, 1)
			}
		}
	}
	for _, w := range warpSplits(warps, rank) {
		switch lanes {
		case 32:
			if tt.vendors("nvidia") {
				v2 := &NvidiaMMA{VersionMajor: 2, WarpsPerCTA: w, InstrShape: []int{16, 8}}
				add(v2, 0)
				dots(v2, 2)
			}
			for v := 1; v <= 2 && tt.vendors("amd"); v++ {
				wm := &AMDWMMA{Version: v, WarpsPerCTA: w}
				add(wm, 0)
				dots(wm, 2)
			}
			// A version 3 mma's warps come in groups of 4 along M: "For
			// MMAv3, the smallest indivisible unit of warp shape is
			// (4, 1)" (warpsPerTileV3 in
			// lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp of
			// triton-lang/triton), and wgmma runs on a warpgroup.
			for n := 8; n <= 256 && tt.WarpgroupMMA && tt.vendors("nvidia") && w[len(w)-2]%4 == 0; n *= 2 {
				v3 := &NvidiaMMA{VersionMajor: 3, WarpsPerCTA: w, InstrShape: []int{16, n, 16}}
				add(v3, 2)
				dots(v3, 1) // B of a wgmma is read from shared memory
			}
		case 8, 16:
			if !tt.vendors("intel") {
				break
			}
			// Intel: dpas with 8 rows per instruction, 8 systolic
			// steps, 8 or 16 columns (32-lane dpas layouts are read but
			// not tried here, where NVIDIA's and AMD's are).
			for _, exec := range []int{8, 16} {
				// 16-bit operands (2 per channel) first: an accumulator
				// alone does not tell the operands' width.
				for _, ops := range []int{2, 1, 4} {
					for _, rc := range [][]int{{1, 1}, {2, 1}, {4, 1}, {1, 2}, {2, 2}, {4, 2}} {
						m := &IntelDPAS{RepeatCount: 8, SystolicDepth: 8, ExecutionSize: exec, OpsPerChan: ops, ThreadsPerWarp: lanes, WarpsPerCTA: w, RepCluster: rc}
						add(m, 0)
						for op := range 2 {
							add(&DotOperand{OpIdx: op, Parent: m, KWidth: ops}, 1)
						}
					}
				}
			}
		case 64:
			if !tt.vendors("amd") {
				break
			}
			for _, mn := range []int{32, 16} {
				m := &AMDMFMA{Version: 3, WarpsPerCTA: w, InstrShape: []int{mn, mn}}
				add(m, 0)
				dots(m, 2) // operands do not depend on isTransposed
				add(&AMDMFMA{Version: 3, WarpsPerCTA: w, InstrShape: []int{mn, mn}, IsTransposed: true}, 2)
			}
		}
	}
	return out
}

// warpSplits lists the ways to spread n warps (a power of two) over rank
// dimensions as powers of two, the last dimension's share growing first.
func warpSplits(n, rank int) [][]int {
	if !isPow2(n) {
		return nil
	}
	var out [][]int
	var rec func(d, left int, cur []int)
	rec = func(d, left int, cur []int) {
		if d == rank-1 {
			out = append(out, append(slices.Clone(cur), left))
			return
		}
		for k := 1; k <= left; k *= 2 {
			rec(d+1, left/k, append(cur, k))
		}
	}
	rec(0, n, nil)
	return out
}

func sameBases(a, b *Linear) bool {
	eq := func(x, y [][]int) bool {
		return slices.EqualFunc(x, y, func(p, q []int) bool { return slices.Equal(p, q) })
	}
	return eq(a.Register, b.Register) && eq(a.Lane, b.Lane) && eq(a.Warp, b.Warp) && eq(a.Block, b.Block)
}
