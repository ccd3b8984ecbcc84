package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// HwDim is a hardware index a distributed layout maps from.
type HwDim int

const (
	Register HwDim = iota // the value's position in a lane's fragment
	Lane                  // the lane (thread, work-item) in its subgroup
	Subgroup              // the subgroup (warp, wave) in the block
	Block                 // the block (CTA, workgroup) in a cluster
	NumHwDims
)

var hwNames = [NumHwDims]string{"register", "lane", "subgroup", "block"}

func (h HwDim) String() string {
	if h >= 0 && h < NumHwDims {
		return hwNames[h]
	}
	return fmt.Sprintf("hw(%d)", int(h))
}

// HwPoint is one hardware location: value Value of lane Lane of subgroup
// Subgroup of block Block.
type HwPoint struct {
	Value, Lane, Subgroup, Block int
}

func (p HwPoint) coords() []int { return []int{p.Value, p.Lane, p.Subgroup, p.Block} }

func hwPointOf(c []int) HwPoint { return HwPoint{c[0], c[1], c[2], c[3]} }

func (p HwPoint) String() string {
	return fmt.Sprintf("subgroup %d lane %d value %d", p.Subgroup, p.Lane, p.Value)
}

// Limits on what a layout may describe. A register tile is far smaller; the
// limits keep absurd inputs from exhausting memory.
const (
	MaxElements = 1 << 24 // tensor elements
	MaxHwPoints = 1 << 24 // register × lane × subgroup × block
	MaxRank     = 8
)

// Layout is a distributed layout: a Map from the hardware axes register,
// lane, subgroup and block (in that order) onto the axes dim0, dim1, … of a
// tensor, under which every element is held by at least one hardware point.
//
// A layout never changes once made, so goroutines share layouts freely.
// It holds its map and shape, what marks it (opaque, inShared, tiles),
// and the few facts of its map that every conversion and cost reads,
// worked out when it is made (key, hw, graded, widths, copies). What a
// consumer computes from a layout it keeps itself, by layout: Memo for
// the layout operations and the tables that counting accesses reads,
// AccessCache for scratch accesses.
type Layout struct {
	m     *Map
	shape []int
	key   string   // Key
	class *Layout  // the layout that stands for every layout equal to it (intern.go)
	hw    hwDigits // hwBits of every axis
	// graded is the echelon basis of the hardware digits' images.
	graded grades
	// widths[dim] says where vectorWidth along dim ends.
	widths [MaxRank]widthLimits
	copies int // the register copies of one element (RegisterWords)
	// opaque names the fragment family (Record operand key `family`)
	// whose lanes and registers the architecture leaves unspecified: the
	// map is a stand-in inside each fragment tile, exact only in which
	// subgroup and which register repeat hold which tile (tiles). Such a
	// layout equals only itself and is never transformed or converted.
	opaque string
	tiles  *Layout
	// inShared marks a value that no register holds: it stays in the
	// shared-memory buffer it was loaded from, and the one instruction that
	// reads it (a wgmma B operand) reads it there through a descriptor.
	// The map is a stand-in; such a layout equals only itself.
	inShared bool
}

// InShared reports whether the layout stands for a value left in shared
// memory for an instruction that reads it through a descriptor.
func (l *Layout) InShared() bool { return l.inShared }

// LeftInShared is the layout of a value of the given shape left in shared
// memory: no register holds it, and only an instruction that reads its
// operand from shared memory (a record operand with in = "shared") takes
// it. Its map (every element in one register slot of lane 0) is a
// stand-in that only tells the shape.
func LeftInShared(shape []int) (*Layout, error) {
	elems := 1
	for _, s := range shape {
		elems *= s
	}
	m, err := standInMap("in shared memory", shape, max(elems, 1), 1)
	if err != nil {
		return nil, err
	}
	return layoutOf(m, marks{inShared: true})
}

// marks is what a layout is besides its map: an opaque fragment's
// family and tiles, or a value left in shared memory.
type marks struct {
	opaque   string
	tiles    *Layout
	inShared bool
}

// key is the start of the key of a layout so marked.
func (mk marks) key() string {
	var s string
	if mk.opaque != "" {
		s = "opaque " + mk.opaque + " "
		if mk.tiles != nil {
			s += "tiles {" + mk.tiles.key + "} "
		}
	}
	if mk.inShared {
		s += "in shared "
	}
	return s
}

// Opaque is the fragment family whose lanes and registers are
// unspecified within each tile of this layout, "" for a layout that
// places every element exactly.
func (l *Layout) Opaque() string { return l.opaque }

