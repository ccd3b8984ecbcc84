package notation

import (
	"fmt"
	"strings"

	"planner/model"
)

// Linear writes a layout as Triton's linear layouts do: for every bit of
// the register, lane, warp and block ids, the tensor coordinates it
// selects; a hardware point holds the XOR of the coordinates of its set
// bits (triton-lang/triton include/triton/Tools/LinearLayout.h). Every
// extent must be a power of two.
type Linear struct {
	Register [][]int
	Lane     [][]int
	Warp     [][]int
	Block    [][]int
}

func (x *Linear) Kind() string { return "linear" }

func (x *Linear) Fields() []model.Field {
	return []model.Field{
		{Key: "register", Lists: x.Register, IsList: true},
		{Key: "lane", Lists: x.Lane, IsList: true},
		{Key: "warp", Lists: x.Warp, IsList: true},
		{Key: "block", Lists: x.Block, IsList: true},
	}
}

// Attr prints the layout as Triton writes it.
func (x *Linear) Attr() string {
	var parts []string
	for _, f := range x.Fields() {
		parts = append(parts, f.Key+" = "+listsString(f.Lists))
	}
	return "#ttg.linear<{" + strings.Join(parts, ", ") + "}>"
}

func listsString(ls [][]int) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = intsString(l)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Layout builds the canonical layout of x for frame f.
func (x *Linear) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	dims := make([]model.Radices, r)
	for d, s := range f.Shape {
		if !isPow2(s) {
			return nil, errorAt(model.CodeNotPowerOfTwo, "shape", d, "extent %d is not a power of two; linear layouts read every index bit by bit (write repeats of %d in nested, xegpu or table notation)", s, s)
		}
		dims[d] = model.RadicesOf(s)
	}
	sizes := [model.NumHwDims]struct {
		key string
		n   int
	}{{"register", -1}, {"lane", f.SubgroupSize}, {"warp", f.Subgroups}, {"block", f.BlockCount()}}
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	for h, fl := range x.Fields() {
		if sizes[h].n >= 0 && 1<<uint(len(fl.Lists)) != sizes[h].n {
			what := map[string]string{"lane": "subgroup_size", "warp": "subgroups", "block": "blocks"}[fl.Key]
			return nil, errorf(model.CodeShapeMismatch, fl.Key, "%d %s bases give %d ids, but %s is %d", len(fl.Lists), fl.Key, 1<<uint(len(fl.Lists)), what, sizes[h].n)
		}
		if len(fl.Lists) > 30 {
			return nil, errorf(model.CodeTooLarge, fl.Key, "%d bases is more than 30", len(fl.Lists))
		}
		for i, basis := range fl.Lists {
			if len(basis) != r {
				return nil, errorAt(model.CodeRankMismatch, fl.Key, i, "basis %v has %d coordinates but the shape %v has rank %d", basis, len(basis), f.Shape, r)
			}
			var img model.Image
			for d, c := range basis {
				if c < 0 || c >= f.Shape[d] {
					return nil, errorAt(model.CodeBadValue, fl.Key, i, "coordinate %d of basis %v is outside 0..%d", c, basis, f.Shape[d]-1)
				}
				for k := 0; c>>uint(k) != 0; k++ {
					if c>>uint(k)&1 == 1 {
						img = append(img, model.DigitRef{Axis: d, Digit: k})
					}
				}
			}
			hw[h] = append(hw[h], 2)
			images[h] = append(images[h], img)
		}
	}
	return model.NewLayout(hw, dims, images)
}

// ExpressLinear writes l as linear bases, or says why it has none.
func ExpressLinear(l *model.Layout) (*Linear, error) {
	const kind = "linear"
	for d := range l.Rank() {
		if !l.DimRadices(d).IsPow2() {
			return nil, notExpressible(kind, "dimension %d has extent %d, not a power of two", d, l.Shape()[d])
		}
	}
	x := &Linear{Register: [][]int{}, Lane: [][]int{}, Warp: [][]int{}, Block: [][]int{}}
	lists := []*[][]int{&x.Register, &x.Lane, &x.Warp, &x.Block}
	for h := range model.NumHwDims {
		if !l.Radices(h).IsPow2() {
			return nil, notExpressible(kind, "%d %ss is not a power of two", l.Size(h), h)
		}
		for p := range l.Radices(h) {
			basis := make([]int, l.Rank())
			for _, ref := range l.Image(h, p) {
				basis[ref.Axis] ^= 1 << uint(ref.Digit)
			}
			*lists[h] = append(*lists[h], basis)
		}
	}
	return x, nil
}

// Table writes a layout as the element each (subgroup, lane, value) holds:
// one row [subgroup, lane, value, i0, i1, …] per hardware point, for
// hardware that fits no tiled notation. The rows must describe a
// GF(2)-linear map (with repeats of extents that are not powers of two);
// the loader checks every row against the map its unit rows define.
type Table struct {
	Rows [][]int
}

