package notation

import (
	"slices"
	"strings"

	"planner/model"
)

// Nested is IREE's #iree_vector_ext.nested_layout. Each tensor dimension is
// split, outermost first, into subgroup × batch × outer × thread × element
// tiles (the entries count tiles of the next level). Subgroup and lane ids
// choose the subgroup and thread tiles: virtual_id[d] = (id / stride[d]) %
// tile[d], a stride of 0 meaning the dimension is not distributed (its tile
// must then be 1); ids beyond the tiles repeat the data of lower ids.
// Subgroup tiles that span more ids than there are subgroups fold: ids are
// taken modulo the count, and a subgroup holds the tiles of every virtual
// subgroup folded onto it as its outermost values (seed 000's
// subgroup_tile [4, 2], subgroup_strides [1, 4] on 4 subgroups).
//
// A lane's fragment is the vector <batch… × outer… × element…> (all batch
// tiles, then all outer, then all element, each in dimension order), and its
// value index is the row-major position in that vector, as
// NestedLayoutAttr::getDistributedShape in IREE's
// compiler/src/iree/compiler/Codegen/Dialect/VectorExt/IR/VectorExtAttrs.cpp
// orders it.
type Nested struct {
	SubgroupTile    []int
	BatchTile       []int
	OuterTile       []int
	ThreadTile      []int
	ElementTile     []int
	SubgroupStrides []int
	ThreadStrides   []int
}

func (n *Nested) Kind() string { return "nested" }

func (n *Nested) Fields() []model.Field {
	return []model.Field{
		{Key: "subgroup_tile", Ints: n.SubgroupTile},
		{Key: "batch_tile", Ints: n.BatchTile},
		{Key: "outer_tile", Ints: n.OuterTile},
		{Key: "thread_tile", Ints: n.ThreadTile},
		{Key: "element_tile", Ints: n.ElementTile},
		{Key: "subgroup_strides", Ints: n.SubgroupStrides},
		{Key: "thread_strides", Ints: n.ThreadStrides},
	}
}

// Attr prints the layout as IREE writes it.
func (n *Nested) Attr() string {
	var parts []string
	for _, f := range n.Fields() {
		parts = append(parts, f.Key+" = "+intsString(f.Ints))
	}
	return "#iree_vector_ext.nested_layout<" + strings.Join(parts, ", ") + ">"
}