// Tiles is, for an opaque layout, the layout of its fragment tiles: which
// subgroup and which register repeat hold which tile, over the grid of
// tiles. nil for the bare fragment and for layouts that are not opaque.
func (l *Layout) Tiles() *Layout { return l.tiles }

// StandIn returns a layout of the given shape marked as fragment family
// family: lanes and registers unspecified. Its map fills registers along
// the last dimension first, then lanes, and duplicates over the points
// left over (a fragment of more register slots than elements holds each
// element more than once, as WMMA's A and B fragments do). Only the tile
// it covers and the slots per lane are meaningful.
func StandIn(family string, shape []int, perLane, lanes int) (*Layout, error) {
	m, err := standInMap(family, shape, perLane, lanes)
	if err != nil {
		return nil, err
	}
	return layoutOf(m, marks{opaque: family})
}

// standInMap is the map of StandIn.
func standInMap(family string, shape []int, perLane, lanes int) (*Map, error) {
	elems := 1
	for _, s := range shape {
		elems *= s
	}
	if family == "" || perLane < 1 || lanes < 1 || !isPow2(perLane) || !isPow2(lanes) || !isPow2(elems) || perLane*lanes < elems {
		return nil, errorf(CodeBadValue, "registers", "an unspecified fragment of %v over %d lanes needs a power-of-two count of at least %d values per lane, got %d", shape, lanes, ceilDiv(elems, lanes), perLane)
	}
	dims := make([]Radices, len(shape))
	var order []DigitRef // tensor digits, least significant first: last dimension first
	for d := len(shape) - 1; d >= 0; d-- {
		if !isPow2(shape[d]) {
			return nil, errorf(CodeBadValue, "shape", "an unspecified fragment needs power-of-two extents, got %v", shape)
		}
		dims[d] = RadicesOf(shape[d])
		for k := range dims[d] {
			order = append(order, DigitRef{d, k})
		}
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	next := 0
	fill := func(h HwDim, n int) {
		for _, r := range RadicesOf(n) {
			hw[h] = append(hw[h], r)
			if next < len(order) {
				images[h] = append(images[h], Image{order[next]})
				next++
			} else {
				images[h] = append(images[h], nil)
			}
		}
	}
	fill(Register, perLane)
	fill(Lane, lanes)
	return NewMap(HwAxes(hw), TensorAxes(dims), images[:])
}

// errOpaque is what transforming or converting an opaque layout gives.
func (l *Layout) errOpaque() error {
	return errorf(CodeNotExpressible, "layout", "the lanes and registers of a %s fragment are unspecified, so it cannot be rearranged", l.opaque)
}

// SubgroupsApart lists one subgroup for each distinct part of the tensor
// the subgroups hold (subgroups holding the same elements access memory
// alike), subgroup 0 first.
func (l *Layout) SubgroupsApart() []int {
	seen := map[string]bool{}
	var apart []int
	for s := range l.Size(Subgroup) {
		k := fmt.Sprint(l.Index(HwPoint{Subgroup: s}))
		if !seen[k] {
			seen[k] = true
			apart = append(apart, s)
		}
	}
	return apart
}

// subgroupShift reports whether subgroup sub holds exactly subgroup 0's
// elements moved by one offset, and the offset: true when the layout's
// digits are binary and the subgroup's image shares no bit with the
// lanes' and values' images (the XOR of disjoint bits is their sum).
func (l *Layout) subgroupShift(sub int) ([]int, bool) {
	if l.m.in.nOdd != 0 || l.m.out.nOdd != 0 {
		return nil, false
	}
	// The bits any register or lane reaches are the union of their
	// digits' images (every XOR of images stays inside it).
	used := l.axisBits(Register) | l.axisBits(Lane)
	v, _ := l.m.in.point(HwPoint{Subgroup: sub}.coords())
	if l.m.applyBits(v)&used != 0 {
		return nil, false
	}
	return l.Index(HwPoint{Subgroup: sub}), true
}

// heldBy is the element every value of every lane of subgroup sub holds
// (block 0).
func (l *Layout) heldBy(sub int) [][][]int {
	nl, nv, rank := l.Size(Lane), l.Size(Register), len(l.shape)
	held := make([][][]int, nl)
	back := make([]int, nl*nv*rank)
	if l.m.in.nOdd == 0 && l.m.out.nOdd == 0 {
		// Binary digits only: a lane's and a value's images XOR together.
		img := func(p HwPoint) uint64 {
			v, _ := l.m.in.point(p.coords())
			return l.m.applyBits(v)
		}
		subImg := img(HwPoint{Subgroup: sub})
		valImg := make([]uint64, nv)
		for v := range valImg {
			valImg[v] = img(HwPoint{Value: v}) ^ subImg
		}
		// Decoding an image a byte at a time: table[k][b][axis] is what
		// byte k of an image holding b adds to each coordinate.
		nbytes := 0
		for _, d := range l.m.out.digits {
			nbytes = max(nbytes, d.flat/8+1)
		}
		table := make([][256][]int, nbytes)
		for k := range table {
			for b := range 256 {
				add := make([]int, rank)
				for _, d := range l.m.out.digits {
					if d.flat/8 == k && b>>uint(d.flat%8)&1 == 1 {
						add[d.axis] += d.place
					}
				}
				table[k][b] = add
			}
		}
		for lane := range held {
			li := img(HwPoint{Lane: lane})
			held[lane] = make([][]int, nv)
			for v := range held[lane] {
				out := back[:rank:rank]
				back = back[rank:]
				r := li ^ valImg[v]
				for k := range table {
					for a, x := range table[k][r>>uint(8*k)&0xff] {
						out[a] += x
					}
				}
				held[lane][v] = out
			}
		}
		return held
	}
	for lane := range held {
		held[lane] = make([][]int, nv)
		for v := range held[lane] {
			held[lane][v] = l.Index(HwPoint{v, lane, sub, 0})
		}
	}
	return held
}

// HwAxes builds the four hardware axes from their radices.
func HwAxes(hw [NumHwDims]Radices) []Axis {
	axes := make([]Axis, NumHwDims)
	for h := range NumHwDims {
		axes[h] = Axis{h.String(), slices.Clone(hw[h])}
	}
	return axes
}

// TensorAxes builds the tensor axes dim0, dim1, … from their radices.
func TensorAxes(dims []Radices) []Axis {
	axes := make([]Axis, len(dims))
	for d, r := range dims {
		axes[d] = Axis{fmt.Sprintf("dim%d", d), slices.Clone(r)}
	}
	return axes
}

// NewLayout builds a layout from the digits of each hardware axis, the digits
// of each tensor dimension and one Image per hardware digit.
func NewLayout(hw [NumHwDims]Radices, dims []Radices, images [NumHwDims][]Image) (*Layout, error) {
	m, err := NewMap(HwAxes(hw), TensorAxes(dims), images[:])
	if err != nil {
		return nil, err
	}
	return layoutOf(m, marks{})
}

// layoutOf checks that m is a layout: four hardware axes, sizes within the
// limits, every element held; and makes it, marked as mk says.
func layoutOf(m *Map, mk marks) (*Layout, error) {
	if len(m.in.axes) != int(NumHwDims) {
		return nil, fmt.Errorf("a layout needs the %d hardware axes, got %d", NumHwDims, len(m.in.axes))
	}
	if len(m.out.axes) > MaxRank {
		return nil, errorf(CodeTooLarge, "shape", "rank %d is more than the %d dimensions the planner handles", len(m.out.axes), MaxRank)
	}
	elems, points := 1, 1
	for _, ax := range m.out.axes {
		elems *= ax.Size()
		if elems > MaxElements {
			return nil, errorf(CodeTooLarge, "shape", "the tensor has more than %d elements", MaxElements)
		}
	}
	for _, ax := range m.in.axes {
		points *= ax.Size()
		if points > MaxHwPoints {
			return nil, errorf(CodeTooLarge, "layout", "more than %d hardware points (values × lanes × subgroups × blocks)", MaxHwPoints)
		}
	}
	// Interned (intern.go): the one layout of this map, shape and marks.
	// A layout made before is found by its key written in a reused
	// buffer: making it again allocates nothing more.
	buf := keyBuffers.Get().(*[]byte)
	defer keyBuffers.Put(buf)
	*buf = appendKey((*buf)[:0], m, mk)
	if o := layouts.lookupBytes(*buf); o != nil {
		return o, nil
	}
	shape := make([]int, len(m.out.axes))
	for d, ax := range m.out.axes {
		shape[d] = ax.Size()
	}
	l := &Layout{m: m, shape: shape, opaque: mk.opaque, tiles: mk.tiles, inShared: mk.inShared}
	if !m.IsSurjective() {
		idx := l.firstUnheld()
		return nil, errorf(CodeNotCovered, "layout", "element %v is held by no lane: the layout does not cover the %v tensor", idx, shape)
	}
	l.key = string(*buf)
	l.class = l
	if !canonicalDigits(m) {
		l.class = l.classOf(mk)
	}
	l.hw = l.computeHwBits()
	l.graded = l.computeGrades()
	l.widths = l.computeWidths()
	// The register images' kernel: as many digits as the images are
	// more than their rank (the register rows of the echelon basis).
	imgs, _ := l.hwBits(Register)
	rank := 0
	for _, h := range l.graded.level {
		if h == Register {
			rank++
		}
	}
	l.copies = 1 << (len(imgs) - rank)
	return layouts.intern(l.key, l), nil
}

// firstUnheld returns the smallest element (in row-major order) that no
// hardware point holds. Call it only on a map that is not surjective.
func (l *Layout) firstUnheld() []int {
	s := spanOf(l.m.bitImg...)
	hitOdd := make([]bool, l.m.out.nOdd)
	for _, o := range l.m.oddImg {
		if o >= 0 {
			hitOdd[o] = true
		}
	}
	best := []int(nil)
	// An element is unheld if its binary part is outside the image or one of
	// its repetition digits is never produced. Walk the binary digits of
	// each dimension from the most significant dimension down and take the
	// first unit that fails.
	for _, d := range l.m.out.digits {
		var bad bool
		if d.radix == 2 {
			bad = !s.contains(1 << uint(d.flat))
		} else {
			bad = !hitOdd[d.flat]
		}
		if !bad {
			continue
		}
		idx := make([]int, len(l.shape))
		idx[d.axis] = d.place
		if best == nil || rowMajorLess(idx, best) {
			best = idx
		}
	}
	if best == nil {
		best = make([]int, len(l.shape))
	}
	return best
}

func rowMajorLess(a, b []int) bool { return slices.Compare(a, b) < 0 }

// Shape returns the tensor's extents.
func (l *Layout) Shape() []int { return slices.Clone(l.shape) }

// Rank is the number of tensor dimensions.
func (l *Layout) Rank() int { return len(l.shape) }

// Elements is the number of tensor elements.
func (l *Layout) Elements() int {
	n := 1
	for _, s := range l.shape {
		n *= s
	}
	return n
}

// Size is the extent of a hardware axis: values per lane, lanes per subgroup,
// subgroups per block, blocks.
func (l *Layout) Size(h HwDim) int { return l.m.in.axes[h].Size() }

// Radices returns the digits of a hardware axis.
func (l *Layout) Radices(h HwDim) Radices { return slices.Clone(l.m.in.axes[h].Radices) }

// DimRadices returns the digits of tensor dimension d.
func (l *Layout) DimRadices(d int) Radices { return slices.Clone(l.m.out.axes[d].Radices) }

// Image returns where digit p of hardware axis h goes (axis numbers in the
// result are tensor dimensions).
func (l *Layout) Image(h HwDim, p int) Image { return l.m.Image(int(h), p) }

// Map returns the underlying map from hardware axes to tensor axes.
func (l *Layout) Map() *Map { return l.m }

// Index returns the tensor element held at a hardware point.
func (l *Layout) Index(p HwPoint) []int { return l.m.Apply(p.coords()) }

// Each calls fn for every hardware point in order of block, subgroup, lane
// and value, with the element it holds.
func (l *Layout) Each(fn func(p HwPoint, idx []int)) {
	var p HwPoint
	for p.Block = 0; p.Block < l.Size(Block); p.Block++ {
		for p.Subgroup = 0; p.Subgroup < l.Size(Subgroup); p.Subgroup++ {
			for p.Lane = 0; p.Lane < l.Size(Lane); p.Lane++ {
				for p.Value = 0; p.Value < l.Size(Register); p.Value++ {
					fn(p, l.Index(p))
				}
			}
		}
	}
}

// Held is one value of a lane's fragment.
type Held struct {
	Value int
	Index []int
}

// Held lists the elements a lane holds, by value index.
func (l *Layout) Held(block, subgroup, lane int) []Held {
	out := make([]Held, l.Size(Register))
	for v := range out {
		out[v] = Held{v, l.Index(HwPoint{v, lane, subgroup, block})}
	}
	return out
}

// Holders lists every hardware point that holds element idx, in order of
// block, subgroup, lane and value.
func (l *Layout) Holders(idx []int) []HwPoint {
	p := l.m.PseudoInverse()
	base := hwPointOf(p.Apply(idx))
	if !slices.Equal(l.Index(base), idx) {
		return nil
	}
	// Every holder is base plus a kernel vector of the binary part, with
	// free choice of the repetition digits that map nowhere.
	v0, odd0 := l.m.in.point(base.coords())
	kernel := l.kernel()
	var free []int
	for i, o := range l.m.oddImg {
		if o < 0 {
			free = append(free, i)
		}
	}
	var out []HwPoint
	for mask := 0; mask < 1<<len(kernel); mask++ {
		v := v0
		for i, k := range kernel {
			if mask>>i&1 == 1 {
				v ^= k
			}
		}
		odd := slices.Clone(odd0)
		var walk func(i int)
		walk = func(i int) {
			if i == len(free) {
				out = append(out, hwPointOf(l.m.in.coords(v, odd)))
				return
			}
			d := l.oddDigit(free[i])
			for q := range d.radix {
				odd[free[i]] = q
				walk(i + 1)
			}
		}
		walk(0)
	}
	slices.SortFunc(out, compareHwPoints)
	return out
}

func compareHwPoints(a, b HwPoint) int {
	return slices.Compare([]int{a.Block, a.Subgroup, a.Lane, a.Value}, []int{b.Block, b.Subgroup, b.Lane, b.Value})
}

func (l *Layout) oddDigit(flat int) digit {
	for _, d := range l.m.in.digits {
		if d.radix != 2 && d.flat == flat {
			return d
		}
	}
	panic("no such repetition digit")
}

// kernel returns a basis of the binary input vectors that map to zero.
func (l *Layout) kernel() []uint64 { return kernelOf(l.m.bitImg) }

// kernelOf returns a basis of {x : Σ x_i·cols[i] = 0}.
func kernelOf(cols []uint64) []uint64 {
	s := &span{}
	var ker []uint64
	for i, c := range cols {
		r, combo := s.reduce(c)
		if r == 0 {
			ker = append(ker, combo|1<<uint(i))
		}
		s.add(c)
	}
	return ker
}

// Equal reports whether two layouts put every element at the same hardware
// points, with the same marks (opaque family and tiles, left in shared
// memory): a pointer compare of their classes (intern.go). Layouts
// written in the same digits are equal only if they are the same
// pointer. Two nil layouts are equal.
func (l *Layout) Equal(o *Layout) bool {
	if l == nil || o == nil {
		return l == o
	}
	return l.class == o.class
}

// Inverse returns a map from tensor coordinates to hardware coordinates that
// sends every element to one of its holders (the one with the smallest
// register, then lane, subgroup and block digits): l.Index(inverse(x)) = x.
func (l *Layout) Inverse() *Map { return l.m.PseudoInverse() }

// Duplicated reports whether some element is held by more than one point.
func (l *Layout) Duplicated() bool { return !l.m.IsInjective() }

// remap rebuilds l with new tensor axes: fn maps a tensor digit reference to
// its new place, or reports false when the digit disappears.
func (l *Layout) remap(dims []Radices, fn func(DigitRef) (DigitRef, bool)) (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for h := range NumHwDims {
		hw[h] = l.Radices(h)
		for p := range hw[h] {
			var img Image
			for _, ref := range l.Image(h, p) {
				if r, ok := fn(ref); ok {
					img = append(img, r)
				}
			}
			images[h] = append(images[h], img)
		}
	}
	return NewLayout(hw, dims, images)
}

// Transpose permutes the tensor dimensions: dimension i of the result is
// dimension perm[i] of l.
func (l *Layout) Transpose(perm []int) (*Layout, error) {
	if !isPermutation(perm, l.Rank()) {
		return nil, errorf(CodeBadValue, "permutation", "%v is not a permutation of the %d dimensions", perm, l.Rank())
	}
	inv := make([]int, len(perm))
	dims := make([]Radices, len(perm))
	for i, p := range perm {
		inv[p] = i
		dims[i] = l.DimRadices(p)
	}
	return l.remap(dims, func(r DigitRef) (DigitRef, bool) { return DigitRef{inv[r.Axis], r.Digit}, true })
}

func isPermutation(perm []int, n int) bool {
	if len(perm) != n {
		return false
	}
	seen := make([]bool, n)
	for _, p := range perm {
		if p < 0 || p >= n || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// Slice removes tensor dimension d, as a reduction along d does: hardware
// digits that selected positions along d now duplicate, and register digits
// left without an image are dropped (the values they told apart were
// combined).
func (l *Layout) Slice(d int) (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	if d < 0 || d >= l.Rank() {
		return nil, errorf(CodeBadValue, "dim", "dimension %d is out of range for rank %d", d, l.Rank())
	}
	var dims []Radices
	for i := range l.Rank() {
		if i != d {
			dims = append(dims, l.DimRadices(i))
		}
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for h := range NumHwDims {
		for p, r := range l.m.in.axes[h].Radices {
			var img Image
			if r == 2 {
				// XOR of the surviving bits: a bit listed twice cancels.
				v := l.m.bitImg[l.m.in.digits[l.m.in.first[h]+p].flat]
				for _, od := range l.m.out.digits {
					if od.radix == 2 && od.axis != d && v>>uint(od.flat)&1 == 1 {
						img = append(img, DigitRef{od.axis - b2i(od.axis > d), od.pos})
					}
				}
			} else {
				for _, ref := range l.Image(h, p) {
					if ref.Axis != d {
						img = append(img, DigitRef{ref.Axis - b2i(ref.Axis > d), ref.Digit})
					}
				}
			}
			if h == Register && len(img) == 0 {
				continue
			}
			hw[h] = append(hw[h], r)
			images[h] = append(images[h], img)
		}
	}
	return NewLayout(hw, dims, images)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ExpandDims inserts a dimension of extent 1 at position d.
func (l *Layout) ExpandDims(d int) (*Layout, error) {
	if d < 0 || d > l.Rank() {
		return nil, errorf(CodeBadValue, "dim", "position %d is out of range for rank %d", d, l.Rank())
	}
	dims := make([]Radices, 0, l.Rank()+1)
	for i := range l.Rank() {
		if i == d {
			dims = append(dims, nil)
		}
		dims = append(dims, l.DimRadices(i))
	}
	if d == l.Rank() {
		dims = append(dims, nil)
	}
	return l.remap(dims, func(r DigitRef) (DigitRef, bool) {
		return DigitRef{r.Axis + b2i(r.Axis >= d), r.Digit}, true
	})
}

// Broadcast inserts a dimension of extent n at position d whose positions
// each lane holds in new registers above the existing ones: the layout of
// broadcasting a value of l along a new dimension without moving data.
func (l *Layout) Broadcast(d, n int) (*Layout, error) { return l.broadcast(d, n, false) }

// BroadcastBelow is Broadcast with the new registers below the existing
// ones: each lane's lowest registers run along the new dimension (Triton's
// FMA dot operands, the whole K first: DotOperand's fma in
// notation/triton_encodings.go).
func (l *Layout) BroadcastBelow(d, n int) (*Layout, error) { return l.broadcast(d, n, true) }

// digitsByAxis lists l's radices on each hardware axis and each digit's
// image, for a layout built from them anew.
func digitsByAxis(l *Layout) (hw [NumHwDims]Radices, images [NumHwDims][]Image) {
	for h := range NumHwDims {
		hw[h] = l.Radices(h)
		for p := range hw[h] {
			images[h] = append(images[h], l.Image(h, p))
		}
	}
	return hw, images
}

func (l *Layout) broadcast(d, n int, below bool) (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	if n < 1 {
		return nil, errorf(CodeBadValue, "extent", "broadcast extent %d is not positive", n)
	}
	e, err := l.ExpandDims(d)
	if err != nil {
		return nil, err
	}
	reps := RadicesOf(n)
	hw, images := digitsByAxis(e)
	var newRegs Radices
	var newImages []Image
	for i, r := range reps {
		newRegs = append(newRegs, r)
		newImages = append(newImages, Image{{d, i}})
	}
	if below {
		hw[Register] = append(newRegs, hw[Register]...)
		images[Register] = append(newImages, images[Register]...)
	} else {
		hw[Register] = append(hw[Register], newRegs...)
		images[Register] = append(images[Register], newImages...)
	}
	dims := make([]Radices, e.Rank())
	for i := range dims {
		dims[i] = e.DimRadices(i)
	}
	dims[d] = reps
	return NewLayout(hw, dims, images)
}

// JoinLast gives the layout of two tensors of layout l side by side along
// a new last dimension of extent 2 that each lane holds in a new lowest
// register: Triton's join (inferJoinOpEncoding in
// lib/Dialect/TritonGPU/IR/Dialect.cpp puts the new dimension innermost in
// each thread's registers, first of its register bases).
func (l *Layout) JoinLast() (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	d := l.Rank()
	e, err := l.ExpandDims(d)
	if err != nil {
		return nil, err
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	hw[Register] = Radices{2}
	images[Register] = []Image{{{d, 0}}}
	for h := range NumHwDims {
		hw[h] = append(hw[h], e.Radices(h)...)
		for p := range e.Radices(h) {
			images[h] = append(images[h], e.Image(h, p))
		}
	}
	dims := make([]Radices, e.Rank())
	for i := range dims {
		dims[i] = e.DimRadices(i)
	}
	dims[d] = Radices{2}
	return NewLayout(hw, dims, images)
}

// SplitLast gives the layout of either half of a tensor of layout l along
// its last dimension, of extent 2, when each lane holds that dimension in
// its lowest register alone (the layout JoinLast makes, which Triton's
// split requires: inferSplitOpEncoding); an error otherwise.
func (l *Layout) SplitLast() (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	d := l.Rank() - 1
	notInner := errorf(CodeIncompatible, "layout", "the last dimension is not held in each lane's lowest register alone")
	if d < 0 || !slices.Equal(l.DimRadices(d), Radices{2}) {
		return nil, notInner
	}
	for h := range NumHwDims {
		for p := range l.Radices(h) {
			img := l.Image(h, p)
			inner := h == Register && p == 0
			if inner && !(l.Radices(h)[0] == 2 && len(img) == 1 && img[0] == DigitRef{d, 0}) {
				return nil, notInner
			}
			if !inner && slices.ContainsFunc(img, func(r DigitRef) bool { return r.Axis == d }) {
				return nil, notInner
			}
		}
	}
	return l.Slice(d)
}

// Reshape views the tensor with a new shape of the same element count, in
// row-major order. Repetition digits cannot be split: reshaping a 96-wide
// dimension (32 × 3) into 32 × 3 with the 3 innermost is not expressible.
func (l *Layout) Reshape(shape []int) (*Layout, error) {
	n := 1
	for _, s := range shape {
		if s < 1 {
			return nil, errorf(CodeBadValue, "shape", "extent %d is not positive", s)
		}
		n *= s
		if n > MaxElements {
			return nil, errorf(CodeTooLarge, "shape", "more than %d elements", MaxElements)
		}
	}
	if n != l.Elements() {
		return nil, errorf(CodeShapeMismatch, "shape", "%v has %d elements, the tensor %v has %d", shape, n, l.shape, l.Elements())
	}
	// The flat digit sequence, least significant first: the last dimension's
	// digits, then the one before it, and so on.
	var flat []DigitRef
	var radix []int
	for d := l.Rank() - 1; d >= 0; d-- {
		for p, r := range l.m.out.axes[d].Radices {
			flat = append(flat, DigitRef{d, p})
			radix = append(radix, r)
		}
	}
	newDims := make([]Radices, len(shape))
	moved := map[DigitRef]DigitRef{}
	k := 0
	for d := len(shape) - 1; d >= 0; d-- {
		size := 1
		for size < shape[d] {
			if k >= len(flat) || shape[d]%(size*radix[k]) != 0 {
				return nil, errorf(CodeNotExpressible, "shape", "reshape %v -> %v would split a digit of the layout: extent %d of dimension %d does not end on a digit boundary", l.shape, shape, shape[d], d)
			}
			moved[flat[k]] = DigitRef{d, len(newDims[d])}
			newDims[d] = append(newDims[d], radix[k])
			size *= radix[k]
			k++
		}
	}
	return l.remap(newDims, func(r DigitRef) (DigitRef, bool) { return moved[r], true })
}

// Product tiles l by o: hardware axes and tensor dimensions are matched, o's
// digits above l's, so element (i, j) of the result is l's element within a
// tile of l's shape placed by o. Both must have the same rank.
func (l *Layout) Product(o *Layout) (*Layout, error) {
	if l.opaque != "" || o.opaque != "" {
		return nil, errorf(CodeNotExpressible, "layout", "the lanes and registers of a %s fragment are unspecified, so it cannot be rearranged", l.opaque+o.opaque)
	}
	if l.Rank() != o.Rank() {
		return nil, errorf(CodeRankMismatch, "layout", "product of rank %d and rank %d layouts", l.Rank(), o.Rank())
	}
	m, err := l.m.Product(o.m)
	if err != nil {
		return nil, err
	}
	return layoutOf(m, marks{})
}

// String writes the layout as its images, one hardware digit per line.
func (l *Layout) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "layout %v:", l.shape)
	for h := range NumHwDims {
		fmt.Fprintf(&b, " %s%v", h, l.Radices(h))
	}
	b.WriteByte('\n')
	b.WriteString(l.m.String())
	return b.String()
}

// Key identifies a layout by its digits and images: layouts with equal
// keys are the same *Layout (intern.go). (Equal layouts written in
// different digits have different keys; Equal tells them equal.)
func (l *Layout) Key() string { return l.key }

// appendKey appends the key of the layout of map m marked mk to b: the
// text of Radices.String and %x / %d, appended without fmt (every layout
// made is keyed).
func appendKey(b []byte, m *Map, mk marks) []byte {
	b = append(b, mk.key()...)
	radices := func(r Radices) {
		b = append(b, '[')
		for i, x := range r {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, ']')
	}
	for _, ax := range m.in.axes {
		radices(ax.Radices)
	}
	b = append(b, '>')
	for _, ax := range m.out.axes {
		radices(ax.Radices)
	}
	b = append(b, ':')
	for _, v := range m.bitImg {
		b = strconv.AppendUint(b, v, 16)
		b = append(b, ',')
	}
	b = append(b, '/')
	for _, o := range m.oddImg {
		b = strconv.AppendInt(b, int64(o), 10)
		b = append(b, ',')
	}
	return b
}

// RegistersAlong is l with its register digits reordered so that a
// lane's registers run along the dimensions dims, the first fastest: the
// register digits that each step one digit of a dimension in dims come
// first, by that dimension's place in dims and then from the least
// significant digit up; the others follow in their order. Lanes,
// subgroups and blocks hold the same elements as in l; only which
// register of a lane holds which of its elements changes, so a lane
// holding consecutive elements of a row reads or writes them as one
// vector. It is l itself when its registers already run so.
func (l *Layout) RegistersAlong(dims []int) (*Layout, error) {
	if l.opaque != "" {
		return nil, l.errOpaque()
	}
	if l.inShared {
		return nil, errorf(CodeBadValue, "layout", "a value left in shared memory has no registers to reorder")
	}
	rad := l.Radices(Register)
	place := func(p int) (int, int) {
		img := l.Image(Register, p)
		if len(img) != 1 {
			return len(dims), 0
		}
		k := slices.Index(dims, img[0].Axis)
		if k < 0 {
			return len(dims), 0
		}
		return k, img[0].Digit
	}
	order := make([]int, len(rad))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ka, da := place(a)
		kb, db := place(b)
		if ka != kb {
			return ka - kb
		}
		if ka == len(dims) {
			return 0
		}
		return da - db
	})
	if slices.IsSorted(order) {
		return l, nil
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for h := range NumHwDims {
		hw[h] = l.Radices(h)
		for p := range hw[h] {
			images[h] = append(images[h], slices.Clone(l.Image(h, p)))
		}
	}
	for i, p := range order {
		hw[Register][i] = rad[p]
		images[Register][i] = slices.Clone(l.Image(Register, p))
	}
	dimRad := make([]Radices, l.Rank())
	for d := range dimRad {
		dimRad[d] = l.DimRadices(d)
	}
	return NewLayout(hw, dimRad, images)
}

// SubgroupCopies is how many subgroups of a block hold each element
// subgroup 0 holds: 1 where every subgroup holds its own part, the
// subgroup count where all hold the same elements (a broadcast over
// subgroups). For a layout of binary digits it is counted from the
// bases: each subgroup basis that adds no element to those the registers
// and lanes reach doubles it.
func (l *Layout) SubgroupCopies() int {
	subs := l.Size(Subgroup)
	if subs <= 1 {
		return 1
	}
	if !l.binary() {
		return max(1, subs/len(l.SubgroupsApart()))
	}
	s := &span{}
	for _, h := range []HwDim{Register, Lane} {
		imgs, _ := l.hwBits(h)
		for _, v := range imgs {
			s.add(v)
		}
	}
	held := s.dim()
	imgs, _ := l.hwBits(Subgroup)
	for _, v := range imgs {
		s.add(v)
	}
	return subs >> uint(s.dim()-held)
}

// DistinctLanes is how many lanes of a subgroup hold elements no lower
// lane holds at the same register: the subgroup size less the lanes that
// hold copies (a broadcast over lanes). For a layout of binary digits it
// is counted from the lanes' bases; otherwise every lane counts.
func (l *Layout) DistinctLanes() int {
	if !l.binary() {
		return l.Size(Lane)
	}
	imgs, _ := l.hwBits(Lane)
	return 1 << uint(spanOf(imgs...).dim())
}
