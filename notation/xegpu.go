package notation

import (
	"slices"
	"strings"

	"planner/model"
)

// XeGPU is MLIR's #xegpu.layout: sg_layout subgroups each take sg_data
// blocks, round robin (a dimension larger than sg_layout × sg_data wraps
// around to the first subgroup again; a smaller one is shared by the
// subgroups beyond it); each subgroup block is cut into inst_data tiles;
// each tile is spread over lane_layout lanes in lane_data blocks, round
// robin as well. order lists dimensions fastest first and numbers both the
// subgroups and the lanes. Absent fields take XeGPU's defaults: sg_data =
// shape / sg_layout, inst_data = sg_data, lane_data = 1, order = [r-1 … 0];
// without lane_layout every lane of a subgroup holds the subgroup's data.
//
// The rules follow genCoordinates, delinearizeId and isEvenlyDistributable
// in llvm-project mlir/lib/Dialect/XeGPU/IR/XeGPUDialect.cpp. A lane's
// values are its lane-level vector (shape inst_data / lane_layout, row
// major, as the lane distribution in
// mlir/lib/Dialect/XeGPU/Transforms/XeGPUSubgroupDistribute.cpp assembles
// it), then instruction tile after instruction tile (row major), then
// distribution unit after distribution unit (row major).
type XeGPU struct {
	SgLayout   []int
	SgData     []int
	InstData   []int
	LaneLayout []int
	LaneData   []int
	Order      []int
}

func (x *XeGPU) Kind() string { return "xegpu" }

func (x *XeGPU) Fields() []model.Field {
	var fs []model.Field
	add := func(k string, v []int) {
		if v != nil {
			fs = append(fs, model.Field{Key: k, Ints: v})
		}
	}
	add("sg_layout", x.SgLayout)
	add("sg_data", x.SgData)
	add("inst_data", x.InstData)
	add("lane_layout", x.LaneLayout)
	add("lane_data", x.LaneData)
	add("order", x.Order)
	return fs
}

// Attr prints the layout as XeGPU writes it.
func (x *XeGPU) Attr() string {
	var parts []string
	for _, f := range x.Fields() {
		parts = append(parts, f.Key+" = "+intsString(f.Ints))
	}
	return "#xegpu.layout<" + strings.Join(parts, ", ") + ">"
}

// xegpuTiles are the per-dimension extents of each level, resolved.
type xegpuTiles struct {
	sl, sd, inst, ll, ld, order []int
	c, units                    []int // distinct subgroup blocks per unit, units per dimension
}