// Layout builds the canonical layout of n for frame f.
func (n *Nested) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	r := len(f.Shape)
	for _, fl := range n.Fields() {
		if len(fl.Ints) != r {
			return nil, errorf(model.CodeRankMismatch, fl.Key, "%s has %d entries but the shape %v has rank %d", fl.Key, len(fl.Ints), f.Shape, r)
		}
		for i, x := range fl.Ints {
			if strings.HasSuffix(fl.Key, "_strides") {
				if x < 0 {
					return nil, errorAt(model.CodeBadValue, fl.Key, i, "stride %d is negative", x)
				}
			} else if x < 1 {
				return nil, errorAt(model.CodeBadValue, fl.Key, i, "tile %d is not positive", x)
			}
		}
	}
	for d := range r {
		p := n.SubgroupTile[d] * n.BatchTile[d] * n.OuterTile[d] * n.ThreadTile[d] * n.ElementTile[d]
		if p != f.Shape[d] {
			return nil, errorf(model.CodeShapeMismatch, "", "dimension %d: subgroup %d × batch %d × outer %d × thread %d × element %d = %d, but the shape has %d",
				d, n.SubgroupTile[d], n.BatchTile[d], n.OuterTile[d], n.ThreadTile[d], n.ElementTile[d], p, f.Shape[d])
		}
	}
	var lanes, sgs []idField
	for d := range r {
		if n.ThreadTile[d] > 1 {
			if n.ThreadStrides[d] == 0 {
				return nil, errorAt(model.CodeBadValue, "thread_strides", d, "stride 0 means dimension %d is not distributed over lanes, but its thread tile is %d", d, n.ThreadTile[d])
			}
			if !isPow2(n.ThreadTile[d]) {
				return nil, errorAt(model.CodeNotPowerOfTwo, "thread_tile", d, "thread tile %d is not a power of two: lane ids are binary, so a lane field must be too", n.ThreadTile[d])
			}
			if !isPow2(n.ThreadStrides[d]) {
				return nil, errorAt(model.CodeNotPowerOfTwo, "thread_strides", d, "thread stride %d is not a power of two: lane ids are binary, so a lane field must start on a bit", n.ThreadStrides[d])
			}
			lanes = append(lanes, idField{d, n.ThreadStrides[d], n.ThreadTile[d]})
		}
		if n.SubgroupTile[d] > 1 {
			if n.SubgroupStrides[d] == 0 {
				return nil, errorAt(model.CodeBadValue, "subgroup_strides", d, "stride 0 means dimension %d is not distributed over subgroups, but its subgroup tile is %d", d, n.SubgroupTile[d])
			}
			sgs = append(sgs, idField{d, n.SubgroupStrides[d], n.SubgroupTile[d]})
		}
	}
	laneRad, laneOwn, err := idDigits(lanes, f.SubgroupSize, "thread_strides", "lane")
	if err != nil {
		return nil, err
	}
	sgRad, sgOwn, foldRad, foldOwn, err := foldedIDDigits(sgs, f.Subgroups, "subgroup_strides", "subgroup")
	if err != nil {
		return nil, err
	}

	// Tensor digits of dimension d, least significant first: element,
	// thread, outer, batch, subgroup. start[d][level] is where each begins.
	const (
		lvElement = iota
		lvThread
		lvOuter
		lvBatch
		lvSubgroup
	)
	tiles := [][]int{n.ElementTile, n.ThreadTile, n.OuterTile, n.BatchTile, n.SubgroupTile}
	dims := make([]model.Radices, r)
	start := make([][5]int, r)
	for d := range r {
		for lv, t := range tiles {
			start[d][lv] = len(dims[d])
			dims[d] = append(dims[d], model.RadicesOf(t[d])...)
		}
	}
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	// Registers: element tiles, then outer, then batch, the last dimension
	// fastest within each.
	for _, lv := range []int{lvElement, lvOuter, lvBatch} {
		for d := r - 1; d >= 0; d-- {
			for k, rad := range model.RadicesOf(tiles[lv][d]) {
				hw[model.Register] = append(hw[model.Register], rad)
				images[model.Register] = append(images[model.Register], model.Image{{Axis: d, Digit: start[d][lv] + k}})
			}
		}
	}
	// Subgroup tiles folded onto the hardware subgroups (ids modulo the
	// count) are held once per virtual subgroup, above all the rest.
	for i, rad := range foldRad {
		hw[model.Register] = append(hw[model.Register], rad)
		images[model.Register] = append(images[model.Register], ownerImage(foldOwn[i], start, lvSubgroup))
	}
	hw[model.Lane] = laneRad
	for _, o := range laneOwn {
		images[model.Lane] = append(images[model.Lane], ownerImage(o, start, lvThread))
	}
	hw[model.Subgroup] = sgRad
	for _, o := range sgOwn {
		images[model.Subgroup] = append(images[model.Subgroup], ownerImage(o, start, lvSubgroup))
	}
	hw[model.Block] = model.RadicesOf(f.BlockCount())
	images[model.Block] = make([]model.Image, len(hw[model.Block]))
	return model.NewLayout(hw, dims, images)
}

func ownerImage(o idOwner, start [][5]int, level int) model.Image {
	if o.Dim < 0 {
		return nil
	}
	return model.Image{{Axis: o.Dim, Digit: start[o.Dim][level] + o.Digit}}
}

