package model

// Internals the external tests compare against each other.
var (
	AnalyzeLinear     = analyzeLinear
	AnalyzeByElements = analyzeByElements
	ComparableDigits  = comparableDigits
)
