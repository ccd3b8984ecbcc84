package model

import "testing"

// A load's fragment may cover one group of lanes (ds_read_b64_tr_b16 fixes
// what each 16 lanes receive; the addresses place the groups): a layout is
// that fragment repeated when its lowest lane and register digits are the
// fragment's and its other lane digits, like its other registers, stay off
// the fragment's digits.
func TestMatchFragmentLaneGroups(t *testing.T) {
	lin := func(shape []int, lanes int, reg, lane [][]int) *Layout {
		t.Helper()
		return basesLayout(t, Frame{Shape: shape, SubgroupSize: lanes, Subgroups: 1}, reg, lane)
	}
	// One group: a 4x16 tile, lane i column i, value r row r.
	frag := lin([]int{4, 16}, 16, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}})
	for _, c := range []struct {
		name  string
		l     *Layout
		n     int
		match bool
	}{
		// Lanes 16-31 take the next 16 columns, lanes 32-63 rows 4-7.
		{"groups side by side", lin([]int{8, 32}, 64, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}), 1, true},
		// Two reads whose rows interleave with a lane group (k 4 in a
		// register, k 8 across lanes 32-63).
		{"reads interleaved with groups", lin([]int{16, 32}, 64, [][]int{{1, 0}, {2, 0}, {4, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {8, 0}}), 2, true},
		// Groups reading the same tile (a lane digit that selects nothing).
		{"groups holding copies", lin([]int{4, 32}, 64, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 0}}), 1, true},
		// A lane digit above the group that lands inside the tile's rows.
		{"group digit inside the tile", lin([]int{8, 32}, 64, [][]int{{1, 0}, {4, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {2, 0}}), 0, false},
		// The group's own lanes arranged otherwise.
		{"group lanes swapped", lin([]int{8, 32}, 64, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 2}, {0, 1}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}), 0, false},
	} {
		n, ok := MatchFragment(c.l, frag)
		if ok != c.match || ok && n != c.n {
			t.Errorf("%s: %d fragments (match %v), want %d (match %v)", c.name, n, ok, c.n, c.match)
		}
	}
	// A fragment over every lane still asks the same of all of them.
	full := lin([]int{8, 32}, 64, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}})
	other := lin([]int{8, 32}, 64, [][]int{{1, 0}, {2, 0}}, [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {0, 16}})
	if _, ok := MatchFragment(other, full); ok {
		t.Error("a whole-subgroup fragment matched a layout with its lanes 16 and 32 swapped")
	}
}