// ExpressNested writes l as a nested layout, or says why it has none.
// When no fields on l's own subgroups write it, it tries the folded form:
// the outermost register digits read as subgroup tiles of virtual subgroups
// beyond the hardware count, which the nested layout folds onto the
// hardware subgroups modulo their count (Nested.Layout). The fewest folded
// digits that work are chosen, none when possible.
func ExpressNested(l *model.Layout) (*Nested, error) {
	n, err := expressNestedOn(l)
	if err == nil || l.Size(model.Block) > 1 {
		return n, err
	}
	f := model.FrameOf(l)
	regs := l.Radices(model.Register)
	for k := 1; k <= len(regs); k++ {
		virt, err := unfoldSubgroups(l, k)
		if err != nil {
			continue
		}
		folded, ferr := expressNestedOn(virt)
		if ferr != nil {
			continue
		}
		if back, berr := folded.Layout(f); berr == nil && back.Equal(l) {
			return folded, nil
		}
	}
	return nil, err
}

// unfoldSubgroups moves l's k outermost register digits above its subgroup
// digits: the layout over virtual subgroups that folds back onto l.
func unfoldSubgroups(l *model.Layout, k int) (*model.Layout, error) {
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	for h := range model.NumHwDims {
		hw[h] = l.Radices(h)
		for p := range hw[h] {
			images[h] = append(images[h], l.Image(h, p))
		}
	}
	cut := len(hw[model.Register]) - k
	hw[model.Subgroup] = append(hw[model.Subgroup], hw[model.Register][cut:]...)
	images[model.Subgroup] = append(images[model.Subgroup], images[model.Register][cut:]...)
	hw[model.Register], images[model.Register] = hw[model.Register][:cut], images[model.Register][:cut]
	dims := make([]model.Radices, l.Rank())
	for d := range dims {
		dims[d] = l.DimRadices(d)
	}
	return model.NewLayout(hw, dims, images)
}

