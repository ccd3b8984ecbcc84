package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"planner/model"
)

// Progress is where a long solve stands, for a progress line.
type Progress struct {
	Phase       string // "build", "reduce" or "search"
	Pass        string // what of the phase: "candidates, round 2", "edges"
	Done, Total int    // build: ops handled in this pass; reduce: nodes left to the core search of all; search: SAT calls (Total 0)
	// Search: the best plan's cost so far (Inf: none yet) and the proven
	// lower bound.
	Incumbent, Bound int64
	Elapsed          time.Duration
	Memory           uint64 // bytes the process holds from the system
}

// ProgressAfter is how long a solve runs before its first progress
// report; ProgressEvery is the time between reports.
const (
	ProgressAfter = time.Second
	ProgressEvery = 200 * time.Millisecond
)

// LimitError says that a limit stopped a solve before any plan existed.
type LimitError struct {
	Limit string // "the time limit of 2s" or "the memory limit (4096 MiB)"
	Phase string // what was running: "read", "build", "reduce" or "search"
	// Bounded says that the build had made decisions when it stopped;
	// LowerBound is then the sum of each one's cheapest choice and each
	// edge's cheapest pair of choices: every cost is a count of
	// instructions, wavefronts or bytes times a weight, never negative,
	// so what was not built adds at least 0.
	Bounded    bool
	LowerBound int64
}

func (e *LimitError) Error() string {
	what := map[string]string{"read": "reading the graph", "build": "building the problem", "reduce": "reducing the problem", "search": "searching"}[e.Phase]
	msg := fmt.Sprintf("stopped at %s while %s, before any plan was found", e.Limit, what)
	switch {
	case e.Bounded && e.Phase == "build":
		msg += fmt.Sprintf("; no plan costs less than %d (each decision built so far at its cheapest choice)", e.LowerBound)
	case e.Bounded:
		msg += fmt.Sprintf("; no plan costs less than %d (each decision at its cheapest choice)", e.LowerBound)
	}
	return msg
}

// Limit is the cause of a context cancelled at a limit: the library and
// the command line stop a solve by cancelling its context with one, and
// the solve names it in what it reports ("stopped at the memory limit
// (4096 MiB)"). Kind is "time" or "memory".
type Limit struct {
	Kind string
	Text string // "the time limit of 2s", "the memory limit (4096 MiB)"
}

func (l *Limit) Error() string { return l.Text }

// TimeLimit is the cause for a context that times out after d.
func TimeLimit(d time.Duration) *Limit {
	return &Limit{Kind: "time", Text: fmt.Sprintf("the time limit of %v", d)}
}

// MemoryLimit is the cause for a context cancelled once the process holds
// more than n bytes.
func MemoryLimit(n uint64) *Limit {
	return &Limit{Kind: "memory", Text: fmt.Sprintf("the memory limit (%s)", bytesSize(n))}
}

// limitOf names why ctx is done: its Limit cause, a deadline, or a
// cancellation (Ctrl-C).
func limitOf(ctx context.Context) *Limit {
	cause := context.Cause(ctx)
	var l *Limit
	switch {
	case errors.As(cause, &l):
		return l
	case errors.Is(cause, context.DeadlineExceeded):
		return &Limit{Kind: "time", Text: "the context's deadline"}
	}
	return &Limit{Kind: "cancel", Text: "a cancellation"}
}

// watch keeps a solve within its time and memory limits and reports its
// progress. Its checks are cheap enough for inner loops: the clock is read
// every few calls and the memory every few milliseconds.
type watch struct {
	// ctx stops the solve when it is done; its cause names the limit.
	ctx             context.Context
	cause           *Limit
	start, deadline time.Time
	memLimit        uint64 // the limit as stated
	memStop         uint64 // where the build and the search stop: memLimit or below
	timeLimit       time.Duration
	progress        func(Progress)
	// memory reads what the process holds (a test double in tests).
	memory func() uint64

	calls      int
	every      int           // steps between reads of the clock
	memEvery   time.Duration // time between reads of the memory
	nextMemory time.Time
	nextReport time.Time
	peak       uint64
	state      Progress
	stopped    string // "time", "memory" or "cancel" once a limit is reached
	// deadlineCause names the limit when the deadline is one SearchBy set
	// before the context's.
	deadlineCause *Limit
}

