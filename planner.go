package planner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"planner/intrinsics"
	"planner/mlir"
	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/plans/planfile"
	"planner/solver"
	"planner/tomlio"
)

// Planner plans kernel graphs with one set of intrinsic and target
// records: the built-in ones and any a user adds.
type Planner struct {
	Records *intrinsics.Library
	// MaxInput is the most bytes a graph file may have
	// (tomlio.DefaultMaxInput when 0); a larger one is refused unread.
	MaxInput int
}

// maxInput is the limit on a graph file's size.
func (pl *Planner) maxInput() int {
	if pl.MaxInput > 0 {
		return pl.MaxInput
	}
	return tomlio.DefaultMaxInput
}

// ReadInput reads a graph's text from r (standard input), named name in
// errors, within the planner's MaxInput.
func (pl *Planner) ReadInput(name string, r io.Reader) ([]byte, error) {
	return tomlio.ReadLimit(name, r, pl.maxInput())
}

// New loads the built-in records and those of the given folders or files
// (the command line's --records).
func New(records ...string) (*Planner, error) {
	lib, err := intrinsics.Open(records...)
	if err != nil {
		return nil, err
	}
	return &Planner{Records: lib}, nil
}

// ReadGraph reads and checks a graph file, or a kernel in MLIR (a file
// named *.mlir), against the planner's targets and records; every
// problem is reported as file:line:col.
func (pl *Planner) ReadGraph(path string) (*model.Graph, error) {
	return pl.ReadGraphInput(path, Input{})
}

// ReadGraphInput is ReadGraph reading an MLIR kernel as in says.
func (pl *Planner) ReadGraphInput(path string, in Input) (*model.Graph, error) {
	data, err := tomlio.ReadFileLimit(path, pl.maxInput())
	if err != nil {
		return nil, err
	}
	return pl.ParseGraph(path, data, in)
}

// Input says how to read a kernel written in MLIR: which function, and
// the target, subgroup count and trip count of dynamic loops where the
// IR states none or the caller overrides it (planner solve's --func,
// --target, --subgroups and --trips; docs/mlir.md). A graph file states
// its own and takes none of them.
type Input struct {
	Func      string
	Target    string
	Subgroups int
	Trips     int
	// KeepAnchors keeps, in TTGIR, the encodings of the loads, stores
	// and dots as pins (--keep-anchors).
	KeepAnchors bool
	// InputLayouts pins every tensor of a TTGIR kernel to its encoding:
	// the input's own layout choice (--compare input).
	InputLayouts bool
	// Registers overrides the input's rule for registers (--registers):
	// "spill" lets a plan hold more registers per lane than the target
	// gives, the excess priced as spilling, as a graph file's registers =
	// "spill" does, and is the only way to say it for a kernel in MLIR or
	// TTGIR; "budget" keeps every plan within the target's registers; ""
	// leaves the input's own rule (MLIR and TTGIR: the budget).
	Registers string
}

// IsMLIR reports whether a file is read as MLIR: its name ends in .mlir,
// or in .ttgir (Triton's GPU dialect, docs/triton.md).
func IsMLIR(name string) bool {
	return strings.HasSuffix(name, ".mlir") || strings.HasSuffix(name, ".ttgir")
}

// ParseGraph reads a graph's text, named name: MLIR for a name ending in
// .mlir (the function in names, read as in says), a graph file
// otherwise.
func (pl *Planner) ParseGraph(name string, data []byte, in Input) (*model.Graph, error) {
	g, _, err := pl.parse(name, data, in)
	return g, err
}

// parse is ParseGraph with, for MLIR, the kernel read (the module and
// the map between it and the graph), for writing the plan back.
func (pl *Planner) parse(name string, data []byte, in Input) (*model.Graph, *mlir.Kernel, error) {
	if IsMLIR(name) {
		k, err := mlir.ReadKernel(name, data, pl.mlirOptions(in))
		if err != nil {
			return nil, nil, err
		}
		g := k.Graph()
		registerRule(g, in.Registers)
		if strings.HasSuffix(name, ".ttgir") && !in.InputLayouts {
			g.Named = pl.encodings(name, data, in)
		}
		return g, k, nil
	}
	if regs := in.Registers; in != (Input{Registers: regs}) {
		return nil, nil, &model.Error{Pos: model.Pos{File: name}, Code: model.CodeBadValue, Index: -1,
			Msg: "--func, --target, --subgroups and --trips say how to read a kernel in MLIR (a file named *.mlir); a graph file states its target and subgroups itself"}
	}
	g, err := tomlio.ParseGraph(name, data, pl.Records.Targets)
	if err == nil {
		registerRule(g, in.Registers)
	}
	return g, nil, err
}