// expressNestedOn writes l as a nested layout on exactly its own subgroups.
func expressNestedOn(l *model.Layout) (*Nested, error) {
	const kind = "nested"
	if l.Size(model.Block) > 1 {
		return nil, notExpressible(kind, "it spans %d blocks; a nested layout describes one workgroup", l.Size(model.Block))
	}
	o, err := monomialOwners(l, kind)
	if err != nil {
		return nil, err
	}
	for p, ref := range o.hw[model.Register] {
		if ref.Axis < 0 {
			return nil, notExpressible(kind, "register digit %d selects no element (a lane holds repeated values); nested layouts never repeat values within a lane", p)
		}
	}
	r := l.Rank()
	n := &Nested{
		SubgroupTile: make([]int, r), BatchTile: make([]int, r), OuterTile: make([]int, r),
		ThreadTile: make([]int, r), ElementTile: make([]int, r),
		SubgroupStrides: make([]int, r), ThreadStrides: make([]int, r),
	}
	// Per dimension: register (element), lane (thread), register (outer and
	// batch), subgroup.
	spans := make([][][2]int, r)
	for d := range r {
		sp, ok := o.matchRuns(d, []model.HwDim{model.Register, model.Lane, model.Register, model.Subgroup})
		if !ok {
			return nil, notExpressible(kind, "dimension %d is held, from its innermost digits out, by %s; a nested layout holds each dimension as element, thread, outer and batch, subgroup tiles in that order",
				d, runsString(o.runs(d)))
		}
		spans[d] = sp
	}
	// A lane's values run element tiles, then outer, then batch, the last
	// dimension fastest within each. A dimension with lanes has its element
	// digits below the lanes and its outer and batch digits above; without
	// lanes all three share one run. Prefer batch (IREE's unrolling tiles)
	// over outer.
	hasLanes := func(d int) bool { return spans[d][1][0] != spans[d][1][1] }
	regTop := func(d int) int { // end of the register digits below the subgroup digits
		if hasLanes(d) {
			return spans[d][2][1]
		}
		return spans[d][0][1]
	}
	var segs []segment
	for d := r - 1; d >= 0; d-- {
		limit := regTop(d)
		if hasLanes(d) {
			limit = spans[d][1][0]
		}
		segs = append(segs, segment{dim: d, jump: 0, limit: limit})
	}
	for d := r - 1; d >= 0; d-- {
		jump := -1
		if hasLanes(d) {
			jump = spans[d][1][1]
		}
		segs = append(segs, segment{dim: d, jump: jump, limit: regTop(d), lazy: true})
	}
	for d := r - 1; d >= 0; d-- {
		segs = append(segs, segment{dim: d, jump: -1, limit: regTop(d)})
	}
	accept := func(sp [][2]int) bool {
		for i := range r {
			d := r - 1 - i
			e, ou, b := sp[i], sp[r+i], sp[2*r+i]
			if hasLanes(d) && e[1] != spans[d][1][0] {
				return false
			}
			if b[1] != regTop(d) {
				return false
			}
			if !o.factorDigits(d, e[0], e[1]) || !o.factorDigits(d, ou[0], ou[1]) || !o.factorDigits(d, b[0], b[1]) {
				return false
			}
		}
		return true
	}
	sp, ok := parseSegments(o.hw[model.Register], segs, r, accept)
	if !ok {
		return nil, notExpressible(kind, "a lane's values are not in nested order: element tiles, then outer, then batch, the last dimension fastest within each, each tile's repetition digit above its binary digits")
	}
	for i := range r {
		d := r - 1 - i
		elem, outer, batch := sp[i], sp[r+i], sp[2*r+i]
		threads := spans[d][1]
		if !hasLanes(d) {
			threads = [2]int{elem[1], elem[1]}
		}
		sgs := spans[d][3]
		for lv, span := range [][2]int{threads, sgs} {
			if !o.factorDigits(d, span[0], span[1]) {
				return nil, notExpressible(kind, "dimension %d's %s tile has its repetition digit below binary digits", d, []string{"thread", "subgroup"}[lv])
			}
		}
		n.ElementTile[d] = o.productOf(d, elem[0], elem[1])
		n.OuterTile[d] = o.productOf(d, outer[0], outer[1])
		n.BatchTile[d] = o.productOf(d, batch[0], batch[1])
		n.ThreadTile[d] = o.productOf(d, threads[0], threads[1])
		n.SubgroupTile[d] = o.productOf(d, sgs[0], sgs[1])
		if n.ThreadTile[d] > 1 {
			first, ok := o.consecutive(d, threads[0], threads[1])
			if !ok {
				return nil, notExpressible(kind, "dimension %d's thread positions are not consecutive bits of the lane id, so no thread stride selects them", d)
			}
			n.ThreadStrides[d] = o.placeOf(model.Lane, first)
		}
		if n.SubgroupTile[d] > 1 {
			first, ok := o.consecutive(d, sgs[0], sgs[1])
			if !ok {
				return nil, notExpressible(kind, "dimension %d's subgroup positions are not consecutive digits of the subgroup id, so no subgroup stride selects them", d)
			}
			n.SubgroupStrides[d] = o.placeOf(model.Subgroup, first)
		}
	}
	back, err := n.Layout(model.FrameOf(l))
	if err != nil {
		return nil, notExpressible(kind, "the nested fields read off it are invalid: %v", err)
	}
	if !back.Equal(l) {
		return nil, notExpressible(kind, "no nested fields reproduce it (the closest, %s, differs)", n.Attr())
	}
	return n, nil
}

// Clone returns a deep copy.
func (n *Nested) Clone() *Nested {
	return &Nested{slices.Clone(n.SubgroupTile), slices.Clone(n.BatchTile), slices.Clone(n.OuterTile),
		slices.Clone(n.ThreadTile), slices.Clone(n.ElementTile), slices.Clone(n.SubgroupStrides), slices.Clone(n.ThreadStrides)}
}
