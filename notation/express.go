package notation

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"planner/model"
)

// Kinds lists the notations in the order tools show them.
var Kinds = []string{"nested", "xegpu", "blocked", "linear", "cute", "table", "triton"}

// Express writes l in the notation kind, or explains why it cannot.
func Express(kind string, l *model.Layout) (model.Notation, error) {
	if l.InShared() && slices.Contains(Kinds, kind) {
		return nil, notExpressible(kind, "the value is left in shared memory: no register holds it")
	}
	if l.Opaque() != "" && slices.Contains(Kinds, kind) {
		return nil, notExpressible(kind, "the lanes and registers of a %s fragment are unspecified", l.Opaque())
	}
	switch kind {
	case "nested":
		return ExpressNested(l)
	case "xegpu":
		return ExpressXeGPU(l)
	case "blocked":
		return ExpressBlocked(l)
	case "linear":
		return ExpressLinear(l)
	case "cute":
		return ExpressCuTe(l)
	case "table":
		return ExpressTable(l)
	case "triton":
		return ExpressTriton(l)
	}
	return nil, errorf(model.CodeUnknownName, "notation", "unknown notation %q (known: %s)", kind, strings.Join(Kinds, ", "))
}

// notExpressible makes the error Express functions return.
func notExpressible(kind string, format string, args ...any) *model.Error {
	return &model.Error{Code: model.CodeNotExpressible, Index: -1, Msg: fmt.Sprintf("not expressible as %s: ", kind) + fmt.Sprintf(format, args...)}
}

// idOwner is what one digit of a hardware id selects: digit Digit of the
// tile of tensor dimension Dim, or nothing (Dim < 0) when ids that differ
// only in this digit hold the same data.
type idOwner struct {
	Dim, Digit int
}

// idField is one tensor dimension's share of a hardware id, in the form
// used by IREE's nested layout: virtual id = (id / stride) % tile.
type idField struct {
	dim, stride, tile int
}

// idDigits splits a hardware id of size n into digits from strides and
// tiles (virtual_id[d] = (id / stride[d]) % tile[d]). Ids between the
// fields or above them select nothing: their holders repeat. It fails when
// two fields overlap, when a stride does not continue the digits below it,
// or when the fields need more ids than there are.
func idDigits(fields []idField, n int, strideKey string, what string) (model.Radices, []idOwner, error) {
	rad, own, place, err := fieldDigits(fields, strideKey, what)
	if err != nil {
		return nil, nil, err
	}
	if place > n {
		return nil, nil, errorf(model.CodeShapeMismatch, strideKey, "the %s tiles and strides span %d ids but there are only %d", what, place, n)
	}
	return padDigits(rad, own, place, n, strideKey, what)
}

// foldedIDDigits is idDigits for subgroup ids, which IREE's nested layout
// takes modulo the hardware count (seed 000: "If the total number of
// subgroups used exceeds the number of subgroups of the hardware, then the
// subgroup used (say x) is x mod num_subgroups", so subgroup_tile [4, 2],
// subgroup_strides [1, 4] on 4 subgroups puts virtual subgroups
// 0, 4, 1, 5, 2, 6, 3, 7 on subgroups 0, 0, 1, 1, 2, 2, 3, 3). The virtual
// id digits up to n are the hardware id's; those above it are returned
// apart, as the tiles a subgroup holds once for each virtual subgroup folded
// onto it. The span must be a multiple of n that splits at a digit, and no
// digit above n may be a gap between fields: it would fold two copies of
// the same data onto one subgroup.
func foldedIDDigits(fields []idField, n int, strideKey string, what string) (model.Radices, []idOwner, model.Radices, []idOwner, error) {
	rad, own, place, err := fieldDigits(fields, strideKey, what)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if place <= n {
		rad, own, err := padDigits(rad, own, place, n, strideKey, what)
		return rad, own, nil, nil, err
	}
	if place%n != 0 {
		return nil, nil, nil, nil, errorf(model.CodeShapeMismatch, strideKey, "the %s tiles and strides span %d ids, which is not a multiple of the %d there are, so ids modulo %d would not fold evenly", what, place, n, n)
	}
	size, k := 1, 0
	for ; k < len(rad) && size < n; k++ {
		size *= rad[k]
	}
	if size != n {
		return nil, nil, nil, nil, errorf(model.CodeShapeMismatch, strideKey, "the %s tiles and strides span %d ids, and a tile straddles the %d there are without splitting there, so ids modulo %d do not fold onto whole digits", what, place, n, n)
	}
	for _, o := range own[k:] {
		if o.Dim < 0 {
			return nil, nil, nil, nil, errorf(model.CodeShapeMismatch, strideKey, "the %s strides leave ids unused above the %d there are: folding ids modulo %d would give a %s the same data twice", what, n, n, what)
		}
	}
	return rad[:k], own[:k], rad[k:], own[k:], nil
}