func (x *XeGPU) resolve(f model.Frame) (*xegpuTiles, error) {
	r := len(f.Shape)
	for _, fl := range x.Fields() {
		if len(fl.Ints) != r {
			return nil, errorf(model.CodeRankMismatch, fl.Key, "%s has %d entries but the shape %v has rank %d", fl.Key, len(fl.Ints), f.Shape, r)
		}
		for i, v := range fl.Ints {
			if fl.Key == "order" {
				continue
			}
			if v < 1 {
				return nil, errorAt(model.CodeBadValue, fl.Key, i, "%s %d is not positive", fl.Key, v)
			}
		}
	}
	if x.SgData != nil && x.SgLayout == nil {
		return nil, errorf(model.CodeMissingKey, "sg_data", "sg_data needs sg_layout")
	}
	if x.LaneData != nil && x.LaneLayout == nil {
		return nil, errorf(model.CodeMissingKey, "lane_data", "lane_data needs lane_layout")
	}
	t := &xegpuTiles{c: make([]int, r), units: make([]int, r)}
	ones := func() []int {
		o := make([]int, r)
		for i := range o {
			o[i] = 1
		}
		return o
	}
	t.order = x.Order
	if t.order == nil {
		for d := r - 1; d >= 0; d-- {
			t.order = append(t.order, d)
		}
	} else if !isPermutation(t.order, r) {
		return nil, errorf(model.CodeBadValue, "order", "%v is not a permutation of the %d dimensions", t.order, r)
	}
	t.sl = x.SgLayout
	if t.sl == nil {
		t.sl = ones()
	}
	t.sd = x.SgData
	if t.sd == nil {
		t.sd = make([]int, r)
		for d := range r {
			if f.Shape[d]%t.sl[d] != 0 {
				return nil, errorAt(model.CodeShapeMismatch, "sg_layout", d, "extent %d is not a multiple of %d subgroups, so sg_data cannot default to an even share", f.Shape[d], t.sl[d])
			}
			t.sd[d] = f.Shape[d] / t.sl[d]
		}
	}
	for d := range r {
		if t.sd[d] > f.Shape[d] || f.Shape[d]%t.sd[d] != 0 {
			return nil, errorAt(model.CodeShapeMismatch, "sg_data", d, "sg_data %d does not divide the extent %d", t.sd[d], f.Shape[d])
		}
		if t.sl[d]*t.sd[d] <= f.Shape[d] {
			if f.Shape[d]%(t.sl[d]*t.sd[d]) != 0 {
				return nil, errorAt(model.CodeShapeMismatch, "sg_data", d, "%d subgroups × sg_data %d = %d does not divide the extent %d, so the round robin would be uneven",
					t.sl[d], t.sd[d], t.sl[d]*t.sd[d], f.Shape[d])
			}
			t.c[d] = t.sl[d]
			t.units[d] = f.Shape[d] / (t.sl[d] * t.sd[d])
		} else {
			t.c[d] = f.Shape[d] / t.sd[d]
			t.units[d] = 1
			if t.sl[d]%t.c[d] != 0 {
				return nil, errorAt(model.CodeShapeMismatch, "sg_layout", d, "%d subgroups share %d blocks of %d unevenly (the extent %d holds %d blocks; sg_layout must be a multiple)",
					t.sl[d], t.c[d], t.sd[d], f.Shape[d], t.c[d])
			}
		}
	}
	t.inst = x.InstData
	if t.inst == nil {
		t.inst = slices.Clone(t.sd)
	}
	for d := range r {
		if t.sd[d]%t.inst[d] != 0 {
			return nil, errorAt(model.CodeShapeMismatch, "inst_data", d, "inst_data %d does not divide sg_data %d", t.inst[d], t.sd[d])
		}
	}
	t.ll = x.LaneLayout
	t.ld = x.LaneData
	if t.ll == nil {
		t.ll = ones()
		t.ld = slices.Clone(t.inst)
	}
	if t.ld == nil {
		t.ld = ones()
	}
	lanes := 1
	for d := range r {
		if !isPow2(t.ll[d]) {
			return nil, errorAt(model.CodeNotPowerOfTwo, "lane_layout", d, "%d lanes is not a power of two: lane ids are binary", t.ll[d])
		}
		if t.inst[d]%(t.ll[d]*t.ld[d]) != 0 {
			return nil, errorAt(model.CodeShapeMismatch, "lane_data", d, "lane_layout %d × lane_data %d = %d does not divide the instruction tile %d",
				t.ll[d], t.ld[d], t.ll[d]*t.ld[d], t.inst[d])
		}
		lanes *= t.ll[d]
	}
	if lanes > f.SubgroupSize || f.SubgroupSize%lanes != 0 {
		return nil, errorf(model.CodeShapeMismatch, "lane_layout", "lane_layout uses %d lanes, which does not divide the subgroup's %d", lanes, f.SubgroupSize)
	}
	sgs := 1
	for _, s := range t.sl {
		sgs *= s
	}
	if sgs > f.Subgroups || f.Subgroups%sgs != 0 {
		return nil, errorf(model.CodeShapeMismatch, "sg_layout", "sg_layout uses %d subgroups, which does not divide the %d subgroups there are", sgs, f.Subgroups)
	}
	return t, nil
}

