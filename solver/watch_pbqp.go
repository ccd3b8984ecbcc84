package solver

// monitor lets the PBQP search report to a solve's watch and stop at its
// limits (pbqp.Monitor).
type monitor struct{ w *watch }

func (m monitor) Phase(name, pass string, total int) { m.w.phase(name, pass, total) }
func (m monitor) Reduced(steps int) error            { return m.w.reduced(steps) }
func (m monitor) Watching() bool                     { return m.w.watchesSearch() }
func (m monitor) Check() error                       { return m.w.checkNow() }
func (m monitor) Search(solves int, incumbent, bound int64) {
	m.w.searchState(solves, incumbent, bound)
}
func (m monitor) Err() error { return m.w.err() }
