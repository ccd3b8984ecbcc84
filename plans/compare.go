package plans

import (
	"fmt"
	"math"
	"strings"
)

// Comparison sets a plan's cost beside a baseline's plan for the same
// graph (planner solve --compare greedy), or beside the layouts the input
// itself chose (--compare input, on TTGIR: its encodings and
// convert_layouts, priced by the same model).
type Comparison struct {
	Baseline     string   `json:"baseline"`          // "greedy" or "input"
	Cost         int64    `json:"cost"`              // this plan's cost
	BaselineCost int64    `json:"baseline_cost"`     // the baseline's cost; -1 when it found no plan
	Ratio        *float64 `json:"ratio,omitempty"`   // BaselineCost / Cost to 3 decimals; absent when Cost is 0 or the baseline has no plan
	NoPlan       string   `json:"no_plan,omitempty"` // why the baseline found no plan
	// Conversions are the baseline's conversions, with their mechanisms
	// and costs (--compare input: those the input's layouts make).
	Conversions []ConvJSON `json:"conversions,omitempty"`
	// BaselineRegisters is, for --compare input, the register peak of the
	// input's own layouts (RegisterPlan.Peak), counted as the plan's is;
	// where they exceed the budget, the peak they hold with spilling
	// allowed. nil for greedy, or where the input's layouts have no plan
	// even then.
	BaselineRegisters *int `json:"baseline_registers,omitempty"`
	// BaselineEstimate is, as BaselineRegisters, the input's own layouts'
	// register estimate (RegisterPlan.Estimate).
	BaselineEstimate *int `json:"baseline_estimate,omitempty"`
}

// BaselineInput names the input's own layouts as a baseline.
const BaselineInput = "input"

// NewComparison compares a plan's cost with a baseline's; noPlan says why
// the baseline has none.
func NewComparison(baseline string, cost, baselineCost int64, noPlan string) *Comparison {
	c := &Comparison{Baseline: baseline, Cost: cost, BaselineCost: baselineCost, NoPlan: noPlan}
	if noPlan != "" {
		c.BaselineCost = -1
		return c
	}
	if cost > 0 {
		r := math.Round(float64(baselineCost)/float64(cost)*1000) / 1000
		c.Ratio = &r
	}
	return c
}

// Text is the comparison in one line.
func (c *Comparison) Text() string {
	var b strings.Builder
	if c.Baseline == BaselineInput {
		b.WriteString("compared with the input's own layouts (its encodings and convert_layouts, priced by the same model): ")
	} else {
		fmt.Fprintf(&b, "compared with the %s baseline: ", c.Baseline)
	}
	switch {
	case c.NoPlan != "":
		fmt.Fprintf(&b, "this plan costs %d; %s found no plan: %s", c.Cost, c.Baseline, c.NoPlan)
	case c.Ratio != nil:
		fmt.Fprintf(&b, "this plan costs %d, %s %d (ratio %s/this %.3f)", c.Cost, c.Baseline, c.BaselineCost, c.Baseline, *c.Ratio)
	default:
		fmt.Fprintf(&b, "this plan costs %d, %s %d", c.Cost, c.Baseline, c.BaselineCost)
	}
	if c.Baseline == BaselineInput && c.NoPlan == "" {
		fmt.Fprintf(&b, "\n  the input's conversions (%d):", len(c.Conversions))
		if len(c.Conversions) == 0 {
			b.WriteString(" none")
		}
		for _, v := range c.Conversions {
			fmt.Fprintf(&b, "\n    %%%s -> %s (%s): %s, cost %d: %s", v.Value, v.Consumer, v.Operand, v.Kind, v.Cost, v.Detail)
		}
	}
	return b.String()
}
