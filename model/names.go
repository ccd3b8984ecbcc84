package model

// ValidName reports whether s may name a value, an op or a buffer of a
// graph: an MLIR SSA suffix-id, so that every name prints as %name in a
// plan, in MLIR and in a fact's name (pin:a, no_convert:a->d) unchanged.
// The grammar is MLIR's (llvm/llvm-project, mlir/docs/LangRef.md,
// "Identifiers and keywords"):
//
//	suffix-id ::= (digit+ | ((letter|id-punct) (letter|id-punct|digit)*))
//	letter    ::= [a-zA-Z]
//	id-punct  ::= [$._-]
//
// The names the planner makes up for ops without one (store@12) have an
// @ and so never meet a name a graph gives.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	digits := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '$', c == '.', c == '_', c == '-':
			if i > 0 && digits {
				return false // digits, then a letter: neither form
			}
			digits = false
		default:
			return false
		}
	}
	return true
}

// NameRule says what ValidName accepts, for messages.
const NameRule = "a name is MLIR's SSA suffix-id: digits only, or a letter or one of $ . _ - followed by letters, digits and $ . _ -"

// EditDistance is the Levenshtein distance between two words: the
// fewest single-byte insertions, deletions and substitutions that turn
// one into the other. Readers use it to suggest the name a mistyped one
// was meant to be.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
