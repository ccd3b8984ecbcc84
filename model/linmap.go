package model

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Radices lists the digits of one axis, least significant first. Radix 2 is
// a binary digit (one index bit); an odd radix of at least 3 is a repetition
// digit. An index x of the axis is read in this mixed radix: with radices
// [2, 2, 3] the index 7 is the digits (1, 1, 1) because 7 = 1 + 2·1 + 4·1.
type Radices []int

// RadicesOf splits n = 2^k·m (m odd) into k binary digits followed by one
// repetition digit m when m > 1. RadicesOf(96) is [2 2 2 2 2 3].
func RadicesOf(n int) Radices {
	var r Radices
	for n > 1 && n%2 == 0 {
		r = append(r, 2)
		n /= 2
	}
	if n > 1 {
		r = append(r, n)
	}
	return r
}

// Size is the product of the radices: the number of indices of the axis.
func (r Radices) Size() int {
	n := 1
	for _, x := range r {
		n *= x
	}
	return n
}

// Bits counts the binary digits.
func (r Radices) Bits() int {
	n := 0
	for _, x := range r {
		if x == 2 {
			n++
		}
	}
	return n
}

// IsPow2 reports whether every digit is binary.
func (r Radices) IsPow2() bool { return r.Bits() == len(r) }

func (r Radices) String() string { return joinInts(r, " ") }

// joinInts writes a bracketed list of ints with a separator.
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, sep) + "]"
}

// DigitValue is one digit of a tensor index read in its dimensions' mixed
// radices: which digit, its radix and the value it takes there.
type DigitValue struct {
	DigitRef
	Radix, Value int
}

// IndexDigits reads idx digit by digit in the radices of dims (dimension
// d in dims[d], lowest digit first) and returns its nonzero digits,
// dimension by dimension, lowest digit first.
func IndexDigits(dims []Radices, idx []int) []DigitValue {
	var out []DigitValue
	for d, rad := range dims {
		x := idx[d]
		for p, r := range rad {
			if q := x % r; q != 0 {
				out = append(out, DigitValue{DigitRef{d, p}, r, q})
			}
			x /= r
		}
	}
	return out
}

// Axis is one named coordinate of a space, read in mixed radix.
type Axis struct {
	Name    string
	Radices Radices
}

func (a Axis) Size() int { return a.Radices.Size() }

// DigitRef names digit Digit (least significant first) of axis Axis.
type DigitRef struct {
	Axis, Digit int
}

// Image is where one input digit of a Map goes. For a binary input digit it
// lists output binary digits whose XOR the digit sets (empty: the digit
// duplicates, it changes nothing in the output). For a repetition digit it is
// empty (duplicating) or names one output repetition digit of the same radix,
// which then copies the input digit's value.
type Image []DigitRef

// digit is one digit of a space, flattened.
type digit struct {
	axis, pos int
	radix     int
	place     int // value of a unit in this digit within its axis
	flat      int // index among the space's binary digits, or among its repetition digits
}

// space is the digit bookkeeping of a list of axes.
type space struct {
	axes   []Axis
	digits []digit
	first  []int // first[a]: index in digits of axis a's digit 0
	nBits  int
	nOdd   int
}

func newSpace(axes []Axis) space {
	s := space{axes: axes, first: make([]int, len(axes))}
	for a, ax := range axes {
		s.first[a] = len(s.digits)
		place := 1
		for p, r := range ax.Radices {
			d := digit{axis: a, pos: p, radix: r, place: place}
			if r == 2 {
				d.flat = s.nBits
				s.nBits++
			} else {
				d.flat = s.nOdd
				s.nOdd++
			}
			s.digits = append(s.digits, d)
			place *= r
		}
	}
	return s
}

func (s *space) digitOf(ref DigitRef) (digit, bool) {
	if ref.Axis < 0 || ref.Axis >= len(s.axes) || ref.Digit < 0 || ref.Digit >= len(s.axes[ref.Axis].Radices) {
		return digit{}, false
	}
	return s.digits[s.first[ref.Axis]+ref.Digit], true
}