// encodings are the distinct layouts of a TTGIR kernel's encodings: the
// kernel read again with every tensor pinned to its own (as --compare
// input reads it), its pins gathered. None where that read fails.
func (pl *Planner) encodings(name string, data []byte, in Input) []*model.Layout {
	in.InputLayouts = true
	g, err := mlir.ReadGraph(name, data, pl.mlirOptions(in))
	if err != nil {
		return nil
	}
	var out []*model.Layout
	for _, v := range g.Values {
		if v.Pin != nil && v.Pin.Layout != nil && !slices.ContainsFunc(out, v.Pin.Layout.Equal) {
			out = append(out, v.Pin.Layout)
		}
	}
	return out
}

// registerRule applies --registers to a graph read: "spill" or "budget"
// in place of the graph's own rule, "" leaving it.
func registerRule(g *model.Graph, rule string) {
	switch rule {
	case "spill":
		g.SpillRegisters = true
	case "budget":
		g.SpillRegisters = false
	}
}

func (pl *Planner) mlirOptions(in Input) mlir.Options {
	return mlir.Options{Func: in.Func, Target: in.Target, Subgroups: in.Subgroups, Trips: in.Trips, Targets: pl.Records.Targets,
		KeepAnchors: in.KeepAnchors, InputLayouts: in.InputLayouts, Offered: pl.Records.Offered}
}

// WriteMLIR writes the kernel in MLIR that res solved (its text data,
// named name, read as in says) back with res's plan in it, unchanged
// outside the edits (docs/mlir.md, "What is written"). A result without
// a plan, or of a graph file, is an error. The kernel SolveText read
// (the module and the map between it and the graph) is written into
// when name, data and in are the ones it was read from; else the text
// is read again.
func (pl *Planner) WriteMLIR(w io.Writer, name string, data []byte, in Input, res *Result) error {
	if err := CanWriteMLIR(name); err != nil {
		return err
	}
	if res.Plan == nil {
		return fmt.Errorf("%s: no plan to write", name)
	}
	if k := res.kernel; k != nil && k.name == name && k.in == in && k.Text() == string(data) {
		return k.Write(w, res.Plan) // the kernel the solve read: not read again
	}
	return mlir.WritePlan(w, name, data, pl.mlirOptions(in), res.Plan)
}

// readKernel is an MLIR kernel as SolveText read it: named name, read as
// in says.
type readKernel struct {
	*mlir.Kernel
	name string
	in   Input
}

// CanWriteMLIR says why the input named name cannot be written back as
// MLIR (it is a graph file), or nil: callers check before they solve.
func CanWriteMLIR(name string) error {
	if IsMLIR(name) {
		return nil
	}
	return fmt.Errorf("--format mlir writes a kernel read from MLIR back with its plan in it: %s is a graph file (name a file *.mlir, or use --format text, json, toml or dot)", name)
}

// Target is the graph's target and the records it offers; nil when the
// planner has no such target (a graph the reader did not check). The
// error is a record of the target's that does not parse.
func (pl *Planner) Target(g *model.Graph) (*model.Target, []*model.Record, error) {
	t := pl.Records.Targets[g.Target]
	if t == nil {
		return nil, nil, nil
	}
	recs, err := pl.Records.Offered(t)
	return t, recs, err
}