// newWatch starts the clock of a solve under ctx and opt's limits.
func newWatch(ctx context.Context, opt Options) *watch {
	w := &watch{ctx: ctx, start: time.Now(), memLimit: opt.MemoryLimit, memStop: cmp.Or(min(opt.MemoryStop, opt.MemoryLimit), opt.MemoryLimit), timeLimit: opt.TimeLimit, progress: opt.Progress, memory: processMemory,
		every: 32, memEvery: 5 * time.Millisecond}
	if opt.TimeLimit > 0 {
		w.deadline = w.start.Add(opt.TimeLimit)
	}
	if d, ok := ctx.Deadline(); ok && (w.deadline.IsZero() || d.Before(w.deadline)) {
		w.deadline = d
	}
	w.nextReport = w.start.Add(ProgressAfter)
	w.state.Incumbent = Inf
	return w
}

// phase starts a phase, or a pass of it, of total steps.
func (w *watch) phase(name, pass string, total int) {
	if w == nil {
		return
	}
	w.state.Phase, w.state.Pass, w.state.Done, w.state.Total = name, pass, 0, total
}

// step counts one step of the phase and checks the limits: a
// *LimitError once one is reached.
func (w *watch) step() error {
	if w == nil {
		return nil
	}
	w.state.Done++
	return w.check()
}

// check checks the limits without counting a step, reading the clock
// every few calls.
func (w *watch) check() error {
	if w == nil {
		return nil
	}
	w.calls++
	if w.stopped == "" && w.calls%w.every != 0 {
		return nil
	}
	return w.checkNow()
}

// checkNow checks the limits.
func (w *watch) checkNow() error {
	if w == nil {
		return nil
	}
	if w.stopped != "" {
		return w.err()
	}
	select {
	case <-w.ctx.Done():
		w.cause = limitOf(w.ctx)
		w.stopped = w.cause.Kind
		return w.err()
	default:
	}
	now := time.Now()
	if !w.deadline.IsZero() && !now.Before(w.deadline) {
		if d, ok := w.ctx.Deadline(); ok && !d.After(w.deadline) {
			// The context's deadline: its timer fires now, and its cause
			// names the limit.
			<-w.ctx.Done()
			w.cause = limitOf(w.ctx)
		} else if w.deadlineCause != nil {
			w.cause = w.deadlineCause
		}
		w.stopped = "time"
		if w.cause != nil && w.cause.Kind != "cancel" {
			w.stopped = w.cause.Kind // a SearchBy for the memory limit
		}
		return w.err()
	}
	if !now.Before(w.nextMemory) {
		w.nextMemory = now.Add(w.memEvery)
		m := w.memory()
		w.peak = max(w.peak, m)
		w.state.Memory = m
		if w.memStop > 0 && m > w.memStop {
			w.stopped = "memory"
			return w.err()
		}
	}
	if w.progress != nil && !now.Before(w.nextReport) {
		w.nextReport = now.Add(ProgressEvery)
		w.state.Elapsed = now.Sub(w.start)
		w.progress(w.state)
	}
	return nil
}

// err is the error for the limit reached, nil if none.
func (w *watch) err() error {
	if w == nil || w.stopped == "" {
		return nil
	}
	return &LimitError{Limit: w.limitText(), Phase: w.state.Phase}
}

// limitText names the limit reached.
func (w *watch) limitText() string {
	if w.cause != nil {
		return w.cause.Text
	}
	switch w.stopped {
	case "time":
		return fmt.Sprintf("the time limit of %v", w.timeLimit)
	case "memory":
		return fmt.Sprintf("the memory limit (%s)", bytesSize(w.memLimit))
	}
	return ""
}

// reduced records how many nodes the reductions removed and checks the
// limits.
func (w *watch) reduced(n int) error {
	if w == nil {
		return nil
	}
	w.state.Done = n
	return w.check()
}

// searchState records the search's SAT calls, incumbent and bound for
// the progress line.
func (w *watch) searchState(solves int, incumbent, bound int64) {
	if w != nil {
		w.state.Phase, w.state.Pass, w.state.Done, w.state.Total = "search", "", solves, 0
		w.state.Incumbent, w.state.Bound = incumbent, bound
	}
}

// watchesSearch says whether the SAT calls must run watched: with a
// memory limit or a progress report (a deadline alone the SAT solver
// keeps itself).
func (w *watch) watchesSearch() bool {
	return w != nil && (w.memLimit > 0 || w.progress != nil)
}