// point splits coordinates into a bit vector of binary digits and the values
// of the repetition digits.
func (s *space) point(coords []int) (uint64, []int) {
	var v uint64
	odd := make([]int, s.nOdd)
	for a, ax := range s.axes {
		x := coords[a]
		for p, r := range ax.Radices {
			d := s.digits[s.first[a]+p]
			q := x % r
			x /= r
			if r == 2 {
				if q == 1 {
					v |= 1 << uint(d.flat)
				}
			} else {
				odd[d.flat] = q
			}
		}
	}
	return v, odd
}

// coords assembles coordinates from binary digits and repetition values.
func (s *space) coords(v uint64, odd []int) []int {
	out := make([]int, len(s.axes))
	for _, d := range s.digits {
		if d.radix == 2 {
			if v>>uint(d.flat)&1 == 1 {
				out[d.axis] += d.place
			}
		} else if odd != nil {
			out[d.axis] += odd[d.flat] * d.place
		}
	}
	return out
}

func sameAxes(a, b []Axis) bool {
	return slices.EqualFunc(a, b, func(x, y Axis) bool {
		return x.Name == y.Name && slices.Equal(x.Radices, y.Radices)
	})
}

// MaxDigits bounds the binary digits of a space: bit vectors are 64 bits.
const MaxDigits = 64

// Map is a digit-linear map between two spaces of named mixed-radix axes:
// binary digits map linearly over GF(2) (each input bit to the XOR of some
// output bits, a zero image meaning duplication), and repetition digits map
// one to one onto output repetition digits of the same radix or to nothing.
// Triton's linear layouts are the Maps whose axes have only binary digits.
type Map struct {
	in, out space
	bitImg  []uint64 // by flat input binary digit: output bits set
	oddImg  []int    // by flat input repetition digit: flat output repetition digit, or -1
}

// NewMap builds a Map from one Image per input digit: images[a][p] is where
// digit p of input axis a goes.
func NewMap(in, out []Axis, images [][]Image) (*Map, error) {
	for _, ax := range append(slices.Clone(in), out...) {
		for _, r := range ax.Radices {
			if r < 2 || (r != 2 && r%2 == 0) {
				return nil, fmt.Errorf("axis %s: radix %d is neither 2 nor odd", ax.Name, r)
			}
		}
	}
	m := &Map{in: newSpace(in), out: newSpace(out)}
	if m.in.nBits > MaxDigits || m.out.nBits > MaxDigits {
		return nil, fmt.Errorf("more than %d binary digits", MaxDigits)
	}
	if len(images) != len(in) {
		return nil, fmt.Errorf("%d image lists for %d input axes", len(images), len(in))
	}
	m.bitImg = make([]uint64, m.in.nBits)
	m.oddImg = make([]int, m.in.nOdd)
	for a, ax := range in {
		if len(images[a]) != len(ax.Radices) {
			return nil, fmt.Errorf("axis %s: %d images for %d digits", ax.Name, len(images[a]), len(ax.Radices))
		}
		for p, img := range images[a] {
			d := m.in.digits[m.in.first[a]+p]
			if d.radix == 2 {
				for _, ref := range img {
					od, ok := m.out.digitOf(ref)
					if !ok || od.radix != 2 {
						return nil, fmt.Errorf("axis %s digit %d: image %v is not a binary output digit", ax.Name, p, ref)
					}
					m.bitImg[d.flat] ^= 1 << uint(od.flat)
				}
				continue
			}
			m.oddImg[d.flat] = -1
			switch len(img) {
			case 0:
			case 1:
				od, ok := m.out.digitOf(img[0])
				if !ok || od.radix != d.radix {
					return nil, fmt.Errorf("axis %s digit %d: repetition digit of radix %d needs an output digit of the same radix", ax.Name, p, d.radix)
				}
				m.oddImg[d.flat] = od.flat
			default:
				return nil, fmt.Errorf("axis %s digit %d: a repetition digit maps to at most one output digit", ax.Name, p)
			}
		}
	}
	seen := make([]bool, m.out.nOdd)
	for _, o := range m.oddImg {
		if o < 0 {
			continue
		}
		if seen[o] {
			return nil, fmt.Errorf("two repetition digits map to the same output digit")
		}
		seen[o] = true
	}
	return m, nil
}