// Layout builds the canonical layout of x for frame f.
func (x *XeGPU) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	t, err := x.resolve(f)
	if err != nil {
		return nil, err
	}
	r := len(f.Shape)
	// Tensor digits of dimension d, least significant first: lane_data,
	// lane_layout, lane units, instruction tiles, subgroup blocks,
	// distribution units.
	const (
		lvData = iota
		lvLane
		lvLaneUnit
		lvInst
		lvSg
		lvUnit
		nLevels
	)
	extent := func(d, lv int) int {
		switch lv {
		case lvData:
			return t.ld[d]
		case lvLane:
			return t.ll[d]
		case lvLaneUnit:
			return t.inst[d] / (t.ll[d] * t.ld[d])
		case lvInst:
			return t.sd[d] / t.inst[d]
		case lvSg:
			return t.c[d]
		}
		return t.units[d]
	}
	dims := make([]model.Radices, r)
	start := make([][nLevels]int, r)
	for d := range r {
		for lv := range nLevels {
			start[d][lv] = len(dims[d])
			dims[d] = append(dims[d], model.RadicesOf(extent(d, lv))...)
		}
	}
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	addReg := func(d, lv int) {
		for k, rad := range model.RadicesOf(extent(d, lv)) {
			hw[model.Register] = append(hw[model.Register], rad)
			images[model.Register] = append(images[model.Register], model.Image{{Axis: d, Digit: start[d][lv] + k}})
		}
	}
	for d := r - 1; d >= 0; d-- {
		addReg(d, lvData)
		addReg(d, lvLaneUnit)
	}
	for d := r - 1; d >= 0; d-- {
		addReg(d, lvInst)
	}
	for d := r - 1; d >= 0; d-- {
		addReg(d, lvUnit)
	}
	lanes, sgs := 1, 1
	for _, d := range t.order {
		for k, rad := range model.RadicesOf(t.ll[d]) {
			hw[model.Lane] = append(hw[model.Lane], rad)
			images[model.Lane] = append(images[model.Lane], model.Image{{Axis: d, Digit: start[d][lvLane] + k}})
		}
		lanes *= t.ll[d]
		for k, rad := range model.RadicesOf(t.c[d]) {
			hw[model.Subgroup] = append(hw[model.Subgroup], rad)
			images[model.Subgroup] = append(images[model.Subgroup], model.Image{{Axis: d, Digit: start[d][lvSg] + k}})
		}
		for _, rad := range model.RadicesOf(t.sl[d] / t.c[d]) {
			hw[model.Subgroup] = append(hw[model.Subgroup], rad)
			images[model.Subgroup] = append(images[model.Subgroup], nil)
		}
		sgs *= t.sl[d]
	}
	for _, rad := range model.RadicesOf(f.SubgroupSize / lanes) {
		hw[model.Lane] = append(hw[model.Lane], rad)
		images[model.Lane] = append(images[model.Lane], nil)
	}
	for _, rad := range model.RadicesOf(f.Subgroups / sgs) {
		hw[model.Subgroup] = append(hw[model.Subgroup], rad)
		images[model.Subgroup] = append(images[model.Subgroup], nil)
	}
	hw[model.Block] = model.RadicesOf(f.BlockCount())
	images[model.Block] = make([]model.Image, len(hw[model.Block]))
	return model.NewLayout(hw, dims, images)
}