// Options say how to solve. The context passed with them is the one way
// to stop: a deadline (context.WithTimeoutCause with solver.TimeLimit
// names it "the time limit of ..."), a cancellation (Ctrl-C), or the
// memory limit below, which cancels it.
type Options struct {
	// Backend names the search: "gini" (default), "smt" (Z3, in builds
	// with the z3 tag) or "greedy", the propagation baseline.
	Backend string
	// Notation writes the plan's layouts in this notation (default: the
	// graph's own).
	Notation string
	// MemoryLimit, when set, bounds the memory the process holds (its
	// resident set, solver.MemoryHeld): the reading, the build and the
	// search stop once it holds memoryStop of it (85%), which leaves the
	// rest for the greedy fallback and the plan; the garbage collector is
	// asked to stay below it meanwhile.
	MemoryLimit uint64
	// Progress, when set, hears where a long solve stands, from the
	// build through the writing and replay of the plan.
	Progress func(solver.Progress)
	// CompareGreedy also runs the greedy baseline and sets the plan's
	// comparison with it.
	CompareGreedy bool
	// KeepProblem keeps the solver's problem in a result with a plan
	// (Result.Search.Problem), which Explain needs to say why each
	// conversion is there. Without it the problem is let go before the
	// plan is built, so that the two are never held at once (on a 100k-op
	// graph the problem is most of the memory). A result with no plan
	// keeps it always.
	KeepProblem bool
	// CompareInput also prices a TTGIR kernel's own layouts (every tensor
	// pinned to its encoding, each convert_layout a conversion) and sets
	// the plan's comparison with them; SolveFile and SolveText only.
	CompareInput bool
	// SearchTimeLimit bounds each search on its own (an explanation runs
	// one per relaxation); 0: none but the context's.
	SearchTimeLimit time.Duration
	// Input says how SolveFile and SolveText read a kernel in MLIR.
	Input Input
	// MaxConversions overrides the graph's bound on the plan's
	// conversions (max_conversions; a TTGIR kernel's own
	// ttg.convert_layout count): "none" lifts it, a number of 0 or more
	// sets it; "" keeps the graph's own.
	MaxConversions string
}

// NoConversionBound is the MaxConversions that lifts a graph's bound.
const NoConversionBound = "none"

// boundConversions is g with opt's bound on conversions in place of its
// own (g itself where opt keeps the graph's).
func boundConversions(g *model.Graph, opt Options) (*model.Graph, error) {
	switch opt.MaxConversions {
	case "":
		return g, nil
	case NoConversionBound:
		b := *g
		b.HasMaxConversions, b.MaxConversions, b.MaxConversionsFrom = false, 0, ""
		return &b, nil
	}
	n, err := strconv.Atoi(opt.MaxConversions)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(opt.MaxConversions, "-") {
		return nil, fmt.Errorf("--max-conversions %s is too large: a number of conversions up to %d, or %q (no bound)", opt.MaxConversions, math.MaxInt, NoConversionBound)
	}
	if err != nil || n < 0 {
		return nil, fmt.Errorf("--max-conversions is %q (no bound), or a number of conversions, 0 or more: found %q", NoConversionBound, opt.MaxConversions)
	}
	b := *g
	b.HasMaxConversions, b.MaxConversions, b.MaxConversionsFrom = true, n, "--max-conversions"
	return &b, nil
}

// Outcome is what a solve came to.
type Outcome int

const (
	Planned    Outcome = iota // a plan, optimal or the best within the limits
	Infeasible                // no plan satisfies the graph's constraints
	Stopped                   // a limit stopped the solve before any plan
	NoBaseline                // the greedy baseline found no plan
)

// Result is a solve's answer. Without a plan, Why says why in one sentence
// naming the graph, as planner solve prints it.
type Result struct {
	Outcome Outcome
	Graph   *model.Graph
	Target  *model.Target
	Plan    *plans.Plan    // nil without a plan
	Search  *solver.Result // the search's own answer; nil when a limit stopped the build
	Why     string
	// kernel is the MLIR kernel SolveText read, for WriteMLIR to write
	// the plan into without reading the text again; nil for a graph file.
	kernel *readKernel
	// LowerBound is what a Stopped solve proved no plan costs less than:
	// the search's bound, or the bound of what the build made before it
	// stopped (solver.LimitError); 0 when it stopped before any cost was
	// built.
	LowerBound int64
}

// SolveFile reads a graph file and solves it; the plan records the file's
// SHA-256, so that planner verify can tell a changed graph.
func (pl *Planner) SolveFile(ctx context.Context, path string, opt Options) (*Result, error) {
	data, err := tomlio.ReadFileLimit(path, pl.maxInput())
	if err != nil {
		return nil, err
	}
	return pl.SolveText(ctx, path, data, opt)
}

