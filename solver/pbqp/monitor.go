package pbqp

// Monitor is what the search reports to and asks whether it must stop:
// the caller's limits (a deadline, a memory limit, a cancelled context)
// and its progress line. Every method is cheap enough for inner loops.
type Monitor interface {
	// Phase starts a phase ("reduce", "search") or a pass of it, of
	// total steps.
	Phase(name, pass string, total int)
	// Reduced says that steps reductions are done; an error stops them.
	Reduced(steps int) error
	// Watching reports whether the monitor needs to be asked during a
	// SAT call (the search then runs each call in the background and
	// asks Check while it waits).
	Watching() bool
	// Check reports, as an error, a limit that has been reached.
	Check() error
	// Search reports the SAT calls made, the best cost found so far
	// (Inf: none) and the proven lower bound.
	Search(solves int, incumbent, bound int64)
	// Err is the limit that stopped the search, or nil.
	Err() error
}

// unwatched is the monitor of a search with no limit but its deadline.
type unwatched struct{}

func (unwatched) Phase(string, string, int) {}
func (unwatched) Reduced(int) error         { return nil }
func (unwatched) Watching() bool            { return false }
func (unwatched) Check() error              { return nil }
func (unwatched) Search(int, int64, int64)  {}
func (unwatched) Err() error                { return nil }
