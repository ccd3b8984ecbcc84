package plans

import (
	"fmt"
	"strings"

	"planner/model"
)

// RegisterPlan is the registers per lane the plan's values hold at their
// peak, where, and against the target's budget.
type RegisterPlan struct {
	// Peak is the most 32-bit registers per lane that the values live at
	// one program point hold, each counted under its layout
	// (model.RegisterWords); At names that point.
	Peak int         `json:"peak"`
	At   string      `json:"at"`
	Live []LiveValue `json:"live"`
	// Estimate is the peak as ptxas holds registers where they are
	// plentiful (model.AssignmentEstimate: every row's address formed
	// ahead, an mma's operands loaded whole, the shared-memory addresses
	// of loops and a reduction's partial results kept, the copies and
	// addresses of conversions, the coordinates masks are formed from):
	// what a kernel with room to spare is likely compiled to, and never
	// less than Peak. The budget is checked at Peak. Where the layouts
	// would hold more than the budget there (Demand), the estimate is the
	// budget: a compiler gives a lane no more (ptxas -v reports at most
	// the registers .maxnreg or the block's .maxntid allow, 255 a thread
	// on sm_80 and sm_90: CUDA C++ Programming Guide, "Compute
	// Capabilities", maximum number of 32-bit registers per thread), and
	// fits the rest by holding less at once or by spilling.
	Estimate int `json:"estimate"`
	// Demand is what the layouts would hold where registers are
	// plentiful, set only where it is more than the budget (Estimate is
	// then the budget).
	Demand int `json:"estimate_demand,omitempty"`
	// EstimateAt and EstimateLive are where the estimate peaks and what
	// is live there, as At and Live say the floor's; absent where the
	// estimate is the floor's peak.
	EstimateAt   string      `json:"estimate_at,omitempty"`
	EstimateLive []LiveValue `json:"estimate_live,omitempty"`
	// Budget is the registers per lane the target gives a block of the
	// graph's subgroups (model.Target.RegisterBudget); 0 where the target
	// states none.
	Budget int `json:"budget,omitempty"`
	// AddressRegisters and IndexRegisters are the target's register
	// widths the peak counts what the compiled code holds besides the
	// values with (model.Target.AddressRegisters); 0 where it declares
	// none.
	AddressRegisters int `json:"address_registers,omitempty"`
	IndexRegisters   int `json:"index_registers,omitempty"`
	// PredicateRegisters, ThreadRegisters and ReservedRegisters are the
	// target's predicate registers, the registers every kernel keeps and
	// those its compiler counts and never names
	// (model.Target.PredicateRegisters); 0 where it declares none.
	PredicateRegisters int `json:"predicate_registers,omitempty"`
	ThreadRegisters    int `json:"thread_registers,omitempty"`
	ReservedRegisters  int `json:"reserved_registers,omitempty"`
	// Spill is set when the graph allows spilling (registers = "spill");
	// Over is how many registers per lane the peak exceeds the budget by.
	Spill bool `json:"spill,omitempty"`
	Over  int  `json:"over,omitempty"`
	// SpillCost is the price of the excess (model.SpillCost), counted in
	// the plan's cost: SpillOver registers per lane over the budget at
	// SpillAt, the dearest point, at SpillPrice each.
	SpillCost  int64  `json:"spill_cost,omitempty"`
	SpillOver  int    `json:"spill_over,omitempty"`
	SpillAt    string `json:"spill_at,omitempty"`
	SpillPrice int64  `json:"spill_price,omitempty"`
}

// LiveValue is one value live at the peak and its registers per lane,
// or (Held set, Value empty) one thing the compiled code holds besides
// the values (model.Holding: an access's addresses, a loop's counter).
type LiveValue struct {
	Value     string `json:"value,omitempty"`
	Held      string `json:"held,omitempty"`
	Registers int    `json:"registers"`
}

