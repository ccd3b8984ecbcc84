package model

import "slices"

// MMATiling is how an mma's record fragments repeat over its operands for
// one arrangement of its warps (or groups of warps): the factors of A, of
// B and of the accumulator C, for Tile.
type MMATiling struct {
	A, B, C []TileFactor
}

// TileMMA gives the factors that repeat record r's fragments over an mma
// of m×k by k×n on wm warps along M and wn along N (ids along N first
// when nFirst; register repeats outside the warps when outer): the
// operand that lacks a dimension repeats over those warps, and where
// there are more warps than tiles the extra warps hold copies. The K
// repeats of A and B are the innermost registers, then A's M and B's N;
// the accumulator's register repeats run along N first, or along M first
// when accMFirst.
func TileMMA(r *Record, m, n, k, wm, wn int, nFirst, outer, accMFirst bool) MMATiling {
	sg := Subgroup
	reg := Register
	order := func(first, second []TileFactor) []TileFactor {
		if nFirst {
			return append(slices.Clone(first), second...)
		}
		return append(slices.Clone(second), first...)
	}
	// Warps along M (N) split the tiles along M (N): um (un) of them hold
	// other tiles, and where there are more warps than tiles, dm (dn)
	// warps hold copies of each (a factor of count 1 adds nothing).
	um, un := min(wm, m/r.M), min(wn, n/r.N)
	dm, dn := wm/max(um, 1), wn/max(un, 1)
	warpsM := []TileFactor{{Dim: 0, Count: um, Hw: sg}, {Dim: -1, Count: dm, Hw: sg}}
	warpsN := []TileFactor{{Dim: 1, Count: un, Hw: sg}, {Dim: -1, Count: dn, Hw: sg}}
	allM := []TileFactor{{Dim: -1, Count: wm, Hw: sg}}
	allN := []TileFactor{{Dim: -1, Count: wn, Hw: sg}}
	// Warps then register repeats, or register repeats then warps.
	arrange := func(warps, regs []TileFactor) []TileFactor {
		if outer {
			return append(slices.Clone(regs), warps...)
		}
		return append(slices.Clone(warps), regs...)
	}
	cRegs := []TileFactor{{Dim: 1, Count: n / max(r.N*un, 1), Hw: reg}, {Dim: 0, Count: m / max(r.M*um, 1), Hw: reg}}
	if accMFirst {
		slices.Reverse(cRegs)
	}
	return MMATiling{
		A: arrange(order(allN, warpsM), []TileFactor{{Dim: 1, Count: k / max(r.K, 1), Hw: reg}, {Dim: 0, Count: m / max(r.M*um, 1), Hw: reg}}),
		B: arrange(order(warpsN, allM), []TileFactor{{Dim: 0, Count: k / max(r.K, 1), Hw: reg}, {Dim: 1, Count: n / max(r.N*un, 1), Hw: reg}}),
		C: arrange(order(warpsN, warpsM), cRegs),
	}
}
