package solver

import (
	"testing"
	"time"

	goldenfile "planner/internal/golden"
	"planner/solver/pbqp"
)

// The cores the reductions leave in the flash-attention graphs (the
// loop's carried sums and accumulator with their updates and the second
// mma: eight nodes of three edges each) are decided by branching, without
// a SAT call: on the f16-accumulator loops the SAT search took seconds to
// minutes for them. The SAT search, given two seconds, reaches the same
// optimum or brackets it; the short run gives it a fifth of a second on
// each core (PLANNER_LONG_TESTS=1 the two seconds). Where the graph allows
// spilling the optimum holds the spill's price, which the PBQP does not:
// there the SAT search's plan with its spill priced may cost no less.
func TestLoopCoresDecidedByBranching(t *testing.T) {
	satTime := time.Duration(goldenfile.Count(200, 2000)) * time.Millisecond
	cores := 0
	for _, s := range solvedGraphs(t) {
		if s.res.Stats.CoreNodes == 0 {
			continue
		}
		cores++
		st := s.res.Stats
		if s.res.Status != StatusOptimal || st.Solves != 0 || st.Branches == 0 {
			t.Errorf("%s: %v with a core of %d nodes, %d branches and %d SAT calls; want it decided by branching alone", s.name, s.res.Status, st.CoreNodes, st.Branches, st.Solves)
			continue
		}
		if s.p.combined && len(s.p.scratch) > 0 {
			continue // solved once per scratch cap, not as one PBQP
		}
		sat := pbqp.Solve(s.p.PBQP, pbqp.Options{NoBranch: true, Deadline: time.Now().Add(satTime)})
		if ru := s.p.regs; ru != nil && ru.spill && (sat.Status == StatusOptimal || sat.Status == StatusFeasible) {
			// A graph that allows spilling is priced with its spill
			// (solveSpilling), which the PBQP alone does not hold: the SAT
			// search's plan, with its spill priced, must cost no less than
			// the proven optimum.
			if total := sat.Cost + s.p.spillCost(sat.Choice); total < s.res.Cost {
				t.Errorf("%s: branching proves %d, and the SAT search's plan costs %d with its spill", s.name, s.res.Cost, total)
			}
			t.Logf("%s: core of %d nodes decided in %d branches at %d (spill priced); the SAT search's plan %d and its spill %d", s.name, st.CoreNodes, st.Branches, s.res.Cost, sat.Cost, s.p.spillCost(sat.Choice))
			continue
		}
		switch {
		case sat.Status == StatusOptimal && sat.Cost != s.res.Cost:
			t.Errorf("%s: branching proves %d, the SAT search %d", s.name, s.res.Cost, sat.Cost)
		case sat.Status == StatusFeasible && (sat.Cost < s.res.Cost || sat.LowerBound > s.res.Cost):
			t.Errorf("%s: branching proves %d, outside the SAT search's [%d, %d]", s.name, s.res.Cost, sat.LowerBound, sat.Cost)
		}
		t.Logf("%s: core of %d nodes decided in %d branches at %d; the SAT search: %v %d (bound %d, %d calls)", s.name, st.CoreNodes, st.Branches, s.res.Cost, sat.Status, sat.Cost, sat.LowerBound, sat.Stats.Solves)
	}
	if cores < 3 {
		t.Fatalf("only %d testdata graphs leave a core", cores)
	}
}