// ExpressXeGPU writes l as an xegpu layout, or says why it has none.
func ExpressXeGPU(l *model.Layout) (*XeGPU, error) {
	const kind = "xegpu"
	if l.Size(model.Block) > 1 {
		return nil, notExpressible(kind, "it spans %d blocks; an xegpu layout describes one workgroup", l.Size(model.Block))
	}
	o, err := monomialOwners(l, kind)
	if err != nil {
		return nil, err
	}
	for p, ref := range o.hw[model.Register] {
		if ref.Axis < 0 {
			return nil, notExpressible(kind, "register digit %d selects no element (a lane holds repeated values); xegpu layouts never repeat values within a lane", p)
		}
	}
	r := l.Rank()
	spans := make([][][2]int, r)
	for d := range r {
		sp, ok := o.matchRuns(d, []model.HwDim{model.Register, model.Lane, model.Register, model.Subgroup, model.Register})
		if !ok {
			return nil, notExpressible(kind, "dimension %d is held, from its innermost digits out, by %s; xegpu holds each dimension as lane_data, lane_layout, lane and instruction repeats, sg_layout, round-robin repeats in that order",
				d, runsString(o.runs(d)))
		}
		spans[d] = sp
	}
	hasLanes := func(d int) bool { return spans[d][1][0] != spans[d][1][1] }
	hasSg := func(d int) bool { return spans[d][3][0] != spans[d][3][1] }
	// The register digits of d below its subgroup digits end at midEnd; the
	// round-robin repeats run from topStart to the end. Without lanes or
	// without subgroup digits the runs merge.
	midEnd := make([]int, r)
	topStart := make([]int, r)
	for d := range r {
		n := len(l.DimRadices(d))
		switch {
		case hasSg(d):
			midEnd[d], topStart[d] = spans[d][3][0], spans[d][3][1]
		default:
			midEnd[d], topStart[d] = n, -1
		}
	}
	// A lane's values: for each dimension (last first) lane_data then lane
	// units, then instruction tiles, then round-robin repeats.
	var segs []segment
	for d := r - 1; d >= 0; d-- {
		if hasLanes(d) {
			segs = append(segs, segment{dim: d, jump: 0, limit: spans[d][1][0]},
				segment{dim: d, jump: spans[d][1][1], limit: midEnd[d]})
		} else {
			segs = append(segs, segment{dim: d, jump: 0, limit: midEnd[d]},
				segment{dim: d, jump: -1, limit: 0})
		}
	}
	for d := r - 1; d >= 0; d-- {
		segs = append(segs, segment{dim: d, jump: -1, limit: midEnd[d]})
	}
	for d := r - 1; d >= 0; d-- {
		jump := -1
		if hasSg(d) {
			jump = topStart[d]
		}
		segs = append(segs, segment{dim: d, jump: jump, limit: len(l.DimRadices(d))})
	}
	level := func(sp [][2]int, i int) (data, unit, inst, round [2]int) {
		return sp[2*i], sp[2*i+1], sp[2*r+i], sp[3*r+i]
	}
	accept := func(sp [][2]int) bool {
		for i := range r {
			d := r - 1 - i
			data, unit, inst, round := level(sp, i)
			if hasLanes(d) && data[1] != spans[d][1][0] {
				return false
			}
			if hasSg(d) && inst[1] != midEnd[d] {
				return false
			}
			if round[1] != len(l.DimRadices(d)) {
				return false
			}
			for _, s := range [][2]int{data, unit, inst, round} {
				if !o.factorDigits(d, s[0], s[1]) {
					return false
				}
			}
		}
		return true
	}
	sp, ok := parseSegments(o.hw[model.Register], segs, r, accept)
	if !ok {
		return nil, notExpressible(kind, "a lane's values are not in xegpu order: its lane-level vector (lane_data and lane repeats, the last dimension fastest), then instruction tiles, then round-robin repeats, each level's repetition digit above its binary digits")
	}
	x := &XeGPU{SgLayout: make([]int, r), SgData: make([]int, r), InstData: make([]int, r), LaneLayout: make([]int, r), LaneData: make([]int, r)}
	c := make([]int, r)
	round := make([][2]int, r)
	for i := range r {
		d := r - 1 - i
		data, unit, _, rnd := level(sp, i)
		round[d] = rnd
		lanes := spans[d][1]
		if !hasLanes(d) {
			lanes = [2]int{data[1], data[1]}
		}
		sgs := spans[d][3]
		if !hasSg(d) {
			sgs = [2]int{rnd[0], rnd[0]}
		}
		for _, s := range [][2]int{lanes, sgs} {
			if !o.factorDigits(d, s[0], s[1]) {
				return nil, notExpressible(kind, "dimension %d has a repetition digit below binary digits within one xegpu level", d)
			}
		}
		x.LaneData[d] = o.productOf(d, data[0], data[1])
		x.LaneLayout[d] = o.productOf(d, lanes[0], lanes[1])
		x.InstData[d] = o.productOf(d, data[0], unit[1])
		x.SgData[d] = o.productOf(d, 0, sgs[0])
		c[d] = o.productOf(d, sgs[0], sgs[1])
	}
	// order numbers both lanes and subgroups. Try every order, default
	// first; broadcast subgroup digits belong to the dimension whose block
	// they follow (sharing), broadcast lanes stay above the used ones.
	var lastErr error
	orders := permutations(r)
	for _, order := range orders {
		cand := &XeGPU{SgLayout: slices.Clone(c), SgData: x.SgData, InstData: x.InstData, LaneLayout: x.LaneLayout, LaneData: x.LaneData, Order: order}
		if !assignSharing(o, cand, order, func(d int) bool { return round[d][0] != round[d][1] }) {
			continue
		}
		back, err := cand.Layout(model.FrameOf(l))
		if err != nil {
			lastErr = err
			continue
		}
		if back.Equal(l) {
			tidy := cand.tidied(l.Shape())
			if back, err := tidy.Layout(model.FrameOf(l)); err == nil && back.Equal(l) {
				return tidy, nil
			}
			return cand, nil
		}
	}
	if lastErr != nil {
		return nil, notExpressible(kind, "no order gives valid xegpu fields (%v)", lastErr)
	}
	return nil, notExpressible(kind, "no order numbers its lanes and subgroups the way it does (xegpu numbers both densely, %s fastest first, with one order for both)", "order[0]")
}