// fieldDigits lays the fields out as id digits, least significant first,
// and returns the span of ids they need.
func fieldDigits(fields []idField, strideKey string, what string) (model.Radices, []idOwner, int, error) {
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].stride < fields[j].stride })
	var rad model.Radices
	var own []idOwner
	place := 1
	prev := -1
	for i, f := range fields {
		if f.stride < place {
			return nil, nil, 0, errorAt(model.CodeOverlap, strideKey, f.dim,
				"stride %d reuses the %s ids of dimension %d (stride %d spans up to %d): two dimensions would read the same id digits",
				f.stride, what, fields[prev].dim, fields[prev].stride, place)
		}
		if f.stride%place != 0 {
			return nil, nil, 0, errorAt(model.CodeBadValue, strideKey, f.dim,
				"stride %d is not a multiple of %d, the span of the fields below it", f.stride, place)
		}
		for _, r := range model.RadicesOf(f.stride / place) {
			rad = append(rad, r)
			own = append(own, idOwner{-1, 0})
		}
		for k, r := range model.RadicesOf(f.tile) {
			rad = append(rad, r)
			own = append(own, idOwner{f.dim, k})
		}
		place = f.stride * f.tile
		prev = i
	}
	return rad, own, place, nil
}

// padDigits adds the digits of the ids above the fields' span, which
// select nothing.
func padDigits(rad model.Radices, own []idOwner, place, n int, strideKey string, what string) (model.Radices, []idOwner, error) {
	if n%place != 0 {
		return nil, nil, errorf(model.CodeShapeMismatch, strideKey, "the %s tiles and strides span %d ids, which does not divide the %d there are, so the repeats would be uneven", what, place, n)
	}
	for _, r := range model.RadicesOf(n / place) {
		rad = append(rad, r)
		own = append(own, idOwner{-1, 0})
	}
	return rad, own, nil
}

// owners describes a monomial layout: every hardware digit selects at most
// one tensor digit (a binary digit one bit, never an XOR of several) and
// every tensor digit is selected by exactly one hardware digit. The
// tile-based notations (nested, xegpu, blocked) can only write such layouts.
type owners struct {
	l  *model.Layout
	of [][]hwDigit                       // of[d][k]: the hardware digit selecting digit k of dimension d
	hw [model.NumHwDims][]model.DigitRef // hw[h][p]: the tensor digit hardware digit p selects, Axis < 0 if none
}

func (o *owners) ownerOf(d, k int) hwDigit { return o.of[d][k] }

func monomialOwners(l *model.Layout, kind string) (*owners, error) {
	o := &owners{l: l, of: make([][]hwDigit, l.Rank())}
	for d := range l.Rank() {
		o.of[d] = make([]hwDigit, len(l.DimRadices(d)))
		for k := range o.of[d] {
			o.of[d][k] = hwDigit{-1, -1}
		}
	}
	for h := range model.NumHwDims {
		for p := range l.Radices(h) {
			img := l.Image(h, p)
			switch len(img) {
			case 0:
				o.hw[h] = append(o.hw[h], model.DigitRef{Axis: -1, Digit: -1})
				continue
			case 1:
			default:
				return nil, notExpressible(kind, "%s digit %d selects the XOR of %s; %s gives each hardware bit a single tensor position", h, p, refsString(img), kind)
			}
			ref := img[0]
			if prev := o.of[ref.Axis][ref.Digit]; prev.h >= 0 {
				return nil, notExpressible(kind, "dim%d digit %d is selected by both %s digit %d and %s digit %d", ref.Axis, ref.Digit, prev.h, prev.p, h, p)
			}
			o.of[ref.Axis][ref.Digit] = hwDigit{h, p}
			o.hw[h] = append(o.hw[h], ref)
		}
	}
	return o, nil
}

func refsString(img model.Image) string {
	parts := make([]string, len(img))
	for i, r := range img {
		parts[i] = fmt.Sprintf("dim%d digit %d", r.Axis, r.Digit)
	}
	return strings.Join(parts, " and ")
}

