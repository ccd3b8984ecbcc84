package planner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"planner/plans"
	"planner/solver"
)

// A Proof is what a new search settled about a replayed plan's claims:
// its status (optimal, or the greedy baseline's plan) and its lower bound.
type Proof struct {
	// Said is a sentence saying what the search settled.
	Said string
	// Settled is true when every claim the plan makes beyond its replayed
	// cost was re-proved; false when the search stopped first.
	Settled bool
}

// Claim names what a plan claims beyond its replayed choices and costs,
// which only a new search can re-prove: "" when it claims nothing (a
// feasible plan with no lower bound).
func Claim(p *plans.Plan) string {
	switch {
	case p.Status == "optimal":
		return fmt.Sprintf("its claim of optimality at cost %d", p.Cost)
	case p.Status == "greedy":
		return "its claim to be the greedy baseline's plan"
	case p.LowerBound > 0:
		return fmt.Sprintf("its claim that no plan costs less than %d", p.LowerBound)
	}
	return ""
}

// Prove holds a replayed plan's status and lower bound to a new search of
// its graph, run under limit: a plan claiming optimal is refused when
// the search finds a cheaper one, a lower bound when the search proves
// the cheapest plan costs less, and a plan claiming to be the greedy
// baseline's when the greedy baseline's costs otherwise. A claim is
// re-proved only when the search proves it (a lower bound at least the
// claimed one); when the limit stops the search first, the Proof says the
// claim was not re-proved and is not Settled.
func (pl *Planner) Prove(ctx context.Context, r *Replay, limit time.Duration) (Proof, error) {
	p := r.Plan
	if limit <= 0 {
		return Proof{}, fmt.Errorf("prove: the time limit %v is not positive", limit)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, limit, solver.TimeLimit(limit))
	defer cancel()
	claim := Claim(p)
	if p.Status == "greedy" {
		res, err := pl.Search(ctx, r.Graph, Options{Backend: "greedy"})
		switch {
		case isLimit(err):
			return Proof{Said: fmt.Sprintf("%s not re-proved: the greedy baseline did not finish within %v", claim, limit)}, nil
		case err != nil:
			return Proof{}, err
		case res.Assignment == nil || res.Cost != p.Cost:
			return Proof{}, r.File.KeyError("status", fmt.Sprintf("status: the plan claims the greedy baseline's plan, which %s", greedyCost(res)), "cost")
		}
		return Proof{Said: "the greedy baseline's cost recomputed", Settled: true}, nil
	}
	res, err := pl.Search(ctx, r.Graph, Options{})
	if isLimit(err) || err == nil && res.Assignment == nil && res.Status == solver.StatusUnknown {
		if claim == "" {
			return Proof{Said: fmt.Sprintf("a new search of %v found no plan", limit), Settled: true}, nil
		}
		return Proof{Said: fmt.Sprintf("%s not re-proved: a new search of %v found no plan", claim, limit)}, nil
	}
	if err != nil {
		return Proof{}, err
	}
	proved := res.Status == solver.StatusOptimal
	bound := res.LowerBound // what the new search proves no plan undercuts
	if proved {
		bound = res.Cost
	}
	switch {
	case res.Assignment != nil && res.Cost < p.Cost && p.Status == "optimal":
		return Proof{}, r.File.KeyError("status", fmt.Sprintf("status: the plan claims optimal at cost %d, and a new search finds a plan of cost %d", p.Cost, res.Cost), "cost", "lower_bound")
	case proved && p.LowerBound > res.Cost:
		return Proof{}, r.File.KeyError("lower_bound", fmt.Sprintf("lower_bound: the plan claims no plan costs less than %d, and a new search finds the cheapest costs %d", p.LowerBound, res.Cost), "status")
	case claim == "" && proved:
		return Proof{Said: fmt.Sprintf("a new search proves the cheapest plan costs %d", res.Cost), Settled: true}, nil
	case claim == "":
		return Proof{Said: fmt.Sprintf("a new search of %v found cost %d", limit, res.Cost), Settled: true}, nil
	case p.Status == "optimal" && bound >= p.Cost:
		return Proof{Said: "optimality re-proved by a new search", Settled: true}, nil
	case p.Status != "optimal" && bound >= p.LowerBound && proved:
		return Proof{Said: fmt.Sprintf("a new search proves the cheapest plan costs %d", res.Cost), Settled: true}, nil
	case p.Status != "optimal" && bound >= p.LowerBound:
		return Proof{Said: fmt.Sprintf("lower bound re-proved: a new search proves no plan costs less than %d", bound), Settled: true}, nil
	}
	return Proof{Said: fmt.Sprintf("%s not re-proved within %v: the new search found cost %d and proved only that no plan costs less than %d", claim, limit, res.Cost, bound)}, nil
}

func isLimit(err error) bool {
	var le *solver.LimitError
	return errors.As(err, &le)
}

func greedyCost(res *solver.Result) string {
	if res.Assignment == nil {
		return "finds no plan"
	}
	return fmt.Sprintf("costs %d", res.Cost)
}