// assignSharing walks the subgroup axis in order and gives each subgroup
// digit that selects nothing to the dimension whose block it follows, as
// XeGPU's sharing of blocks among subgroups produces. Digits above the last
// block are left to repeat the subgroups below them when the last dimension
// wraps around (sharing and wrapping exclude each other).
func assignSharing(o *owners, x *XeGPU, order []int, wraps func(d int) bool) bool {
	cur := 0 // index in order of the current block
	rad := o.l.Radices(model.Subgroup)
	last := -1
	for p, ref := range o.hw[model.Subgroup] {
		if ref.Axis >= 0 {
			last = p
		}
	}
	for p, ref := range o.hw[model.Subgroup] {
		if ref.Axis >= 0 {
			i := slices.Index(order, ref.Axis)
			if i < cur {
				return false
			}
			cur = i
			continue
		}
		if p > last && wraps(order[cur]) {
			continue
		}
		x.SgLayout[order[cur]] *= rad[p]
	}
	return true
}

// tidied returns x without the fields that equal their defaults.
func (x *XeGPU) tidied(shape []int) *XeGPU {
	x = &XeGPU{x.SgLayout, x.SgData, x.InstData, x.LaneLayout, x.LaneData, x.Order}
	if slices.Equal(x.InstData, x.SgData) {
		x.InstData = nil
	}
	allOnes := func(v []int) bool {
		for _, e := range v {
			if e != 1 {
				return false
			}
		}
		return true
	}
	if allOnes(x.SgLayout) && slices.Equal(x.SgData, shape) {
		x.SgLayout, x.SgData = nil, nil
	}
	def := make([]int, 0, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		def = append(def, d)
	}
	if slices.Equal(x.Order, def) {
		x.Order = nil
	}
	return x
}

// permutations lists the permutations of 0..n-1, starting with the
// descending one (the default order of XeGPU and of Triton's row-major
// layouts), for n up to 6; beyond that only the descending one.
func permutations(n int) [][]int {
	first := make([]int, n)
	for i := range first {
		first[i] = n - 1 - i
	}
	out := [][]int{first}
	if n > 6 {
		return out
	}
	var rec func(prefix []int, used []bool)
	rec = func(prefix []int, used []bool) {
		if len(prefix) == n {
			if !slices.Equal(prefix, first) {
				out = append(out, slices.Clone(prefix))
			}
			return
		}
		for i := range n {
			if !used[i] {
				used[i] = true
				rec(append(prefix, i), used)
				used[i] = false
			}
		}
	}
	rec(nil, make([]bool, n))
	return out
}

// WithLaneData is x with lane_data want, where that writes the same
// layout l (lane_data along a dimension no lane divides, or one of a
// lane's consecutive elements, can be written several ways); else x.
// XeGPU writes lane_data by the packing its instructions need (llvm-project
// mlir/lib/Dialect/XeGPU/Transforms/XeGPUPropagateLayout.cpp,
// getSIMTLayoutInfoForDPASOperand: [2, 1] for a 16-bit DPAS B, packed to
// 32 bits along K; [1, 1] for a 16-bit A), which a reader of the IR
// expects to see.
func (x *XeGPU) WithLaneData(l *model.Layout, want []int) *XeGPU {
	if x.LaneLayout == nil || len(want) != len(x.LaneLayout) || slices.Equal(x.LaneData, want) {
		return x
	}
	y := &XeGPU{x.SgLayout, x.SgData, x.InstData, x.LaneLayout, slices.Clone(want), x.Order}
	if back, err := y.Layout(model.FrameOf(l)); err != nil || !back.Equal(l) {
		return x
	}
	return y
}
