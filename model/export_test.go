package model

// Internals the external tests compare against each other.
var (
	AnalyzeLinear     = analyzeLinear
	AnalyzeByElements = analyzeByElements
	ComparableDigits  = comparableDigits
)

// AccessVectorsByElements is AccessVectors walked element by element.
func (s *SharedLayout) AccessVectorsByElements(l *Layout, vector int, t *Target) Access {
	tb := tablesOf(nil, l)
	return accessVectorsByElements(tb, vector, s.ElemBits, func(idx []int) int { return s.Offset(idx[0], idx[1]) }, t, s.countedSubgroups(tb, t))
}

// AccessRowsByElements is AccessRows walked element by element.
func (s *SharedLayout) AccessRowsByElements(l *Layout, rowsPerPhase, rowBytes int, t *Target) Access {
	tb := tablesOf(nil, l)
	return s.accessRowsByElements(tb, rowsPerPhase, rowBytes, t, s.countedSubgroups(tb, t))
}

// AccessForms names the forms AccessVectors and AccessRows count l in.
func (s *SharedLayout) AccessForms(l *Layout, rowsPerPhase, rowBytes int) (vectors, rows string) {
	names := map[addressForm]string{formWalk: "walk", formXOR: "xor", formAdditive: "additive"}
	v := s.accessForm(l)
	if v == formXOR && !l.binary() || v == formAdditive && !l.registersApart() {
		v = formWalk
	}
	r := s.rowsForm(rowsPerPhase, max(1, rowBytes*8/s.ElemBits))
	if !l.binary() {
		r = formWalk
	}
	return names[v], names[r]
}

// ScratchAccess counts a lane-vector access to a dense scratch buffer in
// the given dimension order (the first fastest, its runs padded by pad
// elements), from bases or element by element.
func ScratchAccess(l *Layout, vector, elemBits int, order []int, pad int, t *Target, byElements bool) Access {
	shape := l.Shape()
	off := func(idx []int) int {
		o, stride := 0, 1
		for k, d := range order {
			o += idx[d] * stride
			stride *= shape[d]
			if k == 0 {
				stride += pad
			}
		}
		return o
	}
	if byElements {
		return accessVectorsByElements(tablesOf(nil, l), vector, elemBits, off, t, []int{0})
	}
	return accessVectors(tablesOf(nil, l), vector, elemBits, off, scratchForm(elemBits), t, []int{0})
}

// ClearReason forgets a conversion's reason, so that two analyses can be
// compared field by field.
func ClearReason(c *Conversion) { c.reason, c.why = nil, digitWhy{} }