// SolveText solves the graph written in data, read as the file named
// name (errors say name:line:col; the command line names standard input
// "<stdin>"); the plan records the text's SHA-256, as SolveFile does. The
// context's limits cover the reading too: a limit reached while reading
// is a Stopped result whose Graph has only its File.
func (pl *Planner) SolveText(ctx context.Context, name string, data []byte, opt Options) (*Result, error) {
	if err := checkNotation(opt); err != nil {
		return nil, err
	}
	run := ctx
	ctx, stop := withMemoryLimit(ctx, opt.MemoryLimit)
	defer stop()
	var g *model.Graph
	var k *mlir.Kernel
	var err error
	// Reading a graph of hundreds of MiB takes seconds: the progress line
	// covers it too.
	reading := during(opt.Progress, time.Now(), solver.Progress{Phase: "read", Total: len(data)})
	read := within(ctx, time.Time{}, func() { g, k, err = pl.parse(name, data, opt.Input) })
	reading()
	if !read {
		stopped := &solver.LimitError{Limit: limitText(ctx), Phase: "read"}
		return &Result{Outcome: Stopped, Graph: &model.Graph{File: name}, Why: fmt.Sprintf("%s: %v", name, stopped)}, nil
	}
	if err != nil {
		return nil, err
	}
	res, err := pl.solve(ctx, run, g, opt)
	if err == nil && k != nil {
		res.kernel = &readKernel{Kernel: k, name: name, in: opt.Input}
	}
	if err == nil && res.Plan != nil {
		res.Plan.GraphHash = planfile.HashGraph(data)
		if opt.CompareInput {
			res.Plan.Compare, err = pl.compareInput(ctx, run, name, data, g, opt, res.Plan)
		}
	}
	return res, err
}

// compareInput prices the input's own layouts of a TTGIR kernel, read
// with every tensor pinned to its encoding, by the same model, and sets
// them beside the plan.
func (pl *Planner) compareInput(ctx, run context.Context, name string, data []byte, g *model.Graph, opt Options, plan *plans.Plan) (*plans.Comparison, error) {
	if g.Notation != "triton" {
		return nil, fmt.Errorf("--compare input prices the layouts a TTGIR kernel states: %s is not TTGIR (a *.ttgir file, or MLIR whose module carries ttg. attributes)", name)
	}
	in := opt.Input
	in.InputLayouts, in.KeepAnchors = true, false
	ig, err := pl.ParseGraph(name, data, in)
	if err != nil {
		return nil, fmt.Errorf("reading the input's own layouts: %w", err)
	}
	o := opt
	o.CompareInput, o.CompareGreedy, o.Input, o.MaxConversions = false, false, in, ""
	r, err := pl.solve(ctx, run, ig, o)
	if err != nil {
		return nil, fmt.Errorf("pricing the input's own layouts: %w", err)
	}
	if r.Plan == nil {
		c := plans.NewComparison(plans.BaselineInput, plan.Cost, 0, r.Why)
		if in.Registers != "spill" {
			// The input's layouts over the register budget still have a
			// peak: the one they hold when spilling is allowed.
			in.Registers = "spill"
			if sg, err := pl.ParseGraph(name, data, in); err == nil {
				o.Input = in
				if sr, err := pl.solve(ctx, run, sg, o); err == nil && sr.Plan != nil {
					c.BaselineRegisters = &sr.Plan.Registers.Peak
					c.BaselineEstimate = &sr.Plan.Registers.Estimate
				}
			}
		}
		return c, nil
	}
	c := plans.NewComparison(plans.BaselineInput, plan.Cost, r.Plan.Cost, "")
	c.BaselineRegisters = &r.Plan.Registers.Peak
	c.BaselineEstimate = &r.Plan.Registers.Estimate
	for _, cv := range r.Plan.Conv {
		c.Conversions = append(c.Conversions, cv.JSON())
	}
	return c, nil
}