// In and Out return the axes of the map.
func (m *Map) In() []Axis  { return slices.Clone(m.in.axes) }
func (m *Map) Out() []Axis { return slices.Clone(m.out.axes) }

// Image returns where digit p of input axis a goes.
func (m *Map) Image(a, p int) Image {
	d := m.in.digits[m.in.first[a]+p]
	var img Image
	if d.radix == 2 {
		v := m.bitImg[d.flat]
		for _, od := range m.out.digits {
			if od.radix == 2 && v>>uint(od.flat)&1 == 1 {
				img = append(img, DigitRef{od.axis, od.pos})
			}
		}
		return img
	}
	if o := m.oddImg[d.flat]; o >= 0 {
		for _, od := range m.out.digits {
			if od.radix != 2 && od.flat == o {
				img = append(img, DigitRef{od.axis, od.pos})
			}
		}
	}
	return img
}

// Apply maps input coordinates (one per input axis) to output coordinates.
func (m *Map) Apply(in []int) []int {
	v, odd := m.in.point(in)
	return m.out.coords(m.applyBits(v), m.applyOdd(odd))
}

func (m *Map) applyBits(v uint64) uint64 {
	var r uint64
	for v != 0 {
		i := bits.TrailingZeros64(v)
		r ^= m.bitImg[i]
		v &= v - 1
	}
	return r
}

func (m *Map) applyOdd(odd []int) []int {
	out := make([]int, m.out.nOdd)
	for i, o := range m.oddImg {
		if o >= 0 {
			out[o] = odd[i]
		}
	}
	return out
}

// Equal reports whether two maps have the same axes and the same images.
func (m *Map) Equal(o *Map) bool {
	return sameAxes(m.in.axes, o.in.axes) && sameAxes(m.out.axes, o.out.axes) &&
		slices.Equal(m.bitImg, o.bitImg) && slices.Equal(m.oddImg, o.oddImg)
}

// rank is the dimension of the image of the binary part.
func (m *Map) rank() int { return spanOf(m.bitImg...).dim() }

// IsSurjective reports whether every output point is the image of some input.
func (m *Map) IsSurjective() bool {
	if m.rank() != m.out.nBits {
		return false
	}
	hit := 0
	for _, o := range m.oddImg {
		if o >= 0 {
			hit++
		}
	}
	return hit == m.out.nOdd
}

// IsInjective reports whether no two inputs share an output.
func (m *Map) IsInjective() bool {
	if m.rank() != m.in.nBits {
		return false
	}
	return !slices.Contains(m.oddImg, -1)
}

// Compose returns g∘m, the map that applies m and then g. The output axes of
// m must be the input axes of g.
func (m *Map) Compose(g *Map) (*Map, error) {
	if !sameAxes(m.out.axes, g.in.axes) {
		return nil, fmt.Errorf("compose: output axes %s do not match input axes %s", axesString(m.out.axes), axesString(g.in.axes))
	}
	r := &Map{in: m.in, out: g.out, bitImg: make([]uint64, m.in.nBits), oddImg: make([]int, m.in.nOdd)}
	for i, v := range m.bitImg {
		r.bitImg[i] = g.applyBits(v)
	}
	for i, o := range m.oddImg {
		r.oddImg[i] = -1
		if o >= 0 {
			r.oddImg[i] = g.oddImg[o]
		}
	}
	return r, nil
}

