package model

// The price of spilling. A graph with registers = "spill" lets a plan
// hold more registers per lane than its target's budget; the compiler
// then keeps the excess in memory private to each lane (NVIDIA's local
// memory, which "resides in device memory" and is as slow as global
// memory: CUDA C++ Programming Guide, "Device Memory Accesses", "Local
// Memory"; AMD's scratch, the private address space backed by memory:
// LLVM docs/AMDGPUUsage.rst, "Address Spaces" and "Private Segment
// Buffer"; on Intel GPUs spilled variables move to memory and add memory
// traffic: oneAPI GPU Optimization Guide, "Registers and Performance").
// The model: every
// register over the budget at a program point is stored once and loaded
// back each time the program passes that point, each a warp-wide 32-bit
// access priced like a global one (Weights.Issue plus the sectors the
// subgroup's lanes touch). A plan's spill cost is the dearest point's:
// the most, over the points, of its excess times its price per register.
// It is a floor on what a compiler would pay, not a schedule of spills.

// SpillPrice is the price of one register per lane held over the budget
// at a point run trips times: one store and trips loads, each a
// warp-wide access of one 32-bit word per lane.
func SpillPrice(t *Target, trips int64) int64 {
	sectors := int64(ceilDiv(t.SubgroupSize*4, 32))
	access := sectors*t.Weights.GlobalSector + t.Weights.Issue
	return (1 + trips) * access
}

// PointTrips is how many times the program passes point p.
func PointTrips(p Point) int64 {
	if p.Op == nil {
		return 1
	}
	return Trips(p.Op.In)
}

// Spill is a plan's excess over its register budget, priced.
type Spill struct {
	Cost int64 // the spill cost (0: within the budget)
	// Over is the registers per lane over the budget at the dearest
	// point, At that point; Price the price of one register there.
	Over  int
	At    Point
	Price int64
}

// SpillCost prices the registers per lane each value holds (words,
// indexed as Graph.Values) against a budget: the dearest point's excess
// times its SpillPrice. A zero budget (the target states none) costs
// nothing.
func (lv *Liveness) SpillCost(t *Target, budget int, words []int) Spill {
	var s Spill
	if budget <= 0 {
		return s
	}
	for k, used := range lv.Usage(words) {
		if used <= budget {
			continue
		}
		pt := lv.Points[k]
		price := SpillPrice(t, PointTrips(pt))
		if c := int64(used-budget) * price; c > s.Cost {
			s = Spill{Cost: c, Over: used - budget, At: pt, Price: price}
		}
	}
	return s
}

// AssignmentSpill is the spill cost of a graph whose values take the
// layouts of a, against the target's budget for its subgroups; zero
// unless the graph allows spilling.
func AssignmentSpill(g *Graph, t *Target, a *Assignment) Spill {
	if !g.SpillRegisters {
		return Spill{}
	}
	lv := LiveOn(g, t)
	return lv.SpillCost(t, t.RegisterBudget(g.Subgroups), lv.Words(g, t, a))
}
