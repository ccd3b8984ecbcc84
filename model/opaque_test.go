package model

import "testing"

// An unspecified fragment (WMMA, PTX ISA "Matrix Fragments for WMMA":
// "unspecified and target architecture dependent") is a stand-in marked
// with its family: exact in how many values each lane holds, opaque in
// which. It equals only itself, nothing rearranges or converts it, and no
// notation writes it.
func TestOpaqueFragments(t *testing.T) {
	// f16 A of m16n16k16: eight .f16x2 registers, 16 values per lane, so
	// the 256 elements are held 512 times: each exactly twice.
	a, err := StandIn("wmma.a", []int{16, 16}, 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	if a.Opaque() != "wmma.a" || a.Size(Register) != 16 || a.Size(Lane) != 32 || !a.Duplicated() {
		t.Fatalf("stand-in %v: family %q, %d values, %d lanes, duplicated %v", a, a.Opaque(), a.Size(Register), a.Size(Lane), a.Duplicated())
	}
	held := map[[2]int]int{}
	a.Each(func(p HwPoint, idx []int) { held[[2]int{idx[0], idx[1]}]++ })
	if len(held) != 256 {
		t.Fatalf("the stand-in holds %d elements, want 256", len(held))
	}
	for e, n := range held {
		if n != 2 {
			t.Fatalf("element %v is held %d times, want 2", e, n)
		}
	}
	// f32 C: eight .f32 registers, each element once.
	c, err := StandIn("wmma.c", []int{16, 16}, 8, 32)
	if err != nil || c.Duplicated() {
		t.Fatalf("accumulator stand-in: %v, duplicated %v", err, c != nil && c.Duplicated())
	}

	// The same map unmarked is another layout.
	plain, err := layoutOf(a.m, marks{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Equal(plain) || plain.Equal(a) || a.Key() == plain.Key() {
		t.Errorf("an opaque fragment equals the concrete layout of its stand-in map")
	}
	if _, ok := MatchFragment(plain, a); ok {
		t.Errorf("a concrete layout matches an opaque fragment")
	}
	if n, ok := MatchFragment(a, a); !ok || n != 1 {
		t.Errorf("the fragment does not match itself: %d, %v", n, ok)
	}

	// Tiled over 2x2 subgroups: still opaque, with its tile layout.
	tiled, err := Tile(a, []int{32, 32}, []TileFactor{{Dim: 1, Count: 2, Hw: Subgroup}, {Dim: 0, Count: 2, Hw: Subgroup}})
	if err != nil {
		t.Fatal(err)
	}
	if tiled.Opaque() != "wmma.a" || tiled.Tiles() == nil || tiled.Tiles().Size(Subgroup) != 4 || len(tiled.Tiles().Shape()) != 2 || tiled.Tiles().Shape()[0] != 2 {
		t.Fatalf("tiled: family %q, tiles %v", tiled.Opaque(), tiled.Tiles())
	}
	if n, ok := MatchFragment(tiled, a); !ok || n != 1 {
		t.Errorf("the tiled fragment does not match its fragment: %d, %v", n, ok)
	}

	for name, f := range map[string]func() (*Layout, error){
		"transpose":   func() (*Layout, error) { return a.Transpose([]int{1, 0}) },
		"slice":       func() (*Layout, error) { return a.Slice(1) },
		"broadcast":   func() (*Layout, error) { return a.Broadcast(0, 4) },
		"reshape":     func() (*Layout, error) { return a.Reshape([]int{256}) },
		"expand dims": func() (*Layout, error) { return a.ExpandDims(0) },
		"product":     func() (*Layout, error) { return a.Product(a) },
	} {
		if l, err := f(); err == nil {
			t.Errorf("%s of an opaque fragment gave %v, want an error", name, l)
		}
	}
	if _, err := Analyze(a, plain, 16); err == nil {
		t.Errorf("a conversion out of an opaque fragment was analysed")
	}
	if _, err := Analyze(plain, a, 16); err == nil {
		t.Errorf("a conversion into an opaque fragment was analysed")
	}
	if conv, err := Analyze(a, a, 16); err != nil || conv.Kind != ConvNone {
		t.Errorf("an opaque fragment to itself: %v, %v; want no conversion", conv, err)
	}
	for _, k := range Kinds {
		if _, err := Express(k, a); err == nil {
			t.Errorf("notation %s wrote an opaque fragment", k)
		}
	}

	// Bad sizes: not a power of two, or fewer slots than elements.
	for _, perLane := range []int{3, 4, 0} {
		if _, err := StandIn("f", []int{16, 16}, perLane, 32); err == nil {
			t.Errorf("%d values per lane over 32 lanes for 256 elements: no error", perLane)
		}
	}
	if _, err := StandIn("", []int{16, 16}, 8, 32); err == nil {
		t.Errorf("a stand-in without a family: no error")
	}
}
