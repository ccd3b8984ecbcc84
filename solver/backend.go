package solver

import (
	"slices"
	"time"

	"planner/solver/pbqp"
)

// Backend is a search backend, chosen by name (planner solve --solver).
// What a backend does beyond the default gini search it says by the
// facets it implements, as gini's inter package composes its solver from
// small interfaces: CoreDecider, WholeSolver, ConflictFinder. A backend
// with none of them is the gini search. A backend in a package of its
// own (solver/smt) registers itself in Backends from its init and reads
// the problem through its exported, read-only view (view.go).
type Backend interface {
	Name() string
}

// CoreDecider decides the core the exact reductions leave, in place of
// the gini MaxSAT search: the status, a choice per core node when it
// found one, and a lower bound that holds when the status is not
// optimal. It stops at the deadline and once done (the solve's context)
// is closed. An error is an internal failure, reported with its message.
type CoreDecider interface {
	Backend
	DecideCore(core *pbqp.Problem, deadline time.Time, done <-chan struct{}) (Status, []int, int64, error)
}

// WholeSolver solves the whole problem its own way. A nil result with
// no error says why it could not (the reason is printed with the plan),
// and the core search runs instead.
type WholeSolver interface {
	Backend
	SolveWhole(p *Problem, opt Options) (res *Result, why string, err error)
}

// ConflictFinder finds a minimal set of conflicting facts (indices into
// the problem's facts) for an explanation, in place of gini's.
type ConflictFinder interface {
	Backend
	Conflict(p *Problem) ([]int, error)
}

// PlacementSearch says, as a code, how a solve searched the buffers'
// placements (Result.Placements; Result.Search says it in words).
type PlacementSearch int

const (
	PlacementsEnumerated     PlacementSearch = iota // the listed placements only
	PlacementsNothingToPlace                        // the listed search: no buffer to place
	PlacementsSymbolic                              // placements as unknowns: the symbolic search's plan
	PlacementsBeyond                                // the symbolic search's plan places a buffer beyond the listed placements
	PlacementsUnbeaten                              // the symbolic search proved that no placement beats the listed search's optimum
)

// NothingToPlace is the reason a WholeSolver gives (SolveWhole's why)
// for leaving a graph without buffers to place to the listed search:
// Solve then says PlacementsNothingToPlace.
const NothingToPlace = "no buffer placement to search"

// gini is the default backend: the reductions, then gini's MaxSAT search.
type giniBackend struct{}

func (giniBackend) Name() string { return "gini" }

// greedy answers with the greedy baseline's plan (greedy.go);
// explanations search with gini.
type greedyBackend struct{}

func (greedyBackend) Name() string { return BackendGreedy }

func (greedyBackend) SolveWhole(p *Problem, _ Options) (*Result, string, error) {
	return p.solveGreedy(&Result{Problem: p, Candidates: p.candidateCount()}), "", nil
}

// Backends are the search backends by name: "gini" always, "greedy",
// and "smt" and "smt-symbolic" once package solver/smt is linked in
// (its init registers them; it has them only with the z3 tag).
var Backends = map[string]Backend{"gini": giniBackend{}, BackendGreedy: greedyBackend{}}

// BackendNames lists the backends this binary has, sorted.
func BackendNames() []string {
	var names []string
	for n := range Backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// backendOf is the backend an Options names (gini when it names none).
func backendOf(opt Options) Backend {
	if b, ok := Backends[opt.Backend]; ok {
		return b
	}
	return giniBackend{}
}
