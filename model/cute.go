package model

import (
	"fmt"
	"strconv"
	"strings"
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

func (c *CuTe) Fields() []Field {
	return []Field{
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
func (c *CuTe) Layout(f Frame) (*Layout, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f.blocks() != 1 {
		return nil, errorf(CodeBadValue, "blocks", "a CuTe thread-value layout describes one block")
	}
	if len(c.ThreadShape) != len(c.ThreadStride) {
		return nil, errorf(CodeRankMismatch, "thread_stride", "%d strides for %d thread modes", len(c.ThreadStride), len(c.ThreadShape))
	}
	if len(c.ValueShape) != len(c.ValueStride) {
		return nil, errorf(CodeRankMismatch, "value_stride", "%d strides for %d value modes", len(c.ValueStride), len(c.ValueShape))
	}
	for _, fl := range c.Fields() {
		for i, v := range fl.Ints {
			if strings.HasSuffix(fl.Key, "_shape") && v < 1 {
				return nil, errorAt(CodeBadValue, fl.Key, i, "mode size %d is not positive", v)
			}
			if v < 0 {
				return nil, errorAt(CodeBadValue, fl.Key, i, "stride %d is negative", v)
			}
		}
	}
	threads := f.SubgroupSize * f.Subgroups
	if p := product(c.ThreadShape); p != threads {
		return nil, errorf(CodeShapeMismatch, "thread_shape", "thread_shape covers %d threads but there are %d (%d lanes × %d subgroups)", p, threads, f.SubgroupSize, f.Subgroups)
	}
	values := product(c.ValueShape)
	if values > MaxHwPoints {
		return nil, errorf(CodeTooLarge, "value_shape", "%d values per thread is too many", values)
	}
	// The element position, column-major: dimension 0's digits first.
	dims := make([]Radices, len(f.Shape))
	type posDigit struct {
		ref   DigitRef
		radix int
		place int
	}
	var flat []posDigit
	place := 1
	for d, s := range f.Shape {
		dims[d] = RadicesOf(s)
		for k, r := range dims[d] {
			flat = append(flat, posDigit{DigitRef{d, k}, r, place})
			place *= r
		}
	}
	owner := map[DigitRef]string{}
	// mode turns one (size, stride) mode into hardware digits.
	mode := func(key string, i, n, stride int) (Radices, []Image, error) {
		if n == 1 {
			return nil, nil, nil
		}
		if stride == 0 {
			rad := RadicesOf(n)
			return rad, make([]Image, len(rad)), nil
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
			return nil, nil, errorAt(CodeBadValue, key, i, "stride %d is not the place of a digit of the column-major element position over %v (the places are %s)", stride, f.Shape, strings.Join(places, ", "))
		}
		var rad Radices
		var imgs []Image
		size := 1
		for size < n {
			if k >= len(flat) || n%(size*flat[k].radix) != 0 {
				return nil, nil, errorAt(CodeBadValue, key, i, "mode %d:%d does not cover whole digits of the element position over %v (it runs past the tensor or splits a repeat)", n, stride, f.Shape)
			}
			if prev, taken := owner[flat[k].ref]; taken {
				return nil, nil, errorAt(CodeOverlap, key, i, "mode %d:%d writes the same element digits as %s; CuTe would add them with carries", n, stride, prev)
			}
			owner[flat[k].ref] = fmt.Sprintf("%s mode %d", strings.TrimSuffix(key, "_stride"), i)
			rad = append(rad, flat[k].radix)
			imgs = append(imgs, Image{flat[k].ref})
			size *= flat[k].radix
			k++
		}
		return rad, imgs, nil
	}
	var threadRad Radices
	var threadImg []Image
	for i := range c.ThreadShape {
		rad, imgs, err := mode("thread_stride", i, c.ThreadShape[i], c.ThreadStride[i])
		if err != nil {
			return nil, err
		}
		threadRad = append(threadRad, rad...)
		threadImg = append(threadImg, imgs...)
	}
	var hw [NumHwDims]Radices
	var images [NumHwDims][]Image
	for i := range c.ValueShape {
		rad, imgs, err := mode("value_stride", i, c.ValueShape[i], c.ValueStride[i])
		if err != nil {
			return nil, err
		}
		hw[Register] = append(hw[Register], rad...)
		images[Register] = append(images[Register], imgs...)
	}
	// Thread digits: the first ones are the lane, the rest the subgroup.
	laneBits := log2(f.SubgroupSize)
	for i, r := range threadRad {
		h := Lane
		if i >= laneBits {
			h = Subgroup
		} else if r != 2 {
			return nil, errorf(CodeNotPowerOfTwo, "thread_shape", "a thread mode of %d splits the %d lanes of a subgroup unevenly", r, f.SubgroupSize)
		}
		hw[h] = append(hw[h], r)
		images[h] = append(images[h], threadImg[i])
	}
	l, err := NewLayout(hw, dims, images)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// ExpressCuTe writes l as a CuTe thread-value layout, or says why it has
// none.
func ExpressCuTe(l *Layout) (*CuTe, error) {
	const kind = "cute"
	if l.Size(Block) > 1 {
		return nil, notExpressible(kind, "it spans %d blocks; a thread-value layout describes one block", l.Size(Block))
	}
	o, err := monomialOwners(l, kind)
	if err != nil {
		return nil, err
	}
	// Place of every tensor digit in the column-major element position.
	place := map[DigitRef]int{}
	p := 1
	for d := range l.Rank() {
		for k, r := range l.DimRadices(d) {
			place[DigitRef{d, k}] = p
			p *= r
		}
	}
	modes := func(hs ...HwDim) (shape, stride []int) {
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
	c.ThreadShape, c.ThreadStride = modes(Lane, Subgroup)
	c.ValueShape, c.ValueStride = modes(Register)
	back, err := c.Layout(FrameOf(l))
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