func (t *Table) Kind() string { return "table" }

func (t *Table) Fields() []model.Field {
	return []model.Field{{Key: "rows", Lists: t.Rows, IsList: true}}
}

// Attr prints the table one lane per line, as no compiler has an attribute
// for it.
func (t *Table) Attr() string {
	var b strings.Builder
	last := [2]int{-1, -1}
	for _, row := range t.Rows {
		if len(row) < 3 {
			continue
		}
		if [2]int{row[0], row[1]} != last {
			if last[0] >= 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "subgroup %d lane %d:", row[0], row[1])
			last = [2]int{row[0], row[1]}
		}
		fmt.Fprintf(&b, " %s", intsString(row[3:]))
	}
	if last[0] >= 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// Layout builds the canonical layout of the table for frame f.
func (t *Table) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f.BlockCount() != 1 {
		return nil, errorf(model.CodeBadValue, "blocks", "a table describes one block; write layouts over %d blocks in linear notation", f.BlockCount())
	}
	r := len(f.Shape)
	values := 0
	for i, row := range t.Rows {
		if len(row) != 3+r {
			return nil, errorAt(model.CodeRankMismatch, "rows", i, "row %v has %d entries; a row is [subgroup, lane, value] and %d coordinates", row, len(row), r)
		}
		if row[0] < 0 || row[0] >= f.Subgroups {
			return nil, errorAt(model.CodeBadValue, "rows", i, "subgroup %d is outside 0..%d", row[0], f.Subgroups-1)
		}
		if row[1] < 0 || row[1] >= f.SubgroupSize {
			return nil, errorAt(model.CodeBadValue, "rows", i, "lane %d is outside 0..%d", row[1], f.SubgroupSize-1)
		}
		if row[2] < 0 || row[2] >= model.MaxHwPoints {
			return nil, errorAt(model.CodeBadValue, "rows", i, "value %d is out of range", row[2])
		}
		for d, c := range row[3:] {
			if c < 0 || c >= f.Shape[d] {
				return nil, errorAt(model.CodeBadValue, "rows", i, "coordinate %d of dimension %d is outside 0..%d", c, d, f.Shape[d]-1)
			}
		}
		values = max(values, row[2]+1)
	}
	points := f.Subgroups * f.SubgroupSize * values
	if points > model.MaxHwPoints {
		return nil, errorf(model.CodeTooLarge, "rows", "%d values per lane make more than %d hardware points", values, model.MaxHwPoints)
	}
	if len(t.Rows) == 0 {
		return nil, errorf(model.CodeNotCovered, "rows", "the table has no rows")
	}
	at := make([]int, points) // row index + 1 of each point
	key := func(s, l, v int) int { return (s*f.SubgroupSize+l)*values + v }
	for i, row := range t.Rows {
		k := key(row[0], row[1], row[2])
		if at[k] != 0 {
			e := errorAt(model.CodeDuplicate, "rows", i, "subgroup %d lane %d value %d is also given by row %d", row[0], row[1], row[2], at[k]-1)
			e.RelatedIndex = []int{at[k] - 1}
			return nil, e
		}
		at[k] = i + 1
	}
	for k, a := range at {
		if a == 0 {
			v := k % values
			l := k / values % f.SubgroupSize
			s := k / values / f.SubgroupSize
			return nil, errorf(model.CodeNotCovered, "rows", "no row for subgroup %d lane %d value %d (every lane holds values 0..%d)", s, l, v, values-1)
		}
	}
	row := func(s, l, v int) []int { return t.Rows[at[key(s, l, v)]-1] }
	if first := row(0, 0, 0); !allZero(first[3:]) {
		return nil, errorAt(model.CodeNotLinear, "rows", at[0]-1, "subgroup 0 lane 0 value 0 holds %v; a layout puts element 0 there", first[3:])
	}
	// Extents that are not powers of two can be read in several mixed
	// radices (12 values as [2 2 3] or [3 2 2] …); try each, the plain
	// reading (binary digits first) first.
	choices := [][]model.Radices{radixChoices(values), radixChoices(f.Subgroups)}
	for _, s := range f.Shape {
		choices = append(choices, radixChoices(s))
	}
	var firstErr error
	tries := 0
	pick := make([]int, len(choices))
	for {
		hw := [model.NumHwDims]model.Radices{choices[0][pick[0]], model.RadicesOf(f.SubgroupSize), choices[1][pick[1]], nil}
		dims := make([]model.Radices, r)
		for d := range r {
			dims[d] = choices[2+d][pick[2+d]]
		}
		l, err := t.attempt(hw, dims, at, key)
		if err == nil {
			return l, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		tries++
		// Next combination.
		i := 0
		for ; i < len(pick); i++ {
			pick[i]++
			if pick[i] < len(choices[i]) {
				break
			}
			pick[i] = 0
		}
		if i == len(pick) || tries >= 4096 {
			return nil, firstErr
		}
	}
}

