package notation

import (
	"fmt"
	"strconv"
	"strings"

	"planner/model"
)

// CuTe is a thread-value layout as CUTLASS's CuTe writes one: a thread id
// (lane + subgroup_size × subgroup) is split into coordinates by
// thread_shape, a value id by value_shape, each first mode fastest; the
// element is the column-major position (dimension 0 fastest, CuTe's
// default LayoutLeft) Σ coordinate × stride. See NVIDIA/cutlass
// media/docs/cpp/cute/01_layout.md and the TV layouts of
// include/cute/atom/mma_traits_sm80.hpp. A stride of 0 repeats data; modes
// must write disjoint digits of the element position (CuTe would add
// overlapping modes with carries, which is not a linear layout).
type CuTe struct {
	ThreadShape  []int
	ThreadStride []int
	ValueShape   []int
	ValueStride  []int
}

func (c *CuTe) Kind() string { return "cute" }

func (c *CuTe) Fields() []model.Field {
	return []model.Field{
		{Key: "thread_shape", Ints: c.ThreadShape},
		{Key: "thread_stride", Ints: c.ThreadStride},
		{Key: "value_shape", Ints: c.ValueShape},
		{Key: "value_stride", Ints: c.ValueStride},
	}
}

// Attr prints the layout as cute::print shows a static TV layout.
func (c *CuTe) Attr() string {
	mode := func(xs []int) string {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = fmt.Sprintf("_%d", x)
		}
		if len(parts) == 1 {
			return parts[0]
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	return fmt.Sprintf("(%s,%s):(%s,%s)", mode(c.ThreadShape), mode(c.ValueShape), mode(c.ThreadStride), mode(c.ValueStride))
}

// Layout builds the canonical layout of c for frame f.
func (c *CuTe) Layout(f model.Frame) (*model.Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f.BlockCount() != 1 {
		return nil, errorf(model.CodeBadValue, "blocks", "a CuTe thread-value layout describes one block")
	}
	if len(c.ThreadShape) != len(c.ThreadStride) {
		return nil, errorf(model.CodeRankMismatch, "thread_stride", "%d strides for %d thread modes", len(c.ThreadStride), len(c.ThreadShape))
	}
	if len(c.ValueShape) != len(c.ValueStride) {
		return nil, errorf(model.CodeRankMismatch, "value_stride", "%d strides for %d value modes", len(c.ValueStride), len(c.ValueShape))
	}
	for _, fl := range c.Fields() {
		for i, v := range fl.Ints {
			if strings.HasSuffix(fl.Key, "_shape") && v < 1 {
				return nil, errorAt(model.CodeBadValue, fl.Key, i, "mode size %d is not positive", v)
			}
			if v < 0 {
				return nil, errorAt(model.CodeBadValue, fl.Key, i, "stride %d is negative", v)
			}
		}
	}
	threads := f.SubgroupSize * f.Subgroups
	if p := product(c.ThreadShape); p != threads {
		return nil, errorf(model.CodeShapeMismatch, "thread_shape", "thread_shape covers %d threads but there are %d (%d lanes × %d subgroups)", p, threads, f.SubgroupSize, f.Subgroups)
	}
	values := product(c.ValueShape)
	if values > model.MaxHwPoints {
		return nil, errorf(model.CodeTooLarge, "value_shape", "%d values per thread is too many", values)
	}
	// The element position, column-major: dimension 0's digits first.
	dims := make([]model.Radices, len(f.Shape))
	type posDigit struct {
		ref   model.DigitRef
		radix int
		place int
	}
	var flat []posDigit
	place := 1
	for d, s := range f.Shape {
		dims[d] = model.RadicesOf(s)
		for k, r := range dims[d] {
			flat = append(flat, posDigit{model.DigitRef{Axis: d, Digit: k}, r, place})
			place *= r
		}
	}
	owner := map[model.DigitRef]string{}
	// mode turns one (size, stride) mode into hardware digits.
	mode := func(key string, i, n, stride int) (model.Radices, []model.Image, error) {
		if n == 1 {
			return nil, nil, nil
		}
		if stride == 0 {
			rad := model.RadicesOf(n)
			return rad, make([]model.Image, len(rad)), nil
		}
		k := 0
		for k < len(flat) && flat[k].place < stride {
			k++
		}
		if k == len(flat) || flat[k].place != stride {
			places := make([]string, len(flat))
			for j, p := range flat {
				places[j] = strconv.Itoa(p.place)
			}
			return nil, nil, errorAt(model.CodeBadValue, key, i, "stride %d is not the place of a digit of the column-major element position over %v (the places are %s)", stride, f.Shape, strings.Join(places, ", "))
		}
		var rad model.Radices
		var imgs []model.Image
		size := 1
		for size < n {
			if k >= len(flat) || n%(size*flat[k].radix) != 0 {
				return nil, nil, errorAt(model.CodeBadValue, key, i, "mode %d:%d does not cover whole digits of the element position over %v (it runs past the tensor or splits a repeat)", n, stride, f.Shape)
			}
			if prev, taken := owner[flat[k].ref]; taken {
				return nil, nil, errorAt(model.CodeOverlap, key, i, "mode %d:%d writes the same element digits as %s; CuTe would add them with carries", n, stride, prev)
			}
			owner[flat[k].ref] = fmt.Sprintf("%s mode %d", strings.TrimSuffix(key, "_stride"), i)
			rad = append(rad, flat[k].radix)
			imgs = append(imgs, model.Image{flat[k].ref})
			size *= flat[k].radix
			k++
		}
		return rad, imgs, nil
	}
	var threadRad model.Radices
	var threadImg []model.Image
	for i := range c.ThreadShape {
		rad, imgs, err := mode("thread_stride", i, c.ThreadShape[i], c.ThreadStride[i])
		if err != nil {
			return nil, err
		}
		threadRad = append(threadRad, rad...)
		threadImg = append(threadImg, imgs...)
	}
	var hw [model.NumHwDims]model.Radices
	var images [model.NumHwDims][]model.Image
	for i := range c.ValueShape {
		rad, imgs, err := mode("value_stride", i, c.ValueShape[i], c.ValueStride[i])
		if err != nil {
			return nil, err
		}
		hw[model.Register] = append(hw[model.Register], rad...)
		images[model.Register] = append(images[model.Register], imgs...)
	}
	// Thread digits: the first ones are the lane, the rest the subgroup.
	laneBits := log2(f.SubgroupSize)
	for i, r := range threadRad {
		h := model.Lane
		if i >= laneBits {
			h = model.Subgroup
		} else if r != 2 {
			return nil, errorf(model.CodeNotPowerOfTwo, "thread_shape", "a thread mode of %d splits the %d lanes of a subgroup unevenly", r, f.SubgroupSize)
		}
		hw[h] = append(hw[h], r)
		images[h] = append(images[h], threadImg[i])
	}
	l, err := model.NewLayout(hw, dims, images)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// ExpressCuTe writes l as a CuTe thread-value layout, or says why it has
// none.
func ExpressCuTe(l *model.Layout) (*CuTe, error) {
	const kind = "cute"
	if l.Size(model.Block) > 1 {
		return nil, notExpressible(kind, "it spans %d blocks; a thread-value layout describes one block", l.Size(model.Block))
	}
	o, err := monomialOwners(l, kind)
	if err != nil {
		return nil, err
	}
	// Place of every tensor digit in the column-major element position.
	place := map[model.DigitRef]int{}
	p := 1
	for d := range l.Rank() {
		for k, r := range l.DimRadices(d) {
			place[model.DigitRef{Axis: d, Digit: k}] = p
			p *= r
		}
	}
	modes := func(hs ...model.HwDim) (shape, stride []int) {
		for _, h := range hs {
			rad := l.Radices(h)
			for i, ref := range o.hw[h] {
				s := 0
				if ref.Axis >= 0 {
					s = place[ref]
				}
				shape = append(shape, rad[i])
				stride = append(stride, s)
			}
		}
		return coalesce(shape, stride)
	}
	c := &CuTe{}
	c.ThreadShape, c.ThreadStride = modes(model.Lane, model.Subgroup)
	c.ValueShape, c.ValueStride = modes(model.Register)
	back, err := c.Layout(model.FrameOf(l))
	if err != nil || !back.Equal(l) {
		return nil, notExpressible(kind, "the thread and value modes read off it do not rebuild it")
	}
	return c, nil
}

// coalesce merges neighbouring modes that continue each other, as
// cute::coalesce does: (n1:s1, n2:n1·s1) becomes (n1·n2 : s1), and
// neighbouring repeats (stride 0) merge. An empty list becomes (1:0).
func coalesce(shape, stride []int) ([]int, []int) {
	var sh, st []int
	for i := range shape {
		n := len(sh)
		if n > 0 && ((st[n-1] == 0 && stride[i] == 0) || (st[n-1] != 0 && stride[i] == sh[n-1]*st[n-1])) {
			sh[n-1] *= shape[i]
			continue
		}
		sh = append(sh, shape[i])
		st = append(st, stride[i])
	}
	if len(sh) == 0 {
		return []int{1}, []int{0}
	}
	return sh, st
}