// stoppedBy names the limit that cut a solve short: the one the watch
// saw, or else the time limit (which the SAT solver also enforces).
func (w *watch) stoppedBy() string {
	switch {
	case w == nil:
		return "the time limit"
	case w.stopped == "" && w.deadlineCause != nil && !time.Now().Before(w.deadline):
		// The SAT solver stopped at the deadline SearchBy set.
		return w.deadlineCause.Text
	case w.stopped == "" && w.timeLimit == 0:
		// A search that stopped inside a SAT call at the context's
		// deadline, before the watch saw it.
		if d, ok := w.ctx.Deadline(); ok && !time.Now().Before(d) {
			<-w.ctx.Done()
			return limitOf(w.ctx).Text
		}
		return "the time limit"
	case w.stopped == "":
		return fmt.Sprintf("the time limit of %v", w.timeLimit)
	}
	return w.limitText()
}

// MemoryHeld is the memory the process holds: its resident set (RSS),
// read from /proc/self/statm on Linux, what a memory limit bounds and
// what the system counts against it. Elsewhere, or when that file cannot
// be read, it is what the Go runtime holds from the system less what it
// has given back (runtime/metrics), which leaves out the memory of the
// program's binary and of anything outside the Go heap and stacks.
func MemoryHeld() uint64 { return processMemory() }

// memorySamples are the runtime metrics MemoryHeld falls back on.
var memorySamples = []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}

func processMemory() uint64 {
	if n, ok := residentBytes(); ok {
		return n
	}
	return runtimeMemory()
}

// runtimeMemory is what the Go runtime holds from the system.
func runtimeMemory() uint64 {
	s := make([]metrics.Sample, len(memorySamples))
	copy(s, memorySamples)
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// residentBytes reads the process's resident set from /proc/self/statm:
// its second field, in pages. false where there is no such file.
func residentBytes() (uint64, bool) {
	f, err := os.Open("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var buf [128]byte
	n, _ := f.Read(buf[:])
	return parseStatm(buf[:n], uint64(os.Getpagesize()))
}

// parseStatm reads the resident pages, the second field of a statm line,
// as bytes.
func parseStatm(line []byte, page uint64) (uint64, bool) {
	fields := strings.Fields(string(line))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * page, true
}

// SearchBy makes the search of a problem BuildWithin built stop at t
// when that comes before the context's deadline, so that what follows
// the search (the greedy fallback, the plan, its verification and its
// writing) fits in the time left; cause names the limit in what the
// solve reports (a memory limit, when the search is not to start for
// want of memory). A problem Build made has no clock to set.
func (p *Problem) SearchBy(t time.Time, cause *Limit) {
	w := p.watch
	if w == nil || t.IsZero() || (!w.deadline.IsZero() && !t.Before(w.deadline)) {
		return
	}
	w.deadline, w.deadlineCause = t, cause
}

// limitKey is the context key under which WithTimeLimit keeps its limit.
type limitKey struct{}

// WithTimeLimit is a context that times out after d with TimeLimit(d) as
// its cause, and from which DeadlineLimit names that limit before it is
// reached.
func WithTimeLimit(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	l := TimeLimit(d)
	ctx, cancel := context.WithTimeoutCause(context.WithValue(parent, limitKey{}, l), d, l)
	return ctx, cancel
}

// DeadlineLimit names the limit ctx's deadline stands for: the one
// WithTimeLimit set, or "the context's deadline".
func DeadlineLimit(ctx context.Context) *Limit {
	if l, ok := ctx.Value(limitKey{}).(*Limit); ok {
		return l
	}
	return &Limit{Kind: "time", Text: "the context's deadline"}
}

// BuildWithin is Build under ctx and opt's time and memory limits,
// reporting its progress to opt.Progress; the watch it starts runs on
// through Solve, which stops when ctx is done and names the limit from
// the context's cause (a *Limit). A limit reached while building gives a
// *LimitError.
func BuildWithin(ctx context.Context, g *model.Graph, t *model.Target, records []*model.Record, opt Options) (*Problem, error) {
	return buildWatched(g, t, records, nil, newWatch(ctx, opt))
}

// ops counts the graph's ops, loops' bodies included.
func (p *Problem) ops() int { return p.Graph.OpCount() }

// bytesSize writes a number of bytes in MiB when it is at least one.
func bytesSize(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// pastDeadline reports whether the watch has a deadline and it has come.
func (w *watch) pastDeadline() bool {
	return w != nil && !w.deadline.IsZero() && !time.Now().Before(w.deadline)
}