// attempt reads the table with the given digits for each axis.
func (t *Table) attempt(hw [model.NumHwDims]model.Radices, dims []model.Radices, at []int, key func(s, l, v int) int) (*model.Layout, error) {
	var images [model.NumHwDims][]model.Image
	for h := range model.Block {
		place := 1
		for p, rad := range hw[h] {
			pt := [3]int{}
			pt[h] = place
			i := at[key(pt[model.Subgroup], pt[model.Lane], pt[model.Register])] - 1
			idx := t.Rows[i][3:]
			digits := model.IndexDigits(dims, idx)
			var img model.Image
			if rad == 2 {
				for _, dg := range digits {
					if dg.Radix != 2 {
						return nil, errorAt(model.CodeNotLinear, "rows", i, "%s digit %d (row %v) reaches %v, inside a repeat of a dimension that is not a power of two; only repetition digits of the hardware can", h, p, t.Rows[i][:3], idx)
					}
				}
				for _, dg := range digits {
					img = append(img, dg.DigitRef)
				}
			} else {
				// A repetition digit must select one repetition digit of the
				// tensor with the same radix.
				if len(digits) == 1 && digits[0].Radix == rad && digits[0].Value == 1 {
					img = model.Image{digits[0].DigitRef}
				}
				if img == nil && len(digits) != 0 {
					return nil, errorAt(model.CodeNotLinear, "rows", i, "%s digit %d of radix %d (row %v) reaches %v, which is not one step of a repeat of %d", h, p, rad, t.Rows[i][:3], idx, rad)
				}
			}
			images[h] = append(images[h], img)
			place *= rad
		}
	}
	l, err := model.NewLayout(hw, dims, images)
	if err != nil {
		if e, ok := err.(*model.Error); ok {
			e.Field = "rows"
			return nil, e
		}
		return nil, errorf(model.CodeNotLinear, "rows", "the unit rows do not form a layout: %v", err)
	}
	for i, row := range t.Rows {
		want := l.Index(model.HwPoint{Value: row[2], Lane: row[1], Subgroup: row[0]})
		if !equalInts(want, row[3:]) {
			return nil, errorAt(model.CodeNotLinear, "rows", i, "subgroup %d lane %d value %d holds %v, but the rows of its index bits give %v: the table is not a linear layout",
				row[0], row[1], row[2], row[3:], want)
		}
	}
	return l, nil
}

// radixChoices lists the mixed radices an extent can be read in: its
// binary digits interleaved with every ordered factorisation of its odd
// part, RadicesOf(n) first.
func radixChoices(n int) []model.Radices {
	first := model.RadicesOf(n)
	out := []model.Radices{first}
	if first.IsPow2() {
		return out
	}
	k := first.Bits()
	odd := n >> uint(k)
	seen := map[string]bool{first.String(): true}
	for _, fs := range oddFactorisations(odd) {
		// Interleave k twos with the factors fs, keeping both orders.
		var rec func(prefix model.Radices, twos, next int)
		rec = func(prefix model.Radices, twos, next int) {
			if len(out) >= 64 {
				return
			}
			if twos == 0 && next == len(fs) {
				if s := prefix.String(); !seen[s] {
					seen[s] = true
					out = append(out, append(model.Radices(nil), prefix...))
				}
				return
			}
			if twos > 0 {
				rec(append(prefix, 2), twos-1, next)
			}
			if next < len(fs) {
				rec(append(prefix, fs[next]), twos, next+1)
			}
		}
		rec(nil, k, 0)
	}
	return out
}

// oddFactorisations lists the ordered factorisations of an odd n > 1 into
// factors greater than 1.
func oddFactorisations(n int) [][]int {
	var out [][]int
	var rec func(rest int, prefix []int)
	rec = func(rest int, prefix []int) {
		if rest == 1 {
			out = append(out, append([]int(nil), prefix...))
			return
		}
		for f := 3; f <= rest; f += 2 {
			if rest%f == 0 {
				rec(rest/f, append(prefix, f))
			}
		}
	}
	rec(n, nil)
	return out
}

func allZero(xs []int) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ExpressTable lists every hardware point of l with the element it holds.
func ExpressTable(l *model.Layout) (*Table, error) {
	if l.Size(model.Block) > 1 {
		return nil, notExpressible("table", "it spans %d blocks; a table describes one block", l.Size(model.Block))
	}
	t := &Table{}
	l.Each(func(p model.HwPoint, idx []int) {
		if p.Block == 0 {
			t.Rows = append(t.Rows, append([]int{p.Subgroup, p.Lane, p.Value}, idx...))
		}
	})
	return t, nil
}