// Solve chooses every value's layout, every op's intrinsic and every
// buffer's placement of a graph with the cheapest conversions, builds the
// plan from the model and replays it in the verifier before returning
// it. "No plan" is a Result with its Outcome; an error is bad input or an
// internal failure.
//
// The context's deadline bounds the whole solve, split as
// docs/architecture.md ("Stopping") says: the build runs until the
// deadline; the search stops early enough to leave as long as the build
// took for what follows it; when it has no plan, or a dearer one than
// the greedy baseline's, the greedy plan is the answer; the plan is
// built until the deadline, and verified until the deadline less as long
// as building it took (the caller's writing time); a plan whose
// verification did not finish says so in NotVerified.
func (pl *Planner) Solve(ctx context.Context, g *model.Graph, opt Options) (*Result, error) {
	if err := checkNotation(opt); err != nil {
		return nil, err
	}
	run := ctx
	ctx, stop := withMemoryLimit(ctx, opt.MemoryLimit)
	defer stop()
	return pl.solve(ctx, run, g, opt)
}

// solve is Solve under ctx, which the memory limit cancels; run is the
// caller's context, whose deadline and cancellation alone bound the
// making of the plan once the search is over (the memory limit stops the
// search, not the answer).
func (pl *Planner) solve(ctx, run context.Context, g *model.Graph, opt Options) (*Result, error) {
	start := time.Now()
	t, _, err := pl.Target(g)
	if err != nil {
		return nil, err
	}
	own := g
	if g, err = boundConversions(g, opt); err != nil {
		return nil, err
	}
	out := &Result{Graph: g, Target: t}
	defer CollectorPace(g)()
	var paced *bigPace // set by the search of a big graph, for the search and the plan
	defer func() { paced.release() }()
	res, err := pl.search(ctx, run, g, opt, &paced)
	var limit *solver.LimitError
	if errors.As(err, &limit) {
		out.Outcome, out.Why = Stopped, fmt.Sprintf("%s: %v", g.File, err)
		if limit.Bounded {
			out.LowerBound = limit.LowerBound
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.Search = res
	switch {
	case res.Baseline != "" && res.Assignment == nil:
		out.Outcome, out.Why = NoBaseline, fmt.Sprintf("%s: %s found no plan: %s", g.File, res.Baseline, res.NoPlan)
		return out, nil
	case res.Status == solver.StatusInfeasible:
		out.Outcome, out.Why = Infeasible, infeasibleWhy(g, t, res.Problem)
		return out, nil
	case res.Status == solver.StatusUnknown:
		out.Outcome, out.Why, out.LowerBound = Stopped, fmt.Sprintf("%s: stopped at %s before any plan was found; no plan costs less than %d", g.File, res.Stopped, res.LowerBound), res.LowerBound
		return out, nil
	}
	restricted := ""
	if res.Problem != nil {
		restricted = res.Problem.Restricted
	}
	if !opt.KeepProblem && !opt.CompareGreedy {
		// The problem is no longer needed: let it go before the plan is
		// built, and under a memory limit give its memory back, so that
		// the plan fits under the limit too.
		res.Problem = nil
		switch {
		case res.StoppedBy == "memory":
			debug.FreeOSMemory()
		case len(g.Values) >= bigGraph:
			// Collect the problem now, so that the plan is built in its
			// memory rather than beside it: otherwise the collector lets
			// the heap grow to twice what the build left live first
			// (a 1M-op chain peaked at 5.3 GB, 3.5 GB at the build).
			runtime.GC()
		}
	}
	done := during(opt.Progress, start, solver.Progress{Phase: "plan"})
	plan, err := planWithin(run, g, t, res.Assignment, res.Cost, opt.Notation, "the search")
	done()
	var stopped *stoppedPlan
	if errors.As(err, &stopped) {
		out.Outcome, out.LowerBound = Stopped, res.LowerBound
		out.Why = fmt.Sprintf("%s: stopped at %s while writing the plan of cost %d, found before the limit; no plan costs less than %d", g.File, stopped.limit, res.Cost, res.LowerBound)
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	plan.Status = res.Status.String()
	plan.LowerBound = res.LowerBound
	if res.Baseline != "" {
		plan.Status = res.Baseline
	}
	plan.Search = res.Search
	plan.Restricted = restricted
	plan.ConversionBoundLifted = own.HasMaxConversions && !g.HasMaxConversions
	if g.HasMaxConversions && res.Baseline == "" {
		plan.ConversionBound = &plans.ConversionBound{Max: g.MaxConversions, From: g.MaxConversionsFrom}
		if res.UnboundedConversions > 0 {
			plan.ConversionBound.Unbounded = &plans.UnboundedPlan{Cost: res.UnboundedCost, Conversions: res.UnboundedConversions}
		}
	}
	if res.StoppedBy == "memory" || res.StoppedBy == "branches" {
		plan.Stopped = res.Stopped // "the time limit" is the verdict's default
	}
	s := res.Stats
	plan.Stats = plans.Stats{Candidates: res.Candidates, Nodes: s.Nodes, Edges: s.Edges, CoreNodes: s.CoreNodes, Reduced: s.Reduced,
		Variables: s.Variables, Clauses: s.Clauses, Solves: s.Solves, Branches: s.Branches}
	if opt.CompareGreedy {
		if plan.Compare, err = compareGreedy(res, plan, opt.Notation); err != nil {
			return nil, err
		}
	}
	out.Plan = plan
	return out, nil
}

// Search builds and searches a graph's problem without making its plan,
// what planner bench times: the search's own answer, or a
// *solver.LimitError when a limit stopped the build. The search runs
// until the context's deadline.
func (pl *Planner) Search(ctx context.Context, g *model.Graph, opt Options) (*solver.Result, error) {
	return pl.search(ctx, nil, g, opt, nil)
}

// search is Search; with run (the solve's own context, which the memory
// limit does not cancel) it is the search of a solve. Under a limit the
// greedy baseline runs first, as soon as the problem is built, so that a
// search the limit cuts short still has its plan to answer with. The
// search then stops early enough to leave as long as the build took for
// what follows it (the plan, its verification and its writing); a search
// not done half the build's time before the deadline is
// abandoned and greedy's plan is the answer; without one, a
// *solver.LimitError bounded by the sum of the problem's minima. With
// paced, the search of a big graph collects the heap once its problem is
// built and paces the collector more tightly (paceBig), for the caller
// to release.
func (pl *Planner) search(ctx, run context.Context, g *model.Graph, opt Options, paced **bigPace) (*solver.Result, error) {
	ctx, stop := withMemoryLimit(ctx, opt.MemoryLimit)
	defer stop()
	t, recs, err := pl.Target(g)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, unknownTarget(g)
	}
	sopt := pl.solverOptions(opt)
	start := time.Now()
	p, err := solver.BuildWithin(ctx, g, t, recs, sopt)
	if err != nil {
		return nil, err
	}
	if paced != nil && len(g.Values) >= bigGraph {
		*paced = paceBig() // the solve releases it
	}
	if run == nil {
		res := solver.Solve(p, sopt)
		return res, res.Err
	}
	built := time.Since(start)
	bound := p.MinimaBound() // before the search changes p
	stopped := &solver.LimitError{Limit: limitText(run), Phase: "search", Bounded: true, LowerBound: bound}
	d, timed := ctx.Deadline()
	var gr *solver.GreedyResult
	if (timed || opt.MemoryLimit > 0) && opt.Backend != solver.BackendGreedy {
		if !within(run, time.Time{}, func() { gr = p.Greedy() }) {
			return nil, stopped
		}
	}
	var by time.Time // when an unfinished search is abandoned for greedy's plan
	if timed {
		p.SearchBy(d.Add(-built), solver.DeadlineLimit(ctx))
		if gr != nil && gr.Assignment != nil {
			by = d.Add(-built / 2)
		}
	}
	if opt.MemoryLimit > 0 && solver.MemoryHeld() > searchRoom(opt.MemoryLimit) {
		p.SearchBy(time.Now(), solver.MemoryLimit(opt.MemoryLimit)) // the search would not fit: greedy's plan
	}
	var res *solver.Result
	solve := solveProblem
	if !within(run, by, func() { res = solve(p, sopt) }) {
		if by.IsZero() || run.Err() != nil {
			return nil, stopped
		}
		p.Abandon() // the search, if it answers late, makes no plan beside ours
		return p.GreedyAnswer(gr, bound, limitText(run), "time"), nil
	}
	return res, res.Err
}

// infeasibleWhy says why a graph has no plan: the mma arrangements its
// pins name that the planner does not offer, where there are any (the
// minimum is over the candidates, and the graph's constraints are not
// what rules the plan out), else that no plan satisfies its constraints.
func infeasibleWhy(g *model.Graph, t *model.Target, p *solver.Problem) string {
	if p != nil {
		if outside := p.UnofferedMMAPins(); len(outside) > 0 {
			return fmt.Sprintf("%s: no plan among the planner's candidates on %s: %s", g.File, t.Name, strings.Join(outside, "; "))
		}
	}
	return fmt.Sprintf("%s: no plan satisfies the graph's constraints on %s", g.File, t.Name)
}

// solveProblem is the search of a solve under limits (a variable only so
// that a test can make it outlast its deadline).
var solveProblem = solver.Solve

// solverOptions are the solver's options for opt.
func (pl *Planner) solverOptions(opt Options) solver.Options {
	return solver.Options{Backend: opt.Backend, MemoryLimit: opt.MemoryLimit, MemoryStop: memoryStop(opt.MemoryLimit), Progress: opt.Progress, TimeLimit: opt.SearchTimeLimit}
}

// compareGreedy runs the greedy baseline on the solved problem, checks its
// plan like any other, and sets its cost beside the plan's.
func compareGreedy(res *solver.Result, plan *plans.Plan, notation string) (*plans.Comparison, error) {
	gr := res.Problem.Greedy()
	if gr.Assignment != nil {
		if _, err := planWithin(context.Background(), res.Problem.Graph, res.Problem.Target, gr.Assignment, gr.Cost, notation, "the greedy baseline"); err != nil {
			return nil, fmt.Errorf("the greedy plan: %v", err)
		}
	}
	return plans.NewComparison(solver.BackendGreedy, plan.Cost, gr.Cost, gr.NoPlan), nil
}

// bigGraph is the number of values from which a solve collects the
// heap once its problem is built and paces the collector more tightly
// (paceBig), and collects its problem before building the plan; a
// collection costs a pass over the live heap: nothing to save below this
// size. A variable only so that a test can pace a small graph's solve.
var bigGraph = 100000

// Explain says why a solved graph has no plan (for an Infeasible result:
// a minimal core of facts and at most maxRelax relaxations, each priced)
// or, for a graph with a plan, why each of its conversions is there (the
// solve must have kept its problem: Options.KeepProblem).
func (pl *Planner) Explain(ctx context.Context, res *Result, maxRelax int, opt Options) (*model.Explanation, error) {
	if res.Plan != nil && res.Search != nil && res.Search.Problem == nil {
		return nil, fmt.Errorf("%s: the solve let its problem go before the plan was built: solve with Options.KeepProblem to explain the plan's conversions", res.Graph.File)
	}
	if res.Search == nil || res.Search.Problem == nil || res.Outcome == Stopped || res.Outcome == NoBaseline {
		return nil, fmt.Errorf("%s: nothing to explain: %s", res.Graph.File, res.Why)
	}
	sopt := pl.solverOptions(opt)
	if res.Outcome == Infeasible {
		_, recs, err := pl.Target(res.Graph)
		if err != nil {
			return nil, err
		}
		return solver.Explain(res.Search.Problem, recs, maxRelax, sopt)
	}
	return solver.ExplainPlan(res.Search.Problem, res.Search, sopt)
}

// Replay is a plan file replayed against its graph.
type Replay struct {
	Plan   *plans.Plan
	Graph  *model.Graph
	Target *model.Target
	Path   string // the graph file read
	File   *planfile.File
}

// VerifyFile reads a plan written by planfile.Write and the graph it
// names (graphPath, when given, says where the graph now lies), checks
// the graph's hash, rebuilds every choice from the target's records and
// replays the plan element by element; every cost must recompute. The
// first difference is the error.
func (pl *Planner) VerifyFile(ctx context.Context, planPath, graphPath string) (*Replay, error) {
	return pl.VerifyFileInput(ctx, planPath, graphPath, Input{})
}

// VerifyFileInput is VerifyFile for a plan whose graph is a kernel in
// MLIR read as in says (its function and the trips of its dynamic
// loops): the kernel is read for the target and subgroup count the plan
// was made for.
func (pl *Planner) VerifyFileInput(ctx context.Context, planPath, graphPath string, in Input) (*Replay, error) {
	pf, err := planfile.Read(planPath)
	if err != nil {
		return nil, err
	}
	path := graphPath
	if path == "" {
		path = planGraphPath(planPath, pf.Graph)
	}
	if _, err := os.Stat(path); graphPath == "" && errors.Is(err, os.ErrNotExist) {
		return nil, graphNotFound(pf, planPath)
	}
	data, err := tomlio.ReadFileLimit(path, pl.maxInput())
	if err != nil {
		return nil, err
	}
	if err := pf.CheckGraph(path, data); err != nil {
		return nil, err
	}
	if IsMLIR(path) {
		in.Target, in.Subgroups = pf.Target, pf.Subgroups
	}
	g, err := pl.ParseGraph(path, data, in)
	if err != nil {
		return nil, err
	}
	if g, err = planBound(g, pf); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	plan, err := pl.Replay(pf, g)
	if err != nil {
		return nil, err
	}
	return &Replay{Plan: plan, Graph: g, Target: pl.Records.Targets[g.Target], Path: path, File: pf}, nil
}

// Replay rebuilds a read plan file's choices for graph g from the records
// its target offers, replays them element by element and recomputes
// every cost.
func (pl *Planner) Replay(pf *planfile.File, g *model.Graph) (*plans.Plan, error) {
	t, recs, err := pl.Target(g)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, unknownTarget(g)
	}
	offered := map[string]*model.Record{}
	for _, r := range recs {
		offered[r.Name] = r
	}
	plan, a, err := pf.Rebuild(g, offered)
	if err != nil {
		return nil, err
	}
	// The choices first, then the claims recomputed from them, then the
	// mechanisms the claims name, replayed with the plan's own counts:
	// each difference at the key that is likeliest wrong.
	if err := plans.VerifyChoices(g, a); err != nil {
		return nil, pf.Locate(err)
	}
	again, err := plans.Build(g, t, a, plan.Notation)
	if err != nil {
		return nil, pf.Locate(err)
	}
	if err := pf.CheckClaims(again); err != nil {
		return nil, err
	}
	if err := plans.VerifyMechanisms(g, a, plan); err != nil {
		return nil, pf.Locate(err)
	}
	return plan, nil
}

// planBound is g with the bound on conversions its plan was solved under,
// where the plan file records one other than the graph's own.
func planBound(g *model.Graph, pf *planfile.File) (*model.Graph, error) {
	mc := pf.MaxConversions
	if mc == "" || g.HasMaxConversions && mc == strconv.Itoa(g.MaxConversions) {
		return g, nil
	}
	b, err := boundConversions(g, Options{MaxConversions: mc}) // planfile.Parse checked mc
	if err != nil {
		return nil, err
	}
	if b.HasMaxConversions {
		b.MaxConversionsFrom = "the plan's max_conversions"
	}
	return b, nil
}

// planGraphPath is where the graph a plan names lies: as the plan names
// it, or, when no file is there, relative to the plan's folder.
func planGraphPath(planPath, named string) string {
	if _, err := os.Stat(named); err == nil || filepath.IsAbs(named) {
		return named
	}
	beside := filepath.Join(filepath.Dir(planPath), named)
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	return named
}

// graphNotFound is the error for a plan whose graph lies neither where
// the plan names it (from the working directory) nor there beside the
// plan: at the plan's file key, saying to give --graph.
func graphNotFound(pf *planfile.File, planPath string) error {
	err := pf.KeyError("file", fmt.Sprintf("the graph this plan was made from, %s, is neither there from the working directory nor beside the plan (%s): give its path with --graph", pf.Graph, filepath.Join(filepath.Dir(planPath), pf.Graph)))
	var list model.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			e.Code = model.CodeUnknownName
		}
	}
	return err
}

// unknownTarget is the error for a graph whose target the planner's
// records lack, at the graph's target key.
func unknownTarget(g *model.Graph) error {
	return &model.Error{Pos: g.TargetPos, Code: model.CodeUnknownName, Index: -1,
		Msg: fmt.Sprintf("unknown target %q: the planner's records have no such target", g.Target)}
}

// checkNotation checks the notation a solve is asked to write.
func checkNotation(opt Options) error {
	if opt.Notation != "" && !isNotation(opt.Notation) {
		return fmt.Errorf("unknown notation %q", opt.Notation)
	}
	_, err := boundConversions(&model.Graph{}, opt)
	return err
}

func isNotation(k string) bool {
	for _, x := range notation.Kinds {
		if x == k {
			return true
		}
	}
	return false
}