// PseudoInverse returns a map p from the outputs back to the inputs with
// m∘p∘m = m: p sends every output point in the image of m to one of its
// preimages (the one that uses the lowest-numbered input digits), so for a
// surjective m, m∘p is the identity. Output repetition digits that no input
// digit reaches map to nothing.
func (m *Map) PseudoInverse() *Map {
	p := &Map{in: m.out, out: m.in, bitImg: make([]uint64, m.out.nBits), oddImg: make([]int, m.out.nOdd)}
	s := spanOf(m.bitImg...)
	for b := range p.bitImg {
		e := uint64(1) << uint(b)
		r, combo := s.reduce(e)
		_ = r // the part of e outside the image maps to zero
		p.bitImg[b] = combo
	}
	for i := range p.oddImg {
		p.oddImg[i] = -1
	}
	for i, o := range m.oddImg {
		if o >= 0 {
			p.oddImg[o] = i
		}
	}
	return p
}

// Product returns the map that runs m and g side by side. Axes are matched
// by name; where both have an axis, g's digits become the more significant
// digits of the combined axis, so g tiles m. Axes only one map has keep
// their place, m's first.
func (m *Map) Product(g *Map) (*Map, error) {
	in, inShift := mergeAxes(m.in.axes, g.in.axes)
	out, outShift := mergeAxes(m.out.axes, g.out.axes)
	images := make([][]Image, len(in))
	for a := range in {
		images[a] = make([]Image, len(in[a].Radices))
	}
	for a := range m.in.axes {
		ra := indexOfAxis(in, m.in.axes[a].Name)
		for p := range m.in.axes[a].Radices {
			img := m.Image(a, p)
			for i, ref := range img {
				img[i] = DigitRef{indexOfAxis(out, m.out.axes[ref.Axis].Name), ref.Digit}
			}
			images[ra][p] = img
		}
	}
	for a := range g.in.axes {
		ra := indexOfAxis(in, g.in.axes[a].Name)
		for p := range g.in.axes[a].Radices {
			img := g.Image(a, p)
			for i, ref := range img {
				name := g.out.axes[ref.Axis].Name
				img[i] = DigitRef{indexOfAxis(out, name), ref.Digit + outShift[name]}
			}
			images[ra][p+inShift[g.in.axes[a].Name]] = img
		}
	}
	return NewMap(in, out, images)
}

// mergeAxes combines two axis lists by name; shift says how many digits of
// the first list's axis precede the second list's digits.
func mergeAxes(a, b []Axis) ([]Axis, map[string]int) {
	out := make([]Axis, 0, len(a)+len(b))
	shift := map[string]int{}
	for _, x := range a {
		out = append(out, Axis{x.Name, slices.Clone(x.Radices)})
	}
	for _, y := range b {
		if i := indexOfAxis(out, y.Name); i >= 0 {
			shift[y.Name] = len(out[i].Radices)
			out[i].Radices = append(out[i].Radices, y.Radices...)
			continue
		}
		out = append(out, Axis{y.Name, slices.Clone(y.Radices)})
	}
	return out, shift
}

func indexOfAxis(axes []Axis, name string) int {
	return slices.IndexFunc(axes, func(a Axis) bool { return a.Name == name })
}

func axesString(axes []Axis) string {
	parts := make([]string, len(axes))
	for i, a := range axes {
		parts[i] = a.Name + a.Radices.String()
	}
	return strings.Join(parts, " ")
}

// String writes the map as its images, one input digit per line.
func (m *Map) String() string {
	var b strings.Builder
	for a, ax := range m.in.axes {
		for p, r := range ax.Radices {
			fmt.Fprintf(&b, "%s.%d(radix %d) ->", ax.Name, p, r)
			img := m.Image(a, p)
			if len(img) == 0 {
				b.WriteString(" 0")
			}
			for _, ref := range img {
				fmt.Fprintf(&b, " %s.%d", m.out.axes[ref.Axis].Name, ref.Digit)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