// registerPlan counts the registers of a's layouts across g's program.
func registerPlan(g *model.Graph, t *model.Target, a *model.Assignment) RegisterPlan {
	live := model.LiveOn(g, t)
	words := live.Words(g, t, a) // once for the peak and the spill
	peak := live.Peak(g, words)
	estimate := model.AssignmentEstimate(g, t, a)
	if estimate.Registers < peak.Registers {
		estimate = peak // a conversion's copy smaller than the value it converts
	}
	budget := t.RegisterBudget(g.Subgroups)
	rp := RegisterPlan{Peak: peak.Registers, At: peak.Point.String(), Live: []LiveValue{}, Estimate: estimate.Registers,
		Budget: budget, Spill: g.SpillRegisters,
		AddressRegisters: t.AddressRegisters, IndexRegisters: t.IndexRegisters,
		PredicateRegisters: t.PredicateRegisters, ThreadRegisters: t.ThreadRegisters, ReservedRegisters: t.ReservedRegisters}
	for _, lv := range peak.Live {
		rp.Live = append(rp.Live, liveValue(lv))
	}
	if cap := max(budget, peak.Registers); budget > 0 && estimate.Registers > cap {
		rp.Demand, rp.Estimate = estimate.Registers, cap
	}
	if estimate.Registers > peak.Registers {
		rp.EstimateAt = estimate.Point.String()
		for _, lv := range estimate.Live {
			rp.EstimateLive = append(rp.EstimateLive, liveValue(lv))
		}
	}
	if rp.Budget > 0 && rp.Peak > rp.Budget {
		rp.Over = rp.Peak - rp.Budget
	}
	if g.SpillRegisters {
		if s := live.SpillCost(t, rp.Budget, words); s.Cost > 0 {
			rp.SpillCost, rp.SpillOver, rp.SpillAt, rp.SpillPrice = s.Cost, s.Over, s.At.String(), s.Price
		}
	}
	return rp
}

// Text is the register line of a text plan.
func (r RegisterPlan) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registers: %d per lane at the peak, %s", r.Peak, r.At)
	switch {
	case r.Budget == 0:
		b.WriteString(" (the target states no register budget)")
	case r.Over > 0:
		fmt.Fprintf(&b, ", %d over the budget of %d: spilled, as the input allows, at a cost of %d (%d over %s, %d each)",
			r.Over, r.Budget, r.SpillCost, r.SpillOver, r.SpillAt, r.SpillPrice)
	default:
		fmt.Fprintf(&b, ", budget %d", r.Budget)
	}
	var live []string
	for i, lv := range r.Live {
		if i == 6 {
			live = append(live, fmt.Sprintf("%d more", len(r.Live)-i))
			break
		}
		live = append(live, lv.String())
	}
	if len(live) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(live, ", "))
	}
	switch {
	case r.Demand > 0:
		fmt.Fprintf(&b, "; %d where registers are plentiful, the budget: the layouts would hold %d %s, which the compiler fits by holding less at once or spilling",
			r.Estimate, r.Demand, r.EstimateAt)
	case r.Estimate > r.Peak:
		fmt.Fprintf(&b, "; %d where registers are plentiful, %s", r.Estimate, r.EstimateAt)
	}
	return b.String()
}

// liveValue is one entry of a register peak as a plan states it.
func liveValue(lv model.LiveValue) LiveValue {
	if lv.Value == nil {
		return LiveValue{Held: lv.Holding.String(), Registers: lv.Registers}
	}
	return LiveValue{Value: lv.Value.Name, Registers: lv.Registers}
}

// String names a live entry and its registers: "%x 16", "counter of
// loop kv 1".
func (lv LiveValue) String() string {
	if lv.Value == "" {
		return fmt.Sprintf("%s %d", lv.Held, lv.Registers)
	}
	return fmt.Sprintf("%%%s %d", lv.Value, lv.Registers)
}

// verifyRegisters recomputes the register peak from the assignment's
// layouts: it must be within the target's budget unless the graph allows
// spilling. (The peak, its point and the excess a plan states are
// claims, recomputed by Build and compared where a plan is read back.)
func verifyRegisters(g *model.Graph, a *model.Assignment, p *Plan) error {
	// The widths are the plan's claims, as its budget is.
	t := &model.Target{AddressRegisters: p.Registers.AddressRegisters, IndexRegisters: p.Registers.IndexRegisters,
		PredicateRegisters: p.Registers.PredicateRegisters, ThreadRegisters: p.Registers.ThreadRegisters,
		ReservedRegisters: p.Registers.ReservedRegisters}
	peak := model.AssignmentPeak(g, t, a)
	budget := p.Registers.Budget
	if budget == 0 || peak.Registers <= budget || g.SpillRegisters {
		return nil
	}
	var where []Where
	var live []string
	for _, lv := range peak.Live {
		if lv.Value != nil {
			where = append(where, atValue(lv.Value))
		}
		live = append(live, liveValue(lv).String())
	}
	return &VerifyError{What: fmt.Sprintf("the values live %s hold %d registers per lane (%s), more than the budget of %d, and the graph does not allow spilling (registers = \"spill\")",
		peak.Point.String(), peak.Registers, strings.Join(live, ", "), budget), At: where}
}