// run is a maximal stretch of one dimension's digits selected by one
// hardware axis.
type run struct {
	h          model.HwDim
	start, end int // tensor digits [start, end)
}

// runs splits dimension d's digits into runs by hardware axis.
func (o *owners) runs(d int) []run {
	var rs []run
	for k, hd := range o.of[d] {
		if len(rs) > 0 && rs[len(rs)-1].h == hd.h {
			rs[len(rs)-1].end = k + 1
			continue
		}
		rs = append(rs, run{hd.h, k, k + 1})
	}
	return rs
}

// matchRuns checks that dimension d's runs follow pattern (a sequence of
// hardware axes, each run optional, in order) and returns, per pattern
// entry, the tensor digits [start, end) it covers.
func (o *owners) matchRuns(d int, pattern []model.HwDim) ([][2]int, bool) {
	rs := o.runs(d)
	out := make([][2]int, len(pattern))
	i := 0
	pos := 0
	for j, h := range pattern {
		out[j] = [2]int{pos, pos}
		if i < len(rs) && rs[i].h == h {
			out[j] = [2]int{rs[i].start, rs[i].end}
			pos = rs[i].end
			i++
		}
	}
	return out, i == len(rs)
}

func runsString(rs []run) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.h.String()
	}
	return strings.Join(parts, ", ")
}

// productOf is the product of radices [start, end) of dimension d.
func (o *owners) productOf(d, start, end int) int {
	n := 1
	for _, r := range o.l.DimRadices(d)[start:end] {
		n *= r
	}
	return n
}

// consecutive checks that tensor digits [start, end) of dimension d are
// selected by consecutive increasing digits of one hardware axis and returns
// the first of them.
func (o *owners) consecutive(d, start, end int) (first int, ok bool) {
	if start == end {
		return 0, true
	}
	first = o.of[d][start].p
	for k := start; k < end; k++ {
		if o.of[d][k].p != first+k-start {
			return first, false
		}
	}
	return first, true
}

// placeOf is the value of a unit in digit p of hardware axis h.
func (o *owners) placeOf(h model.HwDim, p int) int {
	place := 1
	for _, r := range o.l.Radices(h)[:p] {
		place *= r
	}
	return place
}

// factorDigits checks that the product of dimension d's digits
// [start, end) is laid out as RadicesOf(product) (binary digits first).
func (o *owners) factorDigits(d, start, end int) bool {
	n := o.productOf(d, start, end)
	want := model.RadicesOf(n)
	got := o.l.DimRadices(d)[start:end]
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != got[i] {
			return false
		}
	}
	return true
}

func intsString(xs []int) string { return joinInts(xs, ", ") }

// segment is one step of reading a lane's values: a run of consecutive
// register digits selecting consecutive digits of dimension dim.
type segment struct {
	dim   int
	jump  int  // when ≥ 0, the dimension's cursor moves here first (past lane or subgroup digits)
	limit int  // the run may not pass this digit of the dimension
	lazy  bool // try the shortest run first instead of the longest
}

// parseSegments reads the register axis (the tensor digit each register
// digit selects) as the given segments in order, backtracking over run
// lengths, and returns the first reading that consumes every digit and that
// accept approves: for each segment, the tensor digits [start, end) it took.
func parseSegments(regs []model.DigitRef, segs []segment, rank int, accept func([][2]int) bool) ([][2]int, bool) {
	out := make([][2]int, len(segs))
	cursor := make([]int, rank)
	steps := 0
	var rec func(i, pos int) bool
	rec = func(i, pos int) bool {
		steps++
		if steps > 100000 {
			return false
		}
		if i == len(segs) {
			return pos == len(regs) && accept(out)
		}
		s := segs[i]
		saved := cursor[s.dim]
		if s.jump >= 0 {
			cursor[s.dim] = s.jump
		}
		from := cursor[s.dim]
		m := 0
		for pos+m < len(regs) && regs[pos+m].Axis == s.dim && regs[pos+m].Digit == from+m && from+m < s.limit {
			m++
		}
		for j := range m + 1 {
			k := m - j
			if s.lazy {
				k = j
			}
			cursor[s.dim] = from + k
			out[i] = [2]int{from, from + k}
			if rec(i+1, pos+k) {
				return true
			}
		}
		cursor[s.dim] = saved
		return false
	}
	if !rec(0, 0) {
		return nil, false
	}
	return out, true
}
