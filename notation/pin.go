package notation

import (
	"fmt"

	"planner/model"
)

// unrealisable explains why a pin's notation n builds no layout over frame
// f when the only trouble is the frame's subgroup count or subgroup size:
// n builds a layout over the same shape for the subgroup count and size it
// asks for itself. It returns "" when n is wrong in some other way (or
// asks for counts a frame cannot have), which is then an input error.
// target names the target whose lanes f counts.
func unrealisable(n model.Notation, f model.Frame, target string) string {
	sgs, lanes := askedCounts(n, f)
	// The smallest change first, so that the explanation names only the
	// count that differs.
	var tries []model.Frame
	for _, c := range [][2]int{{sgs, f.SubgroupSize}, {f.Subgroups, lanes}, {sgs, lanes}} {
		alt := f
		alt.Subgroups, alt.SubgroupSize = c[0], c[1]
		if alt.Subgroups == f.Subgroups && alt.SubgroupSize == f.SubgroupSize {
			continue
		}
		if alt.Subgroups < 1 || alt.Subgroups > 1024 || alt.SubgroupSize < 1 || alt.SubgroupSize > 1024 {
			continue
		}
		tries = append(tries, alt)
	}
	for _, alt := range tries {
		if _, err := n.Layout(alt); err != nil {
			continue
		}
		switch {
		case alt.SubgroupSize == f.SubgroupSize:
			return fmt.Sprintf("the layout spreads over %s, but the graph has subgroups = %d", count(alt.Subgroups, "subgroup"), f.Subgroups)
		case alt.Subgroups == f.Subgroups:
			return fmt.Sprintf("the layout spreads over %s per subgroup, but %s's subgroups have %d lanes", count(alt.SubgroupSize, "lane"), target, f.SubgroupSize)
		default:
			return fmt.Sprintf("the layout spreads over %s of %s, but the graph has subgroups = %d and %s's subgroups have %d lanes",
				count(alt.Subgroups, "subgroup"), count(alt.SubgroupSize, "lane"), f.Subgroups, target, f.SubgroupSize)
		}
	}
	return ""
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// askedCounts reads from a notation the subgroup count and the lanes per
// subgroup it is written for; where the notation does not fix one, the
// frame's is returned. A count no frame can have is returned as 0.
func askedCounts(n model.Notation, f model.Frame) (sgs, lanes int) {
	sgs, lanes = f.Subgroups, f.SubgroupSize
	switch x := n.(type) {
	case *Blocked:
		sgs, lanes = cappedProduct(x.WarpsPerCTA), cappedProduct(x.ThreadsPerWarp)
	case *Nested:
		// The ids the tiles and strides span; ids beyond them repeat.
		sgs, lanes = idSpan(x.SubgroupTile, x.SubgroupStrides), idSpan(x.ThreadTile, x.ThreadStrides)
	case *XeGPU:
		if x.SgLayout != nil {
			sgs = cappedProduct(x.SgLayout)
		}
		if x.LaneLayout != nil {
			lanes = cappedProduct(x.LaneLayout)
		}
	case *XeGPUSlice:
		return askedCounts(x.Parent, f)
	case *Linear:
		sgs, lanes = basesIDs(len(x.Warp)), basesIDs(len(x.Lane))
	case *Triton:
		sgs, lanes = x.Counts()
	case *CuTe:
		// thread_shape counts the threads of the block: lanes × subgroups.
		threads := cappedProduct(x.ThreadShape)
		switch {
		case threads == 0:
		case threads%f.SubgroupSize == 0:
			sgs = threads / f.SubgroupSize
		case threads%f.Subgroups == 0:
			lanes = threads / f.Subgroups
		}
	case *Table:
		maxSg, maxLane := -1, -1
		for _, row := range x.Rows {
			if len(row) >= 3 {
				maxSg, maxLane = max(maxSg, row[0]), max(maxLane, row[1])
			}
		}
		// A table must give every lane of every subgroup: it is written
		// for the ids its rows name.
		if maxSg >= 0 && maxSg < 1024 {
			sgs = maxSg + 1
		}
		if maxLane >= 0 && maxLane < 1024 {
			lanes = maxLane + 1
		}
	}
	return sgs, lanes
}

// cappedProduct multiplies xs, returning 0 when an entry is not positive or
// the product passes 1024, the most ids a frame has.
func cappedProduct(xs []int) int {
	p := 1
	for _, x := range xs {
		if x < 1 {
			return 0
		}
		p *= x
		if p > 1024 {
			return 0
		}
	}
	return p
}

// idSpan is how many ids a nested layout's tiles and strides span: the
// largest stride × tile of a distributed dimension (1 when none is).
func idSpan(tiles, strides []int) int {
	span := 1
	for d, t := range tiles {
		if t > 1 && d < len(strides) {
			if strides[d] < 1 || strides[d] > 1024 || t > 1024 {
				return 0
			}
			span = max(span, strides[d]*t)
		}
	}
	if span > 1024 {
		return 0
	}
	return span
}

// basesIDs is how many ids k linear bases give.
func basesIDs(k int) int {
	if k > 10 {
		return 0
	}
	return 1 << k
}

// PinLayout builds the layout a pin written in notation n gives over frame
// f, for every front end (a graph file's [pins] and store layouts, MLIR's
// to_layout anchors): the layout; or, when n is well formed for another
// subgroup count or subgroup size than f's, no layout and the sentence
// saying why no plan can meet it; or the error of a layout that is wrong
// in some other way. target names the target whose lanes f counts.
func PinLayout(n model.Notation, f model.Frame, target string) (*model.Layout, string, error) {
	l, err := n.Layout(f)
	if err == nil {
		return l, "", nil
	}
	if why := unrealisable(n, f, target); why != "" {
		return nil, why, nil
	}
	return nil, "", err
}
