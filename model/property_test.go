package model_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"planner/internal/golden"
	. "planner/model"
	"planner/model/modeltest"
	"planner/notation"
)

// Every notation that can express a layout prints fields that build the
// same layout again. The short run draws 200 layouts, PLANNER_LONG_TESTS=1
// 600 (each notation on at least 50 in 600).
func TestRoundTripEveryNotation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	draws := golden.Count(200, 600)
	for i := range draws {
		f := modeltest.Frame(r, i%3 == 0)
		l, src := modeltest.Layout(r, f)
		if l == nil {
			continue
		}
		for _, kind := range notation.Kinds {
			n, err := notation.Express(kind, l)
			if err != nil {
				if e, ok := err.(*Error); !ok || e.Code != CodeNotExpressible {
					t.Fatalf("%s from %s: unexpected error %v", kind, src, err)
				}
				continue
			}
			back, err := n.Layout(f)
			if err != nil {
				t.Fatalf("%s from %s: the printed fields %s do not build: %v", kind, src, n.Attr(), err)
			}
			if !back.Equal(l) {
				t.Fatalf("%s from %s: %s builds a different layout", kind, src, n.Attr())
			}
			counts[kind]++
		}
	}
	// Each notation must have been exercised; a generator change that
	// stops producing some notation's layouts would make this test weak.
	for _, kind := range notation.Kinds {
		if counts[kind] < 50*draws/600 {
			t.Errorf("only %d layouts round-tripped through %s", counts[kind], kind)
		}
	}
	t.Logf("round trips: %v", counts)
}

// The source notation itself must always be able to express what it built.
func TestNotationExpressesItself(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 400 {
		f := modeltest.Frame(r, i%2 == 0)
		var n Notation
		switch i % 3 {
		case 0:
			n = modeltest.Nested(r, f)
		case 1:
			n = modeltest.XeGPU(r, f)
		default:
			n = modeltest.Blocked(r, f)
		}
		l, err := n.Layout(f)
		if err != nil {
			continue
		}
		if _, err := notation.Express(n.Kind(), l); err != nil {
			t.Fatalf("%s cannot express its own %s over %v: %v", n.Kind(), n.Attr(), f.Shape, err)
		}
	}
}

// Composing a layout with its inverse is the identity on what is held, and
// the inverse sends every element to one of its holders.
func TestInverseIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		f := modeltest.Frame(r, i%2 == 0)
		l, src := modeltest.Layout(r, f)
		if l == nil {
			continue
		}
		inv := l.Inverse()
		back, err := inv.Compose(l.Map())
		if err != nil {
			t.Fatal(err)
		}
		// back: tensor -> tensor must be the identity.
		forEachIndex(l.Shape(), func(idx []int) {
			if got := back.Apply(idx); !slices.Equal(got, idx) {
				t.Fatalf("%s: L(L⁻¹(%v)) = %v", src, idx, got)
			}
		})
		// L⁻¹∘L is a projection: L∘L⁻¹∘L = L.
		proj, err := l.Map().Compose(inv)
		if err != nil {
			t.Fatal(err)
		}
		again, err := proj.Compose(l.Map())
		if err != nil {
			t.Fatal(err)
		}
		if !again.Equal(l.Map()) {
			t.Fatalf("%s: L∘L⁻¹∘L != L", src)
		}
	}
}

func forEachIndex(shape []int, fn func(idx []int)) {
	idx := make([]int, len(shape))
	for {
		fn(slices.Clone(idx))
		d := len(shape) - 1
		for d >= 0 {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
			d--
		}
		if d < 0 {
			return
		}
	}
}

// Holders lists exactly the points that hold an element.
func TestHoldersMatchEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 100 {
		f := modeltest.Frame(r, i%2 == 0)
		l, src := modeltest.Layout(r, f)
		if l == nil || l.Elements() > 256 {
			continue
		}
		want := map[int][]HwPoint{}
		l.Each(func(p HwPoint, idx []int) {
			e := linearIndex(idx, l.Shape())
			want[e] = append(want[e], p)
		})
		forEachIndex(l.Shape(), func(idx []int) {
			got := l.Holders(idx)
			w := want[linearIndex(idx, l.Shape())]
			slices.SortFunc(w, comparePoints)
			if !slices.Equal(got, w) {
				t.Fatalf("%s: holders of %v = %v, want %v", src, idx, got, w)
			}
		})
	}
}

// The conversion analysis from linear algebra agrees with walking every
// element, on random pairs of layouts of one tensor. 500 pairs compare
// about 480 conversions, at least 90 of each kind (seeded, so the same
// every run); the check below asks for 20 of each.
func TestConversionAgreesWithElements(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	kinds := map[ConversionKind]int{}
	compared := 0
	for i := range 500 {
		f := modeltest.Frame(r, i%4 == 0)
		a, sa := modeltest.Layout(r, f)
		b, sb := modeltest.Layout(r, f)
		if a == nil || b == nil {
			continue
		}
		if i%5 == 0 {
			b = a // equal layouts too
		}
		if !ComparableDigits(a, b) {
			continue
		}
		bits := []int{8, 16, 32, 64}[r.IntN(4)]
		lin := AnalyzeLinear(a, b, bits)
		el := AnalyzeByElements(a, b, bits)
		ClearReason(lin)
		ClearReason(el)
		if !reflect.DeepEqual(lin, el) {
			t.Fatalf("%d-bit conversion\n from %s\n to   %s\nlinear:   %+v\nelements: %+v", bits, sa, sb, *lin, *el)
		}
		kinds[lin.Kind]++
		compared++
	}
	for k := ConvNone; k <= ConvShared; k++ {
		if kinds[k] < 20 {
			t.Errorf("only %d conversions of kind %s compared", kinds[k], k)
		}
	}
	t.Logf("compared %d conversions: %v", compared, kinds)
}

func linearIndex(idx, shape []int) int {
	e := 0
	for d, i := range idx {
		e = e*shape[d] + i
	}
	return e
}

func comparePoints(a, b HwPoint) int {
	return slices.Compare([]int{a.Block, a.Subgroup, a.Lane, a.Value}, []int{b.Block, b.Subgroup, b.Lane, b.Value})
}

// ElementNumbers agrees with Index point by point on random layouts of
// every notation, repetition digits included.
func TestElementNumbersMatchIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		f := modeltest.Frame(r, i%2 == 0)
		l, src := modeltest.Layout(r, f)
		got := l.ElementNumbers()
		k := 0
		l.Each(func(p HwPoint, idx []int) {
			if k < len(got) && got[k] != LinearIndex(idx, l.Shape()) {
				t.Fatalf("%s: point %v holds %v (number %d), ElementNumbers says %d", src, p, idx, LinearIndex(idx, l.Shape()), got[k])
			}
			k++
		})
		if k != len(got) {
			t.Fatalf("%s: %d points, %d numbers", src, k, len(got))
		}
	}
}
