package planner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"planner/solver"
)

// Prove holds a replayed plan's status and lower bound to a new search of
// its graph, run under limit: a plan claiming optimal is refused when
// the search finds a cheaper one, a lower bound when the search proves
// the cheapest plan costs less, and a plan claiming to be the greedy
// baseline's when the greedy baseline's costs otherwise. It returns a
// sentence saying what the search settled: the optimum re-proved, or,
// when the limit stopped it first, that it was not.
func (pl *Planner) Prove(ctx context.Context, r *Replay, limit time.Duration) (string, error) {
	p := r.Plan
	ctx, cancel := context.WithTimeoutCause(ctx, limit, solver.TimeLimit(limit))
	defer cancel()
	if p.Status == "greedy" {
		res, err := pl.Search(ctx, r.Graph, Options{Backend: "greedy"})
		switch {
		case isLimit(err):
			return fmt.Sprintf("the greedy baseline did not finish within %v", limit), nil
		case err != nil:
			return "", err
		case res.Assignment == nil || res.Cost != p.Cost:
			return "", r.File.KeyError("status", fmt.Sprintf("status: the plan claims the greedy baseline's plan, which %s", greedyCost(res)), "cost")
		}
		return "the greedy baseline's cost recomputed", nil
	}
	res, err := pl.Search(ctx, r.Graph, Options{})
	if isLimit(err) || err == nil && res.Assignment == nil && res.Status == solver.StatusUnknown {
		return fmt.Sprintf("optimality not re-proved: a search of %v found no plan", limit), nil
	}
	if err != nil {
		return "", err
	}
	proved := res.Status == solver.StatusOptimal
	switch {
	case res.Assignment != nil && res.Cost < p.Cost && p.Status == "optimal":
		return "", r.File.KeyError("status", fmt.Sprintf("status: the plan claims optimal at cost %d, and a new search finds a plan of cost %d", p.Cost, res.Cost), "cost", "lower_bound")
	case proved && p.LowerBound > res.Cost:
		return "", r.File.KeyError("lower_bound", fmt.Sprintf("lower_bound: the plan claims no plan costs less than %d, and a new search finds the cheapest costs %d", p.LowerBound, res.Cost), "status")
	case proved && p.Status == "optimal":
		return "optimality re-proved by a new search", nil
	case proved:
		return fmt.Sprintf("a new search proves the cheapest plan costs %d", res.Cost), nil
	}
	return fmt.Sprintf("optimality not re-proved within %v: the new search found cost %d and no plan costs less than %d", limit, res.Cost, res.LowerBound), nil
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
