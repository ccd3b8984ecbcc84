package notation

import (
	"fmt"
	"math/bits"
	"strings"

	"planner/model"
)

// errorf makes an error about a field of a notation.
func errorf(code model.Code, field string, format string, args ...any) *model.Error {
	return &model.Error{Code: code, Field: field, Index: -1, Msg: fmt.Sprintf(format, args...)}
}

// errorAt makes an error about entry i of a list field of a notation.
func errorAt(code model.Code, field string, i int, format string, args ...any) *model.Error {
	return &model.Error{Code: code, Field: field, Index: i, Msg: fmt.Sprintf(format, args...)}
}

// hwDigit is digit p of hardware axis h.
type hwDigit struct {
	h model.HwDim
	p int
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// isPermutation reports whether perm orders 0..n-1.
func isPermutation(perm []int, n int) bool {
	if len(perm) != n {
		return false
	}
	seen := make([]bool, n)
	for _, p := range perm {
		if p < 0 || p >= n || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// joinInts prints xs as a bracketed list with sep between the numbers.
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, sep) + "]"
}
